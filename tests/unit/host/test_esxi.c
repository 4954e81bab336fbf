/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_esxi.c: the esxcli / vim-cmd parsers on every real sample in
 * tests/fixtures/esxcli and vimcmd (sources in tests/fixtures/README.md) and on
 * the synthetic ones, with exact values; their errors; the storage
 * listings the passthrough guard reads (core path list, core device list,
 * vmfs extent list) with their variations (no indentation, CRLF, blanks in
 * volume names, no "Is Boot Device"); and `gpuwiz gpus --esxcli-file`
 * (text, and JSON parsed back with jansson). */
#include "testutil.h"
#include "esxi.h"
#include "gpus_print.h"
#include "gputable.h"
#include "plan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

#define ESX_PENSANDO "esxcli/hardware-pci-list-esxi67-pensando-nic-not-passthru-capable.txt"
#define ESX_X540     "esxcli/hardware-pci-list-x540-vmkernel-and-lsi2308-vmpassthru.txt"
#define ESX_LSPCI5   "esxcli/lspci-esx5-old-decimal-bdf-display-controller-nvidia.txt"
#define ESX_LSPCI8   "esxcli/lspci-esxi801-coral-tpu-github-issue.txt"
#define ESX_VER55    "esxcli/system-version-get-esxi55-no-patch-line.txt"
#define SYN_GPUS     "esxcli/synthetic-hardware-pci-list-esxi8-aspeed-l40s-vmpassthru-b200-unknown-vram.txt"
#define SYN_CRLF     "esxcli/synthetic-hardware-pci-list-l40s-crlf-no-final-newline.txt"
#define SYN_VARS     "esxcli/synthetic-hardware-pci-list-variations-old-decimal-extra-field.txt"
#define SYN_UUID     "esxcli/synthetic-system-uuid-get.txt"
#define SYN_VER80    "esxcli/synthetic-system-version-get-esxi80u2.txt"
#define SYN_VER67    "esxcli/synthetic-system-version-get-esxi67u3-extra-field.txt"
#define VIM_GHETTO   "vimcmd/getallvms-2vms-vmx13-ghettovcb-notes.txt"
#define VIM_TLH      "vimcmd/getallvms-7vms-vmx11-vmx13-tlhakhan.txt"
#define VIM_INTEL    "vimcmd/getallvms-TESTFIXTURE-name-with-spaces-and-brackets-intel.txt"
#define VIM_WTSI     "vimcmd/getallvms-wtsi-packer-esxi.txt"
#define VIM_ON       "vimcmd/power-getstate-powered-on-tlhakhan.txt"
#define VIM_OFF      "vimcmd/power-getstate-wtsi-powered-off.txt"
#define SYN_VMS      "vimcmd/synthetic-getallvms-brackets-colons-multiline-annotation.txt"
#define SYN_NOVMS    "vimcmd/synthetic-getallvms-no-vms.txt"
#define SYN_SUSP     "vimcmd/synthetic-power-getstate-suspended.txt"
#define ESX_PATHS_KB "esxcli/storage-core-path-list-esxi5-fc-two-paths-broadcom-kb316600-unindented.txt"
#define ESX_DEV_USB  "esxcli/storage-core-device-list-usb-sd-boot-device-grep-premiquelmariano.txt"
#define ESX_EXT_IBM  "esxcli/storage-vmfs-extent-list-ibm-cloud-docs-local-and-iscsi-indented.txt"
#define SYN_PATHS    "esxcli/synthetic-storage-core-path-list-sas-nvme-usb.txt"
#define SYN_DEV65    "esxcli/synthetic-storage-core-device-list-esxi65-no-boot-field.txt"
#define SYN_EXT      "esxcli/synthetic-storage-vmfs-extent-list-blanks-in-names-spanned-crlf.txt"

/* ---- helpers ----------------------------------------------------------- */

/* The sample without its '# source:' line.  Called through a pointer so
 * that it is never inlined here: inlined, it draws a false
 * -Wdangling-pointer from GCC 12 (whatever testutil.h does about it). */
static char *(*volatile read_sample)(const char *, size_t *) = tu_read_sample;

static char *
sample(const char *rel)
{
	size_t n;

	return read_sample(rel, &n);
}

static void
check_fields_str(const gw_esxi_pci_dev *d, const char *key, const char *want)
{
	const char *v = gw_esxi_pci_field(d, key);

	if (v == NULL)
		fail_msg("%s: no field '%s'", d->bdf, key);
	assert_string_equal(v, want);
}

static void
pci_ok(const char *rel, gw_esxi_pci_list *l)
{
	char *text = sample(rel);
	gw_err e;

	if (gw_esxi_parse_pci_list(text, rel, l, &e) != 0)
		fail_msg("%s: %s", rel, e.msg);
	free(text);
}

/* Parse text that must fail with exactly msg. */
static void
pci_err(const char *text, const char *name, const char *msg)
{
	gw_esxi_pci_list l;
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_esxi_parse_pci_list(text, name, &l, &e) == 0)
		fail_msg("parsed but should not:\n%s", text);
	assert_string_equal(e.msg, msg);
	assert_int_equal(l.n, 0);
	assert_null(l.devs);
	gw_esxi_pci_list_free(&l);
}

/* The L40S block of the synthetic samples. */
static void
check_l40s(const gw_esxi_pci_dev *d, unsigned line)
{
	assert_int_equal(d->line, line);
	assert_string_equal(d->bdf, "0000:3b:00.0");
	assert_string_equal(d->vmx_id, "00000:059:00.0");
	assert_int_equal(d->domain, 0);
	assert_int_equal(d->bus, 0x3b);
	assert_int_equal(d->slot, 0);
	assert_int_equal(d->function, 0);
	assert_int_equal(d->vendor_id, 0x10de);
	assert_int_equal(d->device_id, 0x26b9);
	assert_int_equal(d->subvendor_id, 0x10de);
	assert_int_equal(d->subdevice_id, 0x1851);
	assert_int_equal(d->device_class, 0x0302);
	assert_int_equal(d->passthru_capable, 1);
	assert_string_equal(d->vendor_name, "NVIDIA Corporation");
	assert_string_equal(d->device_name, "AD102GL [L40S]");
	assert_string_equal(d->class_name, "3D controller");
	assert_string_equal(d->vmkernel_name, "");
	assert_string_equal(d->module_name, "pciPassthru");
	assert_string_equal(d->configured_owner, "VM Passthru");
	assert_string_equal(d->current_owner, "VM Passthru");
	assert_int_equal(d->nfields, 34);
	assert_string_equal(d->fields[0].key, "Address");
	assert_string_equal(d->fields[33].key, "FPT Sharable");
	assert_int_equal(d->fields[0].line, line + 1);
	check_fields_str(d, "Slot Description", "CPU1 SLOT4 PCI-E 4.0 X16");
	check_fields_str(d, "Reset Method", "Bridge reset");
	assert_true(gw_esxi_pci_is_display(d));
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 1);
}

/* ---- esxcli hardware pci list: real samples ---------------------------- */

static void
test_pci_x540_lsi(void **state)
{
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *d;

	(void)state;
	pci_ok(ESX_X540, &l);
	assert_int_equal(l.n, 2);

	d = &l.devs[0];
	assert_int_equal(d->line, 1);
	assert_string_equal(d->bdf, "0000:02:00.1");
	assert_string_equal(d->vmx_id, "00000:002:00.1");
	assert_int_equal(d->bus, 2);
	assert_int_equal(d->function, 1);
	assert_int_equal(d->vendor_id, 0x8086);
	assert_int_equal(d->device_id, 0x1528);
	assert_int_equal(d->subvendor_id, 0x103c);
	assert_int_equal(d->subdevice_id, 0x192d);
	assert_int_equal(d->device_class, 0x0200);
	assert_int_equal(d->passthru_capable, 1);
	assert_string_equal(d->vmkernel_name, "vmnic5");
	assert_string_equal(d->vendor_name, "Intel Corporation");
	assert_string_equal(d->device_name, "Ethernet Controller 10 Gigabit X540-AT2");
	assert_string_equal(d->class_name, "Ethernet controller");
	assert_string_equal(d->configured_owner, "Unknown");
	assert_string_equal(d->current_owner, "VMkernel");
	assert_string_equal(d->module_name, "ixgbe");
	assert_int_equal(d->nfields, 34);
	check_fields_str(d, "Slot Description", "CPU1 SLOT2 PCI-E 3.0 X4 (IN X8 SLOT)");
	check_fields_str(d, "Parent Device", "PCI 0:0:1:1");
	check_fields_str(d, "Module ID", "4133");
	check_fields_str(d, "fpt sharable", "true");   /* case-insensitive */
	assert_null(gw_esxi_pci_field(d, "Hardware Label"));
	assert_false(gw_esxi_pci_is_display(d));
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 0);

	d = &l.devs[1];
	assert_int_equal(d->line, 37);
	assert_string_equal(d->bdf, "0000:04:00.0");
	assert_string_equal(d->vmx_id, "00000:004:00.0");
	assert_int_equal(d->vendor_id, 0x1000);
	assert_int_equal(d->device_id, 0x0087);
	assert_int_equal(d->subvendor_id, 0x1000);
	assert_int_equal(d->subdevice_id, 0x3020);
	assert_int_equal(d->device_class, 0x0107);
	assert_string_equal(d->vmkernel_name, "vmhba2");
	assert_string_equal(d->device_name, "LSI2308_2");
	assert_string_equal(d->configured_owner, "VM Passthru");
	assert_string_equal(d->current_owner, "VM Passthru");
	assert_string_equal(d->module_name, "pciPassthru");
	assert_int_equal(d->passthru_capable, 1);
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 1);
	assert_false(gw_esxi_pci_is_display(d));
	check_fields_str(d, "Flags", "0x3401");

	assert_ptr_equal(gw_esxi_pci_find(&l, "04:00.0"), &l.devs[1]);
	assert_ptr_equal(gw_esxi_pci_find(&l, "0000:02:00.1"), &l.devs[0]);
	assert_ptr_equal(gw_esxi_pci_find(&l, "000:002:00.1"), &l.devs[0]);
	assert_null(gw_esxi_pci_find(&l, "0000:04:00.1"));
	assert_null(gw_esxi_pci_find(&l, "nonsense"));
	gw_esxi_pci_list_free(&l);
	gw_esxi_pci_list_free(&l);   /* twice is harmless */
}

static void
test_pci_pensando_esxi67(void **state)
{
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *d;

	(void)state;
	pci_ok(ESX_PENSANDO, &l);
	assert_int_equal(l.n, 1);
	d = &l.devs[0];
	assert_int_equal(d->line, 1);
	assert_string_equal(d->bdf, "0000:03:00.0");
	assert_string_equal(d->vmx_id, "00000:003:00.0");
	assert_int_equal(d->vendor_id, 0x1dd8);
	assert_int_equal(d->device_id, 0x1002);
	assert_int_equal(d->subvendor_id, 0x1dd8);
	assert_int_equal(d->subdevice_id, 0x4001);
	assert_int_equal(d->device_class, 0x0200);
	assert_int_equal(d->passthru_capable, 0);
	assert_string_equal(d->vmkernel_name, "vmnic1");
	assert_string_equal(d->vendor_name, "Pensando Systems, Inc");
	assert_string_equal(d->device_name, "Pensando Ethernet PF");
	assert_string_equal(d->configured_owner, "VMkernel");
	assert_string_equal(d->current_owner, "VMkernel");
	assert_string_equal(d->module_name, "ionic_en");
	assert_int_equal(d->nfields, 34);
	check_fields_str(d, "Physical Slot", "4294967295");
	check_fields_str(d, "Slot Description",
	                 "Chassis slot 2; function 0; relative bdf 02:00.0");
	check_fields_str(d, "FPT Sharable", "false");
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 0);
	assert_false(gw_esxi_pci_is_display(d));
	gw_esxi_pci_list_free(&l);
}

