/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wizard_state.c: the wizard's state as one answers document: saved
 * whole and replayed to the same VM, what a change of route leaves
 * behind, and how often one action makes the plan and renders the
 * formats (white-box: wizard_int.h's counters). */
#include "testutil.h"
#include "wizard_int.h"
#include "emit.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

static const gw_gpu *
gpu(const char *id)
{
	gw_err e;
	const gw_gpu *g = gw_table_lookup(&table, id, &e);

	if (g == NULL)
		fail_msg("%s", e.msg);
	return g;
}

static int
plan_has(const gw_wizard *w, const char *id)
{
	const gw_plan *p = gw_wizard_plan(w);
	size_t i;

	for (i = 0; p && i < p->nfindings; i++)
		if (strcmp(p->findings[i].id, id) == 0)
			return 1;
	return 0;
}

static char *
write_text(const char *dir, const char *name, const char *text)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "wb");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return p;
}

static char *
read_text(const char *path)
{
	char *data = NULL;
	size_t n = 0;
	gw_err e;

	if (gw_read_file(path, 1u << 20, &data, &n, &e) != 0)
		fail_msg("%s", e.msg);
	return data;
}

static gw_wizard *
start(const char *answers, const char *sample)
{
	gw_wizard_start st;
	gw_wizard *w;
	gw_err e;

	memset(&st, 0, sizeof st);
	st.answers = answers;
	st.sample = sample;
	e.msg[0] = '\0';
	w = gw_wizard_new(&table, &st, &e);
	if (w == NULL)
		fail_msg("%s", e.msg);
	return w;
}

static void
done(gw_wizard *w)
{
	size_t i;

	for (i = 0; i < w->nscratch_left; i++)
		tu_rm_tree(w->scratch_left[i]);
	if (w->scratch)
		tu_rm_tree(w->scratch);
	gw_wizard_delete(w);
}

static long
vm_index(const gw_wizard *w, const char *name)
{
	const gw_vm *vms;
	size_t i, n = gw_wizard_vms(w, &vms);

	for (i = 0; i < n; i++)
		if (strcmp(vms[i].name, name) == 0)
			return (long)i;
	fail_msg("no VM %s on the sample", name);
	return -1;
}

/* ---- one plan per action, one render per format per write ------------- */

static void
test_counts(void **state)
{
	char *dir = tu_tmpdir(), *ans, why[1024] = "";
	unsigned long before;
	gw_wizard *w;
	gw_err e;

	(void)state;
	/* two L40S in the VM: llm-train has one, one is added (the
	 * extensions list the GPUs the VM lacks) */
	ans = write_text(dir, "a.ini",
	                 "[gpu]\ndevices = l40s=2\n"
	                 "[options]\nforce = yes\n"
	                 "[output]\ndir = out\nformats = vmx, bosh, opsman\n");
	w = start(ans, "esxi-l40s");
	assert_true(gw_wizard_can(w, GW_CAN_VMS));

	/* one probe of the ESXi sample (rows, release, system id): 1 plan */
	before = w->nreplans;
	gw_wizard_reprobe(w);
	assert_int_equal(w->nreplans - before, 1);
	assert_non_null(w->af.a.esxi_version);
	assert_non_null(w->af.a.system_id);
	assert_non_null(gw_wizard_plan(w));
	assert_int_equal(w->nreplans - before, 1);   /* reading: no more */

	/* opening a VM: 1 plan */
	before = w->nreplans;
	assert_int_equal(gw_wizard_esxi_open_vm(w, vm_index(w, "llm-train"), &e), 0);
	assert_int_equal(w->nreplans - before, 1);

	/* one action of several changes (a key in the front end): 1 plan,
	 * and the plan read inside it is already the new one */
	before = w->nreplans;
	gw_wizard_action_begin(w);
	assert_int_equal(gw_wizard_set_memory(w, 32768, &e), 0);
	gw_wizard_set_p2p(w, 1);
	assert_int_equal(w->nreplans - before, 0);
	gw_wizard_action_end(w);
	assert_int_equal(w->nreplans - before, 1);

	/* the review, the snippet view, then the write: each chosen format
	 * rendered once (3 formats) */
	before = gw_emit_renders;
	w->step = GW_STEP_REVIEW;
	if (gw_wizard_check_step(w, GW_STEP_REVIEW, why, sizeof why) != 0)
		fail_msg("review: %s", why);
	free(gw_wizard_snippet(w, GW_FMT_BOSH, &e));
	if (gw_wizard_write(w) != 0)
		fail_msg("%s", gw_wizard_error(w, GW_ERR_WRITE));
	assert_int_equal(gw_emit_renders - before, 3);
	assert_int_equal(w->nrenders, 3);

	done(w);
	unlink(ans);
	free(ans);
	tu_rm_tree(dir);
	free(dir);
}

