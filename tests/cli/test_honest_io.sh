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
# ---- the stale-temporary sweep: only old temporaries of this user ----------
mkdir "$TMP/sw"
sample vmx/ws-freebsd-crlf.vmx "$TMP/sw/vm.vmx"
echo fresh >"$TMP/sw/vm.vmx.gpuwiz-Fresh1"    # a concurrent run's, unlocked yet
echo old >"$TMP/sw/vm.vmx.gpuwiz-Old123"      # a killed run's
touch -d '2 hours ago' "$TMP/sw/vm.vmx.gpuwiz-Old123"
if [ "$(id -u)" -eq 0 ]; then
	echo theirs >"$TMP/sw/vm.vmx.gpuwiz-Other1"
	chown 4321:4321 "$TMP/sw/vm.vmx.gpuwiz-Other1"
	touch -d '2 hours ago' "$TMP/sw/vm.vmx.gpuwiz-Other1"
fi
run "$GPUWIZ" vmx "$TMP/sw/vm.vmx" --gpu l40s --write
check "sweep: the write is done" sh -c '[ "$1" -eq 0 ] && grep -q 64bitMMIOSizeGB "$2"' _ "$rc" "$TMP/sw/vm.vmx"
check "sweep: a fresh temporary (a live run's) is left" [ -f "$TMP/sw/vm.vmx.gpuwiz-Fresh1" ]
check "sweep: an hour-old temporary of this user is removed" [ ! -e "$TMP/sw/vm.vmx.gpuwiz-Old123" ]
if [ "$(id -u)" -eq 0 ]; then
	check "sweep: another user's old temporary is left" [ -f "$TMP/sw/vm.vmx.gpuwiz-Other1" ]
fi

finish
