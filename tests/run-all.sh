#!/bin/sh
# The whole test suite: build with warnings as errors and run make check;
# rebuild under AddressSanitizer/UBSan and run make check again; make
# distcheck.  Run from the top of a checkout after tests/deps.sh.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
[ -x configure ] || ./autogen.sh
# an in-tree configuration blocks the out-of-tree builds below
[ ! -f config.status ] || make distclean >/dev/null
jobs=$(nproc 2>/dev/null || echo 2)

mkdir -p _build/plain _build/asan
(cd _build/plain && ../../configure --enable-werror >/dev/null && \
	make -j"$jobs" && make -j"$jobs" check) || { cat _build/plain/tests/*/*.log 2>/dev/null | tail -100; exit 1; }

(cd _build/asan && ../../configure --enable-werror --enable-sanitizers >/dev/null && \
	make -j"$jobs" && GW_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	LSAN_OPTIONS=suppressions="$top/tests/lsan.supp" \
	make -j"$jobs" check) || { cat _build/asan/tests/*/*.log 2>/dev/null | tail -100; exit 1; }

# the fuzz targets under libFuzzer, seconds each (tests/fuzz/layer.sh)
sh tests/fuzz/layer.sh "$jobs" || exit 1

(cd _build/plain && make -j"$jobs" distcheck)
echo "all test layers passed: make check, make check under ASan/UBSan, make distcheck"
