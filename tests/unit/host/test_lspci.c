/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_lspci.c: the lspci capture parser (src/host/lspci.h) on every
 * sample in tests/fixtures/lspci (sources in tests/fixtures/README.md),
 * with exact values: the GPUs, their regions (Resizable BAR sizes for
 * unassigned ones, no SR-IOV VF regions), the table rows by id and by
 * name, the MMIO sum and notes; the file and the text routes alike; the
 * errors; and the capture test the wizard uses. */
#include "testutil.h"
#include "lspci.h"
#include "gpus_print.h"

static gw_table table;

#define RTX3090  "lspci/rtx3090-arm-rk3568-bar-unassigned.txt"
#define RTX4060  "lspci/rtx4060ti-16gb-baremetal-rebar.txt"
#define RTX6000  "lspci/rtx6000ada-baremetal-bar64g.txt"
#define SYN_L40S "lspci/synthetic-lspci-D-nnvvv-k-aspeed-2x-l40s-sriov-nic.txt"
#define SYN_NOID "lspci/synthetic-lspci-vvv-crlf-no-ids-matrox-a2-a16-device-2330.txt"
#define SYN_VMM  "lspci/synthetic-lspci-vmm-machine-readable-not-accepted.txt"

#define GiB (1024ull * 1024 * 1024)
#define MiB (1024ull * 1024)

TU_TABLE_GROUP(setup, teardown)

/* The fixture read both ways (the file, streamed; its text): the same
 * list.  Returns the file's. */
static void
read_both(const char *rel, gw_gpu_list *l)
{
	char *path = tu_fixture_path(rel), *text = tu_read_fixture(rel, NULL);
	gw_gpu_list t;
	gw_err e;
	size_t i;
	int k;

	if (gw_lspci_gpu_list_read_file(&table, path, l, &e) != 0)
		fail_msg("%s: %s", rel, e.msg);
	if (gw_lspci_gpu_list_read(&table, text, path, &t, &e) != 0)
		fail_msg("%s (text): %s", rel, e.msg);
	assert_int_equal(t.n, l->n);
	assert_int_equal(t.nnotes, l->nnotes);
	assert_int_equal(t.mmio_known, l->mmio_known);
	assert_int_equal(t.mmio.mmio_gb, l->mmio.mmio_gb);
	for (i = 0; i < l->n; i++) {
		assert_string_equal(t.gpus[i].bdf, l->gpus[i].bdf);
		assert_int_equal(t.gpus[i].nbars, l->gpus[i].nbars);
		for (k = 0; k < l->gpus[i].nbars; k++)
			assert_int_equal(t.gpus[i].bars[k].size,
			                 l->gpus[i].bars[k].size);
	}
	gw_gpu_list_free(&t);
	free(text);
	free(path);
}

static void
assert_bar(const gw_gpu_dev *g, int k, int index, uint64_t size, int is64,
           int pref)
{
	assert_true(k < g->nbars);
	assert_int_equal(g->bars[k].index, index);
	assert_int_equal(g->bars[k].size, size);
	assert_int_equal(g->bars[k].is64, is64);
	assert_int_equal(g->bars[k].pref, pref);
	assert_false(g->bars[k].io);
}

/* lspci -nn -vvv after a shell prompt: ids, subsystem, driver, IOMMU
 * group, the regions with their sizes. */
