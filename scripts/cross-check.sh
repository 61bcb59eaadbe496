#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# cross-check.sh ARCH [WORKDIR] - cross-build rngaudit for ARCH (aarch64,
# ppc64le, s390x, riscv64) and run it under qemu-user: the CPU RNG of that
# architecture (rndr/rndrrs, darn, trng, seed) with a CPU model that has it
# and, where qemu has one, a model without it; then the unit tests that do
# not need x86.  qemu backs the instructions with the host's getrandom, so
# this proves the plumbing, the probes and the failure paths, not the
# hardware's quality.
#
# What it does, each step timed (the last line sums them up):
#   toolchain  apt-get install gcc-TRIPLET qemu-user when missing (as root;
#              otherwise, or when that fails, the whole run is skipped: exit 77)
#   sysroot    the target's library packages, from a private apt state
#              (apt-get download + dpkg-deb -x: multiarch refuses e.g.
#              libgsl-dev:arm64 beside the amd64 copy); Debian 12 for arm64,
#              ppc64el and s390x, Debian 13 for riscv64 (Debian 12 has none)
#   build      a copy of the source tree, configure --host=TRIPLET against
#              that sysroot, make
#   run        the checks below, qemu invoked explicitly (-L SYSROOT): no
#              binfmt_misc is needed
#
# WORKDIR (default ./_build-cross/ARCH, which git ignores) keeps the apt state, the sysroot and the
# build; a second run reuses the sysroot.  Output is TAP; the exit status is
# 0 when every check passed, 1 otherwise, 77 when skipped.
set -u
# the checks grep one source's line of the text reports: lay them out on
# one line each, whatever the width (textwrap: COLUMNS, as tests/tap.sh)
export COLUMNS=1000

arch=${1:-}
top=$(cd "$(dirname "$0")/.." && pwd)
case $arch in
aarch64) triplet=aarch64-linux-gnu debarch=arm64 suite=bookworm qemu=qemu-aarch64
	 cpu_with=max cpu_without=cortex-a57 srcs="rndr rndrrs" lacks="CPU lacks FEAT_RNG" ;;
ppc64le) triplet=powerpc64le-linux-gnu debarch=ppc64el suite=bookworm qemu=qemu-ppc64le
	 cpu_with=power9 cpu_without=power8 srcs="darn" lacks="CPU lacks darn" ;;
s390x)   triplet=s390x-linux-gnu debarch=s390x suite=bookworm qemu=qemu-s390x
	 # qemu 7.2 with -cpu z900 answers the PRNO query without function 114:
	 # the probe's "TRNG function not offered" path on emulated hardware
	 cpu_with=max cpu_without=z900 srcs="trng" lacks="CPU lacks the TRNG function" ;;
riscv64) triplet=riscv64-linux-gnu debarch=riscv64 suite=trixie qemu=qemu-riscv64
	 cpu_with=rv64,zkr=true cpu_without=rv64 srcs="seed" lacks="seed CSR not readable here" ;;
*) echo "usage: scripts/cross-check.sh aarch64|ppc64le|s390x|riscv64 [WORKDIR]" >&2; exit 2 ;;
esac
work=${2:-$PWD/_build-cross/$arch}
mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd)
sysroot=$work/sysroot
log=$work/cross-check.log
: >"$log"

n=0 failed=0
t_start=$(date +%s)
ok() {   # ok NAME COMMAND...: one TAP line, the command's output in the log
	name=$1
	shift
	n=$((n + 1))
	if "$@" >>"$log" 2>&1; then
		echo "ok $n - $arch: $name"
	else
		echo "not ok $n - $arch: $name (see $log)"
		failed=$((failed + 1))
	fi
}
skip_all() {
	echo "1..0 # SKIP $arch: $*"
	exit 77
}
stamp() { date +%s; }

# ---- toolchain ----
t0=$(stamp)
if ! command -v "$triplet-gcc" >/dev/null 2>&1 || ! command -v "$qemu" >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || skip_all "no $triplet-gcc or $qemu, and not root to install them"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"gcc-$triplet" "libc6-dev-$debarch-cross" qemu-user >>"$log" 2>&1 ||
		skip_all "the cross toolchain (gcc-$triplet, qemu-user) cannot be installed"
fi
t1=$(stamp)

