#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Dynamic DirectPath I/O (doc/design.md, section 15.4): gpuwiz vmx
# --dynamic writes the GPU by its PCI ids (pciPassthruN.present +
# allowedDevices, no id/systemId), a second run changes nothing, the limits
# come with it; --dynamic with --bdf, on a host reached directly (no
# vCenter) and on mmio is refused with one line; vsphere apply --dynamic
# against vcsim (tests/vcsim) adds a VirtualPCIPassthrough with a
# DynamicBackingInfo through vCenter, once, and refuses a standalone ESXi.  Text checked in C.UTF-8
# and zh_CN.UTF-8 (tests/fixtures/README.md gives the samples' sources).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vcsim.sh"

zh_checks

WS=vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx

# --- vmx --dynamic --write twice -------------------------------------------
sample $WS "$TMP/d.vmx"
run "$GPUWIZ" vmx "$TMP/d.vmx" --gpu l40s=2 --dynamic --write
check "write exits 0" [ $rc -eq 0 ]
check "two allowedDevices blocks" sh -c "[ \$(grep -ac '^pciPassthru[01]\\.allowedDevices = \"0x10de:0x26b9\"\$' '$TMP/d.vmx') -eq 2 ]"
check "present with them" sh -c "[ \$(grep -ac '^pciPassthru[01]\\.present = \"TRUE\"\$' '$TMP/d.vmx') -eq 2 ]"
check "no host address, no systemId" sh -c "! grep -aqE '^pciPassthru[0-9]+\\.(id|systemId|deviceId|vendorId) ' '$TMP/d.vmx'"
check "MMIO sized for two (256)" grep -aq 'pciPassthru.64bitMMIOSizeGB = "256"' "$TMP/d.vmx"
check "the reservation still written" grep -aq '^sched.mem.pin = "TRUE"' "$TMP/d.vmx"
check "reason shown" has "PCI vendor and device id of l40s: the host and its free GPU are chosen when the VM powers on, no host address is pinned."
check "source shown" has "source: vSphere API VirtualPCIPassthroughDynamicBackingInfo (since vSphere API 7.0)"
check "limits shown: DRS, vMotion" sh -c "grep -qF 'so DRS can place the VM on any host of the cluster with a free GPU of those ids' '$out' && grep -qF 'The VM still has no vMotion' '$out'"
check "no fixed-passthrough limits line" sh -c "! grep -qF 'no vSphere HA restart' '$out'"
cp "$TMP/d.vmx" "$TMP/d.first"
rm -f "$TMP"/d.vmx.*.bak
run "$GPUWIZ" vmx "$TMP/d.vmx" --gpu l40s=2 --dynamic --write
check "second write exits 0" [ $rc -eq 0 ]
check "second write byte-identical" cmp -s "$TMP/d.vmx" "$TMP/d.first"
check "second write says nothing to change" has "Nothing to change: the file already has these settings."
check "second write makes no backup" sh -c "! ls '$TMP'/d.vmx.*.bak >/dev/null 2>&1"
check "dynamic blocks counted as in the VM" has "already in the VM"
# a fixed-passthrough plan counts them as well
run "$GPUWIZ" vmx "$TMP/d.vmx" --gpu l40s=2 --write
check "without --dynamic: nothing to change" sh -c "[ $rc -eq 0 ] && cmp -s '$TMP/d.vmx' '$TMP/d.first'"
# --json: the settings with reason and source
run "$GPUWIZ" vmx "$TMP/d.vmx" --gpu l40s=3 --dynamic --json
# (the object with key pciPassthru2.allowedDevices, anywhere in the JSON)
check "json: the third block with its source" python3 -c '
import json, sys
def objs(x):
    if isinstance(x, dict):
        yield x
        for v in x.values(): yield from objs(v)
    elif isinstance(x, list):
        for v in x: yield from objs(v)
sys.exit(not any(o.get("key") == "pciPassthru2.allowedDevices" and o.get("value") == "0x10de:0x26b9"
                 and "DynamicBackingInfo" in str(o.get("source", "")) for o in objs(json.load(open(sys.argv[1])))))
