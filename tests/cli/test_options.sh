#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Each command takes its own options (src/cli/cmd_table.c, doc/design.md
# 8.1): an option a command does not take is refused with exit 2 and one
# line naming the option and the command, before anything is done; the
# options --help shows for a command are the ones it takes.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}

# ---- the options: the rows of src/cli/opts.c, "NAME 1" when it takes a value
sed -n 's/^[[:space:]]*\[OPT_[A-Z0-9_]*\] = \(ITEM\|FLAG\|FN\|STR\)("\([a-z0-9-]*\)"\(.*\)$/\1 \2 \3/p' \
	"$SRC/src/cli/opts.c" | while read -r kind name rest; do
	case $kind:$rest in
	FLAG:*|FN:*no_argument*) echo "$name 0" ;;
	*) echo "$name 1" ;;
	esac
done >"$TMP/opts"
check "the option table read (more than 40 options)" [ "$(wc -l <"$TMP/opts")" -gt 40 ]

# the commands and subcommands; "-" is the wizard (plain gpuwiz)
CTXS="- mmio vmx snippet apply check gpus vms passthru verify diagnose
vsphere_list vsphere_apply vsphere_passthru help"
words() { [ "$1" = - ] || echo "$1" | tr _ ' '; }
# shown CTX: the command as the refusal names it
shown() { if [ "$1" = - ]; then echo gpuwiz; else echo "gpuwiz $(words "$1")"; fi; }

# ---- the set of each command, as the program refuses or takes its options.
# A bad --lang after the option stops every command that takes it before
# it does anything (the values are taken after the set is checked).
probe_all() {
	: >"$TMP/sets"
	for c in $CTXS; do
		while read -r name val; do
			if [ "$val" = 1 ]; then set -- "--$name" v; else set -- "--$name"; fi
			# shellcheck disable=SC2046
			"$GPUWIZ" $(words "$c") "$@" --lang xx </dev/null >"$TMP/p.out" 2>"$TMP/p.err"
			prc=$?
			if [ $prc -ne 2 ] || [ -s "$TMP/p.out" ]; then
				echo "$c --$name: exit $prc, stdout $(wc -c <"$TMP/p.out") bytes" >>"$TMP/probe_bad"
			fi
			if grep -q "not an option of" "$TMP/p.err"; then
				echo "$c $name no"
			else
				echo "$c $name yes"
			fi >>"$TMP/sets"
		done <"$TMP/opts"
	done
}
: >"$TMP/probe_bad"
probe_all
check "probing: every probe exits 2 with nothing on stdout (nothing ran)" [ ! -s "$TMP/probe_bad" ]
[ -s "$TMP/probe_bad" ] && head -n 5 "$TMP/probe_bad" | sed 's/^/   /'
takes() { grep -qx -- "$1 $2 yes" "$TMP/sets"; }
set_of() { sed -n "s/^$1 \\([a-z0-9-]*\\) yes\$/\\1/p" "$TMP/sets"; }

# ---- a foreign option: exit 2, one line naming it and the command ---------
# one foreign option per command: the first row of the table it does not take
for c in $CTXS; do
	f=$(sed -n "s/^$c \\([a-z0-9-]*\\) no\$/\\1/p" "$TMP/sets" | head -n 1)
	if [ -z "$f" ]; then nok "$c: refuses some option" "it took every one"; continue; fi
	v=$(sed -n "s/^$f //p" "$TMP/opts")
	if [ "$v" = 1 ]; then set -- "--$f" v; else set -- "--$f"; fi
	# shellcheck disable=SC2046
	run "$GPUWIZ" $(words "$c") "$@"
	if [ "$c" = - ]; then
		want="gpuwiz: --$f: not an option of the wizard (plain gpuwiz; see gpuwiz --help for the commands)"
	else
		want="gpuwiz: --$f: not an option of '$(shown "$c")' (see gpuwiz --help)"
	fi
	if [ $rc -eq 2 ] && [ ! -s "$out" ] && err_one_line && [ "$(cat "$err")" = "$want" ]; then
		ok "$(shown "$c") --$f: refused, exit 2, one line"
	else
		nok "$(shown "$c") --$f: refused, exit 2, one line" "rc $rc; $(head -c 300 "$err")"
	fi
	if [ -n "${GPUWIZ_LOCALEDIR:-}" ] && locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
		# shellcheck disable=SC2046
		env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" $(words "$c") "$@" >"$TMP/zo" 2>"$TMP/ze"
		zrc=$?
		if [ $zrc -eq 2 ] && [ ! -s "$TMP/zo" ] && [ "$(wc -l <"$TMP/ze")" -eq 1 ] &&
			grep -qF -- "--$f" "$TMP/ze" && grep -qF -- "$(shown "$c")" "$TMP/ze" &&
			LC_ALL=C.UTF-8 grep -qP '[\x{4e00}-\x{9fff}]' "$TMP/ze"; then
			ok "zh: $(shown "$c") --$f: one Chinese line naming both"
		else
			nok "zh: $(shown "$c") --$f" "rc $zrc; $(head -c 300 "$TMP/ze")"
		fi
	fi
