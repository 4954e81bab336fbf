/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vsphere_answers.c: URL and thumbprint handling, and the SOAP
 * answers saved in tests/fixtures/vsphere (see test_vsphere.c). */
#include "vsphere_test.h"
#include "vsapply.h"

/* ---- URL, thumbprints ----------------------------------------------------- */

char *
vs_test_url(const char *url, gw_err *e)
{
	gw_vs_opts o;
	gw_vs *s;
	char *u;

	memset(&o, 0, sizeof o);
	o.url = url;
	o.user = "root";
	o.password = "pw";
	s = gw_vs_new(&o, e);
	if (s == NULL)
		return NULL;
	u = gw_xstrdup(s->url);
	gw_vs_close(s);
	return u;
}

int
vs_test_thumb_equal(const char *a, const char *b)
{
	char na[GW_VS_THUMB_LEN], nb[GW_VS_THUMB_LEN];

	if (gw_thumbprint_normalize(a, na, NULL) != 0 ||
	    gw_thumbprint_normalize(b, nb, NULL) != 0)
		return 0;
	return strcmp(na, nb) == 0;
}

void
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
		u = vs_test_url(ok[i].in, &e);
		if (u == NULL)
			fail_msg("%s: %s", ok[i].in, e.msg);
		assert_string_equal(u, ok[i].out);
		free(u);
	}
	assert_null(vs_test_url("http://vc01/sdk", &e));
	assert_non_null(strstr(e.msg, "https://"));
	assert_null(vs_test_url("https://root:s3cret@vc01/sdk", &e));
	assert_non_null(strstr(e.msg, "--user"));
	assert_null(strstr(e.msg, "s3cret"));
	assert_null(vs_test_url("vc01 /sdk", &e));
	assert_null(vs_test_url("", &e));
	assert_null(vs_test_url(NULL, &e));
	assert_null(vs_test_url("https:///sdk", &e));
	assert_null(vs_test_url("ftp://vc01", &e));
}

void
test_thumbprint(void **state)
{
	char out[GW_VS_THUMB_LEN];
	const char *lower = "ba:78:16:bf:8f:01:cf:ea:41:41:40:de:5d:ae:22:23:b0:03:61:a3:96:17:7a:9c:b4:10:ff:61:f2:00:15:ad";
	const char *bare = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	gw_err e;

	(void)state;
	assert_int_equal(gw_thumbprint_normalize(FP_ABC, out, &e), 0);
	assert_string_equal(out, FP_ABC);
	assert_int_equal(strlen(out), 95);
	assert_int_equal(gw_thumbprint_normalize(lower, out, &e), 0);
	assert_string_equal(out, FP_ABC);
	assert_int_equal(gw_thumbprint_normalize(bare, out, &e), 0);
	assert_string_equal(out, FP_ABC);
	/* as openssl x509 -noout -fingerprint -sha256 prints it */
	assert_int_equal(gw_thumbprint_normalize("sha256 Fingerprint=" FP_ABC "\n", out, &e), 0);
	assert_string_equal(out, FP_ABC);
	assert_int_equal(gw_thumbprint_normalize("SHA256 Fingerprint=" FP_ABC, out, &e), 0);
	assert_string_equal(out, FP_ABC);
	assert_true(vs_test_thumb_equal(lower, bare));
	assert_true(vs_test_thumb_equal(FP_ABC, bare));
	assert_false(vs_test_thumb_equal(FP_ABC, "00:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD"));
	assert_false(vs_test_thumb_equal(FP_ABC, "nonsense"));
	/* SHA-1: a hint, not a generic error */
	assert_int_equal(gw_thumbprint_normalize("A9:99:3E:36:47:06:81:6A:BA:3E:25:71:78:50:C2:6C:9C:D0:D8:9D", out, &e), -1);
	assert_non_null(strstr(e.msg, "SHA-1"));
	assert_non_null(strstr(e.msg, "-sha256"));
	/* wrong lengths and shapes */
	assert_int_equal(gw_thumbprint_normalize("AB:CD", out, &e), -1);
	assert_non_null(strstr(e.msg, "2 bytes"));
	assert_int_equal(gw_thumbprint_normalize("", out, &e), -1);
	assert_int_equal(gw_thumbprint_normalize(NULL, out, &e), -1);
	assert_int_equal(gw_thumbprint_normalize("BA:7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", out, &e), -1);
	assert_int_equal(gw_thumbprint_normalize("BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD:", out, &e), -1);
	assert_int_equal(gw_thumbprint_normalize("BG:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD", out, &e), -1);
	assert_int_equal(gw_thumbprint_normalize("B:A78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD", out, &e), -1);
	assert_int_equal(gw_thumbprint_normalize(FP_ABC " x", out, &e), -1);
}

