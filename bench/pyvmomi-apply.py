#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The same change gpuwiz vsphere apply makes, done the way a pyvmomi user
would: for each VM, ReconfigVM_Task with the MMIO keys, unified memory for
the vGPU, the memory reservation locked to the maximum and one vGPU device.
--wait each (the default): WaitForTask after each task, as the simple
script does; --wait all: every task started first, then pyVim's
WaitForTasks over all of them (one property filter, WaitForUpdates), as a
careful script does.  Prints one JSON line: seconds, round trips (SOAP
calls), VMs changed.  Used by bench/vsphere-apply.sh, not by the tests.

usage: pyvmomi-apply.py [--wait each|all] URL USER PROFILE VM...
       (password in GPUWIZ_PASSWORD)
"""
import json
import os
import ssl
import sys
import time
from urllib.parse import urlparse

from pyVim.connect import SmartConnect, Disconnect
from pyVim.task import WaitForTask, WaitForTasks
from pyVmomi import vim, SoapAdapter

calls = 0
_invoke = SoapAdapter.SoapStubAdapter.InvokeMethod


def counting(self, *a, **kw):
    global calls
    calls += 1
    return _invoke(self, *a, **kw)


SoapAdapter.SoapStubAdapter.InvokeMethod = counting


def main():
    args = sys.argv[1:]
    wait = "each"
    if args[:1] == ["--wait"]:
        wait, args = args[1], args[2:]
    url, user, profile, names = args[0], args[1], args[2], args[3:]
    u = urlparse(url)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE   # the simulator's self-signed cert
    t0 = time.monotonic()
    si = SmartConnect(host=u.hostname, port=u.port or 443, user=user,
                      pwd=os.environ["GPUWIZ_PASSWORD"], sslContext=ctx)
    content = si.RetrieveContent()
    view = content.viewManager.CreateContainerView(
        content.rootFolder, [vim.VirtualMachine], True)
    vms = {vm.name: vm for vm in view.view}
    view.Destroy()
    done = 0
    tasks = []
    for name in names:
        vm = vms[name]
        spec = vim.vm.ConfigSpec()
        spec.extraConfig = [
            vim.option.OptionValue(key="pciPassthru.use64bitMMIO", value="TRUE"),
            vim.option.OptionValue(key="pciPassthru.64bitMMIOSizeGB", value="128"),
            vim.option.OptionValue(key="pciPassthru0.cfg.enable_uvm", value="1"),
        ]
        spec.memoryReservationLockedToMax = True
        dev = vim.vm.device.VirtualPCIPassthrough()
        dev.key = -100
        dev.backing = vim.vm.device.VirtualPCIPassthrough.VmiopBackingInfo(vgpu=profile)
        change = vim.vm.device.VirtualDeviceSpec()
        change.operation = vim.vm.device.VirtualDeviceSpec.Operation.add
        change.device = dev
        spec.deviceChange = [change]
        task = vm.ReconfigVM_Task(spec=spec)
        if wait == "each":
            WaitForTask(task)
            done += 1
        else:
            tasks.append(task)
    if tasks:
        results = []   # WaitForTasks appends each success's result
        WaitForTasks(tasks, raiseOnError=False, si=si, results=results)
        done = len(results)
    Disconnect(si)
    print(json.dumps({"seconds": round(time.monotonic() - t0, 3),
                      "round_trips": calls, "vms": done}))


if __name__ == "__main__":
    main()
