#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen test of Ctrl-\ (SIGQUIT, doc/design.md, section 10): it ends the wizard like
# Ctrl-C, SIGTERM and SIGHUP do, with 128 + the signal (131), and the
# terminal is given back: the normal screen (not the alternate one curses
# drew on), a visible cursor and the stty settings of before.  On the
# first screen and in a text field, C.UTF-8 and zh_CN.UTF-8 at 80x24.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

quit_checks() { # WHERE
	check "$1: Ctrl-\\ ends the wizard" exited
	check "$1: exit 131 (128 + SIGQUIT)" [ "${exit_status:-x}" = 131 ]
	check "$1: the normal screen is back" alt_screen_off
	check "$1: the cursor is visible" cursor_shown
	check "$1: terminal restored" terminal_sane
	check "$1: the shell goes on" on_screen GPUWIZ-EXITED
}

for lang in $langs; do
	start $lang 80x24
	wait_for "$(st WELCOME)" >/dev/null
	keys 'C-\'
	quit_checks "$lang: welcome"

	# the VM step's path field (a text field: keys go to it)
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	printf '[gpu]\ndevices = l40s=1\n[output]\ndir = out\nformats = vmx\n' >"$TMP/run/a.ini"
	start $lang 80x24 --answers a.ini
	wait_for "$(st WELCOME)" >/dev/null
	enters WELCOME VM
	wait_for "$(st VM)" >/dev/null
	typ abc
	keys 'C-\'
	quit_checks "$lang: text field"
	check "$lang: nothing written" [ ! -e "$TMP/run/out" ]
done

finish
