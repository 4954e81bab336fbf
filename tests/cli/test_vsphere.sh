#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vsphere.sh: gpuwiz vsphere list / apply / passthru against vcsim (the
# govmomi simulator built from Debian packages, tests/vcsim), as a
# standalone ESXi host and as a vCenter: list; apply on a powered-off VM and
# the result read back through the API; a powered-on VM refused with
# nothing changed; the same apply again changes nothing; an unverified
# certificate, a wrong thumbprint and a wrong password refused; the server
# going away in the middle of a task; SOAP faults (the free-ESXi licence
# one included).  Skipped (77) when vcsim cannot be built here.
. "$(dirname "$0")/lib.sh"
need_vsphere
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$(dirname "$0")/vcsim.sh"

for model in esx vpx; do
	vcsim_start -model $model -vms 3 -on 1 -user gw -pass 's3cret "x"<&>' 
	export GPUWIZ_PASSWORD='s3cret "x"<&>'
	# shellcheck disable=SC2086
	vs() { "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" "$@"; }
	ON=$(echo "$VC_VMS" | sed -n 1p)
	OFF=$(echo "$VC_VMS" | sed -n 2p)

	run vs list --json
	if [ "$rc" -eq 0 ] && python3 - "$out" "$model" "$ON" "$OFF" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
model, on, off = sys.argv[2:5]
assert d["server"] == ("esxi" if model == "esx" else "vcenter"), d["server"]
gpus = [g for h in d["hosts"] for g in h["gpus"]]
l = [g for g in gpus if g["device_id"] == "26b9"]
assert len(l) >= 2 and all(g["vram_gb"] == 48 for g in l), l
assert any(g["passthru_enabled"] and g["system_id"] for g in l), l
vms = {v["name"]: v for v in d["vms"]}
assert vms[on]["power"] == "on" and vms[off]["power"] == "off", vms
assert d["round_trips"] <= 10, d["round_trips"]
PY
	then ok "$model: list: hosts with their GPUs, VMs with power state, few round trips"
	else nok "$model: list" "$(cat "$out" "$err")"; fi
	cp "$out" "$TMP/list.json"

	# gpus through the API: the host interface's rows, the one printer
	run "$GPUWIZ" gpus --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" --json
	cp "$out" "$TMP/gpus.json"
	if [ "$rc" -eq 0 ] && python3 - "$TMP/gpus.json" "$TMP/list.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); lst = json.load(open(sys.argv[2]))
l = [g for g in d["gpus"] if g["device_id"] == "26b9"]
want = [g for h in lst["hosts"] for g in h["gpus"] if g["device_id"] == "26b9"]
assert len(l) == len(want) >= 2 and all(g["vram_gb"] == 48 for g in l), l
assert any(g["passthru_enabled"] for g in l) and any(g["passthru_enabled"] is False for g in l), l
assert all(g["counted_in_mmio"] and g["driver"] for g in l), l
assert d["mmio_size_gb"] and d["mmio_size_gb"] >= 128, d["mmio_size_gb"]
PY
	then ok "$model: gpus --url --json: every host's L40S, their passthrough state, the MMIO size"
	else nok "$model: gpus --url --json" "$(cat "$out" "$err")"; fi
	run "$GPUWIZ" gpus --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
	check "$model: gpus --url: the layout every back end prints (gpus_layout)" gpus_layout "$out" "$TMP/gpus.json"

	run vs apply --vm "$OFF" --gpu l40s --uvm
	if [ "$rc" -eq 0 ] && has "Reconfigured $OFF" && has "pciPassthru.64bitMMIOSizeGB"; then
		ok "$model: apply on a powered-off VM"
	else nok "$model: apply" "$(cat "$out" "$err")"; fi
	run vs list --json
	if [ "$rc" -eq 0 ] && python3 - "$out" "$OFF" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
