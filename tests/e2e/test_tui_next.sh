#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the write step's next steps (doc/design.md,
# section 9): every WARN/FAIL the write leaves open is a next step, first, in
# the wizard's words.  At 80x24, in C.UTF-8 and zh_CN.UTF-8:
#  1. the ESXi sample (--sample-host esxi-l40s), its BIOS hw-13 VM
#     ubuntu-l40s (Vmid 1), the detected L40S: the first next step is the
#     hardware upgrade with the real Vmid, vim-cmd vmsvc/upgrade 1 vmx-21;
#     then the EFI advice (never switched by gpuwiz);
#  2. offline, a BIOS hw-13 .vmx (tests/fixtures/vmx/
#     ws-hw11-ubuntu-shebang-utf8.vmx with virtualHW.version 11 -> 13, as
#     the sample host's ubuntu-l40s was made) and an L40S without a host
#     address: the first next step says the VM has no device block for it
#     and names the VM step's fields; the upgrade has <vmid> and the
#     getallvms hint.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

# The write step's text from "Next steps:" on, over up to 5 pages, as one
# line: the screen rows joined (the steps wrap at words), borders and the
# indentation of continued rows squeezed out.  Into $TMP/next.txt.
next_text() { pages_joined "$TMP/next.txt"; }
in_next() { grep -qF -- "$1" "$TMP/next.txt"; }
# nth_step N TEXT: TEXT comes after " N. " and before " N+1. "
nth_step() {
	sed "s/.* $1\\. //; s/ $(($1 + 1))\\. .*//" "$TMP/next.txt" | grep -qF -- "$2"
}
first_step() { nth_step 1 "$1"; }

# ---- 1. the ESXi sample, the BIOS hw-13 VM ---------------------------------
esxi_walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang esxi: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang esxi: host check" wait_for "$(st HOST)"
	keys Enter
	check "$lang esxi: GPU step" wait_for "$(st GPU)"
	keys Space
	check "$lang esxi: Space adds the detected L40S" wait_for "l40s"
	keys Enter
	check "$lang esxi: VM step" wait_for "$(st VM)"
	check "$lang esxi: ubuntu-l40s listed" on_screen "ubuntu-l40s"
	keys Down; keys Space
	check "$lang esxi: the VM opens" wait_for "vmx-21"
	enters VM WRITE
	check "$lang esxi: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang esxi: written" wait_for "$(tr_ "$lang" 'Written:')" 15
	next_text
	check "$lang esxi: the upgrade with the real Vmid is the first step" \
		first_step "vim-cmd vmsvc/upgrade 1 vmx-21"
	check "$lang esxi: from vmx-13" in_next "vmx-13"
	check "$lang esxi: no <vmid> placeholder for the upgrade" sh -c \
		"! grep -qF 'vmsvc/upgrade <vmid>' '$TMP/next.txt'"
	check "$lang esxi: the EFI advice" in_next "EFI"
	check "$lang esxi: power on VM 1" in_next "vim-cmd vmsvc/power.on 1"
	check "$lang esxi: no CLI flag in the next steps" sh -c \
		"! grep -qE -- '--(bdf|system-id|uvm|vram)' '$TMP/next.txt'"
	case $lang in
	zh*) check "$lang esxi: the upgrade step in Chinese" in_next "将硬件版本从 vmx-13 升级到 vmx-21" ;;
	*) check "$lang esxi: the upgrade step" in_next "Upgrade the hardware version from vmx-13 to vmx-21" ;;
	esac
	keys q
	check "$lang esxi: exits" exited
	check "$lang esxi: exit 0" [ "${exit_status:-x}" = 0 ]
	check "$lang esxi: terminal sane" terminal_sane
	# the exit summary on the terminal lists the same first step
	# (the rows gpuwiz wrapped it into joined: one line)
	$T capture-pane -p -J -t w -S -200 2>/dev/null | tr '\n' ' ' | tr -s ' ' >"$TMP/exit.txt"
	check "$lang esxi: the exit summary starts with the upgrade" \
		grep -qF " 1. " "$TMP/exit.txt"
	check "$lang esxi: ... vim-cmd vmsvc/upgrade 1 vmx-21" sh -c \
		"sed 's/.* 1\\. //; s/ 2\\. .*//' '$TMP/exit.txt' | grep -qF 'vim-cmd vmsvc/upgrade 1 vmx-21'"
	sc=$(sed -n 's/.* are in \(.*\) (remove it when done)\..*/\1/p' "$TMP/exit.txt" | head -n 1)
	[ -n "$sc" ] && [ -d "$sc" ] && rm -rf "$sc"
}

