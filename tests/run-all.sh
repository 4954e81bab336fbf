#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite: build with warnings as errors and run make
# distcheck (make check in the release tree); rebuild under
# AddressSanitizer/UBSan and run make check again; a build configured
# --without-vsphere and its tests; the fuzz targets.
# Run from the top of a checkout after tests/deps.sh.  GW_LAYERS, a
# list of layer names (distcheck novs asan fuzz; all when unset), runs
# only those, e.g. two layers on two machines.
set -e
layers=${GW_LAYERS:-distcheck novs asan fuzz}
for l in $layers; do
	case $l in distcheck|novs|asan|fuzz) ;;
	*) echo "GW_LAYERS: unknown layer '$l' (expected distcheck, novs, asan or fuzz)" >&2; exit 2 ;;
	esac
done
layer() { case " $layers " in *" $1 "*) return 0 ;; esac; return 1; }
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
if layer distcheck; then
(cd _build/plain && ../../configure --enable-werror >/dev/null && \
	make -j"$jobs" && make -j"$jobs" distcheck) || { failed_logs _build/plain; exit 1; }
fi

# a build without the vSphere module (configure --without-vsphere), with
# pkg-config blind to libcurl, libxml2 and OpenSSL (a folder of the other
# .pc files): configured, built, its tests of that option run, installed,
# checked (no installed file needs the three) and uninstalled
if layer novs; then
rm -rf _build/novs-pc && mkdir -p _build/novs-pc _build/novs
for dir in $(echo "${PKG_CONFIG_PATH:-}:$(pkg-config --variable pc_path pkg-config)" | tr : ' '); do
	[ -d "$dir" ] || continue
	for pc in "$dir"/*.pc; do
		case ${pc##*/} in libcurl.pc|libxml-2.0.pc|libssl.pc|libcrypto.pc|openssl.pc) continue ;; esac
		[ ! -e "$pc" ] || [ -e "_build/novs-pc/${pc##*/}" ] || ln -s "$pc" _build/novs-pc/
	done
done
novs_tests="tests/cli/test_cli.sh tests/cli/test_licence.sh tests/cli/test_without_vsphere.sh tests/e2e/test_tui_without_vsphere.sh tests/unit/wizard/test_wizard_connect"
(cd _build/novs && PKG_CONFIG_LIBDIR="$top/_build/novs-pc" PKG_CONFIG_PATH= \
	../../configure --enable-werror --without-vsphere >/dev/null && \
	make -j"$jobs" && make -j"$jobs" tests/unit/wizard/test_wizard_connect && \
	make check TESTS="$novs_tests" check_PROGRAMS=tests/unit/wizard/test_wizard_connect && \
	rm -rf "$top/_build/novs-inst" && make install DESTDIR="$top/_build/novs-inst" >/dev/null && \
	make installcheck DESTDIR="$top/_build/novs-inst" && \
	make uninstall DESTDIR="$top/_build/novs-inst" >/dev/null) || { failed_logs _build/novs; exit 1; }
rm -rf _build/novs-inst _build/novs-pc
fi

if layer asan; then
(cd _build/asan && ../../configure --enable-werror --enable-sanitizers >/dev/null && \
	make -j"$jobs" && GW_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	LSAN_OPTIONS=suppressions="$top/tests/lsan.supp":print_suppressions=0 \
	make -j"$jobs" check) || { failed_logs _build/asan; exit 1; }
fi

# the fuzz targets under libFuzzer, seconds each (tests/fuzz/layer.sh)
if layer fuzz; then
	sh tests/fuzz/layer.sh "$jobs" || exit 1
fi

leftovers_check || exit 1
if [ -z "${GW_LAYERS:-}" ]; then
	echo "all test layers passed: make distcheck (make check of the release tree), the --without-vsphere build, make check under ASan/UBSan, the fuzz targets"
else
	echo "test layers passed: $layers"
fi
