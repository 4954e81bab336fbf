/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_esxi_vgpu.c: the vGPU readiness parsers of esxi_vgpu.h: esxcli
 * graphics host get (the layout of a published capture, both types, a
 * preamble, errors), esxcli software vib list (the sample host's table
 * without a vGPU manager, the stand-in's with one, names that must not
 * count, errors) and the ECC / MIG lines of nvidia-smi -q on the real
 * captures of tests/fixtures/nvidia-smi; and the API's graphicsConfig
 * (gw_vs_parse_graphics_config) on synthetic SOAP answers in the layout
 * of vcsim's RetrievePropertiesEx answers (vcsim serves no
 * HostGraphicsManager); esxcli graphics device list (the published
 * capture, the sample host's, the stand-in's) and the HostSystem
 * properties the inventory reads for the same (config.graphicsConfig,
 * config.graphicsInfo, config.sharedPassthruGpuTypes). */
#include "testutil.h"
#include "esxi_vgpu.h"
#include "vs_seams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
read_text(const char *rel)
{
	char *path, *data = NULL;
	size_t len;
	gw_err e;

	/* make check sets GW_SRCDIR; by hand: from the source tree */
	path = gw_xasprintf("%s/%s", getenv("GW_SRCDIR") ? getenv("GW_SRCDIR")
	                    : ".", rel);
	if (gw_read_file(path, 1 << 20, &data, &len, &e) != 0)
		fail_msg("%s", e.msg);
	free(path);
	return data;
}

static void
test_graphics_host(void **state)
{
	gw_esxi_graphics g;
	gw_err e;
	char *t;

	(void)state;
	/* the published capture (frankdenneman.nl, 2023), as printed */
	assert_int_equal(gw_esxi_parse_graphics_host(
	    "   Default Graphics Type: SharedPassthru\n"
	    "   Shared Passthru Assignment Policy: Performance\n", NULL, &g,
	    &e), 0);
	assert_string_equal(g.default_type, "SharedPassthru");
	assert_string_equal(g.policy, "Performance");
	assert_true(gw_esxi_graphics_shared_direct(g.default_type));
	gw_esxi_graphics_free(&g);
	/* the sample host: Shared (vSGA), the default */
	t = read_text("data/hosts/esxi-l40s/esxi/esxcli-graphics-host-get.txt");
	assert_int_equal(gw_esxi_parse_graphics_host(t, "x", &g, &e), 0);
	assert_string_equal(g.default_type, "Shared");
	assert_false(gw_esxi_graphics_shared_direct(g.default_type));
	gw_esxi_graphics_free(&g);
	free(t);
	/* CRLF, no policy line, a prompt before it */
	assert_int_equal(gw_esxi_parse_graphics_host(
	    "[root@esx:~] esxcli graphics host get\r\n"
	    "Default Graphics Type: Shared\r\n", "f", &g, &e), 0);
	assert_string_equal(g.default_type, "Shared");
	assert_null(g.policy);
	gw_esxi_graphics_free(&g);
	/* the API's and the clients' words */
	assert_true(gw_esxi_graphics_shared_direct("sharedDirect"));
	assert_true(gw_esxi_graphics_shared_direct("Shared Direct"));
	assert_false(gw_esxi_graphics_shared_direct("shared"));
	assert_false(gw_esxi_graphics_shared_direct("Basic"));
	assert_false(gw_esxi_graphics_shared_direct(NULL));
}

