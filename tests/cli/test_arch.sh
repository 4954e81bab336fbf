#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The architecture's limits (doc/design.md, section 2.4), so that they hold
# after every change: file sizes (over 600 lines a warning, over 1,000 a
# failure), cyclomatic complexity (pmccabe), no branching on the kind of
# host above the host layer, the layers' include rules (followed through
# every header, doc/design.md section 2.3), what src/report may do, how
# many global functions no other object uses, and every document the code
# cites present in the tree.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$SRC" || exit 1

files=$(find src ui -name '*.[ch]' | sort)
cfiles=$(find src ui -name '*.c' | sort)

# ---- sizes ----------------------------------------------------------------
# A file's size follows its subject: over 600 lines is worth a look (a
# warning, never a failure); over 1,000 it is two subjects.
wc -l $files | grep -v ' total$' >"$TMP/sizes"
over1000=$(awk '$1 > 1000 { print $2 }' "$TMP/sizes")
check "no file in src/ or ui/ over 1,000 lines" [ -z "$over1000" ]
[ -z "$over1000" ] || echo "   over:" $over1000
awk '$1 > 600 { printf "# warning: %s has %d lines (over 600: one subject?)\n", $2, $1 }' "$TMP/sizes"

# ---- complexity (pmccabe's second column: traditional McCabe) -------------
if command -v pmccabe >/dev/null 2>&1; then
	pmccabe $cfiles >"$TMP/mccabe" 2>/dev/null
	over40=$(awk '$2 > 40' "$TMP/mccabe")
	n25=$(awk '$2 > 25' "$TMP/mccabe" | wc -l)
	check "no function over cyclomatic complexity 40" [ -z "$over40" ]
	[ -z "$over40" ] || printf '   %s\n' "$over40"
	check "at most 15 functions over 25 ($n25)" [ "$n25" -le 15 ]
else
	nok "pmccabe is installed (tests/deps.sh installs it)"
fi

# ---- the kind of host is the host layer's business -------------------------
# (src/wizard/wizard_mode.c is the table of the wizard's routes: the one
# place where they are data, looked up by mode)
front=$(find src/cli src/wizard src/session ui src/main.c -name '*.c' |
	grep -v '^src/wizard/wizard_mode\.c$' | sort)
grep -nE '(\b(if|while|switch|case)\b|\?).*((->|\.)(vs|runner|esxi_vm|vs_inv)\b|GW_MODE_(LINUX|ESXI_SSH|VSPHERE|OFFLINE)|GW_HOST_(LINUX|ESXI|VSPHERE)\b|gw_host_kind_of)|(==|!=) *GW_(MODE|HOST)_(LINUX|ESXI_SSH|ESXI|VSPHERE|OFFLINE)\b' \
	$front | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*)' >"$TMP/kind" || :
nkind=$(wc -l <"$TMP/kind")
check "at most 12 branches on the connection kind above the host layer ($nkind)" \
	[ "$nkind" -le 12 ]
[ "$nkind" -le 12 ] || sed 's/^/   /' "$TMP/kind"
check "ui/ branches on no connection kind" \
	sh -c "! grep -q '^ui/' '$TMP/kind'"

# ---- layers ----------------------------------------------------------------
check "ui/ sees the wizard through wizard.h only" \
	sh -c "! grep -ln '#include \"wizard_int.h\"' ui/*.c ui/*.h"
check "ui/ includes no back end" \
	sh -c "! grep -lnE '#include \"(runner|vsphere|vsapply|samplehost|linux|host_int)\\.h\"' ui/*.c ui/*.h"
check "src/core includes nothing of the host, session or front ends" \
	sh -c "! grep -nE '#include \"(host|host_int|runner|vsphere|session|cli|wizard|wizard_int)\\.h\"' src/core/*.c src/core/*.h"
check "the front ends include no back end's private header" \
	sh -c "! grep -nE '#include \"(host_int|runner_int|vsphere_int|esxi_int|linux_int|samplehost_int)\\.h\"' src/cli/*.c src/wizard/*.c src/session/*.c ui/*.c"

# ---- includes, followed through every header -------------------------------
# "FILE HEADER" for each #include "HEADER.h" of every file, the header's
# path found by its name (the names are unique in src/ and ui/).
find src ui -name '*.h' | sort >"$TMP/hdrs"
for f in $files; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\.h\)".*/\1/p' "$f" |
		sed "s|^|$f |"