void
test_thumbprint_of_der(void **state)
{
	char out[GW_VS_THUMB_LEN];

	(void)state;
	/* SHA-256("abc"), FIPS 180-2 */
	gw_vs_thumbprint_of_der((const unsigned char *)"abc", 3, out);
	assert_string_equal(out, FP_ABC);
}

/* ---- answers ------------------------------------------------------------ */

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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

void
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

/* The power of a VM whose runtime.powerState is state (NULL: not given)
 * in an inventory page. */
static gw_vs_power
power_of(const char *state)
{
	gw_vs_parse_state *ps = gw_vs_parse_state_new();
	gw_vs_inventory inv;
	gw_vs_power p;
	gw_err e;
	char *x = gw_xasprintf(
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
	    "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" "
	    "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">"
	    "<soapenv:Body><RetrievePropertiesExResponse xmlns=\"urn:vim25\">"
	    "<returnval><objects><obj type=\"VirtualMachine\">vm-1</obj>"
	    "<propSet><name>name</name><val>a</val></propSet>%s%s%s"
	    "</objects></returnval></RetrievePropertiesExResponse>"
	    "</soapenv:Body></soapenv:Envelope>",
	    state ? "<propSet><name>runtime.powerState</name><val xsi:type="
	            "\"VirtualMachinePowerState\">" : "",
	    state ? state : "", state ? "</val></propSet>" : "");

	memset(&inv, 0, sizeof inv);
	if (gw_vs_parse_inventory_page(ps, x, strlen(x), &inv, NULL, &e) != 0)
		fail_msg("%s", e.msg);
	gw_vs_parse_inventory_finish(ps, &inv);
	assert_int_equal(inv.nvms, 1);
	p = inv.vms[0].power;
	gw_vs_inventory_free(&inv);
	gw_vs_parse_state_free(ps);
	free(x);
	return p;
}

void
test_power_names(void **state)
{
	(void)state;
	assert_int_equal(power_of("poweredOn"), GW_VS_POWER_ON);
	assert_int_equal(power_of("poweredOff"), GW_VS_POWER_OFF);
	assert_int_equal(power_of("suspended"), GW_VS_POWER_SUSPENDED);
	assert_int_equal(power_of(" poweredOff "), GW_VS_POWER_OFF);
	assert_int_equal(power_of("x"), GW_VS_POWER_UNKNOWN);
	assert_int_equal(power_of(""), GW_VS_POWER_UNKNOWN);
	assert_int_equal(power_of(NULL), GW_VS_POWER_UNKNOWN);
}

/* An answer fed in small pieces: each object goes to the unit function
 * once complete and leaves the tree; the token stays. */
typedef struct units_seen {
	size_t n;
	char first[32];
} units_seen;

static void
count_unit(xmlNodePtr obj, void *ctx)
{
	units_seen *u = ctx;
	char *moref = vs_child_text(obj, "obj");

	if (u->n++ == 0 && moref)
		snprintf(u->first, sizeof u->first, "%s", moref);
	free(moref);
}