done

# ---- the cases the option sets were made for ------------------------------------
run "$GPUWIZ" mmio --gpu l40s --ssh root@x --bundle x.tgz
check "mmio --gpu l40s --ssh root@x --bundle x.tgz: exit 2" [ $rc -eq 2 ]
check "... nothing on stdout" [ ! -s "$out" ]
check "... one line naming --ssh and 'gpuwiz mmio'" sh -c \
	"[ \$(wc -l <'$err') -eq 1 ] && grep -qF -- \"--ssh: not an option of 'gpuwiz mmio'\" '$err'"
# snippet: --name, --vm and --host only for the formats that use them
# (the registry's TAKES); in both languages, nothing on stdout
for lang in C.UTF-8 zh_CN.UTF-8; do
	LC_ALL=$lang run "$GPUWIZ" snippet --format bosh --gpu l40s --vm a
	check "$lang: snippet --format bosh --vm: refused, nothing printed" sh -c \
		"[ $rc -eq 2 ] && [ ! -s '$out' ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF -- \"--vm\" '$err' && grep -qF \"'gpuwiz snippet --format bosh'\" '$err'"
done
run "$GPUWIZ" snippet --format vmx --gpu l40s --name ext1
check "snippet --format vmx --name: refused" errhas "--name: not an option of 'gpuwiz snippet --format vmx'"
run "$GPUWIZ" snippet --format tile --gpu l40s --host esx01
check "snippet --format tile --host: refused" errhas "--host: not an option of 'gpuwiz snippet --format tile'"
run "$GPUWIZ" snippet --format bosh --gpu l40s --name ext1
check "snippet --format bosh --name: taken, in the snippet" sh -c "[ $rc -eq 0 ] && grep -q 'name: \"ext1\"' '$out'"
run "$GPUWIZ" snippet --format ansible --gpu l40s --vm llm1 --host esx01
check "snippet --format ansible --vm --host: taken, in the playbook" sh -c "[ $rc -eq 0 ] && grep -q 'llm1' '$out' && grep -q 'esx01' '$out'"
run "$GPUWIZ" mmio --gpu l40s --bundle x.tgz
check "mmio --bundle: refused by name" errhas "--bundle: not an option of 'gpuwiz mmio'"
run "$GPUWIZ" passthru --enable 0000:5e:00.0 --sample-host esxi-l40s --parallel 4
check "passthru --parallel: refused, nothing enabled" sh -c \
	"[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -qF -- \"--parallel: not an option of 'gpuwiz passthru'\" '$err'"
run "$GPUWIZ" vsphere --url https://127.0.0.1:1/sdk --user u --insecure list --vm a
check "vsphere list --vm: refused before connecting" sh -c \
	"[ $rc -eq 2 ] && grep -qxF \"gpuwiz: --vm: not an option of 'gpuwiz vsphere list' (see gpuwiz --help)\" '$err'"
run "$GPUWIZ" vsphere --url https://127.0.0.1:1/sdk --user u --gpu l40s
if [ "${GW_WITH_VSPHERE:-yes}" != no ]; then
	check "vsphere without a subcommand: its own line, not an option set's" sh -c \
		"[ $rc -eq 2 ] && grep -qF 'expected list, apply or passthru' '$err'"
else   # (a build without the module: the command is refused whole)
	check "vsphere without a subcommand: the line of a build without the module" sh -c \
		"[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'has no vSphere module' '$err'"
fi
run "$GPUWIZ" --gpu l40s </dev/null
check "the wizard refuses --gpu by its set" sh -c \
	"[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF -- '--gpu: not an option of the wizard' '$err'"

