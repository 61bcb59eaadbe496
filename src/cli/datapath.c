/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datapath.c - data files from the build tree or the installed paths (see
 * datapath.h). */
#include "config.h"

#include "cli/datapath.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* set by configure's paths (src/cli/datapath.mk) */
#ifndef RNGAUDIT_PKGDATADIR
#define RNGAUDIT_PKGDATADIR "/usr/local/share/rngaudit"
#endif
#ifndef RNGAUDIT_SYSCONFDIR
#define RNGAUDIT_SYSCONFDIR "/usr/local/etc"
#endif
#ifndef RNGAUDIT_ABS_BUILDDIR
#define RNGAUDIT_ABS_BUILDDIR ""
#endif
#ifndef RNGAUDIT_ABS_SRCDIR
#define RNGAUDIT_ABS_SRCDIR ""
#endif

int datapath_in_build_tree(void)
{
	static int known = -1;
	char exe[PATH_MAX], want[PATH_MAX];
	ssize_t n;

	if (known >= 0)
		return known;
	known = 0;
	if (!RNGAUDIT_ABS_BUILDDIR[0] || !RNGAUDIT_ABS_SRCDIR[0])
		return known;
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return known;
	exe[n] = '\0';
	snprintf(want, sizeof want, "%s/src/rngaudit", RNGAUDIT_ABS_BUILDDIR);
	known = strcmp(exe, want) == 0;
	return known;
}

/* name in the source tree's dir/ from the build tree, else in $(pkgdatadir) */
static const char *datapath_file(const char *dir, const char *name, char *buf, size_t len)
{
	if (datapath_in_build_tree())
		snprintf(buf, len, "%s/%s/%s", RNGAUDIT_ABS_SRCDIR, dir, name);
	else
		snprintf(buf, len, "%s/%s", RNGAUDIT_PKGDATADIR, name);
	return buf;
}

const char *datapath_data(const char *name, char *buf, size_t len)
{
	return datapath_file("data", name, buf, len);
}

const char *datapath_script(const char *name, char *buf, size_t len)
{
	return datapath_file("scripts", name, buf, len);
}

const char *datapath_policy_file(char *buf, size_t len)
{
	if (datapath_in_build_tree())
		return datapath_data("policy.default", buf, len);
	snprintf(buf, len, "%s/rngaudit/policy.conf", RNGAUDIT_SYSCONFDIR);
	return buf;
}

int datapath_load_policy(struct policy *p, const char *explicit, struct err *e)
{
	char buf[PATH_MAX];
	const char *path = explicit;

	policy_defaults(p);
	if (!path) {
		path = datapath_policy_file(buf, sizeof buf);
		if (access(path, F_OK) != 0)
			return 0;      /* no site policy: the built-in values */
	}
	return policy_load(p, path, e);
}
