/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_apply.c: a write (gw_apply_stage_begin, then _commit) puts every
 * format and the .vmx in place, all or nothing. */

/* GCC 12 misreports -Wdangling-pointer in testutil.h's tu_read_sample()
 * once inlined (see test_plan.c); silenced for this file only. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
#include "testutil.h"
#include "answers.h"
#include "apply.h"
#include "emit.h"
#include "gputable.h"
#include "plan.h"
#include "vmx.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define SAMPLE "vmx/ws-win10-efi-windows1251.vmx"
#define ALL (GW_FMT_VMX | GW_FMT_BOSH | GW_FMT_OPSMAN | GW_FMT_TILE)

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

/* ---- helpers ------------------------------------------------------------ */

static void
write_bytes(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* The whole write as the session runs it with no host change between
 * the halves: begin, commit, end.  *r is initialised either way. */
static int
apply_all(const gw_answers_file *af, const gw_plan *p, gw_vmx *v, int force,
          gw_apply_result *r, gw_err *e)
{
	gw_apply_stage *st;
	int rc;

	memset(r, 0, sizeof *r);
	if (gw_apply_stage_begin(af, p, NULL, v, NULL, force, &st, e) != 0)
		return -1;
	rc = gw_apply_stage_commit(st, r, e);
	gw_apply_stage_end(st);
	return rc;
}

static int
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int
same_bytes(const char *path, const char *data, size_t len)
{
	char *got = NULL;
	size_t n = 0;
	gw_err e;
	int same;

	if (gw_read_file(path, 64u << 20, &got, &n, &e) != 0)
		return 0;
	same = n == len && memcmp(got, data, len) == 0;
	free(got);
	return same;
}

/* Number of entries in dir whose name contains part ("" = all). */
static int
count_entries(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strstr(de->d_name, part))
			n++;
	closedir(d);
	return n;
}

/* One test's world: a temp dir with vm.vmx (the sample), answers for
 * l40s=2 with the given output dir and formats, the document and plan. */
typedef struct world {
	char *dir;
	char *vmx_path;
	char *orig;
	size_t orig_len;
	gw_answers_file af;
	gw_vmx *v;
	gw_plan p;
} world;

static void
world_init(world *w, const char *out_rel, int formats, int with_vmx)
{
	gw_err e;

	memset(w, 0, sizeof *w);
	w->dir = tu_tmpdir();
	w->vmx_path = gw_xasprintf("%s/vm.vmx", w->dir);
	w->orig = tu_read_sample(SAMPLE, &w->orig_len);
	write_bytes(w->vmx_path, w->orig, w->orig_len);
	gw_answers_init(&w->af.a);
	if (gw_answers_add_gpu(&w->af.a, &table, "l40s=2", "test", &e) != 0)
		fail_msg("%s", e.msg);
	w->af.a.esxi_version = gw_xstrdup("8.0U2");
	w->af.formats = formats;
	if (out_rel)
		w->af.out_dir = out_rel[0] == '/' ? gw_xstrdup(out_rel)
		                                  : gw_xasprintf("%s/%s", w->dir, out_rel);
	if (with_vmx) {
		w->af.vmx_path = gw_xstrdup(w->vmx_path);
		if (gw_vmx_load(&w->v, w->vmx_path, &e) != 0)
			fail_msg("%s", e.msg);
	}
	if (gw_plan_build(&w->af.a, &table, w->v, &w->p, &e) != 0)
		fail_msg("%s", e.msg);
}

static void
world_free(world *w)
{
	gw_plan_free(&w->p);
	gw_vmx_free(w->v);
	gw_answers_file_free(&w->af);
	tu_rm_tree(w->dir);
	free(w->dir);
	free(w->vmx_path);
	free(w->orig);
}

/* ---- tests ----------------------------------------------------------------- */


/* The files the review and write steps list are the ones a write puts:
 * the formats chosen, and the NCCL check for a VM of two GPUs or more. */