/* ---- esxcli hardware pci list: synthetic samples ----------------------- */

static void
test_pci_synthetic_gpus(void **state)
{
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *d;

	(void)state;
	pci_ok(SYN_GPUS, &l);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.devs[0].bdf, "0000:02:00.1");    /* real X540 */
	assert_false(gw_esxi_pci_is_display(&l.devs[0]));

	d = &l.devs[1];
	assert_int_equal(d->line, 37);
	assert_string_equal(d->bdf, "0000:03:00.0");
	assert_int_equal(d->vendor_id, 0x1a03);
	assert_int_equal(d->device_id, 0x2000);
	assert_int_equal(d->device_class, 0x0300);
	assert_string_equal(d->class_name, "VGA compatible controller");
	assert_string_equal(d->configured_owner, "Unknown");
	assert_true(gw_esxi_pci_is_display(d));
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 0);

	check_l40s(&l.devs[2], 73);

	d = &l.devs[3];
	assert_int_equal(d->line, 109);
	assert_string_equal(d->bdf, "0000:5e:00.0");
	assert_string_equal(d->vmx_id, "00000:094:00.0");
	assert_int_equal(d->device_id, 0x2909);
	assert_string_equal(d->configured_owner, "VM Passthru");
	assert_string_equal(d->current_owner, "VMkernel");
	assert_string_equal(d->module_name, "None");
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 1);
	check_fields_str(d, "Module ID", "-1");
	gw_esxi_pci_list_free(&l);
}

static void
test_pci_crlf_no_final_newline(void **state)
{
	gw_esxi_pci_list l;
	size_t len;
	char *text;

	(void)state;
	text = read_sample(SYN_CRLF, &len);
	assert_int_equal(text[len - 1], 'e');   /* "true", no final newline */
	assert_non_null(strstr(text, "\r\n"));
	free(text);
	pci_ok(SYN_CRLF, &l);
	assert_int_equal(l.n, 1);
	check_l40s(&l.devs[0], 1);
	gw_esxi_pci_list_free(&l);
}

static void
test_pci_variations(void **state)
{
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *d;

	(void)state;
	pci_ok(SYN_VARS, &l);
	assert_int_equal(l.n, 2);

	/* old decimal address, decimal class, no owner / capable lines */
	d = &l.devs[0];
	assert_int_equal(d->line, 2);
	assert_string_equal(d->bdf, "0000:80:00.0");
	assert_string_equal(d->vmx_id, "00000:128:00.0");
	assert_int_equal(d->bus, 128);
	assert_int_equal(d->vendor_id, 0x10de);
	assert_int_equal(d->device_id, 0x05e6);
	assert_int_equal(d->subdevice_id, 0);
	assert_int_equal(d->device_class, 0x0380);
	assert_true(gw_esxi_pci_is_display(d));
	assert_int_equal(d->passthru_capable, -1);
	assert_null(d->configured_owner);
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), -1);
	assert_string_equal(d->current_owner, "VMkernel");
	assert_string_equal(d->vmkernel_name, "");
	assert_int_equal(d->nfields, 16);
	assert_ptr_equal(gw_esxi_pci_find(&l, "000:128:00.0"), d);
	assert_ptr_equal(gw_esxi_pci_find(&l, "0000:80:00.0"), d);

	d = &l.devs[1];
	assert_int_equal(d->line, 21);
	assert_string_equal(d->bdf, "0000:ca:00.0");
	assert_string_equal(d->vmx_id, "00000:202:00.0");
	assert_int_equal(d->vendor_id, 0x10de);      /* trailing blanks */
	assert_int_equal(d->device_id, 0x20b5);
	assert_int_equal(d->passthru_capable, 0);
	assert_int_equal(gw_esxi_pci_passthru_enabled(d), 0);
	assert_int_equal(d->nfields, 35);
	check_fields_str(d, "Slot Description", "CPU2 SLOT7 PCI-E 4.0 X16: riser 2");
	check_fields_str(d, "Device Layer Bus Address", "s00000007.00");
	gw_esxi_pci_list_free(&l);
}

/* ---- esxcli hardware pci list: errors ---------------------------------- */

#define BLK_HEAD "0000:3b:00.0\n   Address: 0000:3b:00.0\n"
#define BLK_IDS  "   Vendor ID: 0x10de\n   Device ID: 0x26b9\n   Device Class: 0x0302\n"

static void
test_pci_errors(void **state)
{
	char *text;

	(void)state;
	pci_err("", NULL, "no output in it; expected the output of esxcli hardware pci list");
	pci_err(" \n\n  \n", "f.txt", "f.txt: no output in it; expected the output of esxcli hardware pci list");
	pci_err("# only a note\n", "f.txt", "f.txt: no device block in it; expected the output of esxcli hardware pci list");
	pci_err("hello\n", NULL,
	        "line 1: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found 'hello'; is this the output of esxcli "
	        "hardware pci list?");
	pci_err("   Address: 0000:3b:00.0\n", "f.txt",
	        "f.txt:1: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found 'Address: 0000:3b:00.0'; is this the output "
	        "of esxcli hardware pci list?");
	/* a .vmx, other commands' output, the lspci samples */
	pci_err("config.version = \"8\"\nvirtualHW.version = \"21\"\n", "x.vmx",
	        "x.vmx:1: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found 'config.version = \"8\"'; is this the output "
	        "of esxcli hardware pci list?");
	text = sample(ESX_VER55);
	pci_err(text, "v.txt",
	        "v.txt:1: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found 'Product: VMware ESXi'; is this the output "
	        "of esxcli hardware pci list?");
	free(text);
	text = sample(ESX_LSPCI8);
	pci_err(text, "l.txt",
	        "l.txt:1: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found '`0000:0c:00.0 Non-VGA unclassified device: Gl...'; "
	        "is this the output of esxcli hardware pci list?");
	free(text);
	text = sample(ESX_LSPCI5);
	pci_err(text, "l.txt",
	        "l.txt:1: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found '000:128:00.0 Display controller: NVIDIA Corpo...'; "
	        "is this the output of esxcli hardware pci list?");
	free(text);
	text = sample(VIM_WTSI);
	pci_err(text, NULL,
	        "line 1: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found 'Vmid         Name                            ...'; "
	        "is this the output of esxcli hardware pci list?");
	free(text);

	/* broken blocks */
	pci_err(BLK_HEAD "   Device ID: 0x26b9\n   Device Class: 0x0302\n", "f",
	        "f:1: the block of device 0000:3b:00.0 has no 'Vendor ID' line; "
	        "expected the full output of esxcli hardware pci list");
	pci_err("0000:3b:00.0\n" BLK_IDS, "f",
	        "f:1: the block of device 0000:3b:00.0 has no 'Address' line; "
	        "expected the full output of esxcli hardware pci list");
	pci_err(BLK_HEAD "   Vendor ID: 0x10de\n   Device ID: 0x26b9\n", "f",
	        "f:1: the block of device 0000:3b:00.0 has no 'Device Class' "
	        "line; expected the full output of esxcli hardware pci list");
	pci_err(BLK_HEAD "   Vendor ID: 0x10de0\n   Device ID: 0x26b9\n   Device Class: 0x0302\n",
	        "f", "f:3: Vendor ID: '0x10de0' is not a PCI id (expected 0x and 1 "
	        "to 4 hex digits, e.g. 0x10de)");
	pci_err(BLK_HEAD "   Vendor ID: 10de\n   Device ID: 0x26b9\n   Device Class: 0x0302\n",
	        "f", "f:3: Vendor ID: '10de' is not a PCI id (expected 0x and 1 "
	        "to 4 hex digits, e.g. 0x10de)");
	pci_err(BLK_HEAD BLK_IDS "   SubDevice ID: 0x\n", "f",
	        "f:6: SubDevice ID: '0x' is not a PCI id (expected 0x and 1 "
	        "to 4 hex digits, e.g. 0x10de)");
	pci_err(BLK_HEAD "   Vendor ID: 0x10de\n   Device ID: 0x26b9\n   Device Class: video\n",
	        "f", "f:5: Device Class: 'video' is not a PCI class (expected e.g. "
	        "0x0302, or a decimal number up to 65535)");
	pci_err(BLK_HEAD "   Vendor ID: 0x10de\n   Device ID: 0x26b9\n   Device Class: 70000\n",
	        "f", "f:5: Device Class: '70000' is not a PCI class (expected e.g. "
	        "0x0302, or a decimal number up to 65535)");
	pci_err("0000:3b:00.0\n   Address: 0000:3c:00.0\n" BLK_IDS, "f",
	        "f:2: Address: 0000:3c:00.0 does not match the device's address "
	        "0000:3b:00.0");
	pci_err("0000:3b:00.0\n   Address: 3b:00.0\n" BLK_IDS, "f",
	        "f:2: Address: '3b:00.0' is not a PCI address (expected e.g. "
	        "0000:3b:00.0)");
	pci_err(BLK_HEAD "   Bus: 0x3c\n" BLK_IDS, "f",
	        "f:3: Bus: 0x3c does not match the device's address 0000:3b:00.0");
	pci_err(BLK_HEAD "   Function: one\n" BLK_IDS, "f",
	        "f:3: Function: 'one' is not a hexadecimal number (expected e.g. "
	        "0x3b)");
	pci_err(BLK_HEAD BLK_IDS "   Passthru Capable: yes\n", "f",
	        "f:6: Passthru Capable: 'yes' is not true or false");
	pci_err(BLK_HEAD BLK_IDS "   Vendor ID: 0x10de\n", "f",
	        "f:6: 'Vendor ID' is printed twice in the block of device "
	        "0000:3b:00.0 (first at line 3)");
	pci_err(BLK_HEAD BLK_IDS "   no colon here\n", "f",
	        "f:6: expected 'Key: Value' in the block of device 0000:3b:00.0, "
	        "found 'no colon here'");
	pci_err(BLK_HEAD BLK_IDS "   : value\n", "f",
	        "f:6: expected 'Key: Value' in the block of device 0000:3b:00.0, "
	        "found ': value'");
	pci_err(BLK_HEAD BLK_IDS "\n" BLK_HEAD BLK_IDS, "f",
	        "f:7: device 0000:3b:00.0 is listed twice (first at line 1)");
	pci_err(BLK_HEAD "   Vendor ID: 0x10de\x01\n" BLK_IDS, "f",
	        "f:3: binary data (control byte 0x01); expected the text output "
	        "of esxcli hardware pci list");
	pci_err(BLK_HEAD BLK_IDS "0000:3c:00.0\n", "f",
	        "f:6: the block of device 0000:3c:00.0 has no 'Address' line; "
	        "expected the full output of esxcli hardware pci list");
	/* a '#' line after the output began is not skipped */
	pci_err(BLK_HEAD BLK_IDS "# note\n", "f",
	        "f:6: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found '# note'; is this the output of esxcli "
	        "hardware pci list?");
	/* a long line is cut in the message at a character boundary */
	pci_err("\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87"
	        "\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87"
	        "\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\n", NULL,
	        "line 1: expected a PCI address such as 0000:3b:00.0 opening a "
	        "device block, found '\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87"
	        "\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87"
	        "\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad...'; is "
	        "this the output of esxcli hardware pci list?");
}

/* ---- esxcli system uuid get -------------------------------------------- */

