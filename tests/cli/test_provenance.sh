#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_provenance.sh: every data file the tarball ships or the tests read
# is listed, with its source and licence, in its folder's PROVENANCE
# (doc/design.md, section 4.3; tests/fixtures/PROVENANCE for the format):
# data/ (its own files), data/hosts, tests/fixtures, tests/esxi-standins
# and the seeds and regression inputs of tests/fuzz.  Walks the source tree (not git), so
# make distcheck runs it on the unpacked tarball.  Then shows that the
# check fails: an entry removed, a stray file, an entry without licence,
# a listed file missing, a second source line in a fixture.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}

# prov_check DIR DEPTH [SUBDIR...]: the problems of DIR/PROVENANCE, one
# line each, none when it is right.  DEPTH "top" takes only DIR's own
# files, "all" every file below DIR (or below each SUBDIR of DIR).
prov_check() {
	pc_dir=$1 pc_depth=$2; shift 2
	pc_list=$pc_dir/PROVENANCE
	if [ ! -f "$pc_list" ]; then
		echo "$pc_list: missing"
		return
	fi
	( cd "$pc_dir" &&
	  if [ "$pc_depth" = top ]; then
		find . -maxdepth 1 -type f
	  elif [ $# -gt 0 ]; then
		find "$@" -type f
	  else
		find . -type f
	  fi ) | sed 's|^\./||' | grep -vx PROVENANCE | LC_ALL=C sort >"$TMP/pc.files"
	# FILE<TAB>SOURCE<TAB>LICENCE[<TAB>NOTE]; "#" lines are comments.
	LC_ALL=C awk -F '\t' -v list="$pc_list" '
		/^#/ || /^$/ { next }
		{
			where = list ":" FNR ": " $1
			if (NF < 3 || NF > 4) { print where ": expected 3 or 4 TAB-separated fields, got " NF; next }
			if ($1 in seen) print where ": listed twice"
			seen[$1] = 1
			if ($2 !~ /[^ ]/) print where ": no source"
			else if ($2 ~ /^\//) print where ": the source is a local path, not where the file came from"
			if ($3 !~ /[^ ]/) print where ": no licence"
			else if ($3 != "none stated" && $3 !~ /^[A-Za-z0-9.+()-]+( (AND|OR|WITH) \(?[A-Za-z0-9.+-]+\)?)*$/)
				print where ": licence \"" $3 "\" is neither an SPDX expression nor \"none stated\""
			print $1 >"/dev/stderr"
		}' "$pc_list" 2>"$TMP/pc.listed"
	LC_ALL=C sort -u "$TMP/pc.listed" >"$TMP/pc.listed.s"
	LC_ALL=C comm -23 "$TMP/pc.files" "$TMP/pc.listed.s" |
		sed "s|^|$pc_dir/|; s|\$|: not listed in $pc_list|"
	LC_ALL=C comm -13 "$TMP/pc.files" "$TMP/pc.listed.s" |
		sed "s|^|$pc_list: |; s|\$|: listed, but there is no such file|"
}

# fixture_firsts DIR: fixtures whose first line names a source other than
# the list (the source has one place: PROVENANCE).
fixture_firsts() {
	find "$1" -type f ! -name PROVENANCE ! -name README.md | LC_ALL=C sort |
	while IFS= read -r f; do
		l=$(head -n 1 "$f" | tr -d '\r')
		case $l in
		'# source: tests/fixtures/PROVENANCE'|'<!-- source: tests/fixtures/PROVENANCE -->') ;;
		*) echo "$f: first line is not '# source: tests/fixtures/PROVENANCE'" ;;
		esac
	done
}

all() {
	prov_check "$1/data" top
	prov_check "$1/data/hosts" all
	prov_check "$1/tests/fixtures" all
	prov_check "$1/tests/fuzz" all answers-seeds linux-seeds regressions
	prov_check "$1/tests/esxi-standins" all
	fixture_firsts "$1/tests/fixtures"
}

all "$SRC" >"$TMP/problems"
check "every shipped data file is listed with a source and a licence" [ ! -s "$TMP/problems" ]
[ -s "$TMP/problems" ] && sed 's/^/   /' "$TMP/problems"
check "data/hosts: every file is written for gpuwiz (GPL-3.0-or-later)" \
	sh -c "! grep -v '^#' '$SRC/data/hosts/PROVENANCE' | awk -F '\t' '\$2 !~ /^written for gpuwiz/ || \$3 != \"GPL-3.0-or-later\"' | grep -q ."
