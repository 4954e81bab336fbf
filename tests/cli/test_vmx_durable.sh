#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vmx_durable.sh: the durable steps of `gpuwiz vmx DIR --write`
# (doc/design.md, section 7, "Save"), counted with strace over N files in
# D directories at two sizes: each file's new data is written once, to
# one temporary, and fsynced before its rename; its backup is a hard link
# of the file itself (no copy: the backup keeps the old inode, and so
# its owner, group and mode), made before the rename; each directory is
# fsynced once, after the last rename into it: N + D fsyncs in all (from
# 16 directories on one file system, N fsyncs and one syncfs).  The
# new file keeps the old one's owner, group and mode.  A second run with
# nothing to change writes, links, renames and syncs nothing.  Skipped
# (77) without strace or ptrace.  Real Workstation .vmx files of
# tests/fixtures/vmx.  One folder of many files is read a fixed number
# of times, whatever the number of files in it.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null 2>&1 || { echo "SKIP: strace not installed"; exit 77; }
strace -qq -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here (ptrace refused)"; exit 77; }

# LeakSanitizer cannot run under ptrace (as in test_crash.sh)
TRACED_ASAN=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
CALLS=fsync,fdatasync,sync_file_range,syncfs,link,linkat,rename,renameat,renameat2,openat,copy_file_range,sendfile,ioctl
REAL=$(cd "$TMP" && pwd -P)
# an owner and group other than the test's where it may give them (root)
if [ "$(id -u)" -eq 0 ]; then OWNER=4321:4322; else OWNER=$(id -u):$(id -g); fi

traced() { # trace-file, gpuwiz arguments...
	t=$1
	shift
	ASAN_OPTIONS=$TRACED_ASAN strace -f -qq -y -o "$t" -e trace="$CALLS" \
		-e signal=none "$GPUWIZ" "$@" >"$TMP/out" 2>"$TMP/err"
}
n_of() { grep -cE "$1" "$2"; }

# datastore SIZE DIRS FILES: DIRS VM folders of FILES .vmx each, and one
# .vmx at the top (the top folder is a directory written too)
datastore() {
	ds=$REAL/ds$1
	mkdir -p "$ds"
	d=0
	while [ $d -lt "$2" ]; do
		f=0
		while [ $f -lt "$3" ]; do
			mkdir -p "$ds/vm$d"
			cp "$FIX/vmx/ws-archlinux-otherlinux5x-crlf.vmx" "$ds/vm$d/f$f.vmx"
			f=$((f + 1))
		done
		d=$((d + 1))
	done
	cp "$FIX/vmx/ws-hw16-win10-efi-windows1252-crlf.vmx" "$ds/top.vmx"
	for v in "$ds"/*.vmx "$ds"/*/*.vmx; do
		chmod 0640 "$v" && chown "$OWNER" "$v" && cp -p "$v" "$v.orig" &&
			stat -c %i "$v" >"$v.ino"
	done
}