static void
test_outputs_listed(void **state)
{
	world w;
	gw_apply_result r;
	gw_err e;
	size_t n, i;
	char **v;

	(void)state;
	world_init(&w, "out", GW_FMT_VMX | GW_FMT_TILE, 0);
	v = gw_apply_outputs(&w.af, &w.p, &n);
	assert_int_equal(n, 3);
	assert_true(strstr(v[0], "/out/gpuwiz.vmx.txt") != NULL);
	assert_true(strstr(v[1], "/out/tile-vm-type.yml") != NULL);
	assert_true(strstr(v[2], "/out/" GW_NCCL_CHECK_FILE) != NULL);
	assert_int_equal(apply_all(&w.af, &w.p, NULL, 0, &r, &e), 0);
	for (i = 0; i < n; i++)
		assert_true(exists(v[i]));
	gw_apply_result_free(&r);
	gw_strs_free(v, n);
	world_free(&w);

	/* no formats: nothing listed */
	world_init(&w, NULL, 0, 0);
	assert_null(gw_apply_outputs(&w.af, &w.p, &n));
	assert_int_equal(n, 0);
	world_free(&w);
}
static void
test_all_formats_and_vmx(void **state)
{
	static const char *const names[] = { "gpuwiz.vmx.txt",
	                                     "bosh-vm-extension.yml",
	                                     "opsman-vm-extension.json",
	                                     "tile-vm-type.yml" };
	gw_apply_result r;
	world w;
	gw_err e;
	char *out, *text = NULL;
	size_t i, n;

	(void)state;
	world_init(&w, "out/deeper", ALL, 1);
	assert_int_equal(apply_all(&w.af, &w.p, w.v, 0, &r, &e), 0);
	/* the four formats, then the NCCL check: the plan has 2 GPUs */
	assert_int_equal(r.nwritten, 5);
	out = gw_xasprintf("%s/out/deeper", w.dir);
	{
		char *want = gw_xasprintf("%s/%s", out, GW_NCCL_CHECK_FILE);

		assert_string_equal(r.written[4], want);
		free(want);
	}
	for (i = 0; i < 4; i++) {
		char *want = gw_xasprintf("%s/%s", out, names[i]);

		assert_string_equal(r.written[i], want);
		assert_true(exists(want));
		free(want);
	}
	/* only the five files: no temporaries left behind */
	assert_int_equal(count_entries(out, ""), 5);
	/* the .vmx is patched, with a backup of the original bytes */
	assert_string_equal(r.vmx_path, w.vmx_path);
	assert_non_null(r.backup);
	assert_false(r.vmx_unchanged);
	assert_true(same_bytes(r.backup, w.orig, w.orig_len));
	assert_int_equal(gw_read_file(w.vmx_path, 1u << 20, &text, &n, &e), 0);
	assert_non_null(strstr(text, "pciPassthru.64bitMMIOSizeGB = \"256\""));
	free(text);
	/* and so is the caller's document */
	assert_string_equal(gw_vmx_get(w.v, "pciPassthru.64bitMMIOSizeGB"), "256");
	/* the snippet files hold what the emitters make */
	{
		char *want = NULL;

		assert_int_equal(gw_emit(GW_FMT_BOSH, &w.p, &want, &e), 0);
		assert_true(same_bytes(r.written[1], want, strlen(want)));
		free(want);
	}
	gw_apply_result_free(&r);
	assert_null(r.written);
	free(out);
	world_free(&w);
}

static void
test_locked_vmx_writes_nothing(void **state)
{
	gw_apply_result r;
	world w;
	gw_err e;
	char *lck, *inner, *out;

	(void)state;
	world_init(&w, "out", GW_FMT_VMX | GW_FMT_BOSH, 1);
	lck = gw_xasprintf("%s.lck", w.vmx_path);
	assert_int_equal(mkdir(lck, 0755), 0);
	inner = gw_xasprintf("%s/M12345.lck", lck);
	write_bytes(inner, "", 0);
	e.msg[0] = '\0';
	assert_int_equal(apply_all(&w.af, &w.p, w.v, 0, &r, &e), -1);
	assert_non_null(strstr(e.msg, w.vmx_path));
	assert_non_null(strstr(e.msg, "powered on"));
	assert_null(strchr(e.msg, '\n'));
	out = gw_xasprintf("%s/out", w.dir);
	assert_false(exists(out));
	assert_true(same_bytes(w.vmx_path, w.orig, w.orig_len));
	assert_int_equal(count_entries(w.dir, ".bak"), 0);
	assert_null(gw_vmx_get(w.v, "pciPassthru.64bitMMIOSizeGB"));
	assert_int_equal(r.nwritten, 0);
	assert_null(r.vmx_path);
	gw_apply_result_free(&r);

	/* forced: written despite the lock */
	assert_int_equal(apply_all(&w.af, &w.p, w.v, 1, &r, &e), 0);
	assert_int_equal(r.nwritten, 3);  /* two formats + nccl_check.py */
	assert_non_null(r.backup);
	gw_apply_result_free(&r);
	free(out);
	free(inner);
	free(lck);
	world_free(&w);
}

