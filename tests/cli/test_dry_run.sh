#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_dry_run.sh: --dry-run on every command that changes something (vmx
# FILE --write, vmx --vm --write, apply --answers, passthru --enable)
# changes nothing (no file, no backup, no directory, no host command that
# changes state) and prints what the write then does (run both, compare);
# apply --json and snippet --json; the refusal message written once.
# The sample host's stand-ins (data/hosts/bin) log every call; a copy of
# the samples here logs them to one file that outlives each command's
# scratch copy.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
HLOG=$TMP/host.log
cp -R "$SRC/data/hosts" "$TMP/hosts" && chmod -R u+w "$TMP/hosts"
for b in esxcli vim-cmd; do
	sed "s|^log=\$here/commands.log\$|log='$HLOG'|" "$SRC/data/hosts/bin/$b" >"$TMP/hosts/bin/$b"
	grep -q "^log='$HLOG'" "$TMP/hosts/bin/$b" || nok "the $b stand-in logs to $HLOG"
done
export GPUWIZ_HOSTS_DIR="$TMP/hosts"
: >"$HLOG"
CHANGING='pcipassthru set|vmsvc/upgrade|vmsvc/reload|power\.on|power\.off'
# every file and directory under $1 with its checksum (names, modes, bytes)
tree() { (cd "$1" && find . | LC_ALL=C sort | while IFS= read -r f; do
	if [ -f "$f" ]; then printf '%s %s\n' "$(cksum <"$f")" "$f"; else printf 'dir %s\n' "$f"; fi
done); }
# the steps a dry run printed: the lines after its heading
dry_steps() { sed -n '/^Dry run: nothing was changed/,$p' "$out" | sed '1d'; }

