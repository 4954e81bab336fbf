#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of the language switch after a host was read (doc/design.md,
# section 9, "The language"), at 80x24, started in C.UTF-8 and switched to
# Chinese, and started in zh_CN.UTF-8 and switched to English, on the
# sample host esxi-l40s (one of its two L40S with passthrough off):
#  1. the host step read in the first language, the disabled GPU's enable
#     queued (e);
#  2. back on the welcome step the language switched, the host step again:
#     every check row is in the new language, none in the old, and the
#     queued enable is still marked, in the new language;
#  3. e again takes the enable back: the host's own row of that GPU, in
#     the new language;
#  4. a Chinese catalogue whose translations take other printf arguments
#     than their originals (catalog.c): started in C.UTF-8 the wizard
#     does not read it (no warning); Chinese chosen, it is read and
#     refused: the screen stays English and says why, in one line.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"

[ "$have_zh" = 1 ] || { echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"; exit 77; }

# rows LANG: the host step's check rows of esxi-l40s, as LANG says them
rows() {
	tr_ "$1" 'Checking for GPUs'; echo
	tr_ "$1" "Checking the host's system id"; echo
	printf "$(tr_ "$1" 'Checking the ESXi host %s')\n" \
		"$(printf "$(tr_ "$1" '%s (sample)')" esxi-l40s)"
	printf "$(tr_ "$1" 'Checking passthrough of %s (%s)')\n" \
		0000:3b:00.0 'AD102GL [L40S]'
}
queued() { printf "$(tr_ "$1" 'Passthrough of %s: will be enabled when you write')" 0000:5e:00.0; }
host_row() { printf "$(tr_ "$1" 'Checking passthrough of %s (%s)')" 0000:5e:00.0 'AD102GL [L40S]'; }

walk() { # LANG FROM TO: started in LANG (texts FROM), switched to TO
	lang=$1 from=$2 to=$3
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$lang" 80x24 --sample-host esxi-l40s
	check "$lang: welcome" wait_for "$(st WELCOME)"
	keys Enter
	check "$lang: host step" wait_for "$(st HOST)"
	check "$lang: the host's row of the disabled GPU" wait_for "$(host_row "$from")"
	keys e
	check "$lang: the enable queued, in $from" wait_for "$(queued "$from")"
	# back to the welcome step's main list, the language switched
	# the language row: Right chooses Chinese, Left English
	case $to in zh*) side=Right ;; *) side=Left ;; esac
	keys Escape Escape "$side"
	check "$lang: switched to $to" wait_for "$(tr_ "$to" 'What are you doing?')"
	keys End Enter Enter
	check "$lang: host step again" wait_for "$(st HOST)"
	rows "$to" | { while IFS= read -r r; do
		on_screen "$r" || { echo "   missing row in $to: $r"; exit 1; }
	done; exit 0; }
	check "$lang: every check row in $to" [ $? = 0 ]
	rows "$from" | { while IFS= read -r r; do
		on_screen "$r" && { echo "   row still in $from: $r"; exit 1; }
	done; exit 0; }
	check "$lang: no check row left in $from" [ $? = 0 ]
	check "$lang: the queued enable still marked, in $to" on_screen "$(queued "$to")"
	check "$lang: not in $from" sh -c "! grep -qF '$(queued "$from")' '$SCREEN'"
	# the focus to the queued row (its text shows under the rows), then
	# the enable taken back
	detail=$(tr_ "$to" 'Queued: gpuwiz enables passthrough of this GPU after you confirm the write (the review lists the command); the GPU can be chosen for the VM now. e again takes it back.' |
		LC_ALL=C.UTF-8 sed -E 's/^(.{12}).*/\1/')
	keys Home
	i=0
	while [ $i -lt 8 ] && ! on_screen "$detail"; do
		keys Down; i=$((i + 1))
	done
	check "$lang: the queued row focused, its text in $to" on_screen "$detail"
	keys e
	check "$lang: taken back: the host's row, in $to" wait_for "$(host_row "$to")"
	keys q
}

walk C.UTF-8 C zh_CN.UTF-8
walk zh_CN.UTF-8 zh_CN.UTF-8 C

# ---- 4. a catalogue refused when its language is chosen ---------------------
if command -v msgfmt >/dev/null 2>&1; then
	mkdir -p "$TMP/hloc/zh_CN/LC_MESSAGES"
	cat >"$TMP/hostile.po" <<'PO'
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

msgid "What are you doing?"
msgstr "你在做什么？"

msgid "unknown GPU '%s' (not an id, PCI id, vGPU profile or model name in %s)"
msgstr "未知的 GPU '%n%n%s'（%s）"
PO
	msgfmt -o "$TMP/hloc/zh_CN/LC_MESSAGES/gpuwiz.mo" "$TMP/hostile.po"
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	GPUWIZ_LOCALEDIR="$TMP/hloc" start C.UTF-8 80x24
	check "hostile catalogue, C.UTF-8: welcome, in English" wait_for "What are you doing?"
	check "... no warning at start" sh -c "! grep -q 'ignoring' '$SCREEN'"
	keys Right
	check "... Chinese chosen: the catalogue refused, said on the screen" \
		wait_for "ignoring the message catalogue"
	check "... the screen still English" on_screen "What are you doing?"
	check "... nothing in Chinese" sh -c "! grep -qF '你在做什么' '$SCREEN'"
	keys q; wait_for "y/n" 3 >/dev/null && keys y
	check "... quits" exited 20
else
	echo "# msgfmt missing: no hostile catalogue"
fi
finish
