#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# install-deps.sh - the Debian 12 packages rngaudit needs to build and test.
# Run as root (or with sudo).  Idempotent.
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# (fonts-dejavu-core: DejaVu Sans Mono, the font the pictures' layout is
# measured in, scripts/rngaudit-plot.awk)
apt-get install -y -qq --no-install-recommends \
	build-essential autoconf automake autoconf-archive pkgconf git \
	libgsl-dev libcsv-dev libdivsufsort-dev libbz2-dev libmpfr-dev libgmp-dev zlib1g-dev \
	check mandoc libxml2-utils gnuplot-nox fonts-dejavu-core bc time libusb-1.0-0-dev python3 python3-jsonschema python3-pandas sqlite3 >/dev/null
# Optional: `make fuzz` (tests/fuzz/, HACKING.md "Fuzzing") needs clang with
# libFuzzer (Debian 12: clang 14; libFuzzer is in libclang-rt-dev, only
# recommended by clang); nothing else in the build or tests does.
if [ "${RNGAUDIT_FUZZ:-0}" = 1 ]; then
	apt-get install -y -qq --no-install-recommends clang libclang-rt-dev >/dev/null
fi
# promtool, for tests/prom_check.sh (`promtool check metrics` on the
# textfiles), comes only with the Prometheus server package (~96 MB).  Its
# postinst starts the server: without systemd through invoke-rc.d, whose
# failure (a container that cannot run it) fails the install, with systemd
# through deb-systemd-invoke.  Both ask /usr/sbin/policy-rc.d first, so one
# that answers 101 (action forbidden) for the install keeps the server from
# starting anywhere; ours goes away afterwards (one already there, as Docker
# images have, is left alone).  The server is then disabled (not started at
# boot either): it was installed only for promtool.  RNGAUDIT_PROMTOOL=0
# skips all of this (the test then skips).
if [ "${RNGAUDIT_PROMTOOL:-1}" = 1 ] && ! command -v promtool >/dev/null 2>&1; then
	policy=
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		policy=/usr/sbin/policy-rc.d
		trap 'rm -f "$policy"' EXIT
		printf '#!/bin/sh\n# rngaudit install-deps.sh: no service starts while it installs\nexit 101\n' >"$policy"
		chmod 755 "$policy"
	fi
	apt-get install -y -qq --no-install-recommends prometheus >/dev/null
	if [ -n "$policy" ]; then
		rm -f "$policy"
		trap - EXIT
	fi
	# update-rc.d disables the SysV links and the systemd unit alike
	update-rc.d prometheus disable >/dev/null 2>&1 || true
fi
