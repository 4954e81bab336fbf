#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_ssh.sh: the SSH route for real, against a throwaway sshd on
# 127.0.0.1 whose PATH gets the esxcli / vim-cmd stand-ins (they print the
# captured outputs and record what they were asked to do): test_runner's
# tests through ssh, then gpuwiz's own commands with --ssh (gpus, check,
# vms, passthru, vmx --vm --write on a datastore folder holding copies of
# real .vmx samples), asserting on what was written and what was run.
# Skipped (77) when sshd or ssh-keygen is missing.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TR=${GW_TEST_RUNNER_BIN:-$(dirname "$GPUWIZ")/../tests/unit/host/test_runner}
. "$(dirname "$0")/sshd.sh"
[ -x "$TR" ] || { echo "SKIP: $TR not built"; exit 77; }
sshd_start "$SRC"
PORT=$SSH_PORT
# the sync stand-in records that the remote write syncs its temporaries
cp "$SRC/tests/esxi-standins/sync" "$SSH_STANDINS/"

run env GW_SSH_TEST_HOST="$(id -un)@127.0.0.1" GW_SSH_TEST_PORT="$PORT" \
	GW_SSH_TEST_KEY="$SSH_KEY" GW_SSH_TEST_KNOWN_HOSTS="$SSH_KNOWN" \
	GW_SSH_TEST_STANDINS="$TMP/standins" TMPDIR="$TMP" "$TR"
if [ "$rc" -eq 0 ]; then ok "test_runner over ssh"; else
	nok "test_runner over ssh" "$(cat "$out" "$err")"; fi
check "no control socket left" sh -c "! ls -d '$TMP'/gpuwiz-ssh.* 2>/dev/null"

# ---- gpuwiz's commands through --ssh --------------------------------------
LOG=$SSH_STANDINS/standin.log
sshd_datastore itachi_lab itachi_backupTest
cp "$VOL/datastore1/itachi_lab/itachi_lab.vmx" "$TMP/vm11.orig"
cp "$VOL/datastore1/itachi_backupTest/itachi_backupTest.vmx" "$TMP/vm12.orig"
: >"$LOG"
# shellcheck disable=SC2086
gw() { TMPDIR=$TMP "$GPUWIZ" "$@" $SSH_GW_OPTS; }

run gw gpus --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g = {x["bdf"]: x for x in d["gpus"]}
assert g["0000:3b:00.0"]["vram_gb"] == 48 and g["0000:3b:00.0"]["passthru_enabled"] is True
assert g["0000:3b:00.0"]["vmx_id"] == "00000:059:00.0"
assert g["0000:5e:00.0"]["vram_gb"] is None
PY
then ok "gpus --ssh: the host's GPUs from esxcli"; else nok "gpus --ssh" "$(cat "$out" "$err")"; fi
check "gpus --ssh ran esxcli hardware pci list on the host" grep -qx 'esxcli hardware pci list' "$LOG"
cp "$out" "$TMP/gpus-ssh.json"
run gw gpus
check "gpus --ssh: the layout every back end prints (gpus_layout)" gpus_layout "$out" "$TMP/gpus-ssh.json"

run gw vms --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = {x["vmid"]: x for x in d["vms"]}
assert v[11]["power"] == "off" and v[12]["power"] == "on", v
assert v[11]["name"] == "itachi_lab" and v[11]["hw_version"] == 13
PY
then ok "vms --ssh: VMs with their power state"; else nok "vms --ssh" "$(cat "$out" "$err")"; fi

run gw check
if [ "$rc" -eq 0 ] && has "Checking the ESXi host $SSH_TARGET : PASS" && has "Above 4G"; then
	ok "check --ssh: the host's rows, nothing FAILs"
else nok "check --ssh" "$(cat "$out" "$err")"; fi
run gw check --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["checks"]
ids = [r["id"] for r in rows]
assert ids[:3] == ["esxi-host", "esxi-system-id", "gpu-present"], ids
assert "8.0.2" in rows[0]["message"] and "21" in rows[0]["message"]
pt = [r for r in rows if r["id"] == "gpu-passthru"]
assert [r["status"] for r in pt] == ["PASS", "WARN"], pt
assert "Reboot" in pt[1]["fix"]
PY
then ok "check --ssh --json: version, passthrough states, reboot pending"
else nok "check --ssh --json" "$(cat "$out" "$err")"; fi

