#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests: the wizard in tmux (send-keys, capture-pane), in C.UTF-8
# and zh_CN.UTF-8.  Asserts on the screen text and on the files written.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

# On a machine without a GPU a plain start highlights the sample hosts
# (tests/e2e/test_tui_hosts.sh); here the probed root does not exist
# (lib.sh's GPUWIZ_SYSROOT), so the welcome step starts on the language as
# it does on a GPU host.

answers() { # a standard answers file and a copied real .vmx in $TMP/run
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$TMP/run/vm.vmx"
	cp "$TMP/run/vm.vmx" "$TMP/vm.orig"
	printf '[gpu]\ndevices = l40s=2\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\n[output]\ndir = out\nformats = vmx,bosh,opsman,tile\n' >"$TMP/run/a.ini"
}

# ---- 1. Enter alone walks an answers file to the written files ------------
enter_walk() { # LANG text-of-step-1 written-label next-steps-label
	lang=$1 t1=$2 written=$3 nextl=$4
	answers
	start "$lang" 80x24 --answers a.ini
	check "$lang: first screen" wait_for "$t1"
	# Enter on every step before the review
	n=1
	while [ $n -lt "$(stn REVIEW)" ]; do keys Enter; n=$((n + 1)); done
	check "$lang: Enter on each step reaches the review, $(st REVIEW)" wait_for "$(st REVIEW)"
	keys End
	check "$lang: the review lists the NCCL check script among the outputs" \
		wait_for "out/nccl_check.py"
	keys Enter
	check "$lang: Enter once more reaches step $(st WRITE)" wait_for "$(st WRITE)"
	check "$lang: the write step lists the NCCL check script it will write" \
		on_screen "out/nccl_check.py"
	keys Enter
	check "$lang: Enter on the write step writes" wait_for "$written"
	check "$lang: the next steps are shown" on_screen "$nextl"
	case $lang in
	zh*) check "$lang: the write screen is in Chinese" sh -c "LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$SCREEN'" ;;
	*) check "$lang: the write screen is in English" sh -c "! LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$SCREEN'" ;;
	esac
	check "$lang: the NCCL check script written for 2 GPUs" [ -s "$TMP/run/out/nccl_check.py" ]
	for f in gpuwiz.vmx.txt bosh-vm-extension.yml opsman-vm-extension.json tile-vm-type.yml; do
		check "$lang: wrote out/$f" [ -s "$TMP/run/out/$f" ]
	done
	check "$lang: the .vmx got the MMIO size" grep -aq 'pciPassthru.64bitMMIOSizeGB = "256"' "$TMP/run/vm.vmx"
	# (its hot-add lines rewritten "FALSE" in place)
	hot_off "$TMP/vm.orig" >"$TMP/vm.off"
	check "$lang: original bytes kept as a prefix" sh -c "head -c \$(stat -c %s '$TMP/vm.off') '$TMP/run/vm.vmx' | cmp -s - '$TMP/vm.off'"
	check "$lang: backup has the original bytes" sh -c "cmp -s \$(ls '$TMP'/run/vm.vmx.*.bak | head -n 1) '$TMP/vm.orig'"
	check "$lang: outputs parse" python3 -c "
import json,yaml
d=yaml.safe_load(open('$TMP/run/out/bosh-vm-extension.yml'))
assert d['vm_extensions'][0]['cloud_properties']['pci_passthroughs']==[{'vendor_id':4318,'device_id':9913}]*2
json.load(open('$TMP/run/out/opsman-vm-extension.json'))
"
	check "$lang: vim-cmd vmsvc/reload among the next steps" find_in_pages "vmsvc/reload"
	check "$lang: the NCCL all-reduce check for 2 GPUs" find_in_pages "torchrun --nproc_per_node=2"
	keys Enter
	check "$lang: Enter on the result finishes" exited
	check "$lang: exit status 0" [ "${exit_status:-x}" = 0 ]
	check "$lang: terminal restored (stty -a unchanged)" terminal_sane
}
enter_walk C.UTF-8 "Step $(st WELCOME): Welcome" "Written:" "Next steps:"
if [ $have_zh = 1 ]; then
	enter_walk zh_CN.UTF-8 "$(st WELCOME)" "$(LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 TEXTDOMAINDIR="$GPUWIZ_LOCALEDIR" gettext -d gpuwiz 'Written:')" "$(LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 TEXTDOMAINDIR="$GPUWIZ_LOCALEDIR" gettext -d gpuwiz 'Next steps:')"
