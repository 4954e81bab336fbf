/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_vmx.c: vmx FILE..., or vmx --vm NAME|VMID on an ESXi host (--ssh, a
 * sample host, the ESXi shell): the .vmx is read from the datastore and,
 * with --write, saved back there (VM powered off only; backup beside it)
 * and the VM reloaded; every write goes through the session
 * (session_apply.c), and --dry-run prints what it would do instead.  On a host the ESXi version and, for --bdf, the
 * system id come from the host unless given; --upgrade-hw first raises
 * the VM's hardware version to the host's newest (vim-cmd vmsvc/upgrade,
 * VM off, never down).  Several FILEs (or a directory: the .vmx files in
 * it and in its folders, the layout of a datastore) get the same plan
 * each, with the table read once; a file that fails is one line on
 * stderr and the others go on (doc/design.md, section 8).
 */
#include "cli_int.h"
#include "textesc.h"
#include "out.h"
#include "jsonutil.h"
#include "write_report.h"
#include "vmx.h"
#include "safefile.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct vmx_job {
	gw_host *h;                /* --vm: the host */
	gw_session s;              /* --vm: the VM open on it */
	const gw_vm *vm;      /* --vm: the open VM, else NULL */
	char *shown;               /* --vm: "HOST:PATH" */
	const char *path;          /* the .vmx as the output names it */
	gw_vmx *v;                 /* as read */
	gw_vmx *after;             /* with the plan applied */
	gw_plan p;
	int have_plan;
	gw_session_write w;        /* the write described */
	int have_w;
	char *backup;
	char *refusal;             /* why the write was refused */
	cli_opts *o;               /* for the plan made anew after an upgrade */
	const gw_table *t;
	int upgrade_to;            /* --upgrade-hw: queued to this version */
	int changed, written, upgraded, reloaded;
} vmx_job;

static int
vmx_args(const cli_opts *o, gw_err *e)
{
	if (o->vm == NULL && (o->ssh || o->sample)) {
		gw_err_set(e, "%s", _("--vm: missing (expected the VM's name or Vmid on the host; gpuwiz vms lists them)"));
		return -1;
	}
	if (o->vm == NULL && o->nargs == 0) {
		gw_err_set(e, "%s", _("missing the .vmx FILE to read"));
		return -1;
	}
	if (o->vm != NULL && o->nargs > 0) {
		gw_err_set(e, _("--vm reads the .vmx from the host; unexpected '%s'"),
		           o->args[0]);
		return -1;
	}
	if (o->vm == NULL && o->upgrade) {
		gw_err_set(e, "%s", _("--upgrade-hw needs --vm on an ESXi host (vim-cmd vmsvc/upgrade)"));
		return -1;
	}
	return 0;
}

/* --upgrade-hw: raise the VM to the host's newest hardware version, a
 * host change of the write (queued; the write runs it first, and with
 * --dry-run it is listed).  Until then the plan is made on the .vmx as
 * the upgrade leaves it, as the wizard does (doc/design.md, 6.4). */
static int
vmx_upgrade(const cli_opts *o, vmx_job *j, gw_err *e)
{
	const char *cur = gw_vmx_get(j->v, "virtualHW.version");
	unsigned long long hw = 0;
	int target = o->a.esxi_version ? gw_esxi_to_hw(o->a.esxi_version) : 0;
	char v[16];

	if (cur == NULL || gw_parse_uint(cur, 99, &hw) != 0 || target == 0) {
		gw_err_set(e, _("%s: --upgrade-hw: the VM's or the host's hardware version is unknown"),
		           j->s.vmx_where);
		return -1;
	}
	if ((int)hw >= target)
		return 0;
	gw_session_queue_upgrade(&j->s, (int)hw, target);
	j->upgrade_to = target;
	snprintf(v, sizeof v, "%d", target);
	return gw_vmx_set(j->v, "virtualHW.version", v, e);
}

/* The host's GPUs, free for passthrough or not, as the plan's host
 * counts (the gpu-count-host WARN, as in the wizard).  Advice only: GPUs
 * that cannot be listed leave the plan without counts. */
