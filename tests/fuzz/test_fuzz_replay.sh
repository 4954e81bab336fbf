#!/bin/sh
# test_fuzz_replay.sh: every fuzz target (tests/fuzz/fuzz_*.c) replays its
# seed corpus (seeds.sh: the fixtures) without a crash: under gcc in make
# check, under ASan/UBSan in the sanitizer layer of tests/run-all.sh, and
# as libFuzzer binaries in a --enable-fuzz build (files only: a folder
# would start fuzzing).  Seconds in all.
set -u
srcdir=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gwfuzz-replay.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
sh "$srcdir/tests/fuzz/seeds.sh" "$srcdir" "$tmp/seeds" || exit 1
GPUWIZ_TABLE=${GPUWIZ_TABLE:-$srcdir/data/gpus.ini}
TMPDIR=$tmp
export GPUWIZ_TABLE TMPDIR

fail=0
for name in vmx esxcli vimcmd nvsmi diagnose answers vsphere; do
	bin=tests/fuzz/fuzz_$name
	n=$(ls "$tmp/seeds/$name" | wc -l)
	if [ "$n" -lt 1 ]; then
		echo "FAIL: no seed for fuzz_$name"
		fail=1
		continue
	fi
	if "$bin" "$tmp/seeds/$name"/* >"$tmp/$name.log" 2>&1; then
		echo "ok: fuzz_$name replays its $n seeds"
	else
		echo "FAIL: fuzz_$name on its $n seeds:"
		tail -n 20 "$tmp/$name.log"
		fail=1
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