static void
test_uuid(void **state)
{
	char *text, *id = NULL;
	gw_err e;

	(void)state;
	text = sample(SYN_UUID);
	if (gw_esxi_parse_uuid(text, SYN_UUID, &id, &e) != 0)
		fail_msg("%s", e.msg);
	free(text);
	assert_string_equal(id, "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c");
	assert_true(gw_system_id_valid(id));
	free(id);

	assert_int_equal(gw_esxi_parse_uuid("[root@h:~] esxcli system uuid get\r\n"
	                                    "  5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c  \r\n\r\n",
	                                    NULL, &id, &e), 0);
	assert_string_equal(id, "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c");
	free(id);

	assert_int_equal(gw_esxi_parse_uuid("", "u", &id, &e), -1);
	assert_null(id);
	assert_string_equal(e.msg, "u: no output in it; expected the output of esxcli system uuid get");
	assert_int_equal(gw_esxi_parse_uuid("# x\n", "u", &id, &e), -1);
	assert_string_equal(e.msg, "u: no output in it; expected the output of esxcli system uuid get");
	assert_int_equal(gw_esxi_parse_uuid("5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2\n", "u", &id, &e), -1);
	assert_string_equal(e.msg, "u:1: '5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2' is not "
	                    "a system id (expected 8-4-4-4-12 hex digits, as esxcli "
	                    "system uuid get prints)");
	assert_int_equal(gw_esxi_parse_uuid("5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c\n"
	                                    "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2d\n",
	                                    "u", &id, &e), -1);
	assert_string_equal(e.msg, "u:2: expected one line with the system id, found "
	                    "another line '5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2d'");
	assert_null(id);
}

/* ---- esxcli system version get ----------------------------------------- */

static void
version_ok(const char *rel, gw_esxi_version *v)
{
	char *text = sample(rel);
	gw_err e;

	if (gw_esxi_parse_version(text, rel, v, &e) != 0)
		fail_msg("%s: %s", rel, e.msg);
	free(text);
}

static void
test_version(void **state)
{
	gw_esxi_version v;
	gw_err e;

	(void)state;
	version_ok(ESX_VER55, &v);        /* real, no Patch line */
	assert_string_equal(v.product, "VMware ESXi");
	assert_string_equal(v.version, "5.5.0");
	assert_string_equal(v.build, "Releasebuild-3248547");
	assert_int_equal(v.build_number, 3248547);
	assert_int_equal(v.update, 3);
	assert_int_equal(v.patch, -1);
	assert_string_equal(v.release, "5.5U3");
	assert_int_equal(gw_esxi_to_hw(v.release), 0);   /* older than the table */
	gw_esxi_version_free(&v);

	version_ok(SYN_VER80, &v);
	assert_string_equal(v.version, "8.0.2");
	assert_int_equal(v.build_number, 22380479);
	assert_int_equal(v.update, 2);
	assert_int_equal(v.patch, 25);
	assert_string_equal(v.release, "8.0U2");
	assert_int_equal(gw_esxi_to_hw(v.release), 21);
	gw_esxi_version_free(&v);

	version_ok(SYN_VER67, &v);
	assert_string_equal(v.version, "6.7.0");
	assert_int_equal(v.update, 3);
	assert_int_equal(v.patch, 73);
	assert_string_equal(v.release, "6.7U3");
	assert_int_equal(gw_esxi_to_hw(v.release), 15);
	gw_esxi_version_free(&v);

	/* no Update line: the third number of Version; no Build */
	assert_int_equal(gw_esxi_parse_version("Product: VMware ESXi\nVersion: 7.0.3\n",
	                                       NULL, &v, &e), 0);
	assert_string_equal(v.release, "7.0U3");
	assert_null(v.build);
	assert_int_equal(v.build_number, -1);
	assert_int_equal(v.update, -1);
	gw_esxi_version_free(&v);
	assert_int_equal(gw_esxi_parse_version("Product: VMware ESXi\nVersion: 8.0.0\nUpdate: 0\n",
	                                       NULL, &v, &e), 0);
	assert_string_equal(v.release, "8.0");
	assert_int_equal(gw_esxi_to_hw(v.release), 20);
	gw_esxi_version_free(&v);
	gw_esxi_version_free(&v);

	/* errors */
	assert_int_equal(gw_esxi_parse_version("Product: VMware ESXi\n", "v", &v, &e), -1);
	assert_string_equal(e.msg, "v: no 'Version' line; expected the output of esxcli system version get");
	assert_null(v.product);
	assert_int_equal(gw_esxi_parse_version("Version: 8.0.2\n", "v", &v, &e), -1);
	assert_string_equal(e.msg, "v: no 'Product' line; expected the output of esxcli system version get");
	assert_int_equal(gw_esxi_parse_version("Product: VMware ESXi\nVersion: eight\n", "v", &v, &e), -1);
	assert_string_equal(e.msg, "v:2: Version: 'eight' is not a version number (expected e.g. 8.0.2)");
	assert_int_equal(gw_esxi_parse_version("Product: VMware ESXi\nVersion: 8\n", "v", &v, &e), -1);
	assert_string_equal(e.msg, "v:2: Version: '8' is not a version number (expected e.g. 8.0.2)");
	assert_int_equal(gw_esxi_parse_version("Product: VMware ESXi\nVersion: 8.0.2\nUpdate: two\n", "v", &v, &e), -1);
	assert_string_equal(e.msg, "v:3: Update: 'two' is not a whole number");
	assert_int_equal(gw_esxi_parse_version("Product: VMware ESXi\nVersion: 8.0.2\nPatch: -1\n", "v", &v, &e), -1);
	assert_string_equal(e.msg, "v:3: Patch: '-1' is not a whole number");
	assert_int_equal(gw_esxi_parse_version("Product: A\nVersion: 8.0.2\nProduct: B\n", "v", &v, &e), -1);
	assert_string_equal(e.msg, "v:3: 'Product' is printed twice (first at line 1)");
	assert_int_equal(gw_esxi_parse_version("VMware ESXi 8.0.2 build-22380479\n", "v", &v, &e), -1);
	assert_string_equal(e.msg, "v:1: expected 'Key: Value' as esxcli system version get prints it, found 'VMware ESXi 8.0.2 build-22380479'");
	assert_int_equal(gw_esxi_parse_version("", NULL, &v, &e), -1);
	assert_string_equal(e.msg, "no output in it; expected the output of esxcli system version get");
	assert_null(v.release);
}

/* ---- vim-cmd vmsvc/getallvms ------------------------------------------- */

static void
vms_ok(const char *rel, gw_vm_list *l)
{
	char *text = sample(rel);
	gw_err e;

	if (gw_esxi_parse_getallvms(text, rel, l, &e) != 0)
		fail_msg("%s: %s", rel, e.msg);
	free(text);
}

static void
check_vm(const gw_vm *v, unsigned long id, const char *name,
         const char *ds, const char *path, const char *guest, int hw,
         const char *ann, unsigned line)
{
	char file[512], ver[16];

	snprintf(file, sizeof file, "[%s] %s", ds, path);
	snprintf(ver, sizeof ver, "vmx-%02d", hw);
	assert_int_equal(v->vmid, id);
	assert_string_equal(v->name, name);
	assert_string_equal(v->file, file);
	assert_string_equal(v->datastore, ds);
	assert_string_equal(v->path, path);
	assert_string_equal(v->guest_os, guest);
	assert_string_equal(v->version, ver);
	assert_int_equal(v->hw_version, hw);
	assert_string_equal(v->annotation, ann);
	assert_int_equal(v->line, line);
}

static void
test_getallvms_real(void **state)
{
	gw_vm_list l;

	(void)state;
	vms_ok(VIM_WTSI, &l);      /* datastore with a colon, trailing blanks */
	assert_int_equal(l.n, 1);
	check_vm(&l.vms[0], 40, "packer-vmware-iso", "wtgc-vmbd-01:datastore1",
	         "packer-vmware-iso/packer-vmware-iso.vmx", "ubuntu64Guest", 8,
	         "", 2);
	assert_int_equal(l.nskipped, 0);
	gw_vm_list_free(&l);

	vms_ok(VIM_TLH, &l);       /* 7 VMs, not sorted */
	assert_int_equal(l.n, 7);
	check_vm(&l.vms[0], 10, "centos-00", "vs-00-das", "centos-00/centos-00.vmx", "centos7_64Guest", 13, "", 2);
	check_vm(&l.vms[1], 11, "centos-01", "vs-00-das", "centos-01/centos-01.vmx", "centos7_64Guest", 13, "", 3);
	check_vm(&l.vms[2], 20, "centos-02", "vs-00-das", "centos-02/centos-02.vmx", "centos7_64Guest", 11, "", 4);
	check_vm(&l.vms[3], 21, "repo-00", "vs-00-das", "repo-00/repo-00.vmx", "centos7_64Guest", 11, "", 5);
	check_vm(&l.vms[4], 6, "firewall-00", "vs-00-das", "firewall-00/firewall-00.vmx", "freebsd64Guest", 13, "", 6);
	check_vm(&l.vms[5], 8, "smos-00", "vs-00-das", "smos-00/smos-00.vmx", "solaris11_64Guest", 13, "", 7);
	check_vm(&l.vms[6], 9, "smos-01", "vs-00-das", "smos-01/smos-01.vmx", "solaris11_64Guest", 13, "", 8);
	gw_vm_list_free(&l);

	vms_ok(VIM_GHETTO, &l);
	assert_int_equal(l.n, 2);
	check_vm(&l.vms[0], 11, "itachi_lab", "datastore1", "itachi_lab/itachi_lab.vmx", "ubuntu64Guest", 13, "", 2);
	check_vm(&l.vms[1], 12, "itachi_backupTest", "datastore1", "itachi_backupTest/itachi_backupTest.vmx", "ubuntu64Guest", 13, "", 3);
	gw_vm_list_free(&l);

	vms_ok(VIM_INTEL, &l);     /* name with blanks and brackets */
	assert_int_equal(l.n, 2);
	check_vm(&l.vms[0], 1, "AT_ESXI_050", "datastore_050", "AT_ESXI/AT_ESXI.vmx", "ubuntu64Guest", 11, "", 2);
	check_vm(&l.vms[1], 24, "Test Test [Test] [Test]", "datastore_050_vmfs6", "Test/Test.vmx", "otherGuest64", 17, "", 3);
	gw_vm_list_free(&l);
	gw_vm_list_free(&l);
}

