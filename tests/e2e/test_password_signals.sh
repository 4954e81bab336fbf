#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of the vSphere password prompt and the four signals that end
# it (doc/design.md, section 4.6): Ctrl-\ (SIGQUIT), Ctrl-C (SIGINT),
# SIGTERM and SIGHUP at "Password for USER at URL:" give the terminal back
# as it was (echo on: the stty settings of before), write no core file
# although the shell allows one, and exit with 128 + the signal.  The
# prompt comes before any connection, so no server is needed.  C.UTF-8
# and zh_CN.UTF-8 at 80x24.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

URL=https://127.0.0.1:9/sdk
# gpuwiz runs with core files allowed, in $TMP/run (core_pattern "core"
# writes them there)
cat >"$TMP/corewrap" <<'EOS'
#!/bin/sh
ulimit -c unlimited 2>/dev/null
exec "$@"
EOS
chmod +x "$TMP/corewrap"
GW_WRAP=$TMP/corewrap
# does a process killed by SIGQUIT leave a core file here?  (the pattern
# may be a pipe, or the limit fixed): else the core check is left out
mkdir -p "$TMP/cal"
sh -c 'cd "$1" && "$2" sh -c "kill -QUIT \$\$"; true' sh "$TMP/cal" "$TMP/corewrap" >/dev/null 2>&1
cores_here=0
ls "$TMP/cal"/core* >/dev/null 2>&1 && cores_here=1
rm -rf "$TMP/cal"
[ $cores_here = 1 ] || echo "# core files are not written in the current directory here (core_pattern $(cat /proc/sys/kernel/core_pattern 2>/dev/null)): the core check is left out"

no_core() { ! ls "$TMP/run"/core* >/dev/null 2>&1; }

# prompt_signal LANG HOW SIGNAL KEY STATUS: the prompt, then HOW (keys:
# tmux sends KEY; kill: kill -SIGNAL) ends gpuwiz
prompt_signal() {
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	start "$1" 80x24 vsphere --url "$URL" --user gw list
	if ! wait_for "$URL" >/dev/null; then
		nok "$1 $3: the prompt is shown" "$(cat "$SCREEN")"
		return
	fi
	typ 'half-typed'
	case $2 in
	keys) keys "$4" ;;
	kill) kill -s "$3" "$(gpuwiz_pid)" ;;
	esac
	check "$1 $3: gpuwiz ends" exited
	check "$1 $3: exit $5 (128 + $3)" [ "${exit_status:-x}" = "$5" ]
	check "$1 $3: the terminal's settings of before (echo on)" terminal_sane
	check "$1 $3: echo is on" grep -qE '(^|[ ;])echo([ ;]|$)' "$TMP/stty.after"
	check "$1 $3: what was typed is not on the screen" sh -c "! grep -qF half-typed '$SCREEN'"
	[ $cores_here = 0 ] || check "$1 $3: no core file" no_core
	check "$1 $3: the shell goes on" on_screen GPUWIZ-EXITED
}

for lang in $langs; do
	prompt_signal $lang keys QUIT 'C-\' 131
	prompt_signal $lang keys INT C-c 130
	prompt_signal $lang kill TERM - 143
	prompt_signal $lang kill HUP - 129
done

finish
