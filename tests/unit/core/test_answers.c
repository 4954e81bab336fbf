/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* The wizard's document: [wizard] activity and language, [host] of each
 * kind with what it takes, [vm] name; saved and read back the same. */
static void
roundtrip(const char *dir, const char *text, gw_answers_file *back)
{
	char *p = write_tmp(dir, "w.ini", text), *p2;
	gw_answers_file af;
	gw_err e;

	e.msg[0] = '\0';
	if (gw_answers_load(&af, p, &table, &e) != 0)
		fail_msg("%s", e.msg);
	p2 = gw_xasprintf("%s/w2.ini", dir);
	assert_int_equal(gw_answers_save(&af, p2, &e), 0);
	if (gw_answers_load(back, p2, &table, &e) != 0)
		fail_msg("%s", e.msg);
	gw_answers_file_free(&af);
	unlink(p);
	unlink(p2);
	free(p);
	free(p2);
}

static void
test_wizard_keys(void **state)
{
	char *dir = tu_tmpdir(), *id;
	gw_answers_file af;

	(void)state;
	roundtrip(dir, "[wizard]\nactivity = tanzu\nlanguage = zh_CN\n"
	          "[host]\nkind = sample\naddress = esxi-l40s\n"
	          "[vm]\nname = llm-train\n"
	          "[gpu]\ndevices = l40s\n[output]\nformats = vmx\n", &af);
	assert_int_equal(af.activity, 1);
	assert_string_equal(gw_answers_activities[af.activity], "tanzu");
	assert_string_equal(af.language, "zh_CN");
	assert_int_equal(af.host, GW_AHOST_SAMPLE);
	assert_string_equal(af.host_address, "esxi-l40s");
	assert_string_equal(af.vm_name, "llm-train");
	assert_null(af.out_dir);          /* a sample: its scratch directory */
	gw_answers_file_free(&af);

	roundtrip(dir, "[wizard]\nactivity = vm\nlanguage = en\n"
	          "[host]\nkind = ssh\naddress = root@esx01:2222\n"
	          "identity = keys/id\n"
	          "[vm]\nname = db01\n", &af);
	assert_int_equal(af.activity, 0);
	assert_string_equal(af.language, "en");
	assert_int_equal(af.host, GW_AHOST_SSH);
	assert_string_equal(af.host_address, "root@esx01:2222");
	id = gw_xasprintf("%s/keys/id", dir);
	assert_string_equal(af.host_identity, id);
	assert_string_equal(af.vm_name, "db01");
	assert_int_equal(af.a.ngpus, 0);  /* the VM's own devices */
	gw_answers_file_free(&af);
	free(id);

	roundtrip(dir, "[host]\nkind = api\naddress = https://vc01/sdk\n"
	          "user = administrator@vsphere.local\n"
	          "[gpu]\ndevices = l40s\n[output]\ndir = o\nformats = vmx\n",
	          &af);
	assert_int_equal(af.host, GW_AHOST_API);
	assert_string_equal(af.host_address, "https://vc01/sdk");
	assert_string_equal(af.host_user, "administrator@vsphere.local");
	assert_int_equal(af.activity, -1);
	assert_null(af.language);
	gw_answers_file_free(&af);

	roundtrip(dir, "[host]\nkind = linux\n"
	          "[gpu]\ndevices = l40s\n[output]\ndir = o\nformats = vmx\n",
	          &af);
	assert_int_equal(af.host, GW_AHOST_LINUX);
	assert_null(af.host_address);
	gw_answers_file_free(&af);

	roundtrip(dir, "[host]\nkind = offline\n"
	          "[gpu]\ndevices = l40s\n[output]\ndir = o\nformats = vmx\n",
	          &af);
	assert_int_equal(af.host, GW_AHOST_OFFLINE);
	gw_answers_file_free(&af);
	tu_rm_tree(dir);
	free(dir);
}

/* The saved file's first line names only the commands that take it:
 * gpuwiz apply for a local (offline, linux, no host) file, the wizard
 * alone for a sample, SSH or API host. */