static void
test_getallvms_synthetic(void **state)
{
	gw_vm_list l;
	gw_err e;

	(void)state;
	vms_ok(SYN_VMS, &l);
	assert_int_equal(l.nskipped, 1);
	assert_int_equal(l.skipped[0], 5);
	assert_int_equal(l.n, 4);
	check_vm(&l.vms[0], 12, "llm-node [L40S] (prod)", "nvme:01 local",
	         "llm-node [L40S] (prod)/llm-node [L40S] (prod).vmx",
	         "ubuntu64Guest", 21, "vLLM on 2x L40S", 3);
	check_vm(&l.vms[1], 3, "win 2022  two blanks", "datastore1",
	         "win 2022  two blanks/win 2022  two blanks.vmx",
	         "windows2019srvNext_64Guest", 19, "", 4);
	check_vm(&l.vms[2], 101, "a [b] [c]", "datastore1", "moved/other.vmx",
	         "otherGuest64", 17,
	         "line one\nline two, vmx-13 and x.vmx\n\n# owner: ops", 5);
	check_vm(&l.vms[3], 7, "gpu-test", "wtgc-vmbd-01:datastore1",
	         "gpu-test/gpu-test.vmx", "centos8_64Guest", 19,
	         "Copy: of [x] y", 9);
	gw_vm_list_free(&l);

	vms_ok(SYN_NOVMS, &l);
	assert_int_equal(l.n, 0);
	assert_null(l.vms);
	gw_vm_list_free(&l);

	/* the real folder of a name with brackets is the name itself */
	assert_int_equal(gw_esxi_parse_getallvms(
	    "Vmid   Name   File   Guest OS   Version   Annotation\n"
	    "24     Test [x] [y]   [ds 1] Test [x] [y]/Test [x] [y].vmx   otherGuest64   vmx-17\n"
	    "25     [b] c   [ds] [b] c/[b] c.vmx   otherGuest64   VMX-21   note\n",
	    NULL, &l, &e), 0);
	assert_int_equal(l.n, 2);
	check_vm(&l.vms[0], 24, "Test [x] [y]", "ds 1",
	         "Test [x] [y]/Test [x] [y].vmx", "otherGuest64", 17, "", 2);
	assert_string_equal(l.vms[1].name, "[b] c");
	assert_string_equal(l.vms[1].datastore, "ds");
	assert_string_equal(l.vms[1].version, "VMX-21");
	assert_int_equal(l.vms[1].hw_version, 21);
	assert_string_equal(l.vms[1].annotation, "note");
	gw_vm_list_free(&l);
}

static void
vms_err(const char *text, const char *msg)
{
	gw_vm_list l;
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_esxi_parse_getallvms(text, "g", &l, &e) == 0)
		fail_msg("parsed but should not:\n%s", text);
	assert_string_equal(e.msg, msg);
	assert_int_equal(l.n, 0);
	assert_null(l.vms);
	assert_null(l.skipped);
}

#define VMS_HEAD "Vmid   Name   File   Guest OS   Version   Annotation\n"

static void
test_getallvms_errors(void **state)
{
	char *text;

	(void)state;
	vms_err("", "g: no output in it; expected the output of vim-cmd vmsvc/getallvms");
	vms_err("Skipping invalid VM '3'\n",
	        "g: no output in it; expected the output of vim-cmd vmsvc/getallvms");
	vms_err("Name File\n", "g:1: expected the header 'Vmid Name File Guest OS "
	        "Version Annotation' of vim-cmd vmsvc/getallvms, found 'Name File'");
	text = sample(ESX_X540);
	vms_err(text, "g:1: expected the header 'Vmid Name File Guest OS Version "
	        "Annotation' of vim-cmd vmsvc/getallvms, found '0000:02:00.1'");
	free(text);
	vms_err(VMS_HEAD "a note\n", "g:2: expected a VM line (Vmid, Name, "
	        "[datastore] path.vmx, Guest OS, vmx-NN, Annotation), found 'a note'");
	vms_err(VMS_HEAD "1   vm   [ds] vm/vm.vmx   otherGuest\n",
	        "g:2: expected a VM line (Vmid, Name, [datastore] path.vmx, Guest "
	        "OS, vmx-NN, Annotation), found '1   vm   [ds] vm/vm.vmx   otherGuest'");
	vms_err(VMS_HEAD "1   vm   vm/vm.vmx   otherGuest   vmx-13\n",
	        "g:2: expected a VM line (Vmid, Name, [datastore] path.vmx, Guest "
	        "OS, vmx-NN, Annotation), found '1   vm   vm/vm.vmx   otherGuest   vmx-13'");
	vms_err(VMS_HEAD "1   [ds] vm/vm.vmx   otherGuest   vmx-13\n",
	        "g:2: expected a VM line (Vmid, Name, [datastore] path.vmx, Guest "
	        "OS, vmx-NN, Annotation), found '1   [ds] vm/vm.vmx   otherGuest   vmx-13'");
	vms_err(VMS_HEAD "1   a   [ds] a/a.vmx   otherGuest   vmx-13\n"
	        "1   b   [ds] b/b.vmx   otherGuest   vmx-13\n",
	        "g:3: VM 1 is listed twice (first at line 2)");
	vms_err(VMS_HEAD "1   a   [ds] a/a.vmx   otherGuest   vmx-13\n"
	        "2   b   [ds] b/b.vmx\n",
	        "g:3: expected a VM line (Vmid, Name, [datastore] path.vmx, Guest "
	        "OS, vmx-NN, Annotation), found '2   b   [ds] b/b.vmx'");
	vms_err(VMS_HEAD "99999999999   a   [ds] a/a.vmx   otherGuest   vmx-13\n",
	        "g:2: expected a VM line (Vmid, Name, [datastore] path.vmx, Guest "
	        "OS, vmx-NN, Annotation), found '99999999999   a   [ds] a/a.vmx   otherGuest  ...'");
	/* a control byte is no reason to refuse the text (a VM's name may
	 * hold one); a line of it alone is still no VM line */
	vms_err(VMS_HEAD "\x7f\n", "g:2: expected a VM line (Vmid, Name, "
	        "[datastore] path.vmx, Guest OS, vmx-NN, Annotation), found '\\x7F'");
}

/* A VM name holding ESC, BEL, DEL, a CR and U+202E: that VM is read with
 * its name as the host has it (the printers escape it) and the others
 * around it are read too. */
static void
test_getallvms_control_name(void **state)
{
	static const char text[] = VMS_HEAD
		"1   a   [ds] a/a.vmx   otherGuest   vmx-13\n"
		"2   b\x1b[31mad\a\x7f\r\xe2\x80\xae   [ds] b/b.vmx   otherGuest   vmx-19   n\x1bte\r\n"
		"3   c   [ds] c/c.vmx   otherGuest   vmx-21\n";
	gw_vm_list l;
	gw_err e;

	(void)state;
	memset(&e, 0, sizeof e);
	assert_int_equal(gw_esxi_parse_getallvms(text, "g", &l, &e), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.vms[0].name, "a");
	assert_string_equal(l.vms[1].name, "b\x1b[31mad\a\x7f\r\xe2\x80\xae");
	assert_string_equal(l.vms[1].file, "[ds] b/b.vmx");
	assert_int_equal(l.vms[1].hw_version, 19);
	assert_string_equal(l.vms[1].annotation, "n\x1bte");
	assert_string_equal(l.vms[2].name, "c");
	gw_vm_list_free(&l);
}

/* ---- vim-cmd vmsvc/power.getstate -------------------------------------- */

static void
test_power_state(void **state)
{
	gw_power p;
	char *text;
	gw_err e;

	(void)state;
	text = sample(VIM_ON);
	assert_int_equal(gw_esxi_parse_power_state(text, VIM_ON, &p, &e), 0);
	assert_int_equal(p, GW_POWER_ON);
	assert_string_equal(gw_power_id(p), "on");
	free(text);
	text = sample(VIM_OFF);
	assert_int_equal(gw_esxi_parse_power_state(text, VIM_OFF, &p, &e), 0);
	assert_int_equal(p, GW_POWER_OFF);
	assert_string_equal(gw_power_id(p), "off");
	free(text);
	text = sample(SYN_SUSP);
	assert_int_equal(gw_esxi_parse_power_state(text, SYN_SUSP, &p, &e), 0);
	assert_int_equal(p, GW_POWER_SUSPENDED);
	assert_string_equal(gw_power_id(p), "suspended");
	free(text);
	assert_string_equal(gw_power_id(GW_POWER_UNKNOWN), "unknown");
	/* without the first line, CRLF, a prompt */
	assert_int_equal(gw_esxi_parse_power_state("[root@h:~] vim-cmd vmsvc/power.getstate 40\r\nPowered off\r\n",
	                                           NULL, &p, &e), 0);
	assert_int_equal(p, GW_POWER_OFF);

	assert_int_equal(gw_esxi_parse_power_state("Retrieved runtime info\n", "s", &p, &e), -1);
	assert_int_equal(p, GW_POWER_UNKNOWN);
	assert_string_equal(e.msg, "s: no power state in it; expected the output of vim-cmd vmsvc/power.getstate");
	assert_int_equal(gw_esxi_parse_power_state("", "s", &p, &e), -1);
	assert_string_equal(e.msg, "s: no output in it; expected the output of vim-cmd vmsvc/power.getstate");
	assert_int_equal(gw_esxi_parse_power_state("Retrieved runtime info\nPowered off\nPowered on\n", "s", &p, &e), -1);
	assert_string_equal(e.msg, "s:3: a second power state 'Powered on' (the first is on line 2)");
	assert_int_equal(gw_esxi_parse_power_state("Retrieved runtime info\nRunning\n", NULL, &p, &e), -1);
	assert_string_equal(e.msg, "line 2: expected a power state (Powered on, Powered off or Suspended) as vim-cmd vmsvc/power.getstate prints it, found 'Running'");
	assert_int_equal(p, GW_POWER_UNKNOWN);
}

/* ---- gpuwiz gpus --esxcli-file ------------------------------------------- */

/* What gpuwiz gpus --esxcli-file does: the listing read into the host
 * interface's rows, printed by the one printer; returns what it printed
 * (rc 0, or 2 with e set and nothing printed). */
static char *
run_gpus(const char *path, int json, int *rc, gw_err *e)
{
	gw_gpu_list l;
	gw_buf b;

	memset(e, 0, sizeof *e);
	gw_buf_init(&b);
	gw_buf_puts(&b, "");
	*rc = 0;
	if (gw_esxi_gpu_list_read_file(&table, path, &l, e) != 0) {
		*rc = 2;
	} else {
		gw_gpus_output(&b, &l, json);
	}
	gw_gpu_list_free(&l);
	return gw_buf_steal(&b);
}

static json_t *
run_gpus_json(const char *rel)
{
	char *path = tu_fixture_path(rel), *out;
	json_error_t je;
	json_t *j;
	gw_err e;
	int rc;

	out = run_gpus(path, 1, &rc, &e);
	if (rc != 0)
		fail_msg("%s: rc %d: %s", rel, rc, e.msg);
	j = json_loads(out, 0, &je);
	if (j == NULL)
		fail_msg("JSON does not parse: %s\n%s", je.text, out);
	assert_string_equal(json_string_value(json_object_get(j, "file")), path);
	free(out);
	free(path);
	return j;
}

static const char *
jstr(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!json_is_string(v))
		fail_msg("'%s' is not a string", k);
	return json_string_value(v);
}

static void
check_json_l40s(json_t *g)
{
	assert_string_equal(jstr(g, "bdf"), "0000:3b:00.0");
	assert_string_equal(jstr(g, "vmx_id"), "00000:059:00.0");
	assert_string_equal(jstr(g, "vendor_id"), "10de");
	assert_string_equal(jstr(g, "device_id"), "26b9");
	assert_string_equal(jstr(g, "subvendor_id"), "10de");
	assert_string_equal(jstr(g, "subdevice_id"), "1851");
	assert_string_equal(jstr(g, "name"), "AD102GL [L40S]");
	assert_string_equal(jstr(g, "table_id"), "l40s");
	assert_true(json_is_integer(json_object_get(g, "vram_gb")));
	assert_int_equal(json_integer_value(json_object_get(g, "vram_gb")), 48);
	assert_true(json_is_true(json_object_get(g, "passthru_capable")));
	assert_true(json_is_true(json_object_get(g, "passthru_enabled")));
	assert_string_equal(jstr(g, "configured_owner"), "VM Passthru");
	assert_string_equal(jstr(g, "current_owner"), "VM Passthru");
	assert_true(json_is_true(json_object_get(g, "counted_in_mmio")));
}

