#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What the wizard reads before its first screen (doc/design.md, section 9,
# "The first screen"), counted with strace, not timed, at 80x24 in
# C.UTF-8 and zh_CN.UTF-8:
#  1. on a host of 100 and of 1,000 PCI devices (a sysroot of sysfs files,
#     no GPU among them): before the first screen is written, at most one
#     file per device is opened (its class), no GPU table and no sample
#     host's host.ini; the GPU table is read after the first screen,
#     before the first key; the screen offers the sample hosts;
#  2. a GPU table that cannot be parsed: the first screen, then the
#     table's one line naming the file, exit 2, the terminal restored;
#     a table that is not there: its line before any screen, exit 2.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null 2>&1 || { echo "SKIP: strace not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
strace -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here"; exit 77; }
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
table=$GPUWIZ_TABLE

# mkroot ROOT N: N PCI devices under ROOT/sys, none of them a display
mkroot() { python3 "$SRC/tests/pci-sysroot.py" "$1" "$2"; }

# opens LOG ROOT TABLE: what the traced run opened before its first
# screen (the first write to the terminal holding the step counter
# "1/N"), and the table after it: "SYSFS TABLE HOSTINI TABLE_AFTER"
opens() {
	python3 - "$1" "$2" "$3" "$(st WELCOME)" <<'PY'
import re, sys
log, root, table, marker = sys.argv[1:5]
lines = open(log, errors="replace").read().splitlines()
cut = next((i for i, l in enumerate(lines)
            if re.search(r"\bwrite\(1,", l) and marker in l), None)
if cut is None:
    print("no-frame 0 0 0"); sys.exit()
def opened(l):
    m = re.search(r'open(?:at)?\((?:AT_FDCWD, )?"([^"]*)"', l)
    return m.group(1) if m and not l.rstrip().endswith("ENOENT (No such file or directory)") else None
sysfs = tab = ini = after = 0
for i, l in enumerate(lines):
    p = opened(l)
    if p is None:
        continue
    if i >= cut:
        after += p == table
        continue
    sysfs += p.startswith(root + "/sys/")
    tab += p == table
    ini += p.endswith("/host.ini")
print(sysfs, tab, ini, after)
PY
}

for n in 100 1000; do
	mkroot "$TMP/root$n" "$n"
done
for lang in $langs; do
	for n in 100 1000; do
		export GPUWIZ_SYSROOT="$TMP/root$n"
		rm -f "$TMP/strace.log"
		GW_WRAP="strace -f -s 65536 -e trace=open,openat,write -o $TMP/strace.log"
		start "$lang" 80x24
		GW_WRAP=
		check "$lang $n devices: the welcome screen" wait_for "$(st WELCOME)" 20
		check "$lang $n devices: no GPU here, the samples offered" \
			wait_joined "$(tr_ "$lang" "This machine has no GPU to configure. Practise on a sample host: gpuwiz builds it from real captures in a scratch directory and runs every step against it; nothing here is changed.")" 10
		keys q; wait_for "y/n" 3 >/dev/null && keys y
		check "$lang $n devices: quits" exited 20
		set -- $(opens "$TMP/strace.log" "$TMP/root$n" "$table")
		echo "# $lang, $n devices: before the first screen $1 sysfs files opened, the table $2 times, host.ini $3 times; the table $4 times after it"
		check "$lang $n devices: at most one sysfs file per device before the first screen ($1)" \
			sh -c "[ '$1' != no-frame ] && [ '$1' -le $((n + 1)) ]"
		check "$lang $n devices: no GPU table before the first screen ($2)" [ "$2" = 0 ]
		check "$lang $n devices: no host.ini before the first screen ($3)" [ "$3" = 0 ]
		check "$lang $n devices: the table read after it, before the first key ($4)" \
			[ "${4:-0}" -ge 1 ]
	done
done

# ---- 2. a table that cannot be read -------------------------------------
export GPUWIZ_SYSROOT="$TMP/no-such-root"
printf '[l40s\nname = broken\n' >"$TMP/bad.ini"
for lang in $langs; do
	GPUWIZ_TABLE="$TMP/bad.ini"; start "$lang" 80x24
	check "$lang bad table: exits" exited 20
	check "$lang bad table: exit 2" [ "${exit_status:-x}" = 2 ]
	screen
	check "$lang bad table: one line naming the file" \
		[ "$(grep -c "bad\.ini" "$SCREEN")" = 1 ]
	check "$lang bad table: the terminal restored" terminal_sane
	check "$lang bad table: the normal screen back" alt_screen_off
	check "$lang bad table: the cursor shown" cursor_shown
	GPUWIZ_TABLE="$TMP/none.ini"; start "$lang" 80x24
	check "$lang missing table: exits" exited 20
	check "$lang missing table: exit 2" [ "${exit_status:-x}" = 2 ]
	screen
	check "$lang missing table: its line, no screen before it" \
		sh -c "grep -q 'none\.ini' '$SCREEN' && ! grep -qF '$(st WELCOME)' '$SCREEN'"
	GPUWIZ_TABLE=$table
done
GPUWIZ_TABLE=$table
finish
