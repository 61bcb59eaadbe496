/* SPDX-License-Identifier: GPL-3.0-or-later */
/* xmltext.c - any text, as XML 1.0 can carry it (see xmltext.h). */
#include "config.h"

#include "report/xmltext.h"

#include <string.h>

/* The length of the UTF-8 character at s if it is one XML 1.0 allows
 * (shortest form, no surrogates, not U+FFFE or U+FFFF, at most U+10FFFF),
 * else 0.  A file name need not be UTF-8, and one stray byte would make
 * the whole report unreadable. */
static size_t utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned long cp;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07u;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)           /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/* What XML 1.0 can carry of the text at s: NULL to keep its first *n bytes
 * (an ASCII byte or a whole character), or the text to write instead of its
 * first *n bytes: a space for a control character XML 1.0 forbids even
 * escaped, U+FFFD for a byte that starts no valid character. */
static const char *xmltext_char(const char *s, size_t *n)
{
	unsigned char c = (unsigned char)*s;

	*n = 1;
	if (c < 0x20 && c != '\n' && c != '\t')
		return " ";
	if (c < 0x80 || (*n = utf8_len(s)) != 0)
		return NULL;
	*n = 1;
	return "\xef\xbf\xbd";
}

/* s escaped for XML text, or for an attribute value (attr), where a parser
 * would turn a raw newline or tab into a space. */
static void xmltext_write(FILE *fp, const char *s, int attr)
{
	size_t n;

	for (; *s; s += n) {
		const char *rep = xmltext_char(s, &n);
		if (rep) {
			fputs(rep, fp);
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&apos;", fp); break;
		case '\n': fputs(attr ? "&#10;" : "\n", fp); break;
		case '\t': fputs(attr ? "&#9;" : "\t", fp); break;
		default: fwrite(s, 1, n, fp);
		}
	}
}

void xmltext_put(FILE *fp, const char *s)
{
	xmltext_write(fp, s, 0);
}

void xmltext_attr(FILE *fp, const char *s)
{
	xmltext_write(fp, s, 1);
}

/* s as the report carries it (xmltext_char()), unescaped, into out; cut at a
 * character boundary when out is too short. */
void xmltext_clean(const char *s, char *out, size_t len)
{
	size_t o = 0, n;

	for (; *s; s += n) {
		const char *rep = xmltext_char(s, &n);
		size_t k = rep ? strlen(rep) : n;
		if (o + k >= len)
			break;
		memcpy(out + o, rep ? rep : s, k);
		o += k;
	}
	out[o] = '\0';
}
