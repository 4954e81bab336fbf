#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_parser_shape.sh: the parsers are linear and lean.  Each command runs
# at 1x, 2x and 8x an input built from real fixtures, under valgrind:
#   - instructions (cachegrind --cache-sim=no, "I refs"): the cost of the
#     units from 2x to 8x, per unit, is at most 1.2 times the cost of the
#     unit from 1x to 2x (linear: 1; quadratic: 3);
#   - peak heap (massif, heap and its overhead; 1x and 8x):
#       gpus --esxcli-file (esxcli hardware pci list, network blocks added):
#         read line by line, only the GPUs kept: peak at 8x <= 1.5 x peak
#         at 1x;
#       gpus on an ESXi shell (the same listing from the stand-in of
#         tests/esxi-standins): esxcli's output read as it arrives, only
#         the GPUs kept: the same rule; check there (only the displays
#         kept) and passthru --enable --dry-run (only the device named):
#         the same rule;
#       vms on an ESXi shell (vim-cmd vmsvc/getallvms, the stand-ins of
#         tests/esxi-standins): the VMs are the result, so the peak grows
#         with them, by at most 3.25 times the bytes of their rows (each
#         VM's strings in one block, its entry and its place in the index,
#         its process block when it runs; the commands' output is read as
#         it arrives, never held);
#       vms again, the same VMs and what it reads but does not keep
#         growing (blank lines after getallvms' rows, fields it ignores in
#         the process list's blocks): peak at 8x <= 1.5 x peak at 1x;
#       verify --nvidia-smi-q and diagnose read their input in chunks and
#         keep only what the result needs: with process entries added to
#         a GPU's section (which verify does not read) and with vmware.log
#         lines added, the peak does not grow with the input (peak at 8x
#         <= peak at 1x + 4 KiB); with GPU sections added, text and JSON,
#         only the GPUs' fields grow: the report is printed as its rows
#         are made, one GPU's rows at a time (peak growth <= 0.02 x the
#         input's growth: a section is 9.5 KB, its fields well under
#         0.2 KB), on a live guest too (--sysroot, without --bundle);
# GPUWIZ_BIN (with GPUWIZ_TABLE, GPUWIZ_MODULE_DIR) runs it on another
# build.  Never a wall time.
. "$(dirname "$0")/lib.sh"

need_valgrind
VG=${VALGRIND:-valgrind}
STANDINS=$(cd "$(dirname "$0")/../esxi-standins" && pwd)

# peak FILE CMD...: CMD's peak heap in bytes (with malloc's overhead)
peak() {
	f=$1
	shift
	"$VG" --tool=massif --massif-out-file="$TMP/ms.out" "$@" >/dev/null 2>&1
	awk -F= '/^mem_heap_B=/ { h = $2 } /^mem_heap_extra_B=/ {
		if (h + $2 > m) m = h + $2 } END { print m + 0 }' "$TMP/ms.out" >"$f"
}