static void
test_outdir_blocked_by_file(void **state)
{
	gw_apply_result r;
	world w;
	gw_err e;
	char *blocker;

	(void)state;
	world_init(&w, "blocker/out", ALL, 1);
	blocker = gw_xasprintf("%s/blocker", w.dir);
	write_bytes(blocker, "x", 1);
	e.msg[0] = '\0';
	assert_int_equal(apply_all(&w.af, &w.p, w.v, 0, &r, &e), -1);
	assert_non_null(strstr(e.msg, blocker));
	assert_non_null(strstr(e.msg, "not a directory"));
	assert_true(same_bytes(w.vmx_path, w.orig, w.orig_len));
	assert_true(same_bytes(blocker, "x", 1));
	assert_int_equal(count_entries(w.dir, ".bak"), 0);
	assert_null(gw_vmx_get(w.v, "pciPassthru.64bitMMIOSizeGB"));
	gw_apply_result_free(&r);
	free(blocker);
	world_free(&w);
}

/* A failure after the directories were made (a temporary whose path is too
 * long): the directories this call created go, the one that was there
 * stays with what it held. */
static void
test_new_dirs_removed_existing_kept(void **state)
{
	gw_apply_result r;
	world w;
	gw_err e;
	gw_buf deep;
	char *existing, *keepme, *first;
	size_t seg = 0;

	(void)state;
	world_init(&w, NULL, ALL, 1);
	existing = gw_xasprintf("%s/existing", w.dir);
	assert_int_equal(mkdir(existing, 0755), 0);
	keepme = gw_xasprintf("%s/keep.txt", existing);
	write_bytes(keepme, "keep", 4);
	/* existing/dddd.../dddd...: short enough to create (< PATH_MAX), too
	 * long for "<dir>/gpuwiz.vmx.txt.gpuwiz-XXXXXX" */
	gw_buf_init(&deep);
	gw_buf_puts(&deep, existing);
	while (deep.len < 4070) {
		size_t room = 4070 - deep.len - 1, k;
		char part[201];

		if (room > 200)
			room = 200;
		if (room == 0)
			break;
		for (k = 0; k < room; k++)
			part[k] = (char)('a' + seg % 26);
		part[room] = '\0';
		gw_buf_printf(&deep, "/%s", part);
		seg++;
	}
	assert_true(deep.len >= 4060 && deep.len < 4090);
	w.af.out_dir = gw_buf_steal(&deep);
	e.msg[0] = '\0';
	assert_int_equal(apply_all(&w.af, &w.p, w.v, 0, &r, &e), -1);
	/* names the file (the long path fills the 1024-byte message) */
	assert_int_equal(strncmp(e.msg, existing, strlen(existing)), 0);
	assert_true(exists(existing));
	assert_true(same_bytes(keepme, "keep", 4));
	assert_int_equal(count_entries(existing, ""), 1);   /* keep.txt only */
	first = gw_xasprintf("%s/%c", existing, 'a');
	assert_false(exists(first));
	assert_true(same_bytes(w.vmx_path, w.orig, w.orig_len));
	assert_int_equal(count_entries(w.dir, ".bak"), 0);
	gw_apply_result_free(&r);
	free(first);
	free(keepme);
	free(existing);
	world_free(&w);
}

/* A rename that fails after the .vmx was saved: the .vmx goes back to its
 * original bytes, the files published by this call are removed. */
static void
test_late_failure_restores_vmx(void **state)
{
	gw_apply_result r;
	world w;
	gw_err e;
	char *out, *trap;

	(void)state;
	world_init(&w, "out", ALL, 1);
	out = gw_xasprintf("%s/out", w.dir);
	assert_int_equal(mkdir(out, 0755), 0);
	trap = gw_xasprintf("%s/tile-vm-type.yml", out);
	assert_int_equal(mkdir(trap, 0755), 0);      /* rename onto it fails */
	e.msg[0] = '\0';
	assert_int_equal(apply_all(&w.af, &w.p, w.v, 0, &r, &e), -1);
	assert_non_null(strstr(e.msg, "tile-vm-type.yml"));
	assert_true(same_bytes(w.vmx_path, w.orig, w.orig_len));
	assert_int_equal(count_entries(w.dir, ".bak"), 0);
	assert_true(exists(out));
	assert_int_equal(count_entries(out, ""), 1);   /* only the trap */
	assert_null(gw_vmx_get(w.v, "pciPassthru.64bitMMIOSizeGB"));
	gw_apply_result_free(&r);
	free(trap);
	free(out);
	world_free(&w);
}

