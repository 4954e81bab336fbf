#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the routes that connect from inside the wizard, started
# plainly (no --ssh, no --url), at 80x24 in C.UTF-8 and zh_CN.UTF-8:
#  1. "An ESXi host over SSH" against a throwaway sshd on 127.0.0.1
#     (tests/cli/sshd.sh, the esxcli / vim-cmd stand-ins on its PATH):
#     Enter on the row opens the box; a host nothing answers on gives one
#     line naming ssh, the host and what failed, with the box again; the
#     test sshd's user@127.0.0.1, port and identity file typed connect,
#     and the wizard goes on to the host step with the stand-in host's
#     check rows.  In C.UTF-8 also a port that accepts and never speaks:
#     the progress box while ssh waits, then its timeout in the box.
#  2. "vCenter or ESXi through the API" against vcsim (tests/vcsim): URL,
#     user and password typed (the password never on the screen), the
#     self-signed certificate's SHA-256 fingerprint asked about (the
#     simulator's own, default No); No leaves the wizard unconnected,
#     with the box again saying so; Yes connects pinned to it and goes on
#     to the host step with the server's rows.
# Each part is skipped (its lines say so) when sshd or vcsim cannot run
# here; the whole script exits 77 when neither can.  ssh reads the test
# sshd's host key from a known_hosts in $TMP: an "ssh" wrapper first on
# the PATH adds that file (and logs the words gpuwiz gave ssh); gpuwiz
# still checks host keys (StrictHostKeyChecking=yes).
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cli/sshd.sh"
. "$(dirname "$0")/../cli/vcsim.sh"
# the welcome screen as a user sees it, with the sample hosts under the
# routes (the route's sentence then has two rows); every text clipped
# without the sign is named in the audit file, which must stay empty
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
export GPUWIZ_UI_AUDIT="$TMP/audit"
: >"$GPUWIZ_UI_AUDIT"
unset SSH_AUTH_SOCK


# in_box TEXT: TEXT (blanks left out) inside a box's frame: between the
# first and the last vertical line of each row, so that the screen under
# the box does not join in
in_box() {
	screen
	sed -n 's/^[^│]*│\(.*\)│.*$/\1/p' "$SCREEN" | tr -d ' \n' |
		grep -qF -- "$(printf '%s' "$1" | tr -d ' ')"
}
# wait_box TEXT [seconds]: until in_box TEXT (lib.sh's wait_fn)
wait_box() { wait_fn in_box "$@"; }
# capture NAME: keep the screen for the report
capture() { screen; mkdir -p "${GW_CAPTURES:-$TMP/captures}"; cp "$SCREEN" "${GW_CAPTURES:-$TMP/captures}/$1.txt"; }

