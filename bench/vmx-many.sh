#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# vmx-many.sh: the same change (the 64-bit MMIO keys for one L40S) written
# into N .vmx files (copies of a real Workstation .vmx of tests/fixtures),
# side by side in one run:
#   gpuwiz vmx DIR --write        one call: table read once, each file
#                                 planned, backed up, fsynced and renamed
#   gpuwiz vmx FILE --write loop  one call per file (before: the only way)
#   sed -i loop                   what a user would type (no plan, no
#                                 backup, no fsync)
#   python3 atomic write          one process: read, append, write a
#                                 temporary, fsync, rename, per file
# Prints wall times and the ratios to the sed loop.  A benchmark, not a
# test.
#
# usage: sh bench/vmx-many.sh [GPUWIZ_BINARY] [N]
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
GPUWIZ=${1:-$SRC/src/gpuwiz}
N=${2:-1000}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gwbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$SRC/data/gpus.ini}
[ -x "$GPUWIZ" ] || { echo "no gpuwiz binary at $GPUWIZ" >&2; exit 1; }
VMX=$SRC/tests/fixtures/vmx/ws-archlinux-otherlinux5x-crlf.vmx

fresh() {
	rm -rf "$TMP/ds"
	i=0
	while [ $i -lt "$N" ]; do
		mkdir -p "$TMP/ds/vm$i"
		cp "$VMX" "$TMP/ds/vm$i/vm$i.vmx"
		i=$((i + 1))
	done
}
secs() { s=$(date +%s.%N); "$@" >/dev/null 2>&1; echo "$(date +%s.%N) - $s" | bc; }

one_call() { "$GPUWIZ" vmx "$TMP/ds" --gpu l40s --write; }
per_file() { for f in "$TMP"/ds/*/*.vmx; do "$GPUWIZ" vmx "$f" --gpu l40s --write || return 1; done; }
sed_loop() {
	for f in "$TMP"/ds/*/*.vmx; do
		sed -i -e '$a pciPassthru.use64bitMMIO = "TRUE"' \
			-e '$a pciPassthru.64bitMMIOSizeGB = "128"' "$f" || return 1
	done
}
py_atomic() {
	python3 - "$TMP/ds" <<'PY'
import os, sys, glob, tempfile
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*", "*.vmx"))):
    data = open(f, "rb").read()
    data += b'pciPassthru.use64bitMMIO = "TRUE"\npciPassthru.64bitMMIOSizeGB = "128"\n'
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(f), prefix=".vmx-")
    os.write(fd, data); os.fsync(fd); os.close(fd)
    os.replace(tmp, f)
PY
}

fresh; g1=$(secs one_call)
grep -q 64bitMMIOSizeGB "$TMP/ds/vm0/vm0.vmx" || { echo "gpuwiz wrote nothing" >&2; exit 1; }
fresh; gn=$(secs per_file)
fresh; sd=$(secs sed_loop)
fresh; py=$(secs py_atomic)
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; $N files"
echo
echo "| tool | wall | vs sed loop |"
echo "|---|---|---|"
for row in "gpuwiz vmx DIR --write (one call)|$g1" "gpuwiz vmx FILE --write, per file|$gn" \
	"sed -i loop|$sd" "python3 atomic write|$py"; do
	printf '| %s | %.2f s | %.2fx |\n' "${row%|*}" "${row#*|}" "$(echo "${row#*|} / $sd" | bc -l)"
done
