#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of v on the review (doc/design.md, section 9), at 80x24 in
# C.UTF-8 and zh_CN.UTF-8: a home-lab .vmx (an RTX 3060, offline) whose
# only output is the patched .vmx itself.  v shows the write's own
# description, as the write does it and --dry-run prints it: the .vmx
# saved with a backup, each line set (+) and removed (-; a changed key:
# its - then its +).  The write then leaves exactly that in the .vmx.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

UUID=5f3c2a10-8d4e-11ee-9a4b-3cecef123456
BDF=0000:01:00.0

walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	# the home lab's .vmx with a window too small: the write changes it
	sample scenarios/homelab-hw13-bios.vmx "$TMP/run/lab.vmx"
	printf 'pciPassthru.64bitMMIOSizeGB = "8"\n' >>"$TMP/run/lab.vmx"
	start "$lang" 80x24
	check "$lang: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang: host check" wait_for "$(st HOST)"
	keys Space Down Space Enter
	check "$lang: GPU step" wait_for "$(st GPU)"
	typ 3060; keys Down Space
	check "$lang: the RTX 3060 chosen" wait_for "1 x rtx-3060"
	keys Enter
	check "$lang: VM step" wait_for "$(st VM)"
	typ lab; keys Tab Enter
	typ 8.0U3; keys Down; typ "$BDF"; keys Down; typ "$UUID"; keys Enter
	check "$lang: MMIO step" wait_for "$(st MMIO)"
	keys Enter
	check "$lang: options step" wait_for "$(st OPTIONS)"
	keys Enter
	check "$lang: review" wait_for "$(st REVIEW)"
	keys v
	check "$lang: v: the write's steps" wait_for "$(tr_ "$lang" 'What the write does, in order:')"
	save=$(printf "$(tr_ "$lang" '  save %s (a backup beside it)
')" lab.vmx | sed 's/^ *//')
	check "$lang: v: the .vmx saved with a backup" on_screen "$save"
	check "$lang: v: the old window removed" on_screen '- pciPassthru.64bitMMIOSizeGB = "8"'
	check "$lang: v: the new one set" on_screen '+ pciPassthru.64bitMMIOSizeGB = "32"'
	check "$lang: v: the device block" on_screen '+ pciPassthru0.id = "00000:001:00.0"'
	check "$lang: v: its - before its +" sh -c \
		"[ \$(grep -nF -- '- pciPassthru.64bitMMIOSizeGB' '$SCREEN' | cut -d: -f1) -lt \
		   \$(grep -nF -- '+ pciPassthru.64bitMMIOSizeGB' '$SCREEN' | cut -d: -f1) ]"
	check "$lang: v: no 'no snippet' line" sh -c \
		"! grep -qF '$(tr_ "$lang" 'No output format is chosen: no snippet to show.')' '$SCREEN'"
	keys Escape Enter
	check "$lang: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang: written" wait_for "$(tr_ "$lang" 'Written:')"
	check "$lang: the .vmx as v showed: 32" grep -qxF 'pciPassthru.64bitMMIOSizeGB = "32"' "$TMP/run/lab.vmx"
	check "$lang: ... the 8 gone" sh -c "! grep -qxF 'pciPassthru.64bitMMIOSizeGB = \"8\"' '$TMP/run/lab.vmx'"
	check "$lang: ... the device block" grep -qxF 'pciPassthru0.id = "00000:001:00.0"' "$TMP/run/lab.vmx"
	keys Enter
	exited >/dev/null
}

for lang in $langs; do walk "$lang"; done
finish
