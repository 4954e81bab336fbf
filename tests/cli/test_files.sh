#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_files.sh: what gpuwiz writes is never lost or half-written and every
# failed write is said (doc/design.md, section 7): a symlinked .vmx is patched
# through its link, stale temporaries of an earlier, killed run are removed
# (only those: never a file gpuwiz did not create), and a full or
# unwritable stdout or output file is one error line and a non-zero exit.
. "$(dirname "$0")/lib.sh"

# --- a .vmx that is a symlink: written through the link, link kept ----------
mkdir -p "$TMP/lib/vms/real" "$TMP/lib/class"
sample vmx/ws-freebsd-crlf.vmx "$TMP/lib/vms/real/vm.vmx"
cp "$TMP/lib/vms/real/vm.vmx" "$TMP/lib/orig.vmx"
ln -s ../vms/real/vm.vmx "$TMP/lib/class/vm.vmx"
ln -s vm.vmx "$TMP/lib/class/again.vmx"   # a link to a link
run "$GPUWIZ" vmx "$TMP/lib/class/again.vmx" --gpu l40s --write
check "symlinked .vmx: exit 0" [ "$rc" -eq 0 ]
check "symlinked .vmx: both links are still links" sh -c \
	"[ -L '$TMP/lib/class/vm.vmx' ] && [ -L '$TMP/lib/class/again.vmx' ] && [ \"\$(readlink '$TMP/lib/class/vm.vmx')\" = ../vms/real/vm.vmx ]"
check "symlinked .vmx: the target is patched" grep -q 'pciPassthru.64bitMMIOSizeGB = "128"' "$TMP/lib/vms/real/vm.vmx"
bak=$(ls "$TMP"/lib/vms/real/vm.vmx.*.bak 2>/dev/null | head -n 1)
check "symlinked .vmx: the backup is beside the target, the old bytes" cmp -s "${bak:-/nonexistent}" "$TMP/lib/orig.vmx"
check "symlinked .vmx: nothing new beside the links" sh -c \
	"[ \"\$(ls '$TMP/lib/class' | tr '\n' ' ')\" = 'again.vmx vm.vmx ' ]"
check "symlinked .vmx: the output names the backup" has "$bak"
# a lock beside the link or beside the target: the VM is running
: >"$TMP/lib/class/vm.vmx.lck"
cp "$TMP/lib/orig.vmx" "$TMP/lib/vms/real/vm.vmx"
run "$GPUWIZ" vmx "$TMP/lib/class/vm.vmx" --gpu l40s --write
check "symlinked .vmx: a lock beside the link refuses the write" sh -c \
	"[ $rc -eq 2 ] && grep -q 'class/vm.vmx.lck' '$err' && cmp -s '$TMP/lib/orig.vmx' '$TMP/lib/vms/real/vm.vmx'"
rm -f "$TMP/lib/class/vm.vmx.lck"
: >"$TMP/lib/vms/real/vm.vmx.lck"
run "$GPUWIZ" vmx "$TMP/lib/class/vm.vmx" --gpu l40s --write
check "symlinked .vmx: a lock beside the target refuses the write" sh -c \
	"[ $rc -eq 2 ] && grep -q 'real/vm.vmx.lck' '$err' && cmp -s '$TMP/lib/orig.vmx' '$TMP/lib/vms/real/vm.vmx'"
rm -f "$TMP/lib/vms/real/vm.vmx.lck"
# a dangling link is refused, nothing created
ln -s ../vms/none/vm.vmx "$TMP/lib/class/dangling.vmx"
run "$GPUWIZ" vmx "$TMP/lib/class/dangling.vmx" --gpu l40s --write
check "dangling symlink: exit 2, one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"

