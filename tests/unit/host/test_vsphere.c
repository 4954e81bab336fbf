/* test_vsphere.c: the vSphere SOAP client.
 *
 * Offline: URL and thumbprint handling, the SOAP answers saved in
 * tests/fixtures/vsphere (captured from vcsim, or synthetic where vcsim
 * cannot produce them: each file says which on its first line), the
 * ReconfigVM_Task envelope (parsed back with libxml2: escaping of odd
 * values, the device backings, the order of the spec's fields, nothing
 * sent twice), and the refusals that need no server.
 *
 * Live, when GW_VCSIM_URL is set (tests/cli/test_vsphere_lib.sh starts
 * vcsim-gpuwiz and sets GW_VCSIM_URL, GW_VCSIM_THUMB, GW_VCSIM_CERT,
 * GW_VCSIM_USER, GW_VCSIM_PASS, GW_VCSIM_MODE (esx|vpx), GW_VCSIM_VMS,
 * GW_VCSIM_ON, and GW_VCSIM_FAIL / GW_VCSIM_DIE for the fault runs):
 * connect, inventory, reconfigure and read back, idempotent re-apply,
 * powered-on refusal, certificate and password errors, upgrade, enable
 * passthrough, a SOAP fault, the server gone mid-task. */
#include "testutil.h"
#include "vsphere.h"

#include <fcntl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* ---- helpers ----------------------------------------------------------- */

/* A fixture without its first line, which must be the source comment. */
static char *
xml_fixture(const char *rel, size_t *len)
{
	char *path = gw_xasprintf("vsphere/%s", rel);
	size_t n;
	char *data = tu_read_fixture(path, &n), *nl, *out;

	if (strncmp(data, "<!-- source:", 12) != 0)
		fail_msg("%s: first line is not a '<!-- source: ... -->' comment", rel);
	nl = memchr(data, '\n', n);
	assert_non_null(nl);
	n -= (size_t)(nl + 1 - data);
	out = gw_xmalloc(n + 1);
	memcpy(out, nl + 1, n);
	out[n] = '\0';
	free(data);
	free(path);
	*len = n;
	return out;
}

static void
parse_inventory_fixture(const char *rel, gw_vs_inventory *inv)
{
	size_t n;
	char *x = xml_fixture(rel, &n), *token = (char *)"x";
	gw_vs_parse_state *ps = gw_vs_parse_state_new();
	gw_err e;

	memset(inv, 0, sizeof *inv);
	if (gw_vs_parse_inventory_page(ps, x, n, inv, &token, &e) != 0)
		fail_msg("%s", e.msg);
	assert_null(token);
	gw_vs_parse_inventory_finish(ps, inv);
	gw_vs_parse_state_free(ps);
	free(x);
}

/* XPath over a request we built, with prefixes s (soapenv), v (vim25),
 * xsi. */
typedef struct xq {
	xmlDocPtr doc;
	xmlXPathContextPtr ctx;
} xq;

static void
xq_open(xq *q, const char *text)
{
	q->doc = xmlReadMemory(text, (int)strlen(text), "req.xml", NULL,
	                       XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (q->doc == NULL)
		fail_msg("the request is not well-formed XML:\n%s", text);
	q->ctx = xmlXPathNewContext(q->doc);
	xmlXPathRegisterNs(q->ctx, (const xmlChar *)"s",
	                   (const xmlChar *)"http://schemas.xmlsoap.org/soap/envelope/");
	xmlXPathRegisterNs(q->ctx, (const xmlChar *)"v", (const xmlChar *)"urn:vim25");
	xmlXPathRegisterNs(q->ctx, (const xmlChar *)"xsi",
	                   (const xmlChar *)"http://www.w3.org/2001/XMLSchema-instance");
}

static void
xq_close(xq *q)
{
	xmlXPathFreeContext(q->ctx);
	xmlFreeDoc(q->doc);
}

/* String value of an XPath expression (malloc'ed). */
static char *
xq_str(xq *q, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression((const xmlChar *)expr, q->ctx);
	xmlChar *s;
	char *out;

	if (o == NULL)
		fail_msg("bad XPath %s", expr);
	s = xmlXPathCastToString(o);
	out = gw_xstrdup((const char *)s);
	xmlFree(s);
	xmlXPathFreeObject(o);
	return out;
}

static double
xq_num(xq *q, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression((const xmlChar *)expr, q->ctx);
	double d;

	if (o == NULL)
		fail_msg("bad XPath %s", expr);
	d = xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	return d;
}

#define assert_xq(q, expr, want) do { \
		char *got_ = xq_str((q), (expr)); \
		if (strcmp(got_, (want)) != 0) \
			fail_msg("%s: got \"%s\", want \"%s\"", (expr), got_, (want)); \
		free(got_); \
	} while (0)

/* A powered-off VM as gpuwiz would read it. */
static void
vm_init(gw_vs_vm *v)
{
	memset(v, 0, sizeof *v);
	v->moref = gw_xstrdup("vm-42");
	v->name = gw_xstrdup("llm01");
	v->host_moref = gw_xstrdup("host-21");
	v->hw_version = 19;
	v->firmware = gw_xstrdup("efi");
	v->memory_mb = 65536;
	v->reserve_locked = 0;
	v->power = GW_VS_POWER_OFF;
}

static void
vm_add_ec(gw_vs_vm *v, const char *k, const char *val)
{
	v->ec_keys = gw_xrealloc(v->ec_keys, (v->nec + 1) * sizeof *v->ec_keys);
	v->ec_vals = gw_xrealloc(v->ec_vals, (v->nec + 1) * sizeof *v->ec_vals);
	v->ec_keys[v->nec] = gw_xstrdup(k);
	v->ec_vals[v->nec] = gw_xstrdup(val);
	v->nec++;
}

static void
vm_add_dev(gw_vs_vm *v, const char *id, const char *vgpu)
{
	gw_vs_dev *d;

	v->devs = gw_xrealloc(v->devs, (v->ndevs + 1) * sizeof *v->devs);
	d = &v->devs[v->ndevs++];
	memset(d, 0, sizeof *d);
	d->key = 13000 + (int)v->ndevs;
	d->id = gw_xstrdup(id);
	d->vgpu = gw_xstrdup(vgpu);
	if (id) {
		d->vendor = 0x10de;
		d->device = 0x26b9;
		d->system_id = gw_xstrdup("65a1b2c3-0d4e-5f60-7182-93a4b5c6d7e8");
	}
}

/* gw_vs_inventory_free frees the VMs of an inventory: lend it a copy. */
static void
vm_free1(gw_vs_vm *v)
{
	gw_vs_inventory inv;

	memset(&inv, 0, sizeof inv);
	inv.vms = gw_xmalloc(sizeof *inv.vms);
	inv.vms[0] = *v;
	inv.nvms = 1;
	gw_vs_inventory_free(&inv);
}

#define SYSID "65a1b2c3-0d4e-5f60-7182-93a4b5c6d7e8"
#define FP_ABC "BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD"

/* ---- URL, thumbprints ----------------------------------------------------- */

static void
test_normalize_url(void **state)
{
	static const struct { const char *in, *out; } ok[] = {
		{ "vc01", "https://vc01/sdk" },
		{ "vc01.example.com:8989", "https://vc01.example.com:8989/sdk" },
		{ "https://vc01", "https://vc01/sdk" },
		{ "https://vc01/", "https://vc01/sdk" },
		{ "HTTPS://vc01/sdk", "https://vc01/sdk" },
		{ "  https://127.0.0.1:4443/sdk ", "https://127.0.0.1:4443/sdk" },
		{ "https://[::1]:8989", "https://[::1]:8989/sdk" },
		{ "https://vc01/custom/sdk", "https://vc01/custom/sdk" },
	};
	gw_err e;
	char *u;

	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		u = gw_vs_normalize_url(ok[i].in, &e);
		if (u == NULL)
			fail_msg("%s: %s", ok[i].in, e.msg);
		assert_string_equal(u, ok[i].out);
		free(u);
	}
	assert_null(gw_vs_normalize_url("http://vc01/sdk", &e));
	assert_non_null(strstr(e.msg, "https://"));
	assert_null(gw_vs_normalize_url("https://root:s3cret@vc01/sdk", &e));
	assert_non_null(strstr(e.msg, "--user"));
	assert_null(strstr(e.msg, "s3cret"));
	assert_null(gw_vs_normalize_url("vc01 /sdk", &e));
	assert_null(gw_vs_normalize_url("", &e));
	assert_null(gw_vs_normalize_url(NULL, &e));
	assert_null(gw_vs_normalize_url("https:///sdk", &e));
	assert_null(gw_vs_normalize_url("ftp://vc01", &e));
}

