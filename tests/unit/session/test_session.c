/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_session.c: the session (src/session/session.h) on the esxi-l40s
 * sample host: the VMs, the answers from the host, the refusal policy (a
 * VM that is not powered off is never written, force or not; FAIL
 * findings only with force), the .vmx save and reload, and the queue of
 * host changes. */
#include "testutil.h"
#include "session.h"
#include "emit.h"

#include <sys/stat.h>
#include <unistd.h>

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

static int
exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

/* The sample host, a session on it, its VMs listed. */
/* Take every change off the queue: none of them ran. */
static void
drop_queue(gw_session *s)
{
	while (s->nqueue > 0)
		assert_int_equal(gw_session_unqueue(s, 0), 0);
}

static gw_host *
open_sample(gw_session *s)
{
	gw_host *h;
	gw_err e;

	if (gw_host_open_sample("esxi-l40s", 0, &h, &e) != 0)
		fail_msg("%s", e.msg);
	gw_session_init(s, h);
	if (gw_session_list_vms(s, &e) != 0)
		fail_msg("%s", e.msg);
	return h;
}

/* The answers for one L40S at the host's first GPU. */
static void
l40s_answers(gw_session *s, gw_answers_file *af, const char *out)
{
	gw_err e;

	memset(af, 0, sizeof *af);
	gw_answers_init(&af->a);
	if (gw_answers_add_gpu(&af->a, &table, "l40s", "--gpu", &e) != 0 ||
	    gw_answers_add_bdf(&af->a, "0000:3b:00.0", "--bdf", &e) != 0 ||
	    gw_session_answers_facts(s, &af->a, &e) != 0)
		fail_msg("%s", e.msg);
	af->out_dir = out ? gw_xstrdup(out) : NULL;
	af->formats = out ? GW_FMT_VMX : 0;
}

/* The write of p and v described and run, as the front ends do it. */
static int
apply(gw_session *s, const gw_answers_file *af, const gw_plan *p, gw_vmx **v,
      gw_apply_result *res, gw_err *e)
{
	gw_session_write w;
	int rc;

	memset(res, 0, sizeof *res);
	if (gw_session_write_prepare(s, af, p, *v, &w, e) != 0)
		return -1;
	rc = gw_session_write_run(s, &w, v, res, e);
	gw_session_write_free(&w);
	return rc;
}

static void
test_vms(void **state)
{
	gw_session s;
	gw_host *h;
	gw_vmx *v = NULL;
	gw_err e;

	(void)state;
	h = open_sample(&s);
	assert_int_equal(s.vms.list.n, 3);
	assert_int_equal(gw_session_find_vm(&s, "win2016-vdi", &e), 1);
	assert_int_equal(gw_session_find_vm(&s, "3", &e), 2);
	assert_int_equal(gw_session_find_vm(&s, "nope", &e), -1);
	assert_non_null(strstr(e.msg, "no VM 'nope'"));
	assert_null(gw_session_vm(&s));
	assert_int_equal(gw_session_open_vm(&s, 9, &v, NULL, &e), -1);
	assert_int_equal(gw_session_open_vm(&s, 1, &v, NULL, &e), 0);
	assert_int_equal(s.power, GW_POWER_ON);
	assert_false(gw_session_vm_off(&s));
	assert_non_null(strstr(s.vmx_where, "win2016-vdi.vmx"));
	/* a new listing finds it again */
	assert_int_equal(gw_session_list_vms(&s, &e), 0);
	assert_int_equal(s.vm, 1);
	gw_vmx_free(v);
	gw_session_close_vm(&s);
	assert_null(gw_session_vm(&s));
	gw_session_free(&s);
	gw_host_close(h);
}

