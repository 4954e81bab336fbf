#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_ssh_signals.sh: every way a command over --ssh ends closes its ssh
# ControlMaster (doc/design.md, section 4.6): a normal end, an error, and
# SIGTERM, SIGHUP, SIGINT and SIGQUIT sent to gpuwiz while a remote
# command runs (a stand-in esxcli that waits) leave no ssh process of the
# run and no control socket, and gpuwiz exits with 128 + the signal.
# Against the throwaway sshd of tests/cli/sshd.sh; skipped (77) without it.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$(dirname "$0")/sshd.sh"
sshd_start "$SRC"
sshd_datastore itachi_lab
TRIALS=${GW_SSH_SIGNAL_TRIALS:-5}

# esxcli waits while $SSH_STANDINS/slow exists (saying so in slow.started)
mv "$SSH_STANDINS/esxcli" "$SSH_STANDINS/esxcli.real"
cat >"$SSH_STANDINS/esxcli" <<'EOS'
#!/bin/sh
d=$(dirname "$0")
if [ -e "$d/slow" ]; then
	: >"$d/slow.started"
	while [ -e "$d/slow" ]; do sleep 0.05; done
fi
exec "$d/esxcli.real" "$@"
EOS
chmod +x "$SSH_STANDINS/esxcli"

# the ssh processes of this test's runs: every one names the control
# socket in $TMP/gpuwiz-ssh.* (the master's title is "ssh: SOCKET [mux]")
ssh_left() { pgrep -f -- "$TMP/gpuwiz-ssh" >/dev/null; }
socket_left() { ls -d "$TMP"/gpuwiz-ssh.* >/dev/null 2>&1; }
# a master the old behaviour left would hold the test for 10 minutes
at_exit 'for p in $(pgrep -f -- "$TMP/gpuwiz-ssh"); do kill "$p" 2>/dev/null; done'
# gone: within 5 s, no ssh process of the run and no socket
gone() {
	g=0
	while ssh_left || socket_left; do
		g=$((g + 1))
		[ $g -lt 100 ] || return 1
		sleep 0.05
	done
}

# shellcheck disable=SC2086
gw() { TMPDIR=$TMP "$GPUWIZ" "$@" $SSH_GW_OPTS; }

run gw gpus
check "gpus --ssh: exit 0" [ "$rc" = 0 ]
check "gpus --ssh: no ssh process or socket left after a normal end" gone
run gw vmx --vm 4242
check "vmx --vm 4242 --ssh: an error (exit $rc)" [ "$rc" != 0 ]
check "vmx --vm 4242 --ssh: no ssh process or socket left after an error" gone

# signal_trial SIG STATUS: gpuwiz gpus over ssh, SIG while esxcli runs;
# 0 when it exited STATUS and left nothing, else 1 with $why
signal_trial() {
	: >"$SSH_STANDINS/slow"
	rm -f "$SSH_STANDINS/slow.started"
	# the four signals as from a terminal: not ignored as in a
	# background job of this shell, nor as under nohup (an ignored
	# signal stays ignored, by design)
	TMPDIR=$TMP python3 -c 'import os, signal, sys
for n in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(n, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$GPUWIZ" gpus $SSH_GW_OPTS >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ ! -e "$SSH_STANDINS/slow.started" ] && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	if [ ! -e "$SSH_STANDINS/slow.started" ]; then
		why="esxcli never started"; kill "$pid"; wait "$pid"
		rm -f "$SSH_STANDINS/slow"; return 1
	fi
	kill -s "$1" "$pid"
	wait "$pid"; st=$?
	rm -f "$SSH_STANDINS/slow"
	why=
	[ "$st" = "$2" ] || why="exit $st, expected $2"
	if ! gone; then
		why="$why; left: $(pgrep -af -- "$TMP/gpuwiz-ssh" | tr '\n' ';') $(ls -d "$TMP"/gpuwiz-ssh.* 2>/dev/null)"
		for p in $(pgrep -f -- "$TMP/gpuwiz-ssh"); do kill "$p" 2>/dev/null; done
		rm -rf "$TMP"/gpuwiz-ssh.*
	fi
	# the remote stand-in ends once slow is gone
	sleep 0.2
	[ -z "$why" ]
}

for sig in TERM:143 HUP:129 INT:130 QUIT:131; do
	name=${sig%:*}; status=${sig#*:}
	n=0; bad=0; whys=
	while [ $n -lt "$TRIALS" ]; do
		n=$((n + 1))
		signal_trial "$name" "$status" || { bad=$((bad + 1)); whys="$whys [$why]"; }
	done
	if [ $bad = 0 ]; then
		ok "SIG$name over --ssh: exit $status, no ssh process or socket left ($TRIALS of $TRIALS)"
	else
		nok "SIG$name over --ssh: $bad of $TRIALS trials failed" "$whys"
	fi
done

finish
