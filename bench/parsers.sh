#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# parsers.sh: is reading a host's device list linear in its size?  Builds
# `esxcli hardware pci list` outputs of N and 4N devices (blocks in the
# layout of tests/fixtures/esxcli) and times `gpuwiz gpus --esxcli-file`
# on each, side by side with the awk one-liner a user would write to list
# the same file's addresses; prints the times and the growth (4N / N:
# about 4 when linear, 16 when quadratic).  A benchmark, not a test.
#
# usage: sh bench/parsers.sh [GPUWIZ_BINARY] [N]
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
GPUWIZ=${1:-$SRC/src/gpuwiz}
N=${2:-4096}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gwbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$SRC/data/gpus.ini}
[ -x "$GPUWIZ" ] || { echo "no gpuwiz binary at $GPUWIZ" >&2; exit 1; }
command -v bc >/dev/null || { echo "bc missing (apt-get install bc)" >&2; exit 1; }

# n devices: functions of an Intel NIC, then one L40S at the end
gen() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			a = sprintf("0000:%02x:%02x.%x", int(i / 64) % 256, int(i / 2) % 32, i % 2)
			if (i >= 16384) a = sprintf("%04x:%02x:%02x.%x", int(i / 16384), int(i / 64) % 256, int(i / 2) % 32, i % 2)
			printf "%s\n   Address: %s\n   Vendor Name: Intel Corporation\n", a, a
			printf "   Device Name: Ethernet Controller X540-AT2\n   Vendor ID: 0x8086\n"
			printf "   Device ID: 0x1528\n   SubVendor ID: 0x103c\n   SubDevice ID: 0x192d\n"
			printf "   Device Class: 0x0200\n   Current Owner: VMkernel\n"
		}
		printf "ffff:3b:00.0\n   Address: ffff:3b:00.0\n   Vendor Name: NVIDIA Corporation\n"
		printf "   Device Name: AD102GL [L40S]\n   Vendor ID: 0x10de\n   Device ID: 0x26b9\n"
		printf "   SubVendor ID: 0x10de\n   SubDevice ID: 0x1851\n   Device Class: 0x0302\n"
	}'
}

# best of 3, in seconds
best() {
	b=
	for _ in 1 2 3; do
		s=$(date +%s.%N)
		"$@" >/dev/null
		t=$(echo "$(date +%s.%N) - $s" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

gen "$N" >"$TMP/n.txt"
gen "$((N * 4))" >"$TMP/4n.txt"
"$GPUWIZ" gpus --esxcli-file "$TMP/4n.txt" | grep -q 'ffff:3b:00.0' ||
	{ echo "gpuwiz did not find the L40S" >&2; exit 1; }
AWK='/^[0-9a-f]/ { a = $1 } /Device Class: 0x03/ { print a }'
g1=$(best "$GPUWIZ" gpus --esxcli-file "$TMP/n.txt")
g4=$(best "$GPUWIZ" gpus --esxcli-file "$TMP/4n.txt")
a1=$(best awk "$AWK" "$TMP/n.txt")
a4=$(best awk "$AWK" "$TMP/4n.txt")
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "| devices | gpuwiz gpus --esxcli-file | awk | gpuwiz / awk |"
echo "|---|---|---|---|"
printf '| %d | %.3f s | %.3f s | %.1fx |\n' "$N" "$g1" "$a1" "$(echo "$g1 / $a1" | bc -l)"
printf '| %d | %.3f s | %.3f s | %.1fx |\n' "$((N * 4))" "$g4" "$a4" "$(echo "$g4 / $a4" | bc -l)"
printf '| growth (4N / N) | %.1fx | %.1fx | (4 when linear) |\n' \
	"$(echo "$g4 / $g1" | bc -l)" "$(echo "$a4 / $a1" | bc -l)"