static void
test_graphics_host_errors(void **state)
{
	gw_esxi_graphics g;
	gw_err e;

	(void)state;
	assert_int_equal(gw_esxi_parse_graphics_host(
	    "   Product: VMware ESXi\n   Version: 8.0.2\n", "f", &g, &e), -1);
	assert_non_null(strstr(e.msg, "f: no 'Default Graphics Type' line"));
	assert_non_null(strstr(e.msg, "esxcli graphics host get"));
	assert_null(g.default_type);
	assert_int_equal(gw_esxi_parse_graphics_host(
	    "Default Graphics Type:\n", "f", &g, &e), -1);
	assert_int_equal(gw_esxi_parse_graphics_host("", "f", &g, &e), -1);
	assert_int_equal(gw_esxi_parse_graphics_host(
	    "Default Graphics Type: \x01\n", "f", &g, &e), -1);
	assert_non_null(strstr(e.msg, "f:1:"));
}

/* A software vib list with name as its only VIB: is it taken as the vGPU
 * manager? */
static int
vib_is_manager(const char *name)
{
	gw_esxi_vib v;
	gw_err e;
	char *t = gw_xasprintf("Name  Version  Vendor\n----  -------  ------\n"
	                       "%s  1.0-1  NVD\n", name);
	int r;

	if (gw_esxi_parse_vib_list(t, NULL, &v, &e) != 0)
		fail_msg("%s", e.msg);
	free(t);
	r = v.name != NULL;
	if (r)
		assert_string_equal(v.name, name);
	gw_esxi_vib_free(&v);
	return r;
}

static void
test_vib_list(void **state)
{
	gw_esxi_vib v;
	gw_err e;
	char *t;

	(void)state;
	/* the sample host: no NVIDIA VIB */
	t = read_text("data/hosts/esxi-l40s/esxi/esxcli-software-vib-list.txt");
	assert_int_equal(gw_esxi_parse_vib_list(t, "x", &v, &e), 0);
	assert_null(v.name);
	free(t);
	/* with the AI Enterprise host driver; the daemon listed first does
	 * not count */
	assert_int_equal(gw_esxi_parse_vib_list(
	    "Name                       Version                          Vendor  Acceptance Level  Install Date\n"
	    "-------------------------  -------------------------------  ------  ----------------  ------------\n"
	    "nvd-gpu-mgmt-daemon        525.105.14-0.0.0000              NVD     VMwareAccepted    2023-07-06\n"
	    "NVD-AIE_ESXi_8.0.0_Driver  525.105.14-1OEM.800.1.0.20613240  NVD     VMwareAccepted    2023-07-06\n"
	    "esx-base                   8.0.1-0.0.21495797               VMware  VMwareCertified   2023-05-01\n",
	    NULL, &v, &e), 0);
	assert_string_equal(v.name, "NVD-AIE_ESXi_8.0.0_Driver");
	assert_string_equal(v.version, "525.105.14-1OEM.800.1.0.20613240");
	gw_esxi_vib_free(&v);
	/* the names of the older releases */
	assert_true(vib_is_manager("NVIDIA-VMware_ESXi_7.0_Host_Driver"));
	assert_true(vib_is_manager("NVIDIA-vGPU-VMware_ESXi_6.7_Host_Driver"));
	assert_true(vib_is_manager("NVD-VMware_ESXi_8.0.0_Driver"));
	assert_true(vib_is_manager("nvidia-vmware_esxi_7.0_host_driver"));
	assert_false(vib_is_manager("nvd-gpu-mgmt-daemon"));
	assert_false(vib_is_manager("nvmxnet3"));
	assert_false(vib_is_manager("nvme-pcie"));
}

static void
test_vib_list_errors(void **state)
{
	gw_esxi_vib v;
	gw_err e;

	(void)state;
	/* a name in the header only is no table */
	assert_int_equal(gw_esxi_parse_vib_list(
	    "NVD-AIE_ESXi_8.0.0_Driver 525.105.14\n", "f", &v, &e), -1);
	assert_non_null(strstr(e.msg, "'Name' and 'Version'"));
	assert_null(v.name);
	assert_int_equal(gw_esxi_parse_vib_list(
	    "Name Version\nNVD-AIE_ESXi_8.0.0_Driver 525.105.14\n", "f", &v,
	    &e), -1);
	assert_int_equal(gw_esxi_parse_vib_list("\n\n", "f", &v, &e), -1);
}

