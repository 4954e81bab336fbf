#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gpuwiz gpus --lspci-file on the lspci captures of tests/fixtures/lspci
# (real ones and synthetic ones, tests/fixtures/README.md): the GPUs, BARs
# and MMIO size in text and JSON, in English and Chinese; the capture
# without ids; the refusals.
. "$(dirname "$0")/lib.sh"

L=$FIX/lspci
R4060=$L/rtx4060ti-16gb-baremetal-rebar.txt
R6000=$L/rtx6000ada-baremetal-bar64g.txt
R3090=$L/rtx3090-arm-rk3568-bar-unassigned.txt
SYN=$L/synthetic-lspci-D-nnvvv-k-aspeed-2x-l40s-sriov-nic.txt
NOID=$L/synthetic-lspci-vvv-crlf-no-ids-matrox-a2-a16-device-2330.txt

# --- a real lspci -nn -vvv capture -------------------------------------------
run "$GPUWIZ" gpus --lspci-file "$R4060" --json
check "gpus --lspci-file --json exits 0" [ $rc -eq 0 ]
cp "$out" "$TMP/gpus-lspci.json"
check "lspci -nn: the RTX 4060 Ti 16GB by its ids, its BARs, MMIO 32" python3 -c "
import json
d=json.load(open('$out'))
assert d['file']=='$R4060', d['file']
g,=d['gpus']
assert (g['bdf'],g['vmx_id'],g['vendor_id'],g['device_id'])==('0000:04:00.0','00000:004:00.0','10de','2805'), g
assert (g['subvendor_id'],g['subdevice_id'],g['table_id'],g['vram_gb'])==('1043','891b','rtx-4060-ti-16g',16), g
assert [(b['index'],b['size_bytes'],b['is_64bit']) for b in g['bars']]==[(0,16<<20,False),(1,16<<30,True),(3,32<<20,True),(5,128,False)], g['bars']
assert (g['driver'],g['iommu_group'])==('nvidia','18'), g
assert d['mmio_size_gb']==32 and d['notes']==[], d
"
run "$GPUWIZ" gpus --lspci-file "$R4060"
check "gpus --lspci-file: the layout every back end prints (gpus_layout)" gpus_layout "$out" "$TMP/gpus-lspci.json"
check "gpus --lspci-file: the GPU's row and the MMIO line" sh -c "
grep -q '^  0000:04:00.0  00000:004:00.0  10de:2805  AD106 \[GeForce RTX 4060 Ti 16GB\]  16 GB  1:16G 3:32M  18 *nvidia' '$out' &&
grep -qx '64-bit MMIO for all of them in one VM: 32 GB (rule on the VRAM: 32 GB, BAR need: 32 GB)' '$out'"
run "$GPUWIZ" --lang zh_CN gpus --lspci-file "$R4060"
check "gpus --lspci-file in Chinese: the heading and the MMIO line translated" sh -c "
[ $rc -eq 0 ] && grep -q '^  0000:04:00.0  00000:004:00.0  10de:2805' '$out' &&
grep -q 'MMIO' '$out' && ! grep -q 'Display-class devices' '$out' && ! grep -q 'rule on the VRAM' '$out'"

