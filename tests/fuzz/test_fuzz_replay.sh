#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_fuzz_replay.sh: every fuzz target (tests/fuzz/fuzz_*.c) replays its
# seed corpus (seeds.sh: the fixtures) without a crash: under gcc in make
# check, under ASan/UBSan in the sanitizer layer of tests/run-all.sh, and
# as libFuzzer binaries in a --enable-fuzz build (files only: a folder
# would start fuzzing).  Where valgrind is installed ($VALGRIND, set by
# make check) and the binaries are not sanitized, the replay runs under
# valgrind's memcheck as well (an invalid read or a definite leak fails).
# Seconds in all (about 15 under valgrind).
set -u
srcdir=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gwfuzz-replay.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
sh "$srcdir/tests/fuzz/seeds.sh" "$srcdir" "$tmp/seeds" || exit 1
GPUWIZ_TABLE=${GPUWIZ_TABLE:-$srcdir/data/gpus.ini}
TMPDIR=$tmp
export GPUWIZ_TABLE TMPDIR

# run NAME BIN: replay the seeds of NAME with BIN (a command line)
run() {
	n=$(ls "$tmp/seeds/$1" | wc -l)
	if [ "$n" -lt 1 ]; then
		echo "FAIL: no seed for fuzz_$1"
		return 1
	fi
	if $2 "$tmp/seeds/$1"/* >"$tmp/$1.log" 2>&1; then
		echo "ok: fuzz_$1 replays its $n seeds${3:-}"
		return 0
	fi
	echo "FAIL: fuzz_$1 on its $n seeds${3:-}:"
	tail -n 20 "$tmp/$1.log"
	return 1
}

vg=
if [ -n "${VALGRIND:-}" ] && [ -z "${GW_SANITIZED:-}" ] &&
   ! grep -q __asan_init tests/fuzz/fuzz_vmx 2>/dev/null; then
	vg="$VALGRIND -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite"
fi

fail=0
# (a build configured --without-vsphere has no vSphere parsers to fuzz)
names="vmx esxcli vimcmd nvsmi diagnose answers vsphere vsupdates gputable linux samplehost"
if [ "${GW_WITH_VSPHERE:-yes}" = no ]; then
	echo "# no vSphere module in this build (--without-vsphere): fuzz_vsphere and fuzz_vsupdates left out"
	names=$(echo "$names" | sed 's/ vsphere vsupdates//')
fi
for name in $names; do
	run "$name" "tests/fuzz/fuzz_$name" || fail=1
	if [ -n "$vg" ]; then
		run "$name" "$vg tests/fuzz/fuzz_$name" " under valgrind" || fail=1
	fi
done
# the seed builder strips the source line: the vSphere seeds are XML
for f in "$tmp/seeds/vsphere"/*.xml; do
	if ! head -c 5 "$f" | grep -q '^<?xml'; then
		echo "FAIL: $(basename "$f"): seed does not start with <?xml"
		fail=1
	fi
done
# the answers target leaves no scratch folder behind
if ls "$tmp" | grep -q '^gwfuzz-'; then
	echo "FAIL: fuzz_answers left $(ls "$tmp" | grep '^gwfuzz-')"
	fail=1
fi
exit $fail