static void
test_gpu_modes_real(void **state)
{
	gw_esxi_gpu_modes m;
	gw_err e;
	char *t;

	(void)state;
	/* a vGPU host (A16, driver 470): MIG N/A, no ECC section */
	t = read_text("tests/fixtures/nvidia-smi/a16-vgpu-host-sriov.txt");
	assert_int_equal(gw_esxi_parse_gpu_modes(t, "a16", &m, &e), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].bus_id, "00000000:13:00.0");
	assert_string_equal(m.v[0].product, "NVIDIA A16");
	assert_string_equal(m.v[0].mig, "N/A");
	gw_esxi_gpu_modes_free(&m);
	free(t);
	/* an H200: MIG Disabled, ECC Enabled (the "Current" lines, not the
	 * "Pending" ones nor the ECC Errors section) */
	t = read_text("tests/fixtures/nvidia-smi/h200-sxm-passthrough-vm.txt");
	assert_int_equal(gw_esxi_parse_gpu_modes(t, "h200", &m, &e), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].product, "NVIDIA H200");
	assert_string_equal(m.v[0].mig, "Disabled");
	assert_string_equal(m.v[0].ecc, "Enabled");
	gw_esxi_gpu_modes_free(&m);
	free(t);
}

static void
test_gpu_modes_variations(void **state)
{
	gw_esxi_gpu_modes m;
	gw_err e;

	(void)state;
	/* two GPUs, MIG on the first only; a Pending line first is not read */
	assert_int_equal(gw_esxi_parse_gpu_modes(
	    "GPU 00000000:3B:00.0\n"
	    "    Product Name                          : NVIDIA A100-PCIE-40GB\n"
	    "    MIG Mode\n"
	    "        Pending                           : Disabled\n"
	    "        Current                           : Enabled\n"
	    "    ECC Mode\n"
	    "        Current                           : Enabled\n"
	    "GPU 00000000:5E:00.0\n"
	    "    Product Name                          : NVIDIA L40S\n"
	    "    ECC Mode\n"
	    "        Current                           : Disabled\n",
	    NULL, &m, &e), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(m.v[0].mig, "Enabled");
	assert_string_equal(m.v[0].ecc, "Enabled");
	assert_null(m.v[1].mig);
	assert_string_equal(m.v[1].ecc, "Disabled");
	gw_esxi_gpu_modes_free(&m);
	/* nvidia-smi's failure line: no GPU, no error */
	assert_int_equal(gw_esxi_parse_gpu_modes(
	    "No devices were found\n", NULL, &m, &e), 0);
	assert_int_equal(m.n, 0);
	gw_esxi_gpu_modes_free(&m);
	assert_int_equal(gw_esxi_parse_gpu_modes("", "f", &m, &e), -1);
}

static void
test_graphics_devices(void **state)
{
	gw_esxi_gdevs d;
	gw_err e;
	char *t;

	(void)state;
	/* the published capture (frankdenneman.nl, 2023), before the vGPU
	 * driver: an A100 with no module, Basic */
	assert_int_equal(gw_esxi_parse_graphics_devices(
	    "% esxcli graphics device list\n"
	    "0000:af:00.0\n"
	    "   Vendor Name: NVIDIA Corporation\n"
	    "   Device Name: GA100 [A100 PCIe 40GB]\n"
	    "   Module Name: None\n"
	    "   Graphics Type: Basic\n"
	    "   Memory Size in KB: 0\n"
	    "   Number of VMs: 0\n", NULL, &d, &e), 0);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].id, "0000:af:00.0");
	assert_string_equal(d.v[0].vendor, "NVIDIA Corporation");
	assert_string_equal(d.v[0].device, "GA100 [A100 PCIe 40GB]");
	assert_string_equal(d.v[0].module, "None");
	assert_string_equal(d.v[0].type, "Basic");
	assert_int_equal(d.v[0].vms, 0);
	assert_false(gw_esxi_graphics_shared_direct(d.v[0].type));
	gw_esxi_gdevs_free(&d);
	/* the sample host's: two L40S */
	t = read_text("data/hosts/esxi-l40s/esxi/esxcli-graphics-device-list.txt");
	assert_int_equal(gw_esxi_parse_graphics_devices(t, "x", &d, &e), 0);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.v[1].id, "0000:5e:00.0");
	assert_string_equal(d.v[1].type, "Basic");
	gw_esxi_gdevs_free(&d);
	free(t);
	/* with the driver: SharedPassthru, VMs on it; CRLF; no count */
	assert_int_equal(gw_esxi_parse_graphics_devices(
	    "0000:3b:00.0\r\n   Vendor Name: NVIDIA Corporation\r\n"
	    "   Module Name: nvidia\r\n   Graphics Type: SharedPassthru\r\n"
	    "   Number of VMs: 3\r\n0000:5e:00.0\r\n"
	    "   Graphics Type: Shared\r\n   Number of VMs: many\r\n",
	    "f", &d, &e), 0);
	assert_int_equal(d.n, 2);
	assert_true(gw_esxi_graphics_shared_direct(d.v[0].type));
	assert_int_equal(d.v[0].vms, 3);
	assert_string_equal(d.v[1].type, "Shared");
	assert_null(d.v[1].vendor);
	assert_int_equal(d.v[1].vms, -1);
	gw_esxi_gdevs_free(&d);
	/* no device: a host without graphics devices */
	assert_int_equal(gw_esxi_parse_graphics_devices(
	    "[root@esx:~] esxcli graphics device list\n\n", "f", &d, &e), 0);
	assert_int_equal(d.n, 0);
	gw_esxi_gdevs_free(&d);
}