static void
test_thumbprint(void **state)
{
	char out[GW_VS_THUMB_LEN];
	const char *lower = "ba:78:16:bf:8f:01:cf:ea:41:41:40:de:5d:ae:22:23:b0:03:61:a3:96:17:7a:9c:b4:10:ff:61:f2:00:15:ad";
	const char *bare = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	gw_err e;

	(void)state;
	assert_int_equal(gw_vs_thumbprint_normalize(FP_ABC, out, &e), 0);
	assert_string_equal(out, FP_ABC);
	assert_int_equal(strlen(out), 95);
	assert_int_equal(gw_vs_thumbprint_normalize(lower, out, &e), 0);
	assert_string_equal(out, FP_ABC);
	assert_int_equal(gw_vs_thumbprint_normalize(bare, out, &e), 0);
	assert_string_equal(out, FP_ABC);
	/* as openssl x509 -noout -fingerprint -sha256 prints it */
	assert_int_equal(gw_vs_thumbprint_normalize("sha256 Fingerprint=" FP_ABC "\n", out, &e), 0);
	assert_string_equal(out, FP_ABC);
	assert_int_equal(gw_vs_thumbprint_normalize("SHA256 Fingerprint=" FP_ABC, out, &e), 0);
	assert_string_equal(out, FP_ABC);
	assert_true(gw_vs_thumbprint_equal(lower, bare));
	assert_true(gw_vs_thumbprint_equal(FP_ABC, bare));
	assert_false(gw_vs_thumbprint_equal(FP_ABC, "00:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD"));
	assert_false(gw_vs_thumbprint_equal(FP_ABC, "nonsense"));
	/* SHA-1: a hint, not a generic error */
	assert_int_equal(gw_vs_thumbprint_normalize("A9:99:3E:36:47:06:81:6A:BA:3E:25:71:78:50:C2:6C:9C:D0:D8:9D", out, &e), -1);
	assert_non_null(strstr(e.msg, "SHA-1"));
	assert_non_null(strstr(e.msg, "-sha256"));
	/* wrong lengths and shapes */
	assert_int_equal(gw_vs_thumbprint_normalize("AB:CD", out, &e), -1);
	assert_non_null(strstr(e.msg, "2 bytes"));
	assert_int_equal(gw_vs_thumbprint_normalize("", out, &e), -1);
	assert_int_equal(gw_vs_thumbprint_normalize(NULL, out, &e), -1);
	assert_int_equal(gw_vs_thumbprint_normalize("BA:7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", out, &e), -1);
	assert_int_equal(gw_vs_thumbprint_normalize("BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD:", out, &e), -1);
	assert_int_equal(gw_vs_thumbprint_normalize("BG:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD", out, &e), -1);
	assert_int_equal(gw_vs_thumbprint_normalize("B:A78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD", out, &e), -1);
	assert_int_equal(gw_vs_thumbprint_normalize(FP_ABC " x", out, &e), -1);
}

static void
test_thumbprint_of_der(void **state)
{
	char out[GW_VS_THUMB_LEN];

	(void)state;
	/* SHA-256("abc"), FIPS 180-2 */
	gw_vs_thumbprint_of_der((const unsigned char *)"abc", 3, out);
	assert_string_equal(out, FP_ABC);
}

/* ---- answers ------------------------------------------------------------ */

static void
test_fault_invalid_login(void **state)
{
	size_t n;
	char *x = xml_fixture("vcsim-login-invalid-login-fault.xml", &n);
	gw_vs_fault f;
	gw_err e;

	(void)state;
	assert_int_equal(gw_vs_parse_fault(x, n, &f, &e), 1);
	assert_string_equal(f.type, "InvalidLogin");
	assert_string_equal(f.message, "Login failure");
	gw_vs_fault_free(&f);
	free(x);
}

static void
test_fault_restricted_version(void **state)
{
	size_t n;
	char *x = xml_fixture("vcsim-gpuwiz-update-passthru-license-fault.xml", &n);
	gw_vs_fault f;
	gw_err e;

	(void)state;
	assert_int_equal(gw_vs_parse_fault(x, n, &f, &e), 1);
	assert_string_equal(f.type, "RestrictedVersion");
	assert_string_equal(f.message, "Current license or ESXi version prohibits execution of the requested operation.");
	gw_vs_fault_free(&f);
	free(x);
}

static void
test_fault_managed_object_not_found(void **state)
{
	size_t n;
	char *x = xml_fixture("vcsim-update-passthru-managed-object-not-found.xml", &n);
	gw_vs_fault f;
	gw_err e;

	(void)state;
	assert_int_equal(gw_vs_parse_fault(x, n, &f, &e), 1);
	assert_string_equal(f.type, "ManagedObjectNotFound");
	assert_non_null(strstr(f.message, "ha-pcipassthrusystem"));
	gw_vs_fault_free(&f);
	free(x);
}

static void
test_fault_not_a_fault_and_not_soap(void **state)
{
	size_t n;
	char *x = xml_fixture("vcsim-esx-retrieve-service-content.xml", &n);
	gw_vs_fault f;
	gw_err e;
	static const char *const junk[] = {
		"<html><body>It works!</body></html>",
		"not xml at all",
		"<Envelope><Body><x/></Body></Envelope>",   /* no SOAP namespace */
		"<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body/></s:Envelope>",
		"<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>",
	};

	(void)state;
	assert_int_equal(gw_vs_parse_fault(x, n, &f, &e), 0);
	assert_null(f.type);
	assert_null(f.message);
	free(x);
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		e.msg[0] = '\0';
		assert_int_equal(gw_vs_parse_fault(junk[i], strlen(junk[i]), &f, &e), -1);
		assert_non_null(strstr(e.msg, "SOAP"));
	}
	assert_int_equal(gw_vs_parse_fault("", 0, &f, &e), -1);
}

static void
test_inventory_vcsim_esx(void **state)
{
	gw_vs_inventory inv;
	const gw_vs_host *h;
	const gw_vs_vm *v;
	const gw_vs_pci *p;

	(void)state;
	parse_inventory_fixture("vcsim-esx-inventory-retrieve-properties-ex.xml", &inv);
	assert_int_equal(inv.nhosts, 1);
	assert_int_equal(inv.nvms, 2);
	h = &inv.hosts[0];
	assert_string_equal(h->moref, "ha-host");
	assert_string_equal(h->name, "localhost.localdomain");
	assert_non_null(h->version);
	assert_non_null(h->build);
	assert_string_equal(h->passthru_moref, "ha-pcipassthrusystem");
	assert_string_equal(h->envbrowser_moref, "envbrowser-6");
	assert_true(h->npci > 3);
	p = gw_vs_host_pci(h, "0000:3b:00.0");
	assert_non_null(p);
	assert_int_equal(p->vendor, 0x10de);
	assert_int_equal(p->device, 0x26b9);
	assert_int_equal(p->subvendor, 0x10de);
	assert_int_equal(p->subdevice, 0x1851);
	assert_int_equal(p->class_id, 0x0302);
	assert_string_equal(p->vendor_name, "NVIDIA Corporation");
	assert_string_equal(p->device_name, "AD102GL [L40S]");
	assert_int_equal(p->passthru_capable, 1);
	assert_int_equal(p->passthru_enabled, 1);
	assert_int_equal(p->passthru_active, 1);
	assert_null(p->system_id);
	/* other spellings of the address find it too */
	assert_ptr_equal(gw_vs_host_pci(h, "3b:00.0"), p);
	assert_ptr_equal(gw_vs_host_pci(h, "0000:3B:00.0"), p);
	p = gw_vs_host_pci(h, "0000:5e:00.0");
	assert_non_null(p);
	assert_int_equal(p->passthru_capable, 1);
	assert_int_equal(p->passthru_enabled, 0);
	assert_int_equal(p->passthru_active, 0);
	/* 0x8086 is the short -32634 in the API */
	p = gw_vs_host_pci(h, "0000:18:00.0");
	assert_non_null(p);
	assert_int_equal(p->vendor, 0x8086);
	assert_int_equal(p->passthru_capable, 0);
	assert_null(gw_vs_host_pci(h, "0000:ff:1f.7"));
	/* vcsim's own devices are not in pciPassthruInfo: not capable */
	assert_int_equal(h->pci[0].passthru_capable, 0);

	/* VMs sorted by name */
	assert_string_equal(inv.vms[0].name, "ha-host_VM0");
	assert_string_equal(inv.vms[1].name, "ha-host_VM1");
	v = gw_vs_find_vm(&inv, "ha-host_VM1");
	assert_ptr_equal(v, &inv.vms[1]);
	assert_ptr_equal(gw_vs_find_vm(&inv, v->moref), v);
	assert_ptr_equal(gw_vs_find_vm(&inv, "HA-HOST_vm1"), v);
	assert_null(gw_vs_find_vm(&inv, "nope"));
	assert_int_equal(v->hw_version, 13);
	assert_string_equal(v->firmware, "bios");
	assert_int_equal(v->memory_mb, 32);
	assert_int_equal(v->reserve_locked, -1);   /* vcsim leaves it unset */
	assert_int_equal(v->power, GW_VS_POWER_ON);
	assert_string_equal(v->host_moref, "ha-host");
	assert_string_equal(v->vmx_path, "[LocalDS_0] ha-host_VM1/ha-host_VM1.vmx");
	assert_true(v->nec >= 1);
	assert_int_equal(v->ndevs, 0);             /* disks, NICs: not kept */
	assert_ptr_equal(gw_vs_find_host(&inv, "ha-host"), h);
	assert_ptr_equal(gw_vs_find_host(&inv, "localhost.localdomain"), h);
	assert_null(gw_vs_find_host(&inv, "host-99"));
	gw_vs_inventory_free(&inv);
	gw_vs_inventory_free(&inv);     /* harmless twice */
}