static void
test_rtx4060_nn(void **state)
{
	gw_gpu_list l;
	const gw_gpu_dev *g;

	(void)state;
	read_both(RTX4060, &l);
	assert_int_equal(l.n, 1);
	g = &l.gpus[0];
	assert_string_equal(g->bdf, "0000:04:00.0");
	assert_int_equal(g->vendor, 0x10de);
	assert_int_equal(g->device, 0x2805);
	assert_true(g->subsys_known);
	assert_int_equal(g->subvendor, 0x1043);
	assert_int_equal(g->subdevice, 0x891b);
	assert_false(g->ids_unread);
	assert_non_null(g->row);
	assert_string_equal(g->row->id, "rtx-4060-ti-16g");
	assert_int_equal(g->vram_gb, 16);
	assert_string_equal(g->driver, "nvidia");
	assert_string_equal(g->group, "18");
	/* Region 5 is I/O ports: kept with its size, io set */
	assert_int_equal(g->nbars, 4);
	assert_bar(g, 0, 0, 16 * MiB, 0, 0);
	assert_bar(g, 1, 1, 16 * GiB, 1, 1);
	assert_bar(g, 2, 3, 32 * MiB, 1, 1);
	assert_int_equal(g->bars[3].index, 5);
	assert_true(g->bars[3].io);
	assert_int_equal(g->bars[3].size, 128);
	assert_true(l.mmio_known);
	assert_int_equal(l.mmio.rule_gb, 32);
	assert_int_equal(l.mmio.bar_gb, 32);
	assert_int_equal(l.mmio.mmio_gb, 32);
	assert_int_equal(l.nnotes, 0);
	gw_gpu_list_free(&l);
}

/* lspci -vvv, no ids: the table row found by the name alone, and said. */
static void
test_rtx6000_by_name(void **state)
{
	gw_gpu_list l;
	const gw_gpu_dev *g;

	(void)state;
	read_both(RTX6000, &l);
	assert_int_equal(l.n, 1);
	g = &l.gpus[0];
	assert_string_equal(g->bdf, "0000:c1:00.0");
	assert_true(g->ids_unread);
	assert_non_null(g->row);
	assert_string_equal(g->row->id, "rtx-6000-ada");
	assert_int_equal(g->vendor, 0x10de);
	assert_int_equal(g->device, 0x26b1);
	assert_false(g->subsys_known);
	assert_int_equal(g->vram_gb, 48);
	assert_bar(g, 1, 1, 64 * GiB, 1, 1);
	assert_int_equal(l.mmio.mmio_gb, 128);
	assert_int_equal(l.nnotes, 1);
	assert_string_equal(l.notes[0], "0000:c1:00.0: no PCI id in the "
	                    "capture; its name matches rtx-6000-ada (10de:26b1) "
	                    "in the GPU table");
	gw_gpu_list_free(&l);
}

/* A domain, [virtual] regions the host left <unassigned>: their sizes
 * from the Physical Resizable BAR's current sizes. */
static void
test_rtx3090_unassigned_rebar(void **state)
{
	gw_gpu_list l;
	const gw_gpu_dev *g;

	(void)state;
	read_both(RTX3090, &l);
	assert_int_equal(l.n, 1);
	g = &l.gpus[0];
	assert_string_equal(g->bdf, "0002:21:00.0");
	assert_int_equal(g->dom, 2);
	assert_int_equal(g->bus, 0x21);
	assert_string_equal(g->row->id, "rtx-3090");
	assert_null(g->driver);           /* only "Kernel modules:" */
	assert_int_equal(g->nbars, 4);    /* 0, 5 sized; 1, 3 from ReBAR */
	assert_bar(g, 0, 0, 16 * MiB, 0, 0);
	assert_true(g->bars[1].io);
	assert_bar(g, 2, 1, 256 * MiB, 1, 1);
	assert_bar(g, 3, 3, 32 * MiB, 1, 1);
	assert_int_equal(l.mmio.rule_gb, 64);
	assert_int_equal(l.mmio.bar_gb, 1);
	assert_int_equal(l.mmio.mmio_gb, 64);
	gw_gpu_list_free(&l);
}

/* -D -nnvvv -k: an on-board ASPEED not counted, a NIC's regions not
 * taken by the GPU before it, the SR-IOV VF regions not taken (nor sized
 * by the Resizable BAR), [disabled] regions counted. */
