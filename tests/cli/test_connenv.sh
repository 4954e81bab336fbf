#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_connenv.sh: the connection variables of govc (GOVC_*) and of the
# community.vmware collection (VMWARE_*) against vcsim: each family alone
# reaches the server; both set differently, GOVC_* wins (shown by which
# password works); an option and GPUWIZ_PASSWORD beat both; a bad value is
# one line naming the variable (English and Simplified Chinese); the
# variables are gone from /proc/PID/environ of a running gpuwiz; -v lists
# the SOAP methods with their times and never the password.  Skipped (77)
# when vcsim cannot be built here.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/vcsim.sh"
zh_checks

unset GPUWIZ_PASSWORD GOVC_URL GOVC_USERNAME GOVC_PASSWORD GOVC_INSECURE \
	GOVC_TLS_CA_CERTS VMWARE_HOST VMWARE_PORT VMWARE_USER VMWARE_PASSWORD \
	VMWARE_VALIDATE_CERTS
PW='Right-pw 7@x'
BAD='Wrong-pw-3'
vcsim_start -model esx -vms 2 -user gw -pass "$PW" || { nok "vcsim starts"; finish; exit; }
HOSTPORT=${VC_URL#https://}
HOSTPORT=${HOSTPORT%/sdk}
VC_PORT=${HOSTPORT##*:}
# the password percent-encoded for a URL's user info
PW_ENC=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$PW")
listed() { [ "$rc" -eq 0 ] && grep -q '"round_trips"' "$out"; }
refused_login() { [ "$rc" -eq 2 ] && err_one_line && errhas "wrong user name or password"; }

# ---- each family alone ------------------------------------------------------
run env GOVC_URL="https://gw:$PW_ENC@$HOSTPORT/sdk" GOVC_INSECURE=1 "$GPUWIZ" vsphere list --json
check "GOVC_URL with user:password@ and GOVC_INSECURE=1 alone: listed" listed
run env GOVC_URL="$HOSTPORT" GOVC_USERNAME=gw GOVC_PASSWORD="$PW" GOVC_TLS_CA_CERTS="$VC_CERT" "$GPUWIZ" vsphere list --json
check "GOVC_URL=HOST:PORT, GOVC_USERNAME, GOVC_PASSWORD, GOVC_TLS_CA_CERTS alone: listed" listed
run env GOVC_URL="$HOSTPORT" GOVC_USERNAME=gw GOVC_PASSWORD="$PW" "$GPUWIZ" vsphere list --json
check "GOVC_* without a way to trust the certificate: refused as with the options" \
	sh -c "[ $rc -eq 2 ] && grep -q '$VC_THUMB' '$err'"
run env VMWARE_HOST=127.0.0.1 VMWARE_PORT="$VC_PORT" VMWARE_USER=gw VMWARE_PASSWORD="$PW" VMWARE_VALIDATE_CERTS=false "$GPUWIZ" vsphere list --json
check "VMWARE_HOST, VMWARE_PORT, VMWARE_USER, VMWARE_PASSWORD, VMWARE_VALIDATE_CERTS=false alone: listed" \
	sh -c "[ $rc -eq 0 ] && grep -q '\"round_trips\"' '$out'"
run env VMWARE_HOST=127.0.0.1 VMWARE_PORT="$VC_PORT" VMWARE_USER=gw VMWARE_PASSWORD="$PW" VMWARE_VALIDATE_CERTS=yes "$GPUWIZ" vsphere list --json
check "VMWARE_VALIDATE_CERTS=yes: the certificate is checked (refused)" \
	sh -c "[ $rc -eq 2 ] && grep -q '$VC_THUMB' '$err'"

# ---- both families, set differently: GOVC_* first -----------------------------
both() { # GOVC password, VMWARE password, then gpuwiz's arguments
	gp=$1 vp=$2; shift 2
	run env GOVC_URL="$VC_URL" GOVC_USERNAME=gw GOVC_PASSWORD="$gp" GOVC_INSECURE=true \
		VMWARE_HOST=127.0.0.1 VMWARE_PORT=1 VMWARE_USER=nobody \
		VMWARE_PASSWORD="$vp" VMWARE_VALIDATE_CERTS=true "$GPUWIZ" "$@"
}
both "$PW" "$BAD" vsphere list --json
check "both set: GOVC_* used (its URL, user, password and GOVC_INSECURE)" listed
both "$BAD" "$PW" vsphere list --json
check "both set: VMWARE_PASSWORD is not used when GOVC_PASSWORD is set (refused)" refused_login
check "the refusal never shows either password" sh -c "! grep -qF -e '$BAD' -e '$PW' '$err' '$out'"
run env GOVC_URL="https://gw:$BAD@$HOSTPORT/sdk" GOVC_PASSWORD="$PW" GOVC_INSECURE=1 "$GPUWIZ" vsphere list --json
check "GOVC_URL's password comes before GOVC_PASSWORD (govc's order)" refused_login

# ---- the options and GPUWIZ_PASSWORD first ---------------------------------
both "$BAD" "$BAD" vsphere --url "$VC_URL" --user gw --thumbprint "$VC_THUMB" list --json
check "--url, --user, --thumbprint beat both, and the password still comes from GOVC_PASSWORD" refused_login
run env GPUWIZ_PASSWORD="$PW" GOVC_URL=https://127.0.0.1:1/sdk GOVC_USERNAME=nobody GOVC_PASSWORD="$BAD" \
	VMWARE_USER=nobody VMWARE_PASSWORD="$BAD" GOVC_INSECURE=0 \
	"$GPUWIZ" vsphere --url "$VC_URL" --user gw --insecure list --json
check "--url, --user, --insecure and GPUWIZ_PASSWORD beat GOVC_* and VMWARE_*" listed
run env GOVC_URL="https://gw:$PW_ENC@127.0.0.1:1/sdk" "$GPUWIZ" vsphere --url "$VC_URL" --insecure list --json </dev/null
check "GOVC_URL's user and password are not sent to the server of --url" \
	sh -c "[ $rc -eq 2 ] && ! grep -q '\"round_trips\"' '$out' && grep -q -- '--user' '$err'"
run env GOVC_USERNAME=gw GOVC_PASSWORD="$PW" GOVC_INSECURE=1 "$GPUWIZ" gpus --url "$VC_URL" --json
check "gpus --url: the user, password and GOVC_INSECURE from the variables" \
	sh -c "[ $rc -eq 0 ] && grep -q '\"gpus\"' '$out'"
run env GOVC_URL="$VC_URL" GOVC_PASSWORD="$PW" GOVC_INSECURE=1 "$GPUWIZ" vsphere --user gw list --json
check "--user with the URL from GOVC_URL (no --url needed)" listed

# ---- bad values: one line naming the variable ------------------------------
bad_value() { # VAR=VALUE, what the line says
	run env GOVC_URL="$VC_URL" GOVC_USERNAME=gw GOVC_PASSWORD="$PW" "$1" "$GPUWIZ" vsphere list --json
	var=${1%%=*}
	if [ "$rc" -eq 2 ] && err_one_line && errhas "gpuwiz vsphere: $var: " && errhas "$2" && [ ! -s "$out" ]; then
		ok "$1 refused in one line naming $var"
	else nok "$1 refused" "$(cat "$out" "$err")"; fi
	if [ "$ZH" = 1 ]; then
		run env -u LC_ALL LANG=zh_CN.UTF-8 GOVC_URL="$VC_URL" GOVC_USERNAME=gw GOVC_PASSWORD="$PW" "$1" "$GPUWIZ" vsphere list --json
		if [ "$rc" -eq 2 ] && err_one_line && errhas "$var" && ! errhas "$2"; then
			ok "$1 refused in Chinese, naming $var"
		else nok "$1 refused in Chinese" "$(cat "$err")"; fi
	fi
}
bad_value GOVC_INSECURE=maybe "expected 1, true, 0 or false"
bad_value VMWARE_VALIDATE_CERTS=perhaps "expected true or false"
bad_value GOVC_TLS_CA_CERTS=/nonexistent/ca.pem "expected a file of CA certificates"
run env VMWARE_HOST=127.0.0.1 VMWARE_PORT=99999 VMWARE_USER=gw VMWARE_PASSWORD="$PW" "$GPUWIZ" vsphere list --json
check "VMWARE_PORT=99999 refused naming it" sh -c "[ $rc -eq 2 ] && grep -q 'VMWARE_PORT: .99999. is not a port' '$err' && [ \$(wc -l <'$err') -eq 1 ]"
run env GOVC_URL="http://$HOSTPORT/sdk" GOVC_USERNAME=gw GOVC_PASSWORD="$PW" "$GPUWIZ" vsphere list --json
check "GOVC_URL=http://...: the URL's refusal names GOVC_URL" \
	sh -c "[ $rc -eq 2 ] && grep -q '^gpuwiz vsphere: GOVC_URL: only https://' '$err'"
run env GOVC_INSECURE=maybe "$GPUWIZ" mmio --gpu l40s
check "a command that does not talk to vSphere does not read the variables" [ "$rc" -eq 0 ]
run env -u GPUWIZ_PASSWORD "$GPUWIZ" vsphere --url "$VC_URL" --user gw --insecure list </dev/null
check "no password anywhere: the refusal names the variables" \
	sh -c "[ $rc -eq 2 ] && grep -q 'GPUWIZ_PASSWORD (or GOVC_PASSWORD, VMWARE_PASSWORD)' '$err'"

# ---- -v: the SOAP methods, their times, never the password -------------------
run env GOVC_URL="$VC_URL" GOVC_USERNAME=gw GOVC_PASSWORD="$PW" GOVC_INSECURE=1 "$GPUWIZ" vsphere list --json -v
if listed && grep -qE '^gpuwiz: vSphere 127\.0\.0\.1:[0-9]+: RetrieveServiceContent on ServiceInstance:ServiceInstance: HTTP 200, [0-9]+\.[0-9]{3} s$' "$err" &&
	grep -qE '^gpuwiz: vSphere [^ ]+: Login on SessionManager:[^ ]+: HTTP 200, [0-9.]+ s$' "$err" &&
	grep -qE ': (RetrievePropertiesEx|CreateContainerView) on [A-Za-z]+:' "$err" &&
	grep -q ': Logout on SessionManager:' "$err"; then
	ok "-v: each SOAP method, the object it is called on, HTTP status and time"
else nok "-v: the SOAP methods" "$(cat "$err")"; fi
# (round_trips is printed before the Logout)
check "-v: one line per SOAP request the server answered" \
	[ "$(grep '^gpuwiz: vSphere ' "$err" | grep -vc ': Logout on ')" -eq "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["round_trips"])' "$out")" ]
check "-v: never the password, its encoding or the session cookie" \
	sh -c "! grep -qiF -e '$PW' -e '$PW_ENC' -e 'vmware_soap_session' '$err'"
run env GOVC_URL="$VC_URL" GOVC_USERNAME=gw GOVC_PASSWORD="$BAD" GOVC_INSECURE=1 "$GPUWIZ" vsphere list -v
check "-v: a fault is named (Login: InvalidLogin), and the password is not" \
	sh -c "[ $rc -eq 2 ] && grep -qE ': Login on SessionManager:[^ ]+: HTTP 500, fault InvalidLogin, [0-9.]+ s$' '$err' && ! grep -qF '$BAD' '$err'"
run env GOVC_URL="$VC_URL" GOVC_USERNAME=gw GOVC_PASSWORD="$PW" GOVC_INSECURE=1 "$GPUWIZ" vsphere list --json
check "without -v: no such line" sh -c "[ $rc -eq 0 ] && ! grep -q 'vSphere ' '$err'"
vcsim_stop

# ---- /proc/PID/environ of a running gpuwiz ------------------------------
# a server that accepts and never answers: gpuwiz waits in its TLS
# handshake while its environment is read
python3 - "$TMP/port" "$TMP/accepted" <<'PY' &
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
s.settimeout(30)
try:
    c, _ = s.accept()
    open(sys.argv[2], "w").write("1")
    time.sleep(8)
except OSError:
    pass
PY
SRV=$!
i=0; while [ ! -s "$TMP/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
GOVC_PASSWORD=Govc-secret-1 VMWARE_PASSWORD=Vmware-secret-2 GOVC_URL="https://gw:Url-secret-3@127.0.0.1:$(cat "$TMP/port")/sdk" \
	"$GPUWIZ" vsphere --url "https://127.0.0.1:$(cat "$TMP/port")/sdk" --user gw --insecure --timeout 6 list >/dev/null 2>&1 &
GW=$!
i=0; while [ ! -s "$TMP/accepted" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
if [ -s "$TMP/accepted" ] && [ -r "/proc/$GW/environ" ]; then
	tr '\0' '\n' <"/proc/$GW/environ" >"$TMP/environ"
	check "/proc/PID/environ of the running gpuwiz: no GOVC_PASSWORD, VMWARE_PASSWORD or GOVC_URL, no secret" \
		sh -c "! grep -qE '^(GOVC_PASSWORD|VMWARE_PASSWORD|GOVC_URL)=.' '$TMP/environ' && ! grep -qa -e Govc-secret -e Vmware-secret -e Url-secret '/proc/$GW/environ'"
else
	nok "/proc/PID/environ: gpuwiz did not reach the server"
fi
wait "$GW" 2>/dev/null
kill "$SRV" 2>/dev/null
wait "$SRV" 2>/dev/null

finish
