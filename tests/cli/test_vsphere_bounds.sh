#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_vsphere_bounds.sh: what a vSphere server cannot make gpuwiz do, on
# a small fake endpoint (tests/cli/vsphere_fake.py) that does what vcsim
# cannot: hang at one stage, answer with tens of MiB.
#  - --timeout N bounds the whole operation: a server that hangs after
#    the login (every call after it, Logout included), at the login, or
#    in the TLS handshake ends the command within about N s, and the one
#    line names the stage that ran out and N;
#  - an inventory answer of 32 MiB (VMs with 300 extraConfig entries
#    each) is read with a peak RSS below 4 times its size, every VM in
#    it listed;
#  - a QueryConfigTarget answer of 30 MiB (passthrough devices of no
#    host before the GPU's own) is read with a peak RSS below 4 times
#    its size, the GPU's systemId found;
#  - an answer that is small by nature (service content, Login) and
#    comes with 2 MiB is refused, the line naming the method, exit 2;
#  - an inventory answer with 8 MiB beside its objects (kept whole) is
#    refused alike.
. "$(dirname "$0")/lib.sh"
need_vsphere
SRC=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
zh_checks

if ! command -v openssl >/dev/null 2>&1 || ! python3 -c 'import ssl' 2>/dev/null; then
	echo "SKIP: openssl or python3's ssl missing"; exit 77
fi
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-keyout "$TMP/key.pem" -out "$TMP/cert.pem" -days 2 -subj /CN=127.0.0.1 \
	>/dev/null 2>&1 || { echo "SKIP: openssl cannot make a certificate"; exit 77; }

FAKE_PID=
# fake_start ARGS...: a fresh fake endpoint; sets URL THUMB ANSWER_BYTES NVMS
fake_start() {
	fake_stop
	rm -f "$TMP/fake.json"
	python3 "$SRC/tests/cli/vsphere_fake.py" "$FIX" "$TMP/cert.pem" "$TMP/key.pem" "$@" \
		>"$TMP/fake.json" 2>"$TMP/fake.err" &
	FAKE_PID=$!
	i=0
	while [ ! -s "$TMP/fake.json" ]; do
		i=$((i + 1))
		[ $i -lt 400 ] && kill -0 "$FAKE_PID" 2>/dev/null || {
			echo "not ok - the fake endpoint did not start"; cat "$TMP/fake.err"; exit 1; }
		sleep 0.05
	done
	eval "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("URL=%s THUMB=%s ANSWER_BYTES=%d NVMS=%d" % (d["url"], d["thumbprint"], d["answer_bytes"], d["vms"]))' "$TMP/fake.json")"
}
fake_stop() {
	[ -n "$FAKE_PID" ] || return 0
	kill "$FAKE_PID" 2>/dev/null; wait "$FAKE_PID" 2>/dev/null
	FAKE_PID=
}
at_exit fake_stop
export GPUWIZ_PASSWORD=pw

# timed SECONDS_VAR CMD...: run CMD (as run does), its wall time in ms
timed() {
	t0=$(date +%s%N)
	run "$@"
	ms=$((($(date +%s%N) - t0) / 1000000))
}

# --timeout: the whole operation's bound, the stage named
for stage in RetrievePropertiesEx Login tls; do
	fake_start --hang $stage
	timed "$GPUWIZ" vsphere --url "$URL" --user gw --thumbprint "$THUMB" --timeout 2 list
	case $stage in
	tls) want="the --timeout of 2 s ran out while connecting" ;;
	Login) want="the --timeout of 2 s ran out while logging in (Login)" ;;
	*) want="the --timeout of 2 s ran out while waiting for the answer to $stage" ;;
	esac
	if [ "$rc" -eq 2 ] && [ "$ms" -ge 1900 ] && [ "$ms" -lt 4000 ] && errhas "$want" && err_one_line; then
		ok "--timeout 2, a server hanging at $stage: ends after ${ms} ms, naming the stage"
	else
		nok "--timeout 2, a server hanging at $stage: rc $rc after ${ms} ms (expected 2 within 4 s and '$want')" "$(cat "$err")"
	fi
	# (a server hanging after a call hangs every later one: the TLS
	# stage is the one a second run meets alike)
	if [ "$ZH" = 1 ] && [ $stage = tls ]; then
		zh "$GPUWIZ" vsphere --url "$URL" --user gw --thumbprint "$THUMB" --timeout 2 list
		if [ "$rc" -eq 2 ] && errhas "--timeout 的 2 秒在连接时用完" && err_one_line; then
			ok "zh_CN: the --timeout line in Chinese, the stage named"
		else nok "zh_CN: the --timeout line" "$(cat "$err")"; fi
	fi
done

