# SPDX-License-Identifier: GPL-3.0-or-later
# sitecustomize.py: a stand-in for pyVmomi's VmomiJSONEncoder, put on
# PYTHONPATH by tests/cli/test_ansible.sh only when the installed pyVmomi
# lacks it.  Debian 12's python3-pyvmomi (6.7.1) has no VmomiJSONEncoder,
# and community.vmware 3.7's gather_vm_facts (module_utils/vmware.py) uses
# it to write vm.summary.runtime.question, so vmware_guest and
# vmware_guest_info fail there before doing anything.  The stand-in writes
# what that call needs (a question, normally None, as plain JSON) so the
# test can run the collection's real modules against vcsim.
import json

try:
    from pyVmomi import VmomiSupport
except ImportError:
    VmomiSupport = None

if VmomiSupport is not None and not hasattr(VmomiSupport, "VmomiJSONEncoder"):
    class VmomiJSONEncoder(json.JSONEncoder):
        def __init__(self, *args, **kwargs):
            kwargs.pop("strip_dynamic", None)
            kwargs.pop("explode", None)
            super().__init__(*args, **kwargs)

        def default(self, o):
            if isinstance(o, (list, tuple)):
                return list(o)
            props = getattr(o, "_GetPropertyList", None)
            if props is not None:
                return {p.name: getattr(o, p.name) for p in props()}
            return str(o)

    VmomiSupport.VmomiJSONEncoder = VmomiJSONEncoder
