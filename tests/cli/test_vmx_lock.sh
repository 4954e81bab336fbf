#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# No lost update (doc/design.md, section 7, "Writes"): two gpuwiz vmx --write
# started together on one .vmx both land (gpuwiz's lock: the second waits
# and plans on what the first wrote); a lock held by another gpuwiz longer
# than the bound is refused with one line naming the file; a read-only .vmx
# needs --force and keeps its mode.  The change made between the read and
# the rename is tests/unit/core/test_vmx.c (test_save_changed_on_disk),
# test_runner.c (over ssh) and tests/e2e/test_tui_vmx_changed.sh (the
# wizard).  Text checked in C.UTF-8 and zh_CN.UTF-8.
. "$(dirname "$0")/lib.sh"

zh_checks

WS=vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx
U=4c4c4544-0042-3510-8052-b3c04f4a4d32
PAIRS=${GW_LOCK_PAIRS:-40}

# --- PAIRS pairs of writers started together, each adding its own GPU ------
lost=0 landed=0 refused=0 i=0
while [ $i -lt "$PAIRS" ]; do
	f=$TMP/p$i.vmx
	sample $WS "$f"
	"$GPUWIZ" vmx "$f" --gpu l40s --bdf 0000:42:00.0 --system-id $U --write \
		>"$TMP/a.out" 2>&1 &
	a=$!
	"$GPUWIZ" vmx "$f" --gpu l40s --bdf 0000:43:00.0 --system-id $U --write \
		>"$TMP/b.out" 2>&1 &
	b=$!
	wait $a; ra=$?
	wait $b; rb=$?
	has42=0 has43=0
	grep -aq '^pciPassthru[0-9]*\.id = "00000:066:00\.0"' "$f" && has42=1
	grep -aq '^pciPassthru[0-9]*\.id = "00000:067:00\.0"' "$f" && has43=1
	# a run that says it saved (exit 0 or 1: findings) must have its
	# device in the file
	if { [ $ra -le 1 ] && [ $has42 = 0 ]; } || { [ $rb -le 1 ] && [ $has43 = 0 ]; }; then
		lost=$((lost + 1))
		echo "# pair $i: exits $ra $rb, 42:$has42 43:$has43"
	fi
	[ $has42 = 1 ] && [ $has43 = 1 ] && landed=$((landed + 1))
	[ $ra -ge 2 ] || [ $rb -ge 2 ] && refused=$((refused + 1))
	ls "$TMP" | grep -q "^p$i\.vmx\.gpuwiz-" && nok "pair $i: a temporary is left"
	i=$((i + 1))
done
echo "# $PAIRS pairs: $landed with both changes, $refused with a refusal, $lost lost a change"
check "concurrent writers: no change lost in $PAIRS pairs" [ $lost -eq 0 ]
check "concurrent writers: the second waits, both land ($landed of $PAIRS)" [ $landed -eq "$PAIRS" ]

# --- another gpuwiz holds the lock past the bound: refused, one line --------
sample $WS "$TMP/held.vmx"
cp "$TMP/held.vmx" "$TMP/held.orig"
if command -v flock >/dev/null 2>&1; then
	flock "$TMP/held.vmx" sleep 14 &
	holder=$!
	sleep 0.3
	run "$GPUWIZ" vmx "$TMP/held.vmx" --gpu l40s --write
	check "held: refused, exit 2" [ $rc -eq 2 ]
	check "held: one line" err_one_line
	check "held: names the file" errhas "$TMP/held.vmx: another gpuwiz is changing this file (waited 10 seconds)"
	check "held: the file unchanged" cmp -s "$TMP/held.vmx" "$TMP/held.orig"
	check "held: no backup" sh -c "! ls '$TMP'/held.vmx.*.bak >/dev/null 2>&1"
	check "held: --dry-run does not wait" sh -c "timeout 5 '$GPUWIZ' vmx '$TMP/held.vmx' --gpu l40s --write --dry-run >/dev/null"
	kill $holder 2>/dev/null
	wait $holder 2>/dev/null
	# held briefly: the write waits, then lands
	flock "$TMP/held.vmx" sleep 1 &
	holder=$!
	sleep 0.3
	run "$GPUWIZ" vmx "$TMP/held.vmx" --gpu l40s --write
	check "held briefly: waited, then saved" sh -c "[ $rc -eq 0 ] && grep -q 'Saved' '$out' && grep -aq 'pciPassthru.64bitMMIOSizeGB' '$TMP/held.vmx'"
	wait $holder 2>/dev/null
fi

# --- read-only: --force needed, the mode kept ---------------------------------
sample $WS "$TMP/ro.vmx"
chmod 0444 "$TMP/ro.vmx"
cp -p "$TMP/ro.vmx" "$TMP/ro.orig"
run "$GPUWIZ" vmx "$TMP/ro.vmx" --gpu l40s --write
check "read-only: refused, exit 2" [ $rc -eq 2 ]
check "read-only: one line" err_one_line
check "read-only: names the file and --force" errhas "$TMP/ro.vmx: read-only (no write permission for anyone); nothing written: add --force to write it anyway"
check "read-only: unchanged, no backup, no temporary" sh -c "cmp -s '$TMP/ro.vmx' '$TMP/ro.orig' && [ \$(ls '$TMP' | grep -c '^ro\\.vmx') -eq 1 ]"
run "$GPUWIZ" vmx "$TMP/ro.vmx" --gpu l40s --write --force
check "read-only --force: saved" sh -c "[ $rc -le 1 ] && grep -q 'Saved' '$out'"
check "read-only --force: written" grep -aq 'pciPassthru.64bitMMIOSizeGB' "$TMP/ro.vmx"
check "read-only --force: mode 0444 kept" [ "$(stat -c %a "$TMP/ro.vmx")" = 444 ]
if [ $ZH = 1 ]; then
	sample $WS "$TMP/ro2.vmx"
	chmod 0444 "$TMP/ro2.vmx"
	zh "$GPUWIZ" vmx "$TMP/ro2.vmx" --gpu l40s --write
	check "zh: read-only refused in Chinese, naming --force" sh -c "[ $rc -eq 2 ] && grep -qF -- '--force' '$err' && grep -q '只读' '$err'"
fi

finish
