/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datapath.h - where rngaudit finds its data files.
 *
 * A binary run from its build tree (its directory is $(abs_top_builddir)/src,
 * for in-tree and VPATH builds alike) reads the source tree's data/ and
 * scripts/, so that the README's first commands work before `make install`
 * and without warnings.  An installed binary reads $(pkgdatadir), and the
 * policy from $(sysconfdir)/rngaudit/policy.conf when that file exists
 * (else the built-in values, which data/policy.default spells out). */
#ifndef RNGAUDIT_DATAPATH_H
#define RNGAUDIT_DATAPATH_H

#include <stddef.h>

#include "audit/policy.h"
#include "err.h"

/* 1 if this binary runs from the build tree it was built in. */
int datapath_in_build_tree(void);

/* A data file shipped in data/ and installed in $(pkgdatadir): quirks.txt,
 * policy.default.  Returns buf. */
const char *datapath_data(const char *name, char *buf, size_t len);

/* A script shipped in scripts/ and installed in $(pkgdatadir). */
const char *datapath_script(const char *name, char *buf, size_t len);

/* The site policy file: $(sysconfdir)/rngaudit/policy.conf installed,
 * data/policy.default in the build tree. */
const char *datapath_policy_file(char *buf, size_t len);

/* The policy a command runs under: the built-in values, then `explicit`
 * (--policy FILE) if given, else the site policy file if it exists.  A
 * file that exists but cannot be read or parsed is an error naming it. */
int datapath_load_policy(struct policy *p, const char *explicit, struct err *e);

#endif