static void
test_graphics_devices_errors(void **state)
{
	gw_esxi_gdevs d;
	gw_err e;

	(void)state;
	/* another command's output: graphics host get */
	assert_int_equal(gw_esxi_parse_graphics_devices(
	    "   Default Graphics Type: Shared\n", "f", &d, &e), -1);
	assert_non_null(strstr(e.msg, "f:1:"));
	assert_non_null(strstr(e.msg, "esxcli graphics device list"));
	assert_int_equal(d.n, 0);
	assert_int_equal(gw_esxi_parse_graphics_devices("", "f", &d, &e), -1);
	assert_int_equal(gw_esxi_parse_graphics_devices(
	    "0000:3b:00.0\n   Graphics Type: \x02\n", "f", &d, &e), -1);
	assert_non_null(strstr(e.msg, "f:2:"));
	assert_int_equal(d.n, 0);
}

/* The vSphere module's parsers (vs_seams.h): not in a build configured
 * --without-vsphere, whose tests skip these two. */
#if GW_WITH_VSPHERE
#define ENV_HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" \
	"<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" " \
	"xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><soapenv:Body>"
#define ENV_TAIL "</soapenv:Body></soapenv:Envelope>"

static void
test_vs_graphics_config(void **state)
{
	static const char ex[] = ENV_HEAD
	    "<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval><objects>"
	    "<obj type=\"HostGraphicsManager\">ha-graphics-manager</obj>"
	    "<propSet><name>graphicsConfig</name><val xsi:type=\"HostGraphicsConfig\">"
	    "<hostDefaultGraphicsType>shared</hostDefaultGraphicsType>"
	    "<sharedPassthruAssignmentPolicy>performance</sharedPassthruAssignmentPolicy>"
	    "<deviceType><deviceId>0000:3b:00.0</deviceId><graphicsType>sharedDirect</graphicsType></deviceType>"
	    "</val></propSet></objects></returnval></RetrievePropertiesExResponse>" ENV_TAIL;
	static const char plain[] = ENV_HEAD
	    "<RetrievePropertiesResponse xmlns=\"urn:vim25\"><returnval>"
	    "<obj type=\"HostGraphicsManager\">graphicsManager-host-21</obj>"
	    "<propSet><name>graphicsConfig</name><val xsi:type=\"HostGraphicsConfig\">"
	    "<hostDefaultGraphicsType>sharedDirect</hostDefaultGraphicsType>"
	    "</val></propSet></returnval></RetrievePropertiesResponse>" ENV_TAIL;
	static const char none[] = ENV_HEAD
	    "<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval><objects>"
	    "<obj type=\"HostGraphicsManager\">ha-graphics-manager</obj>"
	    "<propSet><name>graphicsInfo</name><val/></propSet>"
	    "</objects></returnval></RetrievePropertiesExResponse>" ENV_TAIL;
	static const char fault[] = ENV_HEAD
	    "<soapenv:Fault><faultcode>ServerFaultCode</faultcode>"
	    "<faultstring>The object 'vim.host.GraphicsManager:ha-graphics-manager' has already been deleted or has not been completely created</faultstring>"
	    "<detail><ManagedObjectNotFoundFault xmlns=\"urn:vim25\"/></detail>"
	    "</soapenv:Fault>" ENV_TAIL;
	char *t;
	gw_err e;

	(void)state;
	/* the host's default, not a device's graphicsType */
	assert_int_equal(gw_vs_parse_graphics_config(ex, sizeof ex - 1, &t, &e), 0);
	assert_string_equal(t, "shared");
	assert_false(gw_esxi_graphics_shared_direct(t));
	free(t);
	assert_int_equal(gw_vs_parse_graphics_config(plain, sizeof plain - 1, &t, &e), 0);
	assert_string_equal(t, "sharedDirect");
	assert_true(gw_esxi_graphics_shared_direct(t));
	free(t);
	assert_int_equal(gw_vs_parse_graphics_config(none, sizeof none - 1, &t, &e), -1);
	assert_null(t);
	assert_non_null(strstr(e.msg, "hostDefaultGraphicsType"));
	/* what vcsim answers for the manager it only names */
	assert_int_equal(gw_vs_parse_graphics_config(fault, sizeof fault - 1, &t, &e), -1);
	assert_null(t);
	assert_non_null(strstr(e.msg, "RetrievePropertiesEx"));
	assert_int_equal(gw_vs_parse_graphics_config("not xml", 7, &t, &e), -1);
}

