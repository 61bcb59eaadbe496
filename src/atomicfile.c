/* atomicfile.c - temp file + rename, so reports are written whole or not at all. */
#include "config.h"

#include "atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void atomicfile_reset(struct atomicfile *af)
{
	free(af->path);
	free(af->tmp);
	af->fp = NULL;
	af->path = NULL;
	af->tmp = NULL;
}

int atomicfile_open(struct atomicfile *af, const char *path, struct err *e)
{
	const char *slash;
	size_t dirlen, len;
	int fd;
	mode_t mask;

	memset(af, 0, sizeof *af);
	if (!path || !*path)
		return err_set(e, ERR_USAGE, "empty output file name");
	af->path = strdup(path);
	if (!af->path)
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	if (strcmp(path, "-") == 0) {
		af->fp = stdout;
		return 0;
	}
	/* The temporary is a dot-file in the same directory: same file system,
	 * so rename() is atomic, and globs like *.csv or *.prom skip it. */
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	len = strlen(path) + 32;
	af->tmp = malloc(len);
	if (!af->tmp) {
		atomicfile_reset(af);
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	snprintf(af->tmp, len, "%.*s.%s.tmp.XXXXXX", (int)dirlen, path, path + dirlen);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		int saved = errno;
		atomicfile_reset(af);
		return err_set_errno(e, err_code_from_errno(saved) == ERR_UNAVAILABLE ? ERR_IO
				     : err_code_from_errno(saved), saved, "%s: cannot write", path);
	}
	/* mkstemp creates 0600; a report is meant to be read: 0666 less umask. */
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	af->fp = fdopen(fd, "wb");
	if (!af->fp) {
		int saved = errno;
		close(fd);
		unlink(af->tmp);
		atomicfile_reset(af);
		return err_set_errno(e, ERR_IO, saved, "%s: cannot write", path);
	}
	return 0;
}

int atomicfile_commit(struct atomicfile *af, struct err *e)
{
	int failed = 0, saved = 0;

	if (!af->fp)
		return err_set(e, ERR_INTERNAL, "atomicfile committed twice");
	if (!af->tmp) {   /* stdout */
		if (fflush(af->fp) != 0) {
			saved = errno;
			failed = 1;
		}
		af->fp = NULL;
		if (failed) {
			err_set_errno(e, ERR_IO, saved, "%s: write failed", "stdout");
			atomicfile_reset(af);
			return ERR_IO;
		}
		atomicfile_reset(af);
		return 0;
	}
	if (fflush(af->fp) != 0 || ferror(af->fp) || fsync(fileno(af->fp)) != 0) {
		saved = errno ? errno : EIO;
		failed = 1;
	}
	if (fclose(af->fp) != 0 && !failed) {
		saved = errno;
		failed = 1;
	}
	af->fp = NULL;
	if (!failed && rename(af->tmp, af->path) != 0) {
		saved = errno;
		failed = 1;
	}
	if (failed) {
		unlink(af->tmp);
		err_set_errno(e, ERR_IO, saved, "%s: write failed", af->path);
		atomicfile_reset(af);
		return ERR_IO;
	}
	atomicfile_reset(af);
	return 0;
}

void atomicfile_abort(struct atomicfile *af)
{
	if (af->fp && af->tmp) {
		fclose(af->fp);
		unlink(af->tmp);
	}
	atomicfile_reset(af);
}
