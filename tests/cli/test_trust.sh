#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_trust.sh: the program loads only what the installation trusts
# (doc/design.md, section 2.4).  A hostile vSphere module (its constructor
# leaves a mark), a hostile catalogue (translations with other printf
# conversions) and a hostile GPU table, each in a folder writable by
# others, owned by another user, or beside a copy of the program: the
# module's constructor never runs, the program does not crash and speaks
# English, the table is not read, with one warning line each.  Controls
# show each would have been used from a trusted place.
. "$(dirname "$0")/lib.sh"
need_vsphere
BUILD=$(cd "$(dirname "$GPUWIZ")/.." && pwd)
HOSTILE=$BUILD/tests/cli/fakemod-ctor/vsphere.so
MARKER=$BUILD/src/gpuwiz.build-tree
export GPUWIZ_PASSWORD=x
unset GPUWIZ_MODULE_DIR
export GW_CTOR_MARK="$TMP/ctor-ran"
[ -f "$HOSTILE" ] || { echo "SKIP: $HOSTILE not built (make check builds it)"; exit 77; }
# vs_list PROGRAM VAR=VALUE...: a vSphere command (it opens the module)
vs_list() { p=$1; shift; env "$@" "$p" vsphere --url https://127.0.0.1:1/sdk --user u --insecure --timeout 5 list; }
ran() { [ -e "$GW_CTOR_MARK" ]; }
# nwarn TEXT: the number of stderr lines holding TEXT
nwarn() { grep -cF -- "$1" "$err"; }
# copy DIR: a copy of the program at DIR/bin/gpuwiz (DIR made 0755)
copy() { mkdir -p "$1/bin" && chmod 0755 "$1" "$1/bin" && cp "$GPUWIZ" "$1/bin/gpuwiz"; }
ROOT=0; [ "$(id -u)" = 0 ] && command -v chown >/dev/null && ROOT=1

# ---- the build marker -----------------------------------------------------
check "make wrote the build marker beside the program" test -f "$MARKER"
check "the marker is writable by its owner only" sh -c "[ -z \"\$(find '$MARKER' -perm /022)\" ]"

# ---- the module ---------------------------------------------------------------
mkdir "$TMP/ok" && cp "$HOSTILE" "$TMP/ok/"
run vs_list "$GPUWIZ" GPUWIZ_MODULE_DIR="$TMP/ok"
check "control: a trusted folder's module is opened (its constructor ran)" ran
rm -f "$GW_CTOR_MARK"

mkdir "$TMP/ww" && chmod 0777 "$TMP/ww" && cp "$HOSTILE" "$TMP/ww/"
run vs_list "$GPUWIZ" GPUWIZ_MODULE_DIR="$TMP/ww"
check "GPUWIZ_MODULE_DIR writable by others: the constructor never runs" sh -c "! [ -e '$GW_CTOR_MARK' ]"
check "... one warning naming the variable and why" \
	[ "$(nwarn "gpuwiz: warning: ignoring GPUWIZ_MODULE_DIR=$TMP/ww ($TMP/ww is writable by others)")" -eq 1 ]
check "... the build tree's module used instead (gets as far as connecting)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'cannot connect' '$err' && [ \$(wc -l <'$err') -eq 2 ]"

mkdir "$TMP/wf" && cp "$HOSTILE" "$TMP/wf/" && chmod 0666 "$TMP/wf/vsphere.so"
run vs_list "$GPUWIZ" GPUWIZ_MODULE_DIR="$TMP/wf"
check "a module writable by others: refused before it is opened" sh -c "! [ -e '$GW_CTOR_MARK' ]"
check "... one line naming it, exit 2" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'refusing to load the vSphere module $TMP/wf/vsphere.so: $TMP/wf/vsphere.so is writable by others' '$err'"

if [ $ROOT = 1 ]; then
	mkdir "$TMP/nb" && cp "$HOSTILE" "$TMP/nb/" && chown nobody "$TMP/nb/vsphere.so"
	run vs_list "$GPUWIZ" GPUWIZ_MODULE_DIR="$TMP/nb"
	check "a module owned by nobody, run as root: refused before it is opened" sh -c "! [ -e '$GW_CTOR_MARK' ]"
	check "... one line naming the owner" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF '$TMP/nb/vsphere.so is owned by another user (uid ' '$err'"
	mkdir "$TMP/nbd" && cp "$HOSTILE" "$TMP/nbd/" && chown nobody "$TMP/nbd"
	run vs_list "$GPUWIZ" GPUWIZ_MODULE_DIR="$TMP/nbd"
	check "a folder owned by nobody: ignored, the constructor never runs" sh -c "! [ -e '$GW_CTOR_MARK' ] && grep -qF 'ignoring GPUWIZ_MODULE_DIR=$TMP/nbd ($TMP/nbd is owned by another user' '$err'"
else
	echo "SKIP: owned by another user (needs root to chown)"
fi

# a copy of the program: PROGDIR/host/vsphere.so is not its build tree's
copy "$TMP/cp"
mkdir "$TMP/cp/bin/host" && cp "$HOSTILE" "$TMP/cp/bin/host/"
run vs_list "$TMP/cp/bin/gpuwiz"
check "a copy of the program without the marker: PROGDIR/host/vsphere.so never opened" \
	sh -c "! [ -e '$GW_CTOR_MARK' ] && ! grep -qF '$TMP/cp' '$err'"
cp "$MARKER" "$TMP/cp/bin/"
run vs_list "$TMP/cp/bin/gpuwiz"
check "control: the copy with a trusted marker is a build tree (the constructor ran)" ran
rm -f "$GW_CTOR_MARK"
chmod 0777 "$TMP/cp/bin"
run vs_list "$TMP/cp/bin/gpuwiz"
check "a marker in a folder writable by others: PROGDIR/host/vsphere.so never opened" sh -c "! [ -e '$GW_CTOR_MARK' ]"
check "... one warning naming the marker" \
	[ "$(nwarn "gpuwiz: warning: ignoring the build-tree marker $TMP/cp/bin/gpuwiz.build-tree ($TMP/cp/bin is writable by others)")" -eq 1 ]
if [ $ROOT = 1 ]; then
	chmod 0755 "$TMP/cp/bin" && chown nobody "$TMP/cp/bin/gpuwiz.build-tree"
	run vs_list "$TMP/cp/bin/gpuwiz"
	check "a marker owned by another user: PROGDIR/host/vsphere.so never opened" \
		sh -c "! [ -e '$GW_CTOR_MARK' ] && grep -qF 'ignoring the build-tree marker $TMP/cp/bin/gpuwiz.build-tree ($TMP/cp/bin/gpuwiz.build-tree is owned by another user' '$err'"
fi

# ---- the catalogue ------------------------------------------------------------
# mo DIR: a zh_CN catalogue in DIR whose translations of two formats take
# other arguments ("%s" -> "%n%n%s", "%d" -> "%s"), built without -c
# (msgfmt -c would refuse it)
mo() {
	mkdir -p "$1/zh_CN/LC_MESSAGES" &&
	cat >"$TMP/hostile.po" <<'PO' &&
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=1; plural=0;\n"

msgid "unknown GPU '%s' (not an id, PCI id, vGPU profile or model name in %s)"
msgstr "未知的 GPU '%n%n%s'（%s）"

msgid "%s:%d: syntax error, expected 'key = value', '[section]' or a comment, got '%s'"
msgstr "%s:%s: 语法错误 '%s'"
PO
	msgfmt -o "$1/zh_CN/LC_MESSAGES/gpuwiz.mo" "$TMP/hostile.po"
}
# good DIR: a zh_CN catalogue in DIR translating the same message well
good() {
	mkdir -p "$1/zh_CN/LC_MESSAGES" &&
	printf '%s\n' 'msgid ""' 'msgstr ""' '"Content-Type: text/plain; charset=UTF-8\n"' '' \
		"msgid \"unknown GPU '%s' (not an id, PCI id, vGPU profile or model name in %s)\"" \
		"msgstr \"未知的 GPU '%s'（%s）\"" >"$TMP/good.po" &&
	msgfmt -c -o "$1/zh_CN/LC_MESSAGES/gpuwiz.mo" "$TMP/good.po" 2>/dev/null
}
english="gpuwiz mmio: --gpu: unknown GPU 'nosuch' (not an id"
if ! command -v msgfmt >/dev/null 2>&1; then
	echo "SKIP: the catalogue (msgfmt missing)"
elif ! locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$'; then
	echo "SKIP: the catalogue (zh_CN.UTF-8 locale missing)"
else
	good "$TMP/goodloc"
	run env LC_ALL=zh_CN.UTF-8 GPUWIZ_LOCALEDIR="$TMP/goodloc" "$GPUWIZ" mmio --gpu nosuch
	check "control: a well-formed catalogue is used" sh -c "[ $rc -eq 2 ] && grep -qF \"未知的 GPU 'nosuch'\" '$err' && [ \$(wc -l <'$err') -eq 1 ]"

	mo "$TMP/loc"
	run env LC_ALL=zh_CN.UTF-8 GPUWIZ_LOCALEDIR="$TMP/loc" "$GPUWIZ" mmio --gpu nosuch
	check "a catalogue translating %s as %n%n%s: no crash, exit 2" [ "$rc" -eq 2 ]
	check "... English shown" errhas "$english"
	check "... one warning naming the catalogue, then the error (2 lines)" sh -c \
		"[ \$(wc -l <'$err') -eq 2 ] && grep -qF 'gpuwiz: warning: ignoring the message catalogue $TMP/loc/zh_CN/LC_MESSAGES/gpuwiz.mo, messages in English' '$err'"
	printf 'garbage\n' >"$TMP/bad.ini"
	run env LC_ALL=zh_CN.UTF-8 GPUWIZ_LOCALEDIR="$TMP/loc" GPUWIZ_TABLE="$TMP/bad.ini" "$GPUWIZ" mmio --gpu l40s
	check "a catalogue translating %d as %s: no crash, English, exit 2" \
		sh -c "[ $rc -eq 2 ] && grep -qF '$TMP/bad.ini:1: syntax error' '$err'"
	check "... one warning" [ "$(nwarn 'warning: ignoring the message catalogue')" -eq 1 ]
	# the catalogues gettext may open, not the folder's others: a list
	# that names Chinese after another language reads it; one that does
	# not, does not
	run env LANGUAGE=fr:zh_CN LC_ALL=C.UTF-8 GPUWIZ_LOCALEDIR="$TMP/loc" "$GPUWIZ" mmio --gpu nosuch
	check "LANGUAGE=fr:zh_CN in C.UTF-8: the Chinese catalogue checked and refused, one warning" \
		sh -c "[ $rc -eq 2 ] && grep -qF \"$english\" '$err' && [ \$(grep -c 'warning: ignoring the message catalogue' '$err') -eq 1 ]"
	run env LANGUAGE=fr LC_ALL=C.UTF-8 GPUWIZ_LOCALEDIR="$TMP/loc" "$GPUWIZ" mmio --gpu nosuch
	check "LANGUAGE=fr in C.UTF-8: the Chinese catalogue not read, no warning" \
		sh -c "[ $rc -eq 2 ] && grep -qF \"$english\" '$err' && ! grep -q 'warning' '$err'"
	run env LANGUAGE=zh_CN LC_ALL=zh_CN.UTF-8 GPUWIZ_LOCALEDIR="$TMP/loc" "$GPUWIZ" --lang zh_CN mmio --gpu nosuch
	check "--lang zh_CN with the hostile catalogue: English, one warning" \
		sh -c "[ $rc -eq 2 ] && grep -qF \"$english\" '$err' && [ \$(grep -c 'warning: ignoring the message catalogue' '$err') -eq 1 ]"

	good "$TMP/wwloc" && chmod 0777 "$TMP/wwloc"
	run env LC_ALL=zh_CN.UTF-8 GPUWIZ_LOCALEDIR="$TMP/wwloc" "$GPUWIZ" mmio --gpu nosuch
	check "GPUWIZ_LOCALEDIR writable by others: ignored, one warning" \
		[ "$(nwarn "gpuwiz: warning: ignoring GPUWIZ_LOCALEDIR=$TMP/wwloc ($TMP/wwloc is writable by others)")" -eq 1 ]

	# beside a copy of the program: BUILD/tests/locale
	copy "$TMP/cl" && mo "$TMP/cl/tests/locale"
	run env -u GPUWIZ_LOCALEDIR LC_ALL=zh_CN.UTF-8 "$TMP/cl/bin/gpuwiz" mmio --gpu nosuch
	check "a copy without the marker: ../tests/locale not used, English, no crash" \
		sh -c "[ $rc -eq 2 ] && grep -qF \"$english\" '$err'"
	cp "$MARKER" "$TMP/cl/bin/"
	run env -u GPUWIZ_LOCALEDIR LC_ALL=zh_CN.UTF-8 "$TMP/cl/bin/gpuwiz" mmio --gpu nosuch
	check "a copy with the marker: the hostile catalogue refused, English, one warning" \
		sh -c "[ $rc -eq 2 ] && grep -qF \"$english\" '$err' && [ \$(grep -c 'warning: ignoring the message catalogue $TMP/cl/bin/../tests/locale/zh_CN/LC_MESSAGES/gpuwiz.mo' '$err') -eq 1 ]"
fi

# ---- the GPU table --------------------------------------------------------------
# a table whose only GPU is "hostile"
sed -n '1,/^\[/p' "$GPUWIZ_TABLE" | sed '$d' >"$TMP/hostile.ini"
awk '/^\[l40s\]/{p=1} p&&/^\[/&&!/^\[l40s\]/{exit} p' "$GPUWIZ_TABLE" | sed 's/^\[l40s\]/[hostile]/' >>"$TMP/hostile.ini"
mkdir -p "$TMP/tw" && chmod 0777 "$TMP/tw" && cp "$TMP/hostile.ini" "$TMP/tw/gpus.ini"
run env GPUWIZ_TABLE="$TMP/tw/gpus.ini" "$GPUWIZ" mmio --gpu hostile
check "GPUWIZ_TABLE in a folder writable by others: not read, one warning" \
	sh -c "[ $rc -eq 2 ] && [ \$(grep -c 'warning: ignoring GPUWIZ_TABLE=$TMP/tw/gpus.ini ($TMP/tw is writable by others)' '$err') -eq 1 ]"
mkdir -p "$TMP/hw" && chmod 0777 "$TMP/hw"
run env GPUWIZ_HOSTS_DIR="$TMP/hw" "$GPUWIZ" check --sample-host intel-2x-l40s
check "GPUWIZ_HOSTS_DIR writable by others: ignored, one warning" \
	[ "$(nwarn "warning: ignoring GPUWIZ_HOSTS_DIR=$TMP/hw ($TMP/hw is writable by others)")" -eq 1 ]

copy "$TMP/ct" && mkdir "$TMP/ct/data" && cp "$TMP/hostile.ini" "$TMP/ct/data/gpus.ini"
run env -u GPUWIZ_TABLE "$TMP/ct/bin/gpuwiz" mmio --gpu hostile
check "a copy without the marker: ../data/gpus.ini not read" \
	sh -c "[ $rc -eq 2 ] && ! grep -qF '$TMP/ct' '$err' && ! grep -q hostile '$out'"
cp "$MARKER" "$TMP/ct/bin/"
run env -u GPUWIZ_TABLE "$TMP/ct/bin/gpuwiz" mmio --gpu hostile
check "control: with a trusted marker ../data/gpus.ini is the table" sh -c "[ $rc -eq 0 ] && grep -q hostile '$out'"
chmod 0777 "$TMP/ct/data"
run env -u GPUWIZ_TABLE "$TMP/ct/bin/gpuwiz" mmio --gpu hostile
check "with the marker, a data folder writable by others: not read, one warning" \
	sh -c "[ $rc -eq 2 ] && ! grep -q hostile '$out' && [ \$(grep -c 'warning: ignoring $TMP/ct/bin/../data/gpus.ini ($TMP/ct/data is writable by others)' '$err') -eq 1 ]"
# ---- a setuid program: secure_getenv --------------------------------------------
if [ $ROOT = 1 ] && command -v setpriv >/dev/null 2>&1; then
	# (outside $TMP, which only root may enter)
	SUID=$(mktemp -d "$(dirname "$TMP")/gwsuid.XXXXXX") && chmod 0755 "$SUID"
	at_exit "rm -rf '$SUID'"
	cp "$GPUWIZ" "$SUID/gpuwiz" && cp "$TMP/hostile.ini" "$SUID/gpus.ini" && chmod 4755 "$SUID/gpuwiz"
	run setpriv --reuid=65534 --regid=65534 --clear-groups env GPUWIZ_TABLE="$SUID/gpus.ini" "$SUID/gpuwiz" mmio --gpu hostile
	if grep -q 'Permission denied\|nosuid' "$err"; then
		echo "SKIP: setuid (cannot run the copy as another user)"
	else
		check "setuid root, run by nobody: GPUWIZ_TABLE ignored (secure_getenv)" \
			sh -c "[ $rc -eq 2 ] && ! grep -q hostile '$out' && ! grep -qF '$SUID' '$err'"
	fi
else
	echo "SKIP: setuid (needs root and setpriv)"
fi
finish