size() { # SIZE DIRS FILES
	datastore "$1" "$2" "$3"
	n=$(($2 * $3 + 1)) dirs=$(($2 + 1))
	tr=$TMP/trace$1
	traced "$tr" vmx "$ds" --gpu l40s --write
	check "$n files in $dirs directories: exit 0" [ $? -eq 0 ]
	fs=$(n_of '^[0-9]+ +(fsync|fdatasync|sync_file_range)\(' "$tr")
	sfs=$(n_of '^[0-9]+ +syncfs\(' "$tr")
	if [ "$dirs" -lt 16 ] && [ "$fs" -eq $((n + dirs)) ] && [ "$sfs" -eq 0 ]; then
		ok "$n files in $dirs directories: $fs fsyncs (N + D)"
	elif [ "$dirs" -ge 16 ] && [ "$fs" -eq "$n" ] && [ "$sfs" -eq 1 ]; then
		ok "$n files in $dirs directories of one file system: $fs fsyncs and one syncfs (N + 1)"
	else nok "$n files in $dirs directories: N + D fsyncs below 16 directories, else N and one syncfs" "counted $fs fsyncs, $sfs syncfs"; fi
	# the files' syncs: one per temporary; the rest are the directories
	fsf=$(n_of '^[0-9]+ +fsync\([0-9]+<[^>]*\.vmx\.gpuwiz-[A-Za-z0-9]{6}>\)' "$tr")
	check "$n files: one fsync per new file ($fsf), on its temporary" [ "$fsf" -eq "$n" ]
	cr=$(n_of 'O_CREAT' "$tr")
	if [ "$cr" -eq "$n" ]; then
		ok "$n files: one file created per .vmx (its temporary; no backup copy)"
	else nok "$n files: one file created per .vmx" "created $cr"; fi
	cp_=$(n_of '^[0-9]+ +(copy_file_range|sendfile|ioctl\([^,]*, FICLONE)' "$tr")
	ln=$(n_of '^[0-9]+ +link(at)?\("[^"]*\.vmx", "[^"]*\.vmx\.[0-9]{8}-[0-9]{6}\.bak"' "$tr")
	rn=$(n_of '^[0-9]+ +rename(at2?)?\(' "$tr")
	if [ "$ln" -eq "$n" ] && [ "$rn" -eq "$n" ] && [ "$cp_" -eq 0 ]; then
		ok "$n files: a link of each .vmx to its backup, one rename each, no copy"
	else nok "$n files: links, renames" "links $ln, renames $rn, copies $cp_"; fi
	# each directory fsynced once, after the last rename into it; from 16
	# directories on one file system, one syncfs of it after the last
	# rename and no directory's fsync
	if [ "$dirs" -ge 16 ]; then
		if awk '
			/^[0-9]+ +rename/ { last = NR }
			/^[0-9]+ +syncfs\(/ { s = NR }
			/^[0-9]+ +fsync\([0-9]+</ && !/\.gpuwiz-/ { print "a directory fsynced: " $0; bad = 1 }
			END { if (s < last) { print "syncfs before the last rename"; bad = 1 } exit bad }' \
			"$tr" >"$TMP/why"; then
			ok "$n files: one syncfs of the file system, after the last rename"
		else nok "$n files: the file system's sync" "$(cat "$TMP/why")"; fi
	elif awk -v want="$dirs" '
		/^[0-9]+ +rename/ {
			s = $0; sub(/^[^"]*"[^"]*", "/, "", s); sub(/".*/, "", s)
			sub(/\/[^\/]*$/, "", s); last[s] = NR
		}
		/^[0-9]+ +fsync\([0-9]+</ && !/\.gpuwiz-/ {
			s = $0; sub(/^[^<]*</, "", s); sub(/>.*/, "", s)
			if (s in synced) { print "twice: " s; bad = 1 }
			synced[s] = NR
		}
		END {
			for (d in last) {
				n++
				if (!(d in synced)) { print "never synced: " d; bad = 1 }
				else if (synced[d] < last[d]) { print "synced before its last rename: " d; bad = 1 }
			}
			for (d in synced) if (!(d in last)) { print "synced, nothing renamed there: " d; bad = 1 }
			if (n != want) { print n " directories renamed into, not " want; bad = 1 }
			exit bad
		}' "$tr" >"$TMP/why"; then
		ok "$n files: each of the $dirs directories fsynced once, after its last rename"
	else nok "$n files: directory syncs" "$(cat "$TMP/why")"; fi
	bad=
	for v in "$ds"/*.vmx "$ds"/*/*.vmx; do
		b=$(ls "$v".*.bak 2>/dev/null)
		[ "$(echo "$b" | grep -c .)" -eq 1 ] || { bad="$bad; $v: backups: $b"; continue; }
		[ "$(stat -c %i "$b")" = "$(cat "$v.ino")" ] || bad="$bad; $b is not the old inode"
		cmp -s "$b" "$v.orig" || bad="$bad; $b is not the old bytes"
		[ "$(stat -c '%u:%g %a %h' "$b")" = "$OWNER 640 1" ] || bad="$bad; $b: $(stat -c '%u:%g %a %h' "$b")"
		[ "$(stat -c '%u:%g %a' "$v")" = "$OWNER 640" ] || bad="$bad; $v: $(stat -c '%u:%g %a' "$v")"
		grep -q '^pciPassthru.64bitMMIOSizeGB' "$v" || bad="$bad; $v: not written"
		cp -p "$v" "$v.new"
	done
	if [ -z "$bad" ]; then
		ok "$n files: each backup is the old file's inode ($OWNER 0640), each new file keeps $OWNER 0640"
	else nok "$n files: backups and new files" "$bad"; fi
	check "$n files: no temporary left" sh -c "! find '$ds' -name '*.gpuwiz-*' | grep -q ."

	# the same again: nothing to change, nothing written
	traced "$tr.again" vmx "$ds" --gpu l40s --write
	r=$?
	w=$(n_of '^[0-9]+ +(fsync|fdatasync|syncfs|link|linkat|rename|renameat|renameat2)\(|O_CREAT' "$tr.again")
	bad=
	for v in "$ds"/*.vmx "$ds"/*/*.vmx; do
		cmp -s "$v" "$v.new" || bad="$bad; $v changed"
		[ "$(ls "$v".*.bak | wc -l)" -eq 1 ] || bad="$bad; $v: a second backup"
	done
	if [ "$r" -eq 0 ] && [ "$w" -eq 0 ] && [ -z "$bad" ] &&
		[ "$(grep -c 'Nothing to change' "$TMP/out")" -eq "$n" ]; then
		ok "$n files, again: nothing to change, no file created, linked, renamed or synced"
	else nok "$n files, again" "exit $r, $w writing calls$bad"; fi
}

size 1 2 2      # N = 5, D = 3
size 2 6 4      # N = 25, D = 7
size 7 20 1     # N = 21, D = 21: one syncfs

# one folder of many files (as a Workstation library can be): the folder
# is read a fixed number of times (listed, which also tells that no stale
# temporary is there, then synced), not once per file
flat() { # SIZE FILES
	datastore "$1" 0 0
	f=0
	while [ $f -lt "$2" ]; do
		cp "$FIX/vmx/ws-archlinux-otherlinux5x-crlf.vmx" "$ds/f$f.vmx"
		f=$((f + 1))
	done
	traced "$TMP/trace$1" vmx "$ds" --gpu l40s --write
	grep -cE "openat\([^,]*, \"$ds/?\", [^)]*O_DIRECTORY" "$TMP/trace$1"
}
r5=$(flat 4 5)
r40=$(flat 5 40)
check "one folder of 6 and of 41 files: read as often ($r5, $r40), twice (listed, synced)" \
	sh -c "[ '$r5' = '$r40' ] && [ '$r5' -le 2 ]"

# a killed run's temporary in one VM folder of a datastore: the listing
# sees it, so that folder is read once more and the temporary removed
datastore 6 2 1
printf half >"$ds/vm0/f0.vmx.gpuwiz-AbC123"
touch -d '2 hours ago' "$ds/vm0/f0.vmx.gpuwiz-AbC123"
traced "$TMP/trace6" vmx "$ds" --gpu l40s --write
ra=$(grep -cE "openat\([^,]*, \"$ds/vm0/?\", [^)]*O_DIRECTORY" "$TMP/trace6")
rb=$(grep -cE "openat\([^,]*, \"$ds/vm1/?\", [^)]*O_DIRECTORY" "$TMP/trace6")
check "a stale temporary in a folder of a datastore: removed, that folder read once more ($ra, the other $rb)" \
	sh -c "[ ! -e '$ds/vm0/f0.vmx.gpuwiz-AbC123' ] && [ '$ra' -eq \$(( $rb + 1 )) ]"

# one file alone: its new data and its directory, two fsyncs
datastore 3 1 1
traced "$TMP/trace3" vmx "$ds/vm0/f0.vmx" --gpu l40s --write
fs=$(n_of '^[0-9]+ +(fsync|fdatasync|sync_file_range)\(' "$TMP/trace3")
ln=$(n_of '^[0-9]+ +link(at)?\(' "$TMP/trace3")
check "vmx FILE --write: 2 fsyncs (the new file, its directory; counted $fs), 1 link ($ln)" \
	sh -c "[ $fs -eq 2 ] && [ $ln -eq 1 ] && [ \"\$(stat -c %i '$ds'/vm0/f0.vmx.*.bak)\" = \"\$(cat '$ds/vm0/f0.vmx.ino')\" ]"
finish
