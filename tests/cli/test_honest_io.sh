#!/bin/sh
# test_honest_io.sh: what gpuwiz reads and shows, and what it says about
# its writes (doc/design.md, section 7): a FIFO or other special file is
# refused at once, never waited on; the stale-temporary sweep leaves a
# fresh or foreign temporary alone; an answers section named like a key
# is refused; bidirectional and control characters from outside are
# escaped; a write that succeeded is said to have even when standard
# output fails afterwards.
. "$(dirname "$0")/lib.sh"

VMX=$FIX/vmx/synthetic-govc-decimal-pci-ids.vmx

# ---- a FIFO as any input path: refused at once, naming it -------------------
mkfifo "$TMP/pipe"
fifo() { # name, args... (the FIFO is $TMP/pipe): exit 2 within 5 s, one line
	name=$1; shift
	run timeout 5 "$GPUWIZ" "$@"
	if [ "$rc" -eq 2 ] && err_one_line &&
	   errhas "$TMP/pipe: is a named pipe (FIFO), expected a regular file"; then
		ok "FIFO refused: $name"
	else
		nok "FIFO refused: $name" "rc=$rc: $(head -c 300 "$err")"
	fi
}
fifo ".vmx" vmx "$TMP/pipe" --gpu l40s
fifo "answers file" apply --answers "$TMP/pipe"
fifo "--lspci-file" gpus --lspci-file "$TMP/pipe"
fifo "--esxcli-file" gpus --esxcli-file "$TMP/pipe"
fifo "--nvidia-smi-q" verify --nvidia-smi-q "$TMP/pipe"
fifo "diagnose FILE" diagnose "$TMP/pipe"
fifo "diagnose --vmx" diagnose "$FIX/vmwarelog/$(ls "$FIX/vmwarelog" | head -1)" --vmx "$TMP/pipe"
fifo "--table" mmio --gpu l40s --table "$TMP/pipe"
GPUWIZ_TABLE=$TMP/pipe fifo "GPUWIZ_TABLE" mmio --gpu l40s
# a character device is named as such
run timeout 5 "$GPUWIZ" vmx /dev/null --gpu l40s
check "a character device refused, named" \
	sh -c '[ "$1" -eq 2 ] && grep -qF "/dev/null: is a character device, expected a regular file" "$2"' _ "$rc" "$err"
finish
