#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_owner.sh: a written .vmx and its backup keep the original's owner,
# group and mode (doc/design.md, "Writes"), on a local file and through the
# ESXi shell's script (the one the SSH route runs): root gives them; a user
# may give a group it is a member of; where the user cannot, the write is
# refused in one line naming the file and nothing changes.  A symlinked
# .vmx on the host is written through its target, the link kept.  Needs
# root (to make files of other users) and setpriv (to run as one).
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: needs root to make files owned by other users"; exit 77
fi
command -v setpriv >/dev/null 2>&1 || { echo "SKIP: setpriv missing"; exit 77; }
# uid 4242 (group 4343) runs gpuwiz; 5252 owns what it may not write
as_user() { # [--groups G] CMD...: run CMD as uid 4242, gid 4343
	if [ "$1" = --groups ]; then g="--groups $2"; shift 2; else g=--clear-groups; fi
	# shellcheck disable=SC2086
	setpriv --reuid 4242 --regid 4343 $g env TMPDIR="$UT" HOME="$UT" "$@"
}
chmod 755 "$TMP"
UT=$TMP/usertmp; mkdir -p "$UT"; chown 4242:4343 "$UT"
# the build's gpuwiz must be reachable by uid 4242: not so where a folder
# above the checkout is closed to others (a checkout in /root, 0700)
if ! as_user "$GPUWIZ" --version >/dev/null 2>&1; then
	echo "SKIP: uid 4242 cannot run $GPUWIZ (a folder above it is closed to others, e.g. /root at 0700)"
	exit 77
fi
owner_of() { stat -c '%u:%g %a' "$1"; }
# no_change FILE ORIG: FILE is ORIG's bytes, with no backup or temporary
no_change() {
	cmp -s "$1" "$2" && ! ls "$1".*.bak >/dev/null 2>&1 &&
		! ls "$1".gpuwiz-* >/dev/null 2>&1
}

# ---- a local .vmx ----------------------------------------------------------
L=$TMP/local; mkdir -p "$L"; chown 4242:4343 "$L"
sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$L/a.vmx"
chown 4242:4343 "$L/a.vmx"; chmod 0640 "$L/a.vmx"
run "$GPUWIZ" vmx "$L/a.vmx" --gpu l40s --write
bak=$(ls "$L"/a.vmx.*.bak 2>/dev/null | head -n 1)
if [ "$rc" -eq 0 ] && [ "$(owner_of "$L/a.vmx")" = "4242:4343 640" ] &&
	grep -q 'pciPassthru.64bitMMIOSizeGB' "$L/a.vmx"; then
	ok "root writes a user's 0640 .vmx: 4242:4343 0640 kept"
else nok "root keeps owner, group, mode" "$(owner_of "$L/a.vmx"; cat "$err")"; fi
if [ -n "$bak" ] && [ "$(owner_of "$bak")" = "4242:4343 640" ]; then
	ok "its backup: 4242:4343 0640"
else nok "backup keeps owner, group, mode" "$(ls -ln "$L")"; fi

sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$L/o.vmx"
chown 5252:4343 "$L/o.vmx"; chmod 0666 "$L/o.vmx"; cp "$L/o.vmx" "$TMP/o.orig"
run as_user "$GPUWIZ" vmx "$L/o.vmx" --gpu l40s --write
if [ "$rc" -eq 2 ] && err_one_line &&
	errhas "$L/o.vmx: owned by user 5252, not 4242; run gpuwiz as 5252 or as root" &&
	no_change "$L/o.vmx" "$TMP/o.orig" && [ "$(owner_of "$L/o.vmx")" = "5252:4343 666" ]; then
	ok "a user writing another user's .vmx: refused in one line, nothing changed"
else nok "other owner refused" "$(cat "$err"; ls -ln "$L")"; fi

sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$L/r.vmx"
chmod 0666 "$L/r.vmx"; cp "$L/r.vmx" "$TMP/r0.orig"
run as_user "$GPUWIZ" vmx "$L/r.vmx" --gpu l40s --write
if [ "$rc" -eq 2 ] && err_one_line &&
	errhas "$L/r.vmx: owned by root, not 4242; run gpuwiz as root; nothing changed" &&
	no_change "$L/r.vmx" "$TMP/r0.orig" && [ "$(owner_of "$L/r.vmx")" = "0:0 666" ]; then
	ok "a user writing root's .vmx: refused, nothing changed"
else nok "root's file refused" "$(cat "$err"; ls -ln "$L")"; fi
zh_checks
if [ "$ZH" -eq 1 ]; then
	run as_user env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" vmx "$L/o.vmx" --gpu l40s --write
	if [ "$rc" -eq 2 ] && err_one_line && errhas "属于用户 5252，而不是 4242" &&
		no_change "$L/o.vmx" "$TMP/o.orig"; then
		ok "zh_CN: the refusal in Chinese"
	else nok "zh_CN refusal" "$(cat "$err")"; fi
fi

sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$L/g.vmx"
chown 4242:5353 "$L/g.vmx"; chmod 0640 "$L/g.vmx"; cp "$L/g.vmx" "$TMP/g.orig"
run as_user "$GPUWIZ" vmx "$L/g.vmx" --gpu l40s --write
if [ "$rc" -eq 2 ] && err_one_line &&
	errhas "$L/g.vmx: its group is 5353, which user 4242 cannot give a file" &&
	no_change "$L/g.vmx" "$TMP/g.orig" && [ "$(owner_of "$L/g.vmx")" = "4242:5353 640" ]; then
	ok "a group the user is not in: refused in one line, nothing changed"
else nok "foreign group refused" "$(cat "$err"; ls -ln "$L")"; fi
run as_user --groups 5353 "$GPUWIZ" vmx "$L/g.vmx" --gpu l40s --write
bak=$(ls "$L"/g.vmx.*.bak 2>/dev/null | head -n 1)
if [ "$rc" -eq 0 ] && ! cmp -s "$L/g.vmx" "$TMP/g.orig" &&
	[ "$(owner_of "$L/g.vmx")" = "4242:5353 640" ] &&
	[ -n "$bak" ] && [ "$(owner_of "$bak")" = "4242:5353 640" ]; then
	ok "a member of the file's group: written, group 5353 and 0640 kept on both"
else nok "member keeps the group" "$(cat "$err"; ls -ln "$L")"; fi

# ---- the host's script: the ESXi shell (stand-ins on the PATH) ---------------
SB=$TMP/standins; mkdir -p "$SB"
cp "$(dirname "$0")/../esxi-standins/"* "$SB/"
chown -R 4242:4343 "$SB"
VOL=$TMP/volumes; V=$VOL/datastore1/itachi_lab; mkdir -p "$V"
chmod 0777 "$V"
host() { env PATH="$SB:$PATH" GPUWIZ_ESXI_PATH="$SB" GPUWIZ_ESXI_VOLUMES="$VOL" "$@"; }

sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$V/itachi_lab.vmx"
chown 4242:4343 "$V/itachi_lab.vmx"; chmod 0640 "$V/itachi_lab.vmx"
run host "$GPUWIZ" vmx --vm itachi_lab --gpu l40s --bdf 0000:3b:00.0 --write
bak=$(ls "$V"/itachi_lab.vmx.*.bak 2>/dev/null | head -n 1)
if [ "$rc" -eq 0 ] && [ "$(owner_of "$V/itachi_lab.vmx")" = "4242:4343 640" ] &&
	grep -q 'pciPassthru0.id' "$V/itachi_lab.vmx" &&
	[ -n "$bak" ] && [ "$(owner_of "$bak")" = "4242:4343 640" ]; then
	ok "ESXi shell as root: the .vmx and its backup keep 4242:4343 0640"
else nok "ESXi shell keeps owner" "$(cat "$out" "$err"; ls -ln "$V")"; fi
rm -f "$V"/*

sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$V/itachi_lab.vmx"
chown 5252:4343 "$V/itachi_lab.vmx"; chmod 0666 "$V/itachi_lab.vmx"
cp "$V/itachi_lab.vmx" "$TMP/h.orig"
run as_user env PATH="$SB:$PATH" GPUWIZ_ESXI_PATH="$SB" GPUWIZ_ESXI_VOLUMES="$VOL" "$GPUWIZ" vmx --vm itachi_lab --gpu l40s --bdf 0000:3b:00.0 --write
if [ "$rc" -eq 2 ] && err_one_line &&
	errhas "itachi_lab.vmx: owned by user 5252, not 4242; run gpuwiz as 5252 or as root" &&
	no_change "$V/itachi_lab.vmx" "$TMP/h.orig"; then
	ok "ESXi shell as a user: another user's .vmx refused in one line, nothing changed"
else nok "ESXi shell refuses other owner" "$(cat "$err"; ls -ln "$V")"; fi
rm -f "$V"/*

# a symlinked .vmx: the target is written and backed up beside itself
E=$VOL/elsewhere; mkdir -p "$E"
sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$E/real.vmx"
cp "$E/real.vmx" "$TMP/r.orig"
ln -s ../../elsewhere/real.vmx "$V/itachi_lab.vmx"
run host "$GPUWIZ" vmx --vm itachi_lab --gpu l40s --bdf 0000:3b:00.0 --write
bak=$(ls "$E"/real.vmx.*.bak 2>/dev/null | head -n 1)
if [ "$rc" -eq 0 ] && [ -L "$V/itachi_lab.vmx" ] &&
	[ "$(readlink "$V/itachi_lab.vmx")" = ../../elsewhere/real.vmx ] &&
	grep -q 'pciPassthru0.id' "$E/real.vmx" && [ -n "$bak" ] &&
	cmp -s "$bak" "$TMP/r.orig" && [ "$(ls "$V")" = itachi_lab.vmx ]; then
	ok "ESXi shell: a symlinked .vmx stays a link, its target written and backed up"
else nok "ESXi shell symlink" "$(cat "$out" "$err"; ls -ln "$V" "$E")"; fi
finish
