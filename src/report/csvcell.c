/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvcell.c - spreadsheet-safe text cells (see csvcell.h). */
#include "config.h"

#include "report/csvcell.h"

#include <csv.h>
#include <string.h>

int csvcell_needs_prefix(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && s[i] == '\'')
		i++;
	return i < len && s[i] != '\0' && strchr(CSVCELL_TRIGGERS, s[i]) != NULL;
}

int csvcell_write(FILE *fp, const char *s, size_t len)
{
	if (!csvcell_needs_prefix(s, len))
		return csv_fwrite(fp, s, len) == EOF ? EOF : 0;
	/* csv_fwrite quotes one buffer: the apostrophe goes inside the quotes */
	if (fputs("\"'", fp) == EOF)
		return EOF;
	for (size_t i = 0; i < len; i++)
		if ((s[i] == '"' && fputc('"', fp) == EOF) || fputc(s[i], fp) == EOF)
			return EOF;
	return fputc('"', fp) == EOF ? EOF : 0;
}

const char *csvcell_read(const char *s)
{
	return s[0] == '\'' && csvcell_needs_prefix(s + 1, strlen(s + 1)) ? s + 1 : s;
}
