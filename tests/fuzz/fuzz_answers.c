/* fuzz_answers.c: the answers file (src/core/answers.c, read through
 * src/core/ini.c and iniparser), as tests/unit/core/test_answers.c calls
 * it: the input is written to a file in a scratch directory (iniparser
 * reads files only) and loaded against the GPU table.  Invariant: what
 * loads saves (gw_answers_save, the wizard's "save answers") to a file
 * that loads again. */
#include "fuzz.h"
#include "answers.h"

#include <unistd.h>

static char *fz_dir, *fz_in, *fz_out;

static void
fz_cleanup(void)
{
	if (fz_in)
		unlink(fz_in);
	if (fz_out)
		unlink(fz_out);
	if (fz_dir)
		rmdir(fz_dir);
	free(fz_in);
	free(fz_out);
	free(fz_dir);
}

static int
fz_setup(void)
{
	const char *base = getenv("TMPDIR");

	if (fz_dir != NULL)
		return 0;
	fz_dir = gw_xasprintf("%s/gwfuzz-XXXXXX", base && *base ? base : "/tmp");
	if (mkdtemp(fz_dir) == NULL) {
		perror(fz_dir);
		abort();
	}
	fz_in = gw_xasprintf("%s/a.ini", fz_dir);
	fz_out = gw_xasprintf("%s/saved.ini", fz_dir);
	atexit(fz_cleanup);
	return 0;
}

static void
fz_write(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	FZ_CHECK(f != NULL);
	FZ_CHECK(size == 0 || fwrite(data, 1, size, f) == size);
	FZ_CHECK(fclose(f) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const gw_table *t = fz_table();
	gw_answers_file af, again;
	gw_err e;

	if (t == NULL)
		return 0;
	fz_setup();
	fz_write(fz_in, data, size);
	if (gw_answers_load(&af, fz_in, t, &e) == 0) {
		FZ_CHECK(gw_answers_save(&af, fz_out, &e) == 0);
		if (gw_answers_load(&again, fz_out, t, &e) != 0) {
			fprintf(stderr, "saved answers do not load: %s\n", e.msg);
			abort();
		}
		gw_answers_file_free(&again);
	}
	gw_answers_file_free(&af);
	return 0;
}
