#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# What the wizard reads before its first screen (doc/design.md, section 9,
# "The first screen"), counted with strace, not timed, at 80x24 in
# C.UTF-8 and zh_CN.UTF-8:
#  1. on a host of 100 and of 1,000 PCI devices (tests/pci-sysroot.py: the
#     sysfs files and /proc/bus/pci/devices, no GPU among them): before
#     the first screen is written, the same files under the host's root
#     at both sizes (/proc/bus/pci/devices, no class file), no GPU table
#     and no sample host's host.ini; the GPU table is read after the first
#     screen, before the first key; the screen offers the sample hosts;
#     with an NVIDIA GPU among 1,000 devices: one more file, the GPU's
#     class, no other device's, and no samples offered; /proc/bus/pci/
#     devices read to its end at 1,000 devices, and at 1,500 (more than
#     the 1,024 functions the question looks at) only in part, the same
#     files opened, no samples offered (no GPU among the first 1,024
#     cannot tell there is none);
#  2. without /proc/bus/pci/devices (the sysfs walk): the same answers,
#     at most one class file per device and the vendor of the GPU;
#     neither libpci (opened on the first scan, not linked) nor, in
#     C.UTF-8, a message catalogue (none applies there; in zh_CN.UTF-8
#     the Chinese one is read);
#  3. a GPU table that cannot be parsed: the first screen, then the
#     table's one line naming the file, exit 2, the terminal restored;
#     a table that is not there: its line before any screen, exit 2.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null 2>&1 || { echo "SKIP: strace not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
strace -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here"; exit 77; }
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
table=$GPUWIZ_TABLE

# mkroot ROOT N [gpu]: N PCI devices under ROOT, the last an NVIDIA GPU
# with "gpu", else none of them a display
mkroot() { python3 "$SRC/tests/pci-sysroot.py" "$@"; }

# opens LOG ROOT TABLE: what the traced run opened before its first
# screen (the first write to the terminal holding the step counter
# "1/N"), and the table after it: "FILES CLASS OTHER TABLE HOSTINI
# TABLE_AFTER PCILIB MO DEVREAD": the files under ROOT, of them the
# class files, and the class files of a device not NVIDIA's; the GPU
# table's opens before and after the first screen, the sample hosts'
# host.ini; libpci and gpuwiz.mo opened before the first screen; the
# bytes read from ROOT/proc/bus/pci/devices before it
opens() {
	python3 - "$1" "$2" "$3" "$(st WELCOME)" <<'PY'
import os, re, sys
log, root, table, marker = sys.argv[1:5]
lines = open(log, errors="replace").read().splitlines()
cut = next((i for i, l in enumerate(lines)
            if re.search(r"\bwrite\(1,", l) and marker in l), None)
if cut is None:
    print("no-frame 0 0 0 0 0 0 0 0"); sys.exit()
def opened(l):
    m = re.search(r'open(?:at)?\((?:AT_FDCWD, )?"([^"]*)"', l)
    return m.group(1) if m and not l.rstrip().endswith("ENOENT (No such file or directory)") else None
def vendor(cls):
    try:
        return open(os.path.join(os.path.dirname(cls), "vendor")).read().strip()
    except OSError:
        return "?"
files = cls = other = tab = ini = after = pcilib = mo = devread = 0
devfd = None
for i, l in enumerate(lines):
    m = re.search(r"\bread\((\d+),.*= (\d+)$", l)
    if m and i < cut and m.group(1) == devfd:
        devread += int(m.group(2))
    p = opened(l)
    if p is None:
        continue
    m = re.search(r"= (\d+)$", l)
    devfd = m.group(1) if m and p == root + "/proc/bus/pci/devices" else \
        (None if m and m.group(1) == devfd else devfd)
    if i >= cut:
        after += p == table
        continue
    if p.startswith(root + "/"):
        files += 1
        if p.endswith("/class"):
            cls += 1
            other += vendor(p) != "0x10de"
    tab += p == table
    ini += p.endswith("/host.ini")
    pcilib += "/libpci.so" in p
    mo += p.endswith("/gpuwiz.mo")
print(files, cls, other, tab, ini, after, pcilib, mo, devread)
PY
}

# not_joined TEXT: the screen does not show TEXT (spaces and frames left
# out)
not_joined() { ! on_joined "$1"; }