static void
header_of(const char *dir, const char *text, int names_apply)
{
	char *p = write_tmp(dir, "h.ini", text), *p2, line[256];
	gw_answers_file af;
	gw_err e;
	FILE *f;

	e.msg[0] = '\0';
	assert_int_equal(gw_answers_load(&af, p, &table, &e), 0);
	assert_int_equal(gw_answers_apply_takes(af.host), names_apply);
	p2 = gw_xasprintf("%s/h-saved.ini", dir);
	assert_int_equal(gw_answers_save(&af, p2, &e), 0);
	f = fopen(p2, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_true(line[0] == ';');
	assert_non_null(strstr(line, "gpuwiz --answers FILE"));
	if (names_apply)
		assert_non_null(strstr(line, "gpuwiz apply --answers FILE"));
	else if (strstr(line, "apply --answers") != NULL)
		fail_msg("header of a kind apply refuses names apply: %s", line);
	gw_answers_file_free(&af);
	unlink(p2);
	unlink(p);
	free(p2);
	free(p);
}

static void
test_header_commands(void **state)
{
	char *dir = tu_tmpdir();

	(void)state;
	header_of(dir, "[host]\nkind = offline\n[gpu]\ndevices = l40s\n"
	          "[output]\ndir = o\nformats = vmx\n", 1);
	header_of(dir, "[gpu]\ndevices = l40s\n[output]\ndir = o\nformats = vmx\n", 1);
	header_of(dir, "[host]\nkind = linux\n[gpu]\ndevices = l40s\n"
	          "[output]\ndir = o\nformats = vmx\n", 1);
	header_of(dir, "[host]\nkind = sample\naddress = esxi-l40s\n"
	          "[vm]\nname = llm-train\n[gpu]\ndevices = l40s\n"
	          "[output]\nformats = vmx\n", 0);
	header_of(dir, "[host]\nkind = ssh\naddress = root@esx01\n"
	          "[vm]\nname = db01\n", 0);
	header_of(dir, "[host]\nkind = api\naddress = https://vc01/sdk\n"
	          "user = administrator@vsphere.local\n[vm]\nname = db01\n", 0);
	rmdir(dir);
	free(dir);
}

/* Load TEXT (one key of the [host] kind's with its [gpu] and [output])
 * and say whether it loaded; a refusal names FIELD. */
static int
loads_with(const char *dir, const char *text, const char *field)
{
	char *p = write_tmp(dir, "k.ini", text);
	gw_answers_file af;
	gw_err e;
	int rc;

	e.msg[0] = '\0';
	rc = gw_answers_load(&af, p, &table, &e);
	gw_answers_file_free(&af);   /* loaded or refused, as callers do */
	if (rc != 0 && strstr(e.msg, field) == NULL)
		fail_msg("refused for another field than %s: %s", field, e.msg);
	unlink(p);
	free(p);
	return rc == 0;
}

/* gw_answers_host_addressed over every [host] kind: the ESXi kinds
 * (sample, ssh, api) are named by an address and take [vm] name and
 * [host] enable; the local ones (none, offline, linux) take none of
 * them, and gpuwiz apply takes exactly those. */
static void
test_host_addressed(void **state)
{
	static const struct {
		const char *word;     /* NULL: no [host] kind */
		int addressed;
		const char *address;
	} kinds[] = {
		{ NULL, 0, NULL },
		{ "offline", 0, NULL },
		{ "linux", 0, NULL },
		{ "sample", 1, "esxi-l40s" },
		{ "ssh", 1, "root@esx01:2222" },
		{ "api", 1, "https://vc01/sdk" },
	};
	static const char rest[] =
		"[gpu]\ndevices = l40s\n[output]\ndir = o\nformats = vmx\n";
	char *dir = tu_tmpdir(), *host, *text;
	size_t i;
	int k;

	(void)state;
	assert_int_equal(sizeof kinds / sizeof kinds[0], GW_NAHOSTS);
	for (i = 0; i < GW_NAHOSTS; i++) {
		gw_answers_host kind = GW_AHOST_NONE;

		if (kinds[i].word) {
			for (k = 0; gw_answers_host_words[k]; k++)
				if (strcmp(gw_answers_host_words[k],
				           kinds[i].word) == 0)
					kind = (gw_answers_host)
					       (k + GW_AHOST_OFFLINE);
			assert_int_not_equal(kind, GW_AHOST_NONE);
		}
		assert_int_equal(kind, (gw_answers_host)i);
		assert_int_equal(gw_answers_host_addressed(kind),
		                 kinds[i].addressed);
		assert_int_equal(gw_answers_apply_takes(kind),
		                 !kinds[i].addressed);

		/* the loader asks the same: [vm] name, [host] enable and
		 * [host] address are taken by the addressed kinds alone */
		host = kinds[i].word == NULL ? gw_xstrdup("") :
		       gw_xasprintf("[host]\nkind = %s\n%s%s%s", kinds[i].word,
		                    kinds[i].address ? "address = " : "",
		                    kinds[i].address ? kinds[i].address : "",
		                    kinds[i].address ? "\n" : "");
		text = gw_xasprintf("%s[vm]\nname = db01\n%s", host, rest);
		assert_int_equal(loads_with(dir, text, "[vm] name"),
		                 kinds[i].addressed);
		free(text);
		if (kinds[i].word) {
			text = gw_xasprintf("%senable = 0000:42:00.0\n%s", host,
			                    rest);
			assert_int_equal(loads_with(dir, text, "[host] enable"),
			                 kinds[i].addressed);
			free(text);
			text = gw_xasprintf("[host]\nkind = %s\n%s",
			                    kinds[i].word, rest);
			assert_int_equal(loads_with(dir, text, "[host] address"),
			                 !kinds[i].addressed);
			free(text);
		}
		free(host);
	}
	rmdir(dir);
	free(dir);
}

static void
test_wizard_key_errors(void **state)
{
	char *dir = tu_tmpdir();

#define OK_TAIL "[gpu]\ndevices = l40s\n[output]\ndir = o\nformats = vmx\n"
	(void)state;
	expect_error(dir, "[wizard]\nactivity = bake\n" OK_TAIL,
	             "[wizard] activity: 'bake' is not known (expected vm or tanzu)");
	expect_error(dir, "[wizard]\nlanguage = fr\n" OK_TAIL,
	             "[wizard] language: 'fr'");
	expect_error(dir, "[wizard]\ncolour = red\n" OK_TAIL,
	             "[wizard] unknown key 'colour'");
	expect_error(dir, "[host]\nkind = telnet\n" OK_TAIL,
	             "[host] kind: 'telnet'");
	expect_error(dir, "[host]\nkind = ssh\n" OK_TAIL,
	             "[host] address: missing");
	expect_error(dir, "[host]\nkind = ssh\naddress = esx01\n" OK_TAIL,
	             "[host] address: 'esx01' is not an SSH address");
	expect_error(dir, "[host]\nkind = ssh\naddress = root@esx01:99999\n"
	             OK_TAIL, "[host] address: 'root@esx01:99999'");
	expect_error(dir, "[host]\nkind = api\naddress = vc01\n" OK_TAIL,
	             "[host] address: 'vc01' is not a URL");
	expect_error(dir, "[host]\nkind = offline\naddress = x\n" OK_TAIL,
	             "[host] address: not taken by kind 'offline'");
	expect_error(dir, "[host]\nkind = api\naddress = https://vc\n"
	             "identity = k\n" OK_TAIL, "[host] identity");
	expect_error(dir, "[host]\nkind = ssh\naddress = root@h\nuser = u\n"
	             OK_TAIL, "[host] user");
	expect_error(dir, "[host]\nkind = ssh\naddress = root@h\n"
	             "password = secret\n" OK_TAIL,
	             "[host] password: an answers file never holds a password");
	expect_error(dir, "[host]\nkind = ssh\naddress = root@h\nport = 22\n"
	             OK_TAIL, "[host] unknown key 'port'");
	expect_error(dir, "[vm]\nname = llm-train\n" OK_TAIL,
	             "[vm] name: 'llm-train' needs a host that lists VMs");
	expect_error(dir, "[host]\nkind = offline\nenable = 0000:5e:00.0\n"
	             OK_TAIL, "[host] enable: '0000:5e:00.0' needs an ESXi host");
	expect_error(dir, "[host]\nkind = sample\naddress = esxi-l40s\n"
	             "enable = 5e:00\n" OK_TAIL,
	             "[host] enable: '5e:00' is not a PCI address");
	expect_error(dir, "[host]\nkind = sample\naddress = esxi-l40s\n"
	             "enable = 0000:5e:00.0, 0000:5e:00.0\n" OK_TAIL,
	             "[host] enable: 0000:5e:00.0 is given twice");
	expect_error(dir, "[host]\nkind = sample\naddress = esxi-l40s\n"
	             "[vm]\nupgrade_hw = yes\n" OK_TAIL,
	             "[vm] upgrade_hw: the upgrade is of the VM named by [vm] name");
	expect_error(dir, "[host]\nkind = offline\n[gpu]\ndevices = l40s\n"
	             "[output]\nformats = vmx\n", "[output] dir: missing");
#undef OK_TAIL
	tu_rm_tree(dir);
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

/* Issue 12: a key given twice is refused naming the file, the section and
 * the key (iniparser keeps the last silently), whatever the case and
 * spacing, in one section given twice too; a value on a continued line
 * is not a key. */
static void
test_duplicate_keys(void **state)
{
	char *dir = tu_tmpdir(), *p;
	gw_answers_file af;
	gw_err e;

	(void)state;
	expect_error(dir, "[gpu]\ndevices = l40s=1\ndevices = l40s=2\n"
	             "[output]\ndir=o\nformats=vmx\n",
	             "bad.ini:3: [gpu] devices: given twice (first on line 2)");
	expect_error(dir, "[gpu]\ndevices = l40s=1\n[output]\ndir=o\n"
	             "formats=vmx\n[GPU]\n  Devices=l40s=3\n",
	             "bad.ini:7: [gpu] devices: given twice (first on line 2)");
	expect_error(dir, "[gpu]\ndevices = l40s=1\n[options]\nuvm = yes\n"
	             "p2p = no\nuvm = no\n[output]\ndir=o\nformats=vmx\n",
	             "bad.ini:6: [options] uvm: given twice (first on line 4)");
	/* the same key in two sections is two keys */
	p = write_tmp(dir, "ok.ini", "[gpu]\ndevices = l40s=1\n[output]\n"
	              "dir = o\nformats = vmx\nname = x\n");
	assert_int_equal(gw_answers_load(&af, p, &table, &e), 0);
	gw_answers_file_free(&af);
	unlink(p);
	free(p);
	rmdir(dir);
	free(dir);
}

/* A section named like a key ([options:p2p]): iniparser names a key
 * "section:key", so its p2p = yes would be read as [options] p2p's and
 * then dropped; refused naming the file, line and section. */
static void
test_section_with_colon(void **state)
{
	char *dir = tu_tmpdir();

	(void)state;
	expect_error(dir, "[gpu]\ndevices = l40s=1\n[options:p2p]\np2p = yes\n"
	             "[output]\ndir=o\nformats=vmx\n",
	             "bad.ini:3: section [options:p2p]: a section name holds no ':'");
	expect_error(dir, "[gpu]\ndevices = l40s=1\n[ Options : x ]\n"
	             "[output]\ndir=o\nformats=vmx\n",
	             "bad.ini:3: section [options : x]");
	rmdir(dir);
	free(dir);
}

/* An over-long line: "too long" with its field, not a syntax error; the
 * longest line iniparser reads still loads. */
static void
test_long_line(void **state)
{
	char *dir = tu_tmpdir(), *p, *text, *x = gw_xcalloc(1, 2001);
	gw_answers_file af;
	gw_err e;

	(void)state;
	memset(x, 'x', 2000);
	text = gw_xasprintf("[gpu]\ndevices = l40s=1\n[vm]\nvmx = %s.vmx\n", x);
	expect_error(dir, text, "bad.ini:4: [vm] vmx: line too long (2010 bytes, at most 1022)");
	free(text);
	text = gw_xasprintf("[gpu]\n%s\n", x);
	expect_error(dir, text, "bad.ini:2: line too long");
	free(text);
	/* 1,022 bytes: read whole */
	x[1022 - 10] = '\0';
	text = gw_xasprintf("[gpu]\ndevices = l40s=1\n[vm]\nvmx = %s.vmx\n", x);
	p = write_tmp(dir, "ok.ini", text);
	e.msg[0] = '\0';
	assert_int_equal(gw_answers_load(&af, p, &table, &e), 0);
	gw_answers_file_free(&af);
	unlink(p);
	free(p);
	free(text);
	free(x);
	rmdir(dir);
	free(dir);
}

/* [output] dir naming a file: the answers file and the field, with
 * formats and without (a .vmx only). */
static void
test_output_dir_is_file(void **state)
{
	char *dir = tu_tmpdir(), *f = write_tmp(dir, "afile", "x");

	(void)state;
	expect_error(dir, "[gpu]\ndevices = l40s=1\n[output]\ndir = afile\nformats = vmx\n",
	             "bad.ini: [output] dir: 'afile' is not a directory");
	expect_error(dir, "[gpu]\ndevices = l40s=1\n[vm]\nvmx = vm.vmx\n[output]\ndir = afile\n",
	             "bad.ini: [output] dir: 'afile' is not a directory");
	unlink(f);
	free(f);
	rmdir(dir);
	free(dir);
}

/* Invalid UTF-8 in a value (a stray byte, a cut sequence, a surrogate)
 * comes back escaped; Chinese stays as it is. */
static void
test_bad_utf8_escaped(void **state)
{
	char *dir = tu_tmpdir();

	(void)state;
	expect_error(dir, "[gpu]\ndevices = l\xff\xfes=1\n[output]\ndir=o\nformats=vmx\n",
	             "'l\\xFF\\xFEs'");
	expect_error(dir, "[gpu]\ndevices = l40s\n[options]\nuvm = \xc3\x28\xed\xa0\x80\n",
	             "'\\xC3(\\xED\\xA0\\x80'");
	expect_error(dir, "[gpu]\ndevices = \xe4\xb8\xad=1\n[output]\ndir=o\nformats=vmx\n",
	             "'\xe4\xb8\xad'");
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
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_section_with_colon),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_output_dir_is_file),
		cmocka_unit_test(test_bad_utf8_escaped),
		cmocka_unit_test(test_wizard_keys),
		cmocka_unit_test(test_wizard_key_errors),
		cmocka_unit_test(test_header_commands),
		cmocka_unit_test(test_host_addressed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