static void
test_refusal(void **state)
{
	char *out = tu_tmpdir(), *snippet;
	gw_answers_file af;
	gw_apply_result res;
	gw_session s;
	gw_plan p;
	gw_host *h;
	gw_vmx *v = NULL;
	gw_err e;

	(void)state;
	h = open_sample(&s);
	snippet = gw_xasprintf("%s/%s", out, gw_format_filename(GW_FMT_VMX));
	l40s_answers(&s, &af, out);
	assert_string_equal(af.a.esxi_version, "8.0U2");
	assert_non_null(af.a.system_id);

	/* powered on: never written, with force too; no snippet left */
	assert_int_equal(gw_session_open_vm(&s, 1, &v, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&af.a, &table, v, &p, &e), 0);
	af.force = 1;
	memset(&res, 0, sizeof res);
	assert_int_equal(apply(&s, &af, &p, &v, &res, &e), -1);
	assert_non_null(strstr(e.msg, "Powered on"));
	assert_false(exists(snippet));
	gw_apply_result_free(&res);
	gw_plan_free(&p);
	gw_vmx_free(v);

	/* a plan with failures: only with force */
	assert_int_equal(gw_session_open_vm(&s, 0, &v, NULL, &e), 0);
	assert_true(gw_session_vm_off(&s));
	assert_int_equal(gw_plan_build(&af.a, &table, v, &p, &e), 0);
	assert_true(gw_session_may_write(&p, 1, NULL));
	if (gw_plan_has_errors(&p)) {
		af.force = 0;
		assert_false(gw_session_may_write(&p, 0, &e));
		assert_non_null(strstr(e.msg, "not written"));
		assert_int_equal(apply(&s, &af, &p, &v, &res, &e), -1);
		assert_non_null(strstr(e.msg, "FAIL"));
		af.force = 1;
	}

	/* powered off: saved with a backup, reloaded */
	if (apply(&s, &af, &p, &v, &res, &e) != 0)
		fail_msg("%s", e.msg);
	assert_true(s.last.changed);
	assert_true(s.last.reloaded);
	assert_non_null(res.backup);
	assert_false(res.vmx_unchanged);
	assert_true(exists(snippet));
	{
		char buf[512];

		assert_int_equal(gw_session_reload_warning(&s, buf, sizeof buf), 0);
	}
	gw_apply_result_free(&res);
	gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_file_free(&af);
	gw_session_free(&s);
	gw_host_close(h);
	unlink(snippet);
	free(snippet);
	rmdir(out);
	free(out);
}

static void
test_queue(void **state)
{
	gw_answers_file af;
	gw_session s;
	gw_plan p;
	gw_host *h;
	gw_vmx *v = NULL;
	gw_err e;
	size_t k;
	int to;

	(void)state;
	h = open_sample(&s);
	l40s_answers(&s, &af, NULL);
	assert_int_equal(gw_session_open_vm(&s, 0, &v, NULL, &e), 0);   /* vmx-13 */
	assert_int_equal(gw_plan_build(&af.a, &table, v, &p, &e), 0);
	to = gw_session_upgrade_target(&s, &p);
	assert_int_equal(to, 21);
	k = gw_session_queue_upgrade(&s, p.hw_current, to);
	assert_int_equal(s.nqueue, 1);
	assert_false(s.queue[k].done);
	if (gw_session_run_queue(&s, &v, &e) != 0)
		fail_msg("%s", e.msg);
	assert_true(s.queue[k].done);
	assert_int_equal(s.vm, 0);
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "21");
	/* the queue runs a change once; a change that ran stays on it */
	assert_int_equal(gw_session_pending(&s), 0);
	assert_int_equal(gw_session_run_queue(&s, &v, &e), 0);
	assert_true(s.queue[k].done);
	assert_int_equal(gw_session_unqueue(&s, k), -1);
	assert_int_equal(s.nqueue, 1);
	gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_file_free(&af);
	gw_session_free(&s);
	gw_host_close(h);
}

/* The step reports of a run: "k/n what", one line each. */
static void
note_step(void *ctx, size_t k, size_t n, const char *what)
{
	char *log = ctx, line[256];

	snprintf(line, sizeof line, "%zu/%zu %s\n", k, n, what);
	strncat(log, line, 1024 - strlen(log) - 1);
}

/* The sample's GPUs probed: index 1 is 0000:5e:00.0, passthrough off. */
static void
probe(gw_session *s, gw_host_probe *p)
{
	gw_host_probe_all(s->host, &table, p);
	assert_int_equal(p->ngpus, 2);
	assert_string_equal(p->gpus[1].bdf, "0000:5e:00.0");
	assert_int_equal(gw_host_gpu_passthru(s->host, 1), 0);
}

/* Queue and take back; a queued enable counts as enabled for the plan's
 * host counts; the review's words; the run in order with its reports;
 * nothing on the host before the run. */
