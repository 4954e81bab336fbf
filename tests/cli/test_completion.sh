#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The bash completion (data/bash-completion/gpuwiz, src/cli/complete.c;
# doc/design.md, section 8.1): sourced in bash --norc, without and with
# the bash-completion package, its function offers the commands, the
# options each command takes (those of its --help, none it refuses), and
# the values of --gpu, --vgpu, --format, --lang and --sample-host from the
# program's own tables; files and folders for FILE and DIR.  And configure
# puts it where bash-completion looks: a DESTDIR install of the build.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
SCRIPT=$SRC/data/bash-completion/gpuwiz
BC=/usr/share/bash-completion/bash_completion
check "bash is there" sh -c 'command -v bash >/dev/null'

# comp [bc] WORD...: COMPREPLY, sorted, one a line, for the command line
# "gpuwiz WORD..." with the cursor at the end of the last WORD; "bc" first:
# with the bash-completion package loaded
comp() {
	pre=:
	if [ "$1" = bc ]; then pre=". $BC"; shift; fi
	# shellcheck disable=SC2016
	bash --norc --noprofile -c "$pre"'
		. "$0" || exit 1
		if [ "$1" = nobc ] && declare -F _init_completion >/dev/null; then echo "bash-completion loaded"; exit 1; fi
		shift
		COMP_WORDS=("$GPUWIZ" "$@"); COMP_CWORD=$#
		_gpuwiz gpuwiz "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" || exit 1
		printf "%s\n" "${COMPREPLY[@]}"' "$SCRIPT" "$([ "$pre" = : ] && echo nobc || echo bc)" "$@" |
		sed '/^$/d' | sort
}
export GPUWIZ
# the options of a command's help, "--name" one a line, sorted
helped() {
	# shellcheck disable=SC2086
	"$GPUWIZ" $1 --help | sed -n '/^Options\( of every subcommand\)\{0,1\}:$/,/^$/p' |
		grep -oE '^  (-[a-zA-Z], |    )--[a-z0-9-]+' | sed 's/.* //' | sort
}

# ---- commands ---------------------------------------------------------------
"$GPUWIZ" --help | sed -n 's/^\(Usage: \|       \)gpuwiz \([a-z][a-z]*\) .*/\2/p' | sort -u >"$TMP/cmds"
comp "" >"$TMP/c"
check "gpuwiz <TAB>: the commands of --help's usage lines ($(wc -l <"$TMP/c"))" sh -c \
	"[ -s '$TMP/c' ] && cmp -s '$TMP/c' '$TMP/cmds'"
comp m >"$TMP/c"
check "gpuwiz m<TAB>: mmio" [ "$(cat "$TMP/c")" = mmio ]
comp vsphere "" >"$TMP/c"
check "gpuwiz vsphere <TAB>: its subcommands" [ "$(tr '\n' ' ' <"$TMP/c")" = "apply list passthru " ]
comp help v >"$TMP/c"
check "gpuwiz help v<TAB>: vms, vmx, vsphere, verify" [ "$(tr '\n' ' ' <"$TMP/c")" = "verify vms vmx vsphere " ]
comp help vsphere a >"$TMP/c"
check "gpuwiz help vsphere a<TAB>: apply" [ "$(cat "$TMP/c")" = apply ]

# ---- options: exactly each command's --help ----------------------------------
bad=""
for c in $(grep -vx help "$TMP/cmds") "vsphere list" "vsphere apply" "vsphere passthru" help; do
	# shellcheck disable=SC2086
	comp $c -- >"$TMP/o"
	helped "$c" >"$TMP/h"
	cmp -s "$TMP/o" "$TMP/h" || bad="$bad [$c: $(diff "$TMP/h" "$TMP/o" | grep '^[<>]' | tr '\n' ' ')]"
done
check "gpuwiz CMD --<TAB>: the options of CMD --help, for every command" [ -z "$bad" ]
[ -z "$bad" ] || echo "   $bad"
comp mmio -- >"$TMP/o"
run "$GPUWIZ" mmio --gpu l40s --ssh root@esx01
check "mmio refuses --ssh ..." sh -c "[ $rc -eq 2 ] && grep -qF -- \"--ssh: not an option of 'gpuwiz mmio'\" '$err'"
check "... and gpuwiz mmio --<TAB> does not offer it" sh -c "! grep -qx -- --ssh '$TMP/o'"
check "... but offers --gpu and --mmio-gb" sh -c "grep -qx -- --gpu '$TMP/o' && grep -qx -- --mmio-gb '$TMP/o'"
comp mmio --m >"$TMP/o"
check "gpuwiz mmio --m<TAB>: --memory, --mmio-gb" [ "$(tr '\n' ' ' <"$TMP/o")" = "--memory --mmio-gb " ]
comp --v >"$TMP/o"
check "gpuwiz --v<TAB>: --verbose, --version" [ "$(tr '\n' ' ' <"$TMP/o")" = "--verbose --version " ]