static void
test_inventory_vcsim_vpx(void **state)
{
	gw_vs_inventory inv;
	const gw_vs_host *h;
	const gw_vs_vm *v;
	const gw_vs_pci *p;
	static const char *const names[] = { "DC0_C0_H0", "DC0_C0_H1", "DC0_C0_H2", "DC0_H0" };

	(void)state;
	parse_inventory_fixture("vcsim-gpuwiz-vpx-inventory-retrieve-properties-ex.xml", &inv);
	assert_int_equal(inv.nhosts, 4);
	assert_int_equal(inv.nvms, 3);
	for (size_t i = 0; i < 4; i++) {
		h = &inv.hosts[i];
		assert_string_equal(h->name, names[i]);
		assert_string_equal(h->version, "8.0.2");
		assert_string_equal(h->build, "22380479");
		assert_int_equal(h->npci, 45);
		assert_non_null(h->passthru_moref);
		/* the cluster's environment browser for its hosts, the
		 * standalone compute resource's for the other */
		assert_string_equal(h->envbrowser_moref,
		                    i < 3 ? "envbrowser-25" : "envbrowser-20");
		p = gw_vs_host_pci(h, "0000:3b:00.0");
		assert_non_null(p);
		assert_int_equal(p->passthru_enabled, 1);
		assert_int_equal(p->passthru_active, 1);
		p = gw_vs_host_pci(h, "0000:5e:00.0");
		assert_non_null(p);
		assert_true(p->vendor == 0x10de && p->device == 0x26b9);
		assert_int_equal(p->passthru_capable, 1);
		assert_int_equal(p->passthru_enabled, 0);
	}
	h = gw_vs_find_host(&inv, "host-21");
	assert_string_equal(h->name, "DC0_H0");
	assert_string_equal(h->passthru_moref, "pciPassthruSystem-host-21");
	v = gw_vs_find_vm(&inv, "VM0");
	assert_string_equal(v->moref, "vm-57");
	assert_int_equal(v->power, GW_VS_POWER_ON);
	assert_string_equal(v->host_moref, "host-21");
	assert_int_equal(v->reserve_locked, 0);
	assert_int_equal(v->memory_mb, 16384);
	assert_int_equal(v->nec, 1);
	assert_string_equal(v->ec_keys[0], "govcsim");
	assert_string_equal(v->ec_vals[0], "TRUE");
	v = gw_vs_find_vm(&inv, "vm-60");
	assert_string_equal(v->name, "VM1");
	assert_int_equal(v->power, GW_VS_POWER_OFF);
	assert_string_equal(v->host_moref, "host-34");
	assert_string_equal(v->vmx_path, "[LocalDS_0] VM1/VM1.vmx");
	gw_vs_inventory_free(&inv);
}

static void
test_inventory_after_reconfigure(void **state)
{
	gw_vs_inventory inv;
	const gw_vs_vm *v;
	const gw_vs_dev *d;
	static const char *const keys[] = {
		"pciPassthru.use64bitMMIO", "pciPassthru.64bitMMIOSizeGB",
	};
	static const char *const vals[] = { "TRUE", "128" };
	gw_vs_add add = { .id = "0000:3b:00.0", .vendor = 0x10de, .device = 0x26b9,
	                  .system_id = "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2d" };
	gw_vs_spec spec = { keys, vals, 2, 1, &add, 1 };
	gw_err e;

	(void)state;
	parse_inventory_fixture("vcsim-gpuwiz-vpx-inventory-after-reconfigure.xml", &inv);
	v = gw_vs_find_vm(&inv, "VM1");
	assert_non_null(v);
	assert_int_equal(v->ndevs, 1);
	d = &v->devs[0];
	assert_int_equal(d->key, 13000);
	assert_string_equal(d->label, "PCI device 0");
	assert_string_equal(d->id, "0000:3b:00.0");
	assert_int_equal(d->vendor, 0x10de);
	assert_int_equal(d->device, 0x26b9);
	assert_string_equal(d->system_id, "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2d");
	assert_null(d->vgpu);
	assert_int_equal(v->reserve_locked, 1);
	assert_int_equal(v->nec, 3);
	assert_string_equal(v->ec_keys[2], "pciPassthru.64bitMMIOSizeGB");
	assert_string_equal(v->ec_vals[2], "128");
	/* what was applied is not applied again */
	assert_int_equal(gw_vs_reconfigure_body(v, &spec, NULL, NULL, &e), 0);
	/* the other VMs are untouched */
	assert_int_equal(gw_vs_find_vm(&inv, "VM2")->ndevs, 0);
	assert_int_equal(gw_vs_reconfigure_body(gw_vs_find_vm(&inv, "VM2"), &spec,
	                                        NULL, NULL, &e), 4);
	gw_vs_inventory_free(&inv);
}

static void
test_config_target_vcsim_gpuwiz(void **state)
{
	gw_vs_inventory inv;
	gw_vs_host *h;
	size_t n;
	char *x;
	gw_err e;

	(void)state;
	parse_inventory_fixture("vcsim-gpuwiz-vpx-inventory-retrieve-properties-ex.xml", &inv);
	h = (gw_vs_host *)gw_vs_find_host(&inv, "host-34");
	x = xml_fixture("vcsim-gpuwiz-vpx-query-config-target.xml", &n);
	assert_int_equal(gw_vs_parse_config_target(x, n, h, &e), 0);
	assert_string_equal(gw_vs_host_pci(h, "0000:3b:00.0")->system_id,
	                    "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2d");
	assert_null(gw_vs_host_pci(h, "0000:5e:00.0")->system_id);
	free(x);
	gw_vs_inventory_free(&inv);
}

static void
test_inventory_pages(void **state)
{
	gw_vs_parse_state *ps = gw_vs_parse_state_new();
	gw_vs_inventory inv;
	const gw_vs_vm *v;
	const gw_vs_host *h;
	char *x, *token;
	size_t n;
	gw_err e;

	(void)state;
	memset(&inv, 0, sizeof inv);
	x = xml_fixture("synthetic-inventory-page1-with-token.xml", &n);
	assert_int_equal(gw_vs_parse_inventory_page(ps, x, n, &inv, &token, &e), 0);
	assert_string_equal(token, "1");
	free(token);
	free(x);
	x = xml_fixture("synthetic-inventory-page2-last.xml", &n);
	assert_int_equal(gw_vs_parse_inventory_page(ps, x, n, &inv, &token, &e), 0);
	assert_null(token);
	free(x);
	gw_vs_parse_inventory_finish(ps, &inv);
	gw_vs_parse_state_free(ps);
	assert_int_equal(inv.nhosts, 2);
	assert_int_equal(inv.nvms, 2);
	assert_string_equal(inv.hosts[0].name, "esx-a.example.com");
	assert_null(inv.hosts[0].envbrowser_moref);   /* no parent read */
	assert_null(inv.hosts[0].version);
	assert_int_equal(inv.hosts[0].npci, 0);
	h = &inv.hosts[1];
	/* the cluster came on the next page */
	assert_string_equal(h->envbrowser_moref, "envbrowser-9");
	assert_string_equal(h->version, "7.0.3");       /* summary.config.product */
	assert_string_equal(h->build, "21930508");
	assert_null(h->passthru_moref);
	assert_int_equal(h->npci, 1);
	assert_int_equal(h->pci[0].passthru_enabled, -1);   /* no pciPassthruInfo */
	assert_int_equal(h->pci[0].device, 0x20b5);
	assert_string_equal(inv.vms[0].name, "Zeta & Co (GPU)");   /* 'Z' < 'a' */
	assert_string_equal(inv.vms[1].name, "alpha");
	v = &inv.vms[0];
	assert_int_equal(v->power, GW_VS_POWER_SUSPENDED);
	assert_int_equal(v->hw_version, 19);
	assert_int_equal(v->reserve_locked, -1);
	assert_int_equal(v->memory_mb, 0);
	assert_null(v->firmware);
	assert_null(v->vmx_path);
	assert_int_equal(v->ndevs, 2);                /* the NIC is not kept */
	assert_string_equal(v->devs[0].vgpu, "nvidia_a100-40c");
	assert_null(v->devs[0].id);
	assert_int_equal(v->devs[0].vendor, 0);
	assert_null(v->devs[1].vgpu);                 /* Dynamic DirectPath */
	assert_null(v->devs[1].id);
	assert_int_equal(v->devs[1].vendor, 0x10de);
	assert_int_equal(v->devs[1].device, 0x20b5);
	assert_int_equal(inv.vms[1].power, GW_VS_POWER_OFF);
	assert_int_equal(inv.vms[1].hw_version, 0);
	gw_vs_inventory_free(&inv);
}

static void
test_config_target(void **state)
{
	gw_vs_inventory inv;
	gw_vs_host *h;
	size_t n;
	char *x;
	gw_err e;

	(void)state;
	parse_inventory_fixture("vcsim-esx-inventory-retrieve-properties-ex.xml", &inv);
	h = &inv.hosts[0];
	x = xml_fixture("vcsim-esx-query-config-target-no-passthrough.xml", &n);
	assert_int_equal(gw_vs_parse_config_target(x, n, h, &e), 0);
	assert_null(gw_vs_host_pci(h, "0000:3b:00.0")->system_id);
	free(x);
	x = xml_fixture("synthetic-query-config-target-pci-passthrough.xml", &n);
	assert_int_equal(gw_vs_parse_config_target(x, n, h, &e), 0);
	assert_string_equal(gw_vs_host_pci(h, "0000:3b:00.0")->system_id, SYSID);
	assert_string_equal(gw_vs_host_pci(h, "0000:18:00.0")->system_id, SYSID);
	assert_null(gw_vs_host_pci(h, "0000:5e:00.0")->system_id);
	free(x);
	x = xml_fixture("vcsim-login-invalid-login-fault.xml", &n);
	assert_int_equal(gw_vs_parse_config_target(x, n, h, &e), -1);
	assert_non_null(strstr(e.msg, "Login failure"));
	free(x);
	gw_vs_inventory_free(&inv);
}

