#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_om_bosh.sh: the Tanzu outputs against their documented shapes and
# yamllint (tests/yamllint.yml, BOSH's style): `--format om` is om's
# create-vm-extension config (vm-extension-config: {name,
# cloud_properties}; pivotal-cf/om docs/create-vm-extension/README.md) with
# the same cloud_properties as the bosh and opsman outputs; the bosh
# vm_extensions file is a cloud config that `bosh update-config --type
# cloud --name NAME FILE` takes as a named cloud config (cloud-config keys
# only); apply writes om and ansible files from [output] formats.
. "$(dirname "$0")/lib.sh"
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}

if ! python3 -c 'import yaml' 2>/dev/null; then
	echo "SKIP: python3-yaml not installed"
	exit 77
fi
. "$(dirname "$0")/yamllint.sh"

for plan in "--gpu l40s=2 --memory 131072" "--vgpu grid_l40s-48c=2 --uvm" "--gpu a100-80g-pcie --p2p"; do
	# shellcheck disable=SC2086
	for f in om bosh opsman tile; do
		"$GPUWIZ" snippet --format $f $plan >"$TMP/$f" 2>/dev/null ||
			[ "$f" = tile ] || nok "$plan: snippet --format $f"
	done
	if python3 - "$TMP/om" "$TMP/bosh" "$TMP/opsman" <<'PY'
import json, sys, yaml
om = yaml.safe_load(open(sys.argv[1]))
bosh = yaml.safe_load(open(sys.argv[2]))
ops = json.load(open(sys.argv[3]))
assert list(om) == ["vm-extension-config"], om
cfg = om["vm-extension-config"]
assert sorted(cfg) == ["cloud_properties", "name"], cfg
assert "." not in cfg["name"], cfg["name"]
# a named cloud config holds cloud-config keys only
assert list(bosh) == ["vm_extensions"], bosh
ext = bosh["vm_extensions"][0]
assert ext["name"] == cfg["name"] == ops["name"]
assert ext["cloud_properties"] == cfg["cloud_properties"] == ops["cloud_properties"]
cp = cfg["cloud_properties"]
assert cp["vmx_options"]["pciPassthru.use64bitMMIO"] == "TRUE"
assert cp["memory_reservation_locked_to_max"] is True
PY
	then ok "$plan: om's vm-extension-config, bosh's and the API body agree"
	else nok "$plan: om/bosh/opsman shapes" "$(cat "$TMP/om")"; fi
	for f in om bosh; do
		lint "$plan: $f passes yamllint (BOSH's style)" "$TMP/$f"
	done
done

# the config is strict where BOSH's style is: no "---", an error
if command -v yamllint >/dev/null 2>&1; then
	tail -n +2 "$TMP/bosh" >"$TMP/nostart"
	if ! yamllint -s -c "$SRC/tests/yamllint.yml" "$TMP/nostart" >/dev/null 2>&1; then
		ok "tests/yamllint.yml refuses a file without ---"
	else nok "yamllint config: a file without --- passes"; fi
fi

# apply: [output] formats = om, ansible
mkdir -p "$TMP/a"
cat >"$TMP/a/answers.ini" <<'INI'
[gpu]
devices = l40s
[vm]
memory_mb = 65536
esxi = 8.0U2
[output]
dir = out
formats = om, ansible
INI
run "$GPUWIZ" apply --answers "$TMP/a/answers.ini"
if [ "$rc" -eq 0 ] && [ -s "$TMP/a/out/om-vm-extension.yml" ] && [ -s "$TMP/a/out/gpuwiz-playbook.yml" ] &&
   [ ! -e "$TMP/a/out/bosh-vm-extension.yml" ] && has "om-vm-extension.yml" && has "gpuwiz-playbook.yml"; then
	ok "apply writes om-vm-extension.yml and gpuwiz-playbook.yml for [output] formats = om, ansible"
else nok "apply om, ansible: exit $rc" "$(cat "$out" "$err"; ls "$TMP/a/out")"; fi
run "$GPUWIZ" snippet --format omx --gpu l40s
if [ "$rc" -eq 2 ] && errhas "unknown format 'omx' (expected one of: vmx, bosh, opsman, tile" &&
   errhas "om, ansible" && [ ! -s "$out" ]; then
	ok "an unknown format names the valid ones, om and ansible among them"
else nok "unknown format: exit $rc" "$(cat "$err")"; fi

# an unknown memory size: a WARN for the .vmx lines, INFO for the
# extensions, which lock the reservation themselves
# (memory_reservation_locked_to_max)
mem_sev() { python3 -c "
import json, sys
f = [x for x in json.load(open(sys.argv[1]))['findings'] if x['id'] == 'memory-unknown']
sys.exit(0 if len(f) == 1 and f[0]['severity'] == sys.argv[2] else 1)" "$out" "$1"; }
for f in bosh opsman om tile ansible; do
	run "$GPUWIZ" snippet --format "$f" --gpu l40s --json
	check "snippet --format $f: the memory size not needed (INFO)" mem_sev info
done
run "$GPUWIZ" snippet --format vmx --gpu l40s --json
check "snippet --format vmx: the memory size unknown is a WARN" mem_sev warn
finish
