#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests of the MMIO step's picture and of a GPU missing from the
# table (doc/design.md, section 10), at 80x24 in C.UTF-8 and zh_CN.UTF-8,
# with GPUWIZ_UI_AUDIT (nothing clipped without the sign):
#  1. an A100 80GB (a100-80g-sxm4, BAR1 128 GiB in data/gpus.ini): the
#     256 GB window drawn with its BAR1 over the first half and the 32 MiB
#     BAR3 in the cell right after it, the scale 0 .. 128 .. 256 GB, the
#     size to write 256 GB; no text in the last column;
#  2. a window of 4096 GB asked for: the BARs drawn small and said to be
#     not to scale, the recommendation (256 GB) marked; a .vmx with a
#     Tesla P40 and an L40S added: both GPUs' BARs drawn, the P40 named as
#     in the VM;
#  3. "rtx 2000 ada" (a card the table does not list, given as 16 GB)
#     finds nothing in the table; Enter offers "Add a GPU by
#     its memory size": 16 GB, no BAR1, reaches the MMIO step with the
#     rule's 32 GB and the GPU named as not drawn; again with a BAR1 of
#     16G: its BAR1 drawn, the window still 32 GB.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
AUDIT=$TMP/audit.txt
export GPUWIZ_UI_AUDIT="$AUDIT"

# fmt LANG MSGID ARGS...: the screen's text of a format string
fmt() { l=$1 m=$2; shift 2; printf "$(tr_ "$l" "$m" | sed 's/%llu/%s/g; s/%d/%s/g')" "$@"; }
# first N TEXT: its first N characters (a wrapped text's first line)
first() { printf '%s' "$2" | LC_ALL=C.UTF-8 sed -E "s/^(.{$1}).*/\\1/"; }

# bar: the picture's bar row, from "[" to "]"
bar() { screen; grep -m1 -o '\[[█▓▒·┃!0-9A-Za-z ]*\]' "$SCREEN"; }
# cells_to GLYPH: the cells of the bar before the first GLYPH
cells_to() { bar | python3 -c "import sys; b=sys.stdin.read().strip(); print(b.index('$1') - 1)"; }
cells() { bar | python3 -c "import sys; print(len(sys.stdin.read().strip()) - 2)"; }
# the last column (80) of rows 2-23 is blank, the scroll marks apart
edge_ok() {
	screen
	python3 - "$SCREEN" <<'EOF'
import sys, unicodedata
bad = 0
for y, line in enumerate(open(sys.argv[1], encoding="utf-8").read().split("\n")[1:23], 1):
    n = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
    if n > 79:
        print("row %d touches the last column: %s" % (y, line)); bad = 1
sys.exit(bad)
EOF
}
no_sign() { screen; ! grep -qF '…' "$SCREEN"; }

to_mmio() { # LANG ANSWERS
	printf "$2" >"$TMP/run/a.ini"
	start "$1" 80x24 --answers a.ini
	check "$1: welcome" wait_for "$(st WELCOME)"
	enters WELCOME MMIO
	check "$1: the MMIO step" wait_for "$(st MMIO)"
}

picture() { # LANG
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	to_mmio "$lang" '[gpu]\ndevices = a100-80g-sxm4\n[output]\ndir = out\nformats = vmx\n'
	check "$lang a100: the window's heading, 256 GB" on_screen \
		"$(first 24 "$(fmt "$lang" '64-bit MMIO window: %llu GB, the BARs largest first, each aligned to its size' 256)")"
	check "$lang a100: its BAR1 drawn and labelled" on_screen "█1 BAR1 128 GiB██"
	w=$(cells); at=$(cells_to ▒)
	check "$lang a100: the BAR3 in the cell after the first half ($at of $w)" \
		[ "$at" -eq $((w / 2)) ]
	check "$lang a100: free cells after it" sh -c "grep -q '▒···' '$SCREEN'"
	check "$lang a100: the scale ends at 256 GB" sh -c "grep -q ' 128  *256 GB\$' '$SCREEN'"
	check "$lang a100: the legend names the GPU and the BAR3" on_screen \
		"1 a100-80g-sxm4  $(fmt "$lang" '%s BAR3 %s' ▒ '32 MiB')"
	check "$lang a100: size to write 256 GB" sh -c \
		"grep -F '$(tr_ "$lang" 'Size to write:')' '$SCREEN' | grep -q '256 GB'"
	check "$lang a100: nothing cut" no_sign
	check "$lang a100: no text in the last column" edge_ok
	keys q; keys y

	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	to_mmio "$lang" '[gpu]\ndevices = a100-80g-sxm4\n[options]\nmmio_gb = 4096\n[output]\ndir = out\nformats = vmx\n'
	check "$lang 4096: the heading says the recommendation and its mark" on_screen \
		"$(fmt "$lang" '64-bit MMIO window: %llu GB; %llu GB recommended, at %s' 4096 256 ┃)"
	check "$lang 4096: the mark at 256 of 4096 GB" [ "$(cells_to ┃)" -eq $(( $(cells) / 16 )) ]
	check "$lang 4096: the small BARs said to be not to scale" on_screen \
		"$(tr_ "$lang" '(small BARs one cell wide: not to scale)')"
	check "$lang 4096: nothing cut" no_sign
	check "$lang 4096: no text in the last column" edge_ok
	keys q; keys y

	# a .vmx that has a Tesla P40 (BAR1 32 GiB) and an L40S added: both
	# drawn, the L40S's 64 GiB first, the P40 after it at 64 GiB
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/HANDWRITTEN-FRAGMENT-esxi8-tesla-p40-pcipassthru0-block-with-comments.vmx "$TMP/run/vm.vmx"
	to_mmio "$lang" '[gpu]\ndevices = l40s\n[vm]\nvmx = vm.vmx\n[output]\ndir = out\nformats = vmx\n'
	check "$lang p40: the GPU in the VM named in the legend" on_screen \
		"1 p40$(tr_ "$lang" ' (in the VM)')  2 l40s"
	check "$lang p40: the L40S's BAR1 first, labelled" on_screen "[▓2 BAR1 64 GiB▓"
	check "$lang p40: the P40's BAR1 at 64 of 256 GB" [ "$(cells_to █)" -eq $(( $(cells) / 4 )) ]
	check "$lang p40: nothing cut" no_sign
	check "$lang p40: no text in the last column" edge_ok
	keys q; keys y
}

