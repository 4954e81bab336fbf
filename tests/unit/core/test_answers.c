/* test_answers.c: the answers file (iniparser) and its round trip. */
#include "testutil.h"
#include "answers.h"
#include "emit.h"
#include "gputable.h"

#include <unistd.h>

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

static char *
write_tmp(const char *dir, const char *name, const char *text)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static void
test_full_file(void **state)
{
	char *dir = tu_tmpdir(), *p, *vmx, *out;
	gw_answers_file af;
	gw_err e;

	(void)state;
	p = write_tmp(dir, "a.ini",
	              "; a trainer's run\n"
	              "[gpu]\n"
	              "devices = l40s=2, grid_h100xm-80c\n"
	              "vram = 24\n"
	              "[vm]\n"
	              "vmx = vms/llm.vmx\n"
	              "memory_mb = 65536\n"
	              "esxi = 8.0U2\n"
	              "bdf = 0000:42:00.0, 0000:43:00.0\n"
	              "system_id = 5f2d3a1c-8e4b-11ee-a7c1-0cc47a6b1234\n"
	              "[options]\n"
	              "uvm = yes\n"
	              "p2p = TRUE\n"
	              "code43 = off\n"
	              "reserve = no\n"
	              "mmio_gb = 1024\n"
	              "[output]\n"
	              "dir = out\n"
	              "formats = vmx, bosh,opsman,tile\n"
	              "name = gpu-llm\n");
	assert_int_equal(gw_answers_load(&af, p, &table, &e), 0);
	assert_int_equal(af.a.ngpus, 3);
	assert_string_equal(af.a.gpus[0].gpu->id, "l40s");
	assert_int_equal(af.a.gpus[0].count, 2);
	assert_non_null(af.a.gpus[1].profile);
	assert_string_equal(af.a.gpus[1].profile, "grid_h100xm-80c");
	assert_null(af.a.gpus[2].gpu);
	assert_int_equal(af.a.gpus[2].vram_gb, 24);
	vmx = gw_xasprintf("%s/vms/llm.vmx", dir);
	assert_string_equal(af.vmx_path, vmx);
	out = gw_xasprintf("%s/out", dir);
	assert_string_equal(af.out_dir, out);
	assert_int_equal(af.a.memory_mb, 65536);
	assert_string_equal(af.a.esxi_version, "8.0U2");
	assert_int_equal(af.a.nbdfs, 2);
	assert_string_equal(af.a.system_id, "5f2d3a1c-8e4b-11ee-a7c1-0cc47a6b1234");
	assert_int_equal(af.a.uvm, 1);
	assert_int_equal(af.a.p2p, 1);
	assert_int_equal(af.a.code43, 0);
	assert_int_equal(af.a.reserve, 0);
	assert_true(af.a.mmio_gb == 1024);
	assert_int_equal(af.formats, GW_FMT_VMX | GW_FMT_BOSH | GW_FMT_OPSMAN | GW_FMT_TILE);
	assert_string_equal(af.a.name, "gpu-llm");

	/* save and read back: the same answers */
	{
		char *p2 = gw_xasprintf("%s/saved.ini", dir);
		gw_answers_file af2;

		assert_int_equal(gw_answers_save(&af, p2, &e), 0);
		assert_int_equal(gw_answers_load(&af2, p2, &table, &e), 0);
		assert_int_equal(af2.a.ngpus, 3);
		assert_int_equal(af2.a.gpus[0].count, 2);
		assert_string_equal(af2.a.gpus[1].profile, "grid_h100xm-80c");
		assert_int_equal(af2.a.gpus[2].vram_gb, 24);
		assert_string_equal(af2.vmx_path, vmx);
		assert_string_equal(af2.out_dir, out);
		assert_int_equal(af2.formats, af.formats);
		assert_int_equal(af2.a.uvm, 1);
		assert_int_equal(af2.a.reserve, 0);
		assert_true(af2.a.mmio_gb == 1024);
		assert_int_equal(af2.a.nbdfs, 2);
		assert_string_equal(af2.a.bdfs[1], af.a.bdfs[1]);
		gw_answers_file_free(&af2);
		unlink(p2);
		free(p2);
	}
	gw_answers_file_free(&af);
	free(vmx);
	free(out);
	unlink(p);
	free(p);
	rmdir(dir);
	free(dir);
}

/* Each broken file: load fails, and the one-line error names the file and
 * the field. */