void
test_reader_units(void **state)
{
	size_t len, want = 0, cnt = 0;
	char *text = xml_fixture("synthetic-inventory-page1-with-token.xml", &len);
	units_seen u = { 0, "" };
	vs_reader rd;
	xmlDocPtr doc;
	xmlNodePtr el, rv;
	char *token;

	(void)state;
	for (const char *p = text; (p = strstr(p, "<objects>")) != NULL; p++)
		want++;
	assert_true(want >= 2);
	vs_reader_init(&rd, vs_objects_path, count_unit, &u);
	for (size_t off = 0; off < len; off += 7)
		assert_int_equal(vs_reader_feed(&rd, text + off, len - off < 7 ? len - off : 7), 0);
	assert_int_equal(vs_reader_finish(&rd, &doc, &el), 0);
	vs_reader_free(&rd);
	assert_int_equal(u.n, want);
	assert_true(u.first[0] != '\0');
	rv = vs_first_el(el, "returnval");
	assert_non_null(rv);
	assert_null(vs_first_el(rv, "objects"));
	token = vs_child_text(rv, "token");
	assert_non_null(token);
	assert_true(*token != '\0');
	free(token);
	xmlFreeDoc(doc);

	/* without a path the whole tree is kept */
	vs_reader_init(&rd, NULL, count_unit, &u);
	assert_int_equal(vs_reader_feed(&rd, text, len), 0);
	assert_int_equal(vs_reader_finish(&rd, &doc, &el), 0);
	vs_reader_free(&rd);
	assert_int_equal(u.n, want);
	FOR_EL(o, vs_first_el(el, "returnval"), "objects")
		cnt++;
	assert_int_equal(cnt, want);
	xmlFreeDoc(doc);

	/* cut short: not an answer, nothing left */
	vs_reader_init(&rd, vs_objects_path, count_unit, &u);
	assert_int_equal(vs_reader_feed(&rd, text, len / 2), 0);
	assert_int_equal(vs_reader_finish(&rd, &doc, &el), -1);
	assert_null(doc);
	vs_reader_free(&rd);
	free(text);
}

/* text (len bytes) with "<pad>" and 4096 'x' and "</pad>" put in at at;
 * *blen its length (malloc'ed). */
static char *
with_pad(const char *text, size_t len, size_t at, size_t *blen)
{
	char *big = malloc(len + 4096 + 11);

	assert_non_null(big);
	memcpy(big, text, at);
	memcpy(big + at, "<pad>", 5);
	memset(big + at + 5, 'x', 4096);
	memcpy(big + at + 5 + 4096, "</pad>", 6);
	memcpy(big + at + 4096 + 11, text + at, len - at);
	*blen = len + 4096 + 11;
	return big;
}

/* A QueryConfigTarget answer read part by part: every child of returnval
 * is a unit, none left in the tree; what is kept beside the units is
 * counted, and past kept_cap the reader stops. */
static void
count_any(xmlNodePtr unit, void *ctx)
{
	(void)unit;
	(*(size_t *)ctx)++;
}

