#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of an answers file's connected host (doc/design.md, section
# 9, "The routes that connect"), at 80x24 in C.UTF-8 and zh_CN.UTF-8:
#  1. SSH, against a throwaway sshd on 127.0.0.1 (tests/cli/sshd.sh, the
#     esxcli / vim-cmd stand-ins): connected from the box with a port and
#     an identity file, the second VM (itachi_backupTest) opened, the
#     answers saved on quitting: [host] kind = ssh with USER@HOST:PORT and
#     the identity; `gpuwiz --answers FILE` connects with them (keys only)
#     and opens the same VM.
#  2. The API, against vcsim (tests/vcsim): connected from the box, the
#     self-signed certificate trusted, VM1 opened, saved: [host] kind =
#     api with the URL, the user and the certificate's SHA-256 as
#     thumbprint, never the password; `gpuwiz --answers FILE` opens the
#     API's box with the URL and user filled in, asks only the password,
#     connects pinned to the saved fingerprint (no question) and opens
#     VM1.  A file whose thumbprint is another's: one line in the box.
# Each part is skipped when sshd or vcsim cannot run here; the script
# exits 77 when neither can.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../cli/sshd.sh"
. "$(dirname "$0")/../cli/vcsim.sh"
unset SSH_AUTH_SOCK


# quit_save LANG: q, s (Save, then quit), Enter on the file's name
quit_save() {
	keys q
	wait_for "$(tr_ "$1" "Save, then quit")" >/dev/null
	keys s
	wait_for "gpuwiz-answers.ini" >/dev/null
	keys Enter
}

# ---- 1. SSH ------------------------------------------------------------
ssh_part() {
	sshd_start "$SRC"
	ssh_wrapper
	sshd_datastore itachi_lab itachi_backupTest
	for lang in $langs; do
		l=${lang%%.*}
		rm -rf "$TMP/run"; mkdir -p "$TMP/run"
		start "$lang" 80x24
		wait_for "$(st WELCOME)" >/dev/null
		to_row "$(tr_ "$lang" "Not connected yet: Enter asks for the ESXi host (user@host; port and identity file optional) and connects over SSH with your ssh keys.")" >/dev/null
		keys Enter
		wait_for "$(tr_ "$lang" "User@host")" >/dev/null
		typ "$SSH_TARGET"; keys Tab; typ "$SSH_PORT"; keys Tab; typ "$SSH_KEY"
		keys Enter
		check "$l ssh save: connected, the host step" wait_for "$(st HOST)" 30
		keys Enter
		check "$l ssh save: GPU step" wait_for "$(st GPU)"
		keys Space
		keys Enter
		check "$l ssh save: VM step" wait_for "$(st VM)"
		check "$l ssh save: the host's VMs" wait_for "itachi_backupTest"
		# Space opens the marked VM and stays (Enter would go on)
		keys Down; keys Down; keys Space
		check "$l ssh save: itachi_backupTest (Vmid 12) opens" wait_for "Vmid 12" 20
		quit_save "$lang"
		check "$l ssh save: saved, then quits" exited
		A=$TMP/run/gpuwiz-answers.ini
		check "$l ssh save: [host] kind = ssh" grep -q '^kind = ssh$' "$A"
		check "$l ssh save: the address with its port" grep -q "^address = $SSH_TARGET:$SSH_PORT\$" "$A"
		check "$l ssh save: the identity file" grep -q "^identity = $SSH_KEY\$" "$A"
		check "$l ssh save: the VM" grep -q '^name = itachi_backupTest$' "$A"
		cp "$A" "$TMP/ssh-$l.ini"

		: >"$TMP/ssh-words.log"
		start "$lang" 80x24 --answers gpuwiz-answers.ini
		check "$l ssh replay: connected at the start" wait_for "$(st WELCOME)" 30
		check "$l ssh replay: the SSH route chosen" \
			wait_for "(*) $(tr_ "$lang" "An ESXi host over SSH")"
		check "$l ssh replay: ssh got the saved port and identity" \
			grep -q -- "-p $SSH_PORT -i $SSH_KEY" "$TMP/ssh-words.log"
		check "$l ssh replay: keys only (BatchMode)" grep -q "BatchMode=yes" "$TMP/ssh-words.log"
		keys Enter; wait_for "$(st HOST)" >/dev/null
		keys Enter; wait_for "$(st GPU)" >/dev/null
		keys Enter
		check "$l ssh replay: the saved VM is open, not the first" wait_for "Vmid 12" 20
		screen; cp "$SCREEN" "$TMP/ssh-replay-$l.txt"
		keys q; keys y
		check "$l ssh replay: exits" exited
		check "$l ssh replay: terminal sane" terminal_sane
	done
	# a host that does not answer: one line, the wizard usable
	sed "s|^address = .*|address = $(id -un)@127.0.0.2:$SSH_PORT|" "$TMP/ssh-C.ini" >"$TMP/run/bad.ini"
	start C.UTF-8 80x24 --answers bad.ini
	check "ssh replay, no host: the welcome screen" wait_for "$(st WELCOME)" 30
	check "ssh replay, no host: one line naming the file, ssh and the host" \
		wait_joined "bad.ini:[host]address:ssh$(id -un)@127.0.0.2"
	keys q; keys y
	check "ssh replay, no host: exits" exited
	sshd_stop
}

