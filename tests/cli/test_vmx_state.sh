#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gpuwiz vmx reads what it is given as an expert would, and its GPU counts
# are what the VM ends with (doc/design.md, sections 3 and 15.3-15.5):
# the same command twice leaves the file byte for byte as the first run
# wrote it; more GPUs in the VM than asked for is refused, naming them;
# decimal PCI ids, a memory limit below the reservation, a hardware version
# without passthrough and a vTPM's keys.  Text checked in C.UTF-8 and
# zh_CN.UTF-8 (tests/fixtures/README.md gives the samples' sources).
. "$(dirname "$0")/lib.sh"

zh_checks

WS=vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx

# --- --vgpu P=2 --write twice: the second run changes nothing --------------
sample $WS "$TMP/v.vmx"
run "$GPUWIZ" vmx "$TMP/v.vmx" --vgpu nvidia_l40s-48c=2 --write
check "vgpu: first write exits 0" [ $rc -eq 0 ]
check "vgpu: two blocks" sh -c "[ \$(grep -ac '\\.vgpu = ' '$TMP/v.vmx') -eq 2 ]"
check "vgpu: MMIO for two (256)" grep -aq 'pciPassthru.64bitMMIOSizeGB = "256"' "$TMP/v.vmx"
cp "$TMP/v.vmx" "$TMP/v.first"
rm -f "$TMP"/v.vmx.*.bak
run "$GPUWIZ" vmx "$TMP/v.vmx" --vgpu nvidia_l40s-48c=2 --write
check "vgpu: second write exits 0" [ $rc -eq 0 ]
check "vgpu: second write byte-identical" cmp -s "$TMP/v.vmx" "$TMP/v.first"
check "vgpu: second write says nothing to change" has "Nothing to change: the file already has these settings."
check "vgpu: second write makes no backup" sh -c "! ls '$TMP'/v.vmx.*.bak >/dev/null 2>&1"
check "vgpu: the two counted as in the VM" has "2 x nvidia_l40s-48c (AD102GL [L40S]), 48 GB, already in the VM"
# the typed spelling names the same vGPUs
run "$GPUWIZ" vmx "$TMP/v.vmx" --vgpu grid_l40s-48c=2 --write
check "vgpu: grid_ spelling, nothing to change" sh -c "[ $rc -eq 0 ] && cmp -s '$TMP/v.vmx' '$TMP/v.first'"
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" vmx "$TMP/v.vmx" --vgpu nvidia_l40s-48c=2 --write
	check "zh: vgpu second write exits 0, unchanged" sh -c "[ $rc -eq 0 ] && cmp -s '$TMP/v.vmx' '$TMP/v.first'"
	check "zh: says nothing to change" has "无需更改：文件中已有这些设置。"
fi

# --- fewer than the VM has: refused, naming the blocks, dry run alike --------
for mode in "--write" "--write --dry-run"; do
	# shellcheck disable=SC2086
	run "$GPUWIZ" vmx "$TMP/v.vmx" --vgpu nvidia_l40s-48c $mode
	check "fewer ($mode): exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
	check "fewer ($mode): names the blocks" errhas "nvidia_l40s-48c: the VM already has 2 of it (pciPassthru0, pciPassthru1), more than the 1 asked for; gpuwiz does not remove devices: ask for 2, or remove pciPassthru1"
	check "fewer ($mode): file untouched" cmp -s "$TMP/v.vmx" "$TMP/v.first"
done
check "fewer: no backup" sh -c "! ls '$TMP'/v.vmx.*.bak >/dev/null 2>&1"
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" vmx "$TMP/v.vmx" --vgpu nvidia_l40s-48c --write
	check "zh: fewer refused in Chinese" sh -c "[ $rc -eq 2 ] && grep -qF '虚拟机中已有 2 个（pciPassthru0, pciPassthru1），多于要求的 1 个' '$err'"
fi

# --- an answers file replayed on a VM that holds its GPUs -------------------
mkdir -p "$TMP/ans"
sample $WS "$TMP/ans/vm.vmx"
printf '[gpu]\ndevices = nvidia_l40s-48c=2\n[vm]\nvmx = vm.vmx\n' >"$TMP/ans/a.ini"
run "$GPUWIZ" apply --answers "$TMP/ans/a.ini"
check "answers: first apply exits 0" [ $rc -eq 0 ]
cp "$TMP/ans/vm.vmx" "$TMP/ans/first"
run "$GPUWIZ" apply --answers "$TMP/ans/a.ini"
check "answers: replay exits 0" [ $rc -eq 0 ]
check "answers: replay byte-identical" cmp -s "$TMP/ans/vm.vmx" "$TMP/ans/first"
check "answers: replay counts the two there (96 GB, not 192)" has "less than the 96 GB of framebuffer of its GPUs"
check "answers: two vGPUs, MMIO 256" sh -c "[ \$(grep -ac '\\.vgpu = ' '$TMP/ans/vm.vmx') -eq 2 ] && grep -aq 'pciPassthru.64bitMMIOSizeGB = \"256\"' '$TMP/ans/vm.vmx'"

