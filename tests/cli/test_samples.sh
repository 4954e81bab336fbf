#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_samples.sh: the commands on the sample hosts (--sample-host,
# data/hosts): real probes on the materialised Linux trees, the ESXi route
# through the sample's stand-ins, the scratch directory removed after each
# command and the sample itself never changed.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
export TMPDIR="$TMP"
sums() { (cd "$SRC/data/hosts" && find . -type f | LC_ALL=C sort | xargs cksum); }
sums >"$TMP/before"
no_scratch() { ! ls -d "$TMP"/gpuwiz-sample.* >/dev/null 2>&1; }

run "$GPUWIZ" check --sample-host intel-2x-l40s
if [ "$rc" -eq 0 ] && has "Checking for hardware virtualization : PASS" &&
	! has "FAIL"; then ok "check: intel-2x-l40s passes"; else nok "check intel-2x-l40s" "$(cat "$out" "$err")"; fi
check "check: the scratch directory is removed" no_scratch
run "$GPUWIZ" check --sample-host intel-iommu-off-kernel --json
if [ "$rc" -eq 1 ] && python3 - "$out" <<'PY'
import json, sys
rows = {r["id"]: r for r in json.load(open(sys.argv[1]))["checks"]}
assert rows["iommu-kernel"]["status"] == "FAIL", rows["iommu-kernel"]
assert "intel_iommu=on" in rows["iommu-kernel"]["fix"] + rows["kernel-cmdline"]["fix"]
assert rows["iommu-firmware"]["status"] == "PASS"
PY
then ok "check: IOMMU off in the kernel FAILs with the intel_iommu=on fix"
else nok "check intel-iommu-off-kernel" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" gpus --sample-host amd-geforce-usb --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g = d["gpus"][0]
assert g["device_id"] == "2805" and g["vram_gb"] == 16 and g["iommu_group"] == "15"
assert any(b["index"] == 1 and b["size_bytes"] == 16 << 30 for b in g["bars"])
assert any("0000:05:00.0" in n and "not part of the card" in n for n in d["notes"])
PY
then ok "gpus: the GeForce and the USB controller in its group"
else nok "gpus amd-geforce-usb" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" gpus --sample-host intel-2x-l40s --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
l = [g for g in d["gpus"] if g["device_id"] == "26b9"]
assert len(l) == 2 and all(g["driver"] == "vfio-pci" for g in l)
assert l[0]["iommu_group"] != l[1]["iommu_group"]
assert d["mmio_size_gb"] == 256, d["mmio_size_gb"]
PY
then ok "gpus: two L40S on vfio-pci in their own groups, 256 GB for both"
else nok "gpus intel-2x-l40s" "$(cat "$out" "$err")"; fi
# one layout for every back end: a Linux sample, an ESXi sample, and the
# same sample's text and JSON agreeing on the GPUs and the MMIO size
for s in intel-2x-l40s esxi-l40s; do
	run "$GPUWIZ" gpus --sample-host $s --json; cp "$out" "$TMP/$s.json"
	run "$GPUWIZ" gpus --sample-host $s; cp "$out" "$TMP/$s.txt"
	check "gpus --sample-host $s: the layout every back end prints" gpus_layout "$TMP/$s.txt" "$TMP/$s.json"
	check "gpus --sample-host $s: text and JSON name the same GPUs and MMIO size" python3 - "$TMP/$s.txt" "$TMP/$s.json" <<'PY'
import json, re, sys
t = open(sys.argv[1]).read(); d = json.load(open(sys.argv[2]))
rows = [l.split()[0] for l in t.splitlines()[2:] if re.match(r"  [0-9a-f]{4}:", l)]
assert rows == [g["bdf"] for g in d["gpus"]], (rows, d["gpus"])
assert re.search(r"MMIO.*: %d GB" % d["mmio_size_gb"], t), t
PY
done
check "gpus: the Linux sample shows IOMMU groups, the ESXi one the passthrough state" python3 - "$TMP/intel-2x-l40s.json" "$TMP/esxi-l40s.json" <<'PY'
import json, sys
lx = json.load(open(sys.argv[1])); es = json.load(open(sys.argv[2]))
assert all(g["iommu_group"] and g["passthru_enabled"] is None for g in lx["gpus"]), lx
assert all(g["iommu_group"] is None and g["passthru_capable"] is not None for g in es["gpus"]), es
assert lx["file"] == "/sys/bus/pci" and es["file"] == "esxcli hardware pci list", (lx["file"], es["file"])
PY

# the ESXi sample
run "$GPUWIZ" gpus --sample-host esxi-l40s --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
g = {x["bdf"]: x for x in json.load(open(sys.argv[1]))["gpus"]}
assert g["0000:3b:00.0"]["passthru_enabled"] is True
assert g["0000:5e:00.0"]["passthru_enabled"] is False
PY
then ok "gpus: the ESXi sample's L40S, one passed through"
else nok "gpus esxi-l40s" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" vms --sample-host esxi-l40s
if [ "$rc" -eq 0 ] && grep -q '^  1 .*powered off.*vmx-13.*ubuntu-l40s' "$out" &&
	grep -q '^  2 .*powered on' "$out"; then ok "vms: the sample's VMs"
