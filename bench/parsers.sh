#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# parsers.sh: gpuwiz's parsers against the awk or grep line a user would
# write for the same file, at two sizes: throughput (MB/s of input, median
# of BENCH_RUNS runs), peak resident memory (GNU time %M, one run), the
# growth from the small to the large input (time and memory) and the
# ratios.  The parsers:
#   esxcli   gpuwiz gpus --esxcli-file on `esxcli hardware pci list`
#            (network blocks in the layout of tests/fixtures/esxcli, one
#            L40S): awk printing the display devices' addresses
#   esxcli-host  gpuwiz gpus on an ESXi shell (the esxcli stand-in of
#            tests/esxi-standins printing the same listing): the same awk
#   vim-cmd  gpuwiz vms on an ESXi shell (the stand-ins of
#            tests/esxi-standins answering from prepared files): getallvms
#            and `esxcli vm process list`; awk printing each row's Vmid and
#            name from the same two files
#   nvsmi    gpuwiz verify --nvidia-smi-q on GPU sections of a real H200
#            capture: grep for the lines verify reads
#   log      gpuwiz diagnose on copies of a real vmware.log excerpt: grep
#            -i for the words its rules look for
# With GPUWIZ_BEFORE=/path/to/old/gpuwiz the old build's figures are
# printed beside the new ones, in the same run (its GPU table and modules:
# GPUWIZ_BEFORE_TABLE, GPUWIZ_BEFORE_MODULES, by default those of the tree
# it was built in).  A benchmark, not a test: it prints numbers and
# asserts nothing.
#
# usage: sh bench/parsers.sh [GPUWIZ_BINARY]
#   the two sizes of each parser: ESXCLI_N (devices), VMS_N (VMs), NVSMI_N
#   (GPU sections), LOG_N (copies of the excerpt), e.g. ESXCLI_N="10000
#   40000"; BENCH_RUNS runs per median (5)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
. "$HERE/lib.sh"
GPUWIZ=${1:-$SRC/_build/plain/src/gpuwiz}
[ -x "$GPUWIZ" ] || { echo "no gpuwiz binary at $GPUWIZ" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time missing (apt-get install time)" >&2; exit 1; }
export GPUWIZ_TABLE=${GPUWIZ_TABLE:-$SRC/data/gpus.ini}
export LC_ALL=C.UTF-8
bench_before
ESXCLI_N=${ESXCLI_N:-"10000 40000"}
VMS_N=${VMS_N:-"20000 100000"}
NVSMI_N=${NVSMI_N:-"200 1000"}
LOG_N=${LOG_N:-"3000 24000"}
FIX=$SRC/tests/fixtures
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gwbench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

bench_load
bench_programs
bench_peer awk awk
bench_peer grep grep
echo "runs: median of ${BENCH_RUNS:-5} (wall time); peak RSS: GNU time %M, one run"
echo

# rss CMD...: "KIB CPU-SECONDS" of one run: peak resident memory, user +
# system time (less moved by other work on the machine than the wall time)
rss() {
	/usr/bin/time -f '%M %U %S' "$@" 2>&1 >/dev/null </dev/null | tail -n 1 |
		awk '{ printf "%s %.3f\n", $1, $2 + $3 }'
}
# cpu "KIB CPU": the CPU seconds; kib "KIB CPU": the KiB
cpu() { echo "$1" | cut -d' ' -f2; }
kib() { echo "$1" | cut -d' ' -f1; }
# mbs BYTES SECONDS
mbs() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", b / s / 1e6; else print "-" }'; }
# the old build's command prefix (words for eval)
OLD='$BEFORE_ENV "$BEFORE"'

# measure NAME LABEL BYTES: one size of one parser, the commands in
# $NEWCMD, $OLDCMD, $PEERCMD (words, run by eval)
ROWS=$TMP/rows
GROWTH=$TMP/growth
: >"$ROWS"
: >"$GROWTH"
measure() { # NAME LABEL BYTES
	# verify and diagnose exit non-zero on what they find
	set +e
	tn=$(eval "bench_median $NEWCMD")
	rn=$(eval "rss $NEWCMD")
	tp=$(eval "bench_median $PEERCMD")
	rp=$(eval "rss $PEERCMD")
	mn=$(kib "$rn") mp=$(kib "$rp") to=0 mo=0 ro="0 0"
	before="-"
	if [ -n "$BEFORE" ]; then
		to=$(eval "bench_median $OLDCMD")
		ro=$(eval "rss $OLDCMD")
		mo=$(kib "$ro")
		before="$(mbs "$3" "$to") / $(mbs "$3" "$(cpu "$ro")") / $mo"
	fi
	printf '| %s | %s | %.1f | %s / %s / %s | %s | %s / %s / %s | %s | %s |\n' \
		"$1" "$2" "$(awk -v b="$3" 'BEGIN { print b / 1e6 }')" \
		"$(mbs "$3" "$tn")" "$(mbs "$3" "$(cpu "$rn")")" "$mn" "$before" \
		"$(mbs "$3" "$tp")" "$(mbs "$3" "$(cpu "$rp")")" "$mp" \
		"$(bench_ratio "$tn" "$tp") / $(bench_ratio "$(cpu "$rn")" "$(cpu "$rp")")" \
		"$( [ -n "$BEFORE" ] && echo "$(bench_ratio "$to" "$tn") / $(bench_ratio "$(cpu "$ro")" "$(cpu "$rn")")" || echo -)" \
		>>"$ROWS"
	echo "$1 $tn $mn $to $mo $tp $mp $3" >>"$GROWTH"
	set -e
}

# ---- esxcli hardware pci list
gen_pci() { # N: N network functions, then one L40S
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			a = sprintf("%04x:%02x:%02x.%x", int(i / 16384), int(i / 64) % 256, int(i / 2) % 32, i % 2)
			printf "%s\n   Address: %s\n   Segment: 0x%04x\n", a, a, int(i / 16384)
			printf "   Vendor Name: Intel Corporation\n   Device Name: Ethernet Controller 10 Gigabit X540-AT2\n"
			printf "   Configured Owner: Unknown\n   Current Owner: VMkernel\n   Vendor ID: 0x8086\n"
			printf "   Device ID: 0x1528\n   SubVendor ID: 0x103c\n   SubDevice ID: 0x192d\n"
			printf "   Device Class: 0x0200\n   Device Class Name: Ethernet controller\n"
			printf "   Module Name: ixgbe\n   Passthru Capable: true\n\n"
		}
		printf "ffff:3b:00.0\n   Address: ffff:3b:00.0\n   Vendor Name: NVIDIA Corporation\n"
		printf "   Device Name: AD102GL [L40S]\n   Vendor ID: 0x10de\n   Device ID: 0x26b9\n"
		printf "   SubVendor ID: 0x10de\n   SubDevice ID: 0x1851\n   Device Class: 0x0302\n"
	}'
}
for n in $ESXCLI_N; do
	f=$TMP/pci.$n
	gen_pci "$n" >"$f"
	"$GPUWIZ" gpus --esxcli-file "$f" | grep -q 'ffff:3b:00.0' ||
		{ echo "gpuwiz did not find the L40S in $f" >&2; exit 1; }
	NEWCMD="\"\$GPUWIZ\" gpus --esxcli-file $f"
	OLDCMD="$OLD gpus --esxcli-file $f"
	PEERCMD="awk '/^[0-9a-f]/ { a = \$1 } /Device Class: 0x03/ { print a }' $f"
	measure esxcli "$n devices" "$(wc -c <"$f")"
