/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_formats.c: the output format registry (src/report/formats.def), row
 * by row: every row has its words, an emitter that renders a real plan
 * (the L40S on the Windows 10 sample .vmx, from data/gpus.ini), next
 * steps that name its file, a label the zh_CN catalogue translates, and
 * a name the answers file and --format accept. */
#include "testutil.h"
#include "answers.h"
#include "emit.h"
#include "gputable.h"
#include "plan.h"
#include "vmx.h"

#include <locale.h>
#include <libintl.h>

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

/* A plan gpuwiz would make: one passthrough L40S for the sample .vmx. */
static void
real_plan(gw_plan *p, gw_vmx **v)
{
	gw_answers a;
	char *path = tu_fixture_path("vmx/ws-win10-efi-windows1251.vmx");
	gw_err e;

	gw_answers_init(&a);
	if (gw_answers_add_gpu(&a, &table, "l40s=1", "test", &e) != 0 ||
	    gw_vmx_load(v, path, &e) != 0)
		fail_msg("%s", e.msg);
	a.esxi_version = gw_xstrdup("8.0U2");
	if (gw_plan_build(&a, &table, *v, p, &e) != 0)
		fail_msg("%s", e.msg);
	gw_answers_free(&a);
	free(path);
}

/* The bits are the rows' positions: distinct, one each, all of
 * GW_FMT_ALL, in the order the list shows. */
static void
test_rows(void **state)
{
	const char *list = gw_format_list();
	int all = 0;
	size_t i;

	(void)state;
	assert_true(GW_NFORMATS >= 6);
	for (i = 0; i < GW_NFORMATS; i++) {
		const gw_format_def *f = &gw_formats[i];

		assert_int_equal(f->bit, 1 << i);
		assert_ptr_equal(gw_format_def_of(f->bit), f);
		assert_non_null(f->name);
		assert_true(f->name[0] != '\0');
		assert_non_null(f->filename);
		assert_non_null(strchr(f->filename, '.'));
		assert_null(strchr(f->filename, '/'));
		assert_non_null(f->label);
		assert_non_null(f->holds);
		assert_non_null(f->emit);
		assert_non_null(f->next);
		assert_string_equal(gw_format_name(f->bit), f->name);
		assert_string_equal(gw_format_filename(f->bit), f->filename);
		assert_non_null(strstr(list, f->name));
		all |= f->bit;
	}
	assert_int_equal(all, GW_FMT_ALL);
	assert_null(gw_format_def_of(0));
	assert_null(gw_format_def_of(GW_FMT_VMX | GW_FMT_BOSH));
}

/* Each audience gets its own outputs by default: a VM's .vmx the .vmx
 * lines alone, a Tanzu VM type BOSH, Ops Manager and the tile; om and
 * Ansible only when asked for. */
static void
test_defaults_per_audience(void **state)
{
	(void)state;
	assert_int_equal(gw_format_defaults(GW_AUD_VM), GW_FMT_VMX);
	assert_int_equal(gw_format_defaults(GW_AUD_TANZU),
	                 GW_FMT_BOSH | GW_FMT_OPSMAN | GW_FMT_TILE);
	assert_int_equal(gw_format_defaults(GW_AUD_VM | GW_AUD_TANZU),
	                 GW_FMT_VMX | GW_FMT_BOSH | GW_FMT_OPSMAN |
	                 GW_FMT_TILE);
	assert_int_equal(gw_format_defaults(0), 0);
}

/* What the outputs do to the VM themselves is what every one of them
 * does: any .vmx lines among them need the memory size and the upgrade;
 * the BOSH CPI's outputs lock the reservation and upgrade the hardware,
 * Ansible's playbook only locks the reservation. */
static void
test_outputs_do(void **state)
{
	/* and add their passthrough GPUs by vendor and device id: Dynamic
	 * DirectPath I/O (doc/design.md, section 15.4) */
	const unsigned both = GW_OUT_LOCKS_MEM | GW_OUT_UPGRADES_HW |
	                      GW_OUT_DYNAMIC;

	(void)state;
	assert_int_equal(gw_formats_do(0), 0);
	assert_int_equal(gw_formats_do(GW_FMT_VMX), 0);
	assert_int_equal(gw_formats_do(GW_FMT_VMX | GW_FMT_BOSH), 0);
	assert_int_equal(gw_formats_do(GW_FMT_BOSH | GW_FMT_OPSMAN |
	                               GW_FMT_TILE), both);
	assert_int_equal(gw_formats_do(GW_FMT_TILE), both);
	assert_int_equal(gw_formats_do(GW_FMT_OM), both);
	assert_int_equal(gw_formats_do(GW_FMT_ANSIBLE | GW_FMT_OM),
	                 GW_OUT_LOCKS_MEM);
}