# silent_host LANG: the box to a port that accepts and never speaks: the
# progress box says what is being done while ssh waits (its
# ConnectTimeout, 20 s), then the box comes back with ssh's timeout in
# its line; Esc leaves the wizard unconnected.
silent_host() {
	l=${1%%.*}
	python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
conns = []
while True:
    c, _ = s.accept(); conns.append(c)' >"$TMP/silent.port" 2>/dev/null &
	silent_pid=$!
	at_exit "kill $silent_pid 2>/dev/null"
	i=0; while [ ! -s "$TMP/silent.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	sport=$(cat "$TMP/silent.port")
	start "$1" 80x24
	wait_for "$(st WELCOME)" >/dev/null
	to_row "$(tr_ "$1" "Not connected yet: Enter asks for the ESXi host (user@host; port and identity file optional) and connects over SSH with your ssh keys.")" >/dev/null
	keys Enter
	wait_for "$(tr_ "$1" "User@host")" >/dev/null
	typ "$SSH_TARGET"; keys Tab; typ "$sport"; keys Tab; typ "$SSH_KEY"
	keys Enter
	check "$l ssh silent host: a progress box while ssh connects" \
		wait_box "$(tr_ "$1" "Connecting to %s over SSH..." | sed "s|%s|$SSH_TARGET|")" 10
	capture "ssh-progress-$l"
	check "$l ssh silent host: then the box with ssh's timeout" \
		wait_box "ssh $SSH_TARGET" 40
	check "$l ssh silent host: ... in ssh's words" in_box "timed out"
	capture "ssh-timeout-$l"
	kill "$silent_pid" 2>/dev/null; wait "$silent_pid" 2>/dev/null
	keys Escape
	screen
	# the (*) is on the focused row; the route still says it is not
	# connected (its text under the menu), and the wizard stays here
	check "$l ssh silent host: not connected, the route not chosen" on_screen \
		"$(tr_ "$1" "Not connected yet: Enter asks for the ESXi host (user@host; port and identity file optional) and connects over SSH with your ssh keys." | sed -e "s/:.*//" -e "s/：.*//")"
	keys q; keys y; exited >/dev/null
}

# ---- 1. SSH ------------------------------------------------------------
ssh_part() {
	sshd_start "$SRC"
	ssh_wrapper
	sshd_datastore itachi_lab
	for lang in $langs; do
		l=${lang%%.*}
		: >"$TMP/ssh-words.log"
		start "$lang" 80x24
		check "$l ssh: welcome" wait_for "$(st WELCOME)"
		if to_row "$(tr_ "$lang" "Not connected yet: Enter asks for the ESXi host (user@host; port and identity file optional) and connects over SSH with your ssh keys.")"; then
			ok "$l ssh: the route's row says Enter connects"
		else
			nok "$l ssh: the route's row says Enter connects"
			keys q; keys y; exited >/dev/null; continue
		fi
		keys Enter
		check "$l ssh: the box asks for user@host" wait_for "$(tr_ "$lang" "User@host")"
		check "$l ssh: ... the port and the identity file" sh -c \
			"grep -qF '$(tr_ "$lang" "Port")' '$SCREEN' && grep -qF '$(tr_ "$lang" "Identity file")' '$SCREEN'"
		capture "ssh-box-$l"
		# a host where nothing answers: 127.0.0.2 (the sshd listens on
		# 127.0.0.1 only)
		typ "$(id -un)@127.0.0.2"; keys Tab; typ "$SSH_PORT"; keys Tab; typ "$SSH_KEY"
		keys Enter
		check "$l ssh wrong host: one line naming ssh, the host and what failed" \
			wait_joined "ssh $(id -un)@127.0.0.2" 30
		check "$l ssh wrong host: ... ssh's own words: connection refused" \
			in_box "connect to host 127.0.0.2 port $SSH_PORT: Connection refused"
		check "$l ssh wrong host: the box again" on_screen "$(tr_ "$lang" "User@host")"
		check "$l ssh wrong host: not connected, still the welcome step" on_screen "$(st WELCOME)"
		capture "ssh-wrong-host-$l"
		# the right host: the field emptied (Ctrl-U), the test sshd's
		keys Up; keys Up; keys End; keys C-u
		typ "$SSH_TARGET"
		keys Enter
		check "$l ssh: the host step with the host's rows" wait_for "$(st HOST)" 30
		check "$l ssh: the heading names the host" wait_joined "$SSH_TARGET"
		check "$l ssh: the stand-in host's GPU rows" on_screen "0000:3b:00.0"
		check "$l ssh: ... read with esxcli over ssh" grep -q 'esxcli' "$SSH_STANDINS/standin.log"
		check "$l ssh: ssh got the port and the identity file typed" \
			grep -q -- "-p $SSH_PORT -i $SSH_KEY" "$TMP/ssh-words.log"
		check "$l ssh: gpuwiz checks host keys" grep -q "StrictHostKeyChecking=yes" "$TMP/ssh-words.log"
		capture "ssh-host-step-$l"
		keys Escape
		check "$l ssh: back on the welcome screen, the route chosen" \
			wait_for "(*) $(tr_ "$lang" "An ESXi host over SSH")"
		keys q; keys y
		check "$l ssh: exits" exited
		check "$l ssh: terminal sane" terminal_sane
		check "$l ssh: no control socket left" sh -c "! ls -d '$TMPDIR'/gpuwiz-ssh.* 2>/dev/null"
	done
	silent_host C.UTF-8
	sshd_stop
}

# ---- 2. the API ---------------------------------------------------------
api_part() {
	pw='pw-typed-in-the-box'
	vcsim_start -model esx -vms 2 -on 0 -user gw -pass "$pw" || { nok "vcsim starts"; return; }
	# the model's side first: untrusted, pinned, the address kept
	TWC=$(dirname "$GPUWIZ")/../tests/unit/wizard/test_wizard_connect
	if [ -x "$TWC" ]; then
		run env GW_VCSIM_URL="$VC_URL" GW_VCSIM_THUMB="$VC_THUMB" \
			GW_VCSIM_USER=gw GW_VCSIM_PASS="$pw" "$TWC"
		if [ "$rc" -eq 0 ] && grep -q 'OK \] test_api_live' "$out"; then
			ok "api model: untrusted with vcsim's fingerprint, then pinned; address without the password"
		else nok "api model against vcsim" "$(cat "$out" "$err")"; fi
	fi
	for lang in $langs; do
		l=${lang%%.*}
		start "$lang" 80x24
		check "$l api: welcome" wait_for "$(st WELCOME)"
		if to_row "$(tr_ "$lang" "Not connected yet: Enter asks for the URL, user and password and connects; an untrusted certificate is shown for you to accept or refuse.")"; then
			ok "$l api: the route's row says Enter connects"
		else
			nok "$l api: the route's row says Enter connects"
			keys q; keys y; exited >/dev/null; continue
		fi
		keys Enter
		check "$l api: the box asks for the URL" wait_for "$(tr_ "$lang" "URL")"
		typ "$VC_URL"; keys Tab; typ gw; keys Tab; typ "$pw"
		screen
		check "$l api: the password is not on the screen" sh -c "! grep -qF '$pw' '$SCREEN'"
		check "$l api: ... nor any part of it" sh -c "! grep -qF 'pw-typed' '$SCREEN'"
		capture "api-box-$l"
		keys Enter
		# the simulator's certificate is self-signed: its fingerprint,
		# in two rows of 16 bytes
		fp1=$(printf '%s' "$VC_THUMB" | cut -c1-47); fp2=$(printf '%s' "$VC_THUMB" | cut -c49-)
		check "$l api: the certificate's fingerprint is shown" wait_for "$fp1" 20
		check "$l api: ... whole" on_screen "$fp2"
		check "$l api: the question, default No" on_joined "[ $(tr_ "$lang" "No") ]"
		capture "api-trust-$l"
		# No (Enter on the default): not connected
		keys Enter
		check "$l api no: the box again, saying so" wait_box "$(tr_ "$lang" "Not connected: you did not trust the certificate of %s." | sed "s|%s|$VC_URL|")"
		check "$l api no: still the welcome step" on_screen "$(st WELCOME)"
		check "$l api no: the password not shown" sh -c "! grep -qF '$pw' '$SCREEN'"
		capture "api-refused-$l"
		keys Escape
		screen
		check "$l api no: the route is not chosen" on_screen \
			"$(tr_ "$lang" "Not connected yet: Enter asks for the URL, user and password and connects; an untrusted certificate is shown for you to accept or refuse." | sed -e "s/:.*//" -e "s/：.*//")"
		logins=$(vcsim_requests Login)
		# again, and Yes this time (a route never connected starts
		# with an empty box)
		keys Enter
		wait_for "$(tr_ "$lang" "URL")" >/dev/null
		typ "$VC_URL"; keys Tab; typ gw; keys Tab; typ "$pw"
		keys Enter
		wait_for "$fp1" 20 >/dev/null
		keys y
		check "$l api yes: the host step with the server's rows" wait_for "$(st HOST)" 30
		check "$l api yes: the heading names the server" wait_joined "$VC_URL"
		check "$l api yes: the server's GPU rows" on_screen "0000:3b:00.0"
		check "$l api yes: one login more, after the pin" \
			[ "$(vcsim_requests Login)" -eq $((logins + 1)) ]
		check "$l api yes: the password never on the screen" sh -c "! grep -qF '$pw' '$SCREEN'"
		capture "api-host-step-$l"
		keys q; keys y
		check "$l api: exits" exited
		check "$l api: terminal sane" terminal_sane
		check "$l api: the password is nowhere in the scrollback" sh -c \
			"! $T capture-pane -p -S - -t w | grep -qF '$pw'"
	done
	# the API box's walk under valgrind memcheck (the secret field, the
	# refused then pinned TLS, the attach): no error, no leak
	if valgrind_wrap; then
		start C.UTF-8 80x24
		wait_for "$(st WELCOME)" 60 >/dev/null
		to_row "$(tr_ C.UTF-8 "Not connected yet: Enter asks for the URL, user and password and connects; an untrusted certificate is shown for you to accept or refuse.")" >/dev/null
		keys Enter
		wait_for "URL" 30 >/dev/null
		typ "$VC_URL"; keys Tab; typ gw; keys Tab; typ "$pw"
		keys Enter
		wait_for "$fp1" 60 >/dev/null
		keys n
		wait_box "Not connected" 30 >/dev/null
		keys Enter
		wait_for "$fp1" 60 >/dev/null
		keys y
		check "valgrind api: the host step" wait_for "$(st HOST)" 90
		keys q; keys y
		check "valgrind api: exited" exited 60
		valgrind_clean "valgrind api"
	fi
	vcsim_stop
}

ssh_api_parts
check "no text cut without its sign (GPUWIZ_UI_AUDIT)" [ ! -s "$GPUWIZ_UI_AUDIT" ]
[ -s "$GPUWIZ_UI_AUDIT" ] && sed 's/^/   /' "$GPUWIZ_UI_AUDIT" | head -20
finish
