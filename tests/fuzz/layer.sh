#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# layer.sh [JOBS]: the fuzz layer of tests/run-all.sh: configure
# _build/fuzz with clang and --enable-fuzz, build the targets and run each
# under libFuzzer for $GW_FUZZ_LAYER_SECONDS (default 5) seconds: a short
# run for CI, make fuzz with FUZZ_SECONDS=60 (or more) is the real one
# (tests/fuzz/README.md).  Skipped, with a line saying so, where clang
# cannot link a libFuzzer target (tests/deps.sh installs it).
# Run from the top of a checkout.
set -e
jobs=${1:-2}
secs=${GW_FUZZ_LAYER_SECONDS:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gwfuzz-cc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
	>"$tmp/t.c"
if ! command -v clang >/dev/null 2>&1 ||
   ! clang -fsanitize=fuzzer,address,undefined -o "$tmp/t" "$tmp/t.c" >/dev/null 2>&1; then
	echo "fuzz layer skipped: clang cannot link a libFuzzer target (install clang libclang-rt-dev)"
	exit 0
fi
mkdir -p _build/fuzz
cd _build/fuzz
../../configure CC=clang --enable-fuzz >/dev/null
make -j"$jobs" fuzz FUZZ_SECONDS="$secs"
echo "fuzz layer passed: each target $secs s under libFuzzer, no crash"
