#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_verbose.sh: -v and -q, global options.  -q leaves out the warnings
# and notes on stderr and keeps stdout byte for byte; -v with -q is
# refused in one line (English and Simplified Chinese), and so is -v for
# the wizard; -v on the SSH route (a throwaway sshd, tests/cli/sshd.sh)
# lists each command run on the host as run there, with its exit status
# and time.  The SOAP calls under -v: test_connenv.sh.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
zh_checks

# ---- -v with -q ---------------------------------------------------------------
for args in "-v -q" "--verbose --quiet" "-q --verbose"; do
	# shellcheck disable=SC2086
	run "$GPUWIZ" mmio --gpu l40s $args
	if [ "$rc" -eq 2 ] && err_one_line && [ ! -s "$out" ] &&
		errhas "gpuwiz: -v (--verbose) and -q (--quiet) exclude each other"; then
		ok "mmio $args: refused in one line"
	else nok "mmio $args refused" "$(cat "$out" "$err")"; fi
done
run "$GPUWIZ" vsphere -v -q list
check "vsphere -v -q list: refused before anything is read or sent" \
	sh -c "[ $rc -eq 2 ] && grep -q 'exclude each other' '$err'"
if [ "$ZH" = 1 ]; then
	zh "$GPUWIZ" mmio --gpu l40s -v -q
	if [ "$rc" -eq 2 ] && err_one_line && errhas "-v" && errhas "-q" && ! errhas "exclude"; then
		ok "-v -q refused in Chinese"
	else nok "-v -q in Chinese" "$(cat "$err")"; fi
fi
run "$GPUWIZ" -v
if [ "$rc" -eq 2 ] && err_one_line && errhas "-v: the wizard"; then
	ok "the wizard refuses -v: its screen would hide the lines"
else nok "wizard -v" "$(cat "$out" "$err")"; fi
if [ "$ZH" = 1 ]; then
	zh "$GPUWIZ" -v
	check "the wizard's -v refusal in Chinese" sh -c "[ $rc -eq 2 ] && grep -q '^gpuwiz: -v：向导' '$err'"
fi

# ---- -q: stdout the same, no warning or note on stderr ----------------------
quiet_same() { # name, then the command's arguments
	name=$1; shift
	run "$GPUWIZ" "$@"
	cp "$out" "$TMP/loud.out"; cp "$err" "$TMP/loud.err"; lrc=$rc
	run "$GPUWIZ" "$@" -q
	if [ -s "$TMP/loud.err" ] && [ "$rc" -eq "$lrc" ] && cmp -s "$out" "$TMP/loud.out" &&
		[ ! -s "$err" ]; then
		ok "-q: $name: the same stdout and exit status, no stderr"
	else nok "-q: $name" "$(cat "$TMP/loud.err" "$err")"; fi
}
quiet_same "snippet's notes" snippet --format vmx --gpu l40s
# a GPU table in a folder others may write: the warning that it is ignored
mkdir -p "$TMP/open"
cp "$GPUWIZ_TABLE" "$TMP/open/gpus.ini"
chmod 777 "$TMP/open"
GPUWIZ_TABLE=$TMP/open/gpus.ini quiet_same "the warning about an untrusted GPUWIZ_TABLE" mmio --gpu l40s --json
run "$GPUWIZ" mmio --gpu nosuchgpu -q
check "-q keeps the error line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"

# ---- -v on the SSH route ------------------------------------------------------
. "$(dirname "$0")/sshd.sh"
sshd_start "$SRC"
sshd_datastore itachi_lab
LOG=$SSH_STANDINS/standin.log
: >"$LOG"
# shellcheck disable=SC2086
gw() { TMPDIR=$TMP "$GPUWIZ" "$@" $SSH_GW_OPTS; }
run gw gpus --json
cp "$out" "$TMP/quiet.json"
check "gpus --ssh without -v: nothing on stderr" [ ! -s "$err" ]
# shellcheck disable=SC2094
: >"$LOG"
run gw gpus --json -v
USERHOST="$(id -un)@127.0.0.1"
if [ "$rc" -eq 0 ] && cmp -s "$out" "$TMP/quiet.json" &&
	grep -qE "^gpuwiz: ssh $USERHOST: true: exit 0, [0-9]+\.[0-9]{3} s\$" "$err" &&
	grep -qE "^gpuwiz: ssh $USERHOST: .*'esxcli' 'hardware' 'pci' 'list': exit 0, [0-9]+\.[0-9]{3} s\$" "$err"; then
	ok "gpus --ssh -v: each command as run on the host, its exit status and time; stdout unchanged"
else nok "gpus --ssh -v" "$(cat "$err")"; fi
n=$(grep -c "^gpuwiz: ssh $USERHOST: .*'esxcli'" "$err")
check "-v: one line per command the host ran (the stand-ins' log)" \
	sh -c "[ $n -gt 0 ] && [ $n -eq \$(grep -c '^esxcli' '$LOG') ]"
run gw vms -v
if [ "$rc" -eq 0 ] && grep -qE "^gpuwiz: ssh $USERHOST: .*'vim-cmd' 'vmsvc/getallvms': exit 0, " "$err"; then
	ok "vms --ssh -v: vim-cmd vmsvc/getallvms listed"
else nok "vms --ssh -v" "$(cat "$err")"; fi
run gw passthru --enable 0000:99:00.0 -v
if [ "$rc" -ne 0 ] && grep -qE "^gpuwiz: ssh $USERHOST: .*'esxcli' 'hardware' 'pci' 'list': exit 0, " "$err" &&
	[ "$(grep -vc '^gpuwiz: ssh ' "$err")" -eq 1 ]; then
	ok "passthru --ssh -v: the commands, then the one error line"
else nok "passthru --ssh -v" "$(cat "$err")"; fi

finish