done | awk 'NR == FNR { n = $0; sub(/.*\//, "", n); path[n] = $0; next }
	($2 in path) { print $1, path[$2] }' "$TMP/hdrs" - >"$TMP/edges"
# reach FILE...: "FILE HEADER" for every project header FILE reaches.
reach() {
	awk -v roots="$*" '{ e[$1] = e[$1] " " $2 }
	END {
		n = split(roots, r, " ")
		for (i = 1; i <= n; i++) {
			delete seen; q = r[i]; nq = 0
			while (q != "") {
				split(q, cur, " "); q = ""
				for (c in cur) {
					m = split(e[cur[c]], nx, " ")
					for (k = 1; k <= m; k++)
						if (!(nx[k] in seen)) {
							seen[nx[k]] = 1; q = q " " nx[k]
							print r[i], nx[k]
						}
				}
			}
		}
	}' "$TMP/edges"
}
# A screen sees the wizard's public headers (not wizard_int.h, nor one
# that includes it), ui's own, the core types the accessors return, the
# neutral host types; never a back end, the session, the reports (the
# output formats through gw_wizard_format_at) or the command line.
reach $(ls ui/*.c) | awk '$2 !~ /^ui\// && $2 !~ /^src\/core\// &&
	$2 != "src/host/hosttypes.h" &&
	($2 !~ /^src\/wizard\// || $2 == "src/wizard/wizard_int.h")' >"$TMP/uireach"
check "a screen (ui/*.c) reaches only ui/, the wizard's public headers, src/core and hosttypes.h ($(reach ui/step_mmio.c | wc -l) headers from ui/step_mmio.c)" \
	[ ! -s "$TMP/uireach" ]
sed 's/^/   /' "$TMP/uireach" | sort -u -k2 | head -20
wizard_back=$(grep -oE '#include "(host|host_int|linux|esxi|runner|vsphere|vsapply|samplehost|session)\.h"|#include "[a-z_]+_report\.h"' src/wizard/wizard.h)
check "wizard.h includes no back-end or report header" [ -z "$wizard_back" ]
[ -z "$wizard_back" ] || echo "   " $wizard_back
reach $(ls src/core/*.h src/host/*.h) | grep ' src/report/' >"$TMP/lowrep" || :
check "no src/core or src/host header reaches a src/report header" [ ! -s "$TMP/lowrep" ]
sed 's/^/   /' "$TMP/lowrep" | head -20
reach $(ls src/report/*.c src/report/*.h) |
	grep -E ' src/host/(host|host_int|linux|linux_int|esxi|esxi_int|runner|runner_int|vsphere|vsphere_int|vsapply|samplehost|samplehost_int)\.h$' >"$TMP/rephost" || :
check "src/report reaches no host back end (host.h, linux.h, esxi.h, runner.h, vsphere.h...)" [ ! -s "$TMP/rephost" ]
sed 's/^/   /' "$TMP/rephost" | sort -u -k2 | head -20
# a header includes what it needs at its top: no #include after the first
# declaration (nor after its guard's #endif)
for f in $(find src ui -name '*.h' | sort); do
	awk -v f="$f" '
	incomment { if (index($0, "*/")) { incomment = 0; sub(/.*\*\//, "") } else next }
	{ line = $0; gsub(/\/\*.*\*\//, "", line)
	  if (index(line, "/*")) { incomment = 1; sub(/\/\*.*/, "", line) } }
	line ~ /^[[:space:]]*$/ { next }
	line ~ /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.h"/ { if (decl) print f ":" FNR ": " $0; next }
	line ~ /^[[:space:]]*#[[:space:]]*endif/ { decl = 1; next }
	line ~ /^[[:space:]]*#/ { next }
	{ decl = 1 }' "$f"
done >"$TMP/tails"
check "no header includes another below its declarations or guard" [ ! -s "$TMP/tails" ]
sed 's/^/   /' "$TMP/tails"

# ---- src/report renders: it reads no file, runs nothing, asks no host ------
grep -nE '(^|[^_a-zA-Z0-9])(fopen|freopen|open|openat|opendir|readdir|stat|lstat|access|read|popen|system|gw_read_file|gw_live_scan|gw_linux_[a-z_]+|gw_esxi_[a-z_]+|gw_host_[a-z_]+|gw_runner_[a-z_]+|gw_vs_[a-z_]+|gw_sample_[a-z_]+)[[:space:]]*\(' \
	src/report/*.c | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*)' >"$TMP/repread" || :
check "src/report reads no file and calls no host function" [ ! -s "$TMP/repread" ]
sed 's/^/   /' "$TMP/repread"
grep -nE 'EXIT_(USAGE|FINDINGS)|GW_VERIFY_(OK|FAILED|INPUT)|^gw_[a-z_]+_command[[:space:]]*\(' \
	src/report/*.c src/report/*.h >"$TMP/repexit" || :
check "src/report holds no command (no exit status)" [ ! -s "$TMP/repexit" ]
sed 's/^/   /' "$TMP/repexit"

# ---- probes and parsers return data: only src/report and the front ends print
grep -nE '(^|[^_a-z])(printf|puts|putchar)\(|fputs\([^,]*, *stdout|fprintf\(stdout|fwrite\([^;]*stdout' \
	src/core/*.c src/host/*.c src/session/*.c >"$TMP/prints" || :
check "src/core, src/host and src/session write nothing to stdout" [ ! -s "$TMP/prints" ]
sed 's/^/   /' "$TMP/prints"

# ---- global functions no other object uses -----------------------------------
# A function that only its own file calls is static; one that only the
# tests call is not in the product (or is a seam declared in an internal
# header, such as src/host/vs_seams.h).  Counted with nm over the build's
# objects (the vSphere module's table, vsphere_mod, aside): a function
# defined in one object and named by no other.  main counts as one; so
# do the text entry points of the two parsers that gpuwiz itself feeds as
# a stream (gw_esxi_parse_getallvms, gw_esxi_parse_vm_processes: the
# unit tests and the fuzz targets give them a whole text).
LONELY_MAX=13
build=${GPUWIZ_BIN:+$(dirname "$(dirname "$GPUWIZ_BIN")")}
objs=$( [ -n "$build" ] && find "$build/src" "$build/ui" -name '*.o' 2>/dev/null |
	grep -v vsphere_mod | sort)
if [ -n "$objs" ] && command -v nm >/dev/null 2>&1; then
	{
		nm -A -g --defined-only $objs |
			awk '$(NF-1) == "T" { f = $1; sub(/:.*/, "", f); print "D", $NF, f }'
		nm -A -u $objs | awk '{ f = $1; sub(/:.*/, "", f); print "U", $NF, f }'
	} | awk '$1 == "D" { def[$2] = def[$2] " " $3; next }
		{ use[$2] = use[$2] " " $3 }
		END {
			for (s in def) {
				n = split(def[s], d, " ")
				for (i = 1; i <= n; i++) {
					m = split(use[s], u, " "); other = 0
					for (j = 1; j <= m; j++) if (u[j] != d[i]) other = 1
					if (!other) print s, d[i]
				}
			}
		}' | sort >"$TMP/lonely"
	nlonely=$(wc -l <"$TMP/lonely")
	check "at most $LONELY_MAX global functions that no other object uses ($nlonely)" \
		[ "$nlonely" -le "$LONELY_MAX" ]
	[ "$nlonely" -le "$LONELY_MAX" ] || sed "s|$build/||; s/^/   /" "$TMP/lonely"
