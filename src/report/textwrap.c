/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textwrap.c - the text reports laid out within a width (see textwrap.h). */
#include "config.h"

#include "report/textwrap.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "err.h"

size_t textwrap_width_pick(const char *columns, size_t tty_cols)
{
	if (columns && *columns && strspn(columns, "0123456789") == strlen(columns)) {
		/* at most 4 digits read: anything longer is past the cap */
		size_t n = strlen(columns) > 4 ? TEXTWRAP_WIDTH_MAX + 1 : (size_t)strtoul(columns, NULL, 10);
		if (n > 0)
			return n > TEXTWRAP_WIDTH_MAX ? TEXTWRAP_WIDTH_MAX : n;
	}
	if (tty_cols > 0)
		return tty_cols > TEXTWRAP_WIDTH_MAX ? TEXTWRAP_WIDTH_MAX : tty_cols;
	return TEXTWRAP_WIDTH_DEFAULT;
}

size_t textwrap_width(int fd)
{
	struct winsize ws;
	size_t tty = 0;

	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0)
		tty = ws.ws_col;
	return textwrap_width_pick(getenv("COLUMNS"), tty);
}

/* Columns of the first len bytes of s. */
static size_t len_mem(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

size_t textwrap_len(const char *s)
{
	return s ? len_mem(s, strlen(s)) : 0;
}

static int put_spaces(FILE *fp, size_t n)
{
	while (n--)
		if (fputc(' ', fp) == EOF)
			return EOF;
	return 0;
}

/* first without its trailing spaces (a line with no word after its prefix). */
static int put_trimmed(FILE *fp, const char *s)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	return fwrite(s, 1, n, fp) == n ? 0 : EOF;
}

int textwrap_put(FILE *fp, size_t width, const char *first, size_t hang, const char *text)
{
	const char *p = text ? text : "", *prefix = first ? first : "";
	size_t col = 0;
	int words = 0;        /* words on the current line */
	int first_line = 1;   /* it starts with prefix, the others with hang spaces */
	int bad = 0;

	for (;;) {
		size_t sp = strspn(p, " "), wl, wc;
		const char *w = p + sp;

		if (*w == '\n' || *w == '\0') {
			/* the line ends: a line with no word is its prefix, trimmed */
			if (!words && first_line)
				bad |= put_trimmed(fp, prefix);
			bad |= fputc('\n', fp) == EOF;
			if (*w == '\0' || w[1] == '\0')   /* a last '\n' ends the text */
				break;
			p = w + 1;
			words = 0;
			first_line = 0;
			continue;
		}
		wl = strcspn(w, " \n");
		wc = len_mem(w, wl);
		if (!words) {
			/* a line's first word goes after its indent, however long it is
			 * (a word is never broken); spaces before it are the indent's */
			if (first_line && (textwrap_len(prefix) + wc <= width || textwrap_len(prefix) <= hang ||
					   strspn(prefix, " ") == strlen(prefix))) {
				bad |= fputs(prefix, fp) == EOF;
				col = textwrap_len(prefix);
			} else if (first_line) {
				/* a word too long beside a label: the label alone, the
				 * word on the next line where it has more room */
				bad |= put_trimmed(fp, prefix);
				bad |= fputc('\n', fp) == EOF;
				bad |= put_spaces(fp, hang);
				col = hang;
			} else {
				bad |= put_spaces(fp, hang);
				col = hang;
			}
			sp = 0;
		} else if (col + sp + wc > width) {
			bad |= fputc('\n', fp) == EOF;
			bad |= put_spaces(fp, hang);
			col = hang;
			sp = 0;
		}
		bad |= put_spaces(fp, sp);
		bad |= fwrite(w, 1, wl, fp) != wl;
		col += sp + wc;
		words++;
		p = w + wl;
	}
	return bad ? EOF : 0;
}

int textwrap_printf(FILE *fp, size_t width, const char *first, size_t hang, const char *fmt, ...)
{
	va_list ap;
	char small[1024], *buf = small;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return EOF;
	if ((size_t)n >= sizeof small) {
		if (!(buf = malloc((size_t)n + 1)))
			return ERR_NOMEM;
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	rc = textwrap_put(fp, width, first, hang, buf);
	if (buf != small)
		free(buf);
	return rc;
}

int textwrap_item(FILE *fp, size_t width, size_t indent, size_t labelw, const char *label, const char *text)
{
	size_t ll = textwrap_len(label), n = indent + strlen(label) + labelw + 2;
	char small[256], *prefix = n <= sizeof small ? small : malloc(n);
	int rc;

	if (!prefix)
		return ERR_NOMEM;
	memset(prefix, ' ', indent);
	strcpy(prefix + indent, label);
	if (width < TEXTWRAP_NARROW) {
		/* no room for a column of labels: the text follows its label */
		strcat(prefix, " ");
		rc = textwrap_put(fp, width, prefix, indent + 2, text);
	} else {
		size_t pad = ll < labelw ? labelw - ll : 0;
		memset(prefix + strlen(prefix), ' ', pad + 1);
		prefix[indent + strlen(label) + pad + 1] = '\0';
		rc = textwrap_put(fp, width, prefix, indent + ll + pad + 1, text);
	}
	if (prefix != small)
		free(prefix);
	return rc;
}

void textwrap_table_init(struct textwrap_table *t, const struct textwrap_col *col, size_t ncols)
{
	memset(t, 0, sizeof *t);
	t->col = col;
	t->ncols = ncols > TEXTWRAP_COLS_MAX ? TEXTWRAP_COLS_MAX : ncols;
}

int textwrap_table_add(struct textwrap_table *t, const char *const *cells)
{
	if (t->nrows == t->room) {
		size_t nr = t->room ? 2 * t->room : 8;
		char **c = realloc(t->cell, nr * t->ncols * sizeof *c);
		if (!c)
			return ERR_NOMEM;
		t->cell = c;
		t->room = nr;
	}
	for (size_t i = 0; i < t->ncols; i++) {
		char **dst = &t->cell[t->nrows * t->ncols + i];
		if (!(*dst = strdup(cells[i] ? cells[i] : ""))) {
			while (i--)
				free(t->cell[t->nrows * t->ncols + i]);
			return ERR_NOMEM;
		}
	}
	t->nrows++;
	return 0;
}

void textwrap_table_free(struct textwrap_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cell[i]);
	free(t->cell);
	t->cell = NULL;
	t->nrows = t->room = 0;
}