# ---- 2. offline: a BIOS hw-13 .vmx, an L40S without a host address --------
offline_walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/run/vm.vmx"
	sed -i 's/^virtualHW.version = "11"/virtualHW.version = "13"/' "$TMP/run/vm.vmx"
	printf '[gpu]\ndevices = l40s\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\n[output]\ndir = out\nformats = vmx\n' >"$TMP/run/a.ini"
	start "$lang" 80x24 --answers a.ini
	check "$lang offline: welcome" wait_for "$(st WELCOME)"
	enters WELCOME WRITE
	check "$lang offline: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang offline: written" wait_for "$(tr_ "$lang" 'Written:')" 15
	check "$lang offline: the .vmx has no device block" sh -c \
		"! grep -q '^pciPassthru0\.' '$TMP/run/vm.vmx'"
	next_text
	# steps 1-4 put the local copy back on the host and reload it: any
	# edit on the host comes after them, or the copy would overwrite it
	check "$lang offline: step 4: the reload" nth_step 4 "vim-cmd vmsvc/reload <vmid>"
	check "$lang offline: step 5: the VM's fields for the address" \
		nth_step 5 "$(tr_ "$lang" 'Host PCI addresses:' | sed 's/[:：]$//')"
	check "$lang offline: ... and the system id" \
		nth_step 5 "$(tr_ "$lang" 'Host system id:' | sed 's/[:：]$//')"
	check "$lang offline: ... or the vSphere or ESXi Host Client" nth_step 5 "PCI"
	# a free ESXi host has no vCenter: its Host Client's menu is named too
	check "$lang offline: ... the ESXi Host Client named" nth_step 5 "ESXi Host Client"
	check "$lang offline: the upgrade with <vmid>" in_next "vim-cmd vmsvc/upgrade <vmid> vmx-21"
	check "$lang offline: the getallvms hint" in_next "vim-cmd vmsvc/getallvms"
	check "$lang offline: the EFI advice" in_next "EFI"
	check "$lang offline: no CLI flag in the next steps" sh -c \
		"! grep -qE -- '--(bdf|system-id|uvm|vram)' '$TMP/next.txt'"
	keys Enter
	check "$lang offline: exits" exited
	# the device step's menu path, read whole in the exit text (the
	# write step's pages may cut it at a page's end)
	menu="$(tr_ "$lang" 'Fill "Host PCI addresses" and "Host system id" on the Virtual machine step (esxcli system uuid get gives the id), or, with the VM off, add the device: vSphere Client: Edit Settings > Add New Device > PCI Device; ESXi Host Client: Edit Settings > Add other device > PCI device.' | sed 's/.*ESXi Host Client[:：] *//')"
	check "$lang offline: ... with its own menu path" sh -c \
		"$T capture-pane -p -S -300 -t w | tr -d ' \\n' | grep -qF -- \"\$(printf '%s' \"\$1\" | tr -d ' ')\"" sh "$menu"
	check "$lang offline: exit 0" [ "${exit_status:-x}" = 0 ]
	check "$lang offline: terminal sane" terminal_sane
}

esxi_walk C.UTF-8
offline_walk C.UTF-8
if [ $have_zh = 1 ]; then
	esxi_walk zh_CN.UTF-8
	offline_walk zh_CN.UTF-8
else
	echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"
fi
finish
