#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# pci-sysroot.py ROOT N: N PCI devices under ROOT/sys as the kernel shows
# them (vendor, device, class, subsystem ids, resource: what libpci's sysfs
# back end reads for a scan), network controllers and bridges, none of them
# a display.  The host of tests/e2e/test_tui_first_frame.sh and
# bench/first-screen.sh (GPUWIZ_SYSROOT=ROOT).
import os
import sys

root, n = sys.argv[1], int(sys.argv[2])
dev = os.path.join(root, "sys/devices/pci0000:00")
bus = os.path.join(root, "sys/bus/pci/devices")
os.makedirs(bus)
res = "0x0000000000000000 0x0000000000000000 0x0000000000000000\n" * 13
for i in range(n):
    bdf = "0000:%02x:%02x.%x" % (i // 256 + 1, (i // 8) % 32, i % 8)
    d = os.path.join(dev, bdf)
    os.makedirs(d)
    for f, v in (("vendor", "0x8086\n"), ("device", "0x1234\n"),
                 ("class", "0x060400\n" if i % 2 else "0x020000\n"),
                 ("subsystem_vendor", "0x8086\n"),
                 ("subsystem_device", "0x0000\n"), ("resource", res)):
        with open(os.path.join(d, f), "w") as fh:
            fh.write(v)
    os.symlink("../../../devices/pci0000:00/" + bdf, os.path.join(bus, bdf))