done

SB=$TMP/standins
mkdir -p "$SB/state"
cp "$SRC/tests/esxi-standins/esxcli" "$SRC/tests/esxi-standins/vim-cmd" "$SB/"
export GW_STANDIN_STATE="$SB/state" GW_STANDIN_LOG=/dev/null

# ---- esxcli hardware pci list on an ESXi shell (the stand-in prints the
# listing of gen_pci: state/pci)
for n in $ESXCLI_N; do
	f=$TMP/pci.$n
	cp "$f" "$SB/state/pci"
	PATH="$SB:$PATH" "$GPUWIZ" gpus | grep -q 'ffff:3b:00.0' ||
		{ echo "gpuwiz did not find the L40S in the stand-in's $f" >&2; exit 1; }
	NEWCMD="env PATH=\"$SB:\$PATH\" \"\$GPUWIZ\" gpus"
	OLDCMD="env PATH=\"$SB:\$PATH\" \$BEFORE_ENV \"\$BEFORE\" gpus"
	PEERCMD="awk '/^[0-9a-f]/ { a = \$1 } /Device Class: 0x03/ { print a }' $f"
	measure esxcli-host "$n devices" "$(wc -c <"$f")"
done
rm -f "$SB/state/pci"

# ---- vim-cmd vmsvc/getallvms and esxcli vm process list (vms)
for n in $VMS_N; do
	echo "$n" >"$SB/state/vms"
	awk -v n="$n" 'BEGIN { print "Vmid         Name                                  File                             Guest OS      Version   Annotation"
		for (k = 0; k < n; k++)
			printf "%-6d %-19s [datastore1] %s/%s.vmx                 ubuntu64Guest   vmx-13\n", 100 + k, "vm" k, "vm" k, "vm" k }' \
		>"$SB/state/getallvms"
	# the stand-in's process list (every third VM running), then printed
	# from the file (state/procs) in the runs measured
	rm -f "$SB/state/procs"
	sh "$SB/esxcli" vm process list >"$TMP/procs"
	mv "$TMP/procs" "$SB/state/procs"
	cp "$SB/state/getallvms" "$TMP/vms.$n"
	cat "$SB/state/procs" >>"$TMP/vms.$n"
	bytes=$(wc -c <"$TMP/vms.$n")
	[ "$(PATH="$SB:$PATH" "$GPUWIZ" vms | grep -c ' vmx-13 ')" -eq "$n" ] ||
		{ echo "gpuwiz vms did not list $n VMs" >&2; exit 1; }
	NEWCMD="env PATH=\"$SB:\$PATH\" \"\$GPUWIZ\" vms"
	OLDCMD="env PATH=\"$SB:\$PATH\" \$BEFORE_ENV \"\$BEFORE\" vms"
	PEERCMD="awk 'NR > 1 && \$1 ~ /^[0-9]+\$/ { print \$1, \$2 } /Display Name:/ { print \$3 }' $SB/state/getallvms $SB/state/procs"
	measure vim-cmd "$n VMs" "$bytes"