# shape NAME GEN MEMRULE CMD...: GEN K writes the input of K units to
# $IN; CMD reads $IN (evaluated per run).  MEMRULE: "ratio" (peak at 8x
# <= 1.5 x peak at 1x), "flat" (peak at 8x <= peak at 1x + 4 KiB) or a
# factor F (peak growth <= F x input growth).
shape() {
	name=$1 gen=$2 rule=$3
	shift 3
	for k in 1 2 8; do
		IN=$TMP/in.$k
		"$gen" "$k"
		eval "instr i$k $*"
		size_k=$(wc -c <"$IN")
		eval "size_$k=$size_k"
		if [ "$k" != 2 ]; then eval "peak \"\$TMP/p.$k\" $*"; fi
	done
	p1=$(cat "$TMP/p.1") p8=$(cat "$TMP/p.8")
	echo "# $name: instructions $i1 / $i2 / $i8 at 1x / 2x / 8x ($size_1 / $size_2 / $size_8 bytes); peak heap $p1 / $p8 at 1x / 8x"
	if awk -v a="$i1" -v b="$i2" -v c="$i8" 'BEGIN {
		exit !(a > 0 && b > a && (c - a) / 7 <= 1.2 * (b - a)) }'; then
		ok "$name: instructions linear in the input"
	else nok "$name: instructions grow faster than the input" \
		"1x $i1, 2x $i2, 8x $i8: per unit from 2x to 8x more than 1.2 x from 1x to 2x"; fi
	if [ "$rule" = ratio ]; then
		lim=$(awk -v p="$p1" 'BEGIN { printf "%d", 1.5 * p }')
		what="1.5 x the peak at 1x"
	elif [ "$rule" = flat ]; then
		lim=$((p1 + 4096))
		what="the peak at 1x + 4 KiB"
	else
		lim=$(awk -v p="$p1" -v f="$rule" -v a="$size_1" -v b="$size_8" \
			'BEGIN { printf "%d", p + f * (b - a) }')
		what="the peak at 1x + $rule x the input's growth"
	fi
	if [ -n "$p1" ] && [ "$p1" -gt 0 ] && [ "$p8" -le "$lim" ]; then
		ok "$name: peak heap bounded ($p8 <= $what, $lim)"
	else nok "$name: peak heap at 8x $p8 > $what ($lim)"; fi
}

# ---- esxcli hardware pci list: the X540 and LSI blocks of a real listing,
# readdressed K x 100 times in domain 1, then the real L40S listing
PCI_NET=$FIX/esxcli/hardware-pci-list-x540-vmkernel-and-lsi2308-vmpassthru.txt
PCI_GPU=$FIX/esxcli/synthetic-hardware-pci-list-esxi8-aspeed-l40s-vmpassthru-b200-unknown-vram.txt
gen_pci() {
	awk -v n=$(($1 * 100)) '
	FNR == 1 && /^# source/ { next }
	/^[0-9a-f]+:/ { nb++; next }
	{ blk[nb] = blk[nb] $0 "\n" }
	END {
		for (k = 0; k < n; k++) {
			b = k % nb + 1
			bus = int(k / 64); dev = int(k / 2) % 32; fn = k % 2
			a = sprintf("0001:%02x:%02x.%x", bus, dev, fn)
			t = blk[b]
			sub(/Address: [^\n]*/, "Address: " a, t)
			sub(/Segment: [^\n]*/, "Segment: 0x0001", t)
			sub(/Bus: [^\n]*/, sprintf("Bus: 0x%02x", bus), t)
			sub(/Slot: [^\n]*/, sprintf("Slot: 0x%02x", dev), t)
			sub(/Function: [^\n]*/, sprintf("Function: 0x%x", fn), t)
			printf "%s\n%s", a, t
		}
	}' "$PCI_NET" >"$IN"
	tail -n +2 "$PCI_GPU" >>"$IN"
}
shape "gpus --esxcli-file" gen_pci ratio \
	'"$GPUWIZ" gpus --esxcli-file "$IN"'
# the GPUs are the L40S listing's, whatever the size
"$GPUWIZ" gpus --esxcli-file "$TMP/in.8" --json >"$TMP/g8.json" &&
	"$GPUWIZ" gpus --esxcli-file "$PCI_GPU" --json >"$TMP/g0.json"
check "gpus --esxcli-file: the same GPUs at 8x as in the listing alone" \
	sh -c "sed 's|\"file\": \"[^\"]*\"||' '$TMP/g8.json' >'$TMP/a' && sed 's|\"file\": \"[^\"]*\"||' '$TMP/g0.json' >'$TMP/b' && cmp -s '$TMP/a' '$TMP/b'"