/* Each name is accepted by --format's parser and by the answers file's
 * [output] formats (read by gw_answers_load, written back by
 * gw_answers_save). */
static void
test_names_parse(void **state)
{
	char *dir = tu_tmpdir(), *ini = gw_xasprintf("%s/a.ini", dir);
	char *again = gw_xasprintf("%s/b.ini", dir);
	size_t i;

	(void)state;
	for (i = 0; i < GW_NFORMATS; i++) {
		const gw_format_def *f = &gw_formats[i];
		gw_answers_file af, af2;
		gw_err e;
		FILE *fp = fopen(ini, "w");

		assert_int_equal(gw_format_parse(f->name), f->bit);
		assert_non_null(fp);
		fprintf(fp, "[gpu]\ndevices = l40s\n[vm]\nmemory_mb = 65536\n"
		        "[output]\ndir = out\nformats = %s\n", f->name);
		assert_int_equal(fclose(fp), 0);
		memset(&af, 0, sizeof af);
		if (gw_answers_load(&af, ini, &table, &e) != 0)
			fail_msg("%s: %s", f->name, e.msg);
		assert_int_equal(af.formats, f->bit);
		assert_int_equal(gw_answers_save(&af, again, &e), 0);
		memset(&af2, 0, sizeof af2);
		assert_int_equal(gw_answers_load(&af2, again, &table, &e), 0);
		assert_int_equal(af2.formats, f->bit);
		gw_answers_file_free(&af);
		gw_answers_file_free(&af2);
	}
	tu_rm_tree(dir);
	free(dir);
	free(ini);
	free(again);
}

static void
collect(void *list, char *line)
{
	char ***v = list;
	size_t n = 0;

	while (*v && (*v)[n])
		n++;
	*v = gw_xrealloc(*v, (n + 2) * sizeof **v);
	(*v)[n] = line;
	(*v)[n + 1] = NULL;
}

static void
strv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* Every emitter renders the real plan into text of its kind, the same
 * as gw_emit; every row's next steps name the file. */
static void
test_emit_and_next(void **state)
{
	gw_plan p;
	gw_vmx *v = NULL;
	size_t i;

	(void)state;
	real_plan(&p, &v);
	for (i = 0; i < GW_NFORMATS; i++) {
		const gw_format_def *f = &gw_formats[i];
		char *out = NULL, *again = NULL, **lines = NULL;
		gw_next_ctx c;
		gw_err e;
		size_t k;
		int named = 0;

		if (f->emit(&p, NULL, &out, &e) != 0)
			fail_msg("%s: %s", f->name, e.msg);
		assert_true(strlen(out) > 40);
		assert_int_equal(out[strlen(out) - 1], '\n');
		assert_int_equal(gw_emit(f->bit, &p, &again, &e), 0);
		assert_string_equal(out, again);
		free(out);
		free(again);

		memset(&c, 0, sizeof c);
		c.path = "/tmp/out/FILE";
		c.name = "gpu-l40s";
		c.vm = "vm1";
		c.formats = f->bit;
		c.push = collect;
		c.list = &lines;
		f->next(&c);
		assert_non_null(lines);
		for (k = 0; lines[k]; k++) {
			assert_true(lines[k][0] != '\0');
			/* the words, then each command alone on its line:
			 * no empty line, none ending the step */
			assert_null(strstr(lines[k], "\n\n"));
			assert_int_not_equal(lines[k][strlen(lines[k]) - 1], '\n');
			named |= strstr(lines[k], "/tmp/out/FILE") != NULL;
		}
		if (!named)
			fail_msg("%s: no next step names its file", f->name);
		strv_free(lines);
	}
	gw_plan_free(&p);
	gw_vmx_free(v);
}

/* The labels in zh_CN: each row's HOLDS is translated; each LABEL is
 * translated or left as a product name (the same bytes), never empty. */
static void
test_labels_zh(void **state)
{
	size_t i;

	(void)state;
	if (tu_use_zh_catalogue() != 0)
		skip();
	for (i = 0; i < GW_NFORMATS; i++) {
		const gw_format_def *f = &gw_formats[i];
		const char *holds = dgettext("gpuwiz", f->holds);
		const char *label = dgettext("gpuwiz", f->label);

		if (strcmp(holds, f->holds) == 0)
			fail_msg("%s: '%s' has no zh_CN translation", f->name,
			         f->holds);
		assert_true(label[0] != '\0');
		assert_true(gw_text_cells(label) <= 16);
		assert_true(gw_text_cells(holds) <= 20);
	}
	setlocale(LC_ALL, "C");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_defaults_per_audience),
		cmocka_unit_test(test_outputs_do),
		cmocka_unit_test(test_names_parse),
		cmocka_unit_test(test_emit_and_next),
		cmocka_unit_test(test_labels_zh),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