static void
host_counts(vmx_job *j, gw_answers *a)
{
	gw_err le;

	if (gw_session_host_avail(&j->s, a, &le) != 0)
		gw_answers_clear_avail(a);
}

/* --vm: the host's facts the options lack (its ESXi version; for --bdf
 * its system id), the VM opened and its .vmx read (after --upgrade-hw). */
static int
vmx_read_host(cli_opts *o, vmx_job *j, gw_err *e)
{
	long idx;

	/* the host route picks the host's own devices (fixed passthrough);
	 * Dynamic DirectPath I/O is vCenter's placement (the rule of
	 * gw_host_dynamic_check, doc/design.md, section 15.4) */
	if (cli_host_open(o, GW_HOST_NEED_ESXI, &j->h, e) != 0 ||
	    gw_host_dynamic_check(j->h, &o->a, e) != 0)
		return -1;
	gw_session_init(&j->s, j->h);
	if (gw_session_answers_facts(&j->s, &o->a, e) != 0 ||
	    gw_session_list_vms(&j->s, e) != 0 ||
	    (idx = gw_session_find_vm(&j->s, o->vm, e)) < 0 ||
	    gw_session_open_vm(&j->s, idx, &j->v, NULL, e) != 0)
		return -1;
	if (o->upgrade && vmx_upgrade(o, j, e) != 0)
		return -1;
	host_counts(j, &o->a);
	j->vm = gw_session_vm(&j->s);
	j->shown = gw_xasprintf("%s:%s", gw_host_label(j->h), j->s.vmx_where);
	j->path = j->shown;
	return 0;
}

/* The plan, applied to a copy of the document: changed or not.  The
 * write takes that copy as it is (gw_session_write_prepare_applied). */
static int
vmx_plan(cli_opts *o, const gw_table *t, vmx_job *j, gw_err *e)
{
	if (gw_plan_build(&o->a, t, j->v, &j->p, e) != 0)
		return -1;
	j->have_plan = 1;
	j->after = gw_vmx_dup(j->v);
	if (gw_plan_apply_vmx(&j->p, j->after, e) != 0)
		return -1;
	j->changed = !gw_vmx_same(j->v, j->after);
	return 0;
}

/* The write ran the host changes (session.h: gw_session_changes_fn): the
 * upgrade read the .vmx again into j->v; the plan anew on it. */
static int
vmx_changes_ran(void *ctx, int rc, const gw_plan **p, gw_err *e)
{
	vmx_job *j = ctx;

	/* the upgrade listed the VMs again: the open one's entry moved */
	j->vm = gw_session_vm(&j->s);
	if (rc != 0 || j->vm == NULL)
		return -1;
	j->upgraded = j->upgrade_to;
	if (*p == NULL)
		return 0;   /* the upgrade alone (no --write) */
	gw_plan_free(&j->p);
	j->have_plan = 0;
	gw_vmx_free(j->after);
	j->after = NULL;
	if (vmx_plan(j->o, j->t, j, e) != 0)
		return -1;
	*p = &j->p;
	return 0;
}

/* --write (or --dry-run): the session describes the write (on the host:
 * saved there, backup beside it, the VM reloaded; never a VM that is not
 * off, --force or not), refuses a plan with failures unless --force, and
 * runs it, or with --dry-run leaves it described. */
