#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Screen tests: findings are never hidden (doc/design.md,
# section 10), at 80x24 in C.UTF-8 and zh_CN.UTF-8:
#  1. the host step of the ESXi sample and of intel-iommu-off-kernel shows
#     its FAIL and WARN rows first (then the PASS ones), the cursor on the
#     first, its message and fix below the rows;
#  2. a host with more rows than fit (intel-iommu-off-kernel with eight
#     more GPUs on nvidia, a sample made here): the "v" mark shows rows
#     below, the key line offers PgDn, and PgDn brings the last row into
#     view (with the "^" mark above);
#  3. the VM step of the ESXi sample's BIOS hw-13 VM: the advice scrolls
#     with PgDn too, and its WARN rows come first;
#  4. the options step of two A100 vGPUs with UVM and P2P (offline): the
#     WARN findings first, PgDn brings the last one's fix into view.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

# the status labels of the host rows in $lang (translated, like the BIOS
# list: doc/design.md, section 11), as a regex alternation
labels() { echo "$(tr_ $lang PASS)|$(tr_ $lang WARN)|$(tr_ $lang FAIL)|$(tr_ $lang INFO)"; }
# the status of the host rows, top to bottom, as PASS/WARN/FAIL/INFO
statuses() {
	screen
	grep -oE " ($(labels))\$" "$SCREEN" | tr -d ' ' | sed \
		-e "s/^$(tr_ $lang PASS)\$/PASS/" -e "s/^$(tr_ $lang WARN)\$/WARN/" \
		-e "s/^$(tr_ $lang FAIL)\$/FAIL/" -e "s/^$(tr_ $lang INFO)\$/INFO/"
}
# sorted: no FAIL after a WARN or PASS, no WARN after a PASS
sorted() {
	statuses | awk '{ r = ($1 == "FAIL") ? 0 : ($1 == "WARN") ? 1 : ($1 == "INFO") ? 2 : 3
	                  if (r < last) bad = 1; last = r } END { exit bad }'
}
first_status() { statuses | head -n 1; }

# a sample host with more rows than fit at 80x24
mkdir -p "$TMP/hosts/many-gpus"
sed 's/^title .*/title = "Intel workstation with nine GPUs on nvidia"/' \
	"$SRC/data/hosts/intel-iommu-off-kernel/host.ini" >"$TMP/hosts/many-gpus/host.ini"
i=1
while [ $i -le 8 ]; do
	printf '\n[dev%d]\nname = "AD102GL [RTX 6000 Ada Generation]"\nbdf = 0000:c%d:00.0\nvendor = 0x10de\ndevice = 0x26b1\nsubvendor = 0x10de\nsubdevice = 0x16a1\nclass = 0x030000\nrevision = 0xa1\nbars = "0:mem32:16M 1:mem64p:64G 3:mem64p:32M"\ndriver = nvidia\n' \
		$((8 + i)) $((1 + i)) >>"$TMP/hosts/many-gpus/host.ini"
	i=$((i + 1))
done

host_step() { # LANG SAMPLE
	lang=$1; shift
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	if [ "$lang" = C.UTF-8 ]; then
		start "$lang" 80x24 --sample-host "$@"
	else
		start "$lang" 80x24 --lang zh_CN --sample-host "$@"
	fi
	wait_for "$(st WELCOME)" 30 >/dev/null
	keys Enter
	wait_for "$(st HOST)" 30
}

