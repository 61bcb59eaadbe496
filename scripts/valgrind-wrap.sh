#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# valgrind-wrap.sh - run a test program (or the tool) under valgrind memcheck;
# any error makes the run fail (exit 99 = hard error for automake).
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@"
