/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_esxcli.c: the esxcli parsers (src/host/esxi_*.c): hardware pci
 * list (and the GPUs read from it), system uuid get,
 * system version get, storage core path/device list, storage vmfs extent
 * list, graphics host get, software vib list, vm process list (and the
 * power states read from it), and the other PCI listing gpuwiz gpus
 * reads, a saved lspci capture (src/host/lspci.c).  Every input goes to
 * every parser, as the unit tests in tests/unit/host/test_esxi*.c and
 * test_lspci.c call them. */
#include "fuzz.h"
#include "esxi.h"
#include "esxi_vgpu.h"
#include "lspci.h"

static void
fz_pci(const char *s)
{
	gw_esxi_pci_list l;
	gw_gpu_list g;
	const gw_table *t = fz_table();
	size_t i;
	gw_err e;

	if (gw_esxi_parse_pci_list(s, "fuzz", &l, &e) == 0) {
		for (i = 0; i < l.n; i++) {
			(void)gw_esxi_pci_is_display(&l.devs[i]);
			(void)gw_esxi_pci_passthru_enabled(&l.devs[i]);
			(void)gw_esxi_pci_field(&l.devs[i], "Device Name");
		}
	}
	gw_esxi_pci_list_free(&l);
	if (t != NULL) {
		(void)gw_esxi_gpu_list_read(t, s, "fuzz", &g, &e);
		gw_gpu_list_free(&g);
	}
}

/* an lspci capture: each GPU's BARs are at most six, sized, indexed 0-5 */
static void
fz_lspci(const char *s)
{
	const gw_table *t = fz_table();
	gw_gpu_list g;
	size_t i;
	int k;
	gw_err e;

	(void)gw_lspci_is_capture(s);
	if (gw_lspci_gpu_list_read(t, s, "fuzz", &g, &e) == 0)
		for (i = 0; i < g.n; i++) {
			FZ_CHECK(g.gpus[i].nbars <= 6);
			for (k = 0; k < g.gpus[i].nbars; k++)
				FZ_CHECK(g.gpus[i].bars[k].size > 0 &&
				         g.gpus[i].bars[k].index >= 0 &&
				         g.gpus[i].bars[k].index <= 5);
		}
	gw_gpu_list_free(&g);
}

static void
fz_small(const char *s)
{
	gw_esxi_version ver;
	gw_esxi_graphics gr;
	gw_esxi_vib vib;
	gw_esxi_gdevs gd;
	char *uuid = NULL;
	gw_err e;

	(void)gw_esxi_parse_uuid(s, "fuzz", &uuid, &e);
	free(uuid);
	(void)gw_esxi_parse_version(s, "fuzz", &ver, &e);
	gw_esxi_version_free(&ver);
	(void)gw_esxi_parse_graphics_host(s, "fuzz", &gr, &e);
	gw_esxi_graphics_free(&gr);
	(void)gw_esxi_parse_vib_list(s, "fuzz", &vib, &e);
	gw_esxi_vib_free(&vib);
	if (gw_esxi_parse_graphics_devices(s, "fuzz", &gd, &e) == 0) {
		/* every device has its address */
		for (size_t i = 0; i < gd.n; i++)
			FZ_CHECK(gd.v[i].id != NULL && gd.v[i].id[0] != '\0');
	}
	gw_esxi_gdevs_free(&gd);
}

static void
fz_storage(const char *s)
{
	gw_esxi_storage_path_list p;
	gw_esxi_storage_dev_list d;
	gw_esxi_vmfs_extent_list x;
	gw_err e;

	(void)gw_esxi_parse_storage_paths(s, "fuzz", &p, &e);
	gw_esxi_storage_path_list_free(&p);
	(void)gw_esxi_parse_storage_devices(s, "fuzz", &d, &e);
	gw_esxi_storage_dev_list_free(&d);
	(void)gw_esxi_parse_vmfs_extents(s, "fuzz", &x, &e);
	gw_esxi_vmfs_extent_list_free(&x);
}

/* vm process list, and the power of a fixed getallvms list from it: every
 * state is one of the enum's, every block has its Config File. */
static void
fz_procs(const char *s)
{
	static const char vms[] =
		"Vmid Name File Guest OS Version Annotation\n"
		"1  a  [ds1] a/a.vmx  g  vmx-13\n"
		"2  a  [ds2] a/a.vmx  g  vmx-13\n"
		"3  b b  [ds1] b b/b b.vmx  g  vmx-13\n";
	gw_esxi_vm_proc_list l;
	gw_vm_list v;
	gw_power pw[3];
	gw_err e;
	size_t i;

	if (gw_esxi_parse_vm_processes(s, "fuzz", &l, &e) == 0 &&
	    gw_esxi_parse_getallvms(vms, "vms", &v, &e) == 0) {
		for (i = 0; i < l.n; i++)
			FZ_CHECK(l.procs[i].config_file != NULL);
		FZ_CHECK(v.n == 3);
		gw_esxi_vms_power(&v, &l, pw);
		for (i = 0; i < 3; i++)
			FZ_CHECK(pw[i] == GW_POWER_ON ||
			         pw[i] == GW_POWER_OFF ||
			         pw[i] == GW_POWER_UNKNOWN);
		gw_vm_list_free(&v);
	}
	gw_esxi_vm_proc_list_free(&l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fz_text(data, size);

	fz_pci(s);
	fz_lspci(s);
	fz_small(s);
	fz_storage(s);
	fz_procs(s);
	free(s);
	return 0;
}
