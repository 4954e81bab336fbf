# SPDX-License-Identifier: GPL-3.0-or-later
# sshd.sh: a throwaway OpenSSH server on 127.0.0.1 for the SSH route's
# tests (sourced after lib.sh, which sets $TMP and the ok/nok helpers).
#
#   sshd_start      skips the script (exit 77) when sshd/ssh/ssh-keygen are
#                   missing; otherwise makes a host key and a user key in
#                   $TMP, starts sshd -D on a free port of 127.0.0.1 (only
#                   that key may log in, as the current user), waits until
#                   a login works, and sets:
#     SSH_PORT SSH_KEY SSH_KNOWN (a known_hosts holding the host key)
#     SSH_TARGET (user@127.0.0.1)  SSH_STANDINS ($TMP/standins: copies of
#     the esxcli / vim-cmd stand-ins; their log is standin.log in it)
#     SSH_GW_OPTS (the gpuwiz options that reach it: --ssh ... --ssh-port
#     ... --ssh-identity ... --ssh-option ...)
#   The server is stopped when the script exits (or by sshd_stop).
#   sshd_usable     0 when sshd_start can run here, else 1 with the reason
#                   in $SSHD_WHY (for a test that leaves out its SSH part)
#   sshd_stop       stops the server now
#   sshd_datastore VM...   a datastore for the stand-ins: VOL=$TMP/volumes
#                   with datastore1/VM/VM.vmx (a copy of a real .vmx
#                   sample) for each VM; exports GPUWIZ_ESXI_PATH and
#                   GPUWIZ_ESXI_VOLUMES, which the stand-ins read
SSHD=/usr/sbin/sshd

sshd_usable() {
	SSHD_WHY=
	if [ ! -x "$SSHD" ]; then
		SSHD_WHY="$SSHD not installed"
	elif ! command -v ssh >/dev/null 2>&1 || ! command -v ssh-keygen >/dev/null 2>&1; then
		SSHD_WHY="ssh or ssh-keygen missing"
	elif [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
		SSHD_WHY="sshd as root needs /run/sshd (made when the service starts)"
	fi
	[ -z "$SSHD_WHY" ]
}

sshd_stop() {
	[ -n "${SSHD_PID:-}" ] || return 0
	kill "$SSHD_PID" 2>/dev/null; wait "$SSHD_PID" 2>/dev/null
	SSHD_PID=
}

sshd_datastore() {
	VOL=$TMP/volumes
	for sd_vm in "$@"; do
		mkdir -p "$VOL/datastore1/$sd_vm"
		sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$VOL/datastore1/$sd_vm/$sd_vm.vmx"
	done
	export GPUWIZ_ESXI_PATH="$SSH_STANDINS" GPUWIZ_ESXI_VOLUMES="$VOL"
}

sshd_start() {
	src=$1
	sshd_usable || { echo "SKIP: $SSHD_WHY"; exit 77; }
	ssh-keygen -q -t ed25519 -N '' -f "$TMP/hostkey" || exit 99
	ssh-keygen -q -t ed25519 -N '' -f "$TMP/userkey" || exit 99
	cp "$TMP/userkey.pub" "$TMP/authorized_keys"
	chmod 600 "$TMP/authorized_keys"
	mkdir -p "$TMP/standins"
	cp "$src/tests/esxi-standins/esxcli" "$src/tests/esxi-standins/vim-cmd" \
		"$TMP/standins/"
	SSH_STANDINS=$TMP/standins
	SSH_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null) ||
		SSH_PORT=$((20000 + $$ % 20000))
	cat >"$TMP/sshd_config" <<CFG
Port $SSH_PORT
ListenAddress 127.0.0.1
HostKey $TMP/hostkey
AuthorizedKeysFile $TMP/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
UsePAM no
StrictModes no
PidFile $TMP/sshd.pid
PermitRootLogin yes
CFG
	"$SSHD" -f "$TMP/sshd_config" -D -e 2>"$TMP/sshd.log" &
	SSHD_PID=$!
	at_exit sshd_stop
	SSH_KNOWN=$TMP/known_hosts
	echo "[127.0.0.1]:$SSH_PORT $(cut -d' ' -f1-2 "$TMP/hostkey.pub")" >"$SSH_KNOWN"
	SSH_KEY=$TMP/userkey
	SSH_TARGET="$(id -un)@127.0.0.1"
	i=0
	while ! ssh -F /dev/null -p "$SSH_PORT" -i "$SSH_KEY" -o IdentitiesOnly=yes \
		-o BatchMode=yes -o StrictHostKeyChecking=yes \
		-o UserKnownHostsFile="$SSH_KNOWN" "$SSH_TARGET" true \
		2>"$TMP/ssh.err"; do
		i=$((i + 1))
		if [ "$i" -ge 50 ]; then
			nok "sshd answers" "$(cat "$TMP/ssh.err" "$TMP/sshd.log")"
			finish; exit
		fi
		sleep 0.1
	done
	ok "sshd answers on 127.0.0.1:$SSH_PORT"
	SSH_GW_OPTS="--ssh $SSH_TARGET --ssh-port $SSH_PORT --ssh-identity $SSH_KEY --ssh-option IdentitiesOnly=yes --ssh-option UserKnownHostsFile=$SSH_KNOWN --ssh-option GlobalKnownHostsFile=/dev/null"
}
