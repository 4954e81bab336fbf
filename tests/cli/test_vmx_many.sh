#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vmx_many.sh: `gpuwiz vmx F1 F2 ... [--write]` and `vmx DIR` (the
# .vmx files of a datastore's VM folders): the same plan for each file,
# each written atomically with its own backup; a file that fails is one
# line naming it on stderr, the others are still written, and the exit is
# 1; --json gives one object per file.  Real Workstation .vmx files of
# tests/fixtures/vmx.
. "$(dirname "$0")/lib.sh"

DS=$TMP/ds
mkdir -p "$DS/arch" "$DS/win10" "$DS/bad" "$DS/empty"
cp "$FIX/vmx/ws-archlinux-otherlinux5x-crlf.vmx" "$DS/arch/arch.vmx"
cp "$FIX/vmx/ws-hw16-win10-efi-windows1252-crlf.vmx" "$DS/win10/win10.vmx"
# (a release tree's fixtures are read-only, and so would the copies be)
chmod u+w "$DS/arch/arch.vmx" "$DS/win10/win10.vmx"
printf 'this is not a vmx\n' >"$DS/bad/bad.vmx"
: >"$DS/arch/arch.nvram"
cp "$DS/arch/arch.vmx" "$TMP/arch.orig"
cp "$DS/win10/win10.vmx" "$TMP/win10.orig"
cp "$DS/bad/bad.vmx" "$TMP/bad.orig"

# two files, preview: each planned, nothing written
run "$GPUWIZ" vmx "$DS/arch/arch.vmx" "$DS/win10/win10.vmx" --gpu l40s
if [ "$rc" -eq 0 ] && [ "$(grep -c '^VM: ' "$out")" -eq 2 ] &&
	[ "$(grep -c 'pciPassthru.64bitMMIOSizeGB' "$out")" -ge 2 ] &&
	cmp -s "$DS/arch/arch.vmx" "$TMP/arch.orig" &&
	cmp -s "$DS/win10/win10.vmx" "$TMP/win10.orig"; then
	ok "two files: both planned, nothing written without --write"
else nok "two files preview" "$(cat "$out" "$err")"; fi

# the datastore folder with --write: the bad file fails alone
run "$GPUWIZ" vmx "$DS" --gpu l40s --write
if [ "$rc" -eq 1 ] && err_one_line && errhas "$DS/bad/bad.vmx: " &&
	has "1 of 3 files failed"; then
	ok "a folder: the bad file is one line naming it, exit 1"
else nok "folder with a bad file" "$(cat "$out" "$err")"; fi
check "the bad file is unchanged, no backup of it" sh -c \
	"cmp -s '$DS/bad/bad.vmx' '$TMP/bad.orig' && [ -z \"\$(ls '$DS/bad' | grep -v '^bad.vmx$')\" ]"
for vm in arch win10; do
	check "$vm: written with the plan's keys" grep -q '^pciPassthru.use64bitMMIO = "TRUE"' "$DS/$vm/$vm.vmx"
	check "$vm: its own backup, the old bytes" sh -c \
		"ls '$DS/$vm/'$vm.vmx.*.bak >/dev/null 2>&1 && cmp -s '$DS/$vm/'$vm.vmx.*.bak '$TMP/$vm.orig'"
	check "$vm: no temporary left" sh -c "! ls '$DS/$vm' | grep -q gpuwiz-"
done
check "the folders' other files are left alone" [ -f "$DS/arch/arch.nvram" ]
# in folder order: arch, bad, win10
check "files in sorted order" sh -c \
	"grep '^VM: ' '$out' | sed 's|.*/||' | tr '\n' ' ' | grep -q '^arch.vmx win10.vmx $'"

# again: nothing to change in either, still the bad file's line
run "$GPUWIZ" vmx "$DS" --gpu l40s --write
check "again: nothing to change for the written ones" sh -c \
	"[ $rc -eq 1 ] && [ \$(grep -c 'Nothing to change' '$out') -eq 2 ]"

# --json: one object per file, the failure with its error
run "$GPUWIZ" vmx "$DS/win10/win10.vmx" "$DS/bad/bad.vmx" "$DS/missing.vmx" --gpu l40s --json
if [ "$rc" -eq 1 ] && python3 - "$out" "$DS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ds = sys.argv[2]
f = d["files"]
assert [x["file"] for x in f] == [ds + "/win10/win10.vmx", ds + "/bad/bad.vmx", ds + "/missing.vmx"], f
assert f[0]["changed"] is False and "settings" in f[0], f[0]
assert "error" in f[1] and "bad.vmx" in f[1]["error"], f[1]
assert "error" in f[2], f[2]
PY
then ok "--json: one object per file, errors kept apart"
else nok "--json many" "$(cat "$out" "$err")"; fi

# what a folder's listing takes: a VM folder and a .vmx that are links
# (followed), a .vmx in a folder two levels down, a dangling link, a fifo
# and a folder named like a .vmx (none of them)
L=$TMP/links
mkdir -p "$L/real" "$L/deep/sub" "$L/top" "$L/dirvmx.vmx" "$TMP/elsewhere"
cp "$FIX/vmx/ws-archlinux-otherlinux5x-crlf.vmx" "$L/real/real.vmx"
cp "$FIX/vmx/ws-archlinux-otherlinux5x-crlf.vmx" "$L/deep/sub/deep.vmx"
cp "$FIX/vmx/ws-archlinux-otherlinux5x-crlf.vmx" "$TMP/elsewhere/away.vmx"
chmod u+w "$L/real/real.vmx" "$L/deep/sub/deep.vmx" "$TMP/elsewhere/away.vmx"
ln -s "$TMP/elsewhere" "$L/linked"
ln -s "$L/real/real.vmx" "$L/top/alias.vmx"
ln -s "$L/nowhere.vmx" "$L/top/dangling.vmx"
mkfifo "$L/top/fifo.vmx"
run "$GPUWIZ" vmx "$L" --gpu l40s
check "a folder's listing: links followed; no deeper folder, dangling link, fifo or folder" sh -c \
	"[ $rc -eq 0 ] && grep '^VM: ' '$out' | sed 's|^VM: $L/||' | tr '\n' ' ' | grep -qx 'linked/away.vmx real/real.vmx top/alias.vmx '"

# one file keeps its old shape and exit codes
run "$GPUWIZ" vmx "$DS/bad/bad.vmx" --gpu l40s
check "one bad file alone: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
run "$GPUWIZ" vmx "$DS/empty" --gpu l40s
check "a folder without .vmx files: exit 2, named" sh -c "[ $rc -eq 2 ] && grep -q 'empty: a directory without .vmx files' '$err'"

finish
