#!/bin/sh
# install-deps.sh - the Debian 12 packages rngaudit needs to build and test.
# Run as root (or with sudo).  Idempotent.
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	build-essential autoconf automake autoconf-archive pkgconf git \
	libgsl-dev libcsv-dev libdivsufsort-dev libbz2-dev libmpfr-dev libgmp-dev zlib1g-dev \
	check mandoc libxml2-utils gnuplot-nox bc time libusb-1.0-0-dev python3 >/dev/null
# Optional: `make fuzz` (tests/fuzz/, HACKING.md "Fuzzing") needs clang with
# libFuzzer (Debian 12: clang 14; libFuzzer is in libclang-rt-dev, only
# recommended by clang); nothing else in the build or tests does.
if [ "${RNGAUDIT_FUZZ:-0}" = 1 ]; then
	apt-get install -y -qq --no-install-recommends clang libclang-rt-dev >/dev/null
fi