# dry run and JSON where the commands have them
for c in vmx apply passthru vsphere_apply vsphere_passthru; do
	check "$(shown $c) takes --dry-run" takes "$c" dry-run
done
for c in mmio vmx snippet apply check gpus vms passthru verify diagnose vsphere_list vsphere_apply; do
	check "$(shown $c) takes --json" takes "$c" json
done
for c in vms passthru diagnose verify; do
	check "$(shown $c) refuses the plan's --gpu" sh -c "! grep -qx '$c gpu yes' '$TMP/sets'"
done

# ---- an option that means something only beside another ----------------------
sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/a.vmx"
cp "$TMP/a.vmx" "$TMP/a.before"
run "$GPUWIZ" vmx "$TMP/a.vmx" --gpu l40s --force
check "vmx --force without --write: exit 2, one line" sh -c \
	"[ $rc -eq 2 ] && [ ! -s '$out' ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF -- \"--force: only used with --write in 'gpuwiz vmx'\" '$err'"
check "... the .vmx unchanged" cmp -s "$TMP/a.vmx" "$TMP/a.before"
run "$GPUWIZ" vms --sample-host esxi-l40s --ssh-port 2222
check "vms --ssh-port without --ssh: refused" sh -c \
	"[ $rc -eq 2 ] && grep -qF -- \"--ssh-port: only used with --ssh in 'gpuwiz vms'\" '$err'"
run "$GPUWIZ" check --sample-host intel-2x-l40s --user admin
check "check --user without --url: refused" sh -c \
	"[ $rc -eq 2 ] && grep -qF -- \"--user: only used with --url in 'gpuwiz check'\" '$err'"
run "$GPUWIZ" check --url https://127.0.0.1:1/sdk --user u --sample-host intel-2x-l40s
check "check --url with --sample-host: refused, not ignored" sh -c \
	"[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -qF -- '--url (the vSphere API) excludes' '$err'"
run "$GPUWIZ" check --url https://127.0.0.1:1/sdk --user u --sysroot /
check "check --url with --sysroot: refused, not ignored" sh -c \
	"[ $rc -eq 2 ] && [ ! -s '$out' ] && grep -qF -- '--url (the vSphere API) excludes --sysroot' '$err'"
run "$GPUWIZ" apply --answers /nonexistent.ini --force
check "apply --force stands alone (apply has no --write)" sh -c "! grep -q 'only used with' '$err'"

# ---- --help and the sets agree --------------------------------------------------
"$GPUWIZ" --help >"$TMP/help"
# the usage lines, continuations joined, each as "CTX WORDS..."
# (a vsphere line: the subcommand is the word list, apply or passthru)
sed -n '/^Usage:/,/^$/p' "$TMP/help" | awk '
	function put(   n, w, i, c) {
		if (l == "") return
		n = split(l, w, " "); c = w[2]
		if (w[1] == "Usage:") c = "-"
		if (c == "vsphere") for (i = 3; i <= n; i++)
			if (w[i] == "list" || w[i] == "apply" || w[i] == "passthru") { c = c "_" w[i]; break }
		print c " " l; l = ""
	}
	/^       gpuwiz --help/ { put(); next }
	/^Usage: gpuwiz |^       gpuwiz / { put(); l = $0; next }
	/^                  / { l = l " " $0; next }
	END { put() }' >"$TMP/usage"
check "usage lines read for every command" sh -c \
	"[ \$(cut -d' ' -f1 '$TMP/usage' | sort -u | wc -l) -eq $(echo $CTXS | wc -w) ]"
# the groups a usage line names, from the paragraphs of --help that list them
group() { sed -n "/$1/,/^\$/p" "$TMP/help" | grep -oE -- '--[a-z0-9-]+' | sort -u; }
group '^HOST is' >"$TMP/g.host"
group '^--url URL --user USER is' >"$TMP/g.api"
group '^Plan options' >"$TMP/g.plan"
check "the HOST group: --ssh, its options, --sample-host" sh -c \
	"grep -qx -- --ssh-option '$TMP/g.host' && grep -qx -- --sample-host '$TMP/g.host'"
check "the vSphere group: --cafile and --timeout with --url" sh -c \
	"grep -qx -- --cafile '$TMP/g.api' && grep -qx -- --timeout '$TMP/g.api'"