static void
test_gpus_json_l40s(void **state)
{
	json_t *j = run_gpus_json(SYN_CRLF), *gpus, *notes;

	(void)state;
	gpus = json_object_get(j, "gpus");
	assert_true(json_is_array(gpus));
	assert_int_equal(json_array_size(gpus), 1);
	check_json_l40s(json_array_get(gpus, 0));
	assert_true(json_is_integer(json_object_get(j, "mmio_size_gb")));
	assert_int_equal(json_integer_value(json_object_get(j, "mmio_size_gb")), 128);
	notes = json_object_get(j, "notes");
	assert_true(json_is_array(notes));
	assert_int_equal(json_array_size(notes), 0);
	json_decref(j);
}

static void
test_gpus_json_mixed(void **state)
{
	json_t *j = run_gpus_json(SYN_GPUS), *gpus, *g, *notes;

	(void)state;
	gpus = json_object_get(j, "gpus");
	assert_int_equal(json_array_size(gpus), 3);   /* the NIC is not listed */

	g = json_array_get(gpus, 0);                  /* BMC display */
	assert_string_equal(jstr(g, "bdf"), "0000:03:00.0");
	assert_string_equal(jstr(g, "vmx_id"), "00000:003:00.0");
	assert_string_equal(jstr(g, "vendor_id"), "1a03");
	assert_string_equal(jstr(g, "name"), "ASPEED Graphics Family");
	assert_true(json_is_null(json_object_get(g, "table_id")));
	assert_true(json_is_null(json_object_get(g, "vram_gb")));
	assert_true(json_is_true(json_object_get(g, "passthru_capable")));
	assert_true(json_is_false(json_object_get(g, "passthru_enabled")));
	assert_true(json_is_false(json_object_get(g, "counted_in_mmio")));

	check_json_l40s(json_array_get(gpus, 1));

	g = json_array_get(gpus, 2);                  /* VRAM unknown */
	assert_string_equal(jstr(g, "bdf"), "0000:5e:00.0");
	assert_string_equal(jstr(g, "vmx_id"), "00000:094:00.0");
	assert_string_equal(jstr(g, "device_id"), "2909");
	assert_string_equal(jstr(g, "name"), "GB100 [HGX B200 168GB]");
	assert_string_equal(jstr(g, "table_id"), "hgx-b200");
	assert_true(json_is_null(json_object_get(g, "vram_gb")));
	assert_true(json_is_true(json_object_get(g, "passthru_enabled")));
	assert_string_equal(jstr(g, "current_owner"), "VMkernel");
	assert_true(json_is_true(json_object_get(g, "counted_in_mmio")));

	assert_true(json_is_null(json_object_get(j, "mmio_size_gb")));
	notes = json_object_get(j, "notes");
	assert_int_equal(json_array_size(notes), 3);
	assert_string_equal(json_string_value(json_array_get(notes, 0)),
	                    "0000:03:00.0 (1a03:2000) is an on-board management or "
	                    "virtual display, not counted in the MMIO size");
	assert_string_equal(json_string_value(json_array_get(notes, 1)),
	                    "0000:5e:00.0 (10de:2909, GB100 [HGX B200 168GB]): its "
	                    "VRAM is unknown in the GPU table; size the VM with "
	                    "gpuwiz mmio --vram GB");
	assert_string_equal(json_string_value(json_array_get(notes, 2)),
	                    "0000:5e:00.0: passthrough is configured but the device "
	                    "is still owned by VMkernel; reboot the host to apply it");
	json_decref(j);
}

static void
test_gpus_json_variations(void **state)
{
	json_t *j = run_gpus_json(SYN_VARS), *gpus, *g, *notes;

	(void)state;
	gpus = json_object_get(j, "gpus");
	assert_int_equal(json_array_size(gpus), 2);
	g = json_array_get(gpus, 0);
	assert_string_equal(jstr(g, "bdf"), "0000:80:00.0");
	assert_string_equal(jstr(g, "vmx_id"), "00000:128:00.0");
	assert_string_equal(jstr(g, "name"), "GT200b [GeForce GTX 275]");
	assert_true(json_is_null(json_object_get(g, "table_id")));
	assert_true(json_is_null(json_object_get(g, "vram_gb")));
	assert_true(json_is_null(json_object_get(g, "passthru_capable")));
	assert_true(json_is_null(json_object_get(g, "passthru_enabled")));
	assert_true(json_is_null(json_object_get(g, "configured_owner")));
	g = json_array_get(gpus, 1);
	assert_string_equal(jstr(g, "table_id"), "a100-80g-pcie");
	assert_int_equal(json_integer_value(json_object_get(g, "vram_gb")), 80);
	assert_true(json_is_false(json_object_get(g, "passthru_capable")));
	assert_true(json_is_false(json_object_get(g, "passthru_enabled")));
	assert_true(json_is_null(json_object_get(j, "mmio_size_gb")));
	notes = json_object_get(j, "notes");
	assert_int_equal(json_array_size(notes), 2);
	assert_string_equal(json_string_value(json_array_get(notes, 0)),
	                    "0000:80:00.0 (10de:05e6) is not in the GPU table, so "
	                    "its VRAM is unknown; size the VM with gpuwiz mmio "
	                    "--vram GB");
	assert_string_equal(json_string_value(json_array_get(notes, 1)),
	                    "0000:ca:00.0: ESXi says it cannot be passed through "
	                    "(Passthru Capable: false); check that VT-d / AMD-Vi "
	                    "(IOMMU) is enabled in the host's BIOS");
	json_decref(j);
}

static void
test_gpus_text(void **state)
{
	char *path = tu_fixture_path(SYN_CRLF), *out, *want;
	gw_err e;
	int rc;

	(void)state;
	out = run_gpus(path, 0, &rc, &e);
	assert_int_equal(rc, 0);
	want = gw_xasprintf(
	    "Display-class devices in %s:\n"
	    "  Address       VMX id          PCI id     Name            VRAM   64-bit BARs  IOMMU group  Driver       Passthrough\n"
	    "  0000:3b:00.0  00000:059:00.0  10de:26b9  AD102GL [L40S]  48 GB  -            -            pciPassthru  enabled\n"
	    "64-bit MMIO size for these GPUs in one VM: 128 GB\n", path);
	assert_string_equal(out, want);
	free(want);
	free(out);
	free(path);

	path = tu_fixture_path(SYN_GPUS);
	out = run_gpus(path, 0, &rc, &e);
	assert_int_equal(rc, 0);
	want = gw_xasprintf(
	    "Display-class devices in %s:\n"
	    "  Address       VMX id          PCI id     Name                    VRAM     64-bit BARs  IOMMU group  Driver       Passthrough\n"
	    "  0000:03:00.0  00000:003:00.0  1a03:2000  ASPEED Graphics Family  unknown  -            -            -            capable, not enabled\n"
	    "  0000:3b:00.0  00000:059:00.0  10de:26b9  AD102GL [L40S]          48 GB    -            -            pciPassthru  enabled\n"
	    "  0000:5e:00.0  00000:094:00.0  10de:2909  GB100 [HGX B200 168GB]  unknown  -            -            -            enabled, reboot needed\n"
	    "64-bit MMIO size: not computed (see the notes)\n"
	    "Notes:\n"
	    "  - 0000:03:00.0 (1a03:2000) is an on-board management or virtual display, not counted in the MMIO size\n"
	    "  - 0000:5e:00.0 (10de:2909, GB100 [HGX B200 168GB]): its VRAM is unknown in the GPU table; size the VM with gpuwiz mmio --vram GB\n"
	    "  - 0000:5e:00.0: passthrough is configured but the device is still owned by VMkernel; reboot the host to apply it\n",
	    path);
	assert_string_equal(out, want);
	free(want);
	free(out);
	free(path);
}

/* The data behind the report: gw_esxi_gpu_list_read() returns the host
 * interface's rows and prints nothing. */
static void
test_gpus_read(void **state)
{
	char *path = tu_fixture_path(SYN_GPUS), *text;
	gw_gpu_list g;
	size_t len;
	gw_err e;

	(void)state;
	assert_int_equal(gw_esxi_gpu_list_read_file(&table, path, &g, &e), 0);
	assert_string_equal(g.source, path);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.gpus[0].bdf, "0000:03:00.0");
	assert_int_equal(g.gpus[0].onboard, 1);
	assert_int_equal(g.gpus[0].vram_gb, -1);
	assert_string_equal(g.gpus[0].name, "ASPEED Graphics Family");
	assert_non_null(g.gpus[1].row);
	assert_string_equal(g.gpus[1].row->id, "l40s");
	assert_int_equal(g.gpus[1].vram_gb, 48);
	assert_int_equal(g.gpus[1].onboard, 0);
	assert_int_equal(g.gpus[1].passthru_enabled, 1);
	assert_int_equal(g.gpus[1].passthru_active, 1);
	assert_int_equal(g.gpus[2].passthru_enabled, 1);
	assert_int_equal(g.gpus[2].passthru_active, 0);
	assert_string_equal(g.gpus[2].current_owner, "VMkernel");
	assert_int_equal(g.iommu_known, 0);
	assert_int_equal(g.mmio_known, 0);
	assert_int_equal(g.nnotes, 3);
	assert_string_equal(g.notes[2], "0000:5e:00.0: passthrough is configured but the device is still owned by VMkernel; reboot the host to apply it");
	gw_gpu_list_free(&g);

	/* Text in memory, named by the command when no name is given. */
	assert_int_equal(gw_read_file(path, GW_ESXI_MAX_BYTES, &text, &len, &e),
	                 0);
	assert_int_equal(gw_esxi_gpu_list_read(&table, text, NULL, &g, &e), 0);
	assert_string_equal(g.source, "esxcli hardware pci list");
	assert_int_equal(g.n, 3);
	gw_gpu_list_free(&g);
	free(text);
	free(path);

	path = tu_fixture_path(SYN_CRLF);
	assert_int_equal(gw_esxi_gpu_list_read_file(&table, path, &g, &e), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.mmio_known, 1);
	assert_int_equal(g.mmio.mmio_gb, 128);
	assert_int_equal(g.nnotes, 0);
	gw_gpu_list_free(&g);
	free(path);

	/* Errors leave the list empty. */
	assert_int_equal(gw_esxi_gpu_list_read(&table, "", "x", &g, &e), -1);
	assert_string_equal(e.msg, "x: no output in it; expected the output of esxcli hardware pci list");
	assert_int_equal(g.n, 0);
	assert_null(g.source);
	gw_gpu_list_free(&g);
	assert_int_equal(gw_esxi_gpu_list_read_file(&table, "", &g, &e), -1);
	assert_string_equal(e.msg, "--esxcli-file: no file given");
	gw_gpu_list_free(&g);
}

/* No GPU: a clear line, exit 0; JSON with an empty list. */
static void
test_gpus_no_gpu(void **state)
{
	const char *rels[] = { ESX_X540, ESX_PENSANDO };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		char *path = tu_fixture_path(rels[i]), *out, *want;
		json_t *j;
		gw_err e;
		int rc;

		out = run_gpus(path, 0, &rc, &e);
		assert_int_equal(rc, 0);
		want = gw_xasprintf("no display-class device in %s\n", path);
		assert_string_equal(out, want);
		free(want);
		free(out);
		free(path);
		j = run_gpus_json(rels[i]);
		assert_true(json_is_array(json_object_get(j, "gpus")));
		assert_int_equal(json_array_size(json_object_get(j, "gpus")), 0);
		assert_true(json_is_null(json_object_get(j, "mmio_size_gb")));
		assert_int_equal(json_array_size(json_object_get(j, "notes")), 0);
		json_decref(j);
	}
}