void
test_reader_kept_cap(void **state)
{
	size_t len, want = 0, n = 0;
	char *text = xml_fixture("vcsim-gpuwiz-vpx-query-config-target.xml", &len);
	const char *end = strstr(text, "</QueryConfigTargetResponse>");
	vs_reader rd;
	xmlDocPtr doc;
	xmlNodePtr el;
	char *big;
	size_t at, blen;

	(void)state;
	assert_non_null(end);
	assert_int_equal(vs_parse_envelope(text, len, &doc, &el), 0);
	FOR_EL(c, vs_first_el(el, "returnval"), NULL)
		want++;
	xmlFreeDoc(doc);
	assert_true(want > 10);

	vs_reader_init(&rd, vs_config_target_path, count_any, &n);
	rd.kept_cap = 1024;
	for (size_t off = 0; off < len; off += 7)
		assert_int_equal(vs_reader_feed(&rd, text + off, len - off < 7 ? len - off : 7), 0);
	assert_int_equal(vs_reader_finish(&rd, &doc, &el), 0);
	vs_reader_free(&rd);
	assert_int_equal(n, want);
	assert_non_null(vs_first_el(el, "returnval"));
	assert_null(vs_first_el(vs_first_el(el, "returnval"), NULL));
	xmlFreeDoc(doc);

	/* 4 KiB beside the units: past a kept_cap of 1 KiB */
	at = (size_t)(end - text);
	big = with_pad(text, len, at, &blen);
	n = 0;
	vs_reader_init(&rd, vs_config_target_path, count_any, &n);
	rd.kept_cap = 1024;
	assert_int_equal(vs_reader_feed(&rd, big, blen), -1);
	assert_true(rd.too_big);
	assert_int_equal(n, want);
	vs_reader_free(&rd);
	/* the same without a cap: read */
	vs_reader_init(&rd, vs_config_target_path, count_any, &n);
	assert_int_equal(vs_reader_feed(&rd, big, blen), 0);
	assert_int_equal(vs_reader_finish(&rd, &doc, &el), 0);
	vs_reader_free(&rd);
	xmlFreeDoc(doc);
	free(big);
	free(text);
}

/* One unit larger than unit_cap (an entry of 4 KiB among the config
 * target's, against a cap of 1 KiB), fed as the network gives it (in
 * pieces): refused with too_big 2; without the cap, read. */
void
test_reader_unit_cap(void **state)
{
	size_t len, n = 0, at, blen;
	char *text = xml_fixture("vcsim-gpuwiz-vpx-query-config-target.xml", &len);
	const char *rv = strstr(text, "<returnval>");
	vs_reader rd;
	xmlDocPtr doc;
	xmlNodePtr el;
	char *big;
	int rc = 0;

	(void)state;
	assert_non_null(rv);
	at = (size_t)(rv - text) + strlen("<returnval>");
	big = with_pad(text, len, at, &blen);
	vs_reader_init(&rd, vs_config_target_path, count_any, &n);
	rd.unit_cap = 1024;
	for (size_t off = 0; off < blen && rc == 0; off += 512)
		rc = vs_reader_feed(&rd, big + off, blen - off < 512 ? blen - off : 512);
	assert_int_equal(rc, -1);
	assert_int_equal(rd.too_big, 2);
	vs_reader_free(&rd);
	/* the same without a cap: read, every unit handed on */
	n = 0;
	vs_reader_init(&rd, vs_config_target_path, count_any, &n);
	for (size_t off = 0; off < blen; off += 512)
		assert_int_equal(vs_reader_feed(&rd, big + off, blen - off < 512 ? blen - off : 512), 0);
	assert_int_equal(vs_reader_finish(&rd, &doc, &el), 0);
	vs_reader_free(&rd);
	assert_true(n > 10);
	xmlFreeDoc(doc);
	free(big);
	free(text);
}

/* The inventory's index finds what the walk over its arrays finds: by
 * moref, by exact name (the first of a name, by moref), by the one
 * case-insensitive match, none when two match; a host by moref or
 * name; and it holds every VM's attached device under its host's slot,
 * the any-VM slot, and a host-less VM's slot. */