# ---- sysroot: the target's libraries, unpacked, never installed ----
libs="libgsl-dev libcsv-dev libdivsufsort-dev libbz2-dev libmpfr-dev libgmp-dev zlib1g-dev"
apt_dir=$work/apt
if [ ! -f "$sysroot/.complete" ]; then
	rm -rf "$sysroot" "$apt_dir"
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" "$sysroot" \
		"$apt_dir/parts" || exit 2
	: >"$apt_dir/status"
	# the machine's own mirror (never named here), with the suite we need
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }' \
		/etc/apt/sources.list 2>/dev/null)
	[ -n "$uri" ] || skip_all "no Debian mirror found in /etc/apt to fetch the $debarch libraries from"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
		>"$apt_dir/sources.list"
	set -- -o "APT::Architecture=$debarch" -o "APT::Architectures::=$debarch" \
		-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" \
		-o "Dir::State::status=$apt_dir/status" -o "Dir::Etc::SourceList=$apt_dir/sources.list" \
		-o "Dir::Etc::SourceParts=$apt_dir/parts" -o Debug::NoLocking=1 -o APT::Sandbox::User=root
	apt-get -qq "$@" update >>"$log" 2>&1 || skip_all "apt-get update for $debarch ($suite) failed"
	pkgs=$(apt-cache "$@" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances $libs 2>>"$log" | grep -v '^[ <]' | sort -u)
	[ -n "$pkgs" ] || skip_all "no $debarch packages for $libs in $suite"
	(cd "$apt_dir/debs" && apt-get -qq "$@" download $pkgs) >>"$log" 2>&1 ||
		skip_all "apt-get download of the $debarch libraries failed"
	for d in "$apt_dir/debs"/*.deb; do
		dpkg-deb -x "$d" "$sysroot" || exit 2
	done
	# absolute symlinks (libm.so -> /lib/...libm.so.6) point out of the
	# sysroot: make them point into it, or the linker falls back to libm.a
	find "$sysroot" -type l | while read -r l; do
		t=$(readlink "$l")
		case $t in /*) ln -sfn "$sysroot$t" "$l" ;; esac
	done
	# merged /usr (Debian 13): the dynamic loader's /lib path
	for l in lib lib64; do
		[ -e "$sysroot/$l" ] || [ ! -d "$sysroot/usr/$l" ] || ln -s "usr/$l" "$sysroot/$l"
	done
	touch "$sysroot/.complete"
fi
t2=$(stamp)

# ---- build: a copy of the tree (an in-tree configure rules out VPATH) ----
src=$work/src
build=$work/build
rm -rf "$src" "$build"
mkdir -p "$src" "$build" || exit 2
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 ||
	{ echo "Bail out! $top is not a git checkout (the tree is copied with git ls-files)"; exit 2; }
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$src") ||
	{ echo "Bail out! cannot copy the source tree"; exit 2; }
(cd "$src" && autoreconf -fi) >>"$log" 2>&1 || { echo "Bail out! autoreconf failed (see $log)"; exit 1; }
# -B and -L: the sysroot's C library and start files before the cross
# compiler's own (Debian 13's libraries for riscv64 need its newer glibc)
(cd "$build" && "$src/configure" --host="$triplet" --without-libusb FUZZ_CC= \
	CC="$triplet-gcc --sysroot=$sysroot -B$sysroot/usr/lib/$triplet/ -L$sysroot/usr/lib/$triplet" \
	PKG_CONFIG_LIBDIR="$sysroot/usr/lib/$triplet/pkgconfig:$sysroot/usr/share/pkgconfig" \
	PKG_CONFIG_SYSROOT_DIR="$sysroot") >>"$log" 2>&1 ||
	{ echo "Bail out! configure --host=$triplet failed (see $log)"; exit 1; }
# the unit tests that do not need x86 (the long double figures of NIST's
# tool are x87's: iid_oracle and the estimators' digit checks stay native)
units="test_cpurng test_cpurng_arch test_sources test_wordcheck test_health test_samples test_engine test_err
	test_parse test_atomicfile test_budget test_widefmt test_translate test_kernel test_trust test_verdict
	test_sha256 test_bigmem"
targets=
for u in $units; do
	grep -q "^tests/$u\\\$(EXEEXT):" "$build/Makefile" && targets="$targets tests/$u"
done
jobs=$(nproc 2>/dev/null || echo 2)
# the tool and those tests only: not the other test programs
make -C "$build" -j"$jobs" src/rngaudit $targets >>"$log" 2>&1 ||
	{ echo "Bail out! the $triplet build failed (see $log)"; exit 1; }
t3=$(stamp)

# ---- run under qemu-user ----
R="$build/src/rngaudit"
run_with() { "$qemu" -L "$sysroot" -cpu "$cpu_with" "$@"; }
run_without() { "$qemu" -L "$sysroot" -cpu "$cpu_without" "$@"; }
out=$work/out
mkdir -p "$out"
first=${srcs%% *}

ok "the binary is $triplet" sh -c "file '$R' | grep -q 'ELF 64-bit'"
ok "sources lists $srcs available with -cpu $cpu_with" sh -c "
	run() { \"$qemu\" -L \"$sysroot\" -cpu \"$cpu_with\" \"\$@\"; }
	run '$R' sources >'$out/sources.txt' || exit 1
	for s in $srcs; do grep -Eq \"^\$s +available\" '$out/sources.txt' || exit 1; done
	grep -Eq '^rdrand +unavailable.*not an x86 CPU' '$out/sources.txt'"
for s in $srcs; do
	ok "collect --source $s -n 100000 writes 100000 samples, health pass" sh -c "
		\"$qemu\" -L \"$sysroot\" -cpu \"$cpu_with\" '$R' collect --source $s -n 100000 -o '$out/$s.bin' &&
		[ \$(wc -c <'$out/$s.bin') -eq 100000 ]"
done
case $arch in
ppc64le)
	ok "collect --source darn:mode=0 (32-bit words)" sh -c "
		\"$qemu\" -L \"$sysroot\" -cpu \"$cpu_with\" '$R' collect --source darn:mode=0 -n 20000 -o '$out/d0.bin' \
			2>'$out/d0.err' && grep -q 'word checks: 5000 32-bit words' '$out/d0.err'"
	ok "collect --source darn:mode=2 (raw)" \
		"$qemu" -L "$sysroot" -cpu "$cpu_with" "$R" collect --source darn:mode=2 -n 20000 -o "$out/d2.bin" ;;
s390x)
	ok "collect --source trng:raw (the raw half of the same calls)" \
		"$qemu" -L "$sysroot" -cpu "$cpu_with" "$R" collect --source trng:raw -n 20000 -o "$out/raw.bin" ;;
esac
list=$(echo "$srcs" | tr ' ' ',')
ok "audit --source $list -n 100000 passes (exit 0)" sh -c "
	\"$qemu\" -L \"$sysroot\" -cpu \"$cpu_with\" '$R' audit --source $list -n 100000 >'$out/audit.txt' &&
	grep -q 'random.trust_cpu' '$out/audit.txt'"
ok "the default audit includes $first (its own architecture)" sh -c "
	\"$qemu\" -L \"$sysroot\" -cpu \"$cpu_with\" '$R' audit -n 20000 >'$out/default.txt' 2>&1
	grep -q '$first' '$out/default.txt'"
if [ -n "$cpu_without" ]; then
	ok "sources with -cpu $cpu_without: $first unavailable, $lacks" sh -c "
		\"$qemu\" -L \"$sysroot\" -cpu \"$cpu_without\" '$R' sources >'$out/sources-without.txt' &&
		grep -E '^$first +unavailable' '$out/sources-without.txt' | grep -q '$lacks'"
	ok "collect --source $first with -cpu $cpu_without: one line, exit 2, no SIGILL" sh -c "
		\"$qemu\" -L \"$sysroot\" -cpu \"$cpu_without\" '$R' collect --source $first -n 10 -o '$out/none.bin' \
			2>'$out/without.err'; rc=\$?
		[ \$rc -eq 2 ] && [ \$(wc -l <'$out/without.err') -eq 1 ] && grep -q '$lacks' '$out/without.err'"
	ok "audit with -cpu $cpu_without reports $first unavailable, exit 0" sh -c "
		\"$qemu\" -L \"$sysroot\" -cpu \"$cpu_without\" '$R' audit -n 20000 >'$out/default-without.txt' 2>&1
		rc=\$?; [ \$rc -eq 0 ] || [ \$rc -eq 1 ] || exit 1
		grep -i '$first' '$out/default-without.txt' | grep -qi unavailable"
else
	echo "# $arch: no qemu CPU model lacks $first; its refusal is tested through sim:$first (tests/test_cpurng)"
fi

# each TAP program run directly (make check would build every test program
# first): passes with a plan and no "not ok"
unit() {
	(cd "$build" && top_srcdir="$src" top_builddir="$build" "$qemu" -L "$sysroot" -cpu "$cpu_with" "$1") \
		>"$out/${1##*/}.tap" 2>&1 || return 1
	grep -q '^1\.\.[1-9]' "$out/${1##*/}.tap" && ! grep -q '^not ok' "$out/${1##*/}.tap"
}
for u in $targets; do
	ok "$u under $qemu -cpu $cpu_with" unit "$u"
	echo "# $u: $(grep -c '^ok' "$out/${u##*/}.tap") checks passed, $(grep -c '^not ok' "$out/${u##*/}.tap") failed"
done
t4=$(stamp)

echo "1..$n"
echo "# $arch: toolchain $((t1 - t0)) s, sysroot $((t2 - t1)) s, build $((t3 - t2)) s, run $((t4 - t3)) s," \
	"total $((t4 - t_start)) s"
echo "$arch: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
