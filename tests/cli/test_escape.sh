#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_escape.sh: text that comes from a host or a file name (a --sysroot
# folder, esxcli's device names, vim-cmd's VM names, a log's or a
# capture's file name) never reaches the terminal raw (doc/design.md, section 5.3): ESC
# (ESC[2J clears the screen), BEL, invalid UTF-8 (\xff) and C1 controls
# (U+009B, CSI to some terminals) print as \xNN; valid UTF-8 (a Chinese
# name) prints as it is; --json still parses.
. "$(dirname "$0")/lib.sh"
# raw FILE: holds ESC, BEL, \xff or the two bytes of U+009B
raw() { LC_ALL=C grep -q "$(printf '[\033\007\377]')" "$1" ||
	LC_ALL=C grep -q "$(printf '\302\233')" "$1"; }
ODD=$(printf 'x\033[2J\007\377\302\233中文')
SHOWN='x\x1B[2J\x07\xFF\xC2\x9B中文'
json_ok() { python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$out"; }
safe() { # NAME: the last run's stdout and stderr hold no raw byte
	if ! raw "$out" && ! raw "$err"; then ok "$1: nothing raw"; else
		nok "$1: nothing raw" "$(cat -v "$out" "$err" | head -5)"; fi; }

# --- check --sysroot: the folder's name in the rows ------------------------
R=$TMP/$ODD
mkdir -p "$R/proc" "$R/sys/kernel/iommu_groups"
printf 'processor\t: 0\nflags\t\t: fpu vme de pse vmx\n' >"$R/proc/cpuinfo"
printf 'BOOT_IMAGE=/vmlinuz root=/dev/sda1\n' >"$R/proc/cmdline"
run "$GPUWIZ" check --sysroot "$R"
safe "check --sysroot"
check "check --sysroot: the folder shown escaped, the Chinese as it is" has "$SHOWN/sys/class/iommu"
run "$GPUWIZ" check --sysroot "$R" --json
check "check --sysroot --json parses" json_ok
run "$GPUWIZ" gpus --sysroot "$R"
safe "gpus --sysroot"

# --- gpus --esxcli-file: esxcli's Device Name --------------------------------
E=$TMP/pci.txt
printf '0000:5e:00.0\n   Address: 0000:5e:00.0\n   Vendor Name: NVIDIA Corporation\n   Device Name: GPU %s\n   Vendor ID: 0x10de\n   Device ID: 0x29ff\n   Device Class: 0x0302\n' \
	"$(printf '\377\302\233 中文卡')" >"$E"
run "$GPUWIZ" gpus --esxcli-file "$E"
safe "gpus --esxcli-file"
check "gpus --esxcli-file: the name escaped, the Chinese as it is" has 'GPU \xFF\xC2\x9B 中文卡'
run "$GPUWIZ" gpus --esxcli-file "$E" --json
check "gpus --esxcli-file --json parses" json_ok
cp "$E" "$TMP/$ODD.txt"
run "$GPUWIZ" gpus --esxcli-file "$TMP/$ODD.txt"
safe "gpus --esxcli-file, a file with an odd name"
check "gpus: the file's name escaped" has "$SHOWN.txt"
printf '0000:5e:00.0\n   Address: 0000:5e:00.0\n   Device Name: a\033[2J\007\n' >"$TMP/esc.txt"
run "$GPUWIZ" gpus --esxcli-file "$TMP/esc.txt"
safe "gpus --esxcli-file with ESC (refused as binary)"

# --- vms on the ESXi shell: vim-cmd's VM names -------------------------------
SB=$TMP/standins
mkdir -p "$SB/state" && cp "$(dirname "$0")/../esxi-standins/"* "$SB/"
{ echo 'Vmid   Name   File   Guest OS   Version   Annotation'
  printf '11   vm%s   [datastore1] vm/vm.vmx   ubuntu64Guest   vmx-13\n' "$(printf '\377\302\233')"
  echo '12   训练机   [datastore1] 训练机/训练机.vmx   ubuntu64Guest   vmx-13'
} >"$SB/state/getallvms"
run env PATH="$SB:$PATH" "$GPUWIZ" vms
safe "vms"
check "vms: the name escaped" has 'vm\xFF\xC2\x9B'
check "vms: a Chinese name as it is" has '训练机'
run env PATH="$SB:$PATH" "$GPUWIZ" vms --json
check "vms --json parses, the Chinese name kept" python3 -c "
import json; d=json.load(open('$out')); assert d['vms'][1]['name']=='训练机', d"
printf '%s\n' 'Vmid   Name   File   Guest OS   Version   Annotation' \
	"$(printf '11   a\033[2J\007   [ds] a/a.vmx   ubuntu64Guest   vmx-13')" >"$SB/state/getallvms"
run env PATH="$SB:$PATH" "$GPUWIZ" vms
safe "vms with ESC in a name"
check "vms: a name with ESC is listed, escaped" has 'a\x1B[2J\x07'

# --- diagnose and verify: the file's name -------------------------------------
L=$TMP/$ODD.log
sample vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt "$L"
run "$GPUWIZ" diagnose "$L"
safe "diagnose"
check "diagnose: the log's name escaped" has "$SHOWN.log"
run "$GPUWIZ" diagnose "$L" --json
check "diagnose --json parses" json_ok
printf 'nothing known\n' >"$TMP/$ODD.none"
run "$GPUWIZ" diagnose "$TMP/$ODD.none" --json
check "diagnose --json: the message kept for an odd file name" python3 -c "
import json; d=json.load(open('$out')); assert 'No known failure' in d['message'], d"
Q=$TMP/$ODD.q
cp "$FIX/nvidia-smi/h200-sxm-passthrough-vm.txt" "$Q"
run "$GPUWIZ" verify --nvidia-smi-q "$Q"
safe "verify --nvidia-smi-q"
check "verify: the capture's name escaped" has "$SHOWN.q"
run "$GPUWIZ" verify --nvidia-smi-q "$Q" --json
check "verify --json parses, the file's key kept" python3 -c "
import json; d=json.load(open('$out')); assert d['file'].endswith('.q'), d['file']"

# --- vmx: the file's name in the plan, the save line and the JSON ------------
V=$TMP/$ODD.vmx
sample vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx "$V"
run "$GPUWIZ" vmx "$V" --gpu l40s
safe "vmx"
check "vmx: the file's name escaped" has "$SHOWN.vmx"
run "$GPUWIZ" vmx "$V" --gpu l40s --write
safe "vmx --write"
check "vmx --write: the saved file's name escaped" has "$SHOWN.vmx (backup"
run "$GPUWIZ" vmx "$V" --gpu l40s --json
check "vmx --json: the name kept, its bad bytes as \\xNN, the Chinese as it is" python3 -c "
import json; d=json.load(open('$out')); f=d['file']
assert f.endswith('\\\\xFF\\\\xC2\\\\x9B中文.vmx'), f"
finish