else
	echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"
fi

# ---- 2. a flow chosen by keys, no answers file ---------------------------
rm -rf "$TMP/run"; mkdir -p "$TMP/run"
sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/run/vm.vmx"
start C.UTF-8 80x24
check "keys: welcome" wait_for "Step $(st WELCOME): Welcome"
keys Enter
check "keys: host check" wait_for "Step $(st HOST): Host check"
keys Enter
check "keys: the host step cannot be left unconfirmed" wait_for "Step $(st HOST): Host check"
keys Space; keys Down; keys Space
screen; check "keys: two PASS rows" [ "$(grep -c PASS "$SCREEN")" -ge 2 ]
keys Enter
check "keys: GPU selection" wait_for "Step $(st GPU): GPU selection"
typ l40s
check "keys: search as you type finds the L40S" wait_for "10de:26b9"
check "keys: only matches listed" sh -c "! grep -q '10de:2330' '$SCREEN'"
keys Tab; keys Tab; keys Tab; keys Space
check "keys: Space adds it" wait_for "1 x l40s"
keys Tab; keys +
check "keys: + raises the count" wait_for "2 x l40s"
keys Enter
check "keys: virtual machine" wait_for "Step $(st VM): Virtual machine"
typ vm
keys Tab
check "keys: Tab completes the path" wait_for ".vmx file: vm.vmx"
keys Enter
check "keys: the .vmx opens and shows its hardware version" wait_for "Hardware version: 11"
check "keys: the firmware is shown (not set = BIOS)" on_screen "Firmware:         (not set)"
check "keys: advice for the VM" on_screen "Advice:"
keys Enter
check "keys: MMIO" wait_for "Step $(st MMIO): MMIO size"
check "keys: 2 x 48 GB -> 256" on_screen "256"
# back navigation keeps the values
keys Escape
check "back: to the VM step, path kept" wait_for ".vmx file: vm.vmx"
keys Escape
check "back: to the GPU step, selection kept" wait_for "2 x l40s"
keys Enter
check "forward again" wait_for "Step $(st VM): Virtual machine"
keys Enter
check "forward to MMIO" wait_for "Step $(st MMIO): MMIO size"
# lowering below the rule needs a confirmation
typ 8
keys Enter
check "below the rule asks first" wait_for "y/n"
keys n
check "declined: still on MMIO" wait_for "Step $(st MMIO): MMIO size"
keys BSpace
keys Enter
check "options" wait_for "Step $(st OPTIONS): Options"
keys Enter
check "review" wait_for "Step $(st REVIEW): Review"
check "review shows the diff with reasons" sh -c "grep -q 'pciPassthru.64bitMMIOSizeGB' '$SCREEN' && grep -q 'why:' '$SCREEN'"
keys s
check "save answers dialog" wait_for "Save the answers for a replay (not the .vmx)"
keys C-u 2>/dev/null
typ "$TMP/run/saved.ini"
keys Enter
check "answers saved" wait_for "Answers saved"
check "the saved answers file replays the run" grep -q 'devices = l40s=2' "$TMP/run/saved.ini"
keys Enter
check "write step" wait_for "Step $(st WRITE): Write"
keys Enter
check "written" wait_for "Written:"
# a VM's .vmx with the .vmx open: it is the output, no snippet by default
# the .vmx is the output: no snippet, only the NCCL check of the 2 GPUs
check "keys: the .vmx is the output, no snippet written" \
	[ "$(ls "$TMP/run/gpuwiz-out")" = nccl_check.py ]
check "keys: vmx patched with 256" grep -q 'pciPassthru.64bitMMIOSizeGB = "256"' "$TMP/run/vm.vmx"
keys q
check "q after writing exits" exited
check "exit 0" [ "${exit_status:-x}" = 0 ]
check "terminal sane after q" terminal_sane
# replay the saved answers with Enter only
rm -rf "$TMP/run/gpuwiz-out"
mv "$TMP/run/saved.ini" "$TMP/saved.ini"
cp "$TMP/saved.ini" "$TMP/run/saved.ini"
start C.UTF-8 80x24 --answers saved.ini
check "replay: first screen" wait_for "Step $(st WELCOME)"
enters WELCOME WRITE; keys Enter
check "replay: the same .vmx, nothing more to change" wait_for "Unchanged: vm.vmx"
check "replay: the .vmx as the first run left it" grep -q 'pciPassthru.64bitMMIOSizeGB = "256"' "$TMP/run/vm.vmx"
keys Enter; exited

