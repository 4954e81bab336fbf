/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vsphere_named.c: the inventory of an apply to some VMs
 * (gw_vs_set_vm_names, doc/design.md 4.5) against vcsim-gpuwiz: the VMs
 * asked for in full, the others only what a pick needs, no
 * QueryConfigTarget until gw_vs_host_system_ids asks for it, once. */
#include "vsphere_test.h"

#include <ctype.h>

/* The VM of inv with moref, or fail. */
static const gw_vs_vm *
vm_by_moref(const gw_vs_inventory *inv, const char *moref)
{
	for (size_t i = 0; i < inv->nvms; i++)
		if (strcmp(inv->vms[i].moref, moref) == 0)
			return &inv->vms[i];
	fail_msg("no VM %s", moref);
	return NULL;
}

static void
check_pruned(const gw_vs_vm *full, const gw_vs_vm *v, int asked)
{
	assert_string_equal(v->name, full->name);
	assert_int_equal(v->power, full->power);
	assert_int_equal(v->ndevs, full->ndevs);
	if (full->host_moref)
		assert_string_equal(v->host_moref, full->host_moref);
	if (asked) {
		assert_int_equal(v->nec, full->nec);
		assert_non_null(v->vmx_path);
	} else {
		assert_int_equal(v->nec, 0);
		assert_null(v->vmx_path);
		assert_null(v->firmware);
	}
}

/* A passthrough-enabled, active L40S of h (its system id not read yet). */
static gw_vs_pci *
active_l40s(gw_vs_host *h)
{
	for (size_t i = 0; i < h->npci; i++)
		if (is_l40s(&h->pci[i]) && h->pci[i].passthru_enabled == 1 &&
		    h->pci[i].passthru_active == 1)
			return &h->pci[i];
	return NULL;
}

void
test_live_named_inventory(void **state)
{
	gw_vs *s;
	gw_vs_inventory all, inv;
	const char *names[2];
	char *upper;
	unsigned before;
	gw_vs_host *h = NULL;
	size_t objects, page, pages;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	s = live_connect();
	live_inventory(s, &all);
	assert_true(all.nvms >= 2);
	/* one by name, one by its name in another case */
	upper = gw_xstrdup(all.vms[1].name);
	for (char *p = upper; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	names[0] = all.vms[0].name;
	names[1] = upper;
	gw_vs_set_vm_names(s, names, 2);
	before = gw_vs_round_trips(s);
	live_inventory(s, &inv);
	/* a view, its pages (hosts, compute resources, VMs), its end: no
	 * QueryConfigTarget */
	objects = inv.nvms + 2 * inv.nhosts;
	page = env("GW_VCSIM_PAGE") ? strtoul(env("GW_VCSIM_PAGE"), NULL, 10) : 0;
	pages = page ? (objects + page - 1) / page : 1;
	assert_true(gw_vs_round_trips(s) - before <= 2 + pages);
	assert_int_equal(inv.nvms, all.nvms);
	for (size_t i = 0; i < all.nvms; i++)
		check_pruned(&all.vms[i], vm_by_moref(&inv, all.vms[i].moref), i < 2);
	for (size_t i = 0; i < inv.nhosts; i++)
		for (size_t j = 0; j < inv.hosts[i].npci; j++) {
			assert_null(inv.hosts[i].pci[j].system_id);
			if (active_l40s(&inv.hosts[i]) && h == NULL)
				h = &inv.hosts[i];
		}
	assert_non_null(h);
	/* asked when a device is picked: once per host */
	before = gw_vs_round_trips(s);
	assert_int_equal(gw_vs_host_system_ids(s, h, &e), 0);
	assert_int_equal(gw_vs_round_trips(s) - before, 1);
	assert_non_null(active_l40s(h)->system_id);
	assert_int_equal(gw_vs_host_system_ids(s, h, &e), 0);
	assert_int_equal(gw_vs_round_trips(s) - before, 1);
	gw_vs_inventory_free(&inv);
	/* the filter off: everything again */
	gw_vs_set_vm_names(s, NULL, 0);
	live_inventory(s, &inv);
	for (size_t i = 0; i < inv.nvms; i++)
		assert_non_null(inv.vms[i].vmx_path);
	gw_vs_inventory_free(&inv);
	gw_vs_inventory_free(&all);
	free(upper);
	gw_vs_close(s);
}