# ---- vim-cmd vmsvc/getallvms on an ESXi shell (the stand-ins): K x 1024
# VMs in the layout of a real row, every third running
SB=$TMP/standins
mkdir -p "$SB/state"
cp "$STANDINS/esxcli" "$STANDINS/vim-cmd" "$SB/"
export GW_STANDIN_STATE="$SB/state" GW_STANDIN_LOG="$SB/standin.log"
VM_FIX=$FIX/vimcmd/getallvms-2vms-vmx13-ghettovcb-notes.txt
UNITS=1024
gen_vms() {
	n=$(($1 * UNITS))
	echo "$n" >"$SB/state/vms"
	awk -v n="$n" 'FNR == 2 { print; next }
	FNR == 3 { for (k = 0; k < n; k++) { r = $0
		gsub(/itachi_lab/, "vm" k, r); sub(/^11 /, (100 + k) " ", r)
		print r } }' "$VM_FIX" >"$SB/state/getallvms"
	cp "$SB/state/getallvms" "$IN"
}
PATH="$SB:$PATH" shape "vms (vim-cmd vmsvc/getallvms)" gen_vms 3.25 \
	'"$GPUWIZ" vms'
check "vms: every VM of the 8x listing, none asked one by one" \
	sh -c "[ \$(PATH='$SB':\$PATH '$GPUWIZ' vms | grep -c ' vmx-13 ') -eq $((8 * UNITS)) ] && ! grep -q power.getstate '$SB/standin.log'"
# 256 VMs, every third running; K x 4096 blank lines after the rows and
# K x 64 fields vms does not read in each process block (the stand-in's
# blocks otherwise)
gen_unkept() {
	echo 256 >"$SB/state/vms"
	awk -v n=256 -v b=$(($1 * 4096)) 'FNR == 2 { print; next }
	FNR == 3 { for (k = 0; k < n; k++) { r = $0
		gsub(/itachi_lab/, "vm" k, r); sub(/^11 /, (100 + k) " ", r)
		print r }
		for (k = 0; k < b; k++) print "   " }' "$VM_FIX" >"$SB/state/getallvms"
	rm -f "$SB/state/procs"
	PATH="$SB:$PATH" esxcli vm process list |
		awk -v m=$(($1 * 64)) '{ print }
		/Config File:/ { for (k = 0; k < m; k++)
			printf "   Ignored Field %d: %064d\n", k, k }' >"$TMP/procs"
	mv "$TMP/procs" "$SB/state/procs"
	cat "$SB/state/getallvms" "$SB/state/procs" >"$IN"
}
PATH="$SB:$PATH" shape "vms (output it does not keep)" gen_unkept ratio \
	'"$GPUWIZ" vms'
check "vms: the 256 VMs at 8x, none asked one by one" \
	sh -c "[ \$(PATH='$SB':\$PATH '$GPUWIZ' vms | grep -c ' vmx-13 ') -eq 256 ] && ! grep -q power.getstate '$SB/standin.log'"

# ---- esxcli hardware pci list on an ESXi shell: the listing of gen_pci,
# printed by the stand-in
gen_pci_host() {
	gen_pci "$1"
	cp "$IN" "$SB/state/pci"
}
PATH="$SB:$PATH" shape "gpus on an ESXi shell (esxcli hardware pci list)" \
	gen_pci_host ratio '"$GPUWIZ" gpus'
# the 8x listing (left in the state by shape): printed as the saved one is
PATH="$SB:$PATH" "$GPUWIZ" gpus | tail -n +2 >"$TMP/h8.txt" &&
	"$GPUWIZ" gpus --esxcli-file "$TMP/in.8" | tail -n +2 >"$TMP/f8.txt"
check "gpus on an ESXi shell: at 8x the rows of the saved listing" \
	cmp -s "$TMP/h8.txt" "$TMP/f8.txt"
# the host's checks and a passthrough change read the listing as it
# arrives too: the displays kept, or the one device asked for
PATH="$SB:$PATH" shape "check on an ESXi shell (esxcli hardware pci list)" \
	gen_pci_host ratio '"$GPUWIZ" check'
check "check on an ESXi shell: at 8x the L40S's passthrough row" \
	sh -c "PATH='$SB':\$PATH '$GPUWIZ' check | grep -q '^Checking passthrough of 0000:3b:00.0 (AD102GL \[L40S\]) : PASS'"
