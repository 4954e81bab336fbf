#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of the Ops Manager and Ansible outputs (doc/design.md, section 15.8)
# on the options step: om and
# Ansible are offered beside the other outputs (off by default, the row
# wrapping at 80 cells; with the VM open nothing is ticked: its .vmx is
# the output), Space on Ansible turns it on, the review lists it, the
# write step writes gpuwiz-playbook.yml and its next steps give the
# ansible-playbook command with the VM open on the host, and no step for
# an output not chosen.  The ESXi sample (--sample-host esxi-l40s), at
# 80x24, in C.UTF-8 and zh_CN.UTF-8.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

in_pages() { grep -qF -- "$1" "$TMP/pages.txt"; }

walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang: host check" wait_for "$(st HOST)"
	keys Enter
	check "$lang: GPU step" wait_for "$(st GPU)"
	keys Space
	check "$lang: the detected L40S" wait_for "l40s"
	keys Enter
	check "$lang: VM step" wait_for "$(st VM)"
	keys Down; keys Space
	check "$lang: the VM opens" wait_for "vmx-21"
	keys Enter
	keys Enter
	check "$lang: options step" wait_for "$(st OPTIONS)"
	check "$lang: om offered, off" on_screen "[ ] om"
	check "$lang: Ansible offered, off" on_screen "[ ] Ansible"
	check "$lang: a VM's .vmx open: BOSH not ticked" on_screen "[ ] BOSH"
	check "$lang: no row wider than 80 cells" sh -c \
		"python3 -c 'import sys,unicodedata as u; sys.exit(any(sum(2 if u.east_asian_width(c) in \"WF\" else 1 for c in l.rstrip(\"\\n\")) > 80 for l in open(sys.argv[1], encoding=\"utf-8\")))' '$SCREEN'"
	n=0
	while [ $n -lt 11 ]; do keys Down; n=$((n + 1)); done
	keys Space
	check "$lang: Space turns Ansible on" wait_for "[x] Ansible"
	keys Enter
	check "$lang: review" wait_for "$(st REVIEW)"
	check "$lang: the review's outputs name ansible" sh -c \
		"grep -F -- '$(tr_ "$lang" 'Outputs:')' '$SCREEN' | grep -qF 'ansible'"
	keys Enter
	check "$lang: write step" wait_for "$(st WRITE)"
	keys Enter
	check "$lang: written" wait_for "$(tr_ "$lang" 'Written:')" 15
	pages_joined "$TMP/pages.txt"
	check "$lang: the playbook is written" in_pages "gpuwiz-playbook.yml"
	# gpuwiz has patched the open VM itself: the playbook is for others
	check "$lang: next step: ansible-playbook for other VMs, not the one done" in_pages \
		"gpuwiz-playbook.yml -e '{\"gpuwiz_vms\": [\"NAME\"]}'"
	check "$lang: and it says so" in_pages \
		"$(tr_ "$lang" "Only for the same settings on other VMs (gpuwiz changes this VM and its host itself): Ansible (community.vmware), with %1\$s set and those VMs powered off: %2\$s" | sed 's/[（(].*//')"
	check "$lang: no BOSH step: not chosen" sh -c \
		"! grep -qF 'bosh update-config' '$TMP/pages.txt'"
	keys q
	check "$lang: exits" exited
}

walk C.UTF-8
if [ "$have_zh" = 1 ]; then
	walk zh_CN.UTF-8
else
	echo "ok - zh_CN.UTF-8 # SKIP no zh_CN.UTF-8 locale or catalogue"
fi
finish