static void
test_queue_enable(void **state)
{
	gw_session s;
	gw_host_probe p;
	gw_answers a;
	gw_host *h;
	gw_vmx *v = NULL;
	gw_err e;
	char log[1024] = "", *t;
	size_t k;

	(void)state;
	h = open_sample(&s);
	probe(&s, &p);
	gw_answers_init(&a);
	gw_session_fill_avail(&s, h, &a, p.gpus, p.ngpus);
	assert_int_equal(a.navail, 1);
	assert_int_equal(a.avail[0].detected, 2);
	assert_int_equal(a.avail[0].count, 1);   /* 5e is off */

	k = gw_session_queue_enable(&s, 1, "0000:5e:00.0");
	assert_int_equal(gw_session_find_enable(&s, 1), (long)k);
	assert_int_equal(gw_session_gpu_passthru(&s, h, 1), 1);
	assert_int_equal(gw_session_gpu_passthru(&s, NULL, 1), -1);
	gw_session_fill_avail(&s, h, &a, p.gpus, p.ngpus);
	assert_int_equal(a.avail[0].count, 2);   /* as if enabled */

	t = gw_session_change_title(&s, &s.queue[k]);
	assert_string_equal(t, "Enable passthrough on 0000:5e:00.0");
	free(t);
	t = gw_session_change_command(&s, &s.queue[k]);
	assert_string_equal(t, "esxcli hardware pci pcipassthru set -d 0000:5e:00.0 -e true -a");
	free(t);

	/* taken back: off again */
	assert_int_equal(gw_session_unqueue(&s, k), 0);
	assert_int_equal(s.nqueue, 0);
	assert_int_equal(gw_session_find_enable(&s, 1), -1);
	assert_int_equal(gw_session_gpu_passthru(&s, h, 1), 0);
	assert_int_equal(gw_session_unqueue(&s, 0), -1);

	/* queued again with the upgrade of ubuntu-l40s: they run in order,
	 * each reported, the caller's own step counted */
	k = gw_session_queue_enable(&s, 1, "0000:5e:00.0");
	assert_int_equal(gw_session_open_vm(&s, 0, &v, NULL, &e), 0);
	gw_session_queue_upgrade(&s, 13, 21);
	assert_int_equal(gw_session_find_upgrade(&s), 1);
	assert_int_equal(gw_session_pending(&s), 2);
	t = gw_session_change_command(&s, &s.queue[1]);
	assert_string_equal(t, "vim-cmd vmsvc/upgrade 1 vmx-21");
	free(t);
	assert_int_equal(gw_host_gpu_passthru(h, 1), 0);   /* nothing ran */
	s.steps_after = 1;
	gw_session_set_steps(&s, note_step, log);
	if (gw_session_run_queue(&s, &v, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(log, "1/3 Enabling passthrough on 0000:5e:00.0...\n"
	                         "2/3 Upgrading the VM's hardware version...\n");
	assert_true(s.queue[0].done && s.queue[1].done);
	assert_int_equal(gw_session_pending(&s), 0);
	assert_int_equal(gw_session_find_upgrade(&s), -1);   /* done */
	assert_int_equal(gw_session_unqueue(&s, 0), -1);     /* ran */
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "21");
	gw_host_probe_free(&p);
	gw_host_probe_all(h, &table, &p);   /* the host has it on now */
	assert_int_equal(gw_host_gpu_passthru(h, 1), 1);
	gw_host_probe_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
	gw_session_free(&s);
	gw_host_close(h);
}

/* A failure in the middle: the change before it stays done, the failed
 * one and those after it wait; the apply would come only after. */
static void
test_queue_failure(void **state)
{
	gw_session s;
	gw_host_probe p;
	gw_host *h;
	gw_vmx *v = NULL;
	gw_err e;
	char log[1024] = "";

	(void)state;
	h = open_sample(&s);
	gw_host_probe_all(h, &table, &p);
	gw_session_queue_enable(&s, 1, "0000:5e:00.0");
	/* win2016-vdi is powered on: its upgrade is refused by the host */
	assert_int_equal(gw_session_open_vm(&s, 1, &v, NULL, &e), 0);
	gw_session_queue_upgrade(&s, 19, 21);
	gw_session_queue_enable(&s, 0, "0000:3b:00.0");
	gw_session_set_steps(&s, note_step, log);
	e.msg[0] = '\0';
	assert_int_equal(gw_session_run_queue(&s, &v, &e), -1);
	assert_non_null(strstr(e.msg, "Powered on"));
	assert_true(s.queue[0].done);
	assert_false(s.queue[1].done);
	assert_false(s.queue[2].done);
	assert_int_equal(gw_session_pending(&s), 2);
	assert_string_equal(log, "1/3 Enabling passthrough on 0000:5e:00.0...\n"
	                         "2/3 Upgrading the VM's hardware version...\n");
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "19");
	gw_host_probe_free(&p);
	gw_vmx_free(v);
	gw_session_free(&s);
	gw_host_close(h);
}

