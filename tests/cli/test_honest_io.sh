#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_honest_io.sh: what gpuwiz reads and shows, and what it says about
# its writes (doc/design.md, section 7): a FIFO or other special file is
# refused at once, never waited on; the stale-temporary sweep leaves a
# fresh or foreign temporary alone; an answers section named like a key
# is refused; bidirectional and control characters from outside are
# escaped; a write that succeeded is said to have even when standard
# output fails afterwards.
. "$(dirname "$0")/lib.sh"

VMX=$FIX/vmx/synthetic-govc-decimal-pci-ids.vmx

# ---- a FIFO as any input path: refused at once, naming it -------------------
mkfifo "$TMP/pipe"
fifo() { # name, args... (the FIFO is $TMP/pipe): exit 2 within 5 s, one line
	name=$1; shift
	run timeout 5 "$GPUWIZ" "$@"
	if [ "$rc" -eq 2 ] && err_one_line &&
	   errhas "$TMP/pipe: is a named pipe (FIFO), expected a regular file"; then
		ok "FIFO refused: $name"
	else
		nok "FIFO refused: $name" "rc=$rc: $(head -c 300 "$err")"
	fi
}
fifo ".vmx" vmx "$TMP/pipe" --gpu l40s
fifo "answers file" apply --answers "$TMP/pipe"
fifo "--lspci-file" gpus --lspci-file "$TMP/pipe"
fifo "--esxcli-file" gpus --esxcli-file "$TMP/pipe"
fifo "--nvidia-smi-q" verify --nvidia-smi-q "$TMP/pipe"
fifo "diagnose FILE" diagnose "$TMP/pipe"
fifo "diagnose --vmx" diagnose "$FIX/vmwarelog/$(ls "$FIX/vmwarelog" | head -1)" --vmx "$TMP/pipe"
fifo "--table" mmio --gpu l40s --table "$TMP/pipe"
GPUWIZ_TABLE=$TMP/pipe fifo "GPUWIZ_TABLE" mmio --gpu l40s
# a character device is named as such
run timeout 5 "$GPUWIZ" vmx /dev/null --gpu l40s
check "a character device refused, named" \
	sh -c '[ "$1" -eq 2 ] && grep -qF "/dev/null: is a character device, expected a regular file" "$2"' _ "$rc" "$err"
# ---- the stale-temporary sweep: only old temporaries of this user ----------
mkdir "$TMP/sw"
sample vmx/ws-freebsd-crlf.vmx "$TMP/sw/vm.vmx"
echo fresh >"$TMP/sw/vm.vmx.gpuwiz-Fresh1"    # a concurrent run's, unlocked yet
echo old >"$TMP/sw/vm.vmx.gpuwiz-Old123"      # a killed run's
touch -d '2 hours ago' "$TMP/sw/vm.vmx.gpuwiz-Old123"
if [ "$(id -u)" -eq 0 ]; then
	echo theirs >"$TMP/sw/vm.vmx.gpuwiz-Other1"
	chown 4321:4321 "$TMP/sw/vm.vmx.gpuwiz-Other1"
	touch -d '2 hours ago' "$TMP/sw/vm.vmx.gpuwiz-Other1"
fi
run "$GPUWIZ" vmx "$TMP/sw/vm.vmx" --gpu l40s --write
check "sweep: the write is done" sh -c '[ "$1" -eq 0 ] && grep -q 64bitMMIOSizeGB "$2"' _ "$rc" "$TMP/sw/vm.vmx"
check "sweep: a fresh temporary (a live run's) is left" [ -f "$TMP/sw/vm.vmx.gpuwiz-Fresh1" ]
check "sweep: an hour-old temporary of this user is removed" [ ! -e "$TMP/sw/vm.vmx.gpuwiz-Old123" ]
if [ "$(id -u)" -eq 0 ]; then
	check "sweep: another user's old temporary is left" [ -f "$TMP/sw/vm.vmx.gpuwiz-Other1" ]
fi

# ---- bidirectional and control characters from outside: escaped ------------
# bidi FILE: holds the UTF-8 of U+202E, U+2066 or U+061C, or ESC, raw
bidi() { LC_ALL=C grep -q "$(printf '\342\200\256\|\342\201\246\|\330\234\|\033')" "$1"; }
shown_safe() { # name: the last run's stdout and stderr hold none raw
	if ! bidi "$out" && ! bidi "$err"; then ok "$1: nothing raw"; else
		nok "$1: nothing raw" "$(cat -v "$out" "$err" | head -5)"; fi; }
RLO=$(printf 'ab\342\200\256cd\342\201\246e\330\234')
RLO_SHOWN='ab\xE2\x80\xAEcd\xE2\x81\xA6e\xD8\x9C'
mkdir "$TMP/bidi"
sample vmx/ws-freebsd-crlf.vmx "$TMP/bidi/$RLO.vmx"
sed -i "s/^displayName = .*/displayName = \"$RLO\"/" "$TMP/bidi/$RLO.vmx"
run "$GPUWIZ" vmx "$TMP/bidi/$RLO.vmx" --gpu l40s
shown_safe "vmx: a file named with U+202E"
check "vmx: the name shown escaped" has "$RLO_SHOWN.vmx"
run "$GPUWIZ" vmx "$TMP/bidi/$RLO.vmx" --gpu l40s --json
shown_safe "vmx --json"
check "vmx --json: U+202E written \\u202e, the value kept" python3 -c "
import json,sys; t=open(sys.argv[1]).read(); assert '\\\\u202e' in t, t[:200]
assert json.loads(t)['file'].endswith('ab\u202ecd\u2066e\u061c.vmx')" "$out"
run "$GPUWIZ" vmx "$TMP/bidi/missing-$RLO.vmx" --gpu l40s
shown_safe "an error naming a file with U+202E"
check "the error names it escaped" errhas "missing-$RLO_SHOWN.vmx"
printf '0000:5e:00.0\n   Address: 0000:5e:00.0\n   Vendor Name: NVIDIA Corporation\n   Device Name: GPU %s\n   Vendor ID: 0x10de\n   Device ID: 0x29ff\n   Device Class: 0x0302\n' \
	"$RLO" >"$TMP/bidi/pci.txt"
