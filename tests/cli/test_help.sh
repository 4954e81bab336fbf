#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Each command's own help (src/cli/help.c, doc/design.md, section 8.1):
# gpuwiz CMD --help, gpuwiz CMD -h and gpuwiz help CMD print the same,
# the command's usage, its line and its options (test_options.sh checks
# that they are exactly the ones it takes); gpuwiz help, --help and -h the
# global help; gpuwiz help FOO is refused; -V is --version.  In English and
# Chinese, the option lines aligned and wrapped in terminal cells.
. "$(dirname "$0")/lib.sh"

# the commands, as the global help's usage lines name them
"$GPUWIZ" --help >"$TMP/global"
sed -n 's/^\(Usage: \|       \)gpuwiz \([a-z][a-z]*\) .*/\2/p' "$TMP/global" | uniq >"$TMP/cmds"
check "the usage lines name the commands and help" sh -c \
	"grep -qx mmio '$TMP/cmds' && grep -qx vsphere '$TMP/cmds' && grep -qx help '$TMP/cmds' && [ \$(wc -l <'$TMP/cmds') -ge 12 ]"
CMDS="$(cat "$TMP/cmds") vsphere_list vsphere_apply vsphere_passthru"
words() { echo "$1" | tr _ ' '; }

# ---- per command ------------------------------------------------------------
for c in $CMDS; do
	w=$(words "$c")
	# shellcheck disable=SC2086
	run "$GPUWIZ" $w --help
	cp "$out" "$TMP/h.$c"
	check "gpuwiz $w --help: exit 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$err' ]"
	check "gpuwiz $w --help: its own usage first" sh -c \
		"head -n 1 '$out' | grep -q '^Usage: gpuwiz $(echo "$w" | cut -d' ' -f1) '"
	check "gpuwiz $w --help: not the global help" sh -c "! cmp -s '$out' '$TMP/global'"
	check "gpuwiz $w --help: a line on what it does, an Options section" sh -c \
		"grep -q '^[A-Z].*\\.\$' '$out' && grep -qE '^Options( of every subcommand)?:\$' '$out'"
	# shellcheck disable=SC2086
	run "$GPUWIZ" help $w
	check "gpuwiz help $w is gpuwiz $w --help" sh -c "[ $rc -eq 0 ] && cmp -s '$out' '$TMP/h.$c'"
	# shellcheck disable=SC2086
	run "$GPUWIZ" $w -h
	check "gpuwiz $w -h is gpuwiz $w --help" sh -c "[ $rc -eq 0 ] && cmp -s '$out' '$TMP/h.$c'"
done
# a subcommand's help is only its own form
check "gpuwiz vsphere apply --help: only apply's usage" sh -c \
	"grep -q ' apply --vm' '$TMP/h.vsphere_apply' && ! grep -q ' list \\[' '$TMP/h.vsphere_apply'"
check "gpuwiz vmx --help: both of its forms" sh -c \
	"[ \$(grep -c 'gpuwiz vmx ' '$TMP/h.vmx') -eq 2 ]"
run "$GPUWIZ" --help mmio
check "gpuwiz --help mmio is mmio's help" cmp -s "$out" "$TMP/h.mmio"

# ---- the global help ------------------------------------------------------------
for a in help -h; do
	run "$GPUWIZ" $a
	check "gpuwiz $a is gpuwiz --help" sh -c "[ $rc -eq 0 ] && cmp -s '$out' '$TMP/global'"
done
check "the global help names gpuwiz help COMMAND" grep -q 'gpuwiz help COMMAND' "$TMP/global"
check "the global help lists -h and -V" sh -c \
	"grep -q '^  -h, --help ' '$TMP/global' && grep -q '^  -V, --version ' '$TMP/global'"
# its option lists are the rows': each option's line as in a command's help
sed -n 's/^\(  -g, --gpu SPEC.*\)$/\1/p' "$TMP/global" >"$TMP/g.gpu"
check "the global help's --gpu line is mmio's" sh -c \
	"[ -s '$TMP/g.gpu' ] && grep -qxF \"\$(cat '$TMP/g.gpu')\" '$TMP/h.mmio'"

# ---- refused ---------------------------------------------------------------------
run "$GPUWIZ" help frob
check "gpuwiz help frob: exit 2, nothing on stdout" sh -c "[ $rc -eq 2 ] && [ ! -s '$out' ]"
check "... one line naming it and the commands" sh -c \
	"[ \$(wc -l <'$err') -eq 1 ] && grep -qF \"unknown command 'frob' (expected mmio, vmx,\" '$err'"
check "... every command of the table, help too" sh -c \
	"grep -qF 'expected mmio, vmx, snippet, apply, check, gpus, vms, passthru, verify, diagnose, vsphere or help;' '$err'"
run env LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8 "$GPUWIZ" help frob
check "zh: the list of commands with the enumeration comma and 或" sh -c \
	"[ $rc -eq 2 ] && grep -qF 'mmio、vmx、' '$err' && grep -qF 'vsphere 或 help' '$err'"
run "$GPUWIZ" frob --help
check "gpuwiz frob --help: refused the same" sh -c "[ $rc -eq 2 ] && grep -qF \"unknown command 'frob'\" '$err'"
run "$GPUWIZ" help vsphere frob
check "gpuwiz help vsphere frob: refused, one line" sh -c \
	"[ $rc -eq 2 ] && [ ! -s '$out' ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'expected list, apply or passthru' '$err'"