/* A line being built: room for every cell of a row and its padding. */
struct line {
	char *s;
	size_t len;
};

static void line_pad(struct line *l, size_t n)
{
	memset(l->s + l->len, ' ', n);
	l->len += n;
	l->s[l->len] = '\0';
}

static void line_cat(struct line *l, const char *s)
{
	size_t n = strlen(s);
	memcpy(l->s + l->len, s, n + 1);
	l->len += n;
}

/* One cell in a column w wide, after sep spaces. */
static void line_cell(struct line *l, const char *s, size_t w, enum textwrap_align a, int last, size_t sep)
{
	size_t n = textwrap_len(s), pad = n < w ? w - n : 0;
	line_pad(l, sep);
	if (a == TEXTWRAP_RIGHT)
		line_pad(l, pad);
	line_cat(l, s);
	if (a != TEXTWRAP_RIGHT && !last)
		line_pad(l, pad);
}

/* Each row as a block: its name alone on a line, whole, then one line per
 * cell, "label value" (every name whole, one per line). */
static int table_blocks(const struct textwrap_table *t, FILE *fp, size_t width)
{
	int bad = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		char *const *c = t->cell + r * t->ncols;
		bad |= textwrap_put(fp, SIZE_MAX, "", 0, c[0]);   /* whole, however narrow */
		for (size_t i = 1; i < t->ncols; i++)
			if (*c[i])
				bad |= textwrap_item(fp, width, 2, 0, t->col[i].label ? t->col[i].label : t->col[i].head,
						     c[i]);
	}
	return bad;
}

int textwrap_table_write(const struct textwrap_table *t, FILE *fp, size_t width)
{
	size_t w[TEXTWRAP_COLS_MAX] = { 0 }, fixed = 0, need, room = 1, w0;
	int prose = t->ncols > 1 && t->col[t->ncols - 1].align == TEXTWRAP_PROSE;
	size_t last = t->ncols - 1;
	struct line l;
	int bad = 0;

	if (t->ncols == 0)
		return 0;
	for (size_t i = 0; i < t->ncols; i++) {
		w[i] = textwrap_len(t->col[i].head);
		room += strlen(t->col[i].head) + 4 + (t->col[i].label ? strlen(t->col[i].label) : 0);
		for (size_t r = 0; r < t->nrows; r++) {
			const char *c = t->cell[r * t->ncols + i];
			size_t n = textwrap_len(c);
			if (n > w[i])
				w[i] = n;
			room += strlen(c);
		}
	}
	/* the columns right of the name: one space before each, two before prose */
	for (size_t i = 1; i < t->ncols; i++)
		if (!(prose && i == last))
			fixed += 1 + w[i];
	need = fixed + (prose ? 2 + TEXTWRAP_PROSE_MIN : 0);
	w0 = w[0];
	if (w0 + need > width)
		w0 = width > need ? width - need : 0;
	room += width + 3 * t->ncols + fixed + w[0];
	if (!(l.s = malloc(room)))
		return ERR_NOMEM;
	if (width < TEXTWRAP_NARROW || (w0 < w[0] && w0 < TEXTWRAP_NAME_MIN) || w0 < textwrap_len(t->col[0].head)) {
		bad = table_blocks(t, fp, width);
		free(l.s);
		return bad ? EOF : 0;
	}
	for (size_t r = 0; r <= t->nrows; r++) {
		const char *const *c = r == 0 ? NULL : (const char *const *)t->cell + (r - 1) * t->ncols;
		const char *name = c ? c[0] : t->col[0].head;
		l.len = 0;
		l.s[0] = '\0';
		if (textwrap_len(name) > w0) {
			/* a long name alone, whole; the cells below, under their headings */
			bad |= textwrap_put(fp, SIZE_MAX, "", 0, name);
			line_pad(&l, w0);
		} else {
			line_cell(&l, name, w0, TEXTWRAP_LEFT, t->ncols == 1, 0);
		}
		for (size_t i = 1; i < t->ncols; i++) {
			const char *s = c ? c[i] : t->col[i].head;
			if (prose && i == last) {
				line_pad(&l, 2);
				break;
			}
			line_cell(&l, s, w[i], t->col[i].align, i == last, 1);
		}
		/* the prose, wrapped under its heading; a line's trailing spaces go */
		bad |= textwrap_put(fp, width, l.s, w0 + fixed + 2, prose ? (c ? c[last] : t->col[last].head) : "");
	}
	free(l.s);
	return bad ? EOF : 0;
}