static char *
write_tmp(const char *dir, const char *name, const char *data, size_t len)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return p;
}

/* Two L40S and one A100 80GB in one VM: the plan's size. */
static void
test_gpus_multi(void **state)
{
	char *dir = tu_tmpdir(), *path, *out;
	char *crlf = sample(SYN_CRLF);
	gw_buf b;
	json_t *j;
	json_error_t je;
	gw_answers a;
	gw_plan p;
	gw_err e;
	int rc;

	(void)state;
	gw_buf_init(&b);
	gw_buf_puts(&b, crlf);
	gw_buf_puts(&b, "\r\n\r\n");
	{
		/* the same block at 0000:af:00.0 */
		char *c = gw_xstrdup(crlf), *q;

		while ((q = strstr(c, "0000:3b:00.0")) != NULL)
			memcpy(q, "0000:af:00.0", 12);
		q = strstr(c, "Bus: 0x3b");
		memcpy(q, "Bus: 0xaf", 9);
		gw_buf_puts(&b, c);
		free(c);
	}
	gw_buf_puts(&b, "\r\n0000:ca:00.0\r\n   Address: 0000:ca:00.0\r\n"
	            "   Vendor ID: 0x10de\r\n   Device ID: 0x20b5\r\n"
	            "   Device Class: 0x0302\r\n");
	path = write_tmp(dir, "three.txt", b.data, b.len);
	out = run_gpus(path, 1, &rc, &e);
	assert_int_equal(rc, 0);
	j = json_loads(out, 0, &je);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "gpus")), 3);
	assert_string_equal(jstr(json_array_get(json_object_get(j, "gpus"), 1),
	                         "vmx_id"), "00000:175:00.0");

	/* the same as gpuwiz mmio --gpu l40s=2 --gpu a100-80g-pcie */
	gw_answers_init(&a);
	a.reserve = 0;
	assert_int_equal(gw_answers_add_gpu(&a, &table, "l40s=2", NULL, &e), 0);
	assert_int_equal(gw_answers_add_gpu(&a, &table, "a100-80g-pcie", NULL, &e), 0);
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), 0);
	assert_int_equal(p.total_vram_gb, 176);
	assert_int_equal(json_integer_value(json_object_get(j, "mmio_size_gb")),
	                 (json_int_t)p.mmio_gb);
	assert_int_equal(p.mmio_gb, 512);
	gw_plan_free(&p);
	gw_answers_free(&a);
	json_decref(j);
	free(out);
	unlink(path);
	free(path);
	gw_buf_free(&b);
	free(crlf);
	rmdir(dir);
	free(dir);
}

/* A PCI id the table shares between models: the subsystem decides, and an
 * unknown subsystem leaves the VRAM unknown (never guessed). */
static void
test_gpus_shared_pci_id(void **state)
{
	char *dir = tu_tmpdir(), *path, *out;
	const char *t =
	    "0000:17:00.0\n   Address: 0000:17:00.0\n   Vendor ID: 0x10de\n"
	    "   Device ID: 0x25b6\n   SubVendor ID: 0x10de\n"
	    "   SubDevice ID: 0x157e\n   Device Class: 0x0302\n"
	    "   Configured Owner: VM Passthru\n   Current Owner: VM Passthru\n"
	    "   Passthru Capable: true\n\n"
	    "0000:18:00.0\n   Address: 0000:18:00.0\n   Vendor ID: 0x10de\n"
	    "   Device ID: 0x25b6\n   SubVendor ID: 0x10de\n"
	    "   SubDevice ID: 0x0000\n   Device Class: 0x0302\n";
	json_t *j, *gpus, *notes;
	json_error_t je;
	gw_err e;
	int rc;

	(void)state;
	path = write_tmp(dir, "a2.txt", t, strlen(t));
	out = run_gpus(path, 1, &rc, &e);
	assert_int_equal(rc, 0);
	j = json_loads(out, 0, &je);
	assert_non_null(j);
	gpus = json_object_get(j, "gpus");
	assert_int_equal(json_array_size(gpus), 2);
	assert_string_equal(jstr(json_array_get(gpus, 0), "table_id"), "a2");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(gpus, 0),
	                                                    "vram_gb")), 16);
	assert_true(json_is_null(json_object_get(json_array_get(gpus, 1), "table_id")));
	assert_true(json_is_null(json_object_get(json_array_get(gpus, 1), "vram_gb")));
	/* no name in the table nor from esxcli: null, as on every back end */
	assert_true(json_is_null(json_object_get(json_array_get(gpus, 1), "name")));
	assert_true(json_is_null(json_object_get(json_array_get(gpus, 1),
	                                         "passthru_capable")));
	assert_true(json_is_null(json_object_get(j, "mmio_size_gb")));
	notes = json_object_get(j, "notes");
	assert_int_equal(json_array_size(notes), 1);
	assert_string_equal(json_string_value(json_array_get(notes, 0)),
	                    "0000:18:00.0 (10de:25b6): several GPUs in the table "
	                    "share this PCI id and its subsystem 10de:0000 does not "
	                    "pick one, so its VRAM is unknown; size the VM with "
	                    "gpuwiz mmio --vram GB");
	json_decref(j);
	free(out);

	/* the first alone: 16 GB -> 32 GB */
	unlink(path);
	free(path);
	path = write_tmp(dir, "a2.txt", t, strstr(t, "\n\n") - t + 1);
	out = run_gpus(path, 1, &rc, &e);
	assert_int_equal(rc, 0);
	j = json_loads(out, 0, &je);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "mmio_size_gb")), 32);
	json_decref(j);
	free(out);
	unlink(path);
	free(path);
	rmdir(dir);
	free(dir);
}

/* Bad input: one line naming the file, exit 2, nothing on stdout. */
static void
gpus_err(const char *path, const char *msg)
{
	char *out;
	gw_err e;
	int rc;

	out = run_gpus(path, 0, &rc, &e);
	assert_int_equal(rc, 2);
	assert_string_equal(out, "");
	free(out);
	if (strcmp(e.msg, msg) != 0)
		fail_msg("got  '%s'\nwant '%s'", e.msg, msg);
	assert_null(strchr(e.msg, '\n'));
	out = run_gpus(path, 1, &rc, &e);
	assert_int_equal(rc, 2);
	assert_string_equal(out, "");
	assert_string_equal(e.msg, msg);
	free(out);
}

static void
test_gpus_errors(void **state)
{
	char *dir = tu_tmpdir(), *p, *msg, *fx;
	int rc;
	gw_err e;
	char *out;

	(void)state;
	p = gw_xasprintf("%s/missing.txt", dir);
	msg = gw_xasprintf("%s: cannot open: No such file or directory", p);
	gpus_err(p, msg);
	free(msg);
	free(p);

	msg = gw_xasprintf("%s: is a directory, expected a file", dir);
	gpus_err(dir, msg);
	free(msg);

	p = write_tmp(dir, "empty.txt", "", 0);
	msg = gw_xasprintf("%s: no output in it; expected the output of esxcli "
	                   "hardware pci list", p);
	gpus_err(p, msg);
	free(msg);
	unlink(p);
	free(p);

	p = write_tmp(dir, "blank.txt", "\n  \n", 4);
	msg = gw_xasprintf("%s: no output in it; expected the output of esxcli "
	                   "hardware pci list", p);
	gpus_err(p, msg);
	free(msg);
	unlink(p);
	free(p);

	p = write_tmp(dir, "bin.gz", "\x1f\x8b\x08\x00\x00\x00\x00\x00", 8);
	msg = gw_xasprintf("%s: binary data (NUL byte); expected the text output "
	                   "of esxcli hardware pci list", p);
	gpus_err(p, msg);
	free(msg);
	unlink(p);
	free(p);

	p = write_tmp(dir, "ctl.bin", "\x1f\x8b\x08\x01", 4);
	msg = gw_xasprintf("%s:1: binary data (control byte 0x1f); expected the "
	                   "text output of esxcli hardware pci list", p);
	gpus_err(p, msg);
	free(msg);
	unlink(p);
	free(p);

	/* other commands' output and a .vmx */
	fx = tu_fixture_path(ESX_VER55);
	out = run_gpus(fx, 0, &rc, &e);
	/* the '# source:' line is skipped; the first real line is not a block */
	assert_int_equal(rc, 2);
	assert_string_equal(out, "");
	free(out);
	msg = gw_xasprintf("%s:2: expected a PCI address such as 0000:3b:00.0 "
	                   "opening a device block, found 'Product: VMware ESXi'; "
	                   "is this the output of esxcli hardware pci list?", fx);
	assert_string_equal(e.msg, msg);
	free(msg);
	free(fx);

	fx = tu_fixture_path(ESX_LSPCI8);
	msg = gw_xasprintf("%s:2: expected a PCI address such as 0000:3b:00.0 "
	                   "opening a device block, found '`0000:0c:00.0 Non-VGA "
	                   "unclassified device: Gl...'; is this the output of esxcli "
	                   "hardware pci list?", fx);
	gpus_err(fx, msg);
	free(msg);
	free(fx);

	fx = tu_fixture_path("vmx/ws-freebsd-crlf.vmx");
	out = run_gpus(fx, 1, &rc, &e);
	assert_int_equal(rc, 2);
	assert_string_equal(out, "");
	assert_non_null(strstr(e.msg, "ws-freebsd-crlf.vmx:2: expected a PCI address"));
	free(out);
	free(fx);

	/* a GPU block missing its class */
	{
		const char *t = "0000:3b:00.0\n   Address: 0000:3b:00.0\n"
		                "   Vendor ID: 0x10de\n   Device ID: 0x26b9\n";

		p = write_tmp(dir, "noclass.txt", t, strlen(t));
	}
	msg = gw_xasprintf("%s:1: the block of device 0000:3b:00.0 has no "
	                   "'Device Class' line; expected the full output of "
	                   "esxcli hardware pci list", p);
	gpus_err(p, msg);
	free(msg);
	unlink(p);
	free(p);

	/* no path */
	out = run_gpus("", 0, &rc, &e);
	assert_int_equal(rc, 2);
	assert_string_equal(out, "");
	assert_string_equal(e.msg, "--esxcli-file: no file given");
	free(out);
	rmdir(dir);
	free(dir);
}

/* ---- esxcli storage core path list ------------------------------------- */

/* The value of a path's or device's field by key (case-insensitive), as
 * the blocks keep every field they print. */
static const char *
field_value(const gw_esxi_field *f, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (gw_strieq(f[i].key, key))
			return f[i].value;
	return NULL;
}

/* A string with every "\n" made "\r\n" (the caller frees it). */
static char *
to_crlf(const char *s)
{
	gw_buf b;

	gw_buf_init(&b);
	for (; *s; s++) {
		if (*s == '\n')
			gw_buf_puts(&b, "\r");
		gw_buf_add(&b, s, 1);
	}
	return gw_buf_steal(&b);
}

static void
paths_ok(const char *text, const char *name, gw_esxi_storage_path_list *l)
{
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_esxi_parse_storage_paths(text, name, l, &e) != 0)
		fail_msg("%s: %s", name ? name : "text", e.msg);
}

static void
paths_err(const char *text, const char *name, const char *msg)
{
	gw_esxi_storage_path_list l;
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_esxi_parse_storage_paths(text, name, &l, &e) == 0)
		fail_msg("parsed but should not:\n%s", text);
	assert_string_equal(e.msg, msg);
	assert_int_equal(l.n, 0);
	assert_null(l.paths);
	gw_esxi_storage_path_list_free(&l);
}

