#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_crash.sh: crash consistency of `gpuwiz vmx --write` (doc/design.md, section 7).  The
# write is killed (SIGKILL, strace -e inject=SYSCALL:signal=KILL:when=K) on
# entering the K-th call of each syscall that creates, writes, syncs,
# renames, links, locks or removes a file, for every K from the first such
# call to the last.  After each kill the .vmx holds the old bytes or the new
# ones, every backup holds the old bytes (no empty or partial .bak), and
# nothing else is left but gpuwiz's own temporaries; the next run removes
# those and ends with the new bytes.  Skipped (77) without strace or
# ptrace.  All of it three times: for a .vmx, for a symlink to one
# (written through the link, which stays a link), and for `vmx DIR
# --write` over two VM folders, whose directory syncs wait for the end of
# the run (a kill between the renames and the syncs included).
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null 2>&1 || { echo "SKIP: strace not installed"; exit 77; }
strace -qq -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here (ptrace refused)"; exit 77; }

CALLS="openat open creat write pwrite64 fchmod fsync fdatasync rename renameat renameat2 link linkat unlink unlinkat flock close"
sample vmx/ws-freebsd-crlf.vmx "$TMP/old.vmx"
D=$TMP/c
# LeakSanitizer cannot run under ptrace: off for the traced runs of an
# ASan build (tests/run-all.sh)
TRACED_ASAN=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
MODE=file
fresh() {
	rm -rf "$D"; mkdir "$D"
	if [ "$MODE" = dir ]; then
		mkdir "$D/a" "$D/b"
		cp "$TMP/old.vmx" "$D/a/vm.vmx"; cp "$TMP/old.vmx" "$D/b/vm.vmx"
		V=$D FOLDERS="$D/a $D/b"
		return
	fi
	cp "$TMP/old.vmx" "$D/vm.vmx"
	if [ "$MODE" = link ]; then ln -s vm.vmx "$D/link.vmx"; V=$D/link.vmx; else V=$D/vm.vmx; fi
	FOLDERS=$D
}
gw() { "$GPUWIZ" vmx "$V" --gpu l40s --write; }

# state_ok: in each folder the .vmx is old or new, every backup is the old
# bytes, the rest are temporaries of gpuwiz's own pattern (the variable
# bad says what not)
state_ok() {
	bad=
	for F in $FOLDERS; do folder_ok "$F" "$1"; done
	[ -z "$bad" ]
}
folder_ok() {
	cmp -s "$1/vm.vmx" "$TMP/old.vmx" || cmp -s "$1/vm.vmx" "$TMP/new.vmx" ||
		bad="$bad; ${1##*/}/vm.vmx is neither the old nor the new bytes"
	for f in "$1"/* "$1"/.[!.]*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		b=${f##*/}
		case $b in
		vm.vmx) ;;
		link.vmx) [ "$MODE" = link ] && [ -L "$f" ] || bad="$bad; link.vmx is no link" ;;
		vm.vmx.*.bak|vm.vmx.*.bak.[0-9]*)
			cmp -s "$f" "$TMP/old.vmx" || bad="$bad; $b is a fake backup ($(wc -c <"$f") bytes)" ;;
		vm.vmx.gpuwiz-??????) [ "$2" = after ] && bad="$bad; stray temporary $b" ;;
		*) bad="$bad; unexpected $b" ;;
		esac
	done
}

trials=0 failed=0 summary=
calls=$(echo "$CALLS" | tr ' ' ',')
for MODE in file link dir; do
	# the new bytes, and the calls of a run that is not killed
	fresh
	ASAN_OPTIONS=$TRACED_ASAN strace -qq -o "$TMP/trace" -e trace="$calls" -e signal=none "$GPUWIZ" vmx "$V" --gpu l40s --write >/dev/null 2>&1
	F1=${FOLDERS%% *}
	check "$MODE: an unkilled run under strace writes the file" grep -q 64bitMMIOSizeGB "$F1/vm.vmx"
	cp "$F1/vm.vmx" "$TMP/new.vmx"
	# the first call that changes the directory: a kill before it
	# changes nothing
	start=$(grep -n 'O_CREAT\|^flock\|^rename\|^link\|^unlink' "$TMP/trace" | head -n 1 | cut -d: -f1)
	check "$MODE: the trace shows where the writing starts" [ -n "$start" ]
	start=${start:-1}
	for c in $CALLS; do
		total=$(grep -c "^$c(" "$TMP/trace")
		[ "$total" -gt 0 ] || continue
		before=$(head -n "$((start - 1))" "$TMP/trace" | grep -c "^$c(")
		k=$((before + 1)) n=0
		while [ "$k" -le "$total" ]; do
			fresh
			ASAN_OPTIONS=$TRACED_ASAN strace -qq -o /dev/null -e trace="$c" \
				-e inject="$c:signal=KILL:when=$k" \
				"$GPUWIZ" vmx "$V" --gpu l40s --write >/dev/null 2>&1
			src=$?
			trials=$((trials + 1)) n=$((n + 1))
			why=
			[ "$src" -eq 0 ] && why="not killed (exit 0)"
			state_ok killed || why="$why after the kill: $bad"
			# the sweep takes only temporaries an hour old (a
			# younger one may be a live run's): the kill's, aged
			for F in $FOLDERS; do
				for t in "$F"/vm.vmx.gpuwiz-??????; do
					[ -f "$t" ] && touch -d '2 hours ago' "$t"
				done
			done
			gw >/dev/null 2>"$TMP/next.err" || why="$why; the next run failed: $(cat "$TMP/next.err")"
			for F in $FOLDERS; do
				cmp -s "$F/vm.vmx" "$TMP/new.vmx" || why="$why; the next run did not write the new bytes in ${F##*/}"
			done
			state_ok after || why="$why; after the next run: $bad"
			if [ -n "$why" ]; then
				failed=$((failed + 1))
				nok "$MODE: killed at $c #$k" "$why"
			fi
			k=$((k + 1))
		done
		summary="$summary $MODE:$c=$n"
	done
done
echo "# crash trials: $trials ($summary )"
check "crash trials ran (at least 10)" [ "$trials" -ge 10 ]
check "every crash trial left the old or the new .vmx, real backups, no stray temporary" [ "$failed" -eq 0 ]
finish