static void
test_task_info(void **state)
{
	gw_vs_task_info ti;
	size_t n;
	char *x;
	gw_err e;

	(void)state;
	x = xml_fixture("synthetic-task-info-error.xml", &n);
	assert_int_equal(gw_vs_parse_task_info(x, n, &ti, &e), 0);
	assert_int_equal(ti.state, 3);
	assert_int_equal(ti.progress, -1);
	assert_string_equal(ti.fault_type, "GenericVmConfigFault");
	assert_non_null(strstr(ti.fault_message, "unavailable hardware"));
	gw_vs_task_info_free(&ti);
	free(x);
	x = xml_fixture("synthetic-task-info-running.xml", &n);
	assert_int_equal(gw_vs_parse_task_info(x, n, &ti, &e), 0);
	assert_int_equal(ti.state, 1);
	assert_int_equal(ti.progress, 42);
	assert_null(ti.fault_type);
	gw_vs_task_info_free(&ti);
	free(x);
	x = xml_fixture("vcsim-gpuwiz-task-info-success.xml", &n);
	assert_int_equal(gw_vs_parse_task_info(x, n, &ti, &e), 0);
	assert_int_equal(ti.state, 2);
	assert_null(ti.fault_type);
	assert_null(ti.fault_message);
	gw_vs_task_info_free(&ti);
	free(x);
	x = xml_fixture("vcsim-esx-retrieve-service-content.xml", &n);
	assert_int_equal(gw_vs_parse_task_info(x, n, &ti, &e), -1);
	free(x);
}

static void
test_power_names(void **state)
{
	(void)state;
	assert_int_equal(gw_vs_power_parse("poweredOn"), GW_VS_POWER_ON);
	assert_int_equal(gw_vs_power_parse("poweredOff"), GW_VS_POWER_OFF);
	assert_int_equal(gw_vs_power_parse("suspended"), GW_VS_POWER_SUSPENDED);
	assert_int_equal(gw_vs_power_parse("x"), GW_VS_POWER_UNKNOWN);
	assert_int_equal(gw_vs_power_parse(NULL), GW_VS_POWER_UNKNOWN);
	assert_string_equal(gw_vs_power_name(GW_VS_POWER_OFF), "off");
	assert_string_equal(gw_vs_power_name(GW_VS_POWER_ON), "on");
}

/* ---- the ReconfigVM_Task envelope ------------------------------------------ */

static void
test_reconfigure_body(void **state)
{
	gw_vs_vm vm;
	static const char *const keys[] = {
		"pciPassthru.use64bitMMIO", "pciPassthru.64bitMMIOSizeGB",
		"guestinfo.note",
	};
	static const char *const vals[] = {
		"TRUE", "128", "a<b & c>\"d\" 'e' 显卡 ]]>",
	};
	gw_vs_add adds[] = {
		{ .id = "3b:00.0", .vendor = 0x10de, .device = 0x26b9,
		  .system_id = SYSID, .device_name = "AD102GL [L40S] <&>" },
		{ .id = "0000:18:00.0", .vendor = 0x8086, .device = 0x1563,
		  .system_id = SYSID },
		{ .vgpu = "nvidia_l40s-24c" },
	};
	gw_vs_spec spec = { keys, vals, 3, 1, adds, 3 };
	char *body = NULL;
	gw_err e;
	xq q;

	(void)state;
	vm_init(&vm);
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, "8.0.2.0", &body, &e), 7);
	assert_non_null(body);
	assert_non_null(strstr(body, "<?xml"));
	xq_open(&q, body);
	assert_xq(&q, "local-name(/s:Envelope/s:Body/*)", "ReconfigVM_Task");
	assert_xq(&q, "namespace-uri(/s:Envelope/s:Body/*)", "urn:vim25");
	assert_xq(&q, "//v:ReconfigVM_Task/v:_this", "vm-42");
	assert_xq(&q, "//v:ReconfigVM_Task/v:_this/@type", "VirtualMachine");
	/* the spec's fields in the WSDL's order */
	assert_xq(&q, "local-name(//v:spec/*[1])", "deviceChange");
	assert_xq(&q, "local-name(//v:spec/*[4])", "extraConfig");
	assert_xq(&q, "local-name(//v:spec/*[last()])", "memoryReservationLockedToMax");
	assert_xq(&q, "//v:spec/v:memoryReservationLockedToMax", "true");
	assert_true(xq_num(&q, "count(//v:spec/v:deviceChange)") == 3);
	assert_true(xq_num(&q, "count(//v:spec/v:extraConfig)") == 3);
	/* device 1: the L40S */
	assert_xq(&q, "//v:deviceChange[1]/v:operation", "add");
	assert_xq(&q, "//v:deviceChange[1]/v:device/@xsi:type", "VirtualPCIPassthrough");
	assert_xq(&q, "//v:deviceChange[1]/v:device/v:key", "-100");
	assert_xq(&q, "//v:deviceChange[1]/v:device/v:backing/@xsi:type",
	          "VirtualPCIPassthroughDeviceBackingInfo");
	assert_xq(&q, "//v:deviceChange[1]//v:backing/v:id", "0000:3b:00.0");
	assert_xq(&q, "//v:deviceChange[1]//v:backing/v:deviceId", "26b9");
	assert_xq(&q, "//v:deviceChange[1]//v:backing/v:vendorId", "4318");
	assert_xq(&q, "//v:deviceChange[1]//v:backing/v:systemId", SYSID);
	assert_xq(&q, "//v:deviceChange[1]//v:backing/v:deviceName", "AD102GL [L40S] <&>");
	assert_xq(&q, "local-name(//v:deviceChange[1]//v:backing/*[1])", "deviceName");
	assert_xq(&q, "local-name(//v:deviceChange[1]//v:backing/*[5])", "vendorId");
	/* device 2: vendor 0x8086 goes out as the signed short */
	assert_xq(&q, "//v:deviceChange[2]/v:device/v:key", "-101");
	assert_xq(&q, "//v:deviceChange[2]//v:backing/v:vendorId", "-32634");
	assert_xq(&q, "//v:deviceChange[2]//v:backing/v:deviceId", "1563");
	assert_xq(&q, "//v:deviceChange[2]//v:backing/v:deviceName", "");
	/* device 3: the vGPU */
	assert_xq(&q, "//v:deviceChange[3]/v:device/v:key", "-102");
	assert_xq(&q, "//v:deviceChange[3]/v:device/v:backing/@xsi:type",
	          "VirtualPCIPassthroughVmiopBackingInfo");
	assert_xq(&q, "//v:deviceChange[3]//v:backing/v:vgpu", "nvidia_l40s-24c");
	assert_true(xq_num(&q, "count(//v:deviceChange[3]//v:backing/v:id)") == 0);
	/* extraConfig: xsd:string values, odd characters intact */
	assert_xq(&q, "//v:extraConfig[1]/v:key", "pciPassthru.use64bitMMIO");
	assert_xq(&q, "//v:extraConfig[1]/v:value", "TRUE");
	assert_xq(&q, "//v:extraConfig[1]/v:value/@xsi:type", "xsd:string");
	assert_xq(&q, "//v:extraConfig[2]/v:value", "128");
	assert_xq(&q, "//v:extraConfig[3]/v:value", vals[2]);
	xq_close(&q);
	/* the xsd prefix the type names is declared */
	assert_non_null(strstr(body, "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\""));
	/* raw text: escaped, never a literal "<b" */
	assert_null(strstr(body, "a<b"));
	free(body);

	/* body NULL: only the count */
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), 7);
	vm_free1(&vm);
}

