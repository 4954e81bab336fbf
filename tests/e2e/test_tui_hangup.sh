#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The terminal goes away without a SIGHUP: the wizard runs on a pty that
# is not its controlling terminal (so closing the other side sends no
# signal), the other side is closed, and get_wch fails at once, again and
# again.  The wizard must end as on SIGHUP (exit 129) instead of spinning
# on the dead terminal for ever.  A python pty; no tmux needed.
. "$(dirname "$0")/../cli/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
export GPUWIZ_SYSROOT="$TMP/no-such-root"

hangup() { # LANG: prints the exit status, or "spinning" after 10 s
	python3 - "$GPUWIZ" "$1" <<'PY'
import os, select, subprocess, sys, time
m, s = os.openpty()
env = dict(os.environ, TERM="xterm", LANG=sys.argv[2], LC_ALL=sys.argv[2],
           COLUMNS="80", LINES="24")
import fcntl, struct, termios
fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
# start_new_session: a session with no controlling terminal, and the
# pty is never made one, so closing m sends no SIGHUP
p = subprocess.Popen([sys.argv[1]], stdin=s, stdout=s, stderr=s, env=env,
                     start_new_session=True)
os.close(s)
seen, t0 = b"", time.time()
while b"$(st WELCOME)" not in seen and time.time() - t0 < 20:
    r, _, _ = select.select([m], [], [], 0.5)
    if r:
        try:
            seen += os.read(m, 65536)
        except OSError:
            break
os.close(m)
try:
    print(p.wait(timeout=10))
except subprocess.TimeoutExpired:
    p.kill(); p.wait()
    print("spinning")
PY
}

langs=C.UTF-8
locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' && [ -n "${GPUWIZ_LOCALEDIR:-}" ] &&
	langs="C.UTF-8 zh_CN.UTF-8"
for lang in $langs; do
	rc=$(hangup "$lang")
	check "$lang: the terminal hung up without SIGHUP: exit 129, no busy loop (got $rc)" \
		[ "$rc" = 129 ]
done
finish