' "$out"
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" vmx "$TMP/d.vmx" --gpu l40s=2 --dynamic --write
	check "zh: second write unchanged" sh -c "[ $rc -eq 0 ] && cmp -s '$TMP/d.vmx' '$TMP/d.first'"
	check "zh: the limits in Chinese" has "动态 DirectPath I/O：GPU 按 PCI ID 指定并在虚拟机开机时选定"
fi

# --- refusals: one line, exit 2, nothing written ---------------------------
run "$GPUWIZ" vmx "$TMP/d.vmx" --gpu l40s=3 --dynamic --bdf 0000:3b:00.0 \
	--system-id 65106d9a-406e-5fda-b7ab-b8ca3a63b8b4 --write
check "with --bdf: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
check "with --bdf: says why" errhas "--dynamic: Dynamic DirectPath I/O chooses the GPU by its PCI ids when the VM powers on; --bdf and --system-id pin one host's device (give one or the other)"
check "with --bdf: file untouched" cmp -s "$TMP/d.vmx" "$TMP/d.first"
# a VM on a host reached directly (the sample ESXi host, as over ssh): no
# vCenter to place it
run "$GPUWIZ" vmx --sample-host esxi-l40s --vm llm-train --gpu l40s --dynamic
check "host route: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
check "host route: names vCenter" errhas "--dynamic: Dynamic DirectPath I/O needs vCenter, which places the VM on a host with a free GPU; a VM on a host reached directly gets that host's own GPUs (fixed passthrough)"
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" vmx --sample-host esxi-l40s --vm llm-train --gpu l40s --dynamic
	check "zh: host route refused in Chinese" sh -c "[ $rc -eq 2 ] && grep -qF '动态 DirectPath I/O 需要 vCenter' '$err'"
fi
run "$GPUWIZ" mmio --gpu l40s --dynamic
check "mmio does not take --dynamic" sh -c "[ $rc -eq 2 ] && grep -qF -- '--dynamic' '$err'"

# --- an answers file: [options] dynamic = yes ------------------------------
mkdir -p "$TMP/ans"
sample $WS "$TMP/ans/vm.vmx"
cat >"$TMP/ans/a.ini" <<EOT
[gpu]
devices = l40s
[vm]
vmx = vm.vmx
[options]
dynamic = yes
EOT
run "$GPUWIZ" apply --answers "$TMP/ans/a.ini"
check "answers: apply exits 0" [ $rc -eq 0 ]
check "answers: allowedDevices written" grep -aq '^pciPassthru0.allowedDevices = "0x10de:0x26b9"$' "$TMP/ans/vm.vmx"
cp "$TMP/ans/vm.vmx" "$TMP/ans/first"
run "$GPUWIZ" apply --answers "$TMP/ans/a.ini"
check "answers: replay changes nothing" sh -c "[ $rc -eq 0 ] && cmp -s '$TMP/ans/vm.vmx' '$TMP/ans/first'"
printf '[gpu]\ndevices = l40s\n[vm]\nvmx = vm.vmx\n[options]\ndynamic = maybe\n' >"$TMP/ans/bad.ini"
run "$GPUWIZ" apply --answers "$TMP/ans/bad.ini"
check "answers: a bad dynamic value is refused naming the key" sh -c "[ $rc -ne 0 ] && grep -qF 'dynamic' '$err'"