for lang in C.UTF-8 zh_CN.UTF-8; do
	[ $lang = C.UTF-8 ] || [ $have_zh = 1 ] || continue
	# ---- 1. FAIL/WARN first ----------------------------------------------
	export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
	check "$lang esxi: host step" host_step $lang esxi-l40s
	check "$lang esxi: the first row is a WARN" [ "$(first_status)" = WARN ]
	check "$lang esxi: FAIL/WARN before PASS" sorted
	check "$lang esxi: the second L40S's row is first" sh -c \
		"grep -E ' ($(labels))\$' '$SCREEN' | head -n 1 | grep -q '0000:5e:00.0'"
	check "$lang esxi: its message below the rows" on_screen \
		"$(tr_ $lang "passthrough not enabled for this GPU")"
	check "$lang esxi: no PgDn without rows below" sh -c "! grep -q 'PgDn' '$SCREEN'"
	keys q; keys y; exited 10 >/dev/null

	check "$lang iommu-off: host step" host_step $lang intel-iommu-off-kernel
	check "$lang iommu-off: the first row is the FAIL" [ "$(first_status)" = FAIL ]
	check "$lang iommu-off: FAIL/WARN before PASS" sorted
	check "$lang iommu-off: three WARN rows follow it" sh -c \
		"[ \$(grep -cE ' $(tr_ $lang WARN)\$' '$SCREEN') -eq 3 ]"
	check "$lang iommu-off: the FAIL's fix is shown whole" sh -c "! grep -q '…\$' '$SCREEN'"
	keys q; keys y; exited 10 >/dev/null

	# ---- 2. more rows than fit: the mark, PgDn -----------------------------
	export GPUWIZ_HOSTS_DIR="$TMP/hosts"
	last=$(tr_ $lang "Checking for interrupt remapping")
	check "$lang many: host step" host_step $lang many-gpus
	check "$lang many: the FAIL first" [ "$(first_status)" = FAIL ]
	check "$lang many: the last row is below the fold" sh -c "! grep -qF '$last' '$SCREEN'"
	check "$lang many: the v mark says so" sh -c "grep -qE ' v ($(tr_ $lang WARN)|$(tr_ $lang PASS))\$' '$SCREEN'"
	check "$lang many: the key line offers PgDn" sh -c "tail -n 1 '$SCREEN' | grep -q 'PgDn'"
	keys PageDown; keys PageDown
	check "$lang many: PgDn brings the last row into view" wait_for "$last" 5
	check "$lang many: the ^ mark shows rows above" sh -c "grep -qE ' \\^ ($(tr_ $lang WARN)|$(tr_ $lang PASS))\$' '$SCREEN'"
	check "$lang many: nothing below now, no PgDn" sh -c "! tail -n 1 '$SCREEN' | grep -q 'PgDn'"
	check "$lang many: the marks never touch text" sh -c "! grep -qE '[^ ][v^]($(labels))' '$SCREEN'"
	keys PageUp; keys PageUp
	check "$lang many: PgUp goes back to the FAIL" [ "$(first_status)" = FAIL ]
	keys q; keys y; exited 10 >/dev/null

	# ---- 3. the VM step's advice -------------------------------------------
	export GPUWIZ_HOSTS_DIR="$SRC/data/hosts"
	check "$lang vm: host step" host_step $lang esxi-l40s
	keys Enter
	wait_for "$(st GPU)" >/dev/null
	keys Space; keys Enter
	check "$lang vm: VM step" wait_for "$(st VM)"
	keys Down; keys Space
	check "$lang vm: ubuntu-l40s opens" wait_for "Vmid 1"
	check "$lang vm: its advice starts with a WARN" sh -c \
		"grep -A1 -F '$(tr_ $lang "Advice:")' '$SCREEN' | tail -n 1 | grep -qF '$(tr_ $lang WARN)'"
	check "$lang vm: more advice below: PgDn offered" sh -c "tail -n 1 '$SCREEN' | grep -q 'PgDn'"
	n=0
	while [ $n -lt 4 ] && ! on_screen "vim-cmd vmsvc/upgrade"; do keys PageDown; n=$((n + 1)); done
	check "$lang vm: PgDn brings the upgrade's fix into view" on_screen "vim-cmd vmsvc/upgrade"
	keys q; keys y; exited 10 >/dev/null

	# ---- 4. the options step's findings ------------------------------------
	rm -rf "$TMP/run"; mkdir -p "$TMP/run"
	sample vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx "$TMP/run/vm.vmx"
	printf '[gpu]\ndevices = grid_a100-40c=2\n[vm]\nvmx = vm.vmx\nesxi = 8.0U2\n[options]\nuvm = yes\np2p = yes\n[output]\ndir = out\n' >"$TMP/run/a.ini"
	if [ $lang = C.UTF-8 ]; then
		start $lang 80x24 --answers a.ini
	else
		start $lang 80x24 --lang zh_CN --answers a.ini
	fi
	wait_for "$(st WELCOME)" 30 >/dev/null
	enters WELCOME OPTIONS
	check "$lang options: the step" wait_for "$(st OPTIONS)"
	warn=$(tr_ $lang WARN)
	check "$lang options: the first finding is a WARN" sh -c \
		"grep -E '^ (\S+)  ' '$SCREEN' | tail -n +1 | grep -F -m1 -e '$warn' -e '$(tr_ $lang INFO)' | grep -qF '$warn'"
	check "$lang options: more below: PgDn offered" sh -c "tail -n 1 '$SCREEN' | grep -q 'PgDn'"
	n=0
	while [ $n -lt 12 ] && ! on_screen "NVIDIA GRID vGPU"; do keys PageDown; n=$((n + 1)); done
	check "$lang options: PgDn brings the last fix into view" on_screen "NVIDIA GRID vGPU"
	keys q; keys y; exited 10 >/dev/null
done
finish
