#!/bin/sh
# test_ssh.sh: the ssh runner (src/runner.c) against a throwaway sshd on
# 127.0.0.1, running test_runner's tests through ssh with the esxcli /
# vim-cmd stand-ins.  Skipped (77) when sshd or ssh-keygen is missing.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TR=${GW_TEST_RUNNER_BIN:-$(dirname "$GPUWIZ")/../tests/unit/test_runner}
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || { echo "SKIP: $SSHD not installed"; exit 77; }
command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 ||
	{ echo "SKIP: ssh or ssh-keygen missing"; exit 77; }
if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
	echo "SKIP: sshd as root needs /run/sshd (made when the service starts)"; exit 77
fi
[ -x "$TR" ] || { echo "SKIP: $TR not built"; exit 77; }

ssh-keygen -q -t ed25519 -N '' -f "$TMP/hostkey" || exit 99
ssh-keygen -q -t ed25519 -N '' -f "$TMP/userkey" || exit 99
cp "$TMP/userkey.pub" "$TMP/authorized_keys"
chmod 600 "$TMP/authorized_keys"
mkdir -p "$TMP/standins"
cp "$SRC/tests/esxi-standins/esxcli" "$SRC/tests/esxi-standins/vim-cmd" \
	"$TMP/standins/"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null) ||
	PORT=$((20000 + $$ % 20000))
cat >"$TMP/sshd_config" <<CFG
Port $PORT
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
trap 'kill "$SSHD_PID" 2>/dev/null; wait "$SSHD_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1-2 "$TMP/hostkey.pub")" >"$TMP/known_hosts"
i=0
while ! ssh -F /dev/null -p "$PORT" -i "$TMP/userkey" -o IdentitiesOnly=yes \
	-o BatchMode=yes -o StrictHostKeyChecking=yes \
	-o UserKnownHostsFile="$TMP/known_hosts" "$(id -un)@127.0.0.1" true \
	2>"$TMP/ssh.err"; do
	i=$((i + 1))
	if [ "$i" -ge 50 ]; then
		nok "sshd answers" "$(cat "$TMP/ssh.err" "$TMP/sshd.log")"
		finish; exit
	fi
	sleep 0.1
done
ok "sshd answers on 127.0.0.1:$PORT"

run env GW_SSH_TEST_HOST="$(id -un)@127.0.0.1" GW_SSH_TEST_PORT="$PORT" \
	GW_SSH_TEST_KEY="$TMP/userkey" GW_SSH_TEST_KNOWN_HOSTS="$TMP/known_hosts" \
	GW_SSH_TEST_STANDINS="$TMP/standins" TMPDIR="$TMP" "$TR"
if [ "$rc" -eq 0 ]; then ok "test_runner over ssh"; else
	nok "test_runner over ssh" "$(cat "$out" "$err")"; fi
check "no control socket left" sh -c "! ls -d '$TMP'/gpuwiz-ssh.* 2>/dev/null"
finish