# --- the outputs: BOSH's pci_passthroughs are Dynamic DirectPath I/O ------
run "$GPUWIZ" snippet --format bosh --gpu l40s
check "bosh: exits 0, pci_passthroughs by ids" sh -c "[ $rc -eq 0 ] && grep -q 'vendor_id: 4318' '$out' '$err' && grep -q 'device_id: 9913' '$out' '$err'"
check "bosh: says they are Dynamic DirectPath I/O, with its source" sh -c "grep -qF \"The outputs' pci_passthroughs add each GPU by its vendor and device id: the BOSH vSphere CPI makes them Dynamic DirectPath I/O devices\" '$out' '$err' && grep -qF 'source: bosh-vsphere-cpi-release, cloud_properties pci_passthroughs' '$out' '$err'"
check "bosh: DRS placement, not fixed passthrough's limits" sh -c "grep -qF 'so DRS can place the VM' '$out' '$err' && ! grep -qF 'no vSphere HA restart' '$out' '$err'"
run "$GPUWIZ" snippet --format bosh --vgpu grid_l40s-48c
check "bosh vGPU only: no Dynamic DirectPath note" sh -c "[ $rc -eq 0 ] && ! grep -qF 'Dynamic DirectPath' '$out' '$err'"
run "$GPUWIZ" snippet --format vmx --gpu l40s
check "vmx snippet without --dynamic: fixed passthrough's limits" sh -c "[ $rc -eq 0 ] && grep -qF 'no vSphere HA restart' '$out' '$err' && ! grep -qF 'Dynamic DirectPath' '$out' '$err'"
run "$GPUWIZ" snippet --format ansible --gpu l40s --dynamic --vm vm1
check "ansible: the gpuwiz vsphere apply task takes --dynamic" sh -c "[ $rc -eq 0 ] && grep -qxF -- '      - \"--dynamic\"' '$out' && grep -qF 'Dynamic DirectPath I/O: the GPUs by their PCI ids' '$out'"
check "ansible: says the collection has no module for the device" grep -qF "no module that adds a PCI device" "$out"
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" snippet --format bosh --gpu l40s
	check "zh: bosh note in Chinese" grep -qF "BOSH vSphere CPI 将它们作为动态 DirectPath I/O 设备添加" "$err"
fi

# --- vsphere apply --dynamic against vcsim ----------------------------------
if vcsim_usable; then
	export GPUWIZ_PASSWORD=pw
	vs() { "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" "$@"; }
	vcsim_start -model vpx -vms 2 -on 0 -user gw -pass pw
	OFF=$(echo "$VC_VMS" | sed -n 1p)
	run vs apply --vm "$OFF" --gpu l40s --dynamic --dry-run
	check "vpx: dry run shows the dynamic device" has "+ VirtualPCIPassthrough dynamic 10de:26b9"
	check "vpx: dry run shows the block's reason" has "PCI vendor and device id of l40s"
	run vs apply --vm "$OFF" --gpu l40s --dynamic
	check "vpx: apply --dynamic exits 0, reconfigured" sh -c "[ $rc -eq 0 ] && grep -qF 'Reconfigured $OFF' '$out'"
	run vs list --json
	if [ "$rc" -eq 0 ] && python3 - "$out" "$OFF" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
vm = [v for v in d["vms"] if v["name"] == sys.argv[2]][0]
pt = vm["passthrough"]
# a dynamic device has no host address (bdf null), only its ids
assert len(pt) == 1 and pt[0]["bdf"] is None, vm
assert pt[0]["vendor_id"] == "10de" and pt[0]["device_id"] == "26b9", vm
assert vm["reservation_locked"] is True, vm
PY
	then ok "vpx: read back: one device by ids, no host address, reservation locked"
	else nok "vpx: read back" "$(cat "$out" "$err")"; fi
	run vs apply --vm "$OFF" --gpu l40s --dynamic
	check "vpx: the same apply again changes nothing" sh -c "[ $rc -eq 0 ] && grep -qF 'Nothing to change' '$out' && ! grep -qF 'Reconfigured' '$out'"
	run vs apply --vm "$OFF" --gpu l40s
	check "vpx: without --dynamic the dynamic device counts" sh -c "[ $rc -eq 0 ] && grep -qF 'Nothing to change' '$out'"
	vcsim_stop
	vcsim_start -model esx -vms 1 -on 0 -user gw -pass pw
	OFF=$(echo "$VC_VMS" | sed -n 1p)
	run vs apply --vm "$OFF" --gpu l40s --dynamic
	check "esx: refused, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
	check "esx: says standalone ESXi, not vCenter" errhas "--dynamic: this server is a standalone ESXi host, not vCenter"
	if [ $ZH = 1 ]; then
		zh "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" apply --vm "$OFF" --gpu l40s --dynamic
		check "zh: esx refused in Chinese" sh -c "[ $rc -eq 2 ] && grep -qF '独立的 ESXi 主机' '$err'"
	fi
	nreq=$(vcsim_requests ReconfigVM_Task)
	check "esx: nothing reconfigured" [ "$nreq" -eq 0 ]
	vcsim_stop
else
	echo "# vcsim cannot be built here: vsphere apply --dynamic skipped"
fi

finish
