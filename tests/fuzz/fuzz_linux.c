/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_linux.c: what gpuwiz check and gpuwiz verify read from /proc and
 * /sys (src/host/linux_parse.c, the parsers the readers of linux.c,
 * linux_checks.c, linux_irq.c and linux_guest.c feed with each file):
 * the input is each of those files in turn: /proc/cpuinfo (the vmx and
 * svm flags), /proc/cmdline (the IOMMU words), /proc/interrupts and
 * /proc/bus/pci/devices (as streams), an IOMMU unit's ecap, a sysfs hex
 * value, /proc/driver/nvidia/version, and a GPU's sysfs resource file
 * and config space, which then
 * go through gpuwiz verify's checks of the guest (gw_live_checks) as an
 * L40S's.  The seeds are in tests/fuzz/linux-seeds (files of the sample
 * hosts' trees as gpuwiz writes them; README.md).  Invariants: a hex value
 * is -1 or not negative; ecap's bit is -1, 0 or 1; the remapped chips are
 * named as the row names them; a PCI function's bus and devfn fit 16
 * bits; a driver version has a dot; at most six resource lines. */
#include "fuzz.h"
#include "linux_int.h"
#include "verify_live.h"

static const char *const fz_words[] = {
	"intel_iommu=on", "intel_iommu=off", "amd_iommu=on", "amd_iommu=off",
	"iommu=off", "iommu=pt", "vfio-pci.ids=10de:26b9"
};

static void
fz_interrupts(const uint8_t *data, size_t size)
{
	FILE *f;
	char *kinds = NULL;

	if (size == 0)
		return;         /* fmemopen refuses an empty buffer */
	f = fmemopen((void *)data, size, "r");
	FZ_CHECK(f != NULL);
	if (gw_linux_scan_interrupts(f, &kinds) == 0 && kinds != NULL)
		FZ_CHECK(strcmp(kinds, "IR-PCI-MSI") == 0 ||
		         strcmp(kinds, "IR-IO-APIC") == 0 ||
		         strcmp(kinds, "IR-PCI-MSI, IR-IO-APIC") == 0);
	free(kinds);
	fclose(f);
}

static void
fz_pci_devices(const uint8_t *data, size_t size)
{
	FILE *f;
	unsigned *keys;
	size_t n, i, max;
	int dup;

	if (size == 0)
		return;         /* fmemopen refuses an empty buffer */
	f = fmemopen((void *)data, size, "r");
	FZ_CHECK(f != NULL);
	/* the first eight lines, then all of them */
	for (max = 8;; max = 0) {
		int r = gw_linux_scan_pci_devices(f, max, &keys, &n, &dup);

		if (r >= 0) {
			FZ_CHECK(r == 0 || max > 0);
			FZ_CHECK(dup == 0 || n > 0);
			FZ_CHECK(max == 0 || n <= max);
			for (i = 0; i < n; i++)
				FZ_CHECK(keys[i] <= 0xffff);
		} else {
			FZ_CHECK(keys == NULL && n == 0);
		}
		free(keys);
		if (max == 0)
			break;
		rewind(f);
	}
	fclose(f);
}

static void
fz_guest(const uint8_t *data, size_t size, char *text)
{
	const gw_table *t = fz_table();
	gw_live_gpu g;
	gw_live_sys l;
	gw_verify v;

	memset(&g, 0, sizeof g);
	memset(&l, 0, sizeof l);
	g.bdf = (char *)"0000:3b:00.0";
	g.vendor = 0x10de;
	g.device = 0x26b9;
	g.cls = 0x030200;
	g.row = t ? gw_table_lookup(t, "l40s", NULL) : NULL;
	g.driver = (char *)"nvidia";
	gw_live_parse_resource(&g, text);
	FZ_CHECK(g.nres >= 0 && g.nres <= 6);
	gw_live_parse_config(&g, (const char *)data, size);
	FZ_CHECK(g.cfg_ok == (size >= 0x28));
	for (int k = 0; k < 6; k++)
		(void)gw_live_upper_half(&g, k);
	l.root = (char *)"";
	l.gpus = &g;
	l.ngpus = 1;
	l.version_text = text;
	l.driver_version = gw_live_nvrm_version(text);
	if (l.driver_version)
		FZ_CHECK(strchr(l.driver_version, '.') != NULL);
	l.cmdline = text;
	gw_live_checks(&l, &v);
	gw_verify_free(&v);
	free(l.driver_version);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size), *copy;
	long hex;
	int ir;

	(void)gw_linux_cpu_has_flag(text, "vmx");
	(void)gw_linux_cpu_has_flag(text, "svm");
	for (size_t i = 0; i < sizeof fz_words / sizeof fz_words[0]; i++)
		(void)gw_linux_has_word(text, fz_words[i]);
	fz_interrupts(data, size);
	fz_pci_devices(data, size);
	copy = gw_xstrdup(text);
	ir = gw_linux_ecap_ir(copy);
	FZ_CHECK(ir >= -1 && ir <= 1);
	free(copy);
	copy = gw_xstrdup(text);
	hex = gw_linux_parse_hex(copy);
	FZ_CHECK(hex >= -1);
	free(copy);
	fz_guest(data, size, text);
	free(text);
	return 0;
}
