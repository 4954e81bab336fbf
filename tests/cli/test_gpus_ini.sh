#!/bin/sh
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
check "30 boards have NVIDIA's vGPU types, 31 rows a vgpu_source" \
	sh -c "[ \$(grep -c '^vgpu_types' '$SRC/data/gpus.ini') -eq 30 ] &&
	       [ \$(grep -c '^vgpu_source' '$SRC/data/gpus.ini') -eq 31 ]"

# the columns the plan and the wizard read: every row has a class and sriov
n=$(grep -c '^\[' "$SRC/data/gpus.ini")
check "every row has a class ($n rows)" \
	[ "$(grep -cE '^class += (datacenter|workstation|geforce)$' "$SRC/data/gpus.ini")" -eq "$n" ]
check "every row has sriov yes or no" \
	[ "$(grep -cE '^sriov += (yes|no)$' "$SRC/data/gpus.ini")" -eq "$n" ]
finish