# --- stale temporaries: only gpuwiz's own, only when their writer is gone ---
mkdir -p "$TMP/st"
sample vmx/ws-freebsd-crlf.vmx "$TMP/st/vm.vmx"
printf 'half' >"$TMP/st/vm.vmx.gpuwiz-AbC123"      # left by a killed run
printf 'half' >"$TMP/st/vm.vmx.gpuwiz-zz9ZZ9"
printf 'mine' >"$TMP/st/vm.vmx.gpuwiz-keep"        # not the pattern
printf 'mine' >"$TMP/st/vm.vmx.gpuwiz-AbC1234"     # not the pattern
printf 'mine' >"$TMP/st/other.vmx.gpuwiz-AbC123"   # another file's
printf 'busy' >"$TMP/st/vm.vmx.gpuwiz-Busy01"      # its writer still runs
ln -s other.vmx.gpuwiz-AbC123 "$TMP/st/vm.vmx.gpuwiz-Link01"
mkdir "$TMP/st/vm.vmx.gpuwiz-Dir001"
# a sweep takes only temporaries an hour old (a younger one may be a live
# run's, not locked yet): these are older, the locked one too
touch -d '2 hours ago' "$TMP/st"/*.gpuwiz-*
# the stand-in writer holds the lock gpuwiz's writers hold; the background
# flock ends when its fifo is closed
mkfifo "$TMP/st/hold"
flock "$TMP/st/vm.vmx.gpuwiz-Busy01" sh -c "echo locked; read x <'$TMP/st/hold'" >"$TMP/st/flock.out" &
hold=$!
at_exit "kill $hold 2>/dev/null"
i=0; while [ ! -s "$TMP/st/flock.out" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
run "$GPUWIZ" vmx "$TMP/st/vm.vmx" --gpu l40s --write
check "stale temporaries: the write succeeds" [ "$rc" -eq 0 ]
check "stale temporaries of a killed run are removed" sh -c \
	"[ ! -e '$TMP/st/vm.vmx.gpuwiz-AbC123' ] && [ ! -e '$TMP/st/vm.vmx.gpuwiz-zz9ZZ9' ]"
for f in vm.vmx.gpuwiz-keep vm.vmx.gpuwiz-AbC1234 other.vmx.gpuwiz-AbC123 \
	vm.vmx.gpuwiz-Busy01 vm.vmx.gpuwiz-Link01 vm.vmx.gpuwiz-Dir001; do
	check "stale temporaries: $f is kept" sh -c "[ -e '$TMP/st/$f' ] || [ -L '$TMP/st/$f' ]"
done
check "stale temporaries: the link's target is untouched" grep -qx mine "$TMP/st/other.vmx.gpuwiz-AbC123"
echo done >"$TMP/st/hold"
wait "$hold" 2>/dev/null
# vmx --write with nothing to change still clears its own stale temporary
printf 'half' >"$TMP/st/vm.vmx.gpuwiz-Busy01"
touch -d '2 hours ago' "$TMP/st/vm.vmx.gpuwiz-Busy01"
run "$GPUWIZ" vmx "$TMP/st/vm.vmx" --gpu l40s --write
check "nothing to change: the stale temporary is removed too" sh -c \
	"[ $rc -eq 0 ] && grep -q 'Nothing to change' '$out' && [ ! -e '$TMP/st/vm.vmx.gpuwiz-Busy01' ]"

# --- stdout: a failed write or flush is an error -----------------------------
# full NAME ARGS...: stdout is /dev/full; the one error is the last line on
# stderr (a snippet's notes go to stderr before it)
full() {
	name=$1; shift
	"$GPUWIZ" "$@" >/dev/full 2>"$TMP/full.err"
	frc=$?
	if [ "$frc" -eq 2 ] && [ "$(grep -c 'write error' "$TMP/full.err")" -eq 1 ] &&
		tail -n 1 "$TMP/full.err" | grep -q 'write error.*No space left'; then
		ok "stdout full: $name"
	else nok "stdout full: $name" "rc=$frc err=$(tail -n 3 "$TMP/full.err")"; fi
}
full "snippet" snippet --format vmx --gpu l40s
full "mmio --json" mmio --gpu l40s --json
full "--help" --help
full "--version" --version
full "gpus --json" gpus --esxcli-file "$FIX/esxcli/synthetic-hardware-pci-list-l40s-crlf-no-final-newline.txt" --json
"$GPUWIZ" vmx >/dev/full 2>"$TMP/full.err"
check "stdout full: a usage error is its own line only" sh -c "[ $? -eq 2 ] && [ \$(wc -l <'$TMP/full.err') -eq 1 ] && ! grep -q 'write error' '$TMP/full.err'"
sample vmx/ws-freebsd-crlf.vmx "$TMP/full.vmx"
cp "$TMP/full.vmx" "$TMP/full.orig"
# the .vmx written, the report not: said so, exit 3 (not 2: a change was made)
"$GPUWIZ" vmx "$TMP/full.vmx" --gpu l40s --write >/dev/full 2>"$TMP/full.err"
check "vmx --write to a full stdout: exit 3, one line: saved with its backup, no stdout" sh -c \
	"[ $? -eq 3 ] && [ \$(wc -l <'$TMP/full.err') -eq 1 ] &&
	 grep -q '^gpuwiz vmx: $TMP/full.vmx was saved (backup: $TMP/full.vmx.[0-9-]*.bak), but standard output could not be written: No space left on device\$' '$TMP/full.err'"
check "vmx --write to a full stdout: the .vmx was saved" grep -q 64bitMMIOSizeGB "$TMP/full.vmx"
LC_ALL=zh_CN.UTF-8 "$GPUWIZ" --lang zh_CN snippet --format vmx --gpu l40s >/dev/full 2>"$TMP/full.err"
check "stdout full: the message in Chinese too" sh -c "[ $? -eq 2 ] && tail -n 1 '$TMP/full.err' | grep -q '写入'"
# a closed stdout: the first write fails
"$GPUWIZ" snippet --format vmx --gpu l40s >&- 2>"$TMP/full.err"
check "stdout closed: an error" sh -c "[ $? -eq 2 ] && tail -n 1 '$TMP/full.err' | grep -q 'write error'"
"$GPUWIZ" mmio --gpu l40s --json >&- 2>"$TMP/full.err"
check "stdout closed: an error (json)" sh -c "[ $? -eq 2 ] && [ \$(wc -l <'$TMP/full.err') -eq 1 ]"

# --- files: a full or unwritable target is an error, nothing half-written -----
mkdir -p "$TMP/fs"
sample vmx/ws-freebsd-crlf.vmx "$TMP/fs/vm.vmx"
cp "$TMP/fs/vm.vmx" "$TMP/fs/orig.vmx"
printf '[gpu]\ndevices = l40s=2\n[vm]\nvmx = vm.vmx\n[output]\ndir = out\nformats = vmx,bosh,opsman,tile\n' >"$TMP/fs/a.ini"
# RLIMIT_FSIZE at 0 makes every write to a file fail with EFBIG (SIGXFSZ
# ignored); stderr and the exit status go through a pipe, which it spares
limited() { # out-file, args...
	o=$1; shift
	( trap '' XFSZ; ulimit -f 0; "$GPUWIZ" "$@" 2>&1 >/dev/null; echo "rc=$?" ) | cat >"$o"
}
# the GPU table is read under a file size limit below its size, SIGXFSZ
# at its default (reading the table writes no file)
( ulimit -f 8; "$GPUWIZ" mmio --gpu l40s 2>&1 >/dev/null; echo "rc=$?" ) | cat >"$TMP/fs.err"
check "files: the table read under a 8 KiB file size limit" sh -c \
	"[ \"\$(cat '$TMP/fs.err')\" = rc=0 ]"
limited "$TMP/fs.err" apply --answers "$TMP/fs/a.ini"
check "files: a failed write to the outputs is exit 2, one line" sh -c \
	"[ \"\$(tail -n 1 '$TMP/fs.err')\" = rc=2 ] && [ \$(wc -l <'$TMP/fs.err') -eq 2 ] && grep -q 'too large' '$TMP/fs.err'"
check "files: the .vmx is unchanged, no backup, no temporary" sh -c \
	"cmp -s '$TMP/fs/vm.vmx' '$TMP/fs/orig.vmx' && [ \"\$(ls '$TMP/fs' | tr '\n' ' ')\" = 'a.ini orig.vmx vm.vmx ' ]"
limited "$TMP/fs.err" vmx "$TMP/fs/vm.vmx" --gpu l40s --write
check "files: vmx --write on a full disk is exit 2, one line, nothing changed" sh -c \
	"[ \"\$(tail -n 1 '$TMP/fs.err')\" = rc=2 ] && [ \$(wc -l <'$TMP/fs.err') -eq 2 ] && cmp -s '$TMP/fs/vm.vmx' '$TMP/fs/orig.vmx' && ! ls '$TMP/fs' | grep -q 'bak\|gpuwiz-'"
# an output directory that is a file, and one that cannot be written
: >"$TMP/fs/out"
run "$GPUWIZ" apply --answers "$TMP/fs/a.ini"
check "files: an output dir that is a file is exit 2, nothing changed" sh -c \
	"[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && cmp -s '$TMP/fs/vm.vmx' '$TMP/fs/orig.vmx'"
rm -f "$TMP/fs/out"
finish
