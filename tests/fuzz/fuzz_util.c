/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_util.c: the GPU table for the targets that compare with it, and
 * the scratch files of the targets whose parsers read files (fuzz.h). */
#include "fuzz.h"

#ifndef GW_FUZZ_TABLE
#define GW_FUZZ_TABLE "data/gpus.ini"
#endif

static gw_table fz_tab;
static int fz_tab_state;    /* 0 not tried, 1 loaded, -1 failed */

static void
fz_table_free(void)
{
	gw_table_free(&fz_tab);
}

const gw_table *
fz_table(void)
{
	const char *p = getenv("GPUWIZ_TABLE");
	gw_err e;

	if (fz_tab_state == 0) {
		if (p == NULL || *p == '\0')
			p = GW_FUZZ_TABLE;
		if (gw_table_load(&fz_tab, p, &e) != 0) {
			fprintf(stderr, "fuzz: %s\n", e.msg);
			fz_tab_state = -1;
		} else {
			fz_tab_state = 1;
			atexit(fz_table_free);
		}
	}
	return fz_tab_state == 1 ? &fz_tab : NULL;
}

/* ---- the scratch directory (fuzz.h) ----------------------------------- */

#include <unistd.h>

#define FZ_MAX_FILES 8

static char *fz_dir;
static char *fz_files[FZ_MAX_FILES];

static void
fz_scratch_free(void)
{
	for (size_t i = 0; i < FZ_MAX_FILES && fz_files[i]; i++) {
		unlink(fz_files[i]);
		free(fz_files[i]);
	}
	if (fz_dir)
		rmdir(fz_dir);
	free(fz_dir);
}

const char *
fz_scratch_dir(void)
{
	const char *base = getenv("TMPDIR");

	if (fz_dir != NULL)
		return fz_dir;
	fz_dir = gw_xasprintf("%s/gwfuzz-XXXXXX", base && *base ? base : "/tmp");
	if (mkdtemp(fz_dir) == NULL) {
		perror(fz_dir);
		abort();
	}
	atexit(fz_scratch_free);
	return fz_dir;
}

const char *
fz_scratch_path(const char *name)
{
	char *path = gw_xasprintf("%s/%s", fz_scratch_dir(), name);
	size_t i;

	for (i = 0; i < FZ_MAX_FILES && fz_files[i]; i++)
		if (strcmp(fz_files[i], path) == 0)
			break;
	FZ_CHECK(i < FZ_MAX_FILES);
	if (fz_files[i] == NULL)
		fz_files[i] = path;
	else
		free(path);
	return fz_files[i];
}

const char *
fz_scratch_write(const char *name, const uint8_t *data, size_t size)
{
	const char *path = fz_scratch_path(name);
	FILE *f = fopen(path, "wb");

	FZ_CHECK(f != NULL);
	FZ_CHECK(size == 0 || fwrite(data, 1, size, f) == size);
	FZ_CHECK(fclose(f) == 0);
	return path;
}
