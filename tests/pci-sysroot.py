#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# pci-sysroot.py ROOT N [gpu]: N PCI devices under ROOT as the kernel shows
# them: in ROOT/sys (vendor, device, class, subsystem ids, resource: what
# libpci's sysfs back end reads for a scan) and in ROOT/proc/bus/pci/devices
# (a line per device, as drivers/pci/proc.c writes it: bus and devfn,
# vendor and device, irq, seven addresses and seven sizes, the driver).
# Network controllers and bridges, none of them a display; with "gpu" the
# last one is an NVIDIA L40S (3D controller).  The host of
# tests/e2e/test_tui_first_frame.sh and bench/first-screen.sh
# (GPUWIZ_SYSROOT=ROOT).
import os
import sys

root, n = sys.argv[1], int(sys.argv[2])
gpu = sys.argv[3:] == ["gpu"]
dev = os.path.join(root, "sys/devices/pci0000:00")
bus = os.path.join(root, "sys/bus/pci/devices")
os.makedirs(bus)
os.makedirs(os.path.join(root, "proc/bus/pci"))
res = "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 13
lines = []
for i in range(n):
    b, slot, fn = i // 256 + 1, (i // 8) % 32, i % 8
    bdf = "0000:%02x:%02x.%x" % (b, slot, fn)
    if gpu and i == n - 1:
        ven, did, cls, drv = 0x10de, 0x26b9, 0x030200, "nvidia"
    elif i % 2:
        ven, did, cls, drv = 0x8086, 0x1234, 0x060400, "pcieport"
    else:
        ven, did, cls, drv = 0x8086, 0x1234, 0x020000, "igb"
    d = os.path.join(dev, bdf)
    os.makedirs(d)
    for f, v in (("vendor", "0x%04x\n" % ven), ("device", "0x%04x\n" % did),
                 ("class", "0x%06x\n" % cls),
                 ("subsystem_vendor", "0x%04x\n" % ven),
                 ("subsystem_device", "0x0000\n"), ("resource", res)):
        with open(os.path.join(d, f), "w") as fh:
            fh.write(v)
    os.symlink("../../../devices/pci0000:00/" + bdf, os.path.join(bus, bdf))
    lines.append("%02x%02x\t%04x%04x\t%x" % (b, slot << 3 | fn, ven, did, 0) +
                 "\t%16x" % 0 * 14 + "\t" + drv + "\n")
with open(os.path.join(root, "proc/bus/pci/devices"), "w") as fh:
    fh.write("".join(lines))