static void
test_reconfigure_body_skips_what_is_there(void **state)
{
	gw_vs_vm vm;
	static const char *const keys[] = {
		"pciPassthru.use64bitMMIO", "pciPassthru.64bitMMIOSizeGB",
		"pciPassthru.64bitMMIOSizeGB",
	};
	static const char *const vals[] = { "TRUE", "64", "128" };
	gw_vs_add adds[] = {
		{ .id = "0000:3B:00.0", .vendor = 0x10de, .device = 0x26b9, .system_id = SYSID },
		{ .id = "0000:5e:00.0", .vendor = 0x10de, .device = 0x26b9, .system_id = SYSID },
		{ .id = "5e:00.0", .vendor = 0x10de, .device = 0x26b9, .system_id = SYSID },
		{ .vgpu = "nvidia_l40s-24c" },
		{ .vgpu = "nvidia_l40s-24c" },
	};
	gw_vs_spec spec = { keys, vals, 3, 1, adds, 5 };
	char *body = NULL;
	gw_err e;
	xq q;

	(void)state;
	vm_init(&vm);
	vm.reserve_locked = 1;
	vm_add_ec(&vm, "PCIPASSTHRU.use64bitMMIO", "TRUE");      /* key case differs */
	vm_add_ec(&vm, "pciPassthru.64bitMMIOSizeGB", "32");
	vm_add_dev(&vm, "0000:3b:00.0", NULL);
	vm_add_dev(&vm, NULL, "nvidia_l40s-24c");
	/* left: 5e:00.0 once, one more vGPU, the MMIO size once (the last
	 * value), not the reservation */
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, &body, &e), 3);
	xq_open(&q, body);
	assert_true(xq_num(&q, "count(//v:deviceChange)") == 2);
	assert_xq(&q, "//v:deviceChange[1]//v:backing/v:id", "0000:5e:00.0");
	assert_xq(&q, "//v:deviceChange[2]//v:backing/v:vgpu", "nvidia_l40s-24c");
	assert_true(xq_num(&q, "count(//v:extraConfig)") == 1);
	assert_xq(&q, "//v:extraConfig/v:key", "pciPassthru.64bitMMIOSizeGB");
	assert_xq(&q, "//v:extraConfig/v:value", "128");
	assert_true(xq_num(&q, "count(//v:memoryReservationLockedToMax)") == 0);
	xq_close(&q);
	free(body);

	/* everything there: nothing to send */
	vm_add_ec(&vm, "pciPassthru.64bitMMIOSizeGB", "128");    /* the last wins */
	vm_add_dev(&vm, "0000:5e:00.0", NULL);
	vm_add_dev(&vm, NULL, "nvidia_l40s-24c");
	body = (char *)"x";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, &body, &e), 0);
	assert_null(body);
	/* reserve_locked -1: leave it */
	vm.reserve_locked = 0;
	spec.reserve_locked = -1;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), 0);
	spec.reserve_locked = 0;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), 0);
	vm_free1(&vm);
}

static void
test_reconfigure_body_refusals(void **state)
{
	gw_vs_vm vm;
	const char *k[1], *v[1];
	gw_vs_add a[1];
	gw_vs_spec spec;
	gw_err e;

	(void)state;
	vm_init(&vm);
	memset(&spec, 0, sizeof spec);
	spec.reserve_locked = -1;
	spec.ec_keys = k;
	spec.ec_vals = v;
	spec.nec = 1;
	k[0] = "bad key";
	v[0] = "x";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	k[0] = "";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	k[0] = "a\nb";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	k[0] = "ok.key";
	v[0] = "x\001y";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "ok.key"));
	v[0] = "\xff\xfe";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	v[0] = NULL;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	spec.nec = 0;
	spec.adds = a;
	spec.nadds = 1;
	memset(a, 0, sizeof a);
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	a[0].id = "0000:3b:00.0";
	a[0].vgpu = "nvidia_l40s-24c";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	a[0].vgpu = NULL;
	a[0].vendor = 0x10de;
	a[0].device = 0x26b9;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "systemId"));
	a[0].system_id = SYSID;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), 1);
	a[0].id = "zz:00.0";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "zz:00.0"));
	a[0].id = "0000:3b:00.0";
	a[0].vendor = 0;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	a[0].vendor = 0x10de;
	a[0].device = 0x12345;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	memset(a, 0, sizeof a);
	a[0].vgpu = "has blank";
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	assert_int_equal(gw_vs_reconfigure_body(NULL, &spec, NULL, NULL, &e), -1);
	assert_int_equal(gw_vs_reconfigure_body(&vm, NULL, NULL, NULL, &e), -1);
	vm_free1(&vm);
}

/* ---- refusals that need no server ------------------------------------------ */

static int progress_calls;
static int progress_last;
static int progress_between;     /* saw a value strictly between 0 and 100 */

static void
progress(void *ctx, const char *what, int pct)
{
	(void)ctx;
	assert_non_null(what);
	assert_true(pct >= -1 && pct <= 100);
	progress_calls++;
	progress_last = pct;
	if (pct > 0 && pct < 100)
		progress_between = 1;
}

static void
test_new_options(void **state)
{
	gw_vs_opts o;
	gw_vs *s;
	gw_err e;

	(void)state;
	memset(&o, 0, sizeof o);
	o.url = "127.0.0.1:1";
	o.user = "root";
	o.password = "pw-not-in-errors";
	s = gw_vs_new(&o, &e);
	assert_non_null(s);
	assert_int_equal(gw_vs_round_trips(s), 0);
	assert_string_equal(gw_vs_url(s), "https://127.0.0.1:1/sdk");
	assert_string_equal(gw_vs_api_version(s), "");
	assert_false(gw_vs_is_vcenter(s));
	gw_vs_close(s);
	gw_vs_close(NULL);

	o.user = "";
	assert_null(gw_vs_new(&o, &e));
	assert_non_null(strstr(e.msg, "--user"));
	o.user = "root";
	o.password = NULL;
	assert_null(gw_vs_new(&o, &e));
	o.password = "pw-not-in-errors";
	o.thumbprint = "A9:99:3E:36:47:06:81:6A:BA:3E:25:71:78:50:C2:6C:9C:D0:D8:9D";
	assert_null(gw_vs_new(&o, &e));
	assert_non_null(strstr(e.msg, "SHA-1"));
	o.thumbprint = FP_ABC;
	o.insecure = 1;
	assert_null(gw_vs_new(&o, &e));
	assert_non_null(strstr(e.msg, "--insecure"));
	o.insecure = 0;
	o.url = "http://vc01";
	assert_null(gw_vs_new(&o, &e));
	assert_null(strstr(e.msg, "pw-not-in-errors"));
	assert_null(gw_vs_new(NULL, &e));
}

static void
test_refused_without_sending(void **state)
{
	gw_vs_opts o;
	gw_vs *s;
	gw_vs_vm vm;
	static const char *const keys[] = { "pciPassthru.use64bitMMIO" };
	static const char *const vals[] = { "TRUE" };
	gw_vs_spec spec = { keys, vals, 1, -1, NULL, 0 };
	gw_err e;

	(void)state;
	memset(&o, 0, sizeof o);
	o.url = "127.0.0.1:1";
	o.user = "root";
	o.password = "x";
	s = gw_vs_new(&o, &e);
	assert_non_null(s);
	vm_init(&vm);
	vm.power = GW_VS_POWER_ON;
	assert_int_equal(gw_vs_reconfigure(s, &vm, &spec, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "powered on"));
	assert_non_null(strstr(e.msg, "llm01"));
	vm.power = GW_VS_POWER_SUSPENDED;
	assert_int_equal(gw_vs_reconfigure(s, &vm, &spec, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "suspended"));
	vm.power = GW_VS_POWER_UNKNOWN;
	assert_int_equal(gw_vs_reconfigure(s, &vm, &spec, NULL, NULL, &e), -1);
	/* nothing to change: fine even powered on, and nothing sent */
	vm.power = GW_VS_POWER_ON;
	vm_add_ec(&vm, "pciPassthru.use64bitMMIO", "TRUE");
	progress_calls = 0;
	assert_int_equal(gw_vs_reconfigure(s, &vm, &spec, progress, NULL, &e), 0);
	assert_int_equal(progress_calls, 1);
	assert_int_equal(progress_last, 100);

	/* upgrade: never down, never equal, only off, known versions */
	vm.power = GW_VS_POWER_OFF;
	assert_int_equal(gw_vs_upgrade(s, &vm, 19, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "already vmx-19"));
	assert_int_equal(gw_vs_upgrade(s, &vm, 17, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "never lowered"));
	assert_int_equal(gw_vs_upgrade(s, &vm, 23, NULL, NULL, &e), -1);
	assert_int_equal(gw_vs_upgrade(s, &vm, 3, NULL, NULL, &e), -1);
	vm.power = GW_VS_POWER_ON;
	assert_int_equal(gw_vs_upgrade(s, &vm, 21, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "powered on"));
	vm.power = GW_VS_POWER_OFF;
	vm.hw_version = 0;
	assert_int_equal(gw_vs_upgrade(s, &vm, 21, NULL, NULL, &e), -1);
	/* a session that never logged in sends nothing */
	vm.hw_version = 19;
	assert_int_equal(gw_vs_upgrade(s, &vm, 21, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "not logged in"));
	assert_int_equal(gw_vs_round_trips(s), 0);
	gw_vs_close(s);
	vm_free1(&vm);
}

static void
test_enable_passthru_refusals(void **state)
{
	gw_vs_opts o;
	gw_vs *s;
	gw_vs_inventory inv;
	gw_vs_host *h;
	gw_err e;

	(void)state;
	memset(&o, 0, sizeof o);
	o.url = "127.0.0.1:1";
	o.user = "root";
	o.password = "x";
	s = gw_vs_new(&o, &e);
	parse_inventory_fixture("vcsim-esx-inventory-retrieve-properties-ex.xml", &inv);
	h = &inv.hosts[0];
	assert_int_equal(gw_vs_enable_passthru(s, h, "0000:3b:00.0", &e), -1);
	assert_non_null(strstr(e.msg, "not logged in"));
	assert_int_equal(gw_vs_round_trips(s), 0);
	gw_vs_close(s);
	gw_vs_inventory_free(&inv);
}

