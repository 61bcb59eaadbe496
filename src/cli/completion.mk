# SPDX-License-Identifier: GPL-3.0-or-later
# completion.mk: bash completion for the commands, their options and the
# source specs (data/bash-completion/rngaudit; configure
# --with-bashcompletiondir) and its test (included by Makefile.am)
if HAVE_BASH_COMPLETION
dist_bashcompletion_DATA = data/bash-completion/rngaudit
else
EXTRA_DIST += data/bash-completion/rngaudit
endif
AM_DISTCHECK_CONFIGURE_FLAGS += \
	--with-bashcompletiondir='$${dc_install_base}/share/bash-completion/completions'
TESTS += tests/completion.sh
dist_check_SCRIPTS += tests/completion.sh