# vGPU readiness: the stand-ins' default host is set up for passthrough
# (graphics type Shared, no vGPU manager: nvidia-smi is not asked); with
# "vgpu" in their state it is set up for vGPU and nvidia-smi answers
cp "$SRC/tests/esxi-standins/nvidia-smi" "$SSH_STANDINS/"
: >"$LOG"
run gw check --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
c = {r["id"]: r for r in json.load(open(sys.argv[1]))["checks"]}
assert c["esxi-graphics-type"]["status"] == "WARN", c["esxi-graphics-type"]
assert "--default-type SharedPassthru" in c["esxi-graphics-type"]["fix"]
assert c["esxi-vgpu-manager"]["status"] == "INFO", c["esxi-vgpu-manager"]
assert "esxi-gpu-ecc" not in c and "esxi-gpu-mig" not in c
assert "esxi-gpu-graphics-type" not in c
PY
then ok "check --ssh --json: graphics type Shared (WARN), no vGPU manager (INFO)"
else nok "check --ssh --json vGPU rows" "$(cat "$out" "$err")"; fi
check "check --ssh ran esxcli graphics host get and software vib list, not nvidia-smi" sh -c \
	"grep -qx 'esxcli graphics host get' '$LOG' && grep -qx 'esxcli software vib list' '$LOG' && ! grep -q '^nvidia-smi' '$LOG'"
mkdir -p "$SSH_STANDINS/state" && : >"$SSH_STANDINS/state/vgpu"
: >"$LOG"
run gw check --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["checks"]
c = {r["id"]: r for r in rows}
assert c["esxi-graphics-type"]["status"] == "PASS", c["esxi-graphics-type"]
m = c["esxi-vgpu-manager"]
assert m["status"] == "INFO" and "NVD-AIE_ESXi_8.0.0_Driver 550.90.05" in m["message"], m
assert c["esxi-gpu-ecc"]["status"] == "INFO" and "ECC Enabled" in c["esxi-gpu-ecc"]["message"]
assert "00000000:3B:00.0 (NVIDIA L40S)" in c["esxi-gpu-ecc"]["title"]
assert c["esxi-gpu-mig"]["message"].startswith("MIG N/A: this GPU has no MIG mode")
assert "release 9.0" in c["esxi-gpu-ecc"]["message"], c["esxi-gpu-ecc"]
g = [r for r in rows if r["id"] == "esxi-gpu-graphics-type"]
assert [r["status"] for r in g] == ["PASS", "PASS"], g
assert "0000:3b:00.0 (AD102GL [L40S])" in g[0]["title"] and g[0]["message"].endswith("; 1 VM on it now"), g
assert g[1]["message"].endswith("; 2 VMs on it now"), g
PY
then ok "check --ssh --json: set up for vGPU: Shared Direct, the manager, each GPU's type, ECC and MIG"
else nok "check --ssh --json vGPU host" "$(cat "$out" "$err")"; fi
check "check --ssh asked the host's nvidia-smi -q" grep -qx 'nvidia-smi -q' "$LOG"
run gw check
if [ "$rc" -eq 0 ] && grep -q 'Checking the host graphics type (for vGPU) : PASS' "$out" &&
	grep -q 'Checking the ECC mode of GPU 00000000:3B:00.0 (NVIDIA L40S) : INFO' "$out"; then
	ok "check --ssh: the vGPU rows in text"
else nok "check --ssh vGPU text" "$(cat "$out" "$err")"; fi
check "check --ssh asked esxcli graphics device list" grep -qx 'esxcli graphics device list' "$LOG"
# the VMs on each GPU (1 and 2) in Chinese: one form, the count in it
zh_checks
if [ "$ZH" = 1 ]; then
	# shellcheck disable=SC2086
	zh env TMPDIR="$TMP" "$GPUWIZ" check --json $SSH_GW_OPTS
	check "zh check --ssh: 当前其上有 1 台虚拟机, 2 台" python3 -c '
import json, sys
g = [r for r in json.load(open(sys.argv[1]))["checks"] if r["id"] == "esxi-gpu-graphics-type"]
assert g[0]["message"].endswith("当前其上有 1 台虚拟机"), g
assert g[1]["message"].endswith("当前其上有 2 台虚拟机"), g' "$out"
fi
# one GPU set apart as Shared, and an old vGPU manager (before ECC support)
: >"$SSH_STANDINS/state/gpu-shared"
: >"$SSH_STANDINS/state/old-manager"
run gw check --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["checks"]
g = {r["title"].split()[6]: r for r in rows if r["id"] == "esxi-gpu-graphics-type"}
assert g["0000:3b:00.0"]["status"] == "PASS", g
w = g["0000:5e:00.0"]
assert w["status"] == "WARN" and w["message"].startswith("Shared: vGPU VMs cannot use this GPU"), w
assert "Graphics Devices, select 0000:5e:00.0" in w["fix"], w
ecc = [r for r in rows if r["id"] == "esxi-gpu-ecc"]
assert ecc and all(r["status"] == "WARN" and "branch 418" in r["message"] for r in ecc), ecc
assert "nvidia-smi -e 0" in ecc[0]["fix"], ecc
PY
then ok "check --ssh --json: a GPU set to Shared WARNs; ECC on with a branch-418 manager WARNs"
else nok "check --ssh --json gpu-shared/old-manager" "$(cat "$out" "$err")"; fi
rm -rf "$SSH_STANDINS/state"

