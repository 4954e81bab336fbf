#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of an answers file replayed on a VM that already holds some
# of its GPUs (doc/design.md, sections 9 and 15.3: the counts are what the
# VM ends with).  llm-train (data/hosts/esxi-l40s) holds one L40S; the
# file asks for two.  The GPU step shows the two once ("2 x l40s"), not
# the VM's own L40S again beside them; the review adds one and names the
# one in the VM, and the write adds one device block; the same file again
# shows the two once and adds none.  A GPU of another
# model in the VM is still listed beside the ones asked for.  At 80x24 in
# C.UTF-8 and zh_CN.UTF-8.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

LLM=$SRC/data/hosts/esxi-l40s/volumes/datastore1/llm-train/llm-train.vmx
# fmt LANG MSGID ARGS...: the screen's text of a format
fmt() { f_l=$1; f_m=$2; shift 2; printf "$(tr_ "$f_l" "$f_m")" "$@"; }

for lang in $langs; do
	l=${lang%%.*}
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	cp "$LLM" "$TMP/run/vm.vmx" && chmod u+w "$TMP/run/vm.vmx"
	printf '[gpu]\ndevices = l40s=2\n[vm]\nvmx = vm.vmx\nbdf = 0000:3b:00.0, 0000:5e:00.0\nsystem_id = 5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c\n[output]\ndir = out\nformats = vmx\n' >"$TMP/run/a.ini"
	start "$lang" 80x24 --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	enters WELCOME GPU
	check "$l: the GPU step" wait_for "$(st GPU)"
	want=$(fmt "$lang" "%d x %s (%s), passthrough, %d GB" 2 l40s "AD102GL [L40S]" 48)
	have=$(fmt "$lang" "%d x %s, already in the VM" 1 l40s)
	check "$l: the two asked for, once" on_screen "$want"
	check "$l: the VM's L40S not listed again beside them" sh -c "! grep -qF '$have' '$SCREEN'"
	check "$l: the total is two L40S (96 GB)" on_screen "$(fmt "$lang" "Selected for this VM (total %llu GB):" 96)"
	enters GPU REVIEW
	check "$l: the review" wait_for "$(st REVIEW)"
	check "$l: the review adds one and names the VM's" on_joined \
		"$(fmt "$lang" "%s; already in the VM: %s" "1 x l40s" "1 x l40s")"
	keys Enter
	check "$l: the write step" wait_for "$(st WRITE)"
	keys Enter
	wb=0
	while [ $wb -lt 100 ] && ! ls "$TMP"/run/vm.vmx.*.bak >/dev/null 2>&1; do sleep 0.1; wb=$((wb + 1)); done
	sleep 0.5
	check "$l: the write added one block: two L40S in the VM" sh -c "[ \$(grep -c '^pciPassthru[0-9]*.present = \"TRUE\"' '$TMP/run/vm.vmx') -eq 2 ] && grep -q '^pciPassthru1.id = \"00000:094:00.0\"' '$TMP/run/vm.vmx'"
	keys q
	$T kill-server 2>/dev/null

	# the same file again on the VM that now holds both: still two, none
	# added
	start "$lang" 80x24 --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	enters WELCOME GPU
	check "$l again: the GPU step" wait_for "$(st GPU)"
	check "$l again: the two, once" on_screen "$want"
	check "$l again: not listed twice" sh -c "! grep -qF '$(fmt "$lang" "%d x %s, already in the VM" 2 l40s)' '$SCREEN'"
	enters GPU REVIEW
	check "$l again: the review adds none" wait_joined \
		"$(fmt "$lang" "none added; already in the VM: %s" "2 x l40s")"
	keys q
	$T kill-server 2>/dev/null

	# another model in the VM stays listed beside the GPU asked for
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	cp "$LLM" "$TMP/run/vm.vmx" && chmod u+w "$TMP/run/vm.vmx"
	printf '[gpu]\ndevices = a40\n[vm]\nvmx = vm.vmx\n[output]\ndir = out\nformats = vmx\n' >"$TMP/run/b.ini"
	start "$lang" 80x24 --answers b.ini
	wait_for "$(st WELCOME)" >/dev/null
	enters WELCOME GPU
	check "$l other model: the GPU step" wait_for "$(st GPU)"
	check "$l other model: the A40 asked for" on_screen "$(fmt "$lang" "%d x %s (%s), passthrough, %d GB" 1 a40 "GA102GL [A40]" 48)"
	check "$l other model: the VM's L40S beside it" on_screen "$have"
	keys q
	$T kill-server 2>/dev/null
done

finish