static void
test_connect_refused(void **state)
{
	gw_vs_opts o;
	gw_vs *s;
	gw_err e;

	(void)state;
	memset(&o, 0, sizeof o);
	/* port 1 on loopback: nothing listens there */
	o.url = "https://127.0.0.1:1/sdk";
	o.user = "root";
	o.password = "pw-not-in-errors";
	o.connect_timeout = 5;
	s = gw_vs_new(&o, &e);
	assert_non_null(s);
	assert_int_equal(gw_vs_login(s, &e), -1);
	assert_non_null(strstr(e.msg, "cannot connect to 127.0.0.1:1"));
	assert_null(strstr(e.msg, "pw-not-in-errors"));
	assert_null(strchr(e.msg, '\n'));
	assert_int_equal(gw_vs_round_trips(s), 1);
	/* the password is gone: no second try with it */
	assert_int_equal(gw_vs_login(s, &e), -1);
	assert_int_equal(gw_vs_round_trips(s), 1);
	gw_vs_close(s);
	assert_null(gw_vs_connect(&o, &e));
	assert_non_null(strstr(e.msg, "cannot connect"));
}

static void
test_connect_timeout(void **state)
{
	struct sockaddr_in sa;
	socklen_t sl = sizeof sa;
	int fd;
	char url[64];
	gw_vs_opts o;
	gw_err e;
	double t0;

	(void)state;
	/* a listener that never accepts: TCP connects, TLS never starts */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	assert_int_equal(listen(fd, 4), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
	snprintf(url, sizeof url, "127.0.0.1:%u", ntohs(sa.sin_port));
	memset(&o, 0, sizeof o);
	o.url = url;
	o.user = "root";
	o.password = "pw-not-in-errors";
	o.connect_timeout = 1;
	o.call_timeout = 30;
	t0 = (double)time(NULL);
	assert_null(gw_vs_connect(&o, &e));
	assert_true((double)time(NULL) - t0 < 10);
	assert_non_null(strstr(e.msg, "within 1 s"));
	assert_null(strstr(e.msg, "pw-not-in-errors"));
	close(fd);
}

/* ---- live, against vcsim ------------------------------------------------------ */

static const char *
env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

#define LIVE() do { if (!env("GW_VCSIM_URL")) { skip(); } } while (0)
/* The normal runs (no injected fault). */
#define LIVE_PLAIN() do { LIVE(); if (env("GW_VCSIM_FAIL") || env("GW_VCSIM_DIE")) skip(); } while (0)

static void
live_opts(gw_vs_opts *o)
{
	memset(o, 0, sizeof *o);
	o->url = env("GW_VCSIM_URL");
	o->user = env("GW_VCSIM_USER") ? env("GW_VCSIM_USER") : "user";
	o->password = env("GW_VCSIM_PASS") ? env("GW_VCSIM_PASS") : "pass";
	o->thumbprint = env("GW_VCSIM_THUMB");
	o->connect_timeout = 5;
	o->call_timeout = 20;
}

static gw_vs *
live_connect(void)
{
	gw_vs_opts o;
	gw_vs *s;
	gw_err e;

	live_opts(&o);
	s = gw_vs_connect(&o, &e);
	if (s == NULL)
		fail_msg("connect: %s", e.msg);
	return s;
}

static void
live_inventory(gw_vs *s, gw_vs_inventory *inv)
{
	gw_err e;

	if (gw_vs_inventory_get(s, inv, &e) != 0)
		fail_msg("inventory: %s", e.msg);
}

static int
is_l40s(const gw_vs_pci *p)
{
	return p->vendor == 0x10de && p->device == 0x26b9;
}

/* The first powered-off / on VM without passthrough devices. */
static const gw_vs_vm *
pick_vm(const gw_vs_inventory *inv, gw_vs_power p, int skip_n)
{
	for (size_t i = 0; i < inv->nvms; i++)
		if (inv->vms[i].power == p && inv->vms[i].ndevs == 0 && skip_n-- == 0)
			return &inv->vms[i];
	return NULL;
}

static const gw_vs_pci *
enabled_l40s(const gw_vs_host *h)
{
	for (size_t i = 0; i < h->npci; i++)
		if (is_l40s(&h->pci[i]) && h->pci[i].passthru_enabled == 1 &&
		    h->pci[i].system_id)
			return &h->pci[i];
	return NULL;
}

static void
test_live_connect(void **state)
{
	gw_vs *s;
	const char *mode;

	(void)state;
	LIVE_PLAIN();
	s = live_connect();
	assert_int_equal(gw_vs_round_trips(s), 2);   /* service content, Login */
	assert_true(strlen(gw_vs_api_version(s)) > 0);
	assert_true(strlen(gw_vs_full_name(s)) > 0);
	mode = env("GW_VCSIM_MODE");
	if (mode)
		assert_int_equal(gw_vs_is_vcenter(s), strcmp(mode, "vpx") == 0);
	if (env("GW_VCSIM_THUMB"))
		assert_true(gw_vs_thumbprint_equal(gw_vs_server_thumbprint(s),
		                                   env("GW_VCSIM_THUMB")));
	gw_vs_close(s);
}

static void
test_live_inventory(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv;
	unsigned before, trips;
	size_t hosts_pt = 0, on = 0;

	(void)state;
	LIVE_PLAIN();
	s = live_connect();
	before = gw_vs_round_trips(s);
	live_inventory(s, &inv);
	trips = gw_vs_round_trips(s) - before;
	assert_true(inv.nhosts >= 1);
	for (size_t i = 0; i < inv.nhosts; i++) {
		const gw_vs_host *h = &inv.hosts[i];
		size_t n = 0, en = 0;

		assert_non_null(h->envbrowser_moref);
		assert_non_null(h->version);
		for (size_t j = 0; j < h->npci; j++)
			if (is_l40s(&h->pci[j])) {
				n++;
				assert_int_equal(h->pci[j].passthru_capable, 1);
				if (h->pci[j].passthru_enabled == 1)
					en++;
				/* QueryConfigTarget lists the active ones */
				if (h->pci[j].passthru_active == 1) {
					assert_non_null(h->pci[j].system_id);
					assert_true(strlen(h->pci[j].system_id) > 8);
				} else {
					assert_null(h->pci[j].system_id);
				}
				assert_non_null(h->pci[j].device_name);
			}
		if (n != 2)
			fail_msg("host %s: %zu L40S, want 2", h->name, n);
		/* vcsim-gpuwiz starts with the first one enabled; the enable
		 * test may have turned on the other */
		assert_true(en >= 1);
		hosts_pt++;
		if (i > 0)
			assert_true(strcmp(inv.hosts[i - 1].name, h->name) <= 0);
	}
	for (size_t i = 0; i < inv.nvms; i++) {
		const gw_vs_vm *v = &inv.vms[i];

		assert_non_null(v->host_moref);
		assert_non_null(gw_vs_find_host(&inv, v->host_moref));
		assert_true(v->hw_version > 0);
		assert_true(v->memory_mb > 0);
		assert_non_null(v->vmx_path);
		assert_true(v->power == GW_VS_POWER_ON || v->power == GW_VS_POWER_OFF);
		if (v->power == GW_VS_POWER_ON)
			on++;
		if (i > 0)
			assert_true(strcmp(inv.vms[i - 1].name, v->name) <= 0);
	}
	if (env("GW_VCSIM_VMS"))
		assert_int_equal(inv.nvms, strtoul(env("GW_VCSIM_VMS"), NULL, 10));
	if (env("GW_VCSIM_ON"))
		assert_int_equal(on, strtoul(env("GW_VCSIM_ON"), NULL, 10));
	/* a few round trips, whatever the number of VMs: CreateContainerView,
	 * RetrievePropertiesEx (+ one ContinueRetrievePropertiesEx per
	 * further page when the server pages: -page-size), DestroyView, one
	 * QueryConfigTarget per host with passthrough */
	{
		size_t want = 3 + hosts_pt;

		if (env("GW_VCSIM_PAGE")) {
			size_t page = strtoul(env("GW_VCSIM_PAGE"), NULL, 10);
			size_t crs = gw_vs_is_vcenter(s) ? 2 : 1;   /* vcsim-gpuwiz */
			size_t objs = inv.nhosts + inv.nvms + crs;

			want += (objs + page - 1) / page - 1;
		}
		if (trips != want)
			fail_msg("inventory took %u round trips, want %zu", trips, want);
	}
	printf("# inventory of %zu hosts and %zu VMs: %u round trips\n",
	       inv.nhosts, inv.nvms, trips);
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
}

static void
test_live_reconfigure(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv, inv2;
	const gw_vs_vm *vm, *vm2;
	const gw_vs_host *h;
	const gw_vs_pci *p;
	static const char *const keys[] = {
		"pciPassthru.use64bitMMIO", "pciPassthru.64bitMMIOSizeGB",
	};
	static const char *const vals[] = { "TRUE", "128" };
	gw_vs_add add;
	gw_vs_spec spec = { keys, vals, 2, 1, &add, 1 };
	unsigned before;
	char *moref;
	gw_err e;
	int found = 0;

	(void)state;
	LIVE_PLAIN();
	s = live_connect();
	live_inventory(s, &inv);
	vm = pick_vm(&inv, GW_VS_POWER_OFF, 0);
	assert_non_null(vm);
	h = gw_vs_find_host(&inv, vm->host_moref);
	assert_non_null(h);
	p = enabled_l40s(h);
	assert_non_null(p);
	memset(&add, 0, sizeof add);
	add.id = p->id;
	add.vendor = p->vendor;
	add.device = p->device;
	add.system_id = p->system_id;
	add.device_name = p->device_name;
	progress_calls = 0;
	progress_last = -5;
	progress_between = 0;
	if (gw_vs_reconfigure(s, vm, &spec, progress, NULL, &e) != 0)
		fail_msg("reconfigure %s: %s", vm->name, e.msg);
	assert_true(progress_calls >= 2);
	assert_int_equal(progress_last, 100);
	/* a task kept running (-task-delay-ms): polled, progress shown */
	if (env("GW_VCSIM_TASK_DELAY"))
		assert_true(progress_between);
	moref = gw_xstrdup(vm->moref);

	/* read back with a fresh inventory */
	live_inventory(s, &inv2);
	vm2 = gw_vs_find_vm(&inv2, moref);
	assert_non_null(vm2);
	assert_int_equal(vm2->ndevs, 1);
	assert_non_null(vm2->devs[0].id);
	assert_true(gw_vs_host_pci(h, vm2->devs[0].id) != NULL);
	assert_int_equal(vm2->devs[0].vendor, 0x10de);
	assert_int_equal(vm2->devs[0].device, 0x26b9);
	assert_string_equal(vm2->devs[0].system_id, p->system_id);
	assert_null(vm2->devs[0].vgpu);
	assert_int_equal(vm2->reserve_locked, 1);
	for (size_t i = 0; i < vm2->nec; i++) {
		if (strcmp(vm2->ec_keys[i], "pciPassthru.use64bitMMIO") == 0) {
			assert_string_equal(vm2->ec_vals[i], "TRUE");
			found |= 1;
		}
		if (strcmp(vm2->ec_keys[i], "pciPassthru.64bitMMIOSizeGB") == 0) {
			assert_string_equal(vm2->ec_vals[i], "128");
			found |= 2;
		}
	}
	assert_int_equal(found, 3);

	/* re-apply: nothing to do, nothing sent */
	before = gw_vs_round_trips(s);
	assert_int_equal(gw_vs_reconfigure_body(vm2, &spec, NULL, NULL, &e), 0);
	assert_int_equal(gw_vs_reconfigure(s, vm2, &spec, progress, NULL, &e), 0);
	assert_int_equal(gw_vs_round_trips(s), before);
	gw_vs_inventory_free(&inv2);

	/* the same from the stale inventory: the server would get the same
	 * spec again; read fresh and still nothing is added twice */
	live_inventory(s, &inv2);
	vm2 = gw_vs_find_vm(&inv2, moref);
	assert_int_equal(vm2->ndevs, 1);
	gw_vs_inventory_free(&inv2);
	free(moref);
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
}

static void
test_live_powered_on_refused(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv, inv2;
	const gw_vs_vm *vm, *vm2;
	const gw_vs_pci *p;
	static const char *const keys[] = { "pciPassthru.use64bitMMIO" };
	static const char *const vals[] = { "TRUE" };
	gw_vs_add add;
	gw_vs_spec spec = { keys, vals, 1, 1, &add, 1 };
	unsigned before;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	s = live_connect();
	live_inventory(s, &inv);
	vm = pick_vm(&inv, GW_VS_POWER_ON, 0);
	if (vm == NULL) {
		gw_vs_inventory_free(&inv);
		gw_vs_close(s);
		skip();
	}
	p = enabled_l40s(gw_vs_find_host(&inv, vm->host_moref));
	assert_non_null(p);
	memset(&add, 0, sizeof add);
	add.id = p->id;
	add.vendor = p->vendor;
	add.device = p->device;
	add.system_id = p->system_id;
	before = gw_vs_round_trips(s);
	assert_int_equal(gw_vs_reconfigure(s, vm, &spec, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "powered on"));
	assert_int_equal(gw_vs_round_trips(s), before);
	live_inventory(s, &inv2);
	vm2 = gw_vs_find_vm(&inv2, vm->moref);
	assert_non_null(vm2);
	assert_int_equal(vm2->ndevs, 0);
	assert_int_equal(vm2->nec, vm->nec);
	assert_int_equal(vm2->reserve_locked, vm->reserve_locked);
	gw_vs_inventory_free(&inv2);
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
}

static void
test_live_wrong_thumbprint(void **state)
{
	gw_vs_opts o;
	gw_vs *s;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	live_opts(&o);
	o.thumbprint = FP_ABC;
	s = gw_vs_new(&o, &e);
	assert_non_null(s);
	assert_int_equal(gw_vs_login(s, &e), -1);
	assert_non_null(strstr(e.msg, "does not match"));
	assert_non_null(strstr(e.msg, FP_ABC));
	if (env("GW_VCSIM_THUMB"))
		assert_non_null(strstr(e.msg, env("GW_VCSIM_THUMB")));
	if (strlen(o.password) >= 6)
		assert_null(strstr(e.msg, o.password));
	printf("# %s\n", e.msg);
	/* one POST tried; it died in the handshake, so no Login went out */
	assert_int_equal(gw_vs_round_trips(s), 1);
	gw_vs_close(s);
}

static void
test_live_unverified_certificate(void **state)
{
	gw_vs_opts o;
	gw_vs *s;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	live_opts(&o);
	o.thumbprint = NULL;
	s = gw_vs_new(&o, &e);
	assert_non_null(s);
	assert_int_equal(gw_vs_login(s, &e), -1);
	printf("# %s\n", e.msg);
	assert_non_null(strstr(e.msg, "not trusted"));
	assert_non_null(strstr(e.msg, "--thumbprint"));
	assert_non_null(strstr(e.msg, "--insecure"));
	if (env("GW_VCSIM_THUMB")) {
		char want[GW_VS_THUMB_LEN];

		assert_int_equal(gw_vs_thumbprint_normalize(env("GW_VCSIM_THUMB"), want, &e), 0);
		assert_non_null(strstr(e.msg, want));
	}
	assert_int_equal(gw_vs_round_trips(s), 1);
	gw_vs_close(s);

	/* --insecure: no check at all */
	live_opts(&o);
	o.thumbprint = NULL;
	o.insecure = 1;
	s = gw_vs_connect(&o, &e);
	if (s == NULL)
		fail_msg("insecure: %s", e.msg);
	gw_vs_close(s);

	/* the certificate as a CA file: verified the normal way */
	if (env("GW_VCSIM_CERT")) {
		live_opts(&o);
		o.thumbprint = NULL;
		o.cafile = env("GW_VCSIM_CERT");
		s = gw_vs_connect(&o, &e);
		if (s == NULL)
			fail_msg("cafile: %s", e.msg);
		gw_vs_close(s);
	}
}

static void
test_live_wrong_password(void **state)
{
	gw_vs_opts o;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	if (!env("GW_VCSIM_PASS"))
		skip();
	live_opts(&o);
	o.password = "Wr0ng-Pa55word";
	assert_null(gw_vs_connect(&o, &e));
	printf("# %s\n", e.msg);
	assert_non_null(strstr(e.msg, "wrong user name or password"));
	assert_null(strstr(e.msg, "Wr0ng-Pa55word"));
}

static void
test_live_not_vsphere(void **state)
{
	gw_vs_opts o;
	char *u, *p;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	live_opts(&o);
	/* the same server, a path that is not the SDK */
	u = gw_vs_normalize_url(o.url, &e);
	assert_non_null(u);
	assert_non_null(strstr(u, "/sdk"));
	*strstr(u, "/sdk") = '\0';
	o.url = p = gw_xasprintf("%s/nothing-here", u);
	free(u);
	u = p;
	assert_null(gw_vs_connect(&o, &e));
	printf("# %s\n", e.msg);
	assert_non_null(strstr(e.msg, "not a vSphere endpoint"));
	free(u);
}

static void
test_live_upgrade(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv, inv2;
	const gw_vs_vm *vm, *vm2;
	int target;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	s = live_connect();
	live_inventory(s, &inv);
	vm = pick_vm(&inv, GW_VS_POWER_OFF, 1);
	if (vm == NULL)
		vm = pick_vm(&inv, GW_VS_POWER_OFF, 0);
	assert_non_null(vm);
	assert_true(vm->hw_version > 0);
	assert_int_equal(gw_vs_upgrade(s, vm, vm->hw_version - 1, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "never lowered"));
	target = vm->hw_version < 22 ? vm->hw_version + 1 : 22;
	if (target > vm->hw_version) {
		progress_calls = 0;
		if (gw_vs_upgrade(s, vm, target, progress, NULL, &e) != 0)
			fail_msg("upgrade %s to vmx-%d: %s", vm->name, target, e.msg);
		assert_true(progress_calls >= 2);
		assert_int_equal(progress_last, 100);
		live_inventory(s, &inv2);
		vm2 = gw_vs_find_vm(&inv2, vm->moref);
		assert_non_null(vm2);
		assert_int_equal(vm2->hw_version, target);
		printf("# upgrade %s vmx-%d -> asked vmx-%d, now vmx-%d\n",
		       vm->name, vm->hw_version, target, vm2->hw_version);
		gw_vs_inventory_free(&inv2);
	}
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
}

static void
test_live_enable_passthru(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv, inv2;
	const gw_vs_host *h;
	const char *fail = env("GW_VCSIM_FAIL");
	char *id = NULL, *moref;
	unsigned before;
	gw_err e;
	int rc;

	(void)state;
	LIVE();
	if (env("GW_VCSIM_DIE") || (fail && strncmp(fail, "UpdatePassthruConfig=", 21) != 0))
		skip();
	s = live_connect();
	live_inventory(s, &inv);
	h = &inv.hosts[0];
	for (size_t i = 0; i < h->npci; i++)
		if (is_l40s(&h->pci[i]) && h->pci[i].passthru_enabled == 0)
			id = h->pci[i].id;
	assert_non_null(id);
	/* already enabled: nothing sent */
	before = gw_vs_round_trips(s);
	assert_int_equal(gw_vs_enable_passthru(s, h, enabled_l40s(h)->id, &e), 0);
	assert_int_equal(gw_vs_round_trips(s), before);
	assert_int_equal(gw_vs_enable_passthru(s, h, "0000:ee:1f.7", &e), -1);
	assert_non_null(strstr(e.msg, "no PCI device"));
	rc = gw_vs_enable_passthru(s, h, id, &e);
	if (fail && strstr(fail, "=license")) {
		assert_int_equal(rc, -1);
		printf("# %s\n", e.msg);
		assert_non_null(strstr(e.msg, "free ESXi license"));
		assert_non_null(strstr(e.msg, "gpuwiz passthru --ssh root@"));
	} else if (rc != 0) {
		/* a server without the method: the SSH route */
		assert_non_null(strstr(e.msg, "SSH route"));
		printf("# enable passthru: %s\n", e.msg);
	} else {
		moref = gw_xstrdup(h->moref);
		live_inventory(s, &inv2);
		assert_int_equal(gw_vs_host_pci(gw_vs_find_host(&inv2, moref), id)->passthru_enabled, 1);
		gw_vs_inventory_free(&inv2);
		free(moref);
	}
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
}

/* A simulator of our own (GW_VCSIM_BIN), for the reconnect test. */
typedef struct sim {
	pid_t pid;
	int in_fd;
	char *url, *thumb;
	unsigned port;
} sim;

static int
sim_start(sim *m, const char *listen_addr)
{
	const char *bin = env("GW_VCSIM_BIN");
	int in[2], out[2];
	FILE *f;
	char line[4096];
	json_t *j;
	const char *u, *t, *colon;

	memset(m, 0, sizeof *m);
	m->pid = -1;
	if (bin == NULL || pipe(in) != 0 || pipe(out) != 0)
		return -1;
	m->pid = fork();
	if (m->pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(out[1], 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		close(in[1]);
		close(out[0]);
		execl(bin, bin, "-model", "esx", "-vms", "1", "-on", "0",
		      "-user", "u", "-pass", "pw-123456", "-listen", listen_addr,
		      (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	m->in_fd = in[1];
	f = fdopen(out[0], "r");
	if (f == NULL || fgets(line, sizeof line, f) == NULL) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	j = json_loads(line, 0, NULL);
	u = json_string_value(json_object_get(j, "url"));
	t = json_string_value(json_object_get(j, "thumbprint"));
	if (u && t) {
		m->url = gw_xstrdup(u);
		m->thumb = gw_xstrdup(t);
		colon = strrchr(u, ':');
		m->port = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
	}
	json_decref(j);
	return m->url ? 0 : -1;
}

static void
sim_stop(sim *m)
{
	int st;

	if (m->pid > 0) {
		close(m->in_fd);     /* EOF: it exits */
		for (int i = 0; i < 50; i++) {
			if (waitpid(m->pid, &st, WNOHANG) == m->pid) {
				m->pid = -1;
				break;
			}
			usleep(100000);
		}
		if (m->pid > 0) {
			kill(m->pid, SIGKILL);
			waitpid(m->pid, &st, 0);
		}
	}
	free(m->url);
	free(m->thumb);
	memset(m, 0, sizeof *m);
}

/* The pin is checked on every new connection: a server replaced behind
 * the same address (another certificate) is refused on the next call,
 * before anything is sent on the new connection. */
static void
test_live_reconnect_pinned(void **state)
{
	sim a, b;
	gw_vs_opts o;
	gw_vs *s;
	gw_vs_inventory inv;
	char addr[64], pin[GW_VS_THUMB_LEN];
	unsigned before;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	if (!env("GW_VCSIM_BIN"))
		skip();
	if (sim_start(&a, "127.0.0.1:0") != 0)
		fail_msg("cannot start %s", env("GW_VCSIM_BIN"));
	memset(&o, 0, sizeof o);
	o.url = a.url;
	o.user = "u";
	o.password = "pw-123456";
	snprintf(pin, sizeof pin, "%s", a.thumb);
	o.thumbprint = pin;
	o.connect_timeout = 5;
	o.call_timeout = 20;
	s = gw_vs_connect(&o, &e);
	if (s == NULL)
		fail_msg("connect: %s", e.msg);
	live_inventory(s, &inv);
	gw_vs_inventory_free(&inv);
	snprintf(addr, sizeof addr, "127.0.0.1:%u", a.port);
	sim_stop(&a);
	if (sim_start(&b, addr) != 0)
		fail_msg("cannot start a second simulator on %s", addr);
	if (gw_vs_thumbprint_equal(b.thumb, pin)) {
		sim_stop(&b);
		gw_vs_close(s);
		skip();     /* same certificate: nothing to show */
	}
	before = gw_vs_round_trips(s);
	assert_int_equal(gw_vs_inventory_get(s, &inv, &e), -1);
	printf("# after the restart: %s\n", e.msg);
	assert_non_null(strstr(e.msg, "does not match"));
	assert_int_equal(gw_vs_round_trips(s), before + 1);
	gw_vs_close(s);
	sim_stop(&b);
}

/* GW_VCSIM_FAIL=CreateContainerView=notauthenticated: the session is
 * gone (expired, or ended on the server). */
static void
test_live_session_expired(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv;
	const char *fail = env("GW_VCSIM_FAIL");
	gw_err e;

	(void)state;
	LIVE();
	if (!fail || strcmp(fail, "CreateContainerView=notauthenticated") != 0)
		skip();
	s = live_connect();
	assert_int_equal(gw_vs_inventory_get(s, &inv, &e), -1);
	printf("# %s\n", e.msg);
	assert_non_null(strstr(e.msg, "session has expired"));
	assert_int_equal(inv.nvms, 0);
	gw_vs_close(s);
}

/* GW_VCSIM_FAIL=ReconfigVM_Task=...: the fault is one clear line. */
static void
test_live_reconfigure_fault(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv;
	const gw_vs_vm *vm;
	static const char *const keys[] = { "pciPassthru.use64bitMMIO" };
	static const char *const vals[] = { "TRUE" };
	gw_vs_spec spec = { keys, vals, 1, -1, NULL, 0 };
	const char *fail = env("GW_VCSIM_FAIL");
	const char *die = env("GW_VCSIM_DIE");
	gw_err e;

	(void)state;
	LIVE();
	if (!(fail && strncmp(fail, "ReconfigVM_Task=", 16) == 0) &&
	    !(die && strcmp(die, "ReconfigVM_Task") == 0))
		skip();
	s = live_connect();
	live_inventory(s, &inv);
	vm = pick_vm(&inv, GW_VS_POWER_OFF, 0);
	assert_non_null(vm);
	assert_int_equal(gw_vs_reconfigure(s, vm, &spec, progress, NULL, &e), -1);
	assert_null(strchr(e.msg, '\n'));
	printf("# %s\n", e.msg);
	if (die)
		assert_true(strstr(e.msg, "went away") || strstr(e.msg, "was lost"));
	else if (strstr(fail, "=license"))
		assert_non_null(strstr(e.msg, "free ESXi license"));
	else
		assert_non_null(strstr(e.msg, "reconfiguring VM"));
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize_url),
		cmocka_unit_test(test_thumbprint),
		cmocka_unit_test(test_thumbprint_of_der),
		cmocka_unit_test(test_fault_invalid_login),
		cmocka_unit_test(test_fault_restricted_version),
		cmocka_unit_test(test_fault_managed_object_not_found),
		cmocka_unit_test(test_fault_not_a_fault_and_not_soap),
		cmocka_unit_test(test_inventory_vcsim_esx),
		cmocka_unit_test(test_inventory_vcsim_vpx),
		cmocka_unit_test(test_inventory_pages),
		cmocka_unit_test(test_inventory_after_reconfigure),
		cmocka_unit_test(test_config_target_vcsim_gpuwiz),
		cmocka_unit_test(test_config_target),
		cmocka_unit_test(test_task_info),
		cmocka_unit_test(test_power_names),
		cmocka_unit_test(test_reconfigure_body),
		cmocka_unit_test(test_reconfigure_body_skips_what_is_there),
		cmocka_unit_test(test_reconfigure_body_refusals),
		cmocka_unit_test(test_new_options),
		cmocka_unit_test(test_refused_without_sending),
		cmocka_unit_test(test_enable_passthru_refusals),
		cmocka_unit_test(test_connect_refused),
		cmocka_unit_test(test_connect_timeout),
		cmocka_unit_test(test_live_connect),
		cmocka_unit_test(test_live_inventory),
		cmocka_unit_test(test_live_reconfigure),
		cmocka_unit_test(test_live_powered_on_refused),
		cmocka_unit_test(test_live_wrong_thumbprint),
		cmocka_unit_test(test_live_unverified_certificate),
		cmocka_unit_test(test_live_wrong_password),
		cmocka_unit_test(test_live_not_vsphere),
		cmocka_unit_test(test_live_upgrade),
		cmocka_unit_test(test_live_enable_passthru),
		cmocka_unit_test(test_live_reconnect_pinned),
		cmocka_unit_test(test_live_session_expired),
		cmocka_unit_test(test_live_reconfigure_fault),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