# ---- 3. quit paths leave the terminal sane -------------------------------
answers
start C.UTF-8 80x24 --answers a.ini
wait_for "Step $(st WELCOME)" >/dev/null
keys q
check "q with nothing unsaved exits at once" exited
check "q: exit 0" [ "${exit_status:-x}" = 0 ]
check "q: terminal sane" terminal_sane

start C.UTF-8 80x24
wait_for "Step $(st WELCOME)" >/dev/null
keys Enter; keys Space; keys Down; keys Space; keys Enter
wait_for "Step $(st GPU)" >/dev/null
typ l40s; keys Tab; keys Tab; keys Tab; keys Space; keys Enter
wait_for "Step $(st VM)" >/dev/null
keys Enter
wait_for "Step $(st MMIO)" >/dev/null
keys q
check "q with unsaved changes asks" wait_for "Quit without writing? y/n"
keys n
check "n keeps the wizard" wait_for "Step $(st MMIO)"
keys q; wait_for "y/n" >/dev/null; keys y
check "y quits" exited
check "quit dialog: terminal sane" terminal_sane

start C.UTF-8 80x24
wait_for "Step $(st WELCOME)" >/dev/null
keys Escape
check "Esc on the first step quits" exited
check "Esc: terminal sane" terminal_sane

start C.UTF-8 80x24
wait_for "Step $(st WELCOME)" >/dev/null
keys Enter
wait_for "Step $(st HOST)" >/dev/null
keys C-c
check "Ctrl-C quits" exited
check "Ctrl-C: exit 130" [ "${exit_status:-x}" = 130 ]
check "Ctrl-C: terminal sane" terminal_sane

start C.UTF-8 80x24
wait_for "Step $(st WELCOME)" >/dev/null
pid=$(gpuwiz_pid)
check "found the gpuwiz pid" [ -n "$pid" ]
[ -n "$pid" ] && kill -TERM "$pid"
check "SIGTERM quits" exited
check "SIGTERM: exit 143" [ "${exit_status:-x}" = 143 ]
check "SIGTERM: terminal sane" terminal_sane

# ---- 4. resize below the minimum and back --------------------------------
start C.UTF-8 80x24
wait_for "Step $(st WELCOME)" >/dev/null
resize 60 20
check "too small: a clear message" wait_for "Terminal too small"
check "too small: says the minimum" on_screen "80x24"
resize 80 24
check "recovers after resize" wait_for "Step $(st WELCOME): Welcome"
resize 120 40
check "larger: the side step list shows every title" wait_for "Host check"
resize 80 24
check "back to 80x24" wait_for "Step $(st WELCOME): Welcome"
keys q; exited >/dev/null

# ---- 5. help screens open and close -------------------------------------
answers
start C.UTF-8 80x24 --answers a.ini
wait_for "Step $(st WELCOME)" >/dev/null
keys F1
check "F1 opens help for the screen" wait_for "Help: Welcome"
keys Escape
sleep 0.2
screen; check "help closed, still on step 1" sh -c "! grep -q 'Help: Welcome' '$SCREEN' && grep -q 'Step $(st WELCOME)' '$SCREEN'"
enters WELCOME GPU
wait_for "Step $(st GPU)" >/dev/null
keys F1
check "F1 on the GPU step" wait_for "Help: GPU selection"
keys F1
screen; check "F1 again closes it" sh -c "! grep -q 'Help: GPU selection' '$SCREEN'"
enters GPU MMIO
wait_for "Step $(st MMIO)" >/dev/null
keys '?'
check "? opens help on the MMIO step" wait_for "Help: MMIO size"
keys q
screen; check "q closes help without quitting" sh -c "! grep -q 'Help: MMIO' '$SCREEN' && grep -q 'Step $(st MMIO)' '$SCREEN'"
if [ $have_zh = 1 ]; then
	keys Escape; keys Escape; keys Escape; keys Escape
	wait_for "Step $(st WELCOME)" >/dev/null
	keys q; exited >/dev/null
	answers
	start zh_CN.UTF-8 80x24 --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	keys F1
	zhhelp=$(LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 TEXTDOMAINDIR="$GPUWIZ_LOCALEDIR" gettext -d gpuwiz 'Help: %s' | sed 's/%s.*//')
	check "zh: F1 opens the Chinese help" wait_for "$zhhelp"
	keys Escape
	resize 60 20
	wait_for "80x24" >/dev/null
	screen; check "zh: too-small screen has Chinese text" sh -c "LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' '$SCREEN'"
	resize 80 24
	check "zh: recovers" wait_for "$(st WELCOME)"
	keys q; exited >/dev/null
	check "zh: terminal sane" terminal_sane
