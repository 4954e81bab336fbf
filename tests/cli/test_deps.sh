#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_deps.sh: tests/deps.sh's install starts and enables no service
# (tests/no-service.sh).  Run against a scratch root with stand-ins for
# dpkg-query, dpkg, deb-systemd-helper and update-rc.d that log their
# calls, and an "install" that runs policy-rc.d as invoke-rc.d does.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
ROOT=$TMP/root
BIN=$TMP/bin
mkdir -p "$ROOT/usr/sbin" "$BIN"
# the stand-ins: $TMP/installed lists the installed packages
cat >"$BIN/dpkg-query" <<EOS
#!/bin/sh
p=\$(eval echo "\\\${\$#}")
grep -qx "\$p" "$TMP/installed" && echo "install ok installed" && exit 0
echo "dpkg-query: no packages found matching \$p" >&2; exit 1
EOS
cat >"$BIN/dpkg" <<'EOS'
#!/bin/sh
[ "$1" = -L ] || exit 2
case $2 in
openssh-server) printf '%s\n' /etc/init.d/ssh /lib/systemd/system/rescue-ssh.target \
	/lib/systemd/system/ssh.service /lib/systemd/system/ssh.socket /usr/sbin/sshd ;;
tmux) printf '%s\n' /usr/bin/tmux ;;
esac
EOS
for c in deb-systemd-helper update-rc.d; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$c" "$TMP" >"$BIN/$c"
done
chmod +x "$BIN"/*
export PATH="$BIN:$PATH" NOSVC_ROOT="$ROOT"
POLICY=$ROOT/usr/sbin/policy-rc.d

# an install of PKG... in a child shell as tests/deps.sh runs it (set -e);
# FAIL=1: apt-get fails.  $TMP/policy: policy-rc.d's answer meanwhile
install() {
	: >"$TMP/calls"
	rm -f "$TMP/policy"
	(
		set -e
		. "$SRC/tests/no-service.sh"
		nosvc_begin "$@"
		prc=none
		[ ! -x "$POLICY" ] || { prc=0; "$POLICY" ssh start || prc=$?; }
		echo "$prc" >"$TMP/policy"
		[ "${FAIL:-0}" = 0 ] || false
		printf '%s\n' "$@" >>"$TMP/installed"
		nosvc_end
	) >"$TMP/out" 2>&1
	rc=$?
}
calls() { cat "$TMP/calls"; }

# no policy-rc.d before: 101 meanwhile, none after
echo tmux >"$TMP/installed"
install openssh-server tmux
check "install: exit 0" [ "$rc" -eq 0 ]
check "during the install policy-rc.d answers 101" [ "$(cat "$TMP/policy")" = 101 ]
check "after it there is no policy-rc.d again" [ ! -e "$POLICY" ]
check "a newly installed package's systemd units are disabled" sh -c \
	"grep -qx 'deb-systemd-helper disable ssh.service' '$TMP/calls' && grep -qx 'deb-systemd-helper disable ssh.socket' '$TMP/calls'"
check "and its init script" grep -qx 'update-rc.d ssh disable' "$TMP/calls"
check "nothing else is touched" [ "$(wc -l <"$TMP/calls")" -eq 3 ]

# installed before: its state is the admin's; the machine's policy-rc.d
# (Docker's) back, byte for byte and mode
printf '#!/bin/sh\nexit 0\n' >"$POLICY"; chmod 750 "$POLICY"
cp -p "$POLICY" "$TMP/policy.orig"
install openssh-server tmux
check "again: exit 0" [ "$rc" -eq 0 ]
check "again: policy-rc.d answers 101 meanwhile" [ "$(cat "$TMP/policy")" = 101 ]
check "the machine's own policy-rc.d is back" cmp -s "$POLICY" "$TMP/policy.orig"
check "with its mode" [ "$(stat -c %a "$POLICY")" = 750 ]
check "a package installed before keeps its services" [ ! -s "$TMP/calls" ]
check "nothing set aside is left" sh -c "[ -z \"\$(ls -A '$ROOT/usr/sbin' | grep -vx policy-rc.d)\" ]"

# apt-get fails: the policy is restored all the same, the failure stays
sed -i '/^openssh-server$/d' "$TMP/installed"
FAIL=1 install openssh-server
check "a failed install: its status stays" [ "$rc" -ne 0 ]
check "a failed install: the machine's policy-rc.d is back" cmp -s "$POLICY" "$TMP/policy.orig"
check "a failed install: nothing installed, nothing disabled" [ ! -s "$TMP/calls" ]

# killed (SIGTERM) during the install: restored too
rm -f "$POLICY"
(
	. "$SRC/tests/no-service.sh"
	nosvc_begin openssh-server
	[ -x "$POLICY" ] && touch "$TMP/was-there"
	sh -c 'kill -TERM $PPID'
	sleep 5
) >/dev/null 2>&1
rc=$?
check "killed: it was in place, the run ended by the signal" sh -c "[ -e '$TMP/was-there' ] && [ $rc -eq 143 ]"
check "killed: no policy-rc.d left behind" [ ! -e "$POLICY" ]

# tests/deps.sh installs through it, openssh-server among the packages
check "tests/deps.sh: no service of the install" sh -c \
	"grep -q '^\\. \"\$(dirname \"\$0\")/no-service.sh\"\$' '$SRC/tests/deps.sh' &&
	 sed -n '/^nosvc_begin/,/^nosvc_end\$/p' '$SRC/tests/deps.sh' | grep -q openssh-server &&
	 grep -q '^nosvc_begin openssh-server' '$SRC/tests/deps.sh'"
finish
