#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_leaks.sh: the test libraries' leak check (doc/design.md, section 13).  A test that
# leaves a process running (a sleep, a tmux server and its pane) or a
# sample host's scratch copy fails with a "not ok - leak" line, and what
# it left is stopped; a clean one passes.  Also: an sshd started through
# sshd.sh and a tmux server through tests/e2e/lib.sh are both stopped,
# the EXIT clean-ups chained, not replaced.
. "$(dirname "$0")/lib.sh"
LIB=$(cd "$(dirname "$0")" && pwd)
cat >"$TMP/leaky.sh" <<EOS
. "$LIB/lib.sh"
case \${1:-} in
sleep) sleep 600 & ;;
scratch) mkdir "\$TMPDIR/gpuwiz-sample.abcdef" ;;
tmux) command -v tmux >/dev/null || exit 77
	tmux -L leak\$\$ -f /dev/null new-session -d -s w sleep 600 ;;
esac
ok "a check"
finish
EOS
leaky() { # MODE: runs it, sets $rc and $out
	out=$TMP/leaky.out
	sh "$TMP/leaky.sh" "$1" >"$out" 2>&1
	rc=$?
}
# (the leaked processes outlive the leak check, which waits up to 40
# rounds of its process scan for a killed server: under a loaded suite
# with many processes a round takes most of a second, so a 30-second
# sleep could end by itself and its leak go unseen)
# the machine's tmux directory (/tmp by default) as the test sees it: a
# test's tmux servers have their sockets in its own $TMP instead
mkdir "$TMP/machine"; export TMUX_TMPDIR="$TMP/machine"
leaky none
check "clean: passes" [ "$rc" -eq 0 ]
check "clean: no leak line" sh -c "! grep -q 'not ok - leak' '$out'"
for m in sleep scratch tmux; do
	leaky $m
	[ "$rc" -eq 77 ] && { echo "SKIP: $m"; continue; }
	check "$m left: the test fails" [ "$rc" -ne 0 ]
	check "$m left: said so" grep -q 'not ok - leak' "$out"
done
# (killed: gone within a moment)
gone() {
	i=0
	while pgrep -f 'tmux -L leak[0-9]* -f /dev/null' >/dev/null ||
		pgrep -x -f 'sleep 600' -u "$(id -u)" -P 1 >/dev/null; do
		i=$((i + 1)); [ $i -lt 40 ] || return 1; sleep 0.05
	done
}
check "what was left is stopped" gone

# the e2e library's tmux server and sshd.sh's server, in one test: both
# stopped at exit (sshd.sh once replaced the e2e library's EXIT trap)
. "$LIB/sshd.sh"
if command -v tmux >/dev/null 2>&1 && sshd_usable; then
	cat >"$TMP/both.sh" <<EOS
. "$LIB/lib.sh"
. "$LIB/../e2e/lib.sh"
. "$LIB/sshd.sh"
sshd_start "$LIB/../.."
start C.UTF-8 80x24 --version
finish
EOS
	sh "$TMP/both.sh" >"$TMP/both.out" 2>&1
	both=$?
	check "tmux and sshd in one test: no leak" sh -c "[ $both -eq 0 ] && ! grep -q 'not ok' '$TMP/both.out'" ||
		sed 's/^/   /' "$TMP/both.out"
else
	echo "SKIP: tmux or sshd missing"
fi
check "no tmux socket left in the machine's tmux directory" sh -c \
	"! ls -A '$TMP/machine/tmux-$(id -u)' 2>/dev/null | grep -q ."
finish