/* The sample's commands.log (what the stand-ins ran), or "". */
static char *
commands(const gw_host *h)
{
	char *path = gw_xasprintf("%s/commands.log", gw_host_scratch(h));
	char *data = NULL;
	size_t len;
	gw_err e;

	if (gw_read_file(path, 1u << 20, &data, &len, &e) != 0)
		data = gw_xstrdup("");
	free(path);
	return data;
}

/* A step of kind k in d: its index, or -1. */
static long
step_of(const gw_write_desc *d, gw_write_kind k)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].kind == k)
			return (long)i;
	return -1;
}

/* The write described, then run: the description changes nothing (no
 * command on the host, no file); the run does what it says, in its
 * order (the enable before the .vmx and its reload); with force off a
 * plan with failures is refused by the one rule. */
static void
test_write_described(void **state)
{
	char *out = tu_tmpdir(), *dir, *snippet, *log, *after_log, *at;
	gw_answers_file af;
	gw_apply_result res;
	gw_session_write w;
	gw_session s;
	gw_plan p;
	gw_host *h;
	gw_vmx *v = NULL;
	gw_host_probe pr;
	gw_err e;
	long k;

	(void)state;
	h = open_sample(&s);
	gw_host_probe_all(h, &table, &pr);
	dir = gw_xasprintf("%s/new", out);
	snippet = gw_xasprintf("%s/%s", dir, gw_format_filename(GW_FMT_VMX));
	l40s_answers(&s, &af, dir);
	af.force = 1;
	assert_int_equal(gw_session_open_vm(&s, 0, &v, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&af.a, &table, v, &p, &e), 0);
	gw_session_queue_enable(&s, 1, "0000:5e:00.0");
	log = commands(h);

	if (gw_session_write_prepare(&s, &af, &p, v, &w, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(w.desc.n, 3);
	assert_int_equal(w.desc.v[0].kind, GW_WRITE_HOST);
	assert_string_equal(w.desc.v[0].command,
	                    "esxcli hardware pci pcipassthru set -d 0000:5e:00.0 -e true -a");
	k = step_of(&w.desc, GW_WRITE_VMX_HOST);
	assert_int_equal(k, 1);
	assert_string_equal(w.desc.v[k].what, s.vmx_where);
	assert_string_equal(w.desc.v[k].command, "vim-cmd vmsvc/reload 1");
	assert_true(w.desc.v[k].nlines > 0);
	assert_int_equal(w.desc.v[2].kind, GW_WRITE_FILE);
	assert_string_equal(w.desc.v[2].what, snippet);
	/* described only: nothing ran, nothing written */
	after_log = commands(h);
	assert_string_equal(after_log, log);
	free(after_log);
	assert_false(exists(dir));
	assert_int_equal(gw_session_pending(&s), 1);

	/* run: the host's commands in the description's order, the files */
	if (gw_session_write_run(&s, &w, &v, &res, &e) != 0)
		fail_msg("%s", e.msg);
	after_log = commands(h);
	at = strstr(after_log, w.desc.v[0].command);
	assert_non_null(at);
	assert_non_null(strstr(at, w.desc.v[k].command));
	assert_true(exists(snippet));
	assert_true(s.queue[0].done);
	assert_non_null(res.backup);
	assert_string_equal(res.vmx_path, s.vmx_where);
	{
		/* the .vmx on the host has every line the description set */
		gw_vmx *now = NULL;
		size_t i;

		assert_int_equal(gw_session_open_vm(&s, 0, &now, NULL, &e), 0);
		for (i = 0; i < w.desc.v[k].nlines; i++) {
			const char *l = w.desc.v[k].lines[i];
			char key[128];
			const char *eq = strstr(l, " = ");

			if (l[0] != '+')
				continue;
			snprintf(key, sizeof key, "%.*s", (int)(eq - l - 2), l + 2);
			assert_non_null(gw_vmx_get(now, key));
			assert_non_null(strstr(l, gw_vmx_get(now, key)));
		}
		gw_vmx_free(now);
	}
	free(after_log);
	gw_session_write_free(&w);
	gw_apply_result_free(&res);
	unlink(snippet);
	rmdir(dir);

	/* the one refusal rule, before anything is described */
	if (gw_plan_has_errors(&p)) {
		af.force = 0;
		assert_int_equal(gw_session_write_prepare(&s, &af, &p, v, &w, &e), -1);
		assert_non_null(strstr(e.msg, "not written"));
	}
	free(log);
	gw_host_probe_free(&pr);
	gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_file_free(&af);
	gw_session_free(&s);
	gw_host_close(h);
	free(snippet);
	free(dir);
	rmdir(out);
	free(out);
}

/* A host that refuses: an enable the host would refuse (the datastore's
 * controller) is refused as the write is described; a host change that
 * fails when it runs, or a .vmx the host will not take (a powered-on VM)
 * stops the write: no snippet file and no directory is left behind. */
static void
test_write_host_refuses(void **state)
{
	char *out = tu_tmpdir(), *dir;
	gw_answers_file af;
	gw_apply_result res;
	gw_session_write w;
	gw_session s;
	gw_plan p;
	gw_host *h;
	gw_vmx *v = NULL;
	gw_err e;

	(void)state;
	h = open_sample(&s);
	dir = gw_xasprintf("%s/new", out);
	l40s_answers(&s, &af, dir);
	af.force = 1;
	assert_int_equal(gw_session_open_vm(&s, 0, &v, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&af.a, &table, v, &p, &e), 0);
	/* the LSI SAS controller holds datastore1: refused as the write is
	 * described (the host asked, read only) */
	gw_session_queue_enable_bdf(&s, "0000:04:00.0", NULL);
	assert_int_equal(gw_session_write_prepare(&s, &af, &p, v, &w, &e), -1);
	assert_non_null(strstr(e.msg, "datastore1"));
	assert_false(exists(dir));
	drop_queue(&s);
	gw_plan_free(&p);
	gw_vmx_free(v);
	v = NULL;

	/* a host change that fails when it runs (win2016-vdi read as off,
	 * powered on now: the host refuses its upgrade): no file */
	assert_int_equal(gw_session_open_vm(&s, 1, &v, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&af.a, &table, v, &p, &e), 0);
	s.power = GW_POWER_OFF;
	gw_session_queue_upgrade(&s, 19, 21);
	if (gw_session_write_prepare(&s, &af, &p, v, &w, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_session_write_run(&s, &w, &v, &res, &e), -1);
	assert_non_null(strstr(e.msg, "Powered on"));
	assert_false(exists(dir));
	gw_session_write_free(&w);
	drop_queue(&s);
	gw_plan_free(&p);
	gw_vmx_free(v);
	v = NULL;

	/* win2016-vdi is powered on: refused as described, and by the host
	 * when the session's state is stale (read off, on now) */
	assert_int_equal(gw_session_open_vm(&s, 1, &v, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&af.a, &table, v, &p, &e), 0);
	assert_int_equal(gw_session_write_prepare(&s, &af, &p, v, &w, &e), -1);
	assert_non_null(strstr(e.msg, "win2016-vdi is Powered on"));
	s.power = GW_POWER_OFF;
	if (gw_session_write_prepare(&s, &af, &p, v, &w, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_session_write_run(&s, &w, &v, &res, &e), -1);
	assert_non_null(strstr(e.msg, "Powered on"));
	assert_false(exists(dir));
	gw_session_write_free(&w);
	gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_file_free(&af);
	gw_session_free(&s);
	gw_host_close(h);
	free(dir);
	rmdir(out);
	free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vms),
		cmocka_unit_test(test_refusal),
		cmocka_unit_test(test_queue),
		cmocka_unit_test(test_queue_enable),
		cmocka_unit_test(test_queue_failure),
		cmocka_unit_test(test_write_described),
		cmocka_unit_test(test_write_host_refuses),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