check "the lists name no build machine's path" \
	sh -c "! grep -n '/work/\|/home/\|_build/' '$SRC/data/PROVENANCE' '$SRC/data/hosts/PROVENANCE' '$SRC/tests/fixtures/PROVENANCE' '$SRC/tests/fuzz/PROVENANCE' '$SRC/tests/esxi-standins/PROVENANCE'"

# The check can fail: on a copy of the lists and files, each fault gives
# its line.
C=$TMP/copy
mkdir -p "$C/data" "$C/tests"
cp -R "$SRC/data/hosts" "$C/data/hosts"
cp -R "$SRC/tests/fixtures" "$SRC/tests/fuzz" "$SRC/tests/esxi-standins" "$C/tests/"
find "$SRC/data" -maxdepth 1 -type f -exec cp {} "$C/data/" \;
chmod -R u+w "$C"
all "$C" >"$TMP/p0"
check "the copy passes" [ ! -s "$TMP/p0" ]

grep -v '^esxi-l40s/esxi/esxcli-system-uuid-get.txt	' "$C/data/hosts/PROVENANCE" >"$TMP/l" && cp "$TMP/l" "$C/data/hosts/PROVENANCE"
printf '# source: tests/fixtures/PROVENANCE\n' >"$C/tests/fixtures/vmx/stray.vmx"
echo stray >"$C/tests/fuzz/linux-seeds/stray"
: >"$C/data/stray.csv"
sed 's|^\(vmx/ws-freebsd-crlf.vmx	[^	]*\)	none stated|\1	|' "$C/tests/fixtures/PROVENANCE" >"$TMP/l" && cp "$TMP/l" "$C/tests/fixtures/PROVENANCE"
rm "$C/tests/fixtures/vimcmd/synthetic-getallvms-no-vms.txt"
printf '# source: a copy of someone'"'"'s file\nx\n' >"$C/tests/fixtures/vmx/synthetic-utf8-bom.vmx"
printf 'gpus.ini\t/work/somewhere/gpus.ini\tMIT\n' >>"$C/data/PROVENANCE"
sed 's|^\(answers-seeds/full.ini	[^	]*\)	GPL-3.0-or-later|\1	all rights reserved|' "$C/tests/fuzz/PROVENANCE" >"$TMP/l" && cp "$TMP/l" "$C/tests/fuzz/PROVENANCE"
all "$C" >"$TMP/p1"
p1has() { grep -qxF -- "$1" "$TMP/p1"; }
check "a removed entry: not listed" p1has "$C/data/hosts/esxi-l40s/esxi/esxcli-system-uuid-get.txt: not listed in $C/data/hosts/PROVENANCE"
check "a stray fixture: not listed" p1has "$C/tests/fixtures/vmx/stray.vmx: not listed in $C/tests/fixtures/PROVENANCE"
check "a stray seed: not listed" p1has "$C/tests/fuzz/linux-seeds/stray: not listed in $C/tests/fuzz/PROVENANCE"
check "a stray data file: not listed" p1has "$C/data/stray.csv: not listed in $C/data/PROVENANCE"
check "an entry without licence" sh -c "grep -q '^$C/tests/fixtures/PROVENANCE:[0-9]*: vmx/ws-freebsd-crlf.vmx: no licence\$' '$TMP/p1'"
check "a listed file that is gone" p1has "$C/tests/fixtures/PROVENANCE: vimcmd/synthetic-getallvms-no-vms.txt: listed, but there is no such file"
check "a fixture naming its own source" p1has "$C/tests/fixtures/vmx/synthetic-utf8-bom.vmx: first line is not '# source: tests/fixtures/PROVENANCE'"
check "an entry listed twice" sh -c "grep -q '^$C/data/PROVENANCE:[0-9]*: gpus.ini: listed twice\$' '$TMP/p1'"
check "a source that is a local path" sh -c "grep -q '^$C/data/PROVENANCE:[0-9]*: gpus.ini: the source is a local path' '$TMP/p1'"
check "a licence that is not SPDX" sh -c "grep -q 'answers-seeds/full.ini: licence \"all rights reserved\" is neither an SPDX expression nor \"none stated\"' '$TMP/p1'"
check "ten problems, no more" [ "$(wc -l <"$TMP/p1")" -eq 10 ]
[ "$(wc -l <"$TMP/p1")" -eq 10 ] || sed 's/^/   /' "$TMP/p1"
finish
