#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# data/gpus.ini is generated from the fact sheet in the tree: a copy of
# data/gen-gpus-ini.py, data/gpu_facts.csv and the vGPU tables
# (vgpu_types.csv, vgpu_mmio.csv) alone, in a folder with
# nothing beside it, regenerates the committed data/gpus.ini byte for byte
# (data/README.md).  A changed fact changes the table, so the comparison
# can fail.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}

if ! command -v python3 >/dev/null 2>&1; then
	echo "ok - skipped: no python3"
	finish
fi

mkdir -p "$TMP/co/data"
cp "$SRC/data/gen-gpus-ini.py" "$SRC/data/gpu_facts.csv" \
	"$SRC/data/vgpu_types.csv" "$SRC/data/vgpu_mmio.csv" "$TMP/co/data/"
check "the generator runs on a copy of data/ alone" \
	sh -c "cd '$TMP/co' && python3 data/gen-gpus-ini.py >'$TMP/out' 2>&1"
check "it regenerates the committed data/gpus.ini byte for byte" \
	cmp "$TMP/co/data/gpus.ini" "$SRC/data/gpus.ini"
check "--check says the committed table is current" \
	sh -c "cd '$SRC' && python3 data/gen-gpus-ini.py --check -o '$TMP/co/data/gpus.ini'"
check "the table names its fact sheet in the tree" \
	grep -q '^# data/gpu_facts.csv ([0-9]* rows, sha256 ' "$SRC/data/gpus.ini"

# a changed fact: the L40S's VRAM 48 -> 47 gives another table
sed 's/^10de,26b9,AD102GL \[L40S\],48,/10de,26b9,AD102GL [L40S],47,/' \
	"$SRC/data/gpu_facts.csv" >"$TMP/co/data/gpu_facts.csv"
check "a changed fact gives another table" \
	sh -c "! cmp -s '$TMP/co/data/gpu_facts.csv' '$SRC/data/gpu_facts.csv' &&
	       cd '$TMP/co' && python3 data/gen-gpus-ini.py >/dev/null &&
	       ! cmp -s data/gpus.ini '$SRC/data/gpus.ini' &&
	       grep -q '^vram_gb *= 47' data/gpus.ini"
check "--check then fails on the committed table" \
	sh -c "cd '$TMP/co' && ! python3 data/gen-gpus-ini.py --check -o '$SRC/data/gpus.ini' 2>/dev/null"

# the vGPU tables: a changed figure gives another table, a board that no
# row has is refused
cp "$SRC/data/gpu_facts.csv" "$TMP/co/data/gpu_facts.csv"
sed 's/^v100-16g-pcie,64,/v100-16g-pcie,32,/' "$SRC/data/vgpu_mmio.csv" \
	>"$TMP/co/data/vgpu_mmio.csv"
check "a changed NVIDIA MMIO figure gives another table" \
	sh -c "cd '$TMP/co' && python3 data/gen-gpus-ini.py >/dev/null &&
	       sed -n '/^\[v100-16g-pcie\]/,/^\$/p' data/gpus.ini | grep -q '^vgpu_mmio_gb = 32\$'"
cp "$SRC/data/vgpu_mmio.csv" "$TMP/co/data/vgpu_mmio.csv"
{ cat "$SRC/data/vgpu_types.csv"; echo 'zz9,c,time-sliced,4 8,"synthetic"'; } \
	>"$TMP/co/data/vgpu_types.csv"
check "a vGPU board that no row has is refused" \
	sh -c "cd '$TMP/co' && ! python3 data/gen-gpus-ini.py 2>'$TMP/gen.err' &&
	       grep -q 'zz9' '$TMP/gen.err'"
cp "$SRC/data/vgpu_types.csv" "$TMP/co/data/vgpu_types.csv"
check "32 boards have NVIDIA's vGPU types, 32 rows a vgpu_source" \
	sh -c "[ \$(grep -c '^vgpu_types' '$SRC/data/gpus.ini') -eq 32 ] &&
	       [ \$(grep -c '^vgpu_source' '$SRC/data/gpus.ini') -eq 32 ]"