static void
test_synthetic_l40s(void **state)
{
	gw_gpu_list l;
	const gw_gpu_dev *g;
	size_t i;

	(void)state;
	read_both(SYN_L40S, &l);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.gpus[0].bdf, "0000:02:00.0");
	assert_true(l.gpus[0].onboard);
	assert_int_equal(l.gpus[0].vendor, 0x1a03);
	assert_string_equal(l.gpus[0].driver, "ast");
	for (i = 1; i < 3; i++) {
		g = &l.gpus[i];
		assert_false(g->onboard);
		assert_string_equal(g->row->id, "l40s");
		assert_int_equal(g->subdevice, 0x1851);
		assert_int_equal(g->nbars, 3);
		assert_bar(g, 0, 0, 16 * MiB, 0, 0);
		assert_bar(g, 1, 1, 64 * GiB, 1, 1);
		assert_bar(g, 2, 3, 32 * MiB, 1, 1);
	}
	assert_string_equal(l.gpus[1].bdf, "0000:41:00.0");
	assert_string_equal(l.gpus[1].driver, "nvidia");
	assert_string_equal(l.gpus[2].bdf, "0000:c1:00.0");
	assert_string_equal(l.gpus[2].driver, "vfio-pci");
	assert_string_equal(l.gpus[2].group, "112");
	assert_int_equal(l.total_vram_gb, 96);
	assert_int_equal(l.mmio.mmio_gb, 256);
	assert_int_equal(l.nnotes, 1);
	assert_string_equal(l.notes[0], "0000:02:00.0 (1a03:2000) is an "
	                    "on-board management or virtual display, not "
	                    "counted in the MMIO size");
	gw_gpu_list_free(&l);
}

/* -vvv, CRLF: the Matrox known by its vendor's name, "Device 2330" read
 * as 10de:2330, a name two table rows share sized from its BARs with
 * the note asking for lspci -nnvv; the text output shows "-" for the id
 * it could not read. */
static void
test_synthetic_no_ids(void **state)
{
	gw_gpu_list l;
	const gw_gpu_dev *g;
	gw_buf b;

	(void)state;
	read_both(SYN_NOID, &l);
	assert_int_equal(l.n, 3);
	assert_true(l.gpus[0].onboard);
	assert_int_equal(l.gpus[0].vendor, 0x102b);
	assert_string_equal(l.gpus[0].name,
	                    "Integrated Matrox G200eW3 Graphics Controller");
	g = &l.gpus[1];
	assert_string_equal(g->bdf, "0000:3b:00.0");
	assert_true(g->ids_unread);
	assert_null(g->row);
	assert_int_equal(g->vendor, 0x10de);
	assert_int_equal(g->vram_gb, -1);
	assert_string_equal(g->name, "GA107GL [A2 / A16]");
	assert_bar(g, 1, 1, 16 * GiB, 1, 1);
	g = &l.gpus[2];
	assert_false(g->ids_unread);
	assert_int_equal(g->device, 0x2330);
	assert_string_equal(g->row->id, "h100-sxm");
	assert_bar(g, 1, 1, 128 * GiB, 1, 1);
	assert_true(l.mmio_known);
	assert_int_equal(l.total_vram_gb, 80);
	assert_int_equal(l.mmio.mmio_gb, 256);
	assert_int_equal(l.nnotes, 2);
	assert_string_equal(l.notes[0], "0000:03:00.0 (102b) is an on-board "
	                    "management or virtual display, not counted in the "
	                    "MMIO size");
	assert_string_equal(l.notes[1], "0000:3b:00.0: no PCI id in the "
	                    "capture and its name matches no single GPU of the "
	                    "table: its VRAM is unknown, so its BARs size it; "
	                    "capture lspci -nnvv for the ids");
	memset(&b, 0, sizeof b);
	gw_gpus_output(&b, &l, 0);
	assert_non_null(strstr(b.data, "  0000:3b:00.0  00000:059:00.0  -  "));
	assert_non_null(strstr(b.data, "10de:2330"));
	gw_buf_free(&b);
	gw_gpu_list_free(&l);
}

static void
read_err(const char *text, const char *want)
{
	gw_gpu_list l;
	gw_err e;

	assert_int_equal(gw_lspci_gpu_list_read(&table, text, "x", &l, &e), -1);
	assert_string_equal(e.msg, want);
	assert_int_equal(l.n, 0);
	assert_null(l.gpus);
}

