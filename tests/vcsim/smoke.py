#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Smoke test of vcsim-gpuwiz with pyVmomi.

    python3 tests/vcsim/smoke.py PATH/TO/vcsim-gpuwiz

Starts the simulator a few times (esx and vpx models, -fail, -die-after,
-task-delay-ms) and checks what gpuwiz relies on: login, the L40S GPUs in
hardware.pciDevice and config.pciPassthruInfo, QueryConfigTarget,
UpdatePassthruConfig, ReconfigVM_Task adding PCI passthrough devices,
UpgradeVM_Task, RetrievePropertiesEx paging.  Exit status 0 passed, 1 failed, 77 pyVmomi missing
(Debian: python3-pyvmomi, which /usr/bin/python3 imports).

The Simulator class and the check functions are meant to be reused (e.g. by
a benchmark): each check takes a connected ServiceInstance.
"""

import contextlib
import hashlib
import json
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import time

try:
    from pyVim.connect import Disconnect, SmartConnect
    from pyVim.task import WaitForTask
    from pyVmomi import vim, vmodl
except ImportError:
    print("SKIP: pyVmomi not installed (apt-get install python3-pyvmomi)")
    sys.exit(77)

GPU_IDS = ["0000:3b:00.0", "0000:5e:00.0"]
SYSTEM_ID_0 = "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c"
LICENSE_MESSAGE = ("Current license or ESXi version prohibits execution of "
                   "the requested operation.")


class Simulator:
    """A running vcsim-gpuwiz; its lifetime is tied to our pipe on its stdin."""

    def __init__(self, binary, *args, user="user", pwd="pass"):
        self.tmp = tempfile.mkdtemp(prefix="vcsim-smoke-")
        self.cert = os.path.join(self.tmp, "cert.pem")
        self.user, self.pwd = user, pwd
        self.stderr = open(os.path.join(self.tmp, "stderr"), "w+")
        self.proc = subprocess.Popen(
            [binary, "-cert-out", self.cert, "-user", user, "-pass", pwd] + list(args),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            raise RuntimeError("vcsim-gpuwiz exited with %d before printing its JSON line: %s"
                               % (self.proc.returncode, self.log()))
        self.info = json.loads(line)
        self.host, port = self.info["url"].split("/")[2].rsplit(":", 1)
        self.port = int(port)

    def connect(self, user=None, pwd=None):
        """Log in, verifying the server certificate against -cert-out."""
        ctx = ssl.create_default_context(cafile=self.cert)
        return SmartConnect(host=self.host, port=self.port, sslContext=ctx,
                            user=self.user if user is None else user,
                            pwd=self.pwd if pwd is None else pwd)

    def log(self):
        """What it wrote on stderr so far."""
        self.stderr.flush()
        self.stderr.seek(0)
        return self.stderr.read()

    def stop(self, timeout=10):
        """Close its stdin; returns its exit status."""
        if self.proc.stdin:
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.stop()
        if exc_type is not None and self.log():
            sys.stderr.write("vcsim-gpuwiz stderr:\n" + self.log())
        self.stderr.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def view(si, kind):
    """All managed objects of a kind, through a ContainerView."""
    v = si.content.viewManager.CreateContainerView(si.content.rootFolder, [kind], True)
    try:
        return list(v.view)
    finally:
        v.Destroy()


def vms_by_name(si):
    return {vm.name: vm for vm in view(si, vim.VirtualMachine)}


def wait_task_fault(task):
    """Wait for a task that must fail; returns its fault."""
    try:
        WaitForTask(task)
    except vmodl.MethodFault as e:
        return e
    raise AssertionError("task %s succeeded" % task)


def passthrough_spec(target):
    """A ConfigSpec adding the first ConfigTarget passthrough device and a
    vGPU, with the extraConfig and memory reservation gpuwiz sets."""
    pci = target.pciPassthrough[0]
    backing = vim.vm.device.VirtualPCIPassthrough.DeviceBackingInfo(
        id=pci.pciDevice.id, deviceId=format(pci.pciDevice.deviceId % 2**16, "x"),
        systemId=pci.systemId, vendorId=pci.pciDevice.vendorId,
        deviceName=pci.pciDevice.deviceName)
    vgpu = vim.vm.device.VirtualPCIPassthrough.VmiopBackingInfo(vgpu="nvidia_l40s-24c")
    add = vim.vm.device.VirtualDeviceSpec.Operation.add
    return vim.vm.ConfigSpec(
        deviceChange=[
            vim.vm.device.VirtualDeviceSpec(
                operation=add, device=vim.vm.device.VirtualPCIPassthrough(key=-1, backing=backing)),
            vim.vm.device.VirtualDeviceSpec(
                operation=add, device=vim.vm.device.VirtualPCIPassthrough(key=-2, backing=vgpu)),
        ],
        extraConfig=[vim.option.OptionValue(key="pciPassthru.use64bitMMIO", value="TRUE"),
                     vim.option.OptionValue(key="pciPassthru.64bitMMIOSizeGB", value="128")],
        memoryReservationLockedToMax=True)


# --- checks on a connected ServiceInstance --------------------------------

def check_about(si, api_type):
    about = si.content.about
    check(about.apiType == api_type, "apiType %s" % about.apiType)
    check(about.apiVersion == "8.0.2.0", "apiVersion %s" % about.apiVersion)


def check_host_gpus(si):
    for host in view(si, vim.HostSystem):
        gpus = {d.id: d for d in host.hardware.pciDevice if d.vendorId == 0x10de}
        check(sorted(gpus) == GPU_IDS, "%s: GPUs %s" % (host.name, sorted(gpus)))
        for d in gpus.values():
            check((d.deviceId, d.subVendorId, d.subDeviceId, d.classId) == (0x26b9, 0x10de, 0x1851, 0x0302),
                  "%s: %s ids" % (host.name, d.id))
            check(d.deviceName == "AD102GL [L40S]" and d.vendorName == "NVIDIA Corporation",
                  "%s: %s names" % (host.name, d.id))
        info = {p.id: p for p in host.config.pciPassthruInfo}
        first, second = info[GPU_IDS[0]], info[GPU_IDS[1]]
        check(first.passthruCapable and first.passthruEnabled and first.passthruActive, "first GPU state")
        check(second.passthruCapable and not second.passthruEnabled and not second.passthruActive,
              "second GPU state")
        check(isinstance(host.configManager.pciPassthruSystem, vim.host.PciPassthruSystem),
              "configManager.pciPassthruSystem")


def check_config_target(si):
    ids = set()
    for host in view(si, vim.HostSystem):
        target = host.parent.environmentBrowser.QueryConfigTarget(host=host)
        pci = target.pciPassthrough
        check([p.pciDevice.id for p in pci] == [GPU_IDS[0]], "%s: pciPassthrough %s" % (host.name, pci))
        ids.add(pci[0].systemId)
        check("nvidia_l40s-24c" in [t.vgpu for t in target.sharedGpuPassthroughTypes], "vGPU types")
    check(SYSTEM_ID_0 in ids, "systemId of host 0 in %s" % ids)
    check(len(ids) == len(view(si, vim.HostSystem)), "distinct systemIds %s" % ids)


def check_reconfigure(si, off="VM1", on="VM0"):
    vms = vms_by_name(si)
    vm = vms[off]
    target = vm.environmentBrowser.QueryConfigTarget(host=vm.runtime.host)

    fault = wait_task_fault(vms[on].ReconfigVM_Task(passthrough_spec(target)))
    check(isinstance(fault, vim.fault.InvalidPowerState), "powered-on reconfigure: %r" % fault)

    WaitForTask(vm.ReconfigVM_Task(passthrough_spec(target)))
    devices = [d for d in vm.config.hardware.device if isinstance(d, vim.vm.device.VirtualPCIPassthrough)]
    check(len(devices) == 2, "passthrough devices %s" % devices)
    dev, vgpu = devices
    check(isinstance(dev.backing, vim.vm.device.VirtualPCIPassthrough.DeviceBackingInfo)
          and dev.backing.id == GPU_IDS[0] and dev.backing.systemId == target.pciPassthrough[0].systemId,
          "device backing %s" % dev.backing)
    check(isinstance(vgpu.backing, vim.vm.device.VirtualPCIPassthrough.VmiopBackingInfo)
          and vgpu.backing.vgpu == "nvidia_l40s-24c", "vGPU backing %s" % vgpu.backing)
    extra = {o.key: o.value for o in vm.config.extraConfig}
    check(extra.get("pciPassthru.64bitMMIOSizeGB") == "128", "extraConfig %s" % extra)
    check(vm.config.memoryReservationLockedToMax is True, "memoryReservationLockedToMax")

    # a key is replaced, not added again; an empty value removes it
    WaitForTask(vm.ReconfigVM_Task(vim.vm.ConfigSpec(extraConfig=[
        vim.option.OptionValue(key="pciPassthru.64bitMMIOSizeGB", value="64"),
        vim.option.OptionValue(key="pciPassthru.use64bitMMIO", value="")])))
    keys = [o.key for o in vm.config.extraConfig]
    check(keys.count("pciPassthru.64bitMMIOSizeGB") == 1 and "pciPassthru.use64bitMMIO" not in keys,
          "extraConfig keys %s" % keys)


def check_upgrade(si, off="VM1", on="VM0"):
    vms = vms_by_name(si)
    fault = wait_task_fault(vms[on].UpgradeVM_Task())
    check(isinstance(fault, vim.fault.InvalidPowerState), "powered-on upgrade: %r" % fault)
    vm = vms[off]
    WaitForTask(vm.UpgradeVM_Task(version="vmx-19"))
    check(vm.config.version == "vmx-19", "version %s" % vm.config.version)
    fault = wait_task_fault(vm.UpgradeVM_Task(version="vmx-19"))
    check(isinstance(fault, vim.fault.AlreadyUpgraded), "same version: %r" % fault)
    WaitForTask(vm.UpgradeVM_Task())
    check(vm.config.version == "vmx-21", "version %s" % vm.config.version)


def check_update_passthru(si):
    host = view(si, vim.HostSystem)[0]
    pps = host.configManager.pciPassthruSystem
    pps.UpdatePassthruConfig([vim.host.PciPassthruConfig(id=GPU_IDS[1], passthruEnabled=True)])
    info = {p.id: p for p in host.config.pciPassthruInfo}[GPU_IDS[1]]
    check(info.passthruEnabled and not info.passthruActive, "enabled, active at reboot: %s" % info)
    # (applyNow, which activates at once, is a 7.0 field pyVmomi 6.7 lacks)
    fault = wait_task_fault(host.RebootHost_Task(force=False))
    check(isinstance(fault, vim.fault.InvalidState), "reboot outside maintenance mode: %r" % fault)
    WaitForTask(host.RebootHost_Task(force=True))
    info = {p.id: p for p in pps.pciPassthruInfo}[GPU_IDS[1]]
    check(info.passthruEnabled and info.passthruActive, "active after reboot: %s" % info)
    target = host.parent.environmentBrowser.QueryConfigTarget(host=host)
    check(len(target.pciPassthrough) == 2, "both GPUs in ConfigTarget")


def check_paging(si, page=2):
    """RetrievePropertiesEx with maxObjects, then ContinueRetrievePropertiesEx."""
    pc = si.content.propertyCollector
    v = si.content.viewManager.CreateContainerView(si.content.rootFolder, [vim.VirtualMachine], True)
    PC = vmodl.query.PropertyCollector
    spec = PC.FilterSpec(
        objectSet=[PC.ObjectSpec(obj=v, skip=True, selectSet=[
            PC.TraversalSpec(name="view", type=vim.view.ContainerView, path="view", skip=False)])],
        propSet=[PC.PropertySpec(type=vim.VirtualMachine, pathSet=["name"])])
    res = pc.RetrievePropertiesEx([spec], PC.RetrieveOptions(maxObjects=page))
    names, pages = [], 0
    while True:
        check(len(res.objects) <= page, "page of %d objects" % len(res.objects))
        names += [o.propSet[0].val for o in res.objects]
        pages += 1
        if not res.token:
            break
        res = pc.ContinueRetrievePropertiesEx(res.token)
    v.Destroy()
    want = sorted(vm.name for vm in view(si, vim.VirtualMachine))
    check(sorted(names) == want, "paged names %s" % names)
    check(pages == -(-len(want) // page), "%d pages" % pages)


# --- scenarios, each on its own simulator ---------------------------------

def scenario_esx(binary):
    with Simulator(binary) as sim:
        info = sim.info
        check(info["model"] == "esx" and info["vms"] == ["VM0", "VM1"], "JSON %s" % info)
        check(info["hosts"] == ["localhost.localdomain"], "hosts %s" % info["hosts"])
        der = ssl.PEM_cert_to_DER_cert(open(sim.cert).read())
        want = ":".join("%02X" % b for b in hashlib.sha256(der).digest())
        check(info["thumbprint"] == want, "thumbprint %s, cert %s" % (info["thumbprint"], want))
        try:
            sim.connect(pwd="wrong")
            raise AssertionError("wrong password accepted")
        except vim.fault.InvalidLogin:
            pass
        si = sim.connect()
        check_about(si, "HostAgent")
        check_host_gpus(si)
        check_config_target(si)
        check_reconfigure(si)
        check_upgrade(si)
        check_update_passthru(si)
        Disconnect(si)
        rc = sim.stop()
        check(rc == 0, "exit status %s after EOF on stdin" % rc)


def scenario_vpx(binary):
    with Simulator(binary, "-model", "vpx", "-vms", "5", "-on", "2") as sim:
        check(len(sim.info["hosts"]) == 4 and len(sim.info["vms"]) == 5, "JSON %s" % sim.info)
        si = sim.connect()
        check_about(si, "VirtualCenter")
        vms = vms_by_name(si)
        states = [vms["VM%d" % i].runtime.powerState for i in range(5)]
        check(states == ["poweredOn"] * 2 + ["poweredOff"] * 3, "power states %s" % states)
        check(len({vm.runtime.host for vm in vms.values()}) == 4, "VMs spread over the hosts")
        check_host_gpus(si)
        check_config_target(si)
        check_reconfigure(si, off="VM2", on="VM1")
        check_paging(si)
        Disconnect(si)


def scenario_fail(binary):
    with Simulator(binary, "-fail", "UpdatePassthruConfig=license",
                   "-fail", "ReconfigVM_Task=fault") as sim:
        si = sim.connect()
        host = view(si, vim.HostSystem)[0]
        try:
            host.configManager.pciPassthruSystem.UpdatePassthruConfig(
                [vim.host.PciPassthruConfig(id=GPU_IDS[1], passthruEnabled=True)])
            raise AssertionError("UpdatePassthruConfig did not fail")
        except vim.fault.RestrictedVersion as e:
            check(e.msg == LICENSE_MESSAGE, "message %r" % e.msg)
        try:
            vms_by_name(si)["VM1"].ReconfigVM_Task(vim.vm.ConfigSpec(annotation="x"))
            raise AssertionError("ReconfigVM_Task did not fail")
        except vmodl.fault.SystemError as e:
            check("injected" in e.msg, "message %r" % e.msg)


def scenario_task_fault(binary):
    with Simulator(binary, "-fail", "ReconfigVM_Task=taskfault") as sim:
        si = sim.connect()
        vm = vms_by_name(si)["VM1"]
        fault = wait_task_fault(vm.ReconfigVM_Task(vim.vm.ConfigSpec(annotation="x")))
        check(isinstance(fault, vmodl.fault.SystemError) and "injected" in fault.msg, "task fault %r" % fault)
        check(vm.config.annotation != "x", "nothing changed")


def scenario_die_after(binary):
    with Simulator(binary, "-die-after", "ReconfigVM_Task") as sim:
        si = sim.connect()
        task = vms_by_name(si)["VM1"].ReconfigVM_Task(vim.vm.ConfigSpec(annotation="x"))
        check(isinstance(task, vim.Task), "a task came back")
        rc = sim.proc.wait(10)
        check(rc == 0, "exit status %s" % rc)
        try:
            task.info.state
            raise AssertionError("the server still answers")
        except (OSError, vmodl.MethodFault):  # ConnectionRefusedError, ...
            pass


def scenario_task_delay(binary):
    with Simulator(binary, "-task-delay-ms", "600") as sim:
        si = sim.connect()
        start = time.monotonic()
        task = vms_by_name(si)["VM1"].ReconfigVM_Task(vim.vm.ConfigSpec(annotation="slow"))
        first = task.info
        check(first.state == "running" and first.progress in (None, 0, 50, 100), "running: %s" % first.state)
        WaitForTask(task)
        check(time.monotonic() - start >= 0.5, "task took %.2fs" % (time.monotonic() - start))
        check(vms_by_name(si)["VM1"].config.annotation == "slow", "annotation")


SCENARIOS = [scenario_esx, scenario_vpx, scenario_fail, scenario_task_fault, scenario_die_after,
             scenario_task_delay]


def main(argv):
    if len(argv) != 2:
        print("usage: %s PATH/TO/vcsim-gpuwiz" % argv[0], file=sys.stderr)
        return 2
    failed = 0
    for scenario in SCENARIOS:
        start = time.monotonic()
        try:
            scenario(argv[1])
            print("ok %s (%.2fs)" % (scenario.__name__, time.monotonic() - start))
        except Exception as e:  # report every scenario, not only the first failure
            failed += 1
            print("FAIL %s: %s: %s" % (scenario.__name__, type(e).__name__, e))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