# ---- vmx FILE --write: every real .vmx fixture --------------------------------
W=$TMP/w
n=0
for f in "$FIX"/vmx/*.vmx; do
	b=$(basename "$f")
	rm -rf "$W" && mkdir -p "$W" && cp "$f" "$W/$b"
	tree "$W" >"$TMP/before"
	run "$GPUWIZ" vmx "$W/$b" --gpu l40s --bdf 0000:3b:00.0 --system-id 5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c --esxi 8.0U2 --memory 65536 --write --force --dry-run
	drc=$rc
	dry_steps >"$TMP/dry"
	tree "$W" >"$TMP/after"
	if ! cmp -s "$TMP/before" "$TMP/after"; then nok "vmx --dry-run $b: the folder is unchanged"; continue; fi
	if ! grep -q '^Dry run: nothing was changed' "$out"; then
		# a file the plan refuses as input: the real write refuses it too
		run "$GPUWIZ" vmx "$W/$b" --gpu l40s --esxi 8.0U2 --write --force
		[ "$rc" -eq "$drc" ] || nok "vmx $b: the dry run and the write exit alike ($drc, $rc)"
		continue
	fi
	cp "$W/$b" "$TMP/orig.vmx"
	run "$GPUWIZ" vmx "$W/$b" --gpu l40s --bdf 0000:3b:00.0 --system-id 5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c --esxi 8.0U2 --memory 65536 --write --force
	[ "$rc" -eq "$drc" ] || nok "vmx $b: the dry run and the write exit alike ($drc, $rc)"
	# the dry run's lines are exactly the difference between the file
	# before (its backup) and after
	if python3 - "$TMP/orig.vmx" "$W/$b" "$TMP/dry" <<'PY'
import sys
def load(p):
    d = {}
    order = []
    pairs = set()
    for raw in open(p, 'rb').read().decode('latin-1').splitlines():
        line = raw.lstrip('\ufeff\xef\xbb\xbf').strip()
        if not line or line.startswith('#') or '=' not in line:
            continue
        k, v = line.split('=', 1)
        k = k.strip(); v = v.strip()
        if v[:1] == '"' and '"' in v[1:]:
            v = v[1:v.index('"', 1)]
        else:
            v = v.split('#')[0].strip()
        pairs.add((k.lower(), v))
        order.append((k, v))
        if k.lower() not in d:
            d[k.lower()] = v
    return d, order, pairs
b, _, bp = load(sys.argv[1]); a, order, ap = load(sys.argv[2])
want = set()
for k, new in order:
    old = b.get(k.lower())
    if (k.lower(), new) in bp:
        continue
    if old is not None:
        want.add('- %s = "%s"' % (k, old))
    want.add('+ %s = "%s"' % (k, new))
for k in b:
    if k not in a:
        want.add('- %s' % k)
steps = [l.strip() for l in open(sys.argv[3], encoding='latin-1')]
got = set(l for l in steps if l[:2] in ('+ ', '- '))
# keys only where a value holds bytes the terminal text escapes
ascii_ok = lambda s: all(32 <= ord(c) < 127 for c in s)
want = set(w for w in want if ascii_ok(w)); got = set(g for g in got if ascii_ok(g))
if want != got:
    print('want-got', sorted(want - got)); print('got-want', sorted(got - want)); sys.exit(1)
PY
	then n=$((n + 1)); else nok "vmx --dry-run $b: its lines are what the write changed"; fi
	ls "$W/$b".*.bak >/dev/null 2>&1 || nok "vmx --write $b: a backup"
done
check "vmx FILE --write --dry-run on the real .vmx fixtures: nothing changed, the printed lines are the write's ($n files)" [ "$n" -ge 15 ]

# ---- vmx FILE --write --dry-run --json: the same description ---------------------
rm -rf "$W" && mkdir -p "$W" && cp "$FIX/vmx/$(ls "$FIX/vmx" | grep -m1 '\.vmx$')" "$W/j.vmx"
tree "$W" >"$TMP/before"
run "$GPUWIZ" vmx "$W/j.vmx" --gpu l40s --esxi 8.0U2 --memory 65536 --write --dry-run
dry_steps | sed -n 's/^ *\([-+] .*\)/\1/p' >"$TMP/dry.text"
run "$GPUWIZ" vmx "$W/j.vmx" --gpu l40s --esxi 8.0U2 --memory 65536 --write --dry-run --json
tree "$W" >"$TMP/after"
check "vmx --write --dry-run --json: nothing written" cmp -s "$TMP/before" "$TMP/after"
check "vmx --write --dry-run --json: the write's lines, as the text dry run prints them" python3 - "$out" "$TMP/dry.text" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["dry_run"] is True and d["written"] is False, d
lines = d["write"]["vmx"]["lines"]
text = [l.rstrip("\n") for l in open(sys.argv[2])]
assert lines and lines == text, (lines, text)
PY

# ---- apply --answers: snippets and a .vmx ---------------------------------------
A=$TMP/a
mkdir -p "$A"
cp "$FIX/vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx" "$A/vm.vmx"
printf '[gpu]\ndevices = l40s=2\n[vm]\nesxi = 8.0U2\nvmx = vm.vmx\n[output]\ndir = out/new\nformats = vmx,bosh,ansible\n[options]\nforce = yes\n' >"$A/a.ini"
tree "$A" >"$TMP/before"
run "$GPUWIZ" apply --answers "$A/a.ini" --dry-run
drc=$rc
dry_steps >"$TMP/dry"
tree "$A" >"$TMP/after"
check "apply --dry-run: nothing written (no file, no backup, no directory)" cmp -s "$TMP/before" "$TMP/after"
check "apply --dry-run: the files and the .vmx it would write" sh -c "grep -q '  write $A/out/new/bosh-vm-extension.yml' '$TMP/dry' && grep -q '  save $A/vm.vmx' '$TMP/dry' && grep -q 'nccl_check.py' '$TMP/dry'"
run "$GPUWIZ" apply --answers "$A/a.ini" --dry-run --json
tree "$A" >"$TMP/after"
cp "$out" "$TMP/dry.json"
check "apply --dry-run --json: nothing written" cmp -s "$TMP/before" "$TMP/after"
run "$GPUWIZ" apply --answers "$A/a.ini"
check "apply: the dry run and the write exit alike ($drc, $rc)" [ "$rc" -eq "$drc" ]
sed -n 's/^  write //p' "$TMP/dry" | sort >"$TMP/dryfiles"
sed -n 's/^wrote //p' "$out" | sort >"$TMP/wrote"
check "apply: the files written are the ones the dry run named" cmp -s "$TMP/dryfiles" "$TMP/wrote"
check "apply: the .vmx patched is the one the dry run named" sh -c "grep -q 'patched $A/vm.vmx (backup: ' '$out'"
cp "$A/vm.vmx" "$TMP/v1"
run "$GPUWIZ" apply --answers "$A/a.ini" --json
check "apply --json: exit 0" [ "$rc" -eq 0 ]
check "apply --json: the summary of what was written, and the dry run's the same files" python3 - "$TMP/dry.json" "$out" "$A" <<'PY'
import json, sys, os
d = json.load(open(sys.argv[1])); w = json.load(open(sys.argv[2])); a = sys.argv[3]
assert d['dry_run'] is True and d['written'] is False, d
assert w['dry_run'] is False and w['written'] is True, w
assert d['files'] == w['files'] and len(w['files']) == 4, (d['files'], w['files'])
assert all(os.path.isfile(f) for f in w['files'])
assert d['vmx']['path'] == a + '/vm.vmx' and d['vmx']['changed'] is True and d['vmx']['backup'] is None
assert d['host_changes'] == [] and w['host_changes'] == []
# written a second time: nothing to change, no backup
assert w['vmx']['changed'] is False and w['vmx']['backup'] is None, w['vmx']
for f in w['findings']:
    assert set(f) == {'id', 'severity', 'message', 'fix', 'source'}, f
PY

# ---- snippet --json ---------------------------------------------------------------
run "$GPUWIZ" snippet --format vmx --gpu l40s=2 --esxi 8.0U2 --json
check "snippet --json: the snippet, no file, the findings" python3 -c "
import json; d=json.load(open('$out'))
assert d['format']=='vmx' and 'pciPassthru.64bitMMIOSizeGB' in d['text'] and d['files']==[]
assert isinstance(d['findings'], list)"
run "$GPUWIZ" snippet --format vmx --gpu l40s=2 --esxi 8.0U2
check "snippet without --json: the same snippet as before" sh -c "grep -q 'pciPassthru.64bitMMIOSizeGB' '$out' && ! grep -q '\"text\"' '$out'"

# ---- the refusal: one message, said by every command ----------------------------
printf 'memSize = "8192"\nfirmware = "efi"\nvirtualHW.version = "21"\n' >"$TMP/new.vmx"
run "$GPUWIZ" vmx "$TMP/new.vmx" --gpu l40s --esxi 7.0U3 --write --dry-run
cp "$err" "$TMP/refused.vmx"
check "vmx --write --dry-run of a plan with failures: refused like the write (exit 1)" sh -c "[ $rc -eq 1 ] && grep -q 'not written: the plan has failures' '$err'"
printf '[gpu]\ndevices = l40s\n[vm]\nesxi = 7.0U3\nvmx = new.vmx\n[output]\ndir = o\nformats = vmx\n' >"$TMP/r.ini"
run "$GPUWIZ" apply --answers "$TMP/r.ini"
check "apply of a plan with failures: refused, exit 1, nothing written" sh -c "[ $rc -eq 1 ] && [ ! -e '$TMP/o' ]"
sed -n 's/.*new\.vmx: //p' "$TMP/refused.vmx" >"$TMP/m1"; sed -n 's/.*r\.ini: //p' "$err" >"$TMP/m2"
check "the refusal: the same words from vmx and apply" sh -c "[ -s '$TMP/m1' ] && cmp -s '$TMP/m1' '$TMP/m2'"
check "the refusal message is written once in the tree" \
	sh -c "[ \$(grep -rn 'the plan has failures (FAIL)' '$SRC/src' '$SRC/ui' | grep -c '_(') -eq 1 ]"

# ---- passthru --enable on the sample host ------------------------------------------
: >"$HLOG"
run "$GPUWIZ" passthru --enable 0000:5e:00.0 --sample-host esxi-l40s --dry-run
check "passthru --dry-run: exit 0, no 'enabled'" sh -c "[ $rc -eq 0 ] && ! grep -q 'Passthrough enabled' '$out'"
check "passthru --dry-run: no command that changes the host ran" sh -c "! grep -qE '$CHANGING' '$HLOG'"
cmd=$(sed -n 's/^  run on the host: \(.*\)  (.*/\1/p' "$out")
check "passthru --dry-run: the exact esxcli command" [ "$cmd" = "esxcli hardware pci pcipassthru set -d 0000:5e:00.0 -e true -a" ]
run "$GPUWIZ" passthru --enable 0000:5e:00.0 --sample-host esxi-l40s --dry-run --json
check "passthru --dry-run --json: not enabled, the command" python3 -c "
import json; d=json.load(open('$out'))
assert d['enabled'] is False and d['dry_run'] is True
assert d['host_changes'][0]['command']=='$cmd'"
: >"$HLOG"
run "$GPUWIZ" passthru --enable 0000:5e:00.0 --sample-host esxi-l40s
check "passthru: the write runs the command the dry run printed" sh -c "[ $rc -eq 0 ] && grep -qxF '$cmd' '$HLOG'"