static void
test_errors(void **state)
{
	char *path = tu_fixture_path(SYN_VMM), *want;
	gw_gpu_list l;
	gw_err e;
	static const char nul[] = "41:00.0 3D controller: NVIDIA Corporation "
	                          "AD102GL [L40S]\n\tRegion 1\0x\n";
	char tmp[] = "/tmp/gw-lspci-XXXXXX";
	int fd;

	(void)state;
	read_err("", "x: no lspci device line; expected the output of lspci "
	         "-nnvv (lines like '41:00.0 3D controller [0302]: NVIDIA "
	         "Corporation ...')");
	/* an esxcli listing is no lspci capture */
	read_err("0000:41:00.0\n   Address: 0000:41:00.0\n",
	         "x: no lspci device line; expected the output of lspci -nnvv "
	         "(lines like '41:00.0 3D controller [0302]: NVIDIA "
	         "Corporation ...')");
	assert_int_equal(gw_lspci_gpu_list_read_file(&table, path, &l, &e), -1);
	want = gw_xasprintf("%s: no lspci device line; expected the output of "
	                    "lspci -nnvv (lines like '41:00.0 3D controller "
	                    "[0302]: NVIDIA Corporation ...')", path);
	assert_string_equal(e.msg, want);
	free(want);
	free(path);
	assert_int_equal(gw_lspci_gpu_list_read_file(&table, "", &l, &e), -1);
	assert_string_equal(e.msg, "--lspci-file: no file given");
	assert_int_equal(gw_lspci_gpu_list_read_file(&table, "/nonexistent/x",
	                                             &l, &e), -1);
	assert_string_equal(e.msg, "/nonexistent/x: cannot open: No such file "
	                    "or directory");
	assert_int_equal(gw_lspci_gpu_list_read_file(&table, "/", &l, &e), -1);
	assert_string_equal(e.msg, "/: is a directory, expected a file");
	/* a NUL byte after a good device line */
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, nul, sizeof nul - 1),
	                 (ssize_t)(sizeof nul - 1));
	close(fd);
	assert_int_equal(gw_lspci_gpu_list_read_file(&table, tmp, &l, &e), -1);
	want = gw_xasprintf("%s: binary data (NUL byte); expected the text "
	                    "output of lspci -nnvv", tmp);
	assert_string_equal(e.msg, want);
	assert_int_equal(l.n, 0);
	free(want);
	unlink(tmp);
}

/* No display device is no error: the list is empty. */
static void
test_no_display(void **state)
{
	gw_gpu_list l;
	gw_err e;

	(void)state;
	assert_int_equal(gw_lspci_gpu_list_read(&table,
	    "00:1f.2 SATA controller [0106]: Intel Corporation C620 [8086:a182]\n"
	    "\tRegion 5: Memory at 92e00000 (32-bit, non-prefetchable) [size=2K]\n",
	    "x", &l, &e), 0);
	assert_int_equal(l.n, 0);
	assert_string_equal(l.source, "x");
	gw_gpu_list_free(&l);
}

static void
test_is_capture(void **state)
{
	char *t;

	(void)state;
	t = tu_read_fixture(RTX4060, NULL);
	assert_true(gw_lspci_is_capture(t));
	free(t);
	t = tu_read_fixture(SYN_NOID, NULL);
	assert_true(gw_lspci_is_capture(t));
	free(t);
	t = tu_read_fixture(SYN_VMM, NULL);
	assert_false(gw_lspci_is_capture(t));
	free(t);
	t = tu_read_fixture("esxcli/synthetic-hardware-pci-list-esxi8-aspeed-"
	                    "l40s-vmpassthru-b200-unknown-vram.txt", NULL);
	assert_false(gw_lspci_is_capture(t));
	free(t);
	assert_false(gw_lspci_is_capture(""));
	assert_false(gw_lspci_is_capture("41:00.0\n"));
	assert_true(gw_lspci_is_capture("  41:00.0 3D controller: x\n"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtx4060_nn),
		cmocka_unit_test(test_rtx6000_by_name),
		cmocka_unit_test(test_rtx3090_unassigned_rebar),
		cmocka_unit_test(test_synthetic_l40s),
		cmocka_unit_test(test_synthetic_no_ids),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_no_display),
		cmocka_unit_test(test_is_capture),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