# what every command takes, and --help says so
all=$(for c in $CTXS; do set_of "$c"; done | sort | uniq -c |
	awk -v n="$(echo $CTXS | wc -w)" '$1 == n { print $2 }' | tr '\n' ' ')
all=${all% }
check "--lang, --table, --help, -v, -q: every command's" [ "$all" = "help lang quiet table verbose" ]
check "--help names them as every command's" sh -c \
	"sed -n '/^A command takes/,/^\$/p' '$TMP/help' | tr '\\n' ' ' | grep -qF -- '--lang, --table, --help'"
bad_shown="" bad_set=""
for c in $CTXS; do
	grep "^$c " "$TMP/usage" >"$TMP/u.$c"
	grep -oE -- '--[a-z0-9-]+' "$TMP/u.$c" | sort -u >"$TMP/shown.$c"
	# every option a usage line shows is one the command takes
	for o in $(sed 's/^--//' "$TMP/shown.$c"); do
		takes "$c" "$o" || bad_shown="$bad_shown $(shown "$c"):--$o"
	done
	# every option it takes is shown, in a group its lines name, or global
	cp "$TMP/shown.$c" "$TMP/doc.$c"
	grep -qw HOST "$TMP/u.$c" && cat "$TMP/g.host" >>"$TMP/doc.$c"
	grep -qF -- '--url' "$TMP/u.$c" && cat "$TMP/g.api" >>"$TMP/doc.$c"
	grep -qF 'plan options' "$TMP/u.$c" && cat "$TMP/g.plan" >>"$TMP/doc.$c"
	for o in $(set_of "$c"); do
		case " $all " in *" $o "*) continue ;; esac
		grep -qx -- "--$o" "$TMP/doc.$c" || bad_set="$bad_set $(shown "$c"):--$o"
	done
done
check "every option a usage line shows is taken by its command" [ -z "$bad_shown" ]
[ -z "$bad_shown" ] || echo "   not taken:$bad_shown"
check "every option a command takes is in its usage or a group it names" [ -z "$bad_set" ]
[ -z "$bad_set" ] || echo "   not in the usage:$bad_set"

# ---- each command's own help lists exactly the options it takes -------------
# "gpuwiz CMD --help": the options of its Options section, the long names
helped() { sed -n '/^Options:$/,/^$/p' "$1" | grep -oE '^  (-[a-zA-Z], |    )--[a-z0-9-]+' | sed 's/.*--//' | sort; }
for c in $CTXS; do
	[ "$c" = - ] && continue
	# shellcheck disable=SC2046
	"$GPUWIZ" $(words "$c") --help >"$TMP/h.$c" 2>"$TMP/h.err"
	helped "$TMP/h.$c" >"$TMP/h.listed"
	set_of "$c" | sort >"$TMP/h.set"
	if cmp -s "$TMP/h.listed" "$TMP/h.set"; then
		ok "$(shown "$c") --help lists exactly the $(wc -l <"$TMP/h.set") options it takes"
	else
		nok "$(shown "$c") --help lists exactly the options it takes" \
			"$(diff "$TMP/h.set" "$TMP/h.listed" | grep '^[<>]' | tr '\n' ' ')"
	fi
done
# gpuwiz vsphere --help: the options every subcommand takes
"$GPUWIZ" vsphere --help >"$TMP/h.vs"
sed -n '/^Options of every subcommand:$/,/^$/p' "$TMP/h.vs" | grep -oE '^  (-[a-zA-Z], |    )--[a-z0-9-]+' |
	sed 's/.*--//' | sort >"$TMP/h.listed"
set_of vsphere_list | sort >"$TMP/h.a"; set_of vsphere_apply | sort >"$TMP/h.b"
set_of vsphere_passthru | sort >"$TMP/h.c"
comm -12 "$TMP/h.a" "$TMP/h.b" | comm -12 - "$TMP/h.c" >"$TMP/h.common"
check "gpuwiz vsphere --help: the options every subcommand takes" cmp -s "$TMP/h.listed" "$TMP/h.common"
check "... and its subcommands" sh -c "sed -n '/^Subcommands:\$/,/^\$/p' '$TMP/h.vs' | grep -c '^  [a-z]' | grep -qx 3"

# the sets, for the log
for c in $CTXS; do echo "# $(shown "$c"): $(set_of "$c" | tr '\n' ' ')"; done

finish