: >"$LOG"
run gw passthru --enable 0000:3b:00.0
if [ "$rc" -eq 0 ] && ! grep -q 'pcipassthru set' "$LOG"; then
	ok "passthru --enable: already active, nothing set"
else nok "passthru --enable (already on)" "$(cat "$out" "$err" "$LOG")"; fi

# the storage controllers appear when the stand-ins' state says so
mkdir -p "$SSH_STANDINS/state" && : >"$SSH_STANDINS/state/storage"
: >"$LOG"
run gw passthru --enable 0000:18:00.0
if [ "$rc" -eq 2 ] && errhas "datastore1" && err_one_line && ! grep -q 'pcipassthru set' "$LOG"; then
	ok "passthru --enable refuses the controller holding a datastore"
else nok "passthru refuses datastore controller" "$(cat "$out" "$err" "$LOG")"; fi
run gw passthru --enable 0000:01:00.0
if [ "$rc" -eq 2 ] && errhas "boot" && ! grep -q 'pcipassthru set' "$LOG"; then
	ok "passthru --enable refuses the boot device's controller"
else nok "passthru refuses boot controller" "$(cat "$out" "$err" "$LOG")"; fi
: >"$LOG"
run gw passthru --enable 0000:af:00.0
if [ "$rc" -eq 0 ] && grep -qx 'esxcli hardware pci pcipassthru set -d 0000:af:00.0 -e true -a' "$LOG" &&
	has "reboot"; then
	ok "passthru --enable: a free controller is enabled (reboot needed)"
else nok "passthru free controller" "$(cat "$out" "$err" "$LOG")"; fi
rm -rf "$SSH_STANDINS/state"

# vmx --vm on the host: preview, then write (VM off), refused when on
: >"$LOG"
run gw vmx --vm itachi_lab --gpu l40s --bdf 0000:3b:00.0
if [ "$rc" -eq 0 ] && has "Nothing was written" && cmp -s "$TMP/vm11.orig" "$VOL/datastore1/itachi_lab/itachi_lab.vmx"; then
	ok "vmx --vm: preview leaves the host's file alone"
else nok "vmx --vm preview" "$(cat "$out" "$err")"; fi
run gw vmx --vm itachi_lab --gpu l40s --bdf 0000:3b:00.0 --write
V11=$VOL/datastore1/itachi_lab/itachi_lab.vmx
if [ "$rc" -eq 0 ] && grep -q 'pciPassthru0.id = "00000:059:00.0"' "$V11" &&
	grep -q 'pciPassthru0.systemId = "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c"' "$V11" &&
	grep -q 'pciPassthru.64bitMMIOSizeGB = "128"' "$V11" && has "Reloaded"; then
	ok "vmx --vm --write: device block, system id from the host, MMIO"
else nok "vmx --vm --write" "$(cat "$out" "$err")"; fi
bak=$(ls "$VOL/datastore1/itachi_lab/" | grep '\.bak$' | head -1)
if [ -n "$bak" ] && cmp -s "$TMP/vm11.orig" "$VOL/datastore1/itachi_lab/$bak"; then
	ok "vmx --vm --write: backup on the datastore is the old file"
else nok "backup on the datastore" "$(ls -la "$VOL/datastore1/itachi_lab/")"; fi
check "vmx --vm --write: power state checked, VM reloaded" sh -c \
	"grep -qx 'vim-cmd vmsvc/power.getstate 11' '$LOG' && grep -qx 'vim-cmd vmsvc/reload 11' '$LOG'"
check "no temporary file left on the datastore" sh -c "! ls '$VOL/datastore1/itachi_lab/' | grep -q gpuwiz-"
check "vmx --vm --write: the temporary is synced before the rename" grep -q "^sync $V11.gpuwiz-" "$LOG"
# unchanged bytes stay unchanged: only added lines differ (the hot-add
# lines rewritten "FALSE" in place)
hot_off "$TMP/vm11.orig" >"$TMP/vm11.off"
if diff "$TMP/vm11.off" "$V11" | grep -q '^<'; then
	nok "vmx --vm --write only adds lines" "$(diff "$TMP/vm11.off" "$V11")"
else ok "vmx --vm --write only adds lines"; fi
: >"$LOG"
run gw vmx --vm itachi_lab --gpu l40s --bdf 0000:3b:00.0 --write
if [ "$rc" -eq 0 ] && has "Nothing to change" && ! grep -q 'reload' "$LOG"; then
	ok "vmx --vm --write again: nothing to change, no reload"
