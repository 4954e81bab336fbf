#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the doctor on a guide's wrong commands (doc/design.md,
# sections 9 "The doctor", 15.10 and 15.11), cold from `gpuwiz`, in
# C.UTF-8 and zh_CN.UTF-8 at 80x24: (1) seed 002's lines (a Chinese ESXi
# GPU guide) pasted: every wrong command is named with the right one and
# its source, the fixes are the host's or the .vmx's, Enter goes on with
# the normal steps; (2) a Linux host's /etc/default/grub with
# intel_iommu=on pasted: right there, so nothing recognised.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

# first LANG MSGID N: the first N characters of its translation
first() { tr_ "$1" "$2" | LC_ALL=C.UTF-8 sed -E "s/^(.{$3}).*/\\1/"; }

sample guides/seed-002-esxi-gpu-guide-zh-wrong-commands.txt "$TMP/guide.txt"
sample guides/synthetic-linux-etc-default-grub-intel-iommu-on.txt "$TMP/grub.txt"

# all_pages OUT: the rows of this page and up to 24 more (PageDown
# between), borders, scroll marks, blanks and line breaks taken out, so
# that text wrapped at any character (Chinese has no spaces) reads whole
all_pages() {
	: >"$1.raw"
	p=0
	while [ $p -lt 25 ]; do screen; cat "$SCREEN" >>"$1.raw"; keys PageDown; p=$((p + 1)); done
	sed -e 's/[│┃|]//g' -e 's/ [v^]$//' "$1.raw" | tr -d ' \n' >"$1"
}
# has_text FILE TEXT: TEXT, its blanks and bars taken out, is in FILE
# (all_pages)
has_text() { grep -qF -- "$(printf '%s' "$2" | tr -d ' |')" "$1"; }

# open_doctor LANG: from the welcome screen to the doctor's text area
open_doctor() {
	check "$1: welcome" wait_for "$(st WELCOME)"
	keys Up; keys Enter
	check "$1: the text area" wait_for "^D $(tr_ "$1" 'Diagnose')"
}

# paste LANG FILE: FILE pasted (bracketed paste), then Enter diagnoses
paste_diagnose() {
	$T load-buffer "$2"
	$T paste-buffer -p -t w; sleep 0.5
	keys Enter
}

for lang in $langs; do
	# ---- (1) the guide's lines ------------------------------------------
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24
	open_doctor "$lang"
	paste_diagnose "$lang" "$TMP/guide.txt"
	check "$lang (1): the findings" wait_for "$(tr_ "$lang" 'What the doctor found')"
	check "$lang (1): FAIL, the first wrong command named" sh -c "grep -qF '$(tr_ "$lang" 'FAIL')' '$SCREEN' && grep -qF 'pciPassthru64bitMMIOSizeMB' '$SCREEN'"
	[ -n "${GW_TEST_VERBOSE:-}" ] && cat "$SCREEN"
	all_pages "$TMP/found"
	[ -n "${GW_TEST_VERBOSE:-}" ] && cat "$TMP/found.raw"
	check "$lang (1): no MMIO setting in the VMkernel" has_text "$TMP/found" "$(tr_ "$lang" 'Wrong for ESXi: the VMkernel has no setting pciPassthru64bitMMIOSizeMB. esxcli system settings kernel set -s pciPassthru64bitMMIOSizeMB has nothing to set (esxcli system settings kernel list does not show it), and a line for it in /etc/vmware/esx.conf does nothing. The 64-bit MMIO window is not a host setting.')"
	check "$lang (1): VT-d in the BIOS, not iommu_enabled" has_text "$TMP/found" "$(tr_ "$lang" "Wrong for ESXi: the VMkernel has no setting iommu_enabled or any other IOMMU switch, so esxcli system settings kernel list | grep iommu says nothing about VT-d and there is nothing to set to true. VT-d and AMD-Vi are settings of the host's BIOS/UEFI.")"
	check "$lang (1): the right commands" sh -c "grep -qF 'esxcli hardware pci pcipassthru set -d ADDRESS -e true -a' '$TMP/found.raw' || grep -qF 'esxclihardwarepcipcipassthruset-dADDRESS-etrue-a' '$TMP/found'"
	check "$lang (1): the Linux parameters in boot.cfg" has_text "$TMP/found" "$(tr_ "$lang" "Wrong for ESXi: intel_iommu=on, amd_iommu=on and iommu=pt are Linux kernel parameters (right on a Linux or KVM host's kernel command line); the VMkernel does not know them, so adding them to the kernelopt line of ESXi's /bootbank/boot.cfg turns nothing on.")"
	check "$lang (1): -e false is not ASPM" has_text "$TMP/found" "$(tr_ "$lang" 'Wrong: esxcli hardware pci pcipassthru set ... -e false does not turn ASPM (PCIe link power management) off. It turns passthrough off for the device and gives it back to the VMkernel, so no VM can use it until it is enabled again.')"
	check "$lang (1): 32 GB for the 12 GB RTX 3060" has_text "$TMP/found" 'pciPassthru.64bitMMIOSizeGB = "32"'
	check "$lang (1): MMIO is not the model's" has_text "$TMP/found" "$(tr_ "$lang" "Wrong: the 64-bit MMIO window does not depend on the model being served (Llama, GPTQ...) or on the memory it uses. It must hold the BARs of the VM's GPUs, which follow the GPUs' memory, not what runs on them.")"
	check "$lang (1): the sources" sh -c "grep -qF 'Broadcom KB 323402' '$TMP/found.raw' && grep -qF 'Linux kernel documentation' '$TMP/found.raw'"
	check "$lang (1): the fix is the host's: the normal steps next" has_text "$TMP/found" "$(tr_ "$lang" 'Do the fix above on the host or in the guest, then power the VM on again. Enter goes on with the normal steps.')"
	keys Enter
	check "$lang (1): Enter goes on to the host check" wait_for "$(st HOST)"
	$T kill-server 2>/dev/null

	# ---- (2) a Linux host's grub: right there ---------------------------
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24
	open_doctor "$lang"
	paste_diagnose "$lang" "$TMP/grub.txt"
	check "$lang (2): nothing recognised" wait_for "$(tr_ "$lang" 'Nothing recognised')"
	check "$lang (2): no Linux-parameter finding" sh -c "! grep -qF 'wrong-esxi-linux-iommu-param' '$SCREEN'"
	keys Escape
	check "$lang (2): Esc goes back to the text" wait_for "intel_iommu=on"
	$T kill-server 2>/dev/null
done

finish
