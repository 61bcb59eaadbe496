#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# deb-clean-build.sh TARBALL [DEBIAN-DIR] - builds the Debian package in a
# minimal Debian 12 chroot that holds only what the package declares: the
# buildd variant (Essential, build-essential, apt) made by mmdebstrap, then
# `apt-get build-dep` of debian/control, then dpkg-buildpackage (with
# make check unless DEB_BUILD_OPTIONS says nocheck).  It proves that the
# declared Build-Depends are enough (issue 25 item 1) where
# dpkg-checkbuilddeps on a developer's machine cannot.
#
# Root, network access to a Debian mirror (MIRROR, default deb.debian.org)
# and mmdebstrap are needed.  It takes ~11 minutes on the project's 2-core
# machine (chroot 3.5, build-dep 1, build and make check 7), so CI runs
# tests/builddeps.sh instead, which maps each configure check to a
# declared package in seconds; run this one before a release, or when
# Build-Depends change.  Prints the time of each step; the .debs and logs
# are left in OUT (default ./clean-build).
set -eu
tarball=${1:?usage: deb-clean-build.sh TARBALL [DEBIAN-DIR]}
debdir=${2:-$(dirname "$0")/../debian}
out=${OUT:-$PWD/clean-build}
mirror=${MIRROR:-http://deb.debian.org/debian}
profiles=
case " ${DEB_BUILD_OPTIONS:-} " in *" nocheck "*) profiles="-P nocheck" ;; esac

command -v mmdebstrap >/dev/null || { echo "deb-clean-build.sh: mmdebstrap is not installed (apt-get install mmdebstrap)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "deb-clean-build.sh: run as root (mmdebstrap --mode=root)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$out"
tar -xzf "$tarball" -C "$work/src"
src=$(echo "$work"/src/*/)
rm -rf "$src/debian"
cp -r "$debdir" "$src/debian"
name=$(basename "$src")

t0=$(date +%s)
# The build runs inside mmdebstrap's customize hook, while /proc, /sys and
# /dev are mounted in the chroot (the tests read /proc/cpuinfo).
mmdebstrap --variant=buildd --mode=root --quiet \
	--customize-hook='mkdir -p "$1/build"' \
	--customize-hook="copy-in $src /build" \
	--customize-hook="chroot \"\$1\" sh -c 'date +%s >/build/t1; apt-get build-dep -y -qq $profiles /build/$name/ >/build/build-dep.log 2>&1 && date +%s >/build/t2 && cd /build/$name && DEB_BUILD_OPTIONS=\"${DEB_BUILD_OPTIONS:-}\" dpkg-buildpackage -us -uc -b >/build/build.log 2>&1; echo \$? >/build/status; date +%s >/build/t3'" \
	--customize-hook="copy-out /build $work" \
	bookworm "$work/chroot" "$mirror"
t4=$(date +%s)
cp "$work"/build/*.log "$out"/
cp "$work"/build/*.deb "$out"/ 2>/dev/null || true
status=$(cat "$work/build/status" 2>/dev/null || echo 1)
t1=$(cat "$work/build/t1"); t2=$(cat "$work/build/t2" 2>/dev/null || echo "$t1"); t3=$(cat "$work/build/t3" 2>/dev/null || echo "$t2")
echo "chroot: $((t1 - t0)) s; apt-get build-dep: $((t2 - t1)) s; dpkg-buildpackage: $((t3 - t2)) s; total: $((t4 - t0)) s"
if [ "$status" -ne 0 ]; then
	echo "deb-clean-build.sh: the build failed with only the declared Build-Depends (logs in $out)" >&2
	tail -n 20 "$out/build.log" >&2 2>/dev/null || tail -n 20 "$out/build-dep.log" >&2
	exit 1
fi
echo "deb-clean-build.sh: built with only the declared Build-Depends: $(cd "$out" && ls ./*.deb | tr '\n' ' ')"