# ---- values ------------------------------------------------------------------
sed -n 's/^\[\([a-z0-9][a-z0-9-]*\)\].*/\1/p' "$GPUWIZ_TABLE" | sort >"$TMP/ids"
comp mmio --gpu "" >"$TMP/v"
check "--gpu <TAB>: the ids of the GPU table ($(wc -l <"$TMP/ids"))" sh -c \
	"[ -s '$TMP/ids' ] && cmp -s '$TMP/v' '$TMP/ids'"
comp mmio -g l40 >"$TMP/v"
check "-g l40<TAB>: the ids that start with l40" sh -c \
	"grep -qx l40s '$TMP/v' && [ \$(grep -vc '^l40' '$TMP/v') -eq 0 ]"
comp vmx --gpu l40s --vgpu nvidia_l40s- >"$TMP/v"
check "--vgpu nvidia_l40s-<TAB>: the L40S's profiles" sh -c \
	"grep -qx nvidia_l40s-48c '$TMP/v' && grep -qx nvidia_l40s-24q '$TMP/v' && [ \$(grep -vc '^nvidia_l40s-' '$TMP/v') -eq 0 ]"
p=$(head -n 3 "$TMP/v" | tail -n 1)
run "$GPUWIZ" mmio --vgpu "$p"
check "... one of them taken by mmio --vgpu ($p)" [ $rc -eq 0 ]
# the formats: those snippet names when --format is missing
run "$GPUWIZ" snippet --gpu l40s
sed -n 's/.*expected one of: \([^)]*\)).*/\1/p' "$err" | tr -d ' ' | tr ',' '\n' | sort >"$TMP/fmts"
comp snippet --format "" >"$TMP/v"
check "--format <TAB>: snippet's formats ($(tr '\n' ' ' <"$TMP/fmts"))" sh -c \
	"[ -s '$TMP/fmts' ] && cmp -s '$TMP/v' '$TMP/fmts'"
comp snippet --format = >"$TMP/v"
check "--format=<TAB> (bash splits at =): the same" cmp -s "$TMP/v" "$TMP/fmts"
comp snippet --format = o >"$TMP/v"
check "--format=o<TAB>: om, opsman" [ "$(tr '\n' ' ' <"$TMP/v")" = "om opsman " ]
comp mmio --lang "" >"$TMP/v"
check "--lang <TAB>: en and po/LINGUAS" sh -c \
	"[ \"\$(tr '\\n' ' ' <'$TMP/v')\" = \"en \$(grep -v '^#' '$SRC/po/LINGUAS' | tr '\\n' ' ')\" ]"
ls "$GPUWIZ_HOSTS_DIR" 2>/dev/null | while read -r h; do
	[ -f "$GPUWIZ_HOSTS_DIR/$h/host.ini" ] && echo "$h"
done | sort >"$TMP/hosts"
comp vms --sample-host "" >"$TMP/v"
check "--sample-host <TAB>: the sample hosts ($(wc -l <"$TMP/hosts"))" sh -c \
	"[ -s '$TMP/hosts' ] && cmp -s '$TMP/v' '$TMP/hosts'"
comp mmio --vram "" >"$TMP/v2"
check "--vram <TAB>: nothing (no set of values)" [ ! -s "$TMP/v2" ]

# ---- files and folders, without and with bash-completion ------------------------
mkdir -p "$TMP/w/vmdir" && : >"$TMP/w/a.vmx" && : >"$TMP/w/b.log"
for mode in plain bc; do
	[ $mode = bc ] && [ ! -f "$BC" ] && { echo "# skip: no $BC"; continue; }
	m=$mode; [ $m = plain ] && m=
	# shellcheck disable=SC2086
	(cd "$TMP/w" && comp $m vmx "") >"$TMP/f"
	check "$mode: gpuwiz vmx <TAB>: the files and folders" [ "$(tr '\n' ' ' <"$TMP/f")" = "a.vmx b.log vmdir " ]
	# shellcheck disable=SC2086
	(cd "$TMP/w" && comp $m check --sysroot "") >"$TMP/f"
	check "$mode: --sysroot <TAB>: folders only" [ "$(tr '\n' ' ' <"$TMP/f")" = "vmdir " ]
	# shellcheck disable=SC2086
	(cd "$TMP/w" && comp $m diagnose --vmx a) >"$TMP/f"
	check "$mode: diagnose --vmx a<TAB>: a.vmx" [ "$(cat "$TMP/f")" = a.vmx ]
	# shellcheck disable=SC2086
	comp $m snippet --format "" >"$TMP/v"
	check "$mode: --format <TAB>: the formats" cmp -s "$TMP/v" "$TMP/fmts"
	# shellcheck disable=SC2086
	comp $m vms --s >"$TMP/v"
	check "$mode: gpuwiz vms --s<TAB>: --ssh and its options, --sample-host" \
		[ "$(tr '\n' ' ' <"$TMP/v")" = "--sample-host --ssh --ssh-identity --ssh-option --ssh-port " ]