static void
expect_error(const char *dir, const char *text, const char *want)
{
	char *p = write_tmp(dir, "bad.ini", text);
	gw_answers_file af;
	gw_err e;

	e.msg[0] = '\0';
	assert_int_equal(gw_answers_load(&af, p, &table, &e), -1);
	if (strstr(e.msg, want) == NULL || strstr(e.msg, "bad.ini") == NULL ||
	    strchr(e.msg, '\n') != NULL)
		fail_msg("error '%s' does not name '%s' and the file", e.msg, want);
	gw_answers_file_free(&af);
	unlink(p);
	free(p);
}

static void
test_errors(void **state)
{
	char *dir = tu_tmpdir();

	(void)state;
	expect_error(dir, "", "empty");
	expect_error(dir, "[gpu]\n", "[gpu] devices");
	expect_error(dir, "[gpu]\ndevices = nosuch\n[output]\ndir=o\nformats=vmx\n", "nosuch");
	expect_error(dir, "[gpu]\ndevices = l40s=0\n[output]\ndir=o\nformats=vmx\n", "[gpu] devices");
	expect_error(dir, "[gpu]\ndevices = l40s\n[output]\ndir=o\nformats=vmx,pdf\n", "pdf");
	expect_error(dir, "[gpu]\ndevices = l40s\n[output]\nformats=vmx\n", "[output] dir");
	expect_error(dir, "[gpu]\ndevices = l40s\n", "nothing to do");
	expect_error(dir, "[gpu]\ndevices = l40s\n[oops]\nx=1\n", "[oops]");
	expect_error(dir, "[gpu]\ndevices = l40s\ncolour = red\n", "colour");
	expect_error(dir, "[gpu]\ndevices = l40s\n[options]\nuvm = perhaps\n", "perhaps");
	expect_error(dir, "[gpu]\ndevices = l40s\n[vm]\nmemory_mb = lots\n", "memory_mb");
	expect_error(dir, "[gpu]\ndevices = l40s\n[vm]\nesxi = 5.1\n", "esxi");
	expect_error(dir, "[gpu]\ndevices = l40s\n[vm]\nbdf = 0000:4g:00.0\n", "bdf");
	expect_error(dir, "[gpu]\ndevices = l40s\n[vm]\nsystem_id = 1234\n", "system_id");
	expect_error(dir, "[gpu]\ndevices = l40s\n[options]\nmmio_gb = -4\n", "mmio_gb");
	expect_error(dir, "[gpu]\ndevices = l40s\n[output\ndir = o\n", "bad.ini:3");
	expect_error(dir, "\x01\x02\x00\xff", "binary");
	rmdir(dir);
	free(dir);
}

/* [vm] vmx and [options] uvm = yes, no [gpu]: the devices already in the
 * VM (seed 001: enable_uvm on its vGPUs); without a .vmx still refused. */
static void
test_vmx_only(void **state)
{
	char *dir = tu_tmpdir(), *p;
	gw_answers_file af;
	gw_err e;

	(void)state;
	p = write_tmp(dir, "u.ini", "[vm]\nvmx = llm.vmx\n[options]\nuvm = yes\n");
	assert_int_equal(gw_answers_load(&af, p, &table, &e), 0);
	assert_int_equal(af.a.ngpus, 0);
	assert_int_equal(af.a.uvm, 1);
	assert_int_equal(af.uvm_set, 1);
	assert_non_null(af.vmx_path);
	assert_non_null(strstr(af.vmx_path, "/llm.vmx"));
	gw_answers_file_free(&af);
	unlink(p);
	free(p);
	/* uvm not given: not decided (the wizard proposes it) */
	p = write_tmp(dir, "v.ini", "[vm]\nvmx = llm.vmx\n");
	assert_int_equal(gw_answers_load(&af, p, &table, &e), 0);
	assert_int_equal(af.a.uvm, 0);
	assert_int_equal(af.uvm_set, 0);
	gw_answers_file_free(&af);
	unlink(p);
	free(p);
	expect_error(dir, "[options]\nuvm = yes\n[output]\ndir=o\nformats=vmx\n",
	             "[gpu] devices");
	rmdir(dir);
	free(dir);
}

static void
test_missing_and_directory(void **state)
{
	char *dir = tu_tmpdir(), *p = gw_xasprintf("%s/none.ini", dir);
	gw_answers_file af;
	gw_err e;

	(void)state;
	assert_int_equal(gw_answers_load(&af, p, &table, &e), -1);
	assert_non_null(strstr(e.msg, p));
	gw_answers_file_free(&af);
	assert_int_equal(gw_answers_load(&af, dir, &table, &e), -1);
	assert_non_null(strstr(e.msg, "directory"));
	gw_answers_file_free(&af);
	free(p);
	rmdir(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_file),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_vmx_only),
		cmocka_unit_test(test_missing_and_directory),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