/* ---- a route switch leaves nothing behind ---------------------------- */

static void
test_route_switch(void **state)
{
	gw_wizard *w = start(NULL, NULL);
	char *scratch;
	gw_err e;

	(void)state;
	/* offline: a GPU and a memory size, then a sample host */
	assert_int_equal(gw_wizard_add_gpu(w, gpu("a100-80g-pcie"), NULL, 2, &e), 0);
	assert_int_equal(gw_wizard_set_memory(w, 65536, &e), 0);
	if (gw_wizard_use_sample(w, "esxi-l40s", &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(w->af.a.ngpus, 0);
	assert_int_equal(w->af.a.memory_mb, 0);
	assert_non_null(w->af.a.avail);              /* the sample's GPUs */
	scratch = gw_xstrdup(w->scratch);
	assert_non_null(strstr(w->af.out_dir, scratch));
	assert_int_equal(gw_wizard_esxi_open_vm(w, vm_index(w, "llm-train"), &e), 0);
	assert_int_equal(gw_wizard_add_gpu(w, gpu("a100-80g-pcie"), NULL, 1, &e), 0);
	assert_true(plan_has(w, "gpu-count-host"));  /* the sample has none */

	/* back to plan offline: the default directory, no host, no VM */
	assert_int_equal(gw_wizard_set_mode(w, GW_MODE_OFFLINE, NULL), 0);
	assert_string_equal(w->af.out_dir, "gpuwiz-out");
	assert_null(gw_wizard_vmx(w));
	assert_int_equal(gw_wizard_vm_open(w), -1);
	assert_int_equal(w->af.a.ngpus, 0);
	assert_null(w->af.a.avail);
	assert_null(w->af.a.system_id);
	assert_null(w->af.a.esxi_version);
	assert_int_equal(w->af.a.nbdfs, 0);
	assert_null(gw_wizard_sample_name(w));
	assert_int_equal(gw_wizard_add_gpu(w, gpu("a100-80g-pcie"), NULL, 1, &e), 0);
	assert_non_null(gw_wizard_plan(w));
	assert_false(plan_has(w, "gpu-count-host"));
	/* the language stays */
	gw_wizard_set_language(w, "zh_CN");
	assert_int_equal(gw_wizard_set_mode(w, GW_MODE_LINUX, NULL), 0);
	assert_string_equal(gw_wizard_language(w), "zh_CN");
	tu_rm_tree(scratch);
	free(scratch);
	done(w);
}

/* ---- save the whole document, replay it to the same VM ---------------- */

static void
test_save_replay_sample(void **state)
{
	char *dir = tu_tmpdir(), *ans, *text, *old;
	gw_wizard *w;
	gw_err e;
	long vm;

	(void)state;
	w = start(NULL, NULL);
	gw_wizard_set_activity(w, GW_ACT_VM);
	gw_wizard_set_language(w, "zh_CN");
	if (gw_wizard_use_sample(w, "esxi-l40s", &e) != 0)
		fail_msg("%s", e.msg);
	vm = vm_index(w, "llm-train");
	assert_true(vm > 0);                      /* not the first VM */
	assert_int_equal(gw_wizard_esxi_open_vm(w, vm, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(w, gpu("l40s"), NULL, 1, &e), 0);
	gw_wizard_set_formats(w, GW_FMT_VMX);
	ans = gw_xasprintf("%s/class.ini", dir);
	if (gw_wizard_save_answers(w, ans, &e) != 0)
		fail_msg("%s", e.msg);
	assert_false(gw_wizard_is(w, GW_WIZ_DIRTY));
	old = gw_xstrdup(w->scratch);
	done(w);

	text = read_text(ans);
	assert_non_null(strstr(text, "[wizard]\nactivity = vm\nlanguage = zh_CN\n"));
	assert_non_null(strstr(text, "[host]\nkind = sample\naddress = esxi-l40s\n"));
	assert_non_null(strstr(text, "name = llm-train\n"));
	assert_null(strstr(text, old));            /* no temporary directory */
	assert_null(strstr(text, "dir ="));
	free(text);

	/* the file alone: the same sample, the same VM, a new scratch */
	w = start(ans, NULL);
	assert_string_equal(gw_wizard_sample_name(w), "esxi-l40s");
	assert_int_equal(gw_wizard_vm_open(w), vm);
	assert_null(gw_wizard_error(w, GW_ERR_VMX));
	assert_string_equal(gw_wizard_language(w), "zh_CN");
	assert_int_equal(gw_wizard_activity(w), GW_ACT_VM);
	assert_int_equal(w->af.a.ngpus, 1);
	assert_string_not_equal(w->scratch, old);
	assert_true(strncmp(w->af.out_dir, w->scratch, strlen(w->scratch)) == 0);
	assert_false(gw_wizard_is(w, GW_WIZ_DIRTY));
	done(w);

	/* and with the sample on the command line */
	w = start(ans, "esxi-l40s");
	assert_int_equal(gw_wizard_vm_open(w), vm);
	assert_int_equal(w->af.a.ngpus, 1);
	done(w);

	unlink(ans);
	free(ans);
	free(old);
	tu_rm_tree(dir);
	free(dir);
}

/* The language of a start: --lang, else the locale when it names a
 * language, else the answers file's, else none (the front end's
 * English); a save records the language in use. */
static gw_wizard *
start_lang(const char *answers, const char *lang, const char *locale)
{
	gw_wizard_start st;
	gw_wizard *w;
	gw_err e;

	memset(&st, 0, sizeof st);
	st.answers = answers;
	st.lang = lang;
	st.locale = locale;
	e.msg[0] = '\0';
	w = gw_wizard_new(&table, &st, &e);
	if (w == NULL)
		fail_msg("%s", e.msg);
	return w;
}

static void
test_language_order(void **state)
{
	char *dir = tu_tmpdir(), *en, *zh, *ans, *text;
	gw_wizard *w;
	gw_err e;

	(void)state;
	/* the locale's name: its language part */
	{
		static const char *const loc[][2] = {
			{ "zh_CN.UTF-8", "zh_CN" }, { "zh_TW", "zh_CN" },
			{ "en_US.UTF-8", "en" }, { "en", "en" },
			{ "C.UTF-8", NULL }, { "C", NULL }, { "POSIX", NULL },
			{ "", NULL }, { "fr_FR.UTF-8", NULL }, { "e", NULL },
		};
		size_t i;

		for (i = 0; i < sizeof loc / sizeof *loc; i++) {
			w = start_lang(NULL, NULL, loc[i][0]);
			if (loc[i][1])
				assert_string_equal(gw_wizard_language(w), loc[i][1]);
			else
				assert_null(gw_wizard_language(w));
			done(w);
		}
	}

	en = write_text(dir, "en.ini", "[wizard]\nactivity = vm\nlanguage = en\n[gpu]\ndevices = l40s=1\n");
	zh = write_text(dir, "zh.ini", "[wizard]\nactivity = vm\nlanguage = zh_CN\n[gpu]\ndevices = l40s=1\n");
	/* the trainee's locale over the trainer's file */
	w = start_lang(en, NULL, "zh_CN.UTF-8");
	assert_string_equal(gw_wizard_language(w), "zh_CN");
	ans = gw_xasprintf("%s/saved.ini", dir);
	if (gw_wizard_save_answers(w, ans, &e) != 0)
		fail_msg("%s", e.msg);
	text = read_text(ans);
	assert_non_null(strstr(text, "language = zh_CN\n"));
	free(text);
	done(w);
	w = start_lang(zh, NULL, "en_US.UTF-8");
	assert_string_equal(gw_wizard_language(w), "en");
	done(w);
	/* a locale naming no language: the file's */
	w = start_lang(zh, NULL, "C.UTF-8");
	assert_string_equal(gw_wizard_language(w), "zh_CN");
	done(w);
	w = start_lang(en, NULL, "POSIX");
	assert_string_equal(gw_wizard_language(w), "en");
	done(w);
	w = start_lang(zh, NULL, "fr_FR.UTF-8");
	assert_string_equal(gw_wizard_language(w), "zh_CN");
	done(w);
	/* --lang over both */
	w = start_lang(en, "zh_CN", "en_US.UTF-8");
	assert_string_equal(gw_wizard_language(w), "zh_CN");
	done(w);
	/* the locale with no file; none at all: the front end's default */
	w = start_lang(NULL, NULL, "zh_CN.UTF-8");
	assert_string_equal(gw_wizard_language(w), "zh_CN");
	done(w);
	w = start_lang(NULL, NULL, "C");
	assert_null(gw_wizard_language(w));
	done(w);

	unlink(ans);
	unlink(en);
	unlink(zh);
	free(ans);
	free(en);
	free(zh);
	tu_rm_tree(dir);
	free(dir);
}

/* The next steps of a VM gpuwiz patches itself offer the playbook only
 * for other VMs, never for the VM it has done (nor before the write);
 * without a VM of the host's the playbook is the way, for that VM. */
static const char *
ansible_step(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		if (strstr(v[i], "ansible-playbook"))
			return v[i];
	return NULL;
}

static void
test_next_ansible(void **state)
{
	gw_wizard *w;
	char **v;
	const char *a;
	gw_err e;

	(void)state;
	w = start(NULL, "esxi-l40s");
	assert_int_equal(gw_wizard_esxi_open_vm(w, vm_index(w, "llm-train"), &e), 0);
	assert_int_equal(gw_wizard_add_gpu(w, gpu("l40s"), NULL, 1, &e), 0);
	gw_wizard_set_formats(w, GW_FMT_VMX | GW_FMT_ANSIBLE);
	v = gw_wizard_next_commands(w);
	assert_non_null(a = ansible_step(v));
	assert_non_null(strstr(a, "Only for the same settings on other VMs"));
	assert_non_null(strstr(a, "[\"NAME\"]"));
	assert_null(strstr(a, "llm-train"));
	gw_strv_free(v);
	done(w);

	/* offline, no .vmx: the playbook does the work */
	w = start(NULL, NULL);
	assert_int_equal(gw_wizard_add_gpu(w, gpu("l40s"), NULL, 1, &e), 0);
	gw_wizard_set_formats(w, GW_FMT_ANSIBLE);
	v = gw_wizard_next_commands(w);
	assert_non_null(a = ansible_step(v));
	assert_null(strstr(a, "other VMs"));
	assert_true(strncmp(a, "Ansible (community.vmware): ", 28) == 0);
	gw_strv_free(v);
	done(w);
}

/* The detected GPU at address bdf, -1 when none. */
static long
detected_index(const gw_wizard *w, const char *bdf)
{
	const gw_gpu_dev *d;
	size_t n = gw_wizard_detected(w, &d), i;

	for (i = 0; i < n; i++)
		if (d[i].bdf && strcmp(d[i].bdf, bdf) == 0)
			return (long)i;
	return -1;
}

/* The host changes queued are part of the document: the replay queues
 * the same enable (by address) and the same upgrade, so the write does
 * on the host what the trainer's would have done. */
static void
test_save_replay_changes(void **state)
{
	char *dir = tu_tmpdir(), *ans, *text;
	gw_wizard *w;
	gw_err e;
	long vm, idx;

	(void)state;
	w = start(NULL, "esxi-l40s");
	idx = detected_index(w, "0000:5e:00.0");   /* not enabled yet */
	assert_true(idx >= 0);
	assert_int_equal(gw_wizard_esxi_enable(w, (size_t)idx, NULL, &e), 1);
	vm = vm_index(w, "ubuntu-l40s");           /* vmx-13: upgradable */
	assert_int_equal(gw_wizard_esxi_open_vm(w, vm, &e), 0);
	assert_int_equal(gw_wizard_add_gpu(w, gpu("l40s"), NULL, 1, &e), 0);
	assert_true(gw_wizard_esxi_upgrade_target(w) > 13);
	assert_int_equal(gw_wizard_esxi_upgrade(w, &e), 1);
	assert_true(gw_wizard_upgrade_queued(w) > 13);
	ans = gw_xasprintf("%s/changes.ini", dir);
	if (gw_wizard_save_answers(w, ans, &e) != 0)
		fail_msg("%s", e.msg);
	done(w);

	text = read_text(ans);
	assert_non_null(strstr(text, "enable = 0000:5e:00.0\n"));
	assert_non_null(strstr(text, "upgrade_hw = yes\n"));
	free(text);

	w = start(ans, NULL);
	assert_null(gw_wizard_error(w, GW_ERR_VMX));
	assert_int_equal(gw_wizard_vm_open(w), vm);
	idx = detected_index(w, "0000:5e:00.0");
	assert_true(idx >= 0);
	assert_int_equal(gw_wizard_enable_queued(w, (size_t)idx), 1);
	assert_true(gw_wizard_upgrade_queued(w) > 13);
	assert_false(gw_wizard_is(w, GW_WIZ_DIRTY));
	done(w);

	/* an address the host does not have: one line naming the key */
	text = gw_xasprintf("[host]\nkind = sample\naddress = esxi-l40s\n"
	                    "enable = 0000:99:00.0\n[gpu]\ndevices = l40s\n"
	                    "[vm]\nname = ubuntu-l40s\n");
	{
		FILE *f = fopen(ans, "w");

		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
	free(text);
	w = start(ans, NULL);
	assert_non_null(gw_wizard_error(w, GW_ERR_VMX));
	assert_non_null(strstr(gw_wizard_error(w, GW_ERR_VMX),
	                       "[host] enable: this host has no GPU at 0000:99:00.0"));
	done(w);

	unlink(ans);
	free(ans);
	tu_rm_tree(dir);
	free(dir);
}

/* A VM on the host with two GPUs and no format chosen (an open VM is
 * itself the output): the write patches it on the host and puts the NCCL
 * check into the output directory. */
static void
test_write_host_vm_two_gpus(void **state)
{
	const gw_apply_result *r;
	gw_wizard *w;
	gw_err e;
	char *vmx, *text, *nccl;

	(void)state;
	w = start(NULL, "esxi-l40s");
	assert_int_equal(gw_wizard_esxi_open_vm(w, vm_index(w, "llm-train"), &e), 0);
	/* the VM ends with two L40S: its own and one more */
	assert_int_equal(gw_wizard_add_gpu(w, gpu("l40s"), NULL, 2, &e), 0);
	gw_wizard_set_force(w, 1);   /* 64 GB of memory for 96 GB of GPUs */
	assert_int_equal(w->af.formats, 0);
	if (gw_wizard_write(w) != 0)
		fail_msg("%s", gw_wizard_error(w, GW_ERR_WRITE));
	r = gw_wizard_result(w);
	assert_non_null(r);
	vmx = gw_xasprintf("%s/volumes/datastore1/llm-train/llm-train.vmx",
	                   w->scratch);
	text = read_text(vmx);
	assert_non_null(strstr(text, "pciPassthru.64bitMMIOSizeGB = \"256\""));
	free(text);
	nccl = gw_xasprintf("%s/gpuwiz-out/nccl_check.py", w->scratch);
	assert_int_equal(access(nccl, F_OK), 0);
	free(nccl);
	free(vmx);
	done(w);
}

/* The trainer's story: llm-train holds the host's first L40S; the second
 * one, picked from the host's list by its address, is added beside it
 * (the VM ends with both), and the MMIO window covers the two. */
static void
test_host_gpu_beside_the_vms_own(void **state)
{
	const gw_gpu_dev *d;
	gw_wizard *w;
	gw_err e;
	size_t i, n, second = (size_t)-1;
	char *vmx, *text;

	(void)state;
	w = start(NULL, "esxi-l40s");
	n = gw_wizard_detected(w, &d);
	for (i = 0; i < n; i++)
		if (strcmp(d[i].bdf, "0000:5e:00.0") == 0)
			second = i;
	assert_true(second != (size_t)-1);
	assert_int_equal(gw_wizard_add_detected(w, second, &e), 0);
	assert_int_equal(gw_wizard_esxi_open_vm(w, vm_index(w, "llm-train"), &e), 0);
	gw_wizard_set_force(w, 1);   /* 64 GB of memory for 96 GB of GPUs */
	assert_true(gw_wizard_plan(w) != NULL);
	assert_int_equal(gw_wizard_plan(w)->n_passthru, 1);
	assert_int_equal(gw_wizard_plan(w)->total_vram_gb, 96);
	if (gw_wizard_write(w) != 0)
		fail_msg("%s", gw_wizard_error(w, GW_ERR_WRITE));
	vmx = gw_xasprintf("%s/volumes/datastore1/llm-train/llm-train.vmx",
	                   w->scratch);
	text = read_text(vmx);
	assert_non_null(strstr(text, "pciPassthru0.present = \"TRUE\""));
	assert_non_null(strstr(text, "pciPassthru1.id = \"00000:094:00.0\""));
	assert_non_null(strstr(text, "pciPassthru.64bitMMIOSizeGB = \"256\""));
	free(text);
	free(vmx);
	done(w);
}

/* A plan that adds a GPU changes the VM: not "nothing to change", and
 * the write takes its backup.  (The replay onto a VM that already has
 * the result, where it is 1, is test_tui_state.sh's "on top".) */
static void
test_changes_nothing(void **state)
{
	gw_wizard *w;
	gw_err e;

	(void)state;
	w = start(NULL, "esxi-l40s");
	assert_int_equal(gw_wizard_changes_nothing(w), 0);   /* no VM */
	assert_int_equal(gw_wizard_esxi_open_vm(w, vm_index(w, "llm-train"), &e), 0);
	assert_int_equal(gw_wizard_add_gpu(w, gpu("l40s"), NULL, 2, &e), 0);
	gw_wizard_set_force(w, 1);   /* 64 GB of memory for 96 GB of GPUs */
	assert_int_equal(gw_wizard_changes_nothing(w), 0);
	if (gw_wizard_write(w) != 0)
		fail_msg("%s", gw_wizard_error(w, GW_ERR_WRITE));
	assert_non_null(gw_wizard_result(w)->backup);
	assert_false(gw_wizard_result(w)->vmx_unchanged);
	done(w);
}

/* An answers file naming a sample host: another sample asks first (the
 * file's choices there are dropped), and every scratch directory made is
 * kept and listed for the exit. */
static void
test_sample_leaves_answers(void **state)
{
	char *dir = tu_tmpdir(), *ans, *first;
	const char *const *left;
	gw_wizard *w;
	gw_err e;
	size_t n;

	(void)state;
	ans = write_text(dir, "class.ini", "[host]\nkind = sample\naddress = esxi-l40s\n"
	                 "[gpu]\ndevices = l40s=1\n[vm]\nname = llm-train\n");
	w = start(ans, NULL);
	assert_string_equal(gw_wizard_sample_name(w), "esxi-l40s");
	assert_int_equal(gw_wizard_sample_leaves_answers(w, "intel-2x-l40s"), 1);
	assert_int_equal(gw_wizard_sample_leaves_answers(w, "esxi-l40s"), 0);
	left = gw_wizard_scratch_left(w, &n);
	assert_int_equal(n, 0);
	first = gw_xstrdup(gw_wizard_scratch(w));
	assert_int_equal(gw_wizard_use_sample(w, "intel-2x-l40s", &e), 0);
	left = gw_wizard_scratch_left(w, &n);
	assert_int_equal(n, 1);
	assert_string_equal(left[0], first);
	assert_int_equal(access(first, F_OK), 0);    /* kept, named on exit */
	/* the file's host left: no more question */
	assert_int_equal(gw_wizard_sample_leaves_answers(w, "esxi-l40s"), 0);
	done(w);
	free(first);

	/* no answers file: nothing to leave */
	w = start(NULL, "esxi-l40s");
	assert_int_equal(gw_wizard_sample_leaves_answers(w, "intel-2x-l40s"), 0);
	done(w);
	unlink(ans);
	free(ans);
	tu_rm_tree(dir);
	free(dir);
}

/* An SSH or API host of the file, not given on the command line: its
 * values are kept (and saved again); the error says how to connect. */
static void
test_ssh_not_connected(void **state)
{
	char *dir = tu_tmpdir(), *ans, *again, *text;
	gw_wizard *w;
	gw_err e;

	(void)state;
	ans = write_text(dir, "ssh.ini",
	                 "[host]\nkind = ssh\naddress = root@esx01:2222\n"
	                 "identity = keys/id_ed25519\n"
	                 "[vm]\nname = llm-train\n"
	                 "[gpu]\ndevices = l40s\n"
	                 "[output]\ndir = out\nformats = vmx\n");
	w = start(ans, NULL);
	assert_int_equal(gw_wizard_mode(w), GW_MODE_OFFLINE);
	assert_non_null(gw_wizard_error(w, GW_ERR_HOST));
	/* the replay connects with the file's address: here its identity
	 * file is missing, so nothing is run; one line names the key */
	assert_non_null(strstr(gw_wizard_error(w, GW_ERR_HOST),
	                       "ssh.ini: [host] address:"));
	again = gw_xasprintf("%s/again.ini", dir);
	if (gw_wizard_save_answers(w, again, &e) != 0)
		fail_msg("%s", e.msg);
	text = read_text(again);
	assert_non_null(strstr(text, "kind = ssh\naddress = root@esx01:2222\n"));
	assert_non_null(strstr(text, "identity = "));
	assert_non_null(strstr(text, "name = llm-train\n"));
	free(text);
	gw_wizard_delete(w);
	unlink(again);
	free(again);
	unlink(ans);
	free(ans);
	tu_rm_tree(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_route_switch),
		cmocka_unit_test(test_save_replay_sample),
		cmocka_unit_test(test_language_order),
		cmocka_unit_test(test_next_ansible),
		cmocka_unit_test(test_save_replay_changes),
		cmocka_unit_test(test_write_host_vm_two_gpus),
		cmocka_unit_test(test_host_gpu_beside_the_vms_own),
		cmocka_unit_test(test_changes_nothing),
		cmocka_unit_test(test_sample_leaves_answers),
		cmocka_unit_test(test_ssh_not_connected),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