static int
vmx_write(const cli_opts *o, vmx_job *j, gw_err *e)
{
	gw_answers_file af;
	gw_apply_result res;
	gw_vmx *after;
	gw_err le;

	/* what a killed --write left goes, changes or not (safefile.h) */
	if (o->write && !o->dry_run && j->vm == NULL)
		(void)gw_tmp_sweep(j->path);
	if (!o->dry_run && gw_session_pending(&j->s) == 0 &&
	    (!o->write || !j->changed))
		return 0;
	memset(&af, 0, sizeof af);
	af.force = o->force;
	af.vmx_path = j->vm == NULL ? (char *)j->path : NULL;
	/* without --write, only the upgrade; with it, the write takes the
	 * document the plan was applied to */
	after = o->write ? j->after : NULL;
	if (o->write)
		j->after = NULL;
	if (gw_session_write_prepare_applied(&j->s, &af, o->write ? &j->p : NULL,
	                                     o->write ? j->v : NULL, after,
	                                     &j->w, &le) != 0) {
		if (gw_session_may_write(&j->p, o->force, NULL)) {
			gw_err_set(e, "%s", le.msg);
			return -1;
		}
		/* reported below, after the findings it refers to */
		j->refusal = gw_xstrdup(le.msg);
		return 0;
	}
	gw_session_set_on_changes(&j->s, vmx_changes_ran, j);
	j->have_w = 1;
	if (cli_write(o, &j->s, &j->w, &j->v, &res, e) != 0)
		return -1;
	if (!o->dry_run && o->write && j->changed) {
		j->written = 1;
		j->backup = res.backup ? gw_xstrdup(res.backup) : NULL;
		j->reloaded = j->s.last.reloaded;
	}
	gw_apply_result_free(&res);
	return 0;
}

static json_t *
vmx_json(const vmx_job *j)
{
	json_t *o = gw_plan_json(&j->p, GW_TOPIC_ALL);

	json_object_set_new(o, "file", gw_json_text(j->path));
	json_object_set_new(o, "changed", json_boolean(j->changed));
	json_object_set_new(o, "written", json_boolean(j->written));
	json_object_set_new(o, "backup", j->backup ? gw_json_text(j->backup) : json_null());
	if (j->vm != NULL) {
		json_object_set_new(o, "vmid", json_integer((json_int_t)j->vm->vmid));
		json_object_set_new(o, "power", json_string(cli_power_word(j->s.power)));
		json_object_set_new(o, "upgraded_to", j->upgraded ?
		                    json_integer(j->upgraded) : json_null());
		json_object_set_new(o, "reloaded", json_boolean(j->reloaded));
	}
	/* --dry-run: what the write would do, as its text prints it */
	if (j->o->dry_run) {
		json_object_set_new(o, "dry_run", json_true());
		json_object_set_new(o, "write", j->have_w ?
		                    gw_write_desc_json(&j->w.desc, NULL) : json_null());
	}
	return o;
}

/* What became of the file: unchanged, saved, not written; the reload. */
static void
vmx_text_outcome(const cli_opts *o, const vmx_job *j)
{
	if (o->dry_run) {
		if (j->have_w)
			cli_print_dry_run(&j->w.desc);
		return;
	}
	if (!j->changed)
		printf("%s\n", _("Nothing to change: the file already has these settings."));
	else if (j->written)
		gw_fprintf_escaped(stdout, _("Saved %s (backup: %s).\n"), j->path, j->backup);
	else if (!o->write)
		printf("%s\n", _("Nothing was written: add --write to save these changes."));
	if (!j->written || j->vm == NULL)
		return;
	if (j->reloaded)
		printf(_("Reloaded the VM (vim-cmd vmsvc/reload %lu); power it on with: vim-cmd vmsvc/power.on %lu\n"),
		       j->vm->vmid, j->vm->vmid);
	else
		gw_fprintf_escaped(stdout, _("The VM could not be reloaded (%s); run: vim-cmd vmsvc/reload %lu\n"),
		       j->s.last.reload_error, j->vm->vmid);
}

static void
vmx_text(const cli_opts *o, const vmx_job *j)
{
	gw_fprintf_escaped(stdout, _("VM: %s\n"), j->path);
	if (j->vm != NULL)
		/* TRANSLATORS: the VM on the host: its id and power
		 * state. */
		printf(_("  Vmid %lu, %s\n"), j->vm->vmid, gw_power_name(j->s.power));
	if (j->upgraded)
		/* TRANSLATORS: %d is the new hardware version. */
		printf(_("Upgraded the hardware version to vmx-%d.\n"), j->upgraded);
	gw_plan_print_gpus(stdout, &j->p);
	printf("%s\n", _("Calculation:"));
	gw_plan_print_steps(stdout, &j->p);
	gw_plan_print_changes(stdout, &j->p);
	if (j->vm != NULL)
		cli_upgrade_hint(&j->p, o->upgrade);
	vmx_text_outcome(o, j);
}