# rss_ok KB: a peak RSS of KB is below 4 times the answer; not judged
# under ASan (GW_SANITIZED), whose shadow memory and freed-memory
# quarantine (256 MiB) are most of the peak: the plain build and the
# release tree's check judge it
rss_ok() {
	[ -n "${GW_SANITIZED:-}" ] || [ $(($1 * 1024)) -lt $((ANSWER_BYTES * 4)) ]
}

# a 32 MiB inventory answer: memory bounded by a small multiple of it
fake_start --big-mib 32 --extra 300
run /usr/bin/time -f "%M" -o "$TMP/rss" "$GPUWIZ" vsphere --url "$URL" --user gw \
	--thumbprint "$THUMB" list --json
kb=$(tail -1 "$TMP/rss")
if [ "$rc" -eq 0 ] && rss_ok "$kb" &&
   python3 - "$out" "$NVMS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
names = {v["name"] for v in d["vms"]}
assert len(d["vms"]) == n and names == {f"VM{i}" for i in range(n)}, (len(d["vms"]), n)
assert all(v["hw_version"] == 13 and v["power"] == "on" for v in d["vms"])
PY
then
	ok "a $((ANSWER_BYTES / 1048576)) MiB answer of $NVMS VMs: all listed, peak RSS $((kb / 1024)) MiB (below 4 times the answer)"
else
	nok "a $((ANSWER_BYTES / 1048576)) MiB answer: rc $rc, peak RSS $((kb / 1024)) MiB (expected below $((ANSWER_BYTES * 4 / 1048576)))" "$(head -c 600 "$err")"
fi
fake_stop

# a 30 MiB QueryConfigTarget answer (one per host, four hosts): memory
# bounded by a small multiple of it, the GPU's systemId still found
fake_start --config-target-mib 30
run /usr/bin/time -f "%M" -o "$TMP/rss" "$GPUWIZ" vsphere --url "$URL" --user gw \
	--thumbprint "$THUMB" list --json
kb=$(tail -1 "$TMP/rss")
if [ "$rc" -eq 0 ] && rss_ok "$kb" &&
   python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ids = {(h["name"], g["bdf"]): g["system_id"] for h in d["hosts"] for g in h["gpus"]}
assert len(d["hosts"]) == 4, d["hosts"]
for h in d["hosts"]:
    assert ids[(h["name"], "0000:3b:00.0")] == "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2d", ids
    assert ids[(h["name"], "0000:5e:00.0")] is None, ids
PY
then
	ok "a $((ANSWER_BYTES / 1048576)) MiB QueryConfigTarget answer: the GPU's systemId found, peak RSS $((kb / 1024)) MiB (below 4 times the answer)"
else
	nok "a $((ANSWER_BYTES / 1048576)) MiB QueryConfigTarget answer: rc $rc, peak RSS $((kb / 1024)) MiB (expected below $((ANSWER_BYTES * 4 / 1048576)))" "$(head -c 600 "$err")"
fi
fake_stop

# answers small by nature: 2 MiB is refused before its DOM grows
for m in RetrieveServiceContent Login; do
	fake_start --pad $m:2048
	run "$GPUWIZ" vsphere --url "$URL" --user gw --thumbprint "$THUMB" list --json
	hp=${URL#https://}
	want="the answer of ${hp%%/*} to $m is larger than 1 MiB"
	if [ "$rc" -eq 2 ] && errhas "$want" && err_one_line && [ ! -s "$out" ]; then
		ok "a 2 MiB answer to $m: refused, naming $m"
	else
		nok "a 2 MiB answer to $m: rc $rc (expected 2 and '$want')" "$(head -c 600 "$err")"
	fi
	if [ "$ZH" = 1 ] && [ $m = Login ]; then
		zh "$GPUWIZ" vsphere --url "$URL" --user gw --thumbprint "$THUMB" list --json
		if [ "$rc" -eq 2 ] && errhas "对 Login 的应答超过 1 MiB" && err_one_line; then
			ok "zh_CN: the line of an answer too large in Chinese"
		else nok "zh_CN: the line of an answer too large" "$(cat "$err")"; fi
	fi
done
fake_stop

# what an answer read as units keeps whole is bounded too
fake_start --pad RetrievePropertiesEx:8192
run "$GPUWIZ" vsphere --url "$URL" --user gw --thumbprint "$THUMB" list --json
hp=${URL#https://}
want="the answer of ${hp%%/*} to RetrievePropertiesEx holds more than 4 MiB besides the parts read one at a time"
if [ "$rc" -eq 2 ] && errhas "$want" && err_one_line && [ ! -s "$out" ]; then
	ok "8 MiB beside an inventory answer's objects: refused, naming RetrievePropertiesEx"
else
	nok "8 MiB beside an inventory answer's objects: rc $rc (expected 2 and '$want')" "$(head -c 600 "$err")"
fi
fake_stop

finish