done

# ---- where make install puts it --------------------------------------------------
BUILD=$(cd "$(dirname "$GPUWIZ")/.." && pwd)
if [ -f "$BUILD/Makefile" ] && command -v make >/dev/null 2>&1; then
	mk() { env -u MAKEFLAGS -u MFLAGS make -s --no-print-directory -C "$BUILD" "$@"; }
	# the configured folder, and the prefix and datadir it is under
	val() { printf 'pv:\n\t@echo "$(%s)"\n' "$1" | env -u MAKEFLAGS -u MFLAGS make -s --no-print-directory -C "$BUILD" -f Makefile -f - pv; }
	dir=$(val bashcompletiondir); prefix=$(val prefix); datadir=$(val datadir)
	if pkg-config --exists bash-completion 2>/dev/null; then
		want=$(pkg-config --define-variable=prefix="$prefix" --define-variable=datadir="$datadir" \
			--variable=completionsdir bash-completion)
		how="bash-completion's completionsdir (pkg-config)"
	else
		want=$datadir/bash-completion/completions
		how="DATADIR/bash-completion/completions (no bash-completion.pc)"
	fi
	if grep -q -- '--with-bash-completion-dir' "$BUILD/config.log" 2>/dev/null &&
		! grep -q -- '--with-bash-completion-dir=yes' "$BUILD/config.log"; then
		echo "# skip: configured with --with-bash-completion-dir: $dir"
	else
		check "configure: the folder is $how: $want" [ "$dir" = "$want" ]
		mk install-bashcompletionDATA DESTDIR="$TMP/dest" >/dev/null 2>&1
		check "make install DESTDIR=...: installed as $want/gpuwiz" cmp -s "$TMP/dest$want/gpuwiz" "$SCRIPT"
		mk uninstall-bashcompletionDATA DESTDIR="$TMP/dest" >/dev/null 2>&1
		check "make uninstall: removed" [ ! -e "$TMP/dest$want/gpuwiz" ]
	fi
else
	echo "# skip: no build tree beside $GPUWIZ"
fi

# ---- configure asks pkg-config, under the prefix; --with-bash-completion-dir=no
# A bash-completion.pc whose completionsdir is not the fallback's: configure
# in a scratch folder (cached: the second run is quick) finds it there.
if [ -x "$SRC/configure" ] && command -v pkg-config >/dev/null 2>&1 && command -v make >/dev/null 2>&1; then
	mkdir -p "$TMP/pc" "$TMP/cfg"
	printf 'prefix=/usr\ncompletionsdir=${prefix}/share/gw-test/completions\n\nName: bash-completion\nDescription: test\nVersion: 2.11\n' \
		>"$TMP/pc/bash-completion.pc"
	(cd "$TMP/cfg" && PKG_CONFIG_PATH="$TMP/pc" "$SRC/configure" -C --prefix="$TMP/p" >"$TMP/cfg.log" 2>&1)
	check "configure with a bash-completion.pc: its completionsdir under our prefix" \
		grep -qx 'bashcompletiondir = ${prefix}/share/gw-test/completions' "$TMP/cfg/Makefile"
	env -u MAKEFLAGS -u MFLAGS make -s -C "$TMP/cfg" install-bashcompletionDATA DESTDIR="$TMP/d2" >/dev/null 2>&1
	check "... make install DESTDIR=... puts it there" [ -f "$TMP/d2$TMP/p/share/gw-test/completions/gpuwiz" ]
	(cd "$TMP/cfg" && PKG_CONFIG_PATH="$TMP/pc" "$SRC/configure" -C --prefix="$TMP/p" \
		--with-bash-completion-dir=no >"$TMP/cfg.log" 2>&1)
	rm -rf "$TMP/d3"
	env -u MAKEFLAGS -u MFLAGS make -s -C "$TMP/cfg" install-data DESTDIR="$TMP/d3" >/dev/null 2>&1
	check "--with-bash-completion-dir=no: make install-data installs no completion" sh -c \
		"grep -qx 'bashcompletiondir = ' '$TMP/cfg/Makefile' && [ -z \"\$(find '$TMP/d3' -name gpuwiz -path '*completion*')\" ]"
else
	echo "# skip: no configure script or pkg-config"
fi

finish