# --- passthrough: the VM's own count; --gpu l40s=2 twice --------------------
sample $WS "$TMP/p.vmx"
SYSID=65106d9a-406e-5fda-b7ab-b8ca3a63b8b4
run "$GPUWIZ" vmx "$TMP/p.vmx" --gpu l40s=2 --bdf 0000:42:00.0 --bdf 0000:43:00.0 --system-id $SYSID --write
check "passthrough: first write exits 0" [ $rc -eq 0 ]
cp "$TMP/p.vmx" "$TMP/p.first"
run "$GPUWIZ" vmx "$TMP/p.vmx" --gpu l40s=2 --write
check "passthrough: again without addresses, unchanged" sh -c "[ $rc -eq 0 ] && cmp -s '$TMP/p.vmx' '$TMP/p.first'"
check "passthrough: no 'without address' WARN" sh -c "! grep -q 'no host PCI address' '$out'"

# --- decimal PCI ids (govmomi issue 2248) ----------------------------------
sample vmx/synthetic-govc-decimal-pci-ids.vmx "$TMP/d.vmx"
run "$GPUWIZ" vmx "$TMP/d.vmx"
check "decimal ids: named" has 'WARN  pciPassthru0.deviceId = "7684" is a PCI id in decimal: ESXi wants it in hexadecimal ("0x1e04")'
check "decimal ids: the change shown" sh -c "grep -qF -- '- pciPassthru0.deviceId = \"7684\"' '$out' && grep -qF -- '+ pciPassthru0.deviceId = \"0x1e04\"' '$out'"
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" vmx "$TMP/d.vmx"
	check "zh: decimal ids named" has 'pciPassthru0.deviceId = "7684" 是十进制的 PCI ID'
fi
run "$GPUWIZ" vmx "$TMP/d.vmx" --write
check "decimal ids: written in hex" sh -c "grep -q 'pciPassthru0.deviceId = \"0x1e04\"' '$TMP/d.vmx' && grep -q 'pciPassthru0.vendorId = \"0x10de\"' '$TMP/d.vmx'"
cp "$TMP/d.vmx" "$TMP/d.first"
run "$GPUWIZ" vmx "$TMP/d.vmx" --write
check "decimal ids: second write unchanged" sh -c "[ $rc -eq 0 ] && cmp -s '$TMP/d.vmx' '$TMP/d.first'"

# --- a memory limit below the reservation ----------------------------------
sample vmx/synthetic-mem-limit-below-memsize.vmx "$TMP/m.vmx"
run "$GPUWIZ" vmx "$TMP/m.vmx" --gpu l40s
check "limit: raised, the reason shown" sh -c "grep -qF -- '+ sched.mem.max = \"131072\"' '$out' && grep -qF 'The memory limit of 65536 MB is below the reservation of 131072 MB' '$out'"
run "$GPUWIZ" vmx "$TMP/m.vmx" --gpu l40s --no-reserve
check "limit: --no-reserve leaves it, says why" sh -c "! grep -q '+ sched.mem.max' '$out' && grep -qF 'not raised, because the memory reservation is left off' '$out'"
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" vmx "$TMP/m.vmx" --gpu l40s
	check "zh: limit raised, reason in Chinese" has '内存限制 65536 MB 低于直通所需的 131072 MB 预留'
fi

# --- hardware version 4: no passthrough at all ------------------------------
sample vmx/esx35-hw4-fedora11-libvirt-demo.vmx "$TMP/h.vmx"
run "$GPUWIZ" vmx "$TMP/h.vmx" --gpu l40s --esxi 8.0U2
check "hw 4: FAIL, exit 1" sh -c "[ $rc -eq 1 ] && grep -qF 'FAIL  The VM has hardware version 4: passthrough devices (DirectPath I/O and vGPU) need hardware version 7 or newer' '$out'"
check "hw 4: names the upgrade" has "vim-cmd vmsvc/upgrade <vmid> vmx-21"
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" vmx "$TMP/h.vmx" --gpu l40s --esxi 8.0U2
	check "zh: hw 4 FAIL in Chinese" has '虚拟机的硬件版本为 4：直通设备'
fi

# --- a vTPM's keys only: edited; encryption.data: refused -------------------
sample vmx/synthetic-vtpm-only-keysafe-plain-settings.vmx "$TMP/t.vmx"
run "$GPUWIZ" vmx "$TMP/t.vmx" --gpu l40s --write
check "vTPM only: written" sh -c "[ $rc -eq 0 ] && grep -q 'sched.mem.min = \"32768\"' '$TMP/t.vmx'"
check "vTPM only: said" has "The VM has a vTPM and its keys (encryption.keySafe), but its settings are plain text"
sample vmx/ws-fully-encrypted-vm-gbk-4337char-line-crlf.vmx "$TMP/enc.vmx"
run "$GPUWIZ" vmx "$TMP/enc.vmx" --gpu l40s --write
check "encryption.data: refused" sh -c "[ $rc -eq 2 ] && grep -q 'encryption.data' '$err'"