/* A HostSystem of an inventory answer, in vcsim's layout (synthetic:
 * vcsim-gpuwiz serves these properties; this answer is written out so the
 * parser is tested without it). */
#define HOST_OBJ(props) \
	"<objects><obj type=\"HostSystem\">host-21</obj>" \
	"<propSet><name>name</name><val xsi:type=\"xsd:string\">esx01</val></propSet>" \
	"<propSet><name>hardware.pciDevice</name><val xsi:type=\"ArrayOfHostPciDevice\">" \
	"<HostPciDevice><id>0000:3b:00.0</id><classId>770</classId><vendorId>4318</vendorId>" \
	"<deviceId>9913</deviceId><deviceName>AD102GL [L40S]</deviceName></HostPciDevice>" \
	"<HostPciDevice><id>0000:5e:00.0</id><classId>770</classId><vendorId>4318</vendorId>" \
	"<deviceId>9913</deviceId></HostPciDevice></val></propSet>" props "</objects>"

static void
parse_one_host(const char *text, gw_vs_inventory *inv)
{
	gw_vs_parse_state *ps = gw_vs_parse_state_new();
	char *token = NULL;
	gw_err e;

	memset(inv, 0, sizeof *inv);
	if (gw_vs_parse_inventory_page(ps, text, strlen(text), inv, &token,
	                               &e) != 0)
		fail_msg("%s", e.msg);
	gw_vs_parse_inventory_finish(ps, inv);
	gw_vs_parse_state_free(ps);
	assert_int_equal(inv->nhosts, 1);
}