# traced NAME LANG ROOT: a run on the host ROOT traced up to its first
# screen, then quit; sets files, cls, other, tab, ini and after (opens)
# and nogpu: 1 when the screen said there is no GPU here
traced() {
	export GPUWIZ_SYSROOT="$3"
	rm -f "$TMP/strace.log"
	GW_WRAP="strace -f -s 65536 -e trace=open,openat,read,write -o $TMP/strace.log"
	start "$2" 80x24
	GW_WRAP=
	check "$1: the welcome screen" wait_for "$(st WELCOME)" 20
	sleep 0.5
	nogpu=0
	on_joined "$(tr_ "$2" "$nogpu_text")" && nogpu=1
	keys q; wait_for "y/n" 3 >/dev/null && keys y
	check "$1: quits" exited 20
	set -- $(opens "$TMP/strace.log" "$3" "$table")
	files=$1 cls=$2 other=$3 tab=$4 ini=$5 after=${6:-0} pcilib=${7:-0} mo=${8:-0} devread=${9:-0}
	echo "# before the first screen: $files files under the root ($cls class files, $other not NVIDIA's), the table $tab times, host.ini $ini times, libpci $pcilib times, gpuwiz.mo $mo times, $devread bytes of /proc/bus/pci/devices; the table $after times after it"
}
nogpu_text="This machine has no GPU to configure. Practise on a sample host: gpuwiz builds it from real captures in a scratch directory and runs every step against it; nothing here is changed."

for n in 100 1000 1500; do
	mkroot "$TMP/root$n" "$n"
done
mkroot "$TMP/gpu1000" 1000 gpu
for lang in $langs; do
	# ---- 1. /proc/bus/pci/devices: the same files at any size ----------
	for n in 100 1000; do
		traced "$lang $n devices" "$lang" "$TMP/root$n"
		eval "files$n=\$files"
		check "$lang $n devices: no GPU here, the samples offered" [ "$nogpu" = 1 ]
		check "$lang $n devices: no class file before the first screen ($cls)" \
			[ "$cls" = 0 ]
		check "$lang $n devices: no GPU table before the first screen ($tab)" [ "$tab" = 0 ]
		check "$lang $n devices: no host.ini before the first screen ($ini)" [ "$ini" = 0 ]
		check "$lang $n devices: the table read after it, before the first key ($after)" \
			[ "$after" -ge 1 ]
		check "$lang $n devices: libpci not opened before the first screen ($pcilib)" \
			[ "$pcilib" = 0 ]
		case $lang in
		zh*) check "$lang $n devices: the Chinese catalogue read ($mo)" [ "$mo" -ge 1 ] ;;
		*) check "$lang $n devices: no catalogue read before the first screen ($mo)" [ "$mo" = 0 ] ;;
		esac
	done
	check "$lang: the same files at 100 and 1,000 devices ($files100, $files1000)" \
		sh -c "[ '$files100' != no-frame ] && [ '$files100' = '$files1000' ]"
	size=$(wc -c <"$TMP/root1000/proc/bus/pci/devices")
	check "$lang 1,000 devices: /proc/bus/pci/devices read to its end ($devread of $size bytes)" \
		[ "$devread" = "$size" ]
	traced "$lang 1,500 devices" "$lang" "$TMP/root1500"
	size=$(wc -c <"$TMP/root1500/proc/bus/pci/devices")
	check "$lang 1,500 devices: /proc/bus/pci/devices read in part ($devread of $size bytes)" \
		sh -c "[ '$devread' -gt 0 ] && [ '$devread' -lt '$size' ]"
	check "$lang 1,500 devices: the same files ($files)" [ "$files" = "$files100" ]
	check "$lang 1,500 devices: no GPU among the first 1,024 does not say none, no samples offered" \
		[ "$nogpu" = 0 ]
	traced "$lang 1,000 devices and a GPU" "$lang" "$TMP/gpu1000"
	check "$lang GPU host: no samples offered" [ "$nogpu" = 0 ]
	check "$lang GPU host: one class file more, the GPU's ($files, $cls, $other)" \
		sh -c "[ '$files' = $((files100 + 1)) ] && [ '$cls' = 1 ] && [ '$other' = 0 ]"

	# ---- 2. without /proc/bus/pci/devices: the sysfs walk --------------
	mv "$TMP/root100/proc/bus/pci/devices" "$TMP/root100.devices"
	mv "$TMP/gpu1000/proc/bus/pci/devices" "$TMP/gpu1000.devices"
	traced "$lang sysfs walk, 100 devices" "$lang" "$TMP/root100"
	check "$lang sysfs walk, 100 devices: no GPU here, the samples offered" [ "$nogpu" = 1 ]
	check "$lang sysfs walk, 100 devices: at most one class file per device ($cls)" \
		[ "$cls" -le 100 ]
	traced "$lang sysfs walk, a GPU among 1,000" "$lang" "$TMP/gpu1000"
	check "$lang sysfs walk, GPU host: no samples offered" [ "$nogpu" = 0 ]
	mv "$TMP/root100.devices" "$TMP/root100/proc/bus/pci/devices"
	mv "$TMP/gpu1000.devices" "$TMP/gpu1000/proc/bus/pci/devices"
done

# ---- 3. a table that cannot be read -------------------------------------
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