fi

# ---- 6. colours, and NO_COLOR ---------------------------------------------
colour_codes() { # count SGR colour sequences on the screen
	$T capture-pane -e -p -t w | grep -cE "$(printf '\033')\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)(;[0-9;]*)?m"
}
start C.UTF-8 80x24
wait_for "Step $(st WELCOME)" >/dev/null
check "colours are used on a colour terminal" [ "$(colour_codes)" -gt 0 ]
keys q; exited >/dev/null
GW_NO_COLOR=1
start C.UTF-8 80x24
wait_for "Step $(st WELCOME)" >/dev/null
check "NO_COLOR: no colour at all" [ "$(colour_codes)" -eq 0 ]
check "NO_COLOR: the current step still stands out (bold/reverse)" sh -c "$T capture-pane -e -p -t w | grep -qE \"$(printf '\033')\\[([0-9;]*;)?(1|7)(;[0-9;]*)?m\""
keys q; exited >/dev/null
GW_NO_COLOR=

# ---- 7. the whole answers walk under valgrind memcheck --------------------
if valgrind_wrap; then
	answers
	start C.UTF-8 80x24 --answers a.ini
	check "valgrind: first screen" wait_for "Step $(st WELCOME)" 30
	n=2; while [ $n -le "$GW_NSTEPS" ]; do keys Enter; wait_for "$(st $n)" 20 >/dev/null; n=$((n + 1)); done
	keys F1; wait_for "Help:" 20 >/dev/null; keys Escape
	keys Enter
	check "valgrind: written" wait_for "Written:" 30
	keys Enter
	check "valgrind: exited" exited 30
	valgrind_clean valgrind
fi