run "$GPUWIZ" gpus --esxcli-file "$TMP/bidi/pci.txt"
shown_safe "gpus: a device named with U+202E"
check "gpus: the device name escaped" has "GPU $RLO_SHOWN"

printf '[gpu]\ndevices = l40s\n[output]\ndir = %s\nformats = vmx\n' "$TMP/bidi/out-$RLO" >"$TMP/bidi/a.ini"
run "$GPUWIZ" apply --answers "$TMP/bidi/a.ini"
shown_safe "apply: an output folder named with U+202E"
check "apply: the written file's name escaped" has "out-$RLO_SHOWN/"

# ---- one VM name with ESC and U+202E: that VM escaped, the list read --------
mkdir "$TMP/hosts"
cp -r "${GPUWIZ_HOSTS_DIR:-$FIX/../../data/hosts}/bin" "${GPUWIZ_HOSTS_DIR:-$FIX/../../data/hosts}/esxi-l40s" "$TMP/hosts/"
sample vimcmd/synthetic-getallvms-control-bytes-in-name.txt "$TMP/hosts/esxi-l40s/esxi/vim-cmd-vmsvc-getallvms.txt"
run env GPUWIZ_HOSTS_DIR="$TMP/hosts" "$GPUWIZ" vms --sample-host esxi-l40s
check "vms: a VM named with controls is no reason to fail" [ "$rc" -eq 0 ]
shown_safe "vms: the names"
check "vms: that name escaped" has 'win\x1B[2J\x07\x7F\xE2\x80\xAEcod.exe\xE2\x81\xA6'
check "vms: the VMs around it listed" sh -c 'grep -q "ubuntu-l40s" "$1" && grep -q "llm-train" "$1"' _ "$out"
run env GPUWIZ_HOSTS_DIR="$TMP/hosts" "$GPUWIZ" vms --sample-host esxi-l40s --json
shown_safe "vms --json"
check "vms --json: three VMs, the name as the host has it" python3 -c "
import json,sys; d=json.load(open(sys.argv[1]))
assert [v['name'][:3] for v in d['vms']] == ['ubu', 'win', 'llm'], d
assert d['vms'][1]['name'] == 'win\x1b[2J\x07\x7f\u202ecod.exe\u2066', d['vms'][1]" "$out"

# ---- a write that worked, its report lost: said so, exit 3 ------------------
mkdir "$TMP/full"
sample vmx/ws-freebsd-crlf.vmx "$TMP/full/vm.vmx"
"$GPUWIZ" vmx "$TMP/full/vm.vmx" --gpu l40s --write >/dev/full 2>"$TMP/full.err"
frc=$?
check "vmx --write > /dev/full: exit 3" [ "$frc" -eq 3 ]
check "vmx --write > /dev/full: the .vmx is saved" grep -q 64bitMMIOSizeGB "$TMP/full/vm.vmx"
bak=$(ls "$TMP/full" | grep '^vm\.vmx\..*\.bak$')
check "vmx --write > /dev/full: one line naming the file and its backup" sh -c \
	'[ "$(wc -l <"$1")" -eq 1 ] && grep -qxF "gpuwiz vmx: $2/vm.vmx was saved (backup: $2/$3), but standard output could not be written: No space left on device" "$1"' \
	_ "$TMP/full.err" "$TMP/full" "$bak"
# nothing written: the plain write error, exit 2
"$GPUWIZ" vmx "$TMP/full/vm.vmx" --gpu l40s --write >/dev/full 2>"$TMP/full.err"
frc=$?
check "vmx --write > /dev/full with nothing to change: write error, exit 2" sh -c \
	'[ "$2" -eq 2 ] && grep -qx "gpuwiz vmx: write error: No space left on device" "$1"' _ "$TMP/full.err" "$frc"
# apply: its output files named
cat >"$TMP/full/a.ini" <<INI
[gpu]
devices = l40s
[output]
dir = $TMP/full/out
formats = vmx
INI
"$GPUWIZ" apply --answers "$TMP/full/a.ini" >/dev/full 2>"$TMP/full.err"
frc=$?
check "apply > /dev/full: exit 3, the output file named as written" sh -c \
	'[ "$2" -eq 3 ] && grep -q "/out/.* was written, but standard output could not be written" "$1"' _ "$TMP/full.err" "$frc"
zh_checks
if [ "$ZH" -eq 1 ]; then
	sample vmx/ws-freebsd-crlf.vmx "$TMP/full/zh.vmx"
	env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" vmx "$TMP/full/zh.vmx" --gpu l40s --write >/dev/full 2>"$TMP/full.err"
	frc=$?
	check "zh_CN: vmx --write > /dev/full said in Chinese, exit 3" sh -c \
		'[ "$2" -eq 3 ] && grep -q "已保存" "$1" && grep -q "标准输出" "$1"' _ "$TMP/full.err" "$frc"
	env -u LC_ALL LANG=zh_CN.UTF-8 timeout 5 "$GPUWIZ" vmx "$TMP/pipe" --gpu l40s 2>"$TMP/full.err"
	check "zh_CN: a FIFO refused in Chinese" grep -q "命名管道" "$TMP/full.err"
fi

finish
