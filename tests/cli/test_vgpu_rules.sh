#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# vGPU rules from NVIDIA's documents (doc/design.md, sections 15.2 and
# 15.3): NVIDIA's MMIO table against the rule (mmio), the vGPU type sizes
# NVIDIA lists (a size it does not list is refused), A/B-series without
# CUDA, several vGPUs by the ESXi release, UVM on a fractional profile, the
# A100 P2P warning for time-sliced vGPUs only, a 64-bit guest (vmx), the
# Q-, B- and A-series sizes of the L40S, passthrough and vGPU of one model
# in one VM or BOSH extension (TKGI), in English and Chinese.  The .vmx is
# tests/fixtures/vmx/synthetic-vgpu-l40s-24c-x2-ubuntu32.vmx (synthetic, see
# its README row).
. "$(dirname "$0")/lib.sh"

for lang in C.UTF-8 zh_CN.UTF-8; do
	export LANG=$lang LC_ALL=$lang LANGUAGE=
	# a V100 16 GB vGPU: the rule gives 32, NVIDIA's table 64
	run "$GPUWIZ" mmio --vgpu grid_v100x-16c --memory 65536
	check "$lang: mmio V100 16 GB vGPU exits 0" [ $rc -eq 0 ]
	check "$lang: it writes NVIDIA's 64 GB" has 'pciPassthru.64bitMMIOSizeGB = "64"'
	check "$lang: it shows the rule's 32 GB and the table's 64 GB" \
		sh -c "grep -q '32 GB' '$out' && grep -q '64 GB = 64 GB' '$out'"
	check "$lang: it names NVIDIA's table (Table 18) as the source" \
		has "Table 18 MMIO Space Required"
	if [ "$lang" = zh_CN.UTF-8 ]; then
		check "$lang: the reason is in Chinese" has "NVIDIA 的 MMIO 表要求此 vGPU 虚拟机使用 64 GB"
	else
		check "$lang: it says which one is taken and why" \
			has "NVIDIA's table, which is authoritative for vGPU VMs"
	fi
	# below 32 GB of memory the table does not apply
	run "$GPUWIZ" mmio --vgpu grid_v100x-16c --memory 16384
	check "$lang: with 16 GB of memory the rule's 32 GB" has 'pciPassthru.64bitMMIOSizeGB = "32"'

	# a size NVIDIA does not list: one line naming the valid ones
	run "$GPUWIZ" mmio --vgpu nvidia_l40s-47c
	check "$lang: nvidia_l40s-47c is refused" [ $rc -ne 0 ]
	check "$lang: in one line" err_one_line
	check "$lang: naming the valid sizes" errhas "4, 6, 8, 12, 16, 24, 48"

	# B-series: no CUDA
	run "$GPUWIZ" mmio --vgpu nvidia_l40s-2b --esxi 8.0U2
	check "$lang: a B-series vGPU is a FAIL" has "nvidia_l40s-2b"
	check "$lang: naming the C-series sizes" has "nvidia_l40s-<GB>c"
	if [ "$lang" = zh_CN.UTF-8 ]; then
		check "$lang: CUDA in Chinese" has "只能在 C 系列"
	else
		check "$lang: CUDA runs only on C- and Q-series" has "runs only on C-series (AI Enterprise) and Q-series"
	fi

	# two fractional vGPUs: by the ESXi release
	sample vmx/synthetic-vgpu-l40s-24c-x2-ubuntu32.vmx "$TMP/v.vmx"
	run "$GPUWIZ" vmx "$TMP/v.vmx" --esxi 7.0U3
	check "$lang: vmx on ESXi 7.0U3 names vSphere 7.x" has "vSphere 7.x"
	check "$lang: and the 32-bit guest" has "guestOS = ubuntu"
	run "$GPUWIZ" vmx "$TMP/v.vmx" --esxi 8.0U2
	check "$lang: on 8.0U2 no vSphere 7.x finding" sh -c "! grep -q 'vSphere 7.x' '$out'"
	run "$GPUWIZ" vmx "$TMP/v.vmx"
	check "$lang: ESXi unknown: it asks for --esxi" has "--esxi"
	run "$GPUWIZ" vmx "$TMP/v.vmx" --esxi 8.0U2 --uvm
	check "$lang: UVM on nvidia_l40s-24c names nvidia_l40s-48c" has "nvidia_l40s-48c"
	check "$lang: the .vmx is not changed without --write" \
		sh -c "tail -n +2 '$FIX/vmx/synthetic-vgpu-l40s-24c-x2-ubuntu32.vmx' | cmp -s - '$TMP/v.vmx'"

	# an answers file replayed: the same refusal and the same checks
	mkdir -p "$TMP/ans"
	cp "$TMP/v.vmx" "$TMP/ans/v.vmx"
	printf '[gpu]\ndevices = nvidia_l40s-47c\n[vm]\nvmx = v.vmx\n' >"$TMP/ans/bad.ini"
	run "$GPUWIZ" apply --answers "$TMP/ans/bad.ini"
	check "$lang: answers with nvidia_l40s-47c: refused" [ $rc -ne 0 ]
	check "$lang: answers: the valid sizes named" errhas "4, 6, 8, 12, 16, 24, 48"
	check "$lang: answers: the .vmx unchanged" cmp -s "$TMP/v.vmx" "$TMP/ans/v.vmx"
	printf '[vm]\nvmx = v.vmx\nesxi = 7.0U3\n' >"$TMP/ans/seven.ini"
	run "$GPUWIZ" apply --answers "$TMP/ans/seven.ini"
	check "$lang: answers with esxi = 7.0U3: the vSphere 7.x FAIL" sh -c "[ $rc -eq 1 ] && grep -q 'vSphere 7.x' '$out' '$err'"
	check "$lang: answers: a FAIL is not written" cmp -s "$TMP/v.vmx" "$TMP/ans/v.vmx"

	# a size NVIDIA does not list, already in a .vmx: a WARN
	sed 's/nvidia_l40s-24c/nvidia_l40s-47c/' "$TMP/v.vmx" >"$TMP/w.vmx"
	run "$GPUWIZ" vmx "$TMP/w.vmx" --esxi 8.0U2
	check "$lang: an unlisted size in the .vmx is named with the valid ones" \
		sh -c "grep -q 'pciPassthru0.*nvidia_l40s-47c' '$out' && grep -q '4, 6, 8, 12, 16, 24, 48' '$out'"

	# Q-, B- and A-series sizes: judged against the row of their series
	run "$GPUWIZ" mmio --vgpu nvidia_l40s-47q
	check "$lang: nvidia_l40s-47q is refused" [ $rc -eq 2 ]
	check "$lang: in one line naming the Q-series sizes" sh -c \
		"[ \$(wc -l <'$err') -eq 1 ] && grep -qF '>q' '$err' && grep -qF '1, 2, 3, 4, 6, 8, 12, 16, 24, 48' '$err'"
	check "$lang: with the source of the Q-series sizes" errhas "creatable_vgpu_types"
	run "$GPUWIZ" mmio --vgpu nvidia_l40s-24q --esxi 8.0U2
	check "$lang: nvidia_l40s-24q is a valid profile" sh -c "[ $rc -eq 0 ] && ! grep -q 'does not exist' '$out' '$err'"
	run "$GPUWIZ" mmio --vgpu nvidia_l40s-4a --esxi 8.0U2
	check "$lang: nvidia_l40s-4a: no typo, only the CUDA FAIL" sh -c \
		"[ $rc -eq 0 ] && [ ! -s '$err' ] && grep -q 'nvidia_l40s-4a.*A' '$out' && grep -q 'CUDA' '$out'"
	run "$GPUWIZ" mmio --vgpu nvidia_l40s-4b
	check "$lang: nvidia_l40s-4b is refused with the B-series sizes" sh -c \
		"[ $rc -eq 2 ] && grep -qF '1, 2, 3' '$err' && ! grep -qF '1, 2, 3, 4' '$err' && grep -qF '>b' '$err'"
	# the T4's Q-series: the types of vgpuConfig.xml, driver 510.47.03
	run "$GPUWIZ" mmio --vgpu grid_t4-3q
	check "$lang: grid_t4-3q is refused in one line with the T4's Q sizes" sh -c \
		"[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'grid_t4-3q' '$err' && grep -qE '1, 2, 4, 8, 16([^,0-9]|\$)' '$err' && grep -qF 'vgpuConfig.xml' '$err'"
	# the A100: C-series only (vgpuConfig.xml 510.47.03)
	run "$GPUWIZ" mmio --vgpu grid_a100-40q
	check "$lang: grid_a100-40q is refused: the A100 has C-series types only" sh -c \
		"[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ] && grep -qF 'grid_a100-40q' '$err' && grep -qF '4, 5, 8, 10, 20, 40' '$err' && grep -qF 'grid_a100-<' '$err'"
	run "$GPUWIZ" mmio --vgpu grid_t4-16q --esxi 8.0U2
	check "$lang: grid_t4-16q is a valid profile" sh -c "[ $rc -eq 0 ] && ! grep -q 'does not exist' '$out' '$err' && [ ! -s '$err' ]"

	# passthrough and vGPU of one model in one BOSH extension: a FAIL
	run "$GPUWIZ" snippet --format bosh --gpu l40s --vgpu nvidia_l40s-24c
	check "$lang: bosh with an L40S passed through and an L40S vGPU exits 1" [ $rc -eq 1 ]
	if [ "$lang" = zh_CN.UTF-8 ]; then
		check "$lang: the FAIL in Chinese, with TKGI's words" \
			errhas '同一 GPU 型号的直通与 vGPU 在一个虚拟机或一个 BOSH VM 扩展中互斥（TKGI："you can use only one of them"'
	else
		check "$lang: the FAIL names both and TKGI's words" \
			errhas 'l40s is in this VM both passed through (DirectPath I/O) and as vGPU nvidia_l40s-24c'
		check "$lang: and its source" errhas "Tanzu Kubernetes Grid Integrated Edition"
	fi
	run "$GPUWIZ" snippet --format bosh --gpu a100-80g-pcie --vgpu nvidia_l40s-24c
	check "$lang: another model beside the vGPU: no such FAIL" sh -c "! grep -q 'TKGI' '$err'"
	# an L40S already passed through in a .vmx (synthetic block on a
	# Workstation sample), a vGPU of it asked for: FAIL, nothing written
	sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/pt.vmx"
	printf 'pciPassthru0.present = "TRUE"\npciPassthru0.id = "00000:059:00.0"\npciPassthru0.vendorId = "0x10de"\npciPassthru0.deviceId = "0x26b9"\n' >>"$TMP/pt.vmx"
	cp "$TMP/pt.vmx" "$TMP/pt.orig"
	run "$GPUWIZ" vmx "$TMP/pt.vmx" --vgpu nvidia_l40s-48c --esxi 8.0U2 --write
	check "$lang: vmx with a passthrough L40S and an L40S vGPU: FAIL" sh -c \
		"[ $rc -eq 1 ] && grep -q 'TKGI' '$out' '$err'"
	check "$lang: the .vmx is not changed" cmp -s "$TMP/pt.vmx" "$TMP/pt.orig"

	# the A100 P2P warning: time-sliced only
	sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/u.vmx"
	run "$GPUWIZ" vmx "$TMP/u.vmx" --vgpu grid_a100-40c=2 --uvm --esxi 8.0U2
	check "$lang: time-sliced A100 vGPUs: the P2P warning" has "NVLink P2P"
	run "$GPUWIZ" vmx "$TMP/u.vmx" --vgpu grid_a100-3-20c=2 --uvm --esxi 8.0U2
	check "$lang: MIG-backed A100 vGPUs: none" sh -c "! grep -q 'NVLink P2P' '$out'"
done
finish