# search "rtx 2000 ada", add it by size: VRAM then BAR1 (empty: unknown)
add_by_size() { # LANG BAR1
	lang=$1
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	printf '[gpu]\ndevices = l40s\n[output]\ndir = out\nformats = vmx\n' >"$TMP/run/a.ini"
	start "$lang" 80x24 --answers a.ini
	check "$lang 2000 Ada: welcome" wait_for "$(st WELCOME)"
	enters WELCOME GPU
	check "$lang 2000 Ada: GPU step" wait_for "$(st GPU)"
	keys DC Tab
	typ "rtx 2000 ada"
	check "$lang 2000 Ada: the table has no RTX 2000 Ada" wait_for \
		"$(tr_ "$lang" 'No GPU in the table matches the search and filters.')"
	check "$lang 2000 Ada: adding it by size is offered" on_screen \
		"+ $(tr_ "$lang" 'Add a GPU by its memory size (VRAM, and BAR1 if known)')"
	keys Enter
	check "$lang 2000 Ada: the VRAM question" wait_for \
		"$(first 12 "$(tr_ "$lang" "For a GPU the table does not list. Its framebuffer (VRAM) in GB, from the vendor's datasheet:")")"
	typ 16; keys Enter
	check "$lang 2000 Ada: the BAR1 question" wait_for \
		"$(first 12 "$(tr_ "$lang" 'Its BAR1 size, if known (nvidia-smi -q: BAR1 Memory Usage, Total; lspci -vv: Region 1, size=), e.g. 256M or 16G. Empty: not known, the rule alone sizes the window:')")"
	[ -n "$2" ] && typ "$2"
	keys Enter
	if [ -n "$2" ]; then
		sel=$(fmt "$lang" '%d x GPU of %d GB (size only, BAR1 %s), passthrough' 1 16 "$2")
	else
		sel=$(fmt "$lang" '%d x GPU of %d GB (size only), passthrough' 1 16)
	fi
	check "$lang 2000 Ada ${2:-no BAR1}: in the selection" wait_for "$sel"
	check "$lang 2000 Ada ${2:-no BAR1}: total 16 GB" on_screen \
		"$(fmt "$lang" 'Selected for this VM (total %llu GB):' 16)"
	keys Enter
	check "$lang 2000 Ada ${2:-no BAR1}: VM step" wait_for "$(st VM)"
	keys Enter
	check "$lang 2000 Ada ${2:-no BAR1}: MMIO step" wait_for "$(st MMIO)"
	check "$lang 2000 Ada ${2:-no BAR1}: the rule's 32 GB for 16 GB" on_screen \
		"$(first 24 "$(fmt "$lang" '64-bit MMIO window: %llu GB, the BARs largest first, each aligned to its size' 32)")"
	check "$lang 2000 Ada ${2:-no BAR1}: size to write 32 GB" sh -c \
		"grep -F '$(tr_ "$lang" 'Size to write:')' '$SCREEN' | grep -q ' 32 GB'"
	if [ -n "$2" ]; then
		check "$lang 2000 Ada 16G: its BAR1 drawn over half the window" \
			[ "$(cells_to ▒)" -eq $(( $(cells) / 2 )) ]
		check "$lang 2000 Ada 16G: labelled" on_screen "█1 BAR1 16 GiB██"
	else
		check "$lang 2000 Ada: said not drawn, BAR1 unknown" on_screen \
			"$(first 20 "$(fmt "$lang" 'Not drawn: %s; the rule sizes the window.' "$(fmt "$lang" '%s (BAR1 unknown)' 16GB)")")"
	fi
	check "$lang 2000 Ada ${2:-no BAR1}: nothing cut" no_sign
	check "$lang 2000 Ada ${2:-no BAR1}: no text in the last column" edge_ok
	keys q; keys y
}

for lang in C.UTF-8 zh_CN.UTF-8; do
	case $lang in zh*) [ $have_zh = 1 ] || { echo "SKIP: zh_CN.UTF-8 locale or catalogue missing"; continue; } ;; esac
	picture $lang
	add_by_size $lang ""
	add_by_size $lang 16G
done
check "the audit names no text cut without a sign" sh -c "[ ! -s '$AUDIT' ]"
[ -s "$AUDIT" ] && sed 's/^/   audit: /' "$AUDIT" | head -n 20
finish