static void
test_storage_paths_kb_unindented(void **state)
{
	gw_esxi_storage_path_list l;
	const gw_esxi_storage_path *p;
	char *text = sample(ESX_PATHS_KB);

	(void)state;
	paths_ok(text, ESX_PATHS_KB, &l);
	assert_int_equal(l.n, 2);
	p = &l.paths[0];
	assert_int_equal(p->line, 1);
	assert_string_equal(p->name, "fc.5001438005685fb5:5001438005685fb4-"
	                    "fc.50060160c46036df:50060167446036df-"
	                    "naa.6006016094602800e07ff528b73ae011");
	assert_string_equal(p->adapter, "vmhba0");
	assert_string_equal(p->runtime_name, "vmhba0:C0:T0:L23");
	assert_string_equal(p->device, "naa.6006016094602800e07ff528b73ae011");
	assert_string_equal(p->state, "active");
	assert_int_equal(p->nfields, 15);
	assert_string_equal(p->fields[0].key, "UID");
	assert_string_equal(p->fields[0].value, p->name);
	assert_int_equal(p->fields[0].line, 2);
	assert_string_equal(field_value(p->fields, p->nfields,
	                    "adapter transport details"),
	                    "WWNN: <WWNN> WWPN: <WWPN>");
	assert_string_equal(field_value(p->fields, p->nfields,
	                    "Device Display Name"),
	                    "DGC Fibre Channel Disk ( naa.6006016094602800e07ff528b73ae011)");
	assert_null(field_value(p->fields, p->nfields,
	                          "Maximum IO Size"));
	p = &l.paths[1];
	assert_int_equal(p->line, 17);
	assert_string_equal(p->runtime_name, "vmhba0:C0:T1:L23");
	assert_string_equal(p->adapter, "vmhba0");
	assert_string_equal(field_value(p->fields, p->nfields,
	                    "Target"), "1");
	gw_esxi_storage_path_list_free(&l);
	gw_esxi_storage_path_list_free(&l);    /* harmless twice */
	free(text);
}

static void
test_storage_paths_synthetic(void **state)
{
	static const char *const adapters[] = {
		"vmhba0", "vmhba0", "vmhba1", "vmhba2", "vmhba32"
	};
	gw_esxi_storage_path_list l;
	char *text = sample(SYN_PATHS), *crlf, *cut;
	size_t i, len;

	(void)state;
	paths_ok(text, SYN_PATHS, &l);
	assert_int_equal(l.n, 5);
	for (i = 0; i < 5; i++) {
		assert_string_equal(l.paths[i].adapter, adapters[i]);
		assert_int_equal(l.paths[i].nfields, 16);
	}
	assert_string_equal(l.paths[4].name,
	                    "usb.vmhba32-usb.0:0-mpx.vmhba32:C0:T0:L0");
	assert_string_equal(l.paths[4].device, "mpx.vmhba32:C0:T0:L0");
	assert_string_equal(l.paths[2].device, "t10.NVMe____Samsung_SSD_970_"
	                    "EVO_Plus_500GB_______________4A52B31E5B382500");
	assert_int_equal(l.paths[1].line, 19);
	gw_esxi_storage_path_list_free(&l);

	/* CRLF, no final newline, no blank line between blocks */
	crlf = to_crlf(text);
	len = strlen(crlf);
	while (len > 0 && (crlf[len - 1] == '\n' || crlf[len - 1] == '\r'))
		crlf[--len] = '\0';
	paths_ok(crlf, NULL, &l);
	assert_int_equal(l.n, 5);
	assert_string_equal(field_value(l.paths[4].fields,
	                    l.paths[4].nfields, "Maximum IO Size"), "122880");
	gw_esxi_storage_path_list_free(&l);
	free(crlf);
	cut = gw_xstrdup(text);
	{
		char *p;

		while ((p = strstr(cut, "\n\n")) != NULL)
			memmove(p, p + 1, strlen(p));
	}
	paths_ok(cut, NULL, &l);
	assert_int_equal(l.n, 5);
	gw_esxi_storage_path_list_free(&l);
	free(cut);
	free(text);

	/* an nmp path list block: no Adapter line, taken from Runtime Name;
	 * a prompt line and a note before it; fields gpuwiz does not know */
	paths_ok("# saved from esx01\n"
	         "[root@host:~] esxcli storage core path list\n"
	         "iqn.1998-01.com.vmware:localhost:12345678:64-00023d000001,"
	         "iqn.1986-03.com.XXX:2145.fab2bkcend.node2,t,1-naa.123456\n"
	         "   Runtime Name: vmhba64:C0:T0:L0\n"
	         "   Device: naa.6005076400d002159000000000000001\n"
	         "   Group State: active unoptimized\n"
	         "   Storage Array Type Path Config: {TPG_id=1,TPG_state=ANO}\n",
	         "nmp.txt", &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.paths[0].line, 3);
	assert_string_equal(l.paths[0].adapter, "vmhba64");
	assert_null(l.paths[0].state);
	assert_string_equal(field_value(l.paths[0].fields,
	                    l.paths[0].nfields, "Storage Array Type Path Config"),
	                    "{TPG_id=1,TPG_state=ANO}");
	gw_esxi_storage_path_list_free(&l);
}

#define PATH_HEAD "sas.5-sas.5-naa.5000c500d0a1b2c3\n"

static void
test_storage_paths_errors(void **state)
{
	char *text;

	(void)state;
	paths_err("", NULL, "no output in it; expected the output of esxcli "
	          "storage core path list");
	paths_err("# note\n", "p", "p: no block in it; expected the output of "
	          "esxcli storage core path list");
	paths_err("   Device: naa.1\n", "p",
	          "p:1: expected a storage name such as "
	          "sas.5000000000000000-sas.500000e01947e132-naa.500000e01947e130 "
	          "opening a block, found 'Device: naa.1'; is this the output of "
	          "esxcli storage core path list?");
	text = sample(ESX_X540);
	paths_err(text, "pci.txt",
	          "pci.txt:1: expected a storage name such as "
	          "sas.5000000000000000-sas.500000e01947e132-naa.500000e01947e130 "
	          "opening a block, found '0000:02:00.1'; is this the output of "
	          "esxcli storage core path list?");
	free(text);
	text = sample(ESX_EXT_IBM);
	paths_err(text, "x.txt",
	          "x.txt:1: expected a storage name such as "
	          "sas.5000000000000000-sas.500000e01947e132-naa.500000e01947e130 "
	          "opening a block, found 'Volume Name        VMFS UUID            "
	          "     ...'; is this the output of esxcli storage core path "
	          "list?");
	free(text);
	paths_err(PATH_HEAD "   Adapter: vmhba0\n", "p",
	          "p:1: the block of path sas.5-sas.5-naa.5000c500d0a1b2c3 has no "
	          "device name (a 'Device' line); expected the full output of "
	          "esxcli storage core path list");
	paths_err(PATH_HEAD "   Device: naa.1\n", "p",
	          "p:1: the block of path sas.5-sas.5-naa.5000c500d0a1b2c3 has "
	          "neither an 'Adapter' nor a 'Runtime Name' line; expected the "
	          "full output of esxcli storage core path list");
	paths_err(PATH_HEAD "   Device: naa.1\n   Adapter: vmhba 0\n", "p",
	          "p:3: Adapter: 'vmhba 0' does not name a storage adapter "
	          "(expected e.g. vmhba0)");
	paths_err(PATH_HEAD "   Device: naa.1\n   Runtime Name: :C0:T0:L0\n", "p",
	          "p:3: Runtime Name: ':C0:T0:L0' does not name a storage "
	          "adapter (expected e.g. vmhba0)");
	paths_err(PATH_HEAD "   Device: naa.1\n   Adapter: vmhba0\n"
	          "   Device: naa.2\n", "p",
	          "p:4: 'Device' is printed twice in the block of "
	          "sas.5-sas.5-naa.5000c500d0a1b2c3 (first at line 2)");
	paths_err(PATH_HEAD "   Device: naa.1\n   Adapter: vmhba0\n\n"
	          PATH_HEAD "   Device: naa.1\n   Adapter: vmhba0\n", "p",
	          "p:5: sas.5-sas.5-naa.5000c500d0a1b2c3 is listed twice (first "
	          "at line 1)");
	paths_err(PATH_HEAD "   Device: naa.1\n   Adapter: vmhba0\n"
	          "this is not a field\n", "p",
	          "p:4: expected a storage name such as "
	          "sas.5000000000000000-sas.500000e01947e132-naa.500000e01947e130 "
	          "opening a block, found 'this is not a field'; is this the "
	          "output of esxcli storage core path list?");
	paths_err(PATH_HEAD "   Device: naa.1\x02\n", "p",
	          "p:2: binary data (control byte 0x02); expected the text "
	          "output of esxcli storage core path list");
}

/* ---- esxcli storage core device list ----------------------------------- */

static void
sdevs_ok(const char *text, const char *name, gw_esxi_storage_dev_list *l)
{
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_esxi_parse_storage_devices(text, name, l, &e) != 0)
		fail_msg("%s: %s", name ? name : "text", e.msg);
}

static void
sdevs_err(const char *text, const char *name, const char *msg)
{
	gw_esxi_storage_dev_list l;
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_esxi_parse_storage_devices(text, name, &l, &e) == 0)
		fail_msg("parsed but should not:\n%s", text);
	assert_string_equal(e.msg, msg);
	assert_int_equal(l.n, 0);
	assert_null(l.devs);
	gw_esxi_storage_dev_list_free(&l);
}

static void
test_storage_devices_real_usb_boot(void **state)
{
	gw_esxi_storage_dev_list l;
	const gw_esxi_storage_dev *d;
	char *text = sample(ESX_DEV_USB);

	(void)state;
	sdevs_ok(text, ESX_DEV_USB, &l);
	assert_int_equal(l.n, 1);
	d = &l.devs[0];
	assert_int_equal(d->line, 2);      /* the prompt line is skipped */
	assert_string_equal(d->name, "eui.00a0504658335330");
	assert_string_equal(d->display_name,
	                    "Local USB Direct-Access (eui.00a0504658335330)");
	assert_int_equal(d->is_boot, 1);
	assert_int_equal(d->is_local, 1);
	assert_int_equal(d->nfields, 33);
	assert_string_equal(field_value(d->fields, d->nfields,
	                    "Attached Filters"), "");
	assert_string_equal(field_value(d->fields, d->nfields,
	                    "Is Boot USB Device"), "true");
	assert_string_equal(field_value(d->fields, d->nfields,
	                    "No of outstanding IOs with competing worlds"), "32");
	assert_ptr_equal(gw_esxi_storage_dev_find(&l, "eui.00a0504658335330"), d);
	assert_null(gw_esxi_storage_dev_find(&l, "eui.00a050465833533"));
	assert_null(gw_esxi_storage_dev_find(NULL, "x"));
	gw_esxi_storage_dev_list_free(&l);
	free(text);
}

static void
test_storage_devices_no_boot_field(void **state)
{
	gw_esxi_storage_dev_list l;
	char *text = sample(SYN_DEV65), *crlf;

	(void)state;
	sdevs_ok(text, SYN_DEV65, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.devs[0].name, "t10.ATA_____ST1000DM0032D1SB102"
	                    "__________________________________Z9A3SHJH");
	assert_int_equal(l.devs[0].is_boot, -1);   /* unknown */
	assert_int_equal(l.devs[0].is_local, 1);
	assert_string_equal(field_value(l.devs[0].fields,
	                    l.devs[0].nfields, "Device Type"), "Direct-Access");
	assert_string_equal(field_value(l.devs[0].fields,
	                    l.devs[0].nfields, "Vendor"), "ATA");
	assert_string_equal(l.devs[1].name, "mpx.vmhba32:C0:T0:L0");
	assert_int_equal(l.devs[1].line, 35);
	assert_int_equal(l.devs[1].is_boot, -1);
	assert_string_equal(field_value(l.devs[1].fields,
	                    l.devs[1].nfields, "Is Boot USB Device"), "true");
	gw_esxi_storage_dev_list_free(&l);
	crlf = to_crlf(text);
	sdevs_ok(crlf, NULL, &l);
	assert_int_equal(l.n, 2);
	gw_esxi_storage_dev_list_free(&l);
	free(crlf);
	free(text);
}