static void
test_vs_host_graphics(void **state)
{
	static const char full[] = ENV_HEAD
	    "<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval>"
	    HOST_OBJ("<propSet><name>config.graphicsInfo</name><val xsi:type=\"ArrayOfHostGraphicsInfo\">"
	             "<HostGraphicsInfo><deviceName>NVIDIA L40S</deviceName><vendorName>NVIDIA Corporation</vendorName>"
	             "<pciId>0000:3b:00.0</pciId><graphicsType>direct</graphicsType><memorySizeInKB>50331648</memorySizeInKB></HostGraphicsInfo>"
	             "<HostGraphicsInfo><deviceName>NVIDIA L40S</deviceName><vendorName>NVIDIA Corporation</vendorName>"
	             "<pciId>0000:5E:00.0</pciId><graphicsType>sharedDirect</graphicsType><memorySizeInKB>50331648</memorySizeInKB></HostGraphicsInfo>"
	             "</val></propSet>"
	             "<propSet><name>config.graphicsConfig</name><val xsi:type=\"HostGraphicsConfig\">"
	             "<hostDefaultGraphicsType>shared</hostDefaultGraphicsType>"
	             "<sharedPassthruAssignmentPolicy>performance</sharedPassthruAssignmentPolicy></val></propSet>"
	             "<propSet><name>config.sharedPassthruGpuTypes</name><val xsi:type=\"ArrayOfString\">"
	             "<string>nvidia_l40s-4c</string><string>nvidia_l40s-48c</string></val></propSet>")
	    "</returnval></RetrievePropertiesExResponse>" ENV_TAIL;
	/* a server that was not asked (before 6.5) or reports nothing */
	static const char bare[] = ENV_HEAD
	    "<RetrievePropertiesExResponse xmlns=\"urn:vim25\"><returnval>"
	    HOST_OBJ("") "</returnval></RetrievePropertiesExResponse>" ENV_TAIL;
	gw_vs_inventory inv;
	const gw_vs_host *h;

	(void)state;
	parse_one_host(full, &inv);
	h = &inv.hosts[0];
	assert_string_equal(h->graphics_type, "shared");
	assert_false(gw_esxi_graphics_shared_direct(h->graphics_type));
	assert_int_equal(h->nvgpu_types, 2);
	assert_string_equal(h->vgpu_type, "nvidia_l40s-4c");
	/* graphicsInfo after the devices: matched in any case */
	assert_string_equal(gw_vs_host_pci(h, "0000:3b:00.0")->graphics_type, "direct");
	assert_string_equal(gw_vs_host_pci(h, "0000:5e:00.0")->graphics_type, "sharedDirect");
	gw_vs_inventory_free(&inv);
	parse_one_host(bare, &inv);
	h = &inv.hosts[0];
	assert_null(h->graphics_type);
	assert_int_equal(h->nvgpu_types, -1);
	assert_null(h->vgpu_type);
	assert_null(gw_vs_host_pci(h, "0000:3b:00.0")->graphics_type);
	gw_vs_inventory_free(&inv);
}
#else
static void
test_vs_graphics_config(void **state)
{
	(void)state;
	skip();
}

static void
test_vs_host_graphics(void **state)
{
	(void)state;
	skip();
}
#endif

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graphics_host),
		cmocka_unit_test(test_graphics_host_errors),
		cmocka_unit_test(test_vib_list),
		cmocka_unit_test(test_vib_list_errors),
		cmocka_unit_test(test_gpu_modes_real),
		cmocka_unit_test(test_gpu_modes_variations),
		cmocka_unit_test(test_vs_graphics_config),
		cmocka_unit_test(test_graphics_devices),
		cmocka_unit_test(test_graphics_devices_errors),
		cmocka_unit_test(test_vs_host_graphics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
