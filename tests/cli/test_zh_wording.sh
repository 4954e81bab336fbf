#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The Chinese wording of the host checks (doc/design.md, section 11): a failed check reads 失败 (not 错误, which
# stays for real errors such as a syntax error), "关闭虚拟机电源后再开机"
# instead of "完全断电", "Shared Direct" as the vSphere Client shows it, and
# Chinese punctuation next to Chinese text.  Reads po/zh_CN.po only; the
# screens and the CLI are checked in test_i18n.sh and tests/e2e.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
PO=${GW_ZH_PO:-$SRC/po/zh_CN.po}
for t in msgcat perl; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done

# one line per entry: msgid TAB msgstr (escapes kept as in the file)
msgcat --no-wrap "$PO" 2>/dev/null | perl -ne '
	if (/^msgid "(.*)"$/) { $id = $1; next }
	if (/^msgstr "(.*)"$/ && $id ne "") { print "$id\t$1\n" }' >"$TMP/entries"
check "zh_CN.po read" [ -s "$TMP/entries" ]
cut -f2 "$TMP/entries" >"$TMP/strs"
str_of() { awk -F'\t' -v id="$1" '$1 == id { print $2 }' "$TMP/entries"; }
# none/some [grep options] TEXT: no msgstr / some msgstr matches
none() { ! grep -q "$@" "$TMP/strs"; }
some() { grep -q "$@" "$TMP/strs"; }
# str_has MSGID-PREFIX TEXT: the msgstr of that entry holds TEXT
str_has() {
	awk -F'\t' -v p="$1" 'index($1, p) == 1 { print $2 }' "$TMP/entries" |
		grep -qF -- "$2"
}
is_fail_label() { [ "$(str_of FAIL)" = 失败 ] || [ "$(str_of FAIL)" = 未通过 ]; }
no_status_word() { ! grep -P '\p{Han}' "$TMP/strs" | grep -qwE 'PASS|WARN|FAIL'; }
two_power_cycles() { [ "$(grep -cF '关闭虚拟机电源后再开机' "$TMP/strs")" -ge 2 ]; }
# every entry whose msgid names Shared Direct shows “Shared Direct”（...）
shared_direct_labelled() {
	! awk -F'\t' 'index($1, "Shared Direct") { print $2 }' "$TMP/entries" |
		grep -vqF '“Shared Direct”（'
}

# ---- a failed check is 失败 ----------------------------------------------
check "the FAIL label reads 失败 or 未通过" is_fail_label
# the texts that name the label: no “错误” (quoted), no 错误 %zu 项, no
# 有错误 for a plan's failures, no English FAIL/WARN left in Chinese text
check "no text calls the FAIL label “错误”" none -F '“错误”'
check "the result line counts 失败, not 错误" str_has 'Result: %zu PASS' '失败 %zu 项'
check "a plan with failures is not 有错误" none -F '有错误'
check "no English status word left in a Chinese text" no_status_word
check "real errors stay 错误 (syntax error)" some -F '语法错误'

# ---- power-cycle, turned off, Shared Direct -------------------------------
check "no msgstr says 完全断电" none -F '完全断电'
check "no msgstr says 断电再开机" none -F '断电再开机'
check "a power-cycle is 关闭虚拟机电源后再开机" two_power_cycles
check "vhv.enable turned off: 已将其关闭" str_has 'vhv.enable is TRUE' '已将其关闭'
# VMware's Chinese label is not confirmed from a public document: the
# English label, in Chinese quotes, with 供应商共享直通图形 as explanation
check "no unconfirmed 共享直通 label" none -F '共享直通）'
check "every Shared Direct text shows the client's label" shared_direct_labelled

# ---- punctuation -----------------------------------------------------------
# Quoted text is left alone: '...' and \"...\" hold commands, file names,
# values and log lines, which keep their ASCII.  Outside them, no ASCII
# , ; ( ) : ? ! touches a Chinese character, except these (none today):
allowed='
'
perl -CSD -ne '
	chomp; my ($id, $s) = split /\t/, $_, 2;
	$s =~ s/\x27[^\x27]*\x27/\x27\x27/g;   # '...'
	$s =~ s/\\"[^"\\]*\\"/""/g;            # \"...\"
	my $h = qr/\p{Han}/;
	print "$id\t$&\n" while $s =~ /$h[,;]|[,;]$h/g;
	print "$id\t$&\n" while $s =~ /$h ?\(|\( ?$h|$h ?\)|\)$h/g;
	print "$id\t$&\n" while $s =~ /$h ?:(?!\/\/)|:$h/g;
	print "$id\t$&\n" while $s =~ /$h[?!]/g;
' "$TMP/entries" >"$TMP/punct"
printf '%s' "$allowed" | grep -v '^$' >"$TMP/allowed" || :
grep -vxFf "$TMP/allowed" "$TMP/punct" >"$TMP/punct.bad" || :
check "no ASCII , ; ( ) : ? ! next to a Chinese character" [ ! -s "$TMP/punct.bad" ]
[ -s "$TMP/punct.bad" ] && head -n 10 "$TMP/punct.bad" | sed 's/^/   /'
check "no space between Chinese text and “ ”" none -P '\p{Han} “|” \p{Han}'

# ---- spacing around what is filled in, and one word for boot ---------------
# A Chinese character never touches a %-directive: the value may start or
# end with Latin letters or digits ("和4G", "6:0.0当作"), which take a space
# (or a Chinese punctuation mark) beside Chinese text.  Allowed: a value
# that starts with its own Chinese comma (", already in the VM").
allowed_pct='知%s'   # 显存未知%s
perl -CSD -ne '
	chomp; my ($id, $s) = split /\t/, $_, 2;
	my $h = qr/[\x{4E00}-\x{9FFF}]/;
	my $d = qr/%[0-9]*\$?[-0-9.]*l*[a-z]/;
	print "$&\n" while $s =~ /$h$d|$d$h/g;
' "$TMP/entries" | grep -vxF "$allowed_pct" >"$TMP/pct.bad" || :
check "no Chinese character touches a %-directive" [ ! -s "$TMP/pct.bad" ]
[ -s "$TMP/pct.bad" ] && head -n 10 "$TMP/pct.bad" | sed 's/^/   /'
# A host's label may end in a full-width bracket ("esxi-l40s（示例）"): the
# headings that name it put Chinese punctuation after it, not a space.
check "the host check's heading: the host, then ：" str_has 'Checks of the ESXi host %s:' '%s：'
check "the VM list's heading: the host, then ；" str_has 'VMs on %s (Enter goes on' '%s；'
check "the VM list's heading reads naturally (no 带着…那台)" none -F '带着标记的那台'
# A firmware boot is 引导 (as the vSphere Client's 引导选项), never 启动
# (which stays for starting a program or powering a VM on).
check "a firmware boot is 引导, not 启动" none -P 'BIOS (固件)?启动|EFI (固件)?启动|启动磁盘|无法启动）'

finish
