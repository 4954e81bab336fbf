#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vmx_shape.sh: editing .vmx files costs work in proportion to what
# is edited, counted in instructions (valgrind), never timed:
#   - one .vmx of 1, 2 and 8 times 200 extra entries (a real Workstation
#     file, guestinfo keys added): `vmx FILE --write` and `--write
#     --dry-run` are linear in the entries (the change's description asks
#     the document's index for each key, it does not scan the document
#     per key);
#   - a datastore of 10, 20 and 80 VM folders: `vmx DIR --write` is
#     linear in the files, and each file costs at most VMX_FILE_INSTR
#     instructions (from 10 to 80 files, per file): the file read and
#     parsed once, the plan made and applied once (the write saves the
#     document the plan was applied to, it does not apply it again), the
#     report's translations looked up once per run, the keys and values
#     kept in one block per document, the report's plain formats put
#     together without stdio: about 300 K.  A parse that allocates each
#     line's key again, or a report formatted by vsnprintf throughout,
#     costs 400 K to 500 K a file (and fails); a write that copies the
#     document and applies the plan again at each of its stages, about
#     1 M.
# The rule (tests/cli/lib.sh, linear): the cost per unit from 2x to 8x is
# at most 1.2 times the cost per unit from 1x to 2x.
. "$(dirname "$0")/lib.sh"
need_valgrind
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
VMX=$FIX/vmx/ws-archlinux-otherlinux5x-crlf.vmx

# padded K: $TMP/pad.vmx, the fixture and K * 200 guestinfo entries
padded() {
	python3 - "$VMX" "$TMP/pad.vmx" "$1" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
with open(sys.argv[2], "wb") as f:
    f.write(data)
    for i in range(int(sys.argv[3]) * 200):
        f.write(b'guestinfo.pad%d = "value %d"\r\n' % (i, i))
PY
}
for opts in "--write" "--write --dry-run"; do
	for k in 1 2 8; do
		padded $k
		# shellcheck disable=SC2086
		instr c$k "$GPUWIZ" vmx "$TMP/pad.vmx" --gpu l40s $opts
		changed=$(grep -c '^pciPassthru.use64bitMMIO = "TRUE"' "$TMP/pad.vmx")
		# a dry run leaves the file as it was
		[ "$opts" = --write ] || changed=$((1 - changed))
		check "vmx FILE $opts, ${k}x entries: exit 0, the file as expected" \
			[ "$instr_rc" -eq 0 -a "$changed" -eq 1 ]
		rm -f "$TMP"/pad.vmx*
	done
	linear "vmx FILE $opts over the entries" "$c1" "$c2" "$c8"
done

# datastore N: $TMP/ds of N folders, each with one copy of the fixture
# (written, not copied: the fixture is read-only in make distcheck, and
# gpuwiz leaves a file no one may write alone)
datastore() {
	rm -rf "$TMP/ds"
	i=0
	while [ $i -lt "$1" ]; do
		mkdir -p "$TMP/ds/vm$i" && cat "$VMX" >"$TMP/ds/vm$i/vm$i.vmx"
		i=$((i + 1))
	done
}
for k in 1 2 8; do
	datastore $((k * 10))
	instr d$k "$GPUWIZ" vmx "$TMP/ds" --gpu l40s --write
	n=$(cat "$TMP"/ds/*/*.vmx | grep -c '^pciPassthru.use64bitMMIO = "TRUE"')
	check "vmx DIR --write, $((k * 10)) files: exit 0, each changed" \
		[ "$instr_rc" -eq 0 -a "$n" -eq $((k * 10)) ]
done
rm -rf "$TMP/ds"
linear "vmx DIR --write over the files" "$d1" "$d2" "$d8"
VMX_FILE_INSTR=360000
check "vmx DIR --write: at most $VMX_FILE_INSTR instructions a file ($(( (d8 - d1) / 70 )) from 10 to 80 files)" \
	[ $(( (d8 - d1) / 70 )) -le $VMX_FILE_INSTR ]
finish