# --- BOSH, Ops Manager, the tile: the whole VM, not only what is added -----
# llm-train holds one L40S (pciPassthru0, 0000:3b:00.0); two are asked for.
# The .vmx gets the missing one; the extension and the VM type describe
# the VM BOSH creates: both GPUs and the MMIO for both.
SRCDIR=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
LLM=$SRCDIR/data/hosts/esxi-l40s/volumes/datastore1/llm-train/llm-train.vmx
mkdir -p "$TMP/ext"
cp "$LLM" "$TMP/ext/vm.vmx" && chmod u+w "$TMP/ext/vm.vmx"
printf '[gpu]\ndevices = l40s=2\n[vm]\nvmx = vm.vmx\nbdf = 0000:3b:00.0, 0000:5e:00.0\nsystem_id = 5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c\n[output]\ndir = out\nformats = vmx,bosh,opsman,tile\n' >"$TMP/ext/a.ini"
# ext_check DIR: both L40S in BOSH's and Ops Manager's lists, MMIO 256 for
# the two, the tile's L40S with the MMIO for two
ext_check() {
	python3 - "$1" <<'PY'
import json, sys, yaml
d = sys.argv[1]
b = yaml.safe_load(open(d + "/bosh-vm-extension.yml"))["vm_extensions"][0]["cloud_properties"]
o = json.load(open(d + "/opsman-vm-extension.json"))["cloud_properties"]
for cp in (b, o):
    assert cp["pci_passthroughs"] == [{"vendor_id": 0x10de, "device_id": 0x26b9}] * 2, cp
    assert cp["vmx_options"]["pciPassthru.64bitMMIOSizeGB"] == "256", cp
t = yaml.safe_load(open(d + "/tile-vm-type.yml"))
assert t["PCI Passthrough Device ID"] == "0x26B9" and t["size for 64bit MMIO"] == "256", t
assert "for 2 GPUs" in t["note"], t
PY
}
run "$GPUWIZ" apply --answers "$TMP/ext/a.ini"
check "outputs: apply exits 0" [ $rc -eq 0 ]
check "outputs: bosh, opsman and tile list both L40S, MMIO 256" ext_check "$TMP/ext/out"
check "outputs: the .vmx gets only the missing one (pciPassthru1 at 0000:5e:00.0)" \
	sh -c "[ \$(grep -c '^pciPassthru[0-9]*.present' '$TMP/ext/vm.vmx') -eq 2 ] && grep -q '^pciPassthru1.id = \"00000:094:00.0\"' '$TMP/ext/vm.vmx'"
cp "$TMP/ext/vm.vmx" "$TMP/ext/first"
rm -rf "$TMP/ext/out"
run "$GPUWIZ" apply --answers "$TMP/ext/a.ini"
check "outputs: replayed, the .vmx unchanged" sh -c "[ $rc -eq 0 ] && cmp -s '$TMP/ext/vm.vmx' '$TMP/ext/first'"
check "outputs: replayed, the outputs still list both" ext_check "$TMP/ext/out"
# vGPUs: two nvidia_l40s-24c in the VM, three asked for (its 32-bit guest
# is a FAIL of its own: forced, exit 1)
sample vmx/synthetic-vgpu-l40s-24c-x2-ubuntu32.vmx "$TMP/ext/g.vmx"
printf '[gpu]\ndevices = nvidia_l40s-24c=3\n[vm]\nvmx = g.vmx\n[options]\nforce = yes\n[output]\ndir = gout\nformats = bosh\n' >"$TMP/ext/g.ini"
run "$GPUWIZ" apply --answers "$TMP/ext/g.ini"
check "outputs: vGPUs: three in the extension, one added to the .vmx" sh -c "[ $rc -eq 1 ] && [ \$(grep -c '^    - \"nvidia_l40s-24c\"' '$TMP/ext/gout/bosh-vm-extension.yml') -eq 3 ] && [ \$(grep -ac '\\.vgpu = ' '$TMP/ext/g.vmx') -eq 3 ]"

# --- CPU hot-add: its own reason (virtual NUMA), not memory's --------------
# the Kali appliance has vcpu.hotadd = "TRUE" and no mem.hotadd
sample vmx/ws-kali-2024.1-prebuilt-appliance-crlf.vmx "$TMP/k.vmx"
run "$GPUWIZ" vmx "$TMP/k.vmx" --gpu l40s
check "vcpu.hotadd: its own reason and source" sh -c "grep -qF 'why: CPU hot-add turns virtual NUMA off: the guest sees a single NUMA node' '$out' && grep -qF 'source: VMware vSphere Resource Management, Virtual NUMA (CPU HotAdd turns it off; KB 2040375)' '$out'"
check "vcpu.hotadd: no memory reason" sh -c "! grep -qF 'memory added later is outside the full reservation' '$out' && ! grep -qF 'keeps hot-added memory' '$out'"
check "vcpu.hotadd: the INFO names it" has 'INFO  CPU hot-add is on (vcpu.hotadd = "TRUE"), which turns virtual NUMA off'
if [ $ZH = 1 ]; then
	zh "$GPUWIZ" vmx "$TMP/k.vmx" --gpu l40s
	check "zh: vcpu.hotadd reason in Chinese" has 'CPU 热添加会关闭虚拟 NUMA'
fi

finish
