#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generate data/gpus.ini (the GPU table read by src/core/gputable.c) from
the fact sheet data/gpu_facts.csv (its sources: data/gpu_facts.notes.md).

Usage (from the repository root):

    python3 data/gen-gpus-ini.py [CSV] [-o data/gpus.ini] [--check]

CSV defaults to data/gpu_facts.csv beside this script; the script reads no
other file.  --check regenerates in memory and fails if data/gpus.ini
differs.

Every CSV row becomes one section.  The facts (name, ids, VRAM, BAR1,
source) are copied from the CSV unchanged: "unknown" stays "unknown".  What
this script adds is curated below, in CURATED: the short id of each row, the
PCI subsystem id where it decides the model (25b6 = A2 or A16), and the
vGPU profile prefix as ESXi shows it; and, by the rules of gpu_class() and
gpu_sriov(), the class and whether vGPU runs on SR-IOV.

Class (the GPU step's filter): from the pci.ids name in the CSV: a name
whose model (the text in brackets) says "GeForce" is geforce; an NVIDIA
model naming "RTX " or "Quadro" (RTX A6000, RTX 6000 Ada) is workstation;
every other row (NVIDIA Tesla/A/H/L/B boards, AMD Instinct, Intel Data
Center GPU) is datacenter.  A CURATED entry may set "class" where the name
misleads the rule (a server board named "RTX ...").

SR-IOV: NVIDIA vGPU on GPUs of the Ampere architecture and later runs on
SR-IOV virtual functions, earlier boards (Pascal, Volta, Turing) use
time-sliced vGPU without SR-IOV (NVIDIA vGPU software documentation;
doc/design.md 15.3; tests/fixtures/nvidia-smi/a16-vgpu-host-sriov.txt, an
A16 vGPU host, prints "Host VGPU Mode: SR-IOV").  The architecture is the
chip code that starts the pci.ids name (ARCH below: GA107GL = Ampere,
AD102GL = Ada, GH100 = Hopper, GB100 = Blackwell; TU = Turing, GV = Volta,
GP = Pascal).  sriov = yes for an NVIDIA row of Ampere or later that has a
vGPU prefix (NVIDIA lists vGPU types for it); no for every other row: no
vGPU types in the table (GeForce, A10G, RTX A4000, B200, AMD, Intel), or a
board before Ampere.

vGPU prefixes.  ESXi names a vGPU profile after NVIDIA's vGPU type, lower
case, the space turned into '_': type "GRID A100D-80C" -> profile
"grid_a100d-80c", type "NVIDIA L40S-48C" -> "nvidia_l40s-48c".  NVIDIA's
type names start with "GRID" for the older boards (Pascal, Volta, Turing,
A100) and with "NVIDIA" for the boards added later (A10/A16/A2/A30/A40,
RTX A-series, Ada, Hopper).  So the board part (a100d, l40s, h100xm...) comes
from NVIDIA's "Virtual GPU Types for Supported GPUs" tables and the grid_/
nvidia_ part from the driver's type name.  gputable.c matches a profile on
the board part and accepts either spelling, so "grid_h100xm-80c" still finds
the H100 SXM5, but the table records the spelling ESXi lists.

Sources (cited per prefix in CURATED as S1..S9):
  S1  NVIDIA AI Enterprise 6 docs, appendix "NVIDIA AI Enterprise and NVIDIA
      vGPU (C-Series)", section "Virtual GPU Types for Supported GPUs"
      (https://docs.nvidia.com/ai-enterprise/release-6/latest/appendix/vgpu.html;
      read as a markdown snapshot, code-index file 69514242809): board ->
      type tables, e.g. A100 PCIe 40GB = A100-40C, A100 HGX 40GB = A100X-40C,
      A100 PCIe 80GB = A100D-80C, A100 HGX 80GB = A100DX-80C, H100 PCIe 80GB =
      H100-80C, H100 SXM5 80GB = H100XM-80C, H100 NVL = H100L-94C, H200 NVL =
      H200-141C, H200 SXM5 = H200X-141C, H800 PCIe = H800-80C, H800 SXM5 =
      H800XM-80C, A800 PCIe 80GB = A800D-80C, A800 40GB Active = A800-40C,
      A800 HGX 80GB = A800DX-80C, L40/L40S/L20/L4, A40/A16/A10/A30,
      RTXA6000/RTXA5000, RTX 6000 Ada, T4, V100X/V100DX/V100D/V100S.
  S2  vgpu_unlock wiki page "vGPU Types" (list taken from vgpuConfig.xml of
      driver 510.47.03; code-index file 29865793103): exact type names with
      their GRID/NVIDIA part: GRID A100/A100D/A100DX/A100X, GRID P40/P100/
      P100C/P100X, GRID T4, GRID V100/V100D/V100DX/V100S/V100X; NVIDIA A10/
      A16/A2/A30/A40/RTXA5000/RTXA6000.
  S3  Real ESXi/vSphere profile strings, grid_: ansible vmware.vmware
      vm_gpu docs "grid_a100-40c" (code-index 57001612643); Frank Denneman,
      "Topology-Aware Multi-GPU VM Placement" (2026): device group
      "Nvidia:2@grid_a100d-80c%NVLink" and "Nvidia:2@nvidia_h100xm-80c%NVLink"
      (code-index 52360596817); vm-operator test "grid_p40-2q" (code-index
      2532618592); Tony Foster, "vGPU System Capacity for PowerCLI" 1.4
      (2019): grid_p40-24q, grid_p100-16q, grid_p100c-12q, grid_t4-16q,
      grid_v100-16q, grid_v100d-32q (code-index 9748907721); BOSH vSphere
      CPI docs "vgpus: [grid_t4-16q]" (doc/design.md, section 15.8).
  S4  Real profile strings, nvidia_: govc "gpu.vm.add -profile
      nvidia_a40-1b" (govmomi, code-index 6680495942); an ESXi 7.0.3 error
      "No graphics device is available for vGPU 'nvidia_a40-1a'" (VMware
      community post, code-index 57412094639); vss-cli "gpus: - nvidia_l4-24c"
      (code-index 53760020866); Horizon/NVIDIA Air strings "nvidia_l40s-48q"
      (code-index 39948287461); Frank Denneman (see S3) "nvidia_h100xm-80c".
  S5  Guest nvidia-smi showing the type name: "NVIDIA RTXA6000-24Q"
      (tests/fixtures/nvidia-smi/rtxa6000-24q-vgpu-guest.txt); sysfs
      creatable_vgpu_types "NVIDIA RTX6000-Ada-1Q" (code-index 21695765307);
      Dell MLPerf system list "NVIDIA H100-80C (virtualized)" (code-index
      28767314173); MLPerf config GPU name "NVIDIA H100XM-80C" with pci_id
      0x233010DE (code-index 49208503525).
  S9  Inferred: the board part is from S1, but no sample showing the
      grid_/nvidia_ spelling for this board was found; nvidia_ is used
      because every type NVIDIA added after the A100 (S2) uses "NVIDIA".

Rows without a prefix: GeForce, AMD, Intel; boards NVIDIA lists no vGPU types
for (A10G, A10M, RTX A4000, RTX 4000 Ada, RTX 4000 SFF Ada, the second
pci.ids ids 20b1 and 26b7, A800 SXM4 40GB); boards S1 has no type table for
(B200/HGX B200, GB200, B300, H20, H20 HBM3e, H800 NVL, H100 SXM5 94GB,
GH200, L40G, the RTX PRO Blackwell boards).  20b1 is also "A100 PCIe 40GB" but was never seen on real hardware;
grid_a100 belongs to 20f1 only, so that a profile maps to one row.

vGPU types and NVIDIA's MMIO table (beside the CSV, read with it):
  vgpu_types.csv  board,series,mode,sizes,source: the vGPU types NVIDIA
      lists per board (board = the part of vgpu_prefix after grid_/nvidia_;
      mode time-sliced or mig; sizes in GB, "<slices>-<GB>" for MIG-backed
      types), e.g. "l40s,c,time-sliced,4 6 8 12 16 24 48".  Emitted as
      vgpu_types = "4c 6c ... 48c" (size and series as in a profile name,
      MIG-backed ones "1-10c") on the row with that board.  Sizes "none":
      NVIDIA offers no type of that series on the board (A100: C only),
      emitted as vgpu_no_series = "q a b".
  vgpu_mmio.csv   gpu_id,mmio_gb,nvidia_gpu,source: NVIDIA's "MMIO Space
      Required" for a vGPU VM with 32 GB or more of memory, per short id.
      Emitted as vgpu_mmio_gb.
  Both sources go into vgpu_source.  A board or id that no row has, a row
  without a vgpu_prefix, or a repeated (board, series, mode) is an error.

Standard library only.
"""

import argparse
import csv
import hashlib
import io
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CSV = os.path.join(REPO, "data", "gpu_facts.csv")
DEFAULT_OUT = os.path.join(REPO, "data", "gpus.ini")

# iniparser 4.1 reads lines into a 1024-byte buffer: a line may have at
# most 1022 characters before its newline.
MAX_LINE = 1022

# Curated data, keyed by "vendor:device".  A list holds rows that share a PCI
# id; "match" is a text that must appear in that row's source_notes to pick
# the entry.  Fields: id (short id), subsys ("vvvv:dddd", only where it
# decides the model), vgpu (profile prefix), why (source of the prefix),
# class (only where the rule of gpu_class() gets it wrong).
CURATED = {
    # --- NVIDIA datacenter, Ampere -------------------------------------
    "10de:25b6": [
        {"match": "NVIDIA A2 = subsystem 10de:157e", "id": "a2",
         "subsys": "10de:157e", "vgpu": "nvidia_a2", "why": "S1 A2 types; S2 'NVIDIA A2-16C'"},
        {"match": "NVIDIA A16 = subsystem 10de:14a9", "id": "a16",
         "subsys": "10de:14a9", "vgpu": "nvidia_a16", "why": "S1 A16-16C; S2 'NVIDIA A16-16C'"},
    ],
    "10de:2236": {"id": "a10", "vgpu": "nvidia_a10", "why": "S1 A10-24C; S2 'NVIDIA A10-24C'"},
    "10de:2237": {"id": "a10g"},
    "10de:2238": {"id": "a10m"},
    "10de:20b7": {"id": "a30", "vgpu": "nvidia_a30", "why": "S1 A30-24C; S2 'NVIDIA A30-24C'"},
    "10de:2235": {"id": "a40", "vgpu": "nvidia_a40",
                  "why": "S1 A40-48C; S2 'NVIDIA A40-48C'; S4 nvidia_a40-1b, nvidia_a40-1a"},
    "10de:20f1": {"id": "a100-40g-pcie", "vgpu": "grid_a100",
                  "why": "S1 A100-40C; S2 'GRID A100-40C'; S3 grid_a100-40c"},
    "10de:20b1": {"id": "a100-40g-pcie-20b1"},
    "10de:20b5": {"id": "a100-80g-pcie", "vgpu": "grid_a100d",
                  "why": "S1 A100D-80C; S2 'GRID A100D-80C'; S3 grid_a100d-80c"},
    "10de:20b0": {"id": "a100-40g-sxm4", "vgpu": "grid_a100x",
                  "why": "S1 A100 HGX 40GB = A100X-40C; S2 'GRID A100X-40C'"},
    "10de:20b2": {"id": "a100-80g-sxm4", "vgpu": "grid_a100dx",
                  "why": "S1 A100 HGX 80GB = A100DX-80C; S2 'GRID A100DX-80C'"},
    "10de:20f3": {"id": "a800-80g-sxm4", "vgpu": "nvidia_a800dx",
                  "why": "S1 A800 HGX 80GB = A800DX-80C; S9"},
    "10de:20f5": {"id": "a800-80g-pcie", "vgpu": "nvidia_a800d",
                  "why": "S1 A800 PCIe 80GB = A800D-80C; S9"},
    "10de:20f6": {"id": "a800-40g-pcie", "vgpu": "nvidia_a800",
                  "why": "S1 A800 PCIe 40GB Active Cooled = A800-40C; S9"},
    "10de:20bd": {"id": "a800-40g-sxm4"},
    # --- NVIDIA datacenter, Hopper -------------------------------------
    "10de:2331": {"id": "h100-pcie", "vgpu": "nvidia_h100",
                  "why": "S1 H100 PCIe 80GB = H100-80C; S5 'NVIDIA H100-80C'"},
    "10de:2330": {"id": "h100-sxm", "vgpu": "nvidia_h100xm",
                  "why": "S1 H100 SXM5 80GB = H100XM-80C; S4 nvidia_h100xm-80c; S5 'NVIDIA H100XM-80C' on 0x2330"},
    "10de:2321": {"id": "h100-nvl", "vgpu": "nvidia_h100l",
                  "why": "S1 H100 PCIe 94GB (H100 NVL) = H100L-94C; S9"},
    "10de:2335": {"id": "h200-sxm", "vgpu": "nvidia_h200x",
                  "why": "S1 H200 SXM5 141GB = H200X-141C; S9"},
    "10de:233b": {"id": "h200-nvl", "vgpu": "nvidia_h200",
                  "why": "S1 H200 PCIe 141GB (H200 NVL) = H200-141C; S9"},
    "10de:2324": {"id": "h800-sxm", "vgpu": "nvidia_h800xm",
                  "why": "S1 H800 SXM5 80GB = H800XM-80C; S9"},
    "10de:2322": {"id": "h800-pcie", "vgpu": "nvidia_h800",
                  "why": "S1 H800 PCIe 80GB = H800-80C; S9"},
    "10de:233a": {"id": "h800-nvl"},
    "10de:2339": {"id": "h100-sxm5-94g"},
    "10de:2329": {"id": "h20"},
    "10de:232c": {"id": "h20-hbm3e"},
    "10de:2342": {"id": "gh200"},
    # --- NVIDIA datacenter, Ada ----------------------------------------
    "10de:27b8": {"id": "l4", "vgpu": "nvidia_l4", "why": "S1 L4-24C; S4 nvidia_l4-24c"},
    "10de:26ba": {"id": "l20", "vgpu": "nvidia_l20", "why": "S1 L20-48C; S9"},
    "10de:26b7": {"id": "l20-26b7"},
    "10de:26b5": {"id": "l40", "vgpu": "nvidia_l40", "why": "S1 L40-48C; S9"},
    "10de:26b9": {"id": "l40s", "vgpu": "nvidia_l40s", "why": "S1 L40S-48C; S4 nvidia_l40s-48q"},
    "10de:26b8": {"id": "l40g"},
    # --- NVIDIA datacenter, older --------------------------------------
    "10de:1eb8": {"id": "t4", "vgpu": "grid_t4", "why": "S1 T4-16C; S2 'GRID T4-16C'; S3 grid_t4-16q"},
    "10de:1db4": {"id": "v100-16g-pcie", "vgpu": "grid_v100",
                  "why": "S2 'GRID V100-16Q' (Tesla V100 PCIe); S3 grid_v100-16q"},
    "10de:1db6": {"id": "v100-32g-pcie", "vgpu": "grid_v100d",
                  "why": "S1 V100 PCIe 32GB = V100D-32C; S2; S3 grid_v100d-32q"},
    "10de:1db1": {"id": "v100-16g-sxm2", "vgpu": "grid_v100x",
                  "why": "S1 V100 SXM2 = V100X-16C; S2 'GRID V100X-16Q'"},
    "10de:1db5": {"id": "v100-32g-sxm2", "vgpu": "grid_v100dx",
                  "why": "S1 V100 SXM2 32GB = V100DX-32C; S2 'GRID V100DX-32Q'"},
    "10de:1df6": {"id": "v100s", "vgpu": "grid_v100s",
                  "why": "S1 V100S PCIe 32GB = V100S-32C; S2 'GRID V100S-32Q'"},
    "10de:1b38": {"id": "p40", "vgpu": "grid_p40", "why": "S2 'GRID P40-24Q'; S3 grid_p40-24q, grid_p40-2q"},
    "10de:15f8": {"id": "p100-16g-pcie", "vgpu": "grid_p100", "why": "S2 'GRID P100-16Q'; S3 grid_p100-16q"},
    "10de:15f7": {"id": "p100-12g-pcie", "vgpu": "grid_p100c", "why": "S2 'GRID P100C-12Q'; S3 grid_p100c-12q"},
    "10de:15f9": {"id": "p100-16g-sxm2", "vgpu": "grid_p100x", "why": "S2 'GRID P100X-16Q'"},
    # --- NVIDIA workstation --------------------------------------------
    "10de:24b0": {"id": "rtx-a4000"},
    "10de:2231": {"id": "rtx-a5000", "vgpu": "nvidia_rtxa5000",
                  "why": "S1 RTXA5000 types; S2 'NVIDIA RTXA5000-24Q'"},
    "10de:2230": {"id": "rtx-a6000", "vgpu": "nvidia_rtxa6000",
                  "why": "S1 RTXA6000-48C; S2 'NVIDIA RTXA6000-48Q'; S5 'NVIDIA RTXA6000-24Q'"},
    "10de:26b1": {"id": "rtx-6000-ada", "vgpu": "nvidia_rtx6000-ada",
                  "why": "S1 'RTX 6000 Ada-48C'; S5 'NVIDIA RTX6000-Ada-1Q'"},
    "10de:27b2": {"id": "rtx-4000-ada"},
    "10de:27b0": {"id": "rtx-4000-sff-ada"},
    # RTX PRO Blackwell: no vGPU type table for them in S1 (the AI
    # Enterprise 6 snapshot), so no prefix; the class rule's "RTX " gives
    # workstation, the Server Editions included (no source sets another).
    "10de:2bb1": {"id": "rtx-pro-6000-bw"},
    "10de:2bb4": {"id": "rtx-pro-6000-bw-maxq"},
    "10de:2bb5": {"id": "rtx-pro-6000-bw-server"},
    "10de:2bb3": {"id": "rtx-pro-5000-bw"},
    "10de:2c31": {"id": "rtx-pro-4500-bw"},
    "10de:2c3a": {"id": "rtx-pro-4500-bw-server"},
    "10de:2c34": {"id": "rtx-pro-4000-bw"},
    "10de:2c33": {"id": "rtx-pro-4000-bw-sff"},
    # --- NVIDIA Blackwell datacenter (no vGPU type table found) --------
    "10de:2901": {"id": "b200"},
    "10de:2909": {"id": "hgx-b200"},
    "10de:2941": {"id": "gb200"},
    "10de:3182": {"id": "b300"},
    # --- AMD -------------------------------------------------------------
    "1002:740f": {"id": "mi210"},
    "1002:740c": {"id": "mi250"},
    "1002:7408": {"id": "mi250x"},
    "1002:74a1": {"id": "mi300x"},
    # --- Intel -----------------------------------------------------------
    "8086:56c0": {"id": "flex-170"},
    "8086:56c1": {"id": "flex-140"},
    "8086:0bd5": {"id": "max-1550"},
    "8086:0bd6": {"id": "max-1550-0bd6"},
    "8086:0bd9": {"id": "max-1100"},
    "8086:0bda": {"id": "max-1100-0bda"},
    "8086:0bdb": {"id": "max-1100-0bdb"},
    # --- GeForce ---------------------------------------------------------
    "10de:1e04": {"id": "rtx-2080-ti"},
    "10de:1e07": {"id": "rtx-2080-ti-rev-a"},
    "10de:2503": {"id": "rtx-3060"},
    "10de:2504": {"id": "rtx-3060-lhr"},
    "10de:2544": {"id": "rtx-3060-2544"},
    "10de:2487": {"id": "rtx-3060-ga104"},
    "10de:2509": {"id": "rtx-3060-rev2"},
    "10de:24c7": {"id": "rtx-3060-8g"},
    "10de:2486": {"id": "rtx-3060-ti"},
    "10de:2489": {"id": "rtx-3060-ti-lhr"},
    "10de:2414": {"id": "rtx-3060-ti-ga103"},
    "10de:24c9": {"id": "rtx-3060-ti-gddr6x"},
    "10de:2484": {"id": "rtx-3070"},
    "10de:2488": {"id": "rtx-3070-lhr"},
    "10de:2206": {"id": "rtx-3080"},
    "10de:2216": {"id": "rtx-3080-lhr"},
    "10de:220a": {"id": "rtx-3080-12g"},
    "10de:2204": {"id": "rtx-3090"},
    "10de:2203": {"id": "rtx-3090-ti"},
    "10de:2803": {"id": "rtx-4060-ti"},
    "10de:2805": {"id": "rtx-4060-ti-16g"},
    "10de:2788": {"id": "rtx-4060-ti-ad104"},
    "10de:2786": {"id": "rtx-4070"},
    "10de:2709": {"id": "rtx-4070-ad103"},
    "10de:2782": {"id": "rtx-4070-ti"},
    "10de:2704": {"id": "rtx-4080"},
    "10de:2684": {"id": "rtx-4090"},
    "10de:2b85": {"id": "rtx-5090"},
    "10de:2783": {"id": "rtx-4070-super"},
    "10de:2705": {"id": "rtx-4070-ti-super"},
    "10de:2689": {"id": "rtx-4070-ti-super-ad102"},
    "10de:2702": {"id": "rtx-4080-super"},
    "10de:2703": {"id": "rtx-4080-super-2703"},
    "10de:2b87": {"id": "rtx-5090-d"},
    "10de:2c02": {"id": "rtx-5080"},
    "10de:2c05": {"id": "rtx-5070-ti"},
    "10de:2f04": {"id": "rtx-5070"},
    "10de:2d04": {"id": "rtx-5060-ti"},
    "10de:2d05": {"id": "rtx-5060"},
}

# NVIDIA chip codes (the first letters of the pci.ids name) -> architecture,
# and whether its vGPU runs on SR-IOV virtual functions (see the top).
ARCH = {
    "GP": ("Pascal", False),
    "GV": ("Volta", False),
    "TU": ("Turing", False),
    "GA": ("Ampere", True),
    "AD": ("Ada Lovelace", True),
    "GH": ("Hopper", True),
    "GB": ("Blackwell", True),
}

CLASSES = ("datacenter", "workstation", "geforce")


def gpu_class(vendor, name):
    """The class of a row, from its pci.ids name (see the top)."""
    model = name[name.find("[") + 1:name.rfind("]")] if "[" in name else name
    if "GeForce" in model:
        return "geforce"
    if vendor == "10de" and ("RTX " in model or "Quadro" in model):
        return "workstation"
    return "datacenter"


def gpu_sriov(vendor, name, vgpu, where):
    """yes when the row's vGPUs run on SR-IOV virtual functions."""
    if vendor != "10de" or vgpu is None:
        return "no"
    m = re.match(r"^([A-Z]{2})[0-9]", name)
    if m is None or m.group(1) not in ARCH:
        raise Fail("%s: NVIDIA row with a vGPU prefix, but the chip code of "
                   "'%s' is not in ARCH" % (where, name))
    return "yes" if ARCH[m.group(1)][1] else "no"


ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
HEX4_RE = re.compile(r"^[0-9a-f]{4}$")
PREFIX_RE = re.compile(r"^(grid|nvidia)_[a-z0-9][a-z0-9-]*[a-z0-9]$")
VRAM_RE = re.compile(r"^(unknown|[1-9][0-9]*)$")


class Fail(Exception):
    pass


def pick(row, lineno):
    """The curated entry for one CSV row."""
    key = "%s:%s" % (row["vendor_id"].lower(), row["device_id"].lower())
    entry = CURATED.get(key)
    if entry is None:
        raise Fail("CSV line %d: no curated entry for %s (%s); add one to CURATED"
                   % (lineno, key, row["name"]))
    if isinstance(entry, dict):
        return key, entry
    hits = [c for c in entry if c["match"] in row["source_notes"]]
    if len(hits) != 1:
        raise Fail("CSV line %d: %s is shared by several rows and %d curated "
                   "entries match its source_notes (expected 1)"
                   % (lineno, key, len(hits)))
    return key + "#" + hits[0]["id"], hits[0]


def bar1_ok(v):
    if v == "unknown":
        return True
    parts = v.split("|")
    if not 1 <= len(parts) <= 4:
        return False
    nums = []
    for p in parts:
        if not re.match(r"^[1-9][0-9]*$", p):
            return False
        n = int(p)
        if n & (n - 1):
            return False  # a BAR is always a power of two
        nums.append(n)
    return nums == sorted(set(nums))


def quote(value, what):
    """A value iniparser 4.1 reads back intact: double quotes, or single
    quotes when the value holds a double quote (; and # are then safe)."""
    if "\n" in value or "\r" in value:
        raise Fail("%s: value spans several lines" % what)
    if value.endswith("\\"):
        raise Fail("%s: value ends with a backslash (iniparser would join lines)" % what)
    if value != value.strip():
        raise Fail("%s: value has leading or trailing blanks" % what)
    if '"' not in value:
        return '"%s"' % value
    if "'" not in value:
        return "'%s'" % value
    raise Fail("%s: value holds both quote characters; iniparser 4.1 cannot "
               "read it back intact" % what)


SIZE_RE = re.compile(r"^[1-9][0-9]*$")
MIG_RE = re.compile(r"^[1-9]-[1-9][0-9]*$")


def read_side(path, want):
    """Rows of a side table (vgpu_types.csv, vgpu_mmio.csv) and its bytes."""
    with open(path, "rb") as f:
        raw = f.read()
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8"), newline="")))
    if not rows or list(rows[0].keys()) != want:
        raise Fail("%s: expected the columns %s" % (path, ",".join(want)))
    for n, row in enumerate(rows, start=2):
        for col in want:
            if row[col] is None or row[col] == "":
                raise Fail("%s line %d: empty %s" % (path, n, col))
    return rows, raw


def vgpu_side(folder):
    """board -> [suffixes, sources], id -> (mmio_gb, source), and the two
    files' bytes."""
    tpath = os.path.join(folder, "vgpu_types.csv")
    mpath = os.path.join(folder, "vgpu_mmio.csv")
    trows, traw = read_side(tpath, ["board", "series", "mode", "sizes", "source"])
    mrows, mraw = read_side(mpath, ["gpu_id", "mmio_gb", "nvidia_gpu", "source"])
    types, seen = {}, set()
    for n, row in enumerate(trows, start=2):
        where = "%s line %d" % (tpath, n)
        key = (row["board"], row["series"], row["mode"])
        if key in seen:
            raise Fail("%s: %s %s-series %s repeated" % (where, key[0], key[1], key[2]))
        seen.add(key)
        if not re.match(r"^[a-z]$", row["series"]):
            raise Fail("%s: series '%s' is not one letter" % (where, row["series"]))
        if row["mode"] not in ("time-sliced", "mig"):
            raise Fail("%s: mode '%s' is not time-sliced or mig" % (where, row["mode"]))
        rx = MIG_RE if row["mode"] == "mig" else SIZE_RE
        sizes = row["sizes"].split()
        ent = types.setdefault(row["board"], [[], [], []])
        if sizes == ["none"]:   # NVIDIA offers no type of this series
            ent[2].append(row["series"])
            if row["source"] not in ent[1]:
                ent[1].append(row["source"])
            continue
        for z in sizes:
            if not rx.match(z):
                raise Fail("%s: size '%s' is not one of %s" % (where, z,
                           "<slices>-<GB>" if row["mode"] == "mig" else "<GB>"))
        ent[0].extend(z + row["series"] for z in sizes)
        if row["source"] not in ent[1]:
            ent[1].append(row["source"])
    mmio = {}
    for n, row in enumerate(mrows, start=2):
        where = "%s line %d" % (mpath, n)
        if row["gpu_id"] in mmio:
            raise Fail("%s: %s repeated" % (where, row["gpu_id"]))
        if not SIZE_RE.match(row["mmio_gb"]):
            raise Fail("%s: mmio_gb '%s' is not a whole number of GB" % (where, row["mmio_gb"]))
        mmio[row["gpu_id"]] = (row["mmio_gb"], row["source"])
    return types, mmio, traw + mraw


def build(csv_path):
    types, mmio, side_raw = vgpu_side(os.path.dirname(os.path.abspath(csv_path)))
    with open(csv_path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    want = ["vendor_id", "device_id", "name", "vram_gb", "bar1_mib", "source_notes"]
    if not rows or list(rows[0].keys()) != want:
        raise Fail("%s: expected the columns %s" % (csv_path, ",".join(want)))

    sections = []
    used = set()
    ids = {}
    prefixes = {}
    pci = {}
    for n, row in enumerate(rows, start=2):
        where = "CSV line %d" % n
        for col in want:
            if row[col] is None or row[col] == "":
                raise Fail("%s: empty %s" % (where, col))
        ven, dev = row["vendor_id"].lower(), row["device_id"].lower()
        if not HEX4_RE.match(ven) or not HEX4_RE.match(dev):
            raise Fail("%s: vendor_id/device_id must be 4 hex digits" % where)
        if not VRAM_RE.match(row["vram_gb"]):
            raise Fail("%s: vram_gb '%s' is not an integer or 'unknown'" % (where, row["vram_gb"]))
        if not bar1_ok(row["bar1_mib"]):
            raise Fail("%s: bar1_mib '%s' is not 'unknown' or ascending powers of two a|b"
                       % (where, row["bar1_mib"]))
        ukey, cur = pick(row, n)
        used.add(ukey)
        sid = cur["id"]
        if not ID_RE.match(sid):
            raise Fail("%s: short id '%s' must be lower case [a-z0-9.-]" % (where, sid))
        if sid in ids:
            raise Fail("%s: short id '%s' already used on CSV line %d" % (where, sid, ids[sid]))
        ids[sid] = n
        subsys = cur.get("subsys")
        pkey = (ven, dev, subsys)
        if pkey in pci:
            raise Fail("%s: PCI id %s:%s%s already used by [%s]; set subsys"
                       % (where, ven, dev, ":" + subsys if subsys else "", pci[pkey]))
        pci[pkey] = sid
        vgpu = cur.get("vgpu")
        if vgpu is not None:
            if not PREFIX_RE.match(vgpu):
                raise Fail("%s: vgpu prefix '%s' must look like grid_<board> or nvidia_<board>"
                           % (where, vgpu))
            if not cur.get("why"):
                raise Fail("%s: vgpu prefix '%s' has no source ('why')" % (where, vgpu))
            board = vgpu.split("_", 1)[1]
            if board in prefixes:
                raise Fail("%s: vgpu board '%s' is already used by [%s]" % (where, board, prefixes[board]))
            prefixes[board] = sid
        sec = [("name", quote(row["name"], where + " name"))]
        sec.append(("vendor_id", "0x" + ven))
        sec.append(("device_id", "0x" + dev))
        if subsys:
            sv, sd = subsys.split(":")
            sec.append(("subsys_id", "0x%s:0x%s" % (sv, sd)))
        sec.append(("vram_gb", row["vram_gb"]))
        sec.append(("bar1_mib", row["bar1_mib"]))
        if vgpu:
            sec.append(("vgpu_prefix", vgpu))
        cls = cur.get("class", gpu_class(ven, row["name"]))
        if cls not in CLASSES:
            raise Fail("%s: class '%s' is not one of %s" % (where, cls, ", ".join(CLASSES)))
        sec.append(("class", cls))
        sec.append(("sriov", gpu_sriov(ven, row["name"], vgpu, where)))
        sec.append(("source", quote(row["source_notes"], where + " source_notes")))
        board = vgpu.split("_", 1)[1] if vgpu else None
        srcs = []
        if board in types:
            if types[board][0]:
                sec.append(("vgpu_types", quote(" ".join(types[board][0]), where + " vgpu_types")))
            if types[board][2]:
                sec.append(("vgpu_no_series", quote(" ".join(types[board][2]), where + " vgpu_no_series")))
            srcs.extend(types.pop(board)[1])
        if sid in mmio:
            if not vgpu:
                raise Fail("vgpu_mmio.csv: [%s] has no vgpu_prefix" % sid)
            sec.append(("vgpu_mmio_gb", mmio[sid][0]))
            srcs.append(mmio.pop(sid)[1])
        if srcs:
            sec.append(("vgpu_source", quote("; ".join(srcs), where + " vgpu_source")))
        sections.append((sid, sec, row, cur))

    if types:
        raise Fail("vgpu_types.csv: no row has the vGPU board(s) %s" % ", ".join(sorted(types)))
    if mmio:
        raise Fail("vgpu_mmio.csv: no row has the id(s) %s" % ", ".join(sorted(mmio)))
    # Every curated entry must be used: a stale one is a typo somewhere.
    for key, entry in CURATED.items():
        if isinstance(entry, dict):
            if key not in used:
                raise Fail("curated entry %s matches no CSV row" % key)
        else:
            for c in entry:
                if key + "#" + c["id"] not in used:
                    raise Fail("curated entry %s (%s) matches no CSV row" % (key, c["id"]))

    out = []
    out.append("# gpus.ini: the GPU table of gpuwiz (read by src/core/gputable.c).")
    out.append("#")
    out.append("# GENERATED FILE - do not edit by hand.  Made by data/gen-gpus-ini.py from")
    out.append("# data/gpu_facts.csv (%d rows, sha256 %s)." % (len(rows), hashlib.sha256(raw).hexdigest()[:16]))
    out.append("# and data/vgpu_types.csv + data/vgpu_mmio.csv (sha256 %s)." % hashlib.sha256(side_raw).hexdigest()[:16])
    out.append("# To change it, edit the CSV (facts) or the CURATED table in the script")
    out.append("# (short ids, subsystem ids, vGPU prefixes and their sources), then run")
    out.append("#     python3 data/gen-gpus-ini.py")
    out.append("# from the repository root and commit both files.")
    out.append("#")
    out.append("# One section per CSV row, named by its short id.  Keys: name (pci.ids text),")
    out.append("# vendor_id, device_id (0x%04x), subsys_id (0xvvvv:0xdddd, only where it")
    out.append("# decides the model), vram_gb (integer or unknown), bar1_mib (unknown, MiB,")
    out.append("# or a|b when systems differ), vgpu_prefix (ESXi vGPU profile prefix, absent")
    out.append("# when NVIDIA lists no vGPU types), class (datacenter, workstation or")
    out.append("# geforce), sriov (yes when NVIDIA vGPU on it runs on SR-IOV virtual")
    out.append("# functions: Ampere and later), source (where the facts come from);")
    out.append("# vgpu_types (the sizes and series of NVIDIA's vGPU types for the board,")
    out.append("# \"4c ... 48c\", MIG-backed \"1-10c\"), vgpu_no_series (the series NVIDIA")
    out.append("# offers no type of on the board, \"q a b\"), vgpu_mmio_gb (NVIDIA's MMIO space")
    out.append("# required for a vGPU VM with 32 GB or more of memory) and vgpu_source.")
    for sid, sec, row, cur in sections:
        out.append("")
        out.append("[%s]" % sid)
        for k, v in sec:
            out.append("%-11s = %s" % (k, v))
    text_out = "\n".join(out) + "\n"
    for i, line in enumerate(text_out.split("\n"), start=1):
        if len(line) > MAX_LINE:
            raise Fail("output line %d is %d characters; iniparser 4.1 reads at most %d"
                       % (i, len(line), MAX_LINE))
    check_readback(text_out, sections)
    return text_out


def iniparser_like(text):
    """Read text the way iniparser 4.1 does (iniparser_line(): comments,
    [section], key = "v", key = 'v', key = v up to ; or #), lower-casing
    section and key names.  Enough to prove the values come back intact."""
    d = {}
    sec = ""
    for line in text.split("\n"):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line[0] == "[" and line[-1] == "]":
            sec = line[1:].split("]", 1)[0].strip().lower()
            d.setdefault(sec, {})
            continue
        m = (re.match(r'^([^=]+?)\s*=\s*"([^"]+)"', line)
             or re.match(r"^([^=]+?)\s*=\s*'([^']+)'", line)
             or re.match(r"^([^=]+?)\s*=\s*([^;#]*)", line))
        if not m:
            raise Fail("readback: cannot parse %r" % line)
        d.setdefault(sec, {})[m.group(1).strip().lower()] = m.group(2).strip()
    return d


def check_readback(text, sections):
    d = iniparser_like(text)
    if len(d) != len(sections):
        raise Fail("readback: %d sections, expected %d" % (len(d), len(sections)))
    for sid, sec, row, cur in sections:
        got = d.get(sid, {})
        if got.get("name") != row["name"] or got.get("source") != row["source_notes"]:
            raise Fail("readback: [%s] name/source did not survive quoting" % sid)
        if got.get("vram_gb") != row["vram_gb"] or got.get("bar1_mib") != row["bar1_mib"]:
            raise Fail("readback: [%s] vram_gb/bar1_mib changed" % sid)


def main():
    ap = argparse.ArgumentParser(description="Generate data/gpus.ini from gpu_facts.csv.")
    ap.add_argument("csv", nargs="?", default=DEFAULT_CSV,
                    help="the fact sheet (default: data/gpu_facts.csv)")
    ap.add_argument("-o", "--output", default=DEFAULT_OUT,
                    help="where to write (default: data/gpus.ini)")
    ap.add_argument("--check", action="store_true",
                    help="do not write; fail if the output file is not up to date")
    args = ap.parse_args()
    try:
        text = build(args.csv)
    except (OSError, UnicodeDecodeError) as ex:
        print("gen-gpus-ini: %s" % ex, file=sys.stderr)
        return 1
    except Fail as ex:
        print("gen-gpus-ini: %s" % ex, file=sys.stderr)
        return 1
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                cur = f.read()
        except OSError as ex:
            print("gen-gpus-ini: %s" % ex, file=sys.stderr)
            return 1
        if cur != text:
            print("gen-gpus-ini: %s is out of date; run python3 data/gen-gpus-ini.py"
                  % args.output, file=sys.stderr)
            return 1
        return 0
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, args.output)
    print("gen-gpus-ini: wrote %s (%d sections)" % (args.output, text.count("\n[")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