else
	echo "# skip: no build objects (GPUWIZ_BIN) or no nm: global functions not counted"
fi

# ---- citations ---------------------------------------------------------------
check "no code cites files outside the tree" \
	sh -c "! grep -rnE 'shared/(docs|data|fixtures|seeds)|\\.\\./shared' src ui"
check "no code cites the design or domain notes of the old layout" \
	sh -c "! grep -rnE '(^|[^/])\\b(design|domain)\\.md' src ui | grep -v 'doc/design\\.md'"
# every "doc/design.md, section N[.M]" names a heading of doc/design.md
grep -rhoE 'doc/design\.md,? (section|sections) [0-9]+(\.[0-9]+)?' src ui tests Makefile.am 2>/dev/null |
	grep -oE '[0-9]+(\.[0-9]+)?$' | sort -u >"$TMP/cited"
missing=""
while read -r n; do
	case $n in
	*.*) grep -qE "^### $n " doc/design.md || missing="$missing $n" ;;
	*) grep -qE "^## $n\. " doc/design.md || missing="$missing $n" ;;
	esac
done <"$TMP/cited"
check "every cited section of doc/design.md exists ($(wc -l <"$TMP/cited") cited)" \
	[ -z "$missing" ]
[ -z "$missing" ] || echo "   missing:$missing"
finish