else nok "vmx --vm idempotent" "$(cat "$out" "$err")"; fi

run gw vmx --vm 12 --gpu l40s --write --force
if [ "$rc" -eq 2 ] && errhas "Powered on" && err_one_line &&
	cmp -s "$TMP/vm12.orig" "$VOL/datastore1/itachi_backupTest/itachi_backupTest.vmx"; then
	ok "vmx --vm: a powered-on VM is never edited, even with --force"
else nok "powered-on VM refused" "$(cat "$out" "$err")"; fi

: >"$LOG"
run gw vmx --vm itachi_backupTest --gpu l40s --upgrade-hw
if [ "$rc" -eq 2 ] && errhas "Powered on" && ! grep -q 'vmsvc/upgrade' "$LOG"; then
	ok "vmx --upgrade-hw: refused while the VM is on"
else nok "upgrade refused when on" "$(cat "$out" "$err" "$LOG")"; fi
run gw vmx --vm nosuchvm --gpu l40s
check "vmx --vm: unknown VM is one line, exit 2" sh -c "[ $rc -eq 2 ] && grep -q nosuchvm '$err' && [ \$(wc -l <'$err') -eq 1 ]"

# owner, group and mode kept over ssh (the login is root here: it may give
# them; the refusal for a user is in test_owner.sh, the same script run on
# the ESXi shell); a symlinked .vmx written through its target, the link kept
rm -f "$V11" "$V11".*.bak
sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$V11"
if [ "$(id -u)" -eq 0 ]; then
	chown 4242:4343 "$V11"; chmod 0640 "$V11"
	run gw vmx --vm itachi_lab --gpu l40s --bdf 0000:3b:00.0 --write
	bak=$(ls "$V11".*.bak 2>/dev/null | head -n 1)
	if [ "$rc" -eq 0 ] && grep -q 'pciPassthru0.id' "$V11" &&
		[ "$(stat -c '%u:%g %a' "$V11")" = "4242:4343 640" ] && [ -n "$bak" ] &&
		[ "$(stat -c '%u:%g %a' "$bak")" = "4242:4343 640" ]; then
		ok "vmx --vm --write as root: the .vmx and its backup keep 4242:4343 0640"
	else nok "owner kept over ssh" "$(cat "$out" "$err"; ls -ln "$(dirname "$V11")")"; fi
else echo "# not root: the owner check over ssh left out"; fi
rm -f "$V11" "$V11".*.bak
mkdir -p "$VOL/elsewhere"
sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$VOL/elsewhere/real.vmx"
cp "$VOL/elsewhere/real.vmx" "$TMP/real.orig"
ln -s ../../elsewhere/real.vmx "$V11"
run gw vmx --vm itachi_lab --gpu l40s --bdf 0000:3b:00.0 --write
bak=$(ls "$VOL/elsewhere"/real.vmx.*.bak 2>/dev/null | head -n 1)
if [ "$rc" -eq 0 ] && [ -L "$V11" ] && [ "$(readlink "$V11")" = ../../elsewhere/real.vmx ] &&
	grep -q 'pciPassthru0.id' "$VOL/elsewhere/real.vmx" && [ -n "$bak" ] &&
	cmp -s "$bak" "$TMP/real.orig" && [ "$(ls "$(dirname "$V11")")" = itachi_lab.vmx ]; then
	ok "vmx --vm --write: a symlinked .vmx stays a link, its target written and backed up"
else nok "symlinked .vmx over ssh" "$(cat "$out" "$err"; ls -ln "$(dirname "$V11")" "$VOL/elsewhere")"; fi

# host keys stay checked: a wrong known key is refused
echo "[127.0.0.1]:$SSH_PORT $(cut -d' ' -f1-2 "$TMP/userkey.pub")" >"$TMP/wrong_known"
run "$GPUWIZ" vms --ssh "$SSH_TARGET" --ssh-port "$SSH_PORT" --ssh-identity "$SSH_KEY" \
	--ssh-option UserKnownHostsFile="$TMP/wrong_known" --ssh-option GlobalKnownHostsFile=/dev/null
if [ "$rc" -eq 2 ] && err_one_line; then ok "a changed host key is refused"; else
	nok "changed host key" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" vms $SSH_GW_OPTS --ssh-option StrictHostKeyChecking=no
check "StrictHostKeyChecking cannot be turned off" sh -c "[ $rc -eq 2 ] && grep -q 'host key' '$err'"
check "no control socket left after the commands" sh -c "! ls -d '$TMP'/gpuwiz-ssh.* 2>/dev/null | grep -q ."
finish