vm = [v for v in d["vms"] if v["name"] == sys.argv[2]][0]
assert vm["reservation_locked"] is True, vm
pt = [x for x in vm["passthrough"] if x.get("bdf")]
assert len(pt) == 1 and pt[0]["device_id"] == "26b9" and pt[0]["vendor_id"] == "10de", vm
PY
	then ok "$model: read back: the L40S attached, memory reservation locked"
	else nok "$model: read back" "$(cat "$out" "$err")"; fi

	run vs apply --vm "$OFF" --gpu l40s --uvm
	if [ "$rc" -eq 0 ] && has "Nothing to change" && ! has "Reconfigured"; then
		ok "$model: the same apply again changes nothing"
	else nok "$model: idempotent apply" "$(cat "$out" "$err")"; fi

	run vs list --json
	cp "$out" "$TMP/before.json"
	run vs apply --vm "$ON" --gpu l40s
	if [ "$rc" -eq 2 ] && err_one_line && errhas "powered off"; then
		ok "$model: a powered-on VM is refused, saying how to proceed"
	else nok "$model: powered-on refused" "$(cat "$out" "$err")"; fi
	run vs list --json
	if python3 - "$TMP/before.json" "$out" "$ON" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
va = [v for v in a["vms"] if v["name"] == sys.argv[3]][0]
vb = [v for v in b["vms"] if v["name"] == sys.argv[3]][0]
assert va == vb, (va, vb)
PY
	then ok "$model: the powered-on VM is unchanged"; else nok "$model: powered-on unchanged"; fi

	run vs list --json
	cp "$out" "$TMP/pre.json"
	H1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hosts"][0]["name"])' "$out")
	run vs apply --vm "$OFF" --gpu l40s --dry-run
	check "$model: --dry-run sends nothing" sh -c "[ $rc -eq 0 ] && ! grep -q Reconfigured '$out'"
	DRY=$(echo "$VC_VMS" | sed -n 3p)
	run vs apply --vm "$DRY" --vgpu nvidia_l40s-24c --dry-run
	check "$model: --dry-run says the API method and its lines" sh -c "[ $rc -eq 0 ] && grep -q 'send through the API: ReconfigVM_Task ($DRY)' '$out' && grep -q '^      + pciPassthru0.vgpu = \"nvidia_l40s-24c\"' '$out' && ! grep -q Reconfigured '$out'"
	run vs apply --vm "$DRY" --vgpu nvidia_l40s-24c --upgrade-hw --dry-run
	check "$model: --upgrade-hw --dry-run: UpgradeVM_Task listed first, nothing sent" sh -c "[ $rc -eq 0 ] && sed -n '/^Dry run/,\$p' '$out' | sed -n 2p | grep -q 'run on the host: UpgradeVM_Task ($DRY, version = vmx-' && ! grep -qE 'Reconfigured|^Upgraded' '$out'"
	run vs passthru --enable 0000:5e:00.0 --host "$H1" --dry-run
	check "$model: passthru --dry-run: the API method, nothing enabled" sh -c "[ $rc -eq 0 ] && grep -q 'run on the host: UpdatePassthruConfig (0000:5e:00.0, passthruEnabled = true)' '$out' && ! grep -q 'Passthrough enabled' '$out'"
	run vs list --json
	python3 - "$TMP/pre.json" "$out" <<'PY' >/dev/null 2>&1
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
a.pop("round_trips"); b.pop("round_trips")
assert a == b
PY
	check "$model: after the dry runs the server's hosts and VMs are as before" [ $? -eq 0 ]

	# the host's GPU counts, as the wizard has them: the one ESXi host has
	# two L40S, one with passthrough on (vCenter: two hosts, one each)
	run vs apply --vm "$OFF" --gpu l40s=2 --bdf 0000:3b:00.0 --bdf 0000:5e:00.0 --dry-run
	if [ "$model" = esx ]; then
		if [ "$rc" -eq 0 ] && has "2 asked for in passthrough, but the host has 1 with passthrough on (2 detected)"; then
			ok "$model: more GPUs than the host has enabled is a WARN"
		else nok "$model: gpu-count-host" "$(cat "$out" "$err")"; fi
	else
		check "$model: two hosts, one enabled L40S each: no count WARN" \
			sh -c "[ $rc -eq 0 ] && ! grep -q 'asked for in passthrough' '$out'"
	fi

	# seed 001: --uvm alone turns unified memory on for the vGPUs the VM
	# already has and adds nothing; a VM without any GPU is refused
	THIRD=$(echo "$VC_VMS" | sed -n 3p)
	run vs apply --vm "$THIRD" --uvm
	if [ "$rc" -eq 2 ] && err_one_line && errhas "no GPU"; then
		ok "$model: --uvm alone on a VM without a GPU is refused"
	else nok "$model: --uvm alone, no GPU" "$(cat "$out" "$err")"; fi
	run vs apply --vm "$THIRD" --vgpu nvidia_l40s-24c=2 --upgrade-hw
	check "$model: two vGPUs without unified memory" \
		sh -c "[ $rc -eq 0 ] && grep -q 'Reconfigured $THIRD' '$out' && ! grep -q '+ pciPassthru.*enable_uvm' '$out'"
	check "$model: --upgrade-hw ran in the write (UpgradeVM_Task, then the reconfigure)" \
		sh -c "grep -q '^Upgraded the hardware version to vmx-' '$out'"
	run vs apply --vm "$THIRD" --uvm
	if [ "$rc" -eq 0 ] && has "Reconfigured $THIRD" &&
		[ "$(grep -c '+ pciPassthru[01].cfg.enable_uvm = "1"' "$out")" -eq 2 ] &&
		! has "+ VirtualPCIPassthrough"; then
		ok "$model: --uvm alone: enable_uvm on both vGPUs, no device added"
	else nok "$model: --uvm alone on the vGPUs" "$(cat "$out" "$err")"; fi
	run vs apply --vm "$THIRD" --uvm
	check "$model: --uvm alone again changes nothing" sh -c "[ $rc -eq 0 ] && grep -q 'Nothing to change' '$out'"

	# certificates: not trusted by default; a wrong pin; --insecure
	run "$GPUWIZ" vsphere --url "$VC_URL" --user gw list
	if [ "$rc" -eq 2 ] && err_one_line && errhas "$VC_THUMB"; then
		ok "$model: an unverified certificate is refused, naming its fingerprint"
	else nok "$model: unverified certificate" "$(cat "$out" "$err")"; fi
	# another fingerprint: its first byte changed (00 when it was not)
	case $VC_THUMB in 00*) bad=11${VC_THUMB#??} ;; *) bad=00${VC_THUMB#??} ;; esac
	run "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$bad" list
	if [ "$rc" -eq 2 ] && err_one_line && errhas "$bad"; then
		ok "$model: a wrong thumbprint is refused"
	else nok "$model: wrong thumbprint" "$(cat "$out" "$err")"; fi
	run "$GPUWIZ" vsphere --url "$VC_URL" --user gw --cafile "$VC_CERT" list
	check "$model: the certificate's own CA file verifies" [ "$rc" -eq 0 ]
	run "$GPUWIZ" vsphere --url "$VC_URL" --user gw --insecure list
	check "$model: --insecure only when asked" [ "$rc" -eq 0 ]
	run env GPUWIZ_PASSWORD=Badpass-77 "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" list
	if [ "$rc" -eq 2 ] && err_one_line && errhas "password" && ! grep -q Badpass-77 "$err" "$out" &&
		! grep -q 's3cret' "$err"; then
		ok "$model: a wrong password is one line without the password"
	else nok "$model: wrong password" "$(cat "$out" "$err")"; fi
	run env -u GPUWIZ_PASSWORD "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" list </dev/null
	check "$model: no terminal and no GPUWIZ_PASSWORD: refused" sh -c "[ $rc -eq 2 ] && grep -q GPUWIZ_PASSWORD '$err'"
	vcsim_stop
done

# faults: the free licence refuses API writes; a failing reconfigure
vcsim_start -model esx -vms 2 -on 0 -user gw -pass pw -fail UpdatePassthruConfig=license -fail ReconfigVM_Task=fault
export GPUWIZ_PASSWORD=pw
vs() { "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" "$@"; }
OFF=$(echo "$VC_VMS" | sed -n 1p)
run vs passthru --enable 0000:5e:00.0
if [ "$rc" -eq 2 ] && err_one_line && errhas "--ssh"; then
	ok "licence fault: the SSH route is offered"
else nok "licence fault" "$(cat "$out" "$err")"; fi
run vs apply --vm "$OFF" --gpu l40s
if [ "$rc" -eq 2 ] && err_one_line; then ok "a SOAP fault in the task is one clear line"
else nok "task fault" "$(cat "$out" "$err")"; fi
vcsim_stop

# vGPU readiness through the API (gpuwiz check --url): each host's
# config.graphicsConfig, config.sharedPassthruGpuTypes and graphicsInfo
vgpu_rows() {   # WANT-GRAPHICS WANT-MANAGER WANT-DEVICE-ROWS (python list)
	python3 - "$out" "$@" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["checks"]
want_g, want_m, want_d = sys.argv[2], sys.argv[3], eval(sys.argv[4])
g = [r for r in rows if r["id"] == "esxi-graphics-type"]
m = [r for r in rows if r["id"] == "esxi-vgpu-manager"]
d = [r for r in rows if r["id"] == "esxi-gpu-graphics-type"]
hosts = [r for r in rows if r["id"] == "esxi-host"]
assert len(g) == len(hosts) and all(r["status"] == want_g for r in g), g
assert all(r["source"] and "NVIDIA Virtual GPU Software User Guide" in r["source"] for r in g), g
if want_m == "-":
    assert not m, m
else:
    assert len(m) == len(hosts) and all(r["status"] == want_m for r in m), m
per_host = [r["status"] for r in d][:len(want_d)]
assert per_host == want_d and len(d) == len(want_d) * len(hosts), d
PY
}
vcsim_start -model esx -vms 1 -on 0 -user gw -pass pw -graphics-type shared
run "$GPUWIZ" check --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" --json
if [ "$rc" -eq 0 ] && vgpu_rows WARN INFO '["INFO"]' &&
	grep -q 'Configure > Hardware > Graphics > Host Graphics' "$out" &&
	grep -q 'such as nvidia_l40s-4c' "$out"; then
	ok "check --url: graphics type shared WARNs, the manager is loaded, the GPU in passthrough is direct"
else nok "check --url shared" "$(cat "$out" "$err")"; fi
run "$GPUWIZ" check --url "$VC_URL" --user gw --thumbprint "$VC_THUMB"
check "check --url in text: the host's name in the title" grep -q 'Checking the graphics type of host .* (for vGPU) : WARN' "$out"
# the server's row counts its hosts and VMs, each in its own form
server_says() {   # TEXT (a regular expression, the message's end)
	python3 -c '
import json, re, sys
r = [r for r in json.load(open(sys.argv[1]))["checks"] if r["id"] == "vsphere-server"]
assert re.search(sys.argv[2] + "$", r[0]["message"]), r' "$out" "$1"
}
run "$GPUWIZ" check --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" --json
check "check --url: the server has 1 host, 1 VM" server_says ': 1 host, 1 VM'
zh_checks
if [ "$ZH" = 1 ]; then
	zh "$GPUWIZ" check --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" --json
	check "zh check --url: 1 台主机，1 台虚拟机" server_says '：1 台主机，1 台虚拟机'
fi
vcsim_stop
vcsim_start -model vpx -vms 1 -on 0 -user gw -pass pw
run "$GPUWIZ" check --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" --json
if [ "$rc" -eq 0 ] && vgpu_rows PASS INFO '["INFO", "PASS"]'; then
	ok "check --url vpx: Shared Direct on every host, each GPU's type"
else nok "check --url vpx sharedDirect" "$(cat "$out" "$err")"; fi
check "check --url vpx: the server has several hosts and 1 VM" server_says ': ([2-9]|[1-9][0-9]+) hosts, 1 VM'
vcsim_stop
vcsim_start -model esx -vms 1 -on 0 -user gw -pass pw -no-vgpu-manager
run "$GPUWIZ" check --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" --json
if [ "$rc" -eq 0 ] && vgpu_rows PASS WARN '[]' && grep -q 'software component apply' "$out"; then
	ok "check --url: Shared Direct without vGPU profiles: the manager is missing (WARN)"
else nok "check --url no manager" "$(cat "$out" "$err")"; fi
vcsim_stop
vcsim_start -model esx -vms 1 -on 0 -user gw -pass pw -version 6.5.0
run "$GPUWIZ" check --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" --json
if [ "$rc" -eq 0 ] && vgpu_rows PASS INFO '["INFO", "PASS"]'; then
	ok "check --url: a 6.5 server is asked for graphicsConfig too"
else nok "check --url 6.5" "$(cat "$out" "$err")"; fi
vcsim_stop

# the server goes away in the middle of the task
vcsim_start -model esx -vms 2 -on 0 -user gw -pass pw -die-after ReconfigVM_Task -task-delay-ms 5000
OFF=$(echo "$VC_VMS" | sed -n 1p)
run vs apply --vm "$OFF" --gpu l40s
if [ "$rc" -eq 2 ] && err_one_line && errhas "check the VM in the vSphere Client"; then
	ok "server gone mid-task: said plainly"
else nok "server gone mid-task" "$(cat "$out" "$err")"; fi
vcsim_stop

# under valgrind: the client's paths (TLS pinning, SOAP, the inventory, a
# reconfigure with its polling, a fault) leak nothing and touch nothing
# they should not
if valgrind_usable; then
	vcsim_start -model vpx -vms 2 -on 0 -user gw -pass pw -fail UpdatePassthruConfig=license
	vg() {
		"$VALGRIND" -q --leak-check=full --show-leak-kinds=definite,indirect \
			--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
			"$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" "$@" \
			>"$TMP/vg.out" 2>"$TMP/vg.err"
		[ $? -ne 99 ] || { cat "$TMP/vg.err"; return 1; }
	}
	check "valgrind: vsphere list --json" vg list --json
	check "valgrind: vsphere apply (pick, reconfigure, poll)" vg apply --vm "$(echo "$VC_VMS" | sed -n 1p)" --gpu l40s --uvm
	check "valgrind: vsphere apply, a vGPU, --upgrade-hw" vg apply --vm "$(echo "$VC_VMS" | sed -n 2p)" --vgpu nvidia_l40s-24c --uvm --upgrade-hw
	check "valgrind: vsphere passthru (licence fault)" vg passthru --enable 0000:5e:00.0 --host "$(vs list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["hosts"][0]["name"])')"
	vcsim_stop
	# many VMs: tasks in batches of 2, their filters, one failing
	vcsim_start -model vpx -vms 5 -on 0 -user gw -pass pw -task-delay-ms 100 -fail-vm '*2'
	# shellcheck disable=SC2046
	check "valgrind: vsphere apply to 5 VMs, --parallel 2, one task failing" \
		vg apply $(printf -- '--vm %s ' $VC_VMS) --vgpu nvidia_l40s-24c --uvm --parallel 2
	vcsim_stop
fi

# a server that takes the call and never answers: the call timeout
vcsim_start -model esx -vms 1 -on 0 -user gw -pass pw -hang RetrievePropertiesEx
export GPUWIZ_PASSWORD=pw
start_s=$(date +%s)
run "$GPUWIZ" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" --timeout 2 list
took=$(( $(date +%s) - start_s ))
if [ "$rc" -eq 2 ] && err_one_line &&
   errhas "the --timeout of 2 s ran out while waiting for the answer to RetrievePropertiesEx" &&
   [ "$took" -lt 30 ]; then
	ok "a call that gets no answer ends at --timeout with one line naming the call"
else nok "call timeout" "$(cat "$out" "$err") (took $took s)"; fi
vcsim_stop
run "$GPUWIZ" vsphere --url https://127.0.0.1:9/sdk --user gw --insecure --timeout 0 list
check "--timeout 0 is refused" sh -c "[ $rc -eq 2 ] && grep -q -- --timeout '$err'"

# usage errors, no server needed
run "$GPUWIZ" vsphere --url https://127.0.0.1:9/sdk --user gw --thumbprint AA --insecure list
check "--thumbprint with --insecure is refused" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
run "$GPUWIZ" vsphere --user gw list
check "--url missing is one line" sh -c "[ $rc -eq 2 ] && grep -q -- --url '$err'"
run env GPUWIZ_PASSWORD=x "$GPUWIZ" vsphere --url https://127.0.0.1:9/sdk --user gw --insecure list
check "nothing listening: one line, exit 2" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$err') -eq 1 ]"
finish
