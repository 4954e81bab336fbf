#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_backup_order.sh: the order of a write that changes a VM on its host
# (doc/design.md, section 6.5): with a hardware upgrade queued
# (--upgrade-hw), the VM's .vmx is copied to a backup beside it before the
# upgrade touches it, and the dry run says so first; the save after the
# upgrade makes no second backup (one write, one backup: the original).
# On the esxi-l40s sample laid out as the ESXi shell sees it (its
# stand-ins, data/hosts/bin, on the PATH): the backup holds the pre-upgrade virtualHW.version.  And
# no advice suggests a snapshot (a VM with a DirectPath device has none),
# in English and in Chinese.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
VM=ubuntu-l40s
SPEC="--vm $VM --gpu l40s --bdf 0000:3b:00.0"
dry_steps() { sed -n '/^Dry run: nothing was changed/,$p' "$out" | sed '1d'; }

# ---- the dry run: the copy first ---------------------------------------------
# shellcheck disable=SC2086
run "$GPUWIZ" vmx --sample-host esxi-l40s $SPEC --upgrade-hw --write --dry-run
dry_steps >"$TMP/steps"
check "dry run with --upgrade-hw: exit 0" [ "$rc" -eq 0 ]
check "dry run: the first step copies the VM's .vmx to a backup" \
	sh -c "head -1 '$TMP/steps' | grep -qF '  copy /vmfs/volumes/datastore1/$VM/$VM.vmx to a backup beside it, before any change on the host touches the VM'"
copy=$(grep -n 'to a backup beside it, before' "$TMP/steps" | cut -d: -f1)
up=$(grep -n 'run on the host: vim-cmd vmsvc/upgrade 1 vmx-21' "$TMP/steps" | cut -d: -f1)
save=$(grep -n "save .* on the host (no second backup: the copy made first keeps the file as it was)" "$TMP/steps" | cut -d: -f1)
check "dry run: copy, then the upgrade, then the save ($copy < $up < $save)" \
	sh -c "[ -n '$copy' ] && [ -n '$up' ] && [ -n '$save' ] && [ '$copy' -lt '$up' ] && [ '$up' -lt '$save' ]"
# shellcheck disable=SC2086
run "$GPUWIZ" vmx --sample-host esxi-l40s $SPEC --write --dry-run
check "dry run without an upgrade: no extra copy (the save keeps its backup)" \
	sh -c "[ $rc -eq 0 ] && ! grep -q 'before any change on the host' '$out' && grep -q 'on the host (a backup beside it)' '$out'"

# ---- the write on the ESXi shell: the backup is the file before --------------
H=$TMP/host
mkdir -p "$H" && cp -R "$SRC/data/hosts/bin" "$SRC/data/hosts/esxi-l40s/esxi" \
	"$SRC/data/hosts/esxi-l40s/volumes" "$H/" && chmod -R u+w "$H"
V=$H/volumes/datastore1/$VM/$VM.vmx
cp "$V" "$TMP/orig.vmx"
check "the sample's VM starts at vmx-13" grep -qx 'virtualHW.version = "13"' "$V"
# shellcheck disable=SC2086
run env PATH="$H/bin:$PATH" GPUWIZ_ESXI_VOLUMES="$H/volumes" "$GPUWIZ" vmx $SPEC --upgrade-hw --write
check "write with --upgrade-hw on the ESXi shell: exit 0, upgraded, saved" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Upgraded the hardware version to vmx-21' '$out' && grep -q '^Saved ' '$out'"
check "the VM's .vmx is now vmx-21 with the GPU" \
	sh -c "grep -qx 'virtualHW.version = \"21\"' '$V' && grep -q 'pciPassthru0.id = \"00000:059:00.0\"' '$V'"
bak=$(sed -n 's/^Saved .*(backup: \(.*\))\.$/\1/p' "$out")
check "the backup named is beside the .vmx" sh -c "[ -n '$bak' ] && [ -f '$bak' ] && [ \"\$(dirname '$bak')\" = \"\$(dirname '$V')\" ]"
check "the backup holds the pre-upgrade virtualHW.version (13)" grep -qx 'virtualHW.version = "13"' "$bak"
check "the backup is the file as it was, byte for byte" cmp -s "$TMP/orig.vmx" "$bak"
# one write, one backup: the save after the upgrade reuses the copy
check "exactly one backup beside the .vmx (no second one after the upgrade)" \
	[ "$(ls "$(dirname "$V")" | grep -c '\.bak')" -eq 1 ]
check "the host ran the upgrade after the copy (the copy is older)" \
	sh -c "grep -q 'vim-cmd vmsvc/upgrade 1 vmx-21' '$H/commands.log' && [ ! '$bak' -nt '$V' ]"
check "no temporary file left beside the .vmx" sh -c "! ls \"\$(dirname '$V')\" | grep -q gpuwiz-"

# ---- no snapshot advice for a DirectPath VM -----------------------------------
# Every line that speaks of snapshots says the VM cannot have them.
no_snapshot_advice() { # file, words that say "no snapshots"
	! grep -i "$2" "$1" | grep -v "$3" | grep -q .
}
for lang in C.UTF-8 zh_CN.UTF-8; do
	if [ "$lang" = zh_CN.UTF-8 ]; then
		locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' || { echo "# zh_CN.UTF-8 not generated: skipped"; continue; }
		word=快照; none='不能创建快照'
	else
		word=snapshot; none='no snapshots\|cannot have snapshots'
	fi
	: >"$TMP/all.$lang"
	for vm in ubuntu-l40s llm-train win2016-vdi; do
		run env LC_ALL="$lang" "$GPUWIZ" vmx --sample-host esxi-l40s --vm "$vm" --gpu l40s
		cat "$out" "$err" >>"$TMP/all.$lang"
	done
	run env LC_ALL="$lang" "$GPUWIZ" vmx "$FIX/vmx/ws-hw11-ubuntu-shebang-utf8.vmx" --gpu l40s
	cat "$out" "$err" >>"$TMP/all.$lang"
	run env LC_ALL="$lang" "$GPUWIZ" vmx "$FIX/vmx/ws-hw11-ubuntu-shebang-utf8.vmx" --gpu l40s --esxi 8.0U2
	cat "$out" "$err" >>"$TMP/all.$lang"
	run env LC_ALL="$lang" "$GPUWIZ" snippet --format ansible --gpu l40s --esxi 8.0U2
	cat "$out" "$err" >>"$TMP/all.$lang"
	check "$lang: the advice was printed (upgrade steps among it)" grep -q 'vmsvc/upgrade' "$TMP/all.$lang"
	check "$lang: the DirectPath INFO says there are no snapshots" grep -q "$none" "$TMP/all.$lang"
	check "$lang: no line suggests a snapshot" no_snapshot_advice "$TMP/all.$lang" "$word" "$none"
done
finish
