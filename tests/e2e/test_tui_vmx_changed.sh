#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of a .vmx changed by someone else while the wizard waits on
# the write step (doc/design.md, section 7, "Writes"): Enter writes
# nothing, says why, reads the file again and shows the write made on it
# (the admin's new memsize in the reservation); the file is left as the
# admin wrote it, with no backup and no temporary.  Enter again writes on
# the file as it is now: the admin's edit and gpuwiz's change both there.
# At 80x24, in C.UTF-8 and zh_CN.UTF-8.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

walk() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx "$TMP/run/vm.vmx"
	printf '[gpu]\ndevices = l40s\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\n[output]\ndir = out\nformats = vmx\n' >"$TMP/run/a.ini"
	start "$lang" 80x24 --answers a.ini
	check "$lang: welcome" wait_for "$(st WELCOME)"
	enters WELCOME WRITE
	check "$lang: write step" wait_for "$(st WRITE)"
	# the admin's edit while the wizard waits: memsize raised to 98304
	sed -i 's/^memsize = .*/memsize = "98304"/' "$TMP/run/vm.vmx"
	cp "$TMP/run/vm.vmx" "$TMP/run/admin.vmx"
	keys Enter
	note=$(printf "$(tr_ "$lang" "%s changed on disk since gpuwiz read it (edited by someone else): nothing was written. gpuwiz read it again; below is the write made on it now. Check it and press Enter to write.")" vm.vmx)
	check "$lang: says the file changed and was read again" wait_joined "$note"
	check "$lang: the write made on the new file (reservation 98304)" on_joined "sched.mem.min = \"98304\""
	screen; cp "$SCREEN" "$TMP/changed-$lang.txt"
	check "$lang: not written: the admin's file as it is" cmp -s "$TMP/run/vm.vmx" "$TMP/run/admin.vmx"
	check "$lang: no backup, no temporary" sh -c "[ \$(ls '$TMP/run' | grep -c '^vm\\.vmx') -eq 1 ]"
	check "$lang: no snippet written" sh -c "! ls '$TMP/run/out'/* >/dev/null 2>&1"
	keys Enter
	check "$lang: written the second time" wait_for "$(tr_ "$lang" 'Written:')" 15
	check "$lang: the admin's memsize kept" grep -aq '^memsize = "98304"' "$TMP/run/vm.vmx"
	check "$lang: gpuwiz's reservation on it" grep -aq '^sched.mem.min = "98304"' "$TMP/run/vm.vmx"
	check "$lang: the backup is the admin's file" sh -c "cmp -s '$TMP/run/admin.vmx' \"\$(ls '$TMP/run'/vm.vmx.*.bak)\""
	keys Enter
	check "$lang: exits" exited
	check "$lang: exit 0" [ "${exit_status:-x}" = 0 ]
	check "$lang: terminal sane" terminal_sane
}

for l in $langs; do
	walk "$l"
done
finish
