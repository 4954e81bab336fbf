/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vsphere_live.c: the live tests against vcsim-gpuwiz (see
 * test_vsphere.c): connect, inventory, reconfigure, refusals, certificate
 * and password errors, upgrade. */
#include "vsphere_test.h"

/* ---- live, against vcsim ------------------------------------------------------ */

const char *
env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}


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

gw_vs *
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

void
live_inventory(gw_vs *s, gw_vs_inventory *inv)
{
	gw_err e;

	if (gw_vs_inventory_get(s, inv, &e) != 0)
		fail_msg("inventory: %s", e.msg);
}

int
is_l40s(const gw_vs_pci *p)
{
	return p->vendor == 0x10de && p->device == 0x26b9;
}

/* The first powered-off / on VM without passthrough devices. */
const gw_vs_vm *
pick_vm(const gw_vs_inventory *inv, gw_vs_power p, int skip_n)
{
	for (size_t i = 0; i < inv->nvms; i++)
		if (inv->vms[i].power == p && inv->vms[i].ndevs == 0 && skip_n-- == 0)
			return &inv->vms[i];
	return NULL;
}

const gw_vs_pci *
enabled_l40s(const gw_vs_host *h)
{
	for (size_t i = 0; i < h->npci; i++)
		if (is_l40s(&h->pci[i]) && h->pci[i].passthru_enabled == 1 &&
		    h->pci[i].system_id)
			return &h->pci[i];
	return NULL;
}

void
test_live_connect(void **state)
{
	gw_vs *s;
	const char *mode;

	(void)state;
	LIVE_PLAIN();
	s = live_connect();
	assert_int_equal(gw_vs_round_trips(s), 2);   /* service content, Login */
	assert_true(strlen(s->api_version) > 0);
	assert_true(strlen(gw_vs_full_name(s)) > 0);
	mode = env("GW_VCSIM_MODE");
	if (mode)
		assert_int_equal(gw_vs_is_vcenter(s), strcmp(mode, "vpx") == 0);
	if (env("GW_VCSIM_THUMB"))
		assert_true(vs_test_thumb_equal(s->seen,
		                                   env("GW_VCSIM_THUMB")));
	gw_vs_close(s);
}

void
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

void
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

void
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

void
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

void
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

		assert_int_equal(gw_thumbprint_normalize(env("GW_VCSIM_THUMB"), want, &e), 0);
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

void
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

void
test_live_not_vsphere(void **state)
{
	gw_vs_opts o;
	char *u, *p;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	live_opts(&o);
	/* the same server, a path that is not the SDK */
	u = vs_test_url(o.url, &e);
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

void
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