PATH="$SB:$PATH" shape "passthru --enable --dry-run on an ESXi shell" \
	gen_pci_host ratio '"$GPUWIZ" passthru --enable 0000:3b:00.0 --dry-run'
rm -f "$SB/state/pci"
unset GW_STANDIN_STATE GW_STANDIN_LOG

# ---- nvidia-smi -q: the header and K x 64 copies of the GPU section of a
# real H200 capture, each at its own bus id (64 at 1x: what a report of
# fewer GPUs holds hides below the peak of gpuwiz's start)
NV_FIX=$FIX/nvidia-smi/h200-sxm-passthrough-vm.txt
gen_nv() {
	awk -v n=$(($1 * 64)) 'NR == FNR { if (/^GPU /) ins = 1
		if (ins) sec[++m] = $0; else head[++h] = $0; next }
	END { for (i = 1; i <= h; i++) print head[i]
		for (k = 0; k < n; k++) {
			printf "GPU %08X:%02X:00.0\n", int(k / 256), k % 256
			for (i = 2; i <= m; i++) print sec[i] } }' "$NV_FIX" "$NV_FIX" >"$IN"
}
shape "verify --nvidia-smi-q (GPU sections)" gen_nv 0.02 \
	'"$GPUWIZ" verify --nvidia-smi-q "$IN"'
shape "verify --nvidia-smi-q --json (GPU sections)" gen_nv 0.02 \
	'"$GPUWIZ" verify --nvidia-smi-q "$IN" --json'
# the same capture beside a live guest: a copy of its / with the H200 at
# 0000:03:00.0 and the driver loaded
G=$TMP/guest D=$TMP/guest/sys/bus/pci/devices/0000:03:00.0
mkdir -p "$D" "$G/proc/driver/nvidia"
printf '0x10de\n' >"$D/vendor"
printf '0x2335\n' >"$D/device"
printf '0x030200\n' >"$D/class"
printf '0x00000000f0000000 0x00000000f0ffffff 0x0000000000040200\n' >"$D/resource"
printf 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 2024\n' \
	>"$G/proc/driver/nvidia/version"
shape "verify --sysroot --nvidia-smi-q (GPU sections)" gen_nv 0.02 \
	'"$GPUWIZ" verify --sysroot "$G" --nvidia-smi-q "$IN"'
shape "verify --sysroot --nvidia-smi-q --json (GPU sections)" gen_nv 0.02 \
	'"$GPUWIZ" verify --sysroot "$G" --nvidia-smi-q "$IN" --json'

# ---- nvidia-smi -q: a real vGPU guest's capture with K x 200 more
# process entries in the layout of its own (one GPU)
NV_PROC_FIX=$FIX/nvidia-smi/rtxa6000-24q-vgpu-guest.txt
gen_nv_proc() {
	awk -v n=$(($1 * 200)) 'FNR == 1 && /^# source/ { next }
	{ print; l[++m] = $0 }
	!f && /^        GPU instance ID / { f = m }
	END { for (k = 0; k < n; k++) for (i = f; i < f + 6; i++) {
		t = l[i]; if (i == f + 2) sub(/: [0-9]+/, ": " (2000 + k), t)
		print t } }' "$NV_PROC_FIX" >"$IN"
}
shape "verify --nvidia-smi-q (process entries)" gen_nv_proc flat \
	'"$GPUWIZ" verify --nvidia-smi-q "$IN"'

# ---- vmware.log: K x 200 copies of a real excerpt
LOG_FIX=$FIX/vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt
gen_log() {
	tail -n +2 "$LOG_FIX" >"$TMP/log1"
	awk -v n=$(($1 * 200)) '{ l[NR] = $0 } END {
		for (j = 0; j < n; j++) for (i = 1; i <= NR; i++) print l[i] }' \
		"$TMP/log1" >"$IN"
}
shape "diagnose (vmware.log)" gen_log flat '"$GPUWIZ" diagnose "$IN"'

finish