done
unset GW_STANDIN_STATE GW_STANDIN_LOG

# ---- nvidia-smi -q
for n in $NVSMI_N; do
	f=$TMP/nvsmi.$n
	awk -v n="$n" 'NR == FNR { if (/^GPU /) ins = 1
		if (ins) sec[++m] = $0; else head[++h] = $0; next }
	END { for (i = 1; i <= h; i++) print head[i]
		for (k = 0; k < n; k++) { printf "GPU %08X:%02X:00.0\n", int(k / 256), k % 256
			for (i = 2; i <= m; i++) print sec[i] } }' \
		"$FIX/nvidia-smi/h200-sxm-passthrough-vm.txt" \
		"$FIX/nvidia-smi/h200-sxm-passthrough-vm.txt" >"$f"
	NEWCMD="\"\$GPUWIZ\" verify --nvidia-smi-q $f"
	OLDCMD="$OLD verify --nvidia-smi-q $f"
	PEERCMD="grep -E '^GPU |Product Name|Driver Version|CUDA Version|Total|Virtualization Mode' $f"
	measure nvsmi "$n GPUs" "$(wc -c <"$f")"
done

# ---- vmware.log
for n in $LOG_N; do
	f=$TMP/log.$n
	tail -n +2 "$FIX/vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt" >"$TMP/log1"
	awk -v n="$n" '{ l[NR] = $0 } END { for (j = 0; j < n; j++) for (i = 1; i <= NR; i++) print l[i] }' \
		"$TMP/log1" >"$f"
	NEWCMD="\"\$GPUWIZ\" diagnose $f"
	OLDCMD="$OLD diagnose $f"
	PEERCMD="grep -ciE 'pcipassthru|vmiop|devicepoweron|nvidia|vgpu' $f"
	measure log "$n x $(wc -l <"$TMP/log1") lines" "$(wc -c <"$f")"
done

echo "MB/s of input by wall time (median) and by CPU time (user + system, one run)"
echo
echo "| parser | input | MB | gpuwiz MB/s wall / CPU / peak KiB | before MB/s wall / CPU / peak KiB | peer MB/s wall / CPU / peak KiB | gpuwiz / peer time, wall / CPU | before / gpuwiz time, wall / CPU |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
cat "$ROWS"
echo
echo "growth from the small input to the large one (time, peak RSS):"
echo
echo "| parser | input growth | gpuwiz time / RSS | before time / RSS | peer time / RSS |"
echo "|---|---:|---:|---:|---:|"
awk '{ n[$1]++; k = $1 n[$1]; for (i = 2; i <= NF; i++) v[k, i] = $i; if (!seen[$1]++) order[++m] = $1 }
function r(a, b) { return b > 0 ? sprintf("%.2fx", a / b) : "-" }
END { for (j = 1; j <= m; j++) { p = order[j]; a = p "1"; b = p "2"
	printf "| %s | %s | %s / %s | %s / %s | %s / %s |\n", p, r(v[b, 8], v[a, 8]),
		r(v[b, 2], v[a, 2]), r(v[b, 3], v[a, 3]), r(v[b, 4], v[a, 4]),
		r(v[b, 5], v[a, 5]), r(v[b, 6], v[a, 6]), r(v[b, 7], v[a, 7]) } }' "$GROWTH"
bench_load