void
test_inventory_index(void **state)
{
	static const char *const queries[] = {
		"vm-1", "vm-9", "BETA", "beta", "Beta", "Dup", "dup", "gamma",
		"GAMMA", "nope", "vm-4", "host-21", "",
	};
	gw_vs_host hosts[2];
	gw_vs_vm vms[6];
	gw_vs_dev devs[3];
	gw_vs_inventory inv;
	uint64_t key = 0;
	size_t i;

	(void)state;
	memset(hosts, 0, sizeof hosts);
	memset(vms, 0, sizeof vms);
	memset(devs, 0, sizeof devs);
	memset(&inv, 0, sizeof inv);
	hosts[0].moref = (char *)"host-21";
	hosts[0].name = (char *)"esx01";
	hosts[1].moref = (char *)"host-9";
	hosts[1].name = (char *)"esx02";
	/* sorted by name, then moref, as gw_vs_parse_inventory_finish does */
	vms[0].name = (char *)"BETA";  vms[0].moref = (char *)"vm-1";
	vms[1].name = (char *)"Beta";  vms[1].moref = (char *)"vm-2";
	vms[2].name = (char *)"Dup";   vms[2].moref = (char *)"vm-8";
	vms[3].name = (char *)"Dup";   vms[3].moref = (char *)"vm-9";
	vms[4].name = (char *)"Gamma"; vms[4].moref = (char *)"vm-4";
	vms[5].name = (char *)"Zeta";  vms[5].moref = (char *)"vm-5";
	vms[0].host_moref = (char *)"host-21";
	vms[4].host_moref = (char *)"host-9";
	devs[0].id = (char *)"0000:3b:00.0";
	devs[1].id = (char *)"0000:5e:00.0";
	devs[2].id = (char *)"0000:af:00.0";
	vms[0].devs = &devs[0];
	vms[0].ndevs = 1;
	vms[4].devs = &devs[1];
	vms[4].ndevs = 1;
	vms[5].devs = &devs[2];   /* no runtime.host */
	vms[5].ndevs = 1;
	inv.hosts = hosts;
	inv.nhosts = 2;
	inv.vms = vms;
	inv.nvms = 6;

	for (i = 0; i < sizeof queries / sizeof *queries; i++) {
		const gw_vs_vm *walk;
		const gw_vs_host *hwalk;

		inv.indexed = 0;
		walk = gw_vs_find_vm(&inv, queries[i]);
		hwalk = gw_vs_find_host(&inv, queries[i]);
		gw_vs_inventory_index(&inv);
		assert_ptr_equal(gw_vs_find_vm(&inv, queries[i]), walk);
		assert_ptr_equal(gw_vs_find_host(&inv, queries[i]), hwalk);
		gw_vs_inventory_index_free(&inv);
	}
	gw_vs_inventory_index(&inv);
	assert_ptr_equal(gw_vs_find_vm(&inv, "Dup"), &vms[2]);
	assert_ptr_equal(gw_vs_find_vm(&inv, "vm-9"), &vms[3]);
	assert_ptr_equal(gw_vs_find_vm(&inv, "gamma"), &vms[4]);
	assert_null(gw_vs_find_vm(&inv, "beta"));
	assert_ptr_equal(gw_vs_find_host(&inv, "esx02"), &hosts[1]);
	/* host-21 is hosts[0]: slot 2; host-9 hosts[1]: slot 3 */
	assert_int_equal(gw_vs_attached_key(2, "0000:3b:00.0", &key), 0);
	assert_non_null(gw_idset_get(&inv.attached, key));
	assert_int_equal(gw_vs_attached_key(3, "0000:3b:00.0", &key), 0);
	assert_null(gw_idset_get(&inv.attached, key));
	assert_int_equal(gw_vs_attached_key(3, "0000:5e:00.0", &key), 0);
	assert_non_null(gw_idset_get(&inv.attached, key));
	assert_int_equal(gw_vs_attached_key(1, "0000:af:00.0", &key), 0);
	assert_non_null(gw_idset_get(&inv.attached, key));
	for (i = 0; i < 3; i++) {
		assert_int_equal(gw_vs_attached_key(0, devs[i].id, &key), 0);
		assert_non_null(gw_idset_get(&inv.attached, key));
	}
	/* a device noted for a VM of host-9 afterwards */
	vms[1].host_moref = (char *)"host-9";
	vms[1].devs = &devs[0];
	vms[1].ndevs = 1;
	gw_vs_inventory_note_devs(&inv, &vms[1], 0);
	assert_int_equal(gw_vs_attached_key(3, "0000:3b:00.0", &key), 0);
	assert_non_null(gw_idset_get(&inv.attached, key));
	gw_vs_inventory_index_free(&inv);
	assert_int_equal(inv.indexed, 0);
}