static void
test_vmx_up_to_date(void **state)
{
	gw_apply_result r;
	gw_vmx *v2 = NULL;
	gw_plan p2;
	world w;
	gw_err e;

	(void)state;
	world_init(&w, NULL, 0, 1);
	assert_int_equal(apply_all(&w.af, &w.p, w.v, 0, &r, &e), 0);
	assert_false(r.vmx_unchanged);
	assert_int_equal(r.nwritten, 0);
	gw_apply_result_free(&r);
	assert_int_equal(count_entries(w.dir, ".bak"), 1);

	/* the same answers against the patched file: nothing to change */
	assert_int_equal(gw_vmx_load(&v2, w.vmx_path, &e), 0);
	assert_int_equal(gw_plan_build(&w.af.a, &table, v2, &p2, &e), 0);
	assert_int_equal(apply_all(&w.af, &p2, v2, 0, &r, &e), 0);
	assert_true(r.vmx_unchanged);
	assert_string_equal(r.vmx_path, w.vmx_path);
	assert_null(r.backup);
	assert_int_equal(count_entries(w.dir, ".bak"), 1);
	gw_apply_result_free(&r);
	gw_plan_free(&p2);
	gw_vmx_free(v2);
	world_free(&w);
}

static void
test_snippets_only_and_nothing(void **state)
{
	gw_apply_result r;
	world w;
	gw_err e;

	(void)state;
	world_init(&w, "snips", GW_FMT_VMX | GW_FMT_OPSMAN, 0);
	assert_int_equal(apply_all(&w.af, &w.p, NULL, 0, &r, &e), 0);
	assert_int_equal(r.nwritten, 3);  /* two formats + nccl_check.py */
	assert_null(r.vmx_path);
	assert_null(r.backup);
	assert_true(same_bytes(w.vmx_path, w.orig, w.orig_len));
	gw_apply_result_free(&r);

	/* no format: the NCCL check of the 2+ GPUs alone */
	w.af.formats = 0;
	assert_int_equal(apply_all(&w.af, &w.p, NULL, 0, &r, &e), 0);
	assert_int_equal(r.nwritten, 1);
	assert_non_null(strstr(r.written[0], GW_NCCL_CHECK_FILE));
	gw_apply_result_free(&r);

	/* nothing to write at all: no format, no directory, no .vmx */
	free(w.af.out_dir);
	w.af.out_dir = NULL;
	e.msg[0] = '\0';
	assert_int_equal(apply_all(&w.af, &w.p, NULL, 0, &r, &e), -1);
	assert_non_null(strstr(e.msg, "nothing to write"));
	gw_apply_result_free(&r);

	/* formats without a directory */
	w.af.formats = GW_FMT_VMX;
	free(w.af.out_dir);
	w.af.out_dir = NULL;
	assert_int_equal(apply_all(&w.af, &w.p, NULL, 0, &r, &e), -1);
	assert_non_null(strstr(e.msg, "output directory"));
	gw_apply_result_free(&r);
	world_free(&w);
}

/* An emitter's refusal writes nothing: no directory, .vmx untouched. */
static void
test_render_failure_writes_nothing(void **state)
{
	gw_apply_result r;
	world w;
	gw_err e;
	char *out;

	(void)state;
	world_init(&w, "out", ALL, 1);
	/* two models: the tile cannot hold them */
	gw_plan_free(&w.p);
	if (gw_answers_add_gpu(&w.af.a, &table, "a100-80g-pcie", "test", &e) != 0 ||
	    gw_plan_build(&w.af.a, &table, w.v, &w.p, &e) != 0)
		fail_msg("%s", e.msg);
	e.msg[0] = '\0';
	assert_int_equal(apply_all(&w.af, &w.p, w.v, 0, &r, &e), -1);
	assert_true(e.msg[0] != '\0');
	out = gw_xasprintf("%s/out", w.dir);
	assert_false(exists(out));
	assert_true(same_bytes(w.vmx_path, w.orig, w.orig_len));
	gw_apply_result_free(&r);
	free(out);
	world_free(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_formats_and_vmx),
		cmocka_unit_test(test_outputs_listed),
		cmocka_unit_test(test_locked_vmx_writes_nothing),
		cmocka_unit_test(test_outdir_blocked_by_file),
		cmocka_unit_test(test_new_dirs_removed_existing_kept),
		cmocka_unit_test(test_late_failure_restores_vmx),
		cmocka_unit_test(test_vmx_up_to_date),
		cmocka_unit_test(test_snippets_only_and_nothing),
		cmocka_unit_test(test_render_failure_writes_nothing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
