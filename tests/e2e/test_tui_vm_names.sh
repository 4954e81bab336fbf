#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of a VM name with control characters (doc/design.md, section
# 5.3): on the ESXi sample whose vim-cmd vmsvc/getallvms names a VM with
# ESC[2J, BEL, DEL, U+202E and U+2066, the VM step lists the three VMs,
# that name with each control shown as '?' (nothing reaches the terminal
# raw), the others as they are, the columns after the names in line.  C.UTF-8 and zh_CN.UTF-8 at 80x24.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/hosts"
cp -r "$SRC/data/hosts/bin" "$SRC/data/hosts/esxi-l40s" "$TMP/hosts/"
sample vimcmd/synthetic-getallvms-control-bytes-in-name.txt \
	"$TMP/hosts/esxi-l40s/esxi/vim-cmd-vmsvc-getallvms.txt"
export GPUWIZ_HOSTS_DIR="$TMP/hosts"

for lang in $langs; do
	start $lang 80x24 --sample-host esxi-l40s
	wait_for "$(st WELCOME)" >/dev/null
	keys Enter              # the host check
	wait_for "$(st HOST)" >/dev/null
	keys Enter              # the GPU step: mark one, go on
	wait_for "$(st GPU)" >/dev/null
	keys Space Enter
	check "$lang: the VM step is reached" wait_for "$(st VM)"
	check "$lang: the VM with controls listed, each shown as '?'" on_screen 'win?[2J???cod.exe?'
	check "$lang: the VMs around it listed" sh -c \
		'grep -qF ubuntu-l40s "$1" && grep -qF llm-train "$1"' _ "$SCREEN"
	check "$lang: the .vmx paths of the three rows line up in cells" sh -c \
		'n=$(grep -F "vmx-" "$1" | grep -F "[datastore1]" | awk "{ print index(\$0, \"[datastore1]\") }" | sort -u | wc -l)
		 [ "$(grep -F "vmx-" "$1" | grep -cF "[datastore1]")" -eq 3 ] && [ "$n" -eq 1 ]' _ "$SCREEN"
	check "$lang: no control or U+202E on the screen" sh -c \
		'! LC_ALL=C grep -q "$(printf "\\033\\|\\007\\|\\342\\200\\256\\|\\342\\201\\246")" "$1"' _ "$SCREEN"
	$T kill-server 2>/dev/null || true
done

finish