# --- lspci -vvv without ids: the row by its name, said ----------------------
run "$GPUWIZ" gpus --lspci-file "$R6000"
check "lspci -vvv: the RTX 6000 Ada found by its name, 64G BAR1, MMIO 128" sh -c "
[ $rc -eq 0 ] && grep -q '^  0000:c1:00.0  00000:193:00.0  10de:26b1  AD102GL \[RTX 6000 Ada Generation\]  48 GB  1:64G 3:32M' '$out' &&
grep -qx '64-bit MMIO for all of them in one VM: 128 GB (rule on the VRAM: 128 GB, BAR need: 128 GB)' '$out' &&
grep -qx '  - 0000:c1:00.0: no PCI id in the capture; its name matches rtx-6000-ada (10de:26b1) in the GPU table' '$out'"
run "$GPUWIZ" --lang zh_CN gpus --lspci-file "$R6000"
check "lspci -vvv in Chinese: the note on the name" has '0000:c1:00.0：抓取的输出中没有 PCI ID；其名称与 GPU 表中的 rtx-6000-ada（10de:26b1）相符'
run "$GPUWIZ" gpus --lspci-file "$R3090" --json
check "lspci -vvvv, <unassigned> BARs: sized from the Resizable BAR, domain 0002" python3 -c "
import json
d=json.load(open('$out'))
g,=d['gpus']
assert g['bdf']=='0002:21:00.0' and g['table_id']=='rtx-3090', g
assert [(b['index'],b['size_bytes']) for b in g['bars'] if b['is_64bit']]==[(1,256<<20),(3,32<<20)], g['bars']
assert d['mmio_size_gb']==64, d
"
run "$GPUWIZ" gpus --lspci-file "$NOID" --json
check "no ids, a name two rows share: no id, no VRAM, sized from its BARs" python3 -c "
import json
d=json.load(open('$out'))
m,a,h=d['gpus']
assert (m['vendor_id'],m['device_id'],m['counted_in_mmio'])==('102b',None,False), m
assert (a['vendor_id'],a['device_id'],a['table_id'],a['vram_gb'])==('10de',None,None,None), a
assert (h['device_id'],h['table_id'],h['vram_gb'])==('2330','h100-sxm',80), h
assert d['mmio_size_gb']==256, d
assert d['notes'][1].endswith('capture lspci -nnvv for the ids'), d['notes']
"
run "$GPUWIZ" --lang zh_CN gpus --lspci-file "$NOID"
check "no ids in Chinese: the id cell '-' and the note asking for lspci -nnvv" sh -c "
grep -q '^  0000:3b:00.0  00000:059:00.0  -  ' '$out' &&
grep -q '请改用 lspci -nnvv 抓取以获得 ID' '$out'"

# --- -D -nnvvv -k: on-board display, NIC, SR-IOV, [disabled] -----------------
run "$GPUWIZ" gpus --lspci-file "$SYN" --json
check "two L40S (one [disabled] on vfio-pci), the ASPEED not counted: MMIO 256" python3 -c "
import json
d=json.load(open('$out'))
assert [g['bdf'] for g in d['gpus']]==['0000:02:00.0','0000:41:00.0','0000:c1:00.0'], d
assert [g['counted_in_mmio'] for g in d['gpus']]==[False,True,True]
for g in d['gpus'][1:]:
    assert g['table_id']=='l40s' and [b['size_bytes'] for b in g['bars']]==[16<<20,64<<30,32<<20], g
assert d['gpus'][2]['driver']=='vfio-pci'
assert d['mmio_size_gb']==256, d
"

# --- refusals: one line naming the file, exit 2, nothing on stdout -----------
bad() { name=$1; want=$2; shift 2; run "$GPUWIZ" "$@"
	if [ $rc -eq 2 ] && err_one_line && errhas "$want" && [ ! -s "$out" ]; then ok "bad input: $name"; else nok "bad input: $name" "rc=$rc err=$(cat "$err")"; fi; }
bad "missing file" "$TMP/nope.txt: cannot open" gpus --lspci-file "$TMP/nope.txt"
bad "lspci -vmm is no device line" "synthetic-lspci-vmm-machine-readable-not-accepted.txt: no lspci device line; expected the output of lspci -nnvv" gpus --lspci-file "$L/synthetic-lspci-vmm-machine-readable-not-accepted.txt"
bad "an esxcli listing is no lspci capture" "no lspci device line" gpus --lspci-file "$FIX/esxcli/synthetic-hardware-pci-list-l40s-crlf-no-final-newline.txt"
bad "a directory" "is a directory, expected a file" gpus --lspci-file "$L"
bad "in Chinese too" "没有 lspci 设备行" --lang zh_CN gpus --lspci-file "$L/synthetic-lspci-vmm-machine-readable-not-accepted.txt"
printf '41:00.0 3D controller: NVIDIA Corporation AD102GL [L40S]\n\0\n' >"$TMP/nul.txt"
bad "a NUL byte" "nul.txt: binary data (NUL byte); expected the text output of lspci -nnvv" gpus --lspci-file "$TMP/nul.txt"
bad "with --esxcli-file" "--lspci-file reads a saved lspci capture; it cannot be combined with --esxcli-file" gpus --lspci-file "$R4060" --esxcli-file "$R4060"
bad "with --sysroot" "cannot be combined" gpus --lspci-file "$R4060" --sysroot /
bad "not an option of check" "--lspci-file" check --lspci-file "$R4060"
bad "no file" "--lspci-file: no file given" gpus --lspci-file ""
# the usage names it
run "$GPUWIZ" --help
check "--help: gpus lists --lspci-file FILE" has '--lspci-file FILE'

finish