#define SDEV_HEAD "naa.600508b1001cf76cb54a0dec4acc6459\n"

static void
test_storage_devices_errors(void **state)
{
	char *text;

	(void)state;
	sdevs_err(" \n", "d", "d: no output in it; expected the output of "
	          "esxcli storage core device list");
	sdevs_err(SDEV_HEAD "   Size: 10\n", "d",
	          "d:1: the block of device naa.600508b1001cf76cb54a0dec4acc6459 "
	          "has no 'Display Name' line; expected the full output of "
	          "esxcli storage core device list");
	sdevs_err(SDEV_HEAD "   Display Name: x\n   Is Boot Device: yes\n", "d",
	          "d:3: Is Boot Device: 'yes' is not true or false");
	sdevs_err(SDEV_HEAD "   Display Name: x\n   Is Local: \n", "d",
	          "d:3: Is Local: '' is not true or false");
	sdevs_err(SDEV_HEAD "   Display Name: x\n" SDEV_HEAD "   Display Name: y\n",
	          "d", "d:3: naa.600508b1001cf76cb54a0dec4acc6459 is listed twice "
	          "(first at line 1)");
	text = sample(VIM_OFF);
	sdevs_err(text, NULL,
	          "line 1: expected a storage name such as "
	          "naa.600508b1001cf76cb54a0dec4acc6459 opening a block, found "
	          "'Retrieved runtime info'; is this the output of esxcli storage "
	          "core device list?");
	free(text);
	/* a path list is not a device list: no Display Name */
	text = sample(ESX_PATHS_KB);
	sdevs_err(text, "p",
	          "p:1: the block of device fc.5001438005685fb5:5001438005685fb4-"
	          "fc.50060... has no 'Display Name' line; expected the full output "
	          "of esxcli storage core device list");
	free(text);
}

/* ---- esxcli storage vmfs extent list ----------------------------------- */

static void
extents_ok(const char *text, const char *name, gw_esxi_vmfs_extent_list *l)
{
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_esxi_parse_vmfs_extents(text, name, l, &e) != 0)
		fail_msg("%s: %s", name ? name : "text", e.msg);
}

static void
extents_err(const char *text, const char *name, const char *msg)
{
	gw_esxi_vmfs_extent_list l;
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_esxi_parse_vmfs_extents(text, name, &l, &e) == 0)
		fail_msg("parsed but should not:\n%s", text);
	assert_string_equal(e.msg, msg);
	assert_int_equal(l.n, 0);
	assert_null(l.extents);
	gw_esxi_vmfs_extent_list_free(&l);
}

static void
check_extent(const gw_esxi_vmfs_extent *x, const char *vol, const char *uuid,
             int ext, const char *dev, int part, unsigned line)
{
	assert_string_equal(x->volume_name, vol);
	if (uuid)
		assert_string_equal(x->vmfs_uuid, uuid);
	else
		assert_null(x->vmfs_uuid);
	assert_int_equal(x->extent_number, ext);
	assert_string_equal(x->device_name, dev);
	assert_int_equal(x->partition, part);
	assert_int_equal(x->line, line);
}

static void
test_vmfs_extents_real_indented(void **state)
{
	gw_esxi_vmfs_extent_list l;
	char *text = sample(ESX_EXT_IBM);

	(void)state;
	extents_ok(text, ESX_EXT_IBM, &l);
	assert_int_equal(l.n, 2);
	check_extent(&l.extents[0], "datastore1",
	             "5f69774e-f1031e44-7bdb-ac1f6bc4b812", 0,
	             "naa.600062b2049d040026fc1e4b2f305682", 3, 3);
	check_extent(&l.extents[1], "iscsi-datastore",
	             "621f425f-0dc2da8a-927b-ac1f6bc4b812", 0,
	             "naa.600a098038305674695d51694b427849", 1, 4);
	gw_esxi_vmfs_extent_list_free(&l);
	gw_esxi_vmfs_extent_list_free(&l);
	free(text);
}

static void
test_vmfs_extents_variations(void **state)
{
	gw_esxi_vmfs_extent_list l;
	char *text = sample(SYN_EXT);

	(void)state;
	extents_ok(text, SYN_EXT, &l);
	assert_int_equal(l.n, 6);
	check_extent(&l.extents[0], "datastore1",
	             "5f69774e-f1031e44-7bdb-ac1f6bc4b812", 0,
	             "naa.600062b2049d040026fc1e4b2f305682", 3, 3);
	check_extent(&l.extents[1], "VM Store 2",
	             "61c0a1e7-5b2d9f10-3c44-ac1f6bc4b812", 0,
	             "naa.5000c500d0a1b4f7", 1, 4);
	check_extent(&l.extents[2], "ISO images (old)  2019",
	             "5d06eb1f-f5cc5f8b-4ebc-00e0ed438c52", 0,
	             "eui.99e91f03b82de449", 1, 5);
	check_extent(&l.extents[3], "span me",
	             "653ccc01-1a2b3c4d-5e6f-00e0ed438c52", 0,
	             "naa.600a098038305674695d51694b427849", 1, 6);
	check_extent(&l.extents[4], "span me",
	             "653ccc01-1a2b3c4d-5e6f-00e0ed438c52", 1,
	             "naa.600a098038305674695d51694b42784a", 1, 7);
	check_extent(&l.extents[5], "OSDATA-693975f2-9139b258-8620-005056b3b989",
	             "693975f2-9139b258-8620-005056b3b989", 0,
	             "mpx.vmhba0:C0:T0:L0", 7, 8);
	gw_esxi_vmfs_extent_list_free(&l);
	free(text);

	/* blanks squeezed (copied from a web page), a prompt line */
	extents_ok("[root@esx:~] esxcli storage vmfs extent list\n"
	           "Volume Name VMFS UUID Extent Number Device Name Partition\n"
	           "----------- --------- ------------- ----------- ---------\n"
	           "VM Store 2 5f69774e-f1031e44-7bdb-ac1f6bc4b812 0 "
	           "naa.600062b2049d040026fc1e4b2f305682 3\n"
	           "ds 5f69774e-f1031e44-7bdb-ac1f6bc4b813 12 t10.x 11\n",
	           "web.txt", &l);
	assert_int_equal(l.n, 2);
	check_extent(&l.extents[0], "VM Store 2",
	             "5f69774e-f1031e44-7bdb-ac1f6bc4b812", 0,
	             "naa.600062b2049d040026fc1e4b2f305682", 3, 4);
	check_extent(&l.extents[1], "ds", "5f69774e-f1031e44-7bdb-ac1f6bc4b813",
	             12, "t10.x", 11, 5);
	gw_esxi_vmfs_extent_list_free(&l);

	/* no datastore: the header alone */
	extents_ok("Volume Name  VMFS UUID  Extent Number  Device Name  Partition\n"
	           "-----------  ---------  -------------  -----------  ---------\n",
	           NULL, &l);
	assert_int_equal(l.n, 0);
	assert_null(l.extents);
	gw_esxi_vmfs_extent_list_free(&l);

	/* other columns, in another order; an empty volume name */
	extents_ok("Device Name  Volume Name  Size\n"
	           "-----------  -----------  ----\n"
	           "naa.1        my ds        10\n"
	           "naa.2                     20\n", NULL, &l);
	assert_int_equal(l.n, 2);
	check_extent(&l.extents[0], "my ds", NULL, -1, "naa.1", -1, 3);
	check_extent(&l.extents[1], "", NULL, -1, "naa.2", -1, 4);
	gw_esxi_vmfs_extent_list_free(&l);
}

static void
test_vmfs_extents_errors(void **state)
{
	char *text;

	(void)state;
	extents_err("", "x", "x: no output in it; expected the output of esxcli "
	            "storage vmfs extent list");
	extents_err("# a note only\n", "x", "x: no output in it; expected the "
	            "output of esxcli storage vmfs extent list");
	text = sample(ESX_PATHS_KB);
	extents_err(text, "x",
	            "x:1: expected the column names 'Volume Name' and 'Device "
	            "Name' of esxcli storage vmfs extent list, found "
	            "'fc.5001438005685fb5:5001438005685fb4-fc.50060...'");
	free(text);
	extents_err("Volume Name  Device Name\n", "x",
	            "x:2: expected a line of dashes under the column names, "
	            "found ''");
	extents_err("Volume Name  Device Name\nds  naa.1\n", "x",
	            "x:2: expected a line of dashes under the column names, "
	            "found 'ds  naa.1'");
	extents_err("Volume Name  VMFS UUID\n-----------  ---------\n", "x",
	            "x:1: expected the column names 'Volume Name' and 'Device "
	            "Name' of esxcli storage vmfs extent list, found 'Volume "
	            "Name  VMFS UUID'");
	extents_err("Volume Name  VMFS UUID  Extent Number  Device Name  Partition\n"
	            "-----------  ---------  -------------  -----------  ---------\n"
	            "ds           u                      0  naa.1              x\n",
	            "x", "x:3: expected a volume name, a device name and numbers "
	            "under the columns of esxcli storage vmfs extent list, found "
	            "'ds           u                      0  naa.1 ...'");
	extents_err("Volume Name  Device Name\n-----------  -----------\n"
	            "ds\n", "x", "x:3: expected a volume name, a device name and "
	            "numbers under the columns of esxcli storage vmfs extent "
	            "list, found 'ds'");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pci_x540_lsi),
		cmocka_unit_test(test_pci_pensando_esxi67),
		cmocka_unit_test(test_pci_synthetic_gpus),
		cmocka_unit_test(test_pci_crlf_no_final_newline),
		cmocka_unit_test(test_pci_variations),
		cmocka_unit_test(test_pci_errors),
		cmocka_unit_test(test_uuid),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_getallvms_real),
		cmocka_unit_test(test_getallvms_synthetic),
		cmocka_unit_test(test_getallvms_errors),
		cmocka_unit_test(test_getallvms_control_name),
		cmocka_unit_test(test_power_state),
		cmocka_unit_test(test_gpus_json_l40s),
		cmocka_unit_test(test_gpus_json_mixed),
		cmocka_unit_test(test_gpus_json_variations),
		cmocka_unit_test(test_gpus_text),
		cmocka_unit_test(test_gpus_read),
		cmocka_unit_test(test_gpus_no_gpu),
		cmocka_unit_test(test_gpus_multi),
		cmocka_unit_test(test_gpus_shared_pci_id),
		cmocka_unit_test(test_gpus_errors),
		cmocka_unit_test(test_storage_paths_kb_unindented),
		cmocka_unit_test(test_storage_paths_synthetic),
		cmocka_unit_test(test_storage_paths_errors),
		cmocka_unit_test(test_storage_devices_real_usb_boot),
		cmocka_unit_test(test_storage_devices_no_boot_field),
		cmocka_unit_test(test_storage_devices_errors),
		cmocka_unit_test(test_vmfs_extents_real_indented),
		cmocka_unit_test(test_vmfs_extents_variations),
		cmocka_unit_test(test_vmfs_extents_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
