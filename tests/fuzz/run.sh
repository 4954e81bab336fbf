#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run.sh SRCDIR BUILDDIR NAME...: `make fuzz` (tests/fuzz/README.md).
# Runs each libFuzzer target tests/fuzz/fuzz_NAME for $FUZZ_SECONDS
# (default 60) on one core, from the seed corpus (seeds.sh) and the corpus
# it grew in earlier runs (BUILDDIR/tests/fuzz/work/corpus/NAME); prints
# the runs of each target and any crash, saved under SRCDIR/tests/fuzz/
# crashes (NAME-crash-..., NAME-leak-..., NAME-timeout-...).  Exit 1 when
# a target crashed.
set -u
src=$1
build=$2
shift 2
secs=${FUZZ_SECONDS:-60}
work=$build/tests/fuzz/work
crashes=$src/tests/fuzz/crashes
mkdir -p "$work/corpus" "$crashes"
sh "$src/tests/fuzz/seeds.sh" "$src" "$work/seeds" || exit 1
GPUWIZ_TABLE=${GPUWIZ_TABLE:-$src/data/gpus.ini}
LSAN_OPTIONS=suppressions=$src/tests/lsan.supp
UBSAN_OPTIONS=print_stacktrace=1
export GPUWIZ_TABLE LSAN_OPTIONS UBSAN_OPTIONS

failed=0
for name; do
	bin=$build/tests/fuzz/fuzz_$name
	log=$work/$name.log
	mkdir -p "$work/corpus/$name"
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$crashes/$name-" \
		"$work/corpus/$name" "$work/seeds/$name" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(sed -n 's/^#[0-9]*[	 ]*DONE *cov: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	units=$(ls "$work/corpus/$name" | wc -l)
	if [ "$rc" -eq 0 ]; then
		printf 'fuzz_%s: %s runs in %s s, coverage %s, corpus %s, no crash\n' \
			"$name" "${runs:-?}" "$secs" "${cov:-?}" "$units"
		continue
	fi
	failed=1
	printf 'fuzz_%s: CRASH after %s runs (exit %s); log %s\n' \
		"$name" "${runs:-?}" "$rc" "$log"
	grep -E '^==[0-9]+==ERROR|^SUMMARY|invariant failed|runtime error' "$log" | head -n 5
	sed -n 's/.*Test unit written to \(.*\)/  saved: \1/p' "$log"
done
exit $failed