# the host's own checks, read only: a refusal is the write's refusal, a
# device already on needs nothing
: >"$HLOG"
run "$GPUWIZ" passthru --enable 0000:04:00.0 --sample-host esxi-l40s --dry-run
drc=$rc; cp "$err" "$TMP/dryerr"
check "passthru --dry-run of the datastore's controller: nothing ran" sh -c "! grep -qE '$CHANGING' '$HLOG'"
run "$GPUWIZ" passthru --enable 0000:04:00.0 --sample-host esxi-l40s
check "passthru --dry-run of the datastore's controller: refused as the write is (exit 2, same line)" \
	sh -c "[ $drc -eq 2 ] && [ $rc -eq 2 ] && cmp -s '$TMP/dryerr' '$err' && grep -q datastore1 '$err'"
run "$GPUWIZ" passthru --enable 0000:3b:00.0 --sample-host esxi-l40s --dry-run
check "passthru --dry-run of a device already on: nothing to run" sh -c "[ $rc -eq 0 ] && grep -q '(nothing to write)' '$out'"

# ---- vmx --vm NAME --write on the sample host --------------------------------------
: >"$HLOG"
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s --bdf 0000:3b:00.0 --upgrade-hw --write --dry-run
check "vmx --vm --upgrade-hw --write --dry-run: exit 0, nothing saved" sh -c "[ $rc -eq 0 ] && ! grep -qE '^(Saved|Upgraded|Reloaded)' '$out'"
check "vmx --vm --dry-run: no command that changes the host ran" sh -c "! grep -qE '$CHANGING' '$HLOG'"
check "vmx --vm --dry-run: the upgrade, the save and the reload" sh -c "grep -q '  run on the host: vim-cmd vmsvc/upgrade 1 vmx-21' '$out' && grep -q 'ubuntu-l40s.vmx on the host (no second backup: the copy made first keeps the file as it was), then run: vim-cmd vmsvc/reload 1' '$out'"
dry_steps | sed -n 's/^  run on the host: \(.*\)  (.*/\1/p; s/.*then run: //p' >"$TMP/drycmds"
: >"$HLOG"
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s --bdf 0000:3b:00.0 --upgrade-hw --write
grep -E "$CHANGING" "$HLOG" >"$TMP/ran"
check "vmx --vm --write: the host ran the dry run's commands, in its order" cmp -s "$TMP/drycmds" "$TMP/ran"
check "vmx --vm --write: saved and reloaded" sh -c "[ $rc -eq 0 ] && grep -q '^Saved ' '$out' && grep -q '^Reloaded' '$out'"
# without the upgrade the plan is the same before and after: the dry
# run's lines are the plan's changes the write shows
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s --bdf 0000:3b:00.0 --write --dry-run
dry_steps | sed -n 's/^      \([-+] \)/\1/p' | sort >"$TMP/drylines"
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s --bdf 0000:3b:00.0 --write
sed -n '/^Changes:/,/^Findings:/p' "$out" | sed -n 's/^  \([-+] \)/\1/p' | sort >"$TMP/wrotelines"
check "vmx --vm: the dry run's lines are the changes the write made" sh -c "[ -s '$TMP/drylines' ] && cmp -s '$TMP/drylines' '$TMP/wrotelines'"
# a powered-on VM: the dry run refuses it as the write does
: >"$HLOG"
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm win2016-vdi --gpu l40s --write --dry-run
drc=$rc; cp "$err" "$TMP/dryerr"
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm win2016-vdi --gpu l40s --write
check "vmx --vm of a powered-on VM: the dry run says what the write says (exit 2)" sh -c "[ $drc -eq 2 ] && [ $rc -eq 2 ] && cmp -s '$TMP/dryerr' '$err' && grep -q 'Powered on' '$err'"
check "vmx --vm of a powered-on VM: nothing ran on the host" sh -c "! grep -qE '$CHANGING' '$HLOG'"
finish
