/* SPDX-License-Identifier: GPL-3.0-or-later */
/* xmltext.h - any text (file names, source specs, messages) as XML 1.0 can
 * carry it, for the JUnit report (report/junit.c).  A file name need not be
 * UTF-8 and may hold control characters: one stray byte would make the
 * whole report unreadable, so a byte that starts no valid UTF-8 character
 * becomes U+FFFD and a control character XML 1.0 forbids even escaped a
 * space; the rest is escaped (&amp; &lt; &gt; &quot; &apos;). */
#ifndef RNGAUDIT_XMLTEXT_H
#define RNGAUDIT_XMLTEXT_H

#include <stddef.h>
#include <stdio.h>

/* s as element text (newlines and tabs kept). */
void xmltext_put(FILE *fp, const char *s);
/* s as an attribute value: newline and tab as &#10; and &#9;, which a
 * parser would otherwise turn into spaces. */
void xmltext_attr(FILE *fp, const char *s);
/* s as a parser reads the report back (replacements made, unescaped) into
 * out (len bytes, NUL-terminated), cut at a character boundary. */
void xmltext_clean(const char *s, char *out, size_t len);

#endif