run "$GPUWIZ" help mmio extra
check "gpuwiz help mmio extra: refused" sh -c "[ $rc -eq 2 ] && grep -qF \"unexpected argument 'extra'\" '$err'"
run "$GPUWIZ" help --gpu l40s
check "gpuwiz help --gpu: not an option of help" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"not an option of 'gpuwiz help'\" '$err'"

# ---- -V ----------------------------------------------------------------------------
"$GPUWIZ" --version >"$TMP/version"
run "$GPUWIZ" -V
check "gpuwiz -V is gpuwiz --version" sh -c "[ $rc -eq 0 ] && [ -s '$out' ] && cmp -s '$out' '$TMP/version'"
run "$GPUWIZ" mmio --gpu l40s -V
check "-V after a command: an unknown option there, as --version" sh -c "[ $rc -eq 2 ] && grep -qF \"'-V'\" '$err'"

# ---- Chinese -------------------------------------------------------------------
# the lines of an Options section: each option's line starts in column 27
# (or the next line when its left side is too wide), in 80 cells at most
options_laid_out() {
	sed -n '/^[^ ].*[:：]$/,/^$/p' "$1" | grep '^ ' | awk '
		/^  (-[a-zA-Z], |    )--/ {
			# the left side is ASCII: its width is its length
			if (length($0) > 26 && substr($0, 25, 2) == "  " && substr($0, 27, 1) != " ") next
			if (match($0, /^  (-[a-zA-Z], |    )--[^ ]+( [^ ]+)?$/)) next
			bad = bad "|" $0; next
		}
		/^                          [^ ]/ { next }
		/^  [a-z]+ +[^ ]/ { next }     # Subcommands
		{ bad = bad "|" $0 }
		END { if (bad != "") { print bad; exit 1 } }'
}
if [ -n "${GPUWIZ_LOCALEDIR:-}" ] && locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
	for c in $CMDS; do
		w=$(words "$c")
		# shellcheck disable=SC2086
		env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" $w --help >"$TMP/z.$c" 2>"$TMP/z.err"
		zrc=$?
		check "zh: gpuwiz $w --help: exit 0" [ $zrc -eq 0 ]
		# every option line translated: its text holds Chinese
		sed -n '/^[^ ].*[:：]$/,/^$/p' "$TMP/z.$c" | grep '^ ' |
			awk 'substr($0, 25, 2) == "  " && substr($0, 27, 1) != " " { print substr($0, 27) }' >"$TMP/z.texts"
		check "zh: gpuwiz $w --help: every option's line in Chinese" sh -c \
			"[ -s '$TMP/z.texts' ] && ! LC_ALL=C.UTF-8 grep -vP '[\\x{4e00}-\\x{9fff}]' '$TMP/z.texts' >/dev/null"
		check "zh: gpuwiz $w --help: its line on what it does in Chinese" \
			sh -c "sed -n '/^\$/,\$p' '$TMP/z.$c' | sed -n 2p | LC_ALL=C.UTF-8 grep -qP '[\\x{4e00}-\\x{9fff}]'"
		# shellcheck disable=SC2086
		env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" help $w >"$TMP/z2"
		check "zh: gpuwiz help $w is gpuwiz $w --help" cmp -s "$TMP/z2" "$TMP/z.$c"
		check "zh: gpuwiz $w --help: the option lines aligned" options_laid_out "$TMP/z.$c"
		sed -n '/^[^ ].*[:：]$/,/^$/p' "$TMP/z.$c" >"$TMP/z.opts"
		check "zh: gpuwiz $w --help: option lines in 80 cells" sh -c \
			"[ \$(LC_ALL=C.UTF-8 wc -L <'$TMP/z.opts') -le 80 ]"
	done
	env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" --help >"$TMP/zg"
	check "zh: the global help's option lines aligned" options_laid_out "$TMP/zg"
	# every line of every help, the usage forms too, in 80 cells
	for lang in C.UTF-8 zh_CN.UTF-8; do
		wide=
		for c in global $CMDS; do
			w=$(words "$c")
			[ "$c" = global ] && w=
			# shellcheck disable=SC2086
			env -u LC_ALL LANG=$lang "$GPUWIZ" $w --help >"$TMP/wide"
			[ "$(LC_ALL=C.UTF-8 wc -L <"$TMP/wide")" -le 80 ] || wide="$wide [$c]"
		done
		check "$lang: every line of every --help in 80 cells" [ -z "$wide" ]
		[ -z "$wide" ] || echo "   wider:$wide"
	done
	env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" help frob >"$TMP/zo" 2>"$TMP/ze"
	zrc=$?
	check "zh: gpuwiz help frob: exit 2, one Chinese line naming it" sh -c \
		"[ $zrc -eq 2 ] && [ ! -s '$TMP/zo' ] && [ \$(wc -l <'$TMP/ze') -eq 1 ] && grep -qF frob '$TMP/ze' && LC_ALL=C.UTF-8 grep -qP '[\\x{4e00}-\\x{9fff}]' '$TMP/ze'"
else
	echo "# skip: no zh_CN.UTF-8 locale or no build-tree catalogue"
fi
check "C: the option lines aligned" options_laid_out "$TMP/h.mmio"
check "C: the global help's option lines aligned" options_laid_out "$TMP/global"

finish