# ---- 8. configure this Linux host: a fake host through GPUWIZ_SYSROOT ----
# The same layout as tests/unit/fakehost.h: an L40S (10de:26b9) bound to
# vfio-pci in IOMMU group 25, the ACPI DMAR table, vmx in cpuinfo.
fake_host() { # ROOT
	r=$1; d=$r/sys/devices/pci0000:00/0000:41:00.0
	mkdir -p "$d" "$r/proc" "$r/sys/bus/pci/devices" "$r/sys/bus/pci/drivers/vfio-pci" \
		"$r/sys/kernel/iommu_groups/25/devices" "$r/sys/class/iommu/dmar0" \
		"$r/sys/firmware/acpi/tables"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu vme de pse tsc msr pae vmx sse sse2\n' >"$r/proc/cpuinfo"
	printf 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 intel_iommu=on iommu=pt\n' >"$r/proc/cmdline"
	printf 'DMAR' >"$r/sys/firmware/acpi/tables/DMAR"
	printf '0x10de\n' >"$d/vendor"; printf '0x26b9\n' >"$d/device"
	printf '0x030200\n' >"$d/class"; printf '16\n' >"$d/irq"
	printf '0x10de\n' >"$d/subsystem_vendor"; printf '0x1851\n' >"$d/subsystem_device"
	printf '\336\020\271\046\007\000\000\000\000\000\002\003\000\000\200\000\000\000\000\360\014\000\000\000\200\003\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\336\020\121\030\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >"$d/config"
	{
		printf '0x00000000f0000000 0x00000000f0ffffff 0x0000000000040200\n'
		printf '0x0000038000000000 0x0000038fffffffff 0x000000000014220c\n'
		n=2; while [ $n -lt 13 ]; do
			printf '0x0000000000000000 0x0000000000000000 0x0000000000000000\n'; n=$((n + 1))
		done
	} >"$d/resource"
	ln -s ../../../devices/pci0000:00/0000:41:00.0 "$r/sys/bus/pci/devices/0000:41:00.0"
	ln -s ../../../kernel/iommu_groups/25 "$d/iommu_group"
	ln -s ../../../../devices/pci0000:00/0000:41:00.0 "$r/sys/kernel/iommu_groups/25/devices/0000:41:00.0"
	ln -s ../../../bus/pci/drivers/vfio-pci "$d/driver"
}
rm -rf "$TMP/host" "$TMP/run"; mkdir -p "$TMP/run"
fake_host "$TMP/host"
export GPUWIZ_SYSROOT="$TMP/host"
start C.UTF-8 100x30
check "linux: welcome" wait_for "Step $(st WELCOME): Welcome"
check "linux: the mode is offered" on_screen "Configure this Linux host"
check "linux: what the mode is for" on_screen "plan a VMware VM"
# the cursor starts on the marked choice (a VM's .vmx offline): two rows
# down, past the Tanzu/BOSH VM type
keys Down; keys Down; keys Space
check "linux: the mode is picked" wait_for "(*) Configure this Linux host"
keys Enter
check "linux: host check" wait_for "Step $(st HOST): Host check"
check "linux: the live check rows" wait_for "Checking for hardware virtualization"
check "linux: the root checked is named" on_screen "$TMP/host"
screen; check "linux: PASS rows" [ "$(grep -c 'PASS' "$SCREEN")" -ge 5 ]
check "linux: no FAIL row" sh -c "! grep -q 'FAIL' '$SCREEN'"
check "linux: the GPU's driver row" on_screen "0000:41:00.0"
keys Enter
check "linux: GPU selection" wait_for "Step $(st GPU): GPU selection"
check "linux: the detected list" on_screen "Detected on this host"
check "linux: the L40S detected with its address, VRAM, driver, group" sh -c "grep '0000:41:00.0' '$SCREEN' | grep 'L40S' | grep '48 GB' | grep 'vfio-pci' | grep -q 'IOMMU group 25'"
keys Space
check "linux: Space adds the detected L40S" wait_for "1 x l40s"
check "linux: the message names its address" on_screen "Added the GPU at 0000:41:00.0"
keys Space
check "linux: added once only" wait_for "already added"
keys Enter
check "linux: virtual machine" wait_for "Step $(st VM): Virtual machine"
keys Enter
check "linux: MMIO" wait_for "Step $(st MMIO): MMIO size"
check "linux: 48 GB -> 128" on_screen "128"
keys Enter
check "linux: options" wait_for "Step $(st OPTIONS): Options"
keys Enter
check "linux: review" wait_for "Step $(st REVIEW): Review"
keys Enter
check "linux: write step" wait_for "Step $(st WRITE): Write"
keys Enter
check "linux: written" wait_for "Written:"
check "linux: snippets written" [ -s "$TMP/run/gpuwiz-out/gpuwiz.vmx.txt" ]
check "linux: the snippet has the MMIO size" grep -q 'pciPassthru.64bitMMIOSizeGB = "128"' "$TMP/run/gpuwiz-out/gpuwiz.vmx.txt"
keys Enter
check "linux: exited" exited
check "linux: exit 0" [ "${exit_status:-x}" = 0 ]
check "linux: terminal sane" terminal_sane
# a FAIL row blocks the host step until o is confirmed
rm -f "$TMP/host/sys/firmware/acpi/tables/DMAR"
start C.UTF-8 100x30
wait_for "Step $(st WELCOME)" >/dev/null
keys Down; keys Down; keys Enter
check "linux FAIL: host check" wait_for "Step $(st HOST): Host check"
check "linux FAIL: the FAIL row" wait_for "FAIL"
keys Enter
check "linux FAIL: Enter is refused with the reason" wait_for "press o to go on anyway"
check "linux FAIL: still on the host step" on_screen "Step $(st HOST): Host check"
keys o
check "linux FAIL: o asks first" wait_for "y/n"
keys y
keys Enter
check "linux FAIL: confirmed, it goes on" wait_for "Step $(st GPU): GPU selection"
keys q; keys y; exited >/dev/null
export GPUWIZ_SYSROOT="$TMP/no-such-root"

finish
