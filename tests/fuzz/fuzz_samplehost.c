/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_samplehost.c: a sample host's host.ini (src/host/samplehost_ini.c,
 * samplehost_dev.c, read through src/core/ini.c and iniparser), as
 * gw_sample_open reads it (smp_read_host); the input is written to a
 * scratch file (iniparser reads files only).  A linux sample that reads is
 * then written out as its /proc and /sys tree (smp_materialise_linux) and
 * read back the ways gpuwiz does: gpuwiz check (gw_linux_checks), the GPU
 * list through libpci (gw_linux_gpus) and gpuwiz verify on the guest
 * (gw_live_scan, gw_live_checks).  The seeds are data/hosts/NAME/host.ini.
 * Invariants: a host.ini that reads writes its
 * tree, and each reader takes that tree; every row has an id and a title;
 * the NVIDIA display functions the file lists are the ones verify
 * finds. */
#include "fuzz.h"
#include "samplehost_int.h"
#include "linux.h"
#include "verify_live.h"

#include <sys/stat.h>

static void
fz_read_tree(const shost *h, const char *root)
{
	gw_finding *rows = NULL;
	gw_gpu_dev *gpus = NULL;
	size_t n = 0, ngpus = 0, nv = 0;
	gw_live_sys l;
	gw_verify v;
	gw_err e;

	FZ_CHECK(gw_linux_checks(root, &rows, &n, &e) == 0);
	for (size_t i = 0; i < n; i++)
		FZ_CHECK(rows[i].id != NULL && rows[i].title != NULL);
	gw_linux_checks_free(rows, n);
	if (gw_linux_gpus(fz_table(), root, &gpus, &ngpus, &e) == 0)
		gw_gpu_devs_free(gpus, ngpus);
	FZ_CHECK(gw_live_scan(&l, fz_table(), root, &e) == 0);
	for (size_t i = 0; i < h->ndevs; i++)
		if (h->devs[i].vendor == 0x10de &&
		    (h->devs[i].cls >> 16) == 0x03)
			nv++;
	FZ_CHECK(l.ngpus == nv);
	gw_live_checks(&l, &v);
	gw_verify_free(&v);
	gw_live_free(&l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_scratch_write("host.ini", data, size);
	const char *scratch = fz_scratch_path("tree");
	const char *title = NULL, *kind = NULL;
	dictionary *d = NULL;
	shost h;
	gw_err e;

	e.msg[0] = '\0';
	if (smp_read_host(path, &d, &title, &kind, &h, &e) != 0) {
		FZ_CHECK(e.msg[0] != '\0');
	} else if (strcmp(kind, "linux") == 0) {
		char *root = gw_xasprintf("%s/root", scratch);

		FZ_CHECK(title != NULL);
		smp_rm_tree(scratch);
		FZ_CHECK(mkdir(scratch, 0700) == 0);
		if (smp_materialise_linux(scratch, &h, &e) != 0) {
			fprintf(stderr, "fuzz: a host.ini that reads does not "
			        "write its tree: %s\n", e.msg);
			abort();
		}
		fz_read_tree(&h, root);
		smp_rm_tree(scratch);
		free(root);
	}
	free(h.devs);
	if (d)
		iniparser_freedict(d);
	return 0;
}