# ---- 2. the API ---------------------------------------------------------
api_part() {
	pw='pw-typed-in-the-box'
	vcsim_start -model esx -vms 2 -on 0 -user gw -pass "$pw" || { nok "vcsim starts"; return; }
	fp1=$(printf '%s' "$VC_THUMB" | cut -c1-47)
	for lang in $langs; do
		l=${lang%%.*}
		rm -rf "$TMP/run"; mkdir -p "$TMP/run"
		start "$lang" 80x24
		wait_for "$(st WELCOME)" >/dev/null
		to_row "$(tr_ "$lang" "Not connected yet: Enter asks for the URL, user and password and connects; an untrusted certificate is shown for you to accept or refuse.")" >/dev/null
		keys Enter
		wait_for "$(tr_ "$lang" "URL")" >/dev/null
		typ "$VC_URL"; keys Tab; typ gw; keys Tab; typ "$pw"
		keys Enter
		wait_for "$fp1" 20 >/dev/null
		keys y
		check "$l api save: connected, the host step" wait_for "$(st HOST)" 30
		keys Enter; wait_for "$(st GPU)" >/dev/null
		keys Space
		keys Enter
		check "$l api save: VM step" wait_for "$(st VM)"
		check "$l api save: the server's VMs" wait_for "VM1" 20
		# past "No VM" and VM0 to VM1, the second VM
		keys Home; keys Down; keys Down; keys Space
		# "VM1: powered off" under the list once VM1 is open
		vm1=$(tr_ "$lang" "%s: %s" | sed 's/%s/VM1/; s/%s$//')
		check "$l api save: VM1 opens" wait_for "$vm1" 20
		quit_save "$lang"
		check "$l api save: saved, then quits" exited
		A=$TMP/run/gpuwiz-answers.ini
		check "$l api save: [host] kind = api" grep -q '^kind = api$' "$A"
		check "$l api save: the URL" grep -q "^address = $VC_URL\$" "$A"
		check "$l api save: the user" grep -q '^user = gw$' "$A"
		check "$l api save: the certificate's fingerprint" grep -q "^thumbprint = $VC_THUMB\$" "$A"
		check "$l api save: never the password" sh -c "! grep -qF '$pw' '$A'"
		check "$l api save: the VM" grep -q '^name = VM1$' "$A"

		logins=$(vcsim_requests Login)
		start "$lang" 80x24 --answers gpuwiz-answers.ini
		check "$l api replay: the API's box opens" wait_for "$(tr_ "$lang" "vCenter or ESXi through the API")" 20
		check "$l api replay: the URL filled in" on_screen "$VC_URL"
		typ "$pw"
		screen
		check "$l api replay: the password not on the screen" sh -c "! grep -qF '$pw' '$SCREEN'"
		keys Enter
		check "$l api replay: connected pinned, no question" wait_for "(*) $(tr_ "$lang" "vCenter or ESXi through the API")" 30
		check "$l api replay: ... the fingerprint never asked about" sh -c "! grep -qF '$fp1' '$SCREEN'"
		check "$l api replay: one login" [ "$(vcsim_requests Login)" -eq $((logins + 1)) ]
		keys Enter; wait_for "$(st HOST)" >/dev/null
		keys Enter; wait_for "$(st GPU)" >/dev/null
		keys Enter
		check "$l api replay: the saved VM, not the first, is open" wait_for "$vm1" 20
		screen; cp "$SCREEN" "$TMP/api-replay-$l.txt"
		keys q; keys y
		check "$l api replay: exits" exited
		cp "$A" "$TMP/api-$l.ini"
	done
	# another server's fingerprint: refused in the box, one line
	sed 's/^thumbprint = ../thumbprint = 00/' "$TMP/api-C.ini" >"$TMP/run/other.ini"
	start C.UTF-8 80x24 --answers other.ini
	wait_for "$VC_URL" 20 >/dev/null
	typ "$pw"; keys Enter
	other=$(sed -n 's/^thumbprint = //p' "$TMP/run/other.ini" | cut -c1-20)
	check "api replay, another fingerprint: refused, the box names the one expected" wait_joined "$other" 20
	check "api replay, another fingerprint: not connected" on_screen "$(tr_ C.UTF-8 "URL")"
	keys Escape
	keys q; keys y
	check "api replay, another fingerprint: exits" exited
	vcsim_stop
}

ssh_api_parts
finish
