#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_gputable_shape.sh: loading the GPU table grows linearly with its
# rows (doc/design.md, the GPU table): the instructions valgrind counts
# (cachegrind, the "I refs" total) for `gpuwiz mmio --gpu l40s` with the
# table and with a table of 8 times its rows (the rows copied with
# renamed ids, vendor ids and vGPU boards, so that the copy loads) grow
# at most 12 times, where a load that grows with the square of the rows
# grows about 30 to 40 times.  The work that does not depend on the
# table (start-up, the calculation) is in both counts.
. "$(dirname "$0")/lib.sh"

need_valgrind
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }

# copies TABLE N: TABLE's rows N times; copy k > 0 of [id] is [id-xk],
# its vendor id + k * 0x100, its vgpu_prefix with -xk
copies() {
	python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, *secs = re.split(r'(?m)^(?=\[)', text)
out = [head]
for k in range(int(sys.argv[2])):
    for s in secs:
        if k:
            s = re.sub(r'^\[([^]]+)\]', lambda m: '[%s-x%d]' % (m.group(1), k), s)
            s = re.sub(r'(?m)^(vendor_id\s*=\s*)0x([0-9a-fA-F]{1,4})',
                       lambda m: '%s0x%04x' % (m.group(1), int(m.group(2), 16) + 0x100 * k), s)
            s = re.sub(r'(?m)^(vgpu_prefix\s*=\s*)(\S+)', lambda m: '%s%s-x%d' % (m.group(1), m.group(2), k), s)
        out.append(s)
sys.stdout.write(''.join(out))
PY
}

# irefs VAR TABLE: VAR set to the instructions of mmio --gpu l40s with
# TABLE
irefs() {
	table_was=$GPUWIZ_TABLE
	GPUWIZ_TABLE=$2 instr "$1" "$GPUWIZ" mmio --gpu l40s
	GPUWIZ_TABLE=$table_was
	[ "$instr_rc" -eq 0 ] || cat "$TMP/instr.err"
}

copies "$GPUWIZ_TABLE" 1 >"$TMP/x1.ini"
copies "$GPUWIZ_TABLE" 8 >"$TMP/x8.ini"
n1=$(grep -c '^\[' "$TMP/x1.ini")
n8=$(grep -c '^\[' "$TMP/x8.ini")
check "the 8x table has 8 times the rows ($n1, $n8)" [ "$n8" -eq $((n1 * 8)) ]
check "the 8x table loads: its last copy is found" \
	sh -c "GPUWIZ_TABLE='$TMP/x8.ini' '$GPUWIZ' mmio --gpu l40s-x7 | grep -q 'l40s-x7 (AD102GL \[L40S\]), 48 GB'"
check "the 8x table lists its ids in the file's order" \
	sh -c "GPUWIZ_TABLE='$TMP/x8.ini' '$GPUWIZ' --complete mmio --gpu '' >'$TMP/ids' &&
	       sed -n 's/^\[\(.*\)\]\$/\1/p' '$TMP/x8.ini' | cmp -s - '$TMP/ids'"

irefs i1 "$TMP/x1.ini"
irefs i8 "$TMP/x8.ini"
echo "# I refs of mmio --gpu l40s: $n1 rows $i1, $n8 rows $i8"
check "instructions counted at both sizes" [ -n "$i1" -a -n "$i8" ]
if [ -n "$i1" ] && [ -n "$i8" ]; then
	ratio=$(awk -v a="$i1" -v b="$i8" 'BEGIN { printf "%.1f", b / a }')
	echo "# growth for 8x the rows: ${ratio}x"
	check "8x the rows cost at most 12x the instructions (${ratio}x)" \
		awk -v a="$i1" -v b="$i8" 'BEGIN { exit !(b <= 12 * a) }'
fi
finish
