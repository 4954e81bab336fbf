/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vsphere_body.c: the ReconfigVM_Task envelope (parsed back with
 * libxml2) and the refusals that need no server (see test_vsphere.c). */
#include "vsphere_test.h"

/* ---- the ReconfigVM_Task envelope ------------------------------------------ */

void
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

void
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

void
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


void
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
	assert_string_equal(s->url, "https://127.0.0.1:1/sdk");
	assert_string_equal(s->api_version, "");
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

void
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

void
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

void
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

void
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

/* Dynamic DirectPath I/O (doc/design.md, section 15.4): the backing is
 * VirtualPCIPassthroughDynamicBackingInfo with allowedDevice's vendorId
 * and deviceId as xsd:int, no id and no systemId; a device of those ids
 * already in the VM (dynamic or fixed) counts, so a second run sends
 * nothing. */
void
test_reconfigure_body_dynamic(void **state)
{
	gw_vs_vm vm;
	gw_vs_add adds[] = {
		{ .vendor = 0x10de, .device = 0x26b9, .dynamic = 1 },
		{ .vendor = 0x10de, .device = 0x26b9, .dynamic = 1 },
	};
	gw_vs_add bad = { .id = "0000:3b:00.0", .vendor = 0x10de,
	                  .device = 0x26b9, .dynamic = 1 };
	gw_vs_spec spec = { NULL, NULL, 0, -1, adds, 2 };
	char *body = NULL;
	gw_err e;
	xq q;

	(void)state;
	vm_init(&vm);
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, "8.0.2.0", &body, &e), 2);
	xq_open(&q, body);
	assert_true(xq_num(&q, "count(//v:spec/v:deviceChange)") == 2);
	assert_xq(&q, "//v:deviceChange[1]/v:device/@xsi:type", "VirtualPCIPassthrough");
	assert_xq(&q, "//v:deviceChange[1]/v:device/v:backing/@xsi:type",
	          "VirtualPCIPassthroughDynamicBackingInfo");
	assert_xq(&q, "local-name(//v:deviceChange[1]//v:backing/*[1])", "deviceName");
	assert_xq(&q, "local-name(//v:deviceChange[1]//v:backing/*[2])", "allowedDevice");
	assert_xq(&q, "//v:deviceChange[1]//v:allowedDevice/v:vendorId", "4318");
	assert_xq(&q, "//v:deviceChange[1]//v:allowedDevice/v:deviceId", "9913");
	assert_true(xq_num(&q, "count(//v:backing/v:id)") == 0);
	assert_true(xq_num(&q, "count(//v:backing/v:systemId)") == 0);
	xq_close(&q);
	free(body);
	/* one L40S in the VM already (a dynamic one): one add left */
	vm_add_dev(&vm, NULL, NULL);
	vm.devs[0].vendor = 0x10de;
	vm.devs[0].device = 0x26b9;
	vm.devs[0].dynamic = 1;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), 1);
	/* and a fixed one: none */
	vm_add_dev(&vm, "0000:3b:00.0", NULL);
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), 0);
	/* a dynamic add with an address: refused */
	spec.adds = &bad;
	spec.nadds = 1;
	assert_int_equal(gw_vs_reconfigure_body(&vm, &spec, NULL, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "Dynamic DirectPath"));
	vm_free1(&vm);
}
