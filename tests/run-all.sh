#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite: build with warnings as errors and run make
# distcheck (make check in the release tree); rebuild under
# AddressSanitizer/UBSan and run make check again; the fuzz targets.
# Run from the top of a checkout after tests/deps.sh.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
[ -x configure ] || ./autogen.sh
# an in-tree configuration blocks the out-of-tree builds below
[ ! -f config.status ] || make distclean >/dev/null
jobs=$(nproc 2>/dev/null || echo 2)
# what the suite leaves behind fails it (doc/design.md, section 13;
# tests/leftovers.sh)
. tests/leftovers.sh
leftovers_begin "$top" || exit 1

# the logs of the tests that failed under DIR
failed_logs() {
	grep -rlE '^:test-result: (FAIL|ERROR|XPASS)' "$1" --include='*.trs' 2>/dev/null |
	while read -r trs; do
		echo "==== ${trs%.trs}.log"; tail -60 "${trs%.trs}.log"
	done
}

# the first layer: the build with warnings as errors, then make distcheck,
# which runs the whole make check in the tree unpacked from the release
# tarball (so every file the tests need is in it), installs, runs
# installcheck and uninstalls
mkdir -p _build/plain _build/asan
(cd _build/plain && ../../configure --enable-werror >/dev/null && \
	make -j"$jobs" && make -j"$jobs" distcheck) || { failed_logs _build/plain; exit 1; }

(cd _build/asan && ../../configure --enable-werror --enable-sanitizers >/dev/null && \
	make -j"$jobs" && GW_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	LSAN_OPTIONS=suppressions="$top/tests/lsan.supp":print_suppressions=0 \
	make -j"$jobs" check) || { failed_logs _build/asan; exit 1; }

# the fuzz targets under libFuzzer, seconds each (tests/fuzz/layer.sh)
sh tests/fuzz/layer.sh "$jobs" || exit 1

leftovers_check || exit 1
echo "all test layers passed: make distcheck (make check of the release tree), make check under ASan/UBSan, the fuzz targets"