else nok "vms esxi-l40s" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" check --sample-host esxi-l40s
if [ "$rc" -eq 0 ] && grep -q 'Checking passthrough of 0000:5e:00.0.*WARN' "$out" &&
	has "gpuwiz passthru --enable 0000:5e:00.0" && ! has "Press e"; then
	ok "check: the ESXi sample's second L40S is not passed through (the fix is a command)"
else nok "check esxi-l40s" "$(cat "$out" "$err")"; fi
if grep -q 'Checking the host graphics type (for vGPU) : WARN' "$out" &&
	has "Default Graphics Type: Shared;" &&
	has "esxcli graphics host set --default-type SharedPassthru, then /etc/init.d/xorg restart" &&
	grep -q 'Checking for the NVIDIA vGPU manager : INFO' "$out" &&
	has "needed for vGPU, not for passthrough" && ! has "ECC"; then
	ok "check: the ESXi sample's graphics type is Shared (one WARN with its fix), no vGPU manager (INFO)"
else nok "check esxi-l40s vGPU rows" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" check --sample-host esxi-l40s --json
if [ "$rc" -eq 0 ] && python3 - "$out" <<'PY'
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
g, m = c["esxi-graphics-type"], c["esxi-vgpu-manager"]
assert g["status"] == "WARN" and "SharedPassthru" in g["fix"], g
assert g["source"].startswith("NVIDIA Virtual GPU Software User Guide"), g
assert m["status"] == "INFO" and "not for passthrough" in m["message"], m
assert "esxi-gpu-ecc" not in c and "esxi-gpu-mig" not in c
assert "esxi-gpu-graphics-type" not in c, c
PY
then ok "check --json: esxi-graphics-type WARN, esxi-vgpu-manager INFO"
else nok "check --json esxi-l40s vGPU rows" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" passthru --sample-host esxi-l40s --enable 0000:04:00.0
if [ "$rc" -eq 2 ] && err_one_line && errhas "datastore1"; then
	ok "passthru: the datastore's controller is refused"
else nok "passthru datastore controller" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" passthru --sample-host esxi-l40s --enable 0000:5e:00.0 --json
if [ "$rc" -eq 0 ] && grep -q '"enabled": true' "$out"; then ok "passthru: the second L40S is enabled"
else nok "passthru 5e" "$(cat "$out" "$err")"; fi
# the host's GPU counts (as the wizard has them): one L40S of two has
# passthrough on
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s=2
if [ "$rc" -eq 0 ] && has "2 asked for in passthrough, but the host has 1 with passthrough on (2 detected)"; then
	ok "vmx --vm: more GPUs than the host has with passthrough on is a WARN"
else nok "vmx --vm gpu-count-host" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s --json
if [ "$rc" -eq 0 ] && ! grep -q 'gpu-count-host' "$out"; then
	ok "vmx --vm: one L40S is within the host's counts"
else nok "vmx --vm gpu-count-host within" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s --bdf 0000:3b:00.0
if [ "$rc" -eq 0 ] && has "Add --upgrade-hw to upgrade this VM to vmx-21"; then
	ok "vmx --vm: the upgrade is offered as --upgrade-hw"
else nok "upgrade hint" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm ubuntu-l40s --gpu l40s --bdf 0000:3b:00.0 --upgrade-hw --write
if [ "$rc" -eq 0 ] && has "Upgraded the hardware version to vmx-21" && has "Saved" && has "Reloaded"; then
	ok "vmx --vm --upgrade-hw --write on the sample"
else nok "vmx on the sample" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm win2016-vdi --gpu l40s --write
if [ "$rc" -eq 2 ] && err_one_line && errhas "Powered on"; then ok "vmx --vm: the powered-on sample VM is refused"
else nok "vmx powered-on sample VM" "$(cat "$out" "$err")"; fi
check "no scratch directory left" no_scratch

# bad input
run "$GPUWIZ" gpus --sample-host no-such-host
if [ "$rc" -eq 2 ] && err_one_line && errhas "esxi-l40s" && errhas "intel-2x-l40s"; then
	ok "an unknown sample is one line naming the known ones"
else nok "unknown sample" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" gpus --sample-host esxi-l40s --ssh root@esx01
check "--sample-host and --ssh exclude each other" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
run "$GPUWIZ" vms --sample-host intel-2x-l40s
check "vms needs an ESXi host" sh -c "[ $rc -eq 2 ] && grep -q 'no ESXi host' '$err' && [ \$(wc -l <'$err') -eq 1 ]"
check "the refused sample's scratch directory is removed" no_scratch
run "$GPUWIZ" vms
check "vms without a host says how to name one" sh -c "[ $rc -eq 2 ] && grep -q -- '--ssh' '$err'"
sums >"$TMP/after"
check "the samples are unchanged" cmp -s "$TMP/before" "$TMP/after"
finish