# today's cards (data/gpu_facts.notes.md, "Today's cards"): found by PCI
# id, sized from their rows; unknown memory is asked for, never guessed
mmio_json() { # PCI-or-id spec, python assertion on d
	run "$GPUWIZ" mmio --json --gpu "$1"
	[ "$rc" -eq 0 ] && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert $2, d" "$out"
}
check "H20 (10de:2329): 96 GB, BAR1 128 GiB (nvtrust lspci) -> 256 GB" \
	mmio_json 10de:2329 "d['gpus'][0]['id']=='h20' and d['gpus'][0]['vram_gb']==96 and d['bar_gb']==256 and d['mmio_size_gb']==256 and any('BAR1 128 GiB' in s for s in d['steps'])"
check "2 x RTX PRO 6000 Blackwell Max-Q (10de:2bb4): 192 GB, BARs 2 x 128 GiB -> 512 GB" \
	mmio_json 10de:2bb4=2 "d['gpus'][0]['id']=='rtx-pro-6000-bw-maxq' and d['total_vram_gb']==192 and d['rule_gb']==512 and d['bar_gb']==512 and d['mmio_size_gb']==512"
check "RTX 5080 (10de:2c02): 16 GB, no BAR1 known -> the rule's 32 GB" \
	mmio_json 10de:2c02 "d['gpus'][0]['id']=='rtx-5080' and d['total_vram_gb']==16 and d['bar_gb'] is None and d['mmio_size_gb']==32"
check "GB200 (10de:2941): 186 GB (NVIDIA MIG guide) -> 512 GB" \
	mmio_json 10de:2941 "d['gpus'][0]['id']=='gb200' and d['total_vram_gb']==186 and d['mmio_size_gb']==512"
check "RTX 4070 SUPER (10de:2783): 12 GB -> 32 GB" \
	mmio_json 10de:2783 "d['gpus'][0]['id']=='rtx-4070-super' and d['total_vram_gb']==12 and d['mmio_size_gb']==32"
check "A100 SXM4 80GB: BAR1 128 GiB (nvidia-smi -q captures) -> 256 GB" \
	mmio_json a100-80g-sxm4 "d['bar_gb']==256 and d['mmio_size_gb']==256 and any('BAR1 128 GiB' in s for s in d['steps'])"
# gpus on an esxcli capture: the L40S block of the synthetic fixture with
# the ids of an RTX PRO 6000 Blackwell Server Edition (2bb5, subsystem
# 10de:204e as the NVIDIA driver README lists it): named from the table,
# 96 GB, a 256 GB window
sed 's/0x26b9/0x2bb5/; s/0x1851/0x204e/; s/Device Name: AD102GL \[L40S\]/Device Name: GB202GL [RTX PRO 6000 Blackwell Server Edition]/' \
	"$FIX/esxcli/synthetic-hardware-pci-list-l40s-crlf-no-final-newline.txt" >"$TMP/pro6000.txt"
run "$GPUWIZ" gpus --esxcli-file "$TMP/pro6000.txt"
check "gpus: 10de:2bb5 is the RTX PRO 6000 Blackwell Server Edition, 96 GB -> 256 GB" \
	sh -c "[ $rc -eq 0 ] && grep -q '10de:2bb5  GB202GL \[RTX PRO 6000 Blackwell Server Edition\]  96 GB' '$out' &&
	       grep -q 'in one VM: 256 GB' '$out'"
run "$GPUWIZ" mmio --gpu 10de:2d04
check "RTX 5060 Ti (8 or 16 GB on one id): memory asked for, exit 2" \
	sh -c "[ $rc -eq 2 ] && grep -q 'GB206 \[GeForce RTX 5060 Ti\]' '$err' && grep -q -- '--vram' '$err'"
run "$GPUWIZ" mmio --gpu "RTX 4080"
check "'RTX 4080' is the 4080, not a 4080 SUPER" \
	sh -c "[ $rc -eq 0 ] && grep -q 'rtx-4080 (AD103 \[GeForce RTX 4080\])' '$out'"
run "$GPUWIZ" mmio --gpu "RTX 408"
check "'RTX 408' names the 4080 and both 4080 SUPER ids: ambiguous" \
	sh -c "[ $rc -ne 0 ] && grep -q 'rtx-4080, rtx-4080-super, rtx-4080-super-2703' '$err'"

# the columns the plan and the wizard read: every row has a class and sriov
n=$(grep -c '^\[' "$SRC/data/gpus.ini")
check "every row has a class ($n rows)" \
	[ "$(grep -cE '^class += (datacenter|workstation|geforce)$' "$SRC/data/gpus.ini")" -eq "$n" ]
check "every row has sriov yes or no" \
	[ "$(grep -cE '^sriov += (yes|no)$' "$SRC/data/gpus.ini")" -eq "$n" ]
finish