static void
vmx_job_free(vmx_job *j)
{
	if (j->have_w)
		gw_session_write_free(&j->w);
	free(j->backup);
	free(j->refusal);
	free(j->shown);
	if (j->have_plan)
		gw_plan_free(&j->p);
	gw_vmx_free(j->v);
	gw_vmx_free(j->after);
	gw_session_free(&j->s);
	gw_host_close(j->h);
}

/* One .vmx: read (path, or --vm on the host), planned, written with
 * --write, shown (in text) or added to *json.  0, 1 (findings) or 2 with
 * e. */
static int
vmx_one(cli_opts *o, const gw_table *t, const char *path, json_t **json,
        gw_err *e)
{
	vmx_job j;
	int rc = EXIT_USAGE, lock = -1;

	memset(&j, 0, sizeof j);
	gw_session_init(&j.s, NULL);
	j.o = o;
	j.t = t;
	if (path != NULL) {
		j.path = path;
		/* gpuwiz's lock from the read to the write: a second run
		 * waits and plans on what this one wrote */
		if (o->write && !o->dry_run && gw_vmx_lock(path, &lock, e) != 0)
			goto out;
		/* read through the lock's descriptor: the file locked */
		if (gw_vmx_load_checked_fd(&j.v, j.path, lock, e) != 0)
			goto out;
	} else if (vmx_read_host(o, &j, e) != 0) {
		goto out;
	}
	if (vmx_plan(o, t, &j, e) != 0 || vmx_write(o, &j, e) != 0)
		goto out;
	if (o->json)
		*json = vmx_json(&j);
	else
		vmx_text(o, &j);
	if (j.refusal) {
		char *msg = gw_xasprintf("%s: %s", j.path, j.refusal);

		gw_out_flush();
		cli_die_line(o->cmd, msg);
		free(msg);
	}
	rc = gw_plan_has_errors(&j.p) ? EXIT_FINDINGS : 0;
out:
	gw_vmx_unlock(lock);
	vmx_job_free(&j);
	return rc;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
is_vmx_name(const char *n)
{
	size_t l = strlen(n);

	return n[0] != '.' && l > 4 && strcmp(n + l - 4, ".vmx") == 0;
}

/* What the entry de at path p is, as stat(2) says (links followed):
 * the directory's own record of its type where it has one and it is no
 * link, else stat's; 0 when it is gone or a dangling link. */
static mode_t
entry_type(const char *p, const struct dirent *de)
{
	struct stat st;

	switch (de->d_type) {
	case DT_DIR:
		return S_IFDIR;
	case DT_REG:
		return S_IFREG;
	case DT_LNK:
	case DT_UNKNOWN:
		return stat(p, &st) == 0 ? st.st_mode & S_IFMT : 0;
	default:
		return S_IFIFO;     /* a device, fifo or socket */
	}
}

/* The .vmx files of directory dir and of its folders (one level: a
 * datastore's VM folders), sorted, appended to *v. */
static void
vmx_in_dir(const char *dir, int depth, char ***v, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	mode_t t;
	int tmp = 0;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		tmp |= gw_tmp_name(de->d_name);
		p = gw_xasprintf("%s/%s", dir, de->d_name);
		t = entry_type(p, de);
		if (t == S_IFDIR && depth == 0) {
			vmx_in_dir(p, 1, v, n);
		} else if (t == S_IFREG && is_vmx_name(de->d_name)) {
			*v = gw_xrealloc(*v, (*n + 1) * sizeof **v);
			(*v)[(*n)++] = p;
			p = NULL;
		}
		free(p);
	}
	closedir(d);
	/* read once: no stale temporary to look for here again (the run
	 * defers its syncs, vmx_files) */
	if (!tmp)
		gw_tmp_none_in(dir);
}

/* The files the arguments name: a file as given, a directory as the
 * .vmx files in it (sorted); -1 with e for a directory without one. */
