#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# vsphere_fake.py: a small vSphere SOAP endpoint for the tests of what
# vcsim cannot do: a server that hangs at one stage, and an inventory
# answer of a given size.  It answers RetrieveServiceContent (the ESX
# fixture vcsim-esx-retrieve-service-content.xml), Login, Logout,
# CreateContainerView and DestroyView, QueryConfigTarget (with
# --config-target-mib), and RetrievePropertiesEx with one
# answer of the first VM of vcsim-esx-inventory-retrieve-properties-ex.xml
# repeated, each copy its own moref and name, until the answer has
# --big-mib MiB (without it, the fixture's first VM once).
#
# usage: vsphere_fake.py FIXTURES CERT.pem KEY.pem [--hang STAGE] [--big-mib N]
#                        [--extra N] [--config-target-mib N] [--pad METHOD:KIB]
#   --extra N:     each VM has N more extraConfig entries (a denser answer)
#   --config-target-mib N: the inventory is vcsim-gpuwiz-vpx-inventory-
#                  retrieve-properties-ex.xml (four hosts, two L40S each,
#                  3b:00.0 passthrough enabled) and QueryConfigTarget
#                  answers vcsim-gpuwiz-vpx-query-config-target.xml with
#                  pciPassthrough entries of other devices before its own
#                  until it has N MiB
#   --pad METHOD:KIB: the answer to METHOD (e.g. Login) has an element of
#                  KIB KiB more after its returnval
#   --hang tls:    the TCP connection is accepted by the kernel, the TLS
#                  handshake never answered
#   --hang METHOD: the call of METHOD (e.g. RetrievePropertiesEx), and
#                  every call after it (Logout too), is read and never
#                  answered
# Prints one line on stdout once it listens: {"url": ..., "thumbprint": ...}
# (thumbprint: the SHA-256 of the certificate, as --thumbprint takes it).
# Serves until killed; messages go to stderr.
import argparse
import hashlib
import http.server
import json
import re
import socket
import socketserver
import ssl
import sys
import threading
import time

ap = argparse.ArgumentParser()
ap.add_argument("fixtures")
ap.add_argument("cert")
ap.add_argument("key")
ap.add_argument("--hang", default="")
ap.add_argument("--big-mib", type=float, default=0)
ap.add_argument("--extra", type=int, default=0)
ap.add_argument("--config-target-mib", type=float, default=0)
ap.add_argument("--pad", default="")
a = ap.parse_args()


def fixture(name):
    with open(f"{a.fixtures}/vsphere/{name}", encoding="utf-8") as f:
        return f.read().split("\n", 1)[1]    # without the "source" comment


HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope '
        'xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" '
        'xmlns:xsd="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>')
TAIL = '</soapenv:Body></soapenv:Envelope>'


def answer(method, inner):
    return (f'{HEAD}<{method}Response xmlns="urn:vim25">{inner}'
            f'</{method}Response>{TAIL}').encode()


SERVICE = fixture("vcsim-esx-retrieve-service-content.xml").encode()
INV = fixture("vcsim-esx-inventory-retrieve-properties-ex.xml")
VM = re.search(r'<objects><obj type="VirtualMachine">vm-9</obj>.*?</objects>',
               INV, re.S).group(0)
if a.extra:
    VM = VM.replace('<OptionValue ', "".join(
        f'<OptionValue XMLSchema-instance:type="OptionValue"><key>k{j}</key>'
        f'<value XMLSchema-instance:type="xsd:string">v</value></OptionValue>'
        for j in range(a.extra)) + '<OptionValue ', 1)
VM_NAME = re.search(r'<name>name</name><val[^>]*>([^<]*)</val>', VM).group(1)


def inventory():
    want = int(a.big_mib * 1048576)
    head = f'{HEAD}<RetrievePropertiesExResponse xmlns="urn:vim25"><returnval>'
    tail = f'</returnval></RetrievePropertiesExResponse>{TAIL}'
    parts = [head]
    size = len(head) + len(tail)
    i = 0
    while i == 0 or size < want:
        o = (VM.replace(">vm-9<", f">vm-{1000 + i}<")
               .replace(f">{VM_NAME}<", f">VM{i}<"))
        parts.append(o)
        size += len(o)
        i += 1
    parts.append(tail)
    global NVMS
    NVMS = i
    return "".join(parts).encode()


def config_target():
    """The vpx QueryConfigTarget answer grown to --config-target-mib MiB
    by pciPassthrough entries of devices no host has."""
    qct = fixture("vcsim-gpuwiz-vpx-query-config-target.xml")
    pp = re.search(r"<pciPassthrough .*?</pciPassthrough>", qct, re.S).group(0)
    want = int(a.config_target_mib * 1048576)
    parts = []
    size = len(qct)
    i = 0
    while size < want:
        bdf = "0001:%02x:%02x.%x" % (i >> 8 & 0xff, i >> 3 & 0x1f, i & 7)
        o = (pp.replace("0000:3b:00.0", bdf)
               .replace("5f3a1c2e", "%08x" % (0x10000000 + i)))
        parts.append(o)
        size += len(o)
        i += 1
    return qct.replace("<returnval>", "<returnval>" + "".join(parts), 1).encode()


NVMS = 0
if a.config_target_mib:
    BIG = config_target()
    INV_ANSWER = fixture("vcsim-gpuwiz-vpx-inventory-retrieve-properties-ex.xml").encode()
    NVMS = INV_ANSWER.count(b'<obj type="VirtualMachine">')
else:
    BIG = INV_ANSWER = inventory()
HUNG = []
ANSWERS = {
    "RetrieveServiceContent": SERVICE,
    "Login": answer("Login", '<returnval><key>52a1</key><userName>gw</userName>'
                    '<fullName>gw</fullName></returnval>'),
    "Logout": answer("Logout", ""),
    "CreateContainerView": answer("CreateContainerView",
                                  '<returnval type="ContainerView">session[1]view</returnval>'),
    "DestroyView": answer("DestroyView", ""),
    "RetrievePropertiesEx": INV_ANSWER,
}
if a.config_target_mib:
    ANSWERS["QueryConfigTarget"] = BIG
if a.pad:
    m, kib = a.pad.split(":")
    pad = "<pad>" + "<p>x</p>" * (int(kib) * 128) + "</pad>"
    ANSWERS[m] = ANSWERS[m].replace(f"</{m}Response>".encode(),
                                    f"{pad}</{m}Response>".encode(), 1)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        m = re.search(rb"<(?:\w+:)?Body[^>]*>\s*<(?:\w+:)?(\w+)", body)
        method = m.group(1).decode() if m else "-"
        if method == a.hang or HUNG:
            HUNG.append(method)
            time.sleep(3600)
        data = ANSWERS.get(method)
        code = 200
        if data is None:
            code = 500
            data = answer("Fault", "")
        self.send_response(code)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(a.cert, a.key)
with open(a.cert, encoding="ascii") as f:
    der = ssl.PEM_cert_to_DER_cert(f.read())
thumb = ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())

if a.hang == "tls":
    # listen, never accept: the kernel completes TCP, TLS gets no answer
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    port = s.getsockname()[1]
else:
    srv = Server(("127.0.0.1", 0), Handler)
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    port = srv.server_address[1]
    threading.Thread(target=srv.serve_forever, daemon=True).start()
print(json.dumps({"url": f"https://127.0.0.1:{port}/sdk", "thumbprint": thumb,
                  "answer_bytes": len(BIG), "vms": NVMS}), flush=True)
while True:
    time.sleep(3600)
