/* err.c - the error type passed up from library code. */
#include "config.h"

#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void err_vformat(struct err *e, int code, const char *fmt, va_list ap)
{
	e->code = code;
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

int err_set(struct err *e, int code, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		err_vformat(e, code, fmt, ap);
		va_end(ap);
	}
	return code;
}

int err_set_errno(struct err *e, int code, int errnum, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		size_t len;
		va_start(ap, fmt);
		err_vformat(e, code, fmt, ap);
		va_end(ap);
		len = strlen(e->msg);
		snprintf(e->msg + len, sizeof e->msg - len, ": %s", strerror(errnum));
	}
	return code;
}

int err_code_from_errno(int errnum)
{
	switch (errnum) {
	case ENOENT: case ENODEV: case ENXIO: return ERR_UNAVAILABLE;
	case EACCES: case EPERM: return ERR_PERM;
	case ENOMEM: return ERR_NOMEM;
	case EINTR: return ERR_INTERRUPTED;
	case EINVAL: return ERR_USAGE;
	default: return ERR_IO;
	}
}

void err_clear(struct err *e)
{
	if (e) {
		e->code = ERR_OK;
		e->msg[0] = '\0';
	}
}