static int
vmx_files(const cli_opts *o, char ***files, size_t *nfiles, int *dirs,
          gw_err *e)
{
	struct stat st;
	size_t i, first;

	*files = NULL;
	*nfiles = 0;
	*dirs = 0;
	for (i = 0; i < o->nargs; i++) {
		if (stat(o->args[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			*files = gw_xrealloc(*files, (*nfiles + 1) * sizeof **files);
			(*files)[(*nfiles)++] = gw_xstrdup(o->args[i]);
			continue;
		}
		first = *nfiles;
		*dirs = 1;
		/* a folder: many files, each directory synced once
		 * (vmx_many), its listing also the temporaries' sweep */
		gw_dirsync_defer();
		vmx_in_dir(o->args[i], 0, files, nfiles);
		if (*nfiles == first) {
			/* TRANSLATORS: %s is a directory. */
			gw_err_set(e, _("%s: a directory without .vmx files (expected a .vmx FILE, or a folder of VM folders)"),
			           o->args[i]);
			return -1;
		}
		qsort(*files + first, *nfiles - first, sizeof **files, by_name);
	}
	return 0;
}

/* Several files: each gets its own plan and write; a failure is one line
 * and the others go on; exit 1 when any failed or has findings.  Each
 * file's write is the one of a single file but for its directory's sync,
 * made once per directory after the last file (safefile.h,
 * gw_dirsync_defer). */
static int
vmx_many(cli_opts *o, const gw_table *t, char **files, size_t n, gw_err *e)
{
	json_t *arr = o->json ? json_array() : NULL;
	size_t i, failed = 0;
	int rc = 0;

	gw_dirsync_defer();
	for (i = 0; i < n; i++) {
		json_t *one = NULL;
		int r1;

		if (i > 0 && !o->json)
			printf("\n");
		fflush(stdout);
		r1 = vmx_one(o, t, files[i], &one, e);
		if (r1 == EXIT_USAGE) {
			failed++;
			cli_die_line(o->cmd, e->msg);
			if (arr) {
				one = json_object();
				json_object_set_new(one, "file", gw_json_text(files[i]));
				json_object_set_new(one, "error", gw_json_text(e->msg));
			}
			e->msg[0] = '\0';
		}
		if (one)
			json_array_append_new(arr, one);
		if (r1 != 0)
			rc = EXIT_FINDINGS;
	}
	(void)gw_dirsync_flush();
	if (arr) {
		json_t *top = json_object();

		json_object_set_new(top, "files", arr);
		gw_json_print(top);
		json_decref(top);
	} else if (failed > 0) {
		/* TRANSLATORS: how many files failed, of how many. */
		printf(P_("%zu of %zu file failed (each is named above).\n",
		          "%zu of %zu files failed (each is named above).\n", n),
		       failed, n);
	}
	return rc;
}

int
cmd_vmx(cli_opts *o, const gw_table *t, gw_err *e)
{
	char **files = NULL;
	size_t nfiles = 0;
	json_t *json = NULL;
	int rc, dirs = 0;

	/* No --gpu/--vgpu/--vram is fine here: the plan then works on the
	 * devices already in the .vmx (--uvm on its vGPUs, MMIO sized for
	 * them) and refuses a VM that has none (doc/design.md, 15.1). */
	if (vmx_args(o, e) != 0 ||
	    (o->nitems > 0 && cli_resolve_items(o, t, e) != 0))
		return EXIT_USAGE;
	if (o->vm == NULL && vmx_files(o, &files, &nfiles, &dirs, e) != 0) {
		(void)gw_dirsync_flush();   /* nothing written: no sync */
		rc = EXIT_USAGE;
	} else if (o->vm == NULL && (o->nargs > 1 || dirs)) {
		rc = vmx_many(o, t, files, nfiles, e);
	} else {
		rc = vmx_one(o, t, o->vm ? NULL : files[0], &json, e);
		if (json) {
			gw_json_print(json);
			json_decref(json);
		}
	}
	gw_strs_free(files, nfiles);
	return rc;
}
