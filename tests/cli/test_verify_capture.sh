#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gpuwiz verify --nvidia-smi-q on captures that show less than they seem
# to: unified memory only on Addressing Mode HMM or ATS, the R610 driver
# lines (a note after the version, KMD Version, CUDA UMD Version), and the
# vGPU counts (Attached vGPUs in a guest, Active vGPUs on a host), in C and
# zh_CN (doc/design.md, section 15.9).
. "$(dirname "$0")/lib.sh"
NV=$FIX/nvidia-smi
V100D=$NV/tkgi-v100d-8c-vgpu-guest-attached-vgpus.txt
R610=$NV/synthetic-h200-passthrough-driver-610-kmd-umd.txt
A16Q0=$NV/synthetic-a16-host-vgpu-q-active-0.txt

# status FILE ID GPU: the status of a row of verify --json ("-" when absent)
status() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
gpu=None if sys.argv[3]=='-' else sys.argv[3]
s=[c['status'] for c in d['checks'] if c['id']==sys.argv[2] and c['gpu']==gpu]
print(s[0] if s else '-')" "$@" 2>/dev/null; }

# --- Addressing Mode N/A on a vGPU (the TKGI docs' V100D-8C guest) ------------
run "$GPUWIZ" verify --nvidia-smi-q "$V100D" --json
check "V100D-8C: N/A is a WARN, not a PASS" [ "$(status "$out" addressing-mode 00000000:02:00.0)" = warn ]
check "V100D-8C: the count of Attached vGPUs is read" python3 -c "
import json; d=json.load(open('$out')); assert d['attached_gpus']==1, d['attached_gpus']"
run "$GPUWIZ" verify --nvidia-smi-q "$V100D"
check "V100D-8C: exit 0 (a WARN)" [ $rc -eq 0 ]
check "V100D-8C: the header names Attached vGPUs" has 'Attached vGPUs: 1'
check "V100D-8C: the row says what to check" sh -c "grep -qF 'Addressing Mode N/A: the driver does not say' '$out' && grep -qF 'pciPassthruN.cfg.enable_uvm = \"1\"' '$out' && grep -qF 'nvidia-smi -q prints it' '$out'"
sed 's/^Attached vGPUs  *: 1$/Attached vGPUs                             : 2/' "$V100D" >"$TMP/v2.txt"
run "$GPUWIZ" verify --nvidia-smi-q "$TMP/v2.txt"
check "guest with 2 attached vGPUs but one section: WARN" has 'the capture shows 1 of the 2 attached vGPUs'

# --- the R610 driver lines ---------------------------------------------------------
run "$GPUWIZ" verify --nvidia-smi-q "$R610"
check "R610: exit 0" [ $rc -eq 0 ]
check "R610: the driver is judged by its number" sh -c "grep -qF 'driver 610.57.04 is 535.129.03 or newer' '$out' && ! grep -qF 'cannot read' '$out'"
check "R610: CUDA from CUDA UMD Version" has 'the driver supports CUDA up to 13.3'
grep -v -e '^KMD Version' -e '^CUDA UMD Version' "$R610" | sed 's/: 610\.57\.04 \[/: 530.30.02 [/' >"$TMP/r530.txt"
run "$GPUWIZ" verify --nvidia-smi-q "$TMP/r530.txt"
check "R610 form of an old driver: FAIL by its number" sh -c "[ $rc -eq 1 ] && grep -qF 'driver 530.30.02 is older than 535.129.03' '$out'"

# --- Active vGPUs on a vGPU host ---------------------------------------------------
run "$GPUWIZ" verify --nvidia-smi-q "$A16Q0" --json
check "host with Active vGPUs 0: a WARN" [ "$(status "$out" vgpus 00000000:13:00.0)" = warn ]
run "$GPUWIZ" verify --nvidia-smi-q "$A16Q0"
check "host: the row shows the count" sh -c "grep -qF 'Checking GPU 00000000:13:00.0: running vGPUs' '$out' && grep -qF 'Active vGPUs: 0: no VM runs a vGPU on this GPU' '$out'"
sed 's/^    Active vGPUs  *: 0$/    Active vGPUs                          : 3/' "$A16Q0" >"$TMP/a3.txt"
run "$GPUWIZ" verify --nvidia-smi-q "$TMP/a3.txt" --json
check "host with 3 running vGPUs: reported as INFO" [ "$(status "$out" vgpus 00000000:13:00.0)" = info ]

# --- zh_CN ---------------------------------------------------------------------------
if locale -a 2>/dev/null | grep -qi '^zh_CN\.utf-\?8$' && [ -n "${GPUWIZ_LOCALEDIR:-}" ]; then
	zh() { env -u LC_ALL LANG=zh_CN.UTF-8 "$GPUWIZ" "$@"; }
	zh verify --nvidia-smi-q "$V100D" >"$TMP/zh" 2>&1
	check "zh: Addressing Mode N/A in Chinese" sh -c "grep -qF '驱动没有说明此 vGPU 能否使用统一内存' '$TMP/zh' && grep -qF 'pciPassthruN.cfg.enable_uvm = \"1\"' '$TMP/zh' && grep -qF 'Attached vGPUs: 1' '$TMP/zh'"
	zh verify --nvidia-smi-q "$TMP/v2.txt" >"$TMP/zh" 2>&1
	check "zh: fewer vGPU sections than attached, in Chinese" grep -qF '此捕获只显示了 1 个 vGPU，而已挂接的 vGPU 有 2 个' "$TMP/zh"
	zh verify --nvidia-smi-q "$A16Q0" >"$TMP/zh" 2>&1
	check "zh: no running vGPU in Chinese" sh -c "grep -qF '检查 GPU 00000000:13:00.0：运行中的 vGPU' '$TMP/zh' && grep -qF '没有虚拟机在此 GPU 上运行 vGPU' '$TMP/zh'"
	zh verify --nvidia-smi-q "$TMP/a3.txt" >"$TMP/zh" 2>&1
	check "zh: running vGPUs counted in Chinese" grep -qF 'Active vGPUs：3（此 GPU 上运行中的虚拟机的 vGPU）' "$TMP/zh"
else
	echo "# zh_CN checks skipped (no zh_CN.UTF-8 locale or GPUWIZ_LOCALEDIR)"
fi

finish
