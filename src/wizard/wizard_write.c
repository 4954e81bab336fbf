/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_write.c: the write step and the commands to run next
 * (wizard.h).
 *
 * Next commands, only for what is written, the operator's own route
 * first: the host's reboot after a change queued; for a Tanzu VM type
 * each chosen format's own steps (the registry's, formats.def: the tile
 * first, section 15.8); the findings the write does not resolve
 * (wizard_next.c); vim-cmd for a patched .vmx (doc/design.md, section
 * 15.6); for a VM's .vmx the formats' steps after the host's; guest
 * checks and the NCCL all-reduce test (section 15.9; NVIDIA NCCL issue
 * 2101).
 */
#include "wizard_next.h"
#include "wizard_queue.h"
#include "textesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emit.h"
#include "write_report.h"
#include "safefile.h"

/* ---- write step --------------------------------------------------------------- */

/* The write's progress and what it does after the host changes. */
typedef struct write_ctx {
	gw_wizard *w;
	int upgrading;      /* an upgrade waits: the plan is made anew */
	size_t n;           /* steps: the changes waiting and the files */
} write_ctx;

static void
report_files(const write_ctx *c)
{
	/* TRANSLATORS: progress of the write step's last action. */
	gw_session_report(&c->w->sess, c->n, c->n,
	                  _("Writing the .vmx and the files..."));
}

/* The session ran the host changes (session.h: gw_session_changes_fn):
 * the rows marked; after an upgrade the plan made anew on the .vmx read
 * again, which must pass the review's check too. */
static int
changes_ran(void *ctx, int rc, const gw_plan **p, gw_err *e)
{
	write_ctx *c = ctx;
	gw_wizard *w = c->w;

	if (wz_changes_done(w, rc, e->msg) != 0) {
		gw_err_set(e, "%s", w->write_error);
		return -1;
	}
	if (c->upgrading)
		gw_wizard_replan(w);
	if (gw_wizard_check_step(w, GW_STEP_REVIEW, w->write_error,
	                         sizeof w->write_error) != 0) {
		gw_err_set(e, "%s", w->write_error);
		return -1;
	}
	*p = &w->plan;
	report_files(c);
	return 0;
}

/* The write step: one write of the session (session_apply.c): the
 * snippets staged, the host changes queued (an upgrade reads the .vmx
 * again and the plan is made on it; a failure stops here, no file
 * written), the VM's .vmx on the mode's host (saved and reloaded, or
 * through the API; never a VM that is not powered off) or the local
 * .vmx, then the snippets put in place.  The session works on a copy of
 * the .vmx: w->vmx stays the file as opened (or as the upgrade left
 * it). */
/* The session a write goes through: the mode's host's (its changes and
 * its VM), else files, a session without a host (the files only). */
static gw_session *
write_session(gw_wizard *w, gw_session *files)
{
	gw_session_init(files, NULL);
	if (wz_host_for(w, w->mode) != w->host || w->host == NULL)
		return files;
	return &w->sess;
}

char *
gw_wizard_write_preview(gw_wizard *w, gw_err *e)
{
	gw_session files, *s = write_session(w, &files);
	gw_session_write wr;
	const gw_plan *p = wz_plan(w);
	gw_buf b;
	char *out = NULL;

	if (p == NULL) {
		gw_err_set(e, "%s", w->plan_error);
	} else if (gw_session_write_prepare(s, &w->af, p, w->vmx, &wr,
	                                    e) == 0) {
		gw_buf_init(&b);
		gw_write_desc_render(&b, &wr.desc);
		out = gw_buf_steal(&b);
		gw_session_write_free(&wr);
	}
	gw_session_free(&files);
	return out;
}

/* The local .vmx the write patches (no VM open on the mode's host), or
 * NULL. */
static const char *
local_vmx(gw_wizard *w, gw_session *s)
{
	return w->vmx != NULL && w->af.vmx_path != NULL &&
	       gw_session_vm(s) == NULL ? w->af.vmx_path : NULL;
}

/* The local .vmx no longer holds disk (what gpuwiz read or last wrote):
 * read it again and make the plan on it, saying so (GW_ERR_REREAD).  1
 * when it changed (the write then writes nothing), else 0. */
static int
reread_if_changed(gw_wizard *w, const char *path, const char *disk,
                  size_t len)
{
	gw_vmx *v = NULL;
	gw_err le;

	if (gw_file_holds(path, disk, len) != 0 ||
	    gw_vmx_load_checked(&v, path, &le) != 0)
		return 0;   /* as known, or unreadable: the write says why */
	wz_set_vmx(w, v, gw_xstrdup(path));
	wz_changed(w);
	gw_wizard_replan(w);
	/* TRANSLATORS: %s is the .vmx; the write made on it follows. */
	snprintf(w->reread_note, sizeof w->reread_note,
	         _("%s changed on disk since gpuwiz read it (edited by someone else): nothing was written. gpuwiz read it again; below is the write made on it now. Check it and press Enter to write."),
	         w->af.vmx_path);   /* path went with the old name */
	return 1;
}

/* The bytes the local .vmx should hold: as last written, else as read. */
static char *
vmx_disk(const gw_wizard *w, size_t *len)
{
	char *d;

	if (w->vmx_disk == NULL)
		return gw_vmx_serialize(w->vmx, len);
	d = gw_xmalloc(w->vmx_disk_len + 1);
	memcpy(d, w->vmx_disk, w->vmx_disk_len);
	*len = w->vmx_disk_len;
	return d;
}

int
gw_wizard_write(gw_wizard *w)
{
	gw_session files, *s;
	gw_session_write wr;
	write_ctx c;
	gw_err le;
	size_t k, dlen = 0;
	const char *local;
	char *disk = NULL;
	int rc, lock = -1;

	gw_apply_result_free(&w->result);
	w->written = 0;
	w->write_error[0] = '\0';
	w->reread_note[0] = '\0';
	if (gw_wizard_check_step(w, GW_STEP_REVIEW, w->write_error,
	                         sizeof w->write_error) != 0)
		return -1;
	le.msg[0] = '\0';
	s = write_session(w, &files);
	/* a local .vmx: gpuwiz's lock over the write, and the file must
	 * still be what the plan was made on */
	if ((local = local_vmx(w, s)) != NULL) {
		if (gw_vmx_lock(local, &lock, &le) != 0) {
			snprintf(w->write_error, sizeof w->write_error, "%s",
			         le.msg);
			gw_session_free(&files);
			return -1;
		}
		disk = vmx_disk(w, &dlen);
		if (reread_if_changed(w, local, disk, dlen)) {
			gw_vmx_unlock(lock);
			free(disk);
			gw_session_free(&files);
			return -1;
		}
	}
	memset(&c, 0, sizeof c);
	c.w = w;
	c.n = gw_session_pending(s) + 1;
	for (k = 0; k < s->nqueue; k++)
		c.upgrading |= !s->queue[k].done &&
		               s->queue[k].kind == GW_CHANGE_UPGRADE;
	s->steps_after = 1;
	gw_session_set_on_changes(s, changes_ran, &c);
	rc = gw_session_write_prepare(s, &w->af, &w->plan, w->vmx, &wr, &le);
	if (rc == 0) {
		/* the renders the review's check made: written as they are */
		wr.texts = (const char *const *)w->render;
		wr.disk = disk;
		wr.disk_len = dlen;
		if (gw_session_pending(s) == 0)
			report_files(&c);
		rc = gw_session_write_run(s, &wr, &w->vmx, &w->result, &le);
		if (rc == 0 && local && wr.after && !w->result.vmx_unchanged) {
			/* w->vmx stays the file as opened (the plan is made
			 * on it); the file now holds the write */
			free(w->vmx_disk);
			w->vmx_disk = gw_vmx_serialize(wr.after,
			                               &w->vmx_disk_len);
		}
		gw_session_write_free(&wr);
	}
	gw_session_set_on_changes(s, NULL, NULL);
	if (rc != 0 && local && reread_if_changed(w, local, disk, dlen))
		le.msg[0] = '\0';   /* changed meanwhile: the note says it */
	gw_vmx_unlock(lock);
	free(disk);
	if (rc != 0 && w->write_error[0] == '\0' && w->reread_note[0] == '\0')
		snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
	else if (rc == 0)
		gw_session_reload_warning(s, w->write_error, sizeof w->write_error);
	gw_session_free(&files);
	if (rc != 0)
		return -1;
	w->written = 1;
	w->dirty = 0;
	return 0;
}

/* ---- next commands ------------------------------------------------------------ */

static int
plan_has_kind(const gw_plan *p, gw_set_kind k)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++)
		if (p->settings[i].kind == k)
			return 1;
	return 0;
}

/* Where fmt went: the written path, else the planned one (malloc'ed). */
static char *
fmt_path(const gw_wizard *w, int fmt)
{
	const char *f = gw_format_filename(fmt);
	size_t i, n;

	for (i = 0; w->written && f && i < w->result.nwritten; i++) {
		n = strlen(w->result.written[i]);
		if (n >= strlen(f) &&
		    strcmp(w->result.written[i] + n - strlen(f), f) == 0)
			return gw_xstrdup(w->result.written[i]);
	}
	return gw_wizard_output_path(w, fmt);
}

/* The host's part, through the API: the VM is reconfigured there. */
static void
next_api(const gw_wizard *w, wz_strv *s, const gw_vm *vm)
{
	if (!w->written)
		/* TRANSLATORS: %s is the VM's name. */
		wz_strv_push(s, gw_xasprintf(_("gpuwiz reconfigures %s through the API (ReconfigVM_Task); it must stay powered off until then"),
		                             vm->name));
	else if (!w->result.vmx_unchanged)
		wz_strv_push(s, gw_xasprintf(_("Reconfigured %s through the API (ReconfigVM_Task)"),
		                             vm->name));
	/* TRANSLATORS: %s is the VM's name. */
	wz_strv_push(s, gw_xasprintf(_("Power on %s in the vSphere Client (Actions > Power > Power On)"),
	                             vm->name));
}

/* The host's part on the ESXi shell: saved there and reloaded. */
static void
next_shell(const gw_wizard *w, wz_strv *s, const gw_vm *vm)
{
	char *c;

	if (!w->written) {
		c = gw_xasprintf("vim-cmd vmsvc/power.getstate %lu", vm->vmid);
		wz_strv_push(s, gw_xasprintf(_("Check that the VM is off: %s (expect Powered off)"), c));
		free(c);
		/* TRANSLATORS: %s is a path on the datastore. */
		wz_strv_push(s, gw_xasprintf(_("gpuwiz saves %s on the host (backup beside it) and reloads the VM"),
		                             w->sess.vmx_where));
	} else if (!w->result.vmx_unchanged) {
		c = gw_xasprintf("vim-cmd vmsvc/reload %lu", vm->vmid);
		/* TRANSLATORS: %s is the backup's path, then a command. */
		wz_strv_push(s, gw_xasprintf(_("Saved on the host (backup: %s) and reloaded (%s)"),
		                             w->result.backup ? w->result.backup : "-", c));
		free(c);
	}
	c = gw_xasprintf("vim-cmd vmsvc/power.on %lu", vm->vmid);
	wz_strv_push(s, gw_xasprintf(_("Power on the VM: %s (%s lists the Vmid)"),
	                             c, "vim-cmd vmsvc/getallvms"));
	free(c);
}

/* A local .vmx: found on the host, put back, reloaded.  This comes
 * before the findings' steps: an edit in the vSphere or ESXi Host Client
 * (a device added, the memory raised) or vim-cmd vmsvc/upgrade made
 * before the copy goes back would be overwritten by it. */
static void
next_local_back(const gw_wizard *w, wz_strv *s)
{
	wz_strv_push(s, gw_xasprintf(_("On the ESXi host, find the VM's id: %s (the Vmid column)"),
	                             "vim-cmd vmsvc/getallvms"));
	wz_strv_push(s, gw_xasprintf(_("Check that the VM is off: %s (expect Powered off)"),
	                             "vim-cmd vmsvc/power.getstate <vmid>"));
	wz_strv_push(s, gw_xasprintf(_("If %s is a copy, put it back in the VM's folder on the datastore first (VM off)"),
	                             w->af.vmx_path));
	wz_strv_push(s, gw_xasprintf(_("After editing the .vmx on the host with the VM off: %s"),
	                             "vim-cmd vmsvc/reload <vmid>"));
}

/* A local .vmx, after the findings' steps. */
static void
next_local_on(wz_strv *s)
{
	wz_strv_push(s, gw_xasprintf(_("Power on the VM: %s (%s lists the Vmid)"),
	                             "vim-cmd vmsvc/power.on <vmid>",
	                             "vim-cmd vmsvc/getallvms"));
}

/* The VM's own .vmx changed by gpuwiz: on the mode's host or a local
 * file. */
static int
vmx_patched(const gw_wizard *w)
{
	int shell;

	return wz_next_vm(w, &shell) != NULL || (w->vmx && w->af.vmx_path);
}

/* The host: the VM open on the mode's host, else the files. */
static void
next_host(const gw_wizard *w, wz_strv *s)
{
	int shell;
	const gw_vm *vm = wz_next_vm(w, &shell);

	if (vm) {
		if (shell)
			next_shell(w, s, vm);
		else
			next_api(w, s, vm);
		return;
	}
	if (vmx_patched(w))
		next_local_on(s);
}

/* The .vmx patched is a local file (no VM open on a host). */
static int
vmx_local(const gw_wizard *w)
{
	int shell;

	return wz_next_vm(w, &shell) == NULL && vmx_patched(w);
}

static void
push_line(void *list, char *line)
{
	wz_strv_push(list, line);
}

/* Each chosen format's steps (the registry's, formats.def), with the file
 * where it went, the extension's name and the VM open on the host (its
 * name in JSON for ansible's -e; one with a quote or a backslash is left
 * to the operator). */
/* The formats whose steps come first, per activity: a VM's .vmx lines;
 * for a Tanzu VM type the tile (its values typed in Ops Manager, then
 * Apply Changes: the tile user's own route), Ops Manager's API and om
 * (the same Apply Changes), then BOSH alone.  The others follow in the
 * registry's order. */
static const int first_formats[GW_NACTS][GW_NFORMATS] = {
	[GW_ACT_VM] = { GW_FMT_VMX },
	[GW_ACT_TANZU] = { GW_FMT_TILE, GW_FMT_OPSMAN, GW_FMT_OM, GW_FMT_BOSH },
};

/* The formats in the order of their steps for the activity. */
static size_t
formats_in_order(gw_activity act, int order[GW_NFORMATS])
{
	const int *first = first_formats[act];
	int done = 0;
	size_t i, n = 0;

	for (i = 0; i < GW_NFORMATS && first[i]; i++) {
		order[n++] = first[i];
		done |= first[i];
	}
	for (i = 0; i < GW_NFORMATS; i++)
		if (!(done & gw_formats[i].bit))
			order[n++] = gw_formats[i].bit;
	return n;
}

/* The ways to give BOSH the VM type (routes): the formats of one route
 * are the halves of one way (Ops Manager's API body and om's file both
 * create the extension, then it is attached to a job); the routes are
 * alternatives.  Route 0: a format of no route (its steps are steps). */
static int
route_of(int fmt)
{
	switch (fmt) {
	case GW_FMT_TILE:
		return 1;
	case GW_FMT_OPSMAN:
	case GW_FMT_OM:
		return 2;
	case GW_FMT_BOSH:
		return 3;
	default:
		return 0;
	}
}
#define NROUTES 4

static const char *
route_label(int route)
{
	switch (route) {
	case 1:
		/* TRANSLATORS: a way to give BOSH the VM type, heading its
		 * next steps. */
		return _("The AI Services tile in Ops Manager");
	case 2:
		/* TRANSLATORS: a way to give BOSH the VM type, heading its
		 * next steps. */
		return _("Ops Manager's API or om");
	default:
		/* TRANSLATORS: a way to give BOSH the VM type, heading its
		 * next steps. */
		return _("BOSH alone");
	}
}

/* Push the steps of list l, each with prefix (the tabs of its level). */
static void
push_all(wz_strv *s, wz_strv *l, const char *prefix)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		wz_strv_push(s, gw_xasprintf("%s%s", prefix, l->v[i]));
		free(l->v[i]);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void push_routes(wz_strv *s, wz_strv *steps, const int *first,
                        size_t nroutes);

static void
next_formats(const gw_wizard *w, wz_strv *s, const char *name)
{
	int shell, order[GW_NFORMATS];
	const gw_vm *vm = wz_next_vm(w, &shell);
	gw_next_ctx c;
	size_t i, n = formats_in_order(w->activity, order), nroutes = 0;
	wz_strv steps[NROUTES];
	int r, first[NROUTES], plain_first = -1;

	memset(steps, 0, sizeof steps);
	c.name = name;
	c.vm = vm && vm->name && !strpbrk(vm->name, "'\"\\") ? vm->name :
	       "NAME";
	c.formats = w->af.formats;
	c.vmx_patched = vmx_patched(w);
	c.push = push_line;
	/* each route's steps apart, in the order of its first format */
	for (i = 0; i < n; i++) {
		const gw_format_def *f = gw_format_def_of(order[i]);
		char *path;

		if (!(w->af.formats & f->bit))
			continue;
		r = route_of(f->bit);
		if (r > 0 && steps[r].n == 0)
			first[nroutes++] = r;
		if (plain_first < 0)
			plain_first = r == 0;   /* the activity's own first */
		c.list = r > 0 ? &steps[r] : &steps[0];
		path = fmt_path(w, f->bit);
		c.path = path ? path : f->filename;
		f->next(&c);
		free(path);
	}
	if (plain_first == 1)
		push_all(s, &steps[0], "");
	if (nroutes == 1)
		push_all(s, &steps[first[0]], "");
	else if (nroutes > 1)
		push_routes(s, steps, first, nroutes);
	push_all(s, &steps[0], "");
}

/* The routes as alternatives, each with its own steps. */
static void
push_routes(wz_strv *s, wz_strv *steps, const int *first, size_t nroutes)
{
	size_t i;

	/* TRANSLATORS: before the ways to give BOSH the VM type (2 or
	 * more, %zu), each with its own steps. */
	wz_strv_push(s, gw_xasprintf(P_("Give BOSH the VM type in this %zu way: follow it for how you deploy",
	                                "Give BOSH the VM type in one of these %zu ways: follow only the one for how you deploy",
	                                nroutes),
	                             nroutes));
	for (i = 0; i < nroutes; i++) {
		wz_strv_push(s, gw_xasprintf("\t%s", route_label(first[i])));
		push_all(s, &steps[first[i]], "\t\t");
	}
}

const char *
gw_wizard_next_mark(char *const *v, size_t i, int *level, const char **text)
{
	static char mark[16];
	size_t k, count = 0;
	int lv = 0, l;

	while (v[i][lv] == '\t')
		lv++;
	/* counted since the last item of a lower level */
	for (k = i + 1; k-- > 0;) {
		for (l = 0; v[k][l] == '\t'; l++)
			;
		if (l < lv)
			break;
		if (l == lv)
			count++;
	}
	if (lv == 1)
		snprintf(mark, sizeof mark, "%c.", (int)('A' + (count - 1) % 26));
	else
		snprintf(mark, sizeof mark, "%zu.", count);
	*level = lv;
	*text = v[i] + lv;
	return mark;
}

/* The NCCL all-reduce check across ngpu GPUs. */
static void
next_nccl(const gw_wizard *w, wz_strv *s, int ngpu)
{
	char *cmd = gw_xasprintf("torchrun --nproc_per_node=%d nccl_check.py", ngpu);

	if (gw_apply_writes_files(&w->af, wz_plan(w))) {
		char *script = gw_xasprintf("%s/%s", w->af.out_dir,
		                            GW_NCCL_CHECK_FILE);

		/* TRANSLATORS: %1$d GPUs, %2$s the script's path, %3$d the
		 * GPU count again; the torchrun command follows on its own
		 * line. */
		wz_strv_push(s, gw_xasprintf(_("In the guest, the NCCL all-reduce check across the %1$d GPUs (copy %2$s into the guest first; each rank prints ok %3$d.0):\n%4$s"),
		                             ngpu, script, ngpu, cmd));
		free(script);
	} else {
		/* TRANSLATORS: %1$d GPUs, %2$d the GPU count again; the
		 * torchrun command follows on its own line. */
		wz_strv_push(s, gw_xasprintf(_("In the guest, the NCCL all-reduce check from gpuwiz's README across the %1$d GPUs (each rank prints ok %2$d.0):\n%3$s"),
		                             ngpu, ngpu, cmd));
	}
	free(cmd);
	wz_strv_push(s, gw_xasprintf(_("If NCCL fails, run it again with %s set and keep the log"),
	                             "NCCL_DEBUG=INFO"));
}

/* The guest: nvidia-smi, its -q modes, BAR1/FB, NCCL for 2+ GPUs. */
static void
next_guest(const gw_wizard *w, wz_strv *s, int ngpu, int vgpu, int uvm)
{
	/* each command alone on its line, after the words (wizard.h) */
	wz_strv_push(s, gw_xasprintf("%s\n%s\n%s",
	                             _("In the guest, the GPU and its driver version:"),
	                             "nvidia-smi",
	                             "nvidia-smi --query-gpu=driver_version --format=csv,noheader"));
	wz_strv_push(s, gw_xasprintf("%s\n%s", !vgpu ?
	                             _("In the guest, expect Virtualization Mode : Pass-Through:") :
	                             uvm ?
	                             _("In the guest, expect Virtualization Mode : VGPU; with unified memory the Addressing Mode is no longer None:") :
	                             _("In the guest, expect Virtualization Mode : VGPU; Addressing Mode : None means no unified memory, which NCCL 2.27 and later need:"),
	                             "nvidia-smi -q | grep -Ei 'Virtualization Mode|Addressing Mode'"));
	wz_strv_push(s, gw_xasprintf("%s\n%s",
	                             _("In the guest, the Total lines: BAR1 mapped for the GPU, FB its framebuffer:"),
	                             "nvidia-smi -q | grep -A3 -E 'BAR1 Memory Usage|FB Memory Usage'"));
	if (ngpu >= 2)
		next_nccl(w, s, ngpu);
}

char **
gw_wizard_next_commands(const gw_wizard *w)
{
	const gw_plan *p = wz_plan(w);
	const char *name = p && p->name ? p->name : "<name>";
	wz_strv s = { NULL, 0 };
	int ngpu = 0, vgpu = 0, uvm;
	size_t i;

	if (p) {
		for (i = 0; i < p->ngpus; i++) {
			ngpu += p->gpus[i].count;
			vgpu |= p->gpus[i].profile != NULL;
		}
	} else {
		for (i = 0; i < w->af.a.ngpus; i++) {
			ngpu += w->af.a.gpus[i].count;
			vgpu |= w->af.a.gpus[i].profile != NULL;
		}
	}
	uvm = p ? plan_has_kind(p, GW_SET_UVM) : w->af.a.uvm;

	wz_next_host_changes(w, &s);   /* a reboot after an enable */
	if (w->activity == GW_ACT_TANZU)
		/* the VM type first: BOSH makes the VMs */
		next_formats(w, &s, name);
	if (vmx_local(w))
		next_local_back(w, &s);   /* before any edit on the host */
	wz_next_findings(w, &s);   /* the power-cycle of UVM among them */
	next_host(w, &s);
	if (w->activity != GW_ACT_TANZU)
		next_formats(w, &s, name);
	next_guest(w, &s, ngpu, vgpu, uvm);
	return wz_strv_finish(&s);
}

int
gw_wizard_changes_nothing(const gw_wizard *w)
{
	const gw_plan *p = wz_plan(w);
	size_t i;

	if (w->vmx == NULL || p == NULL || gw_session_pending(&w->sess) > 0)
		return 0;
	for (i = 0; i < p->nsettings; i++)
		if (!p->settings[i].keep)
			return 0;
	return 1;
}

/* ---- the summary printed on exit ----------------------------------------------- */

/* "Written:   path": the label padded to lw cells, as on the write step. */
static void
push_labelled(wz_strv *s, const char *label, int lw, const char *value)
{
	int pad = lw - gw_text_cells(label);

	wz_strv_push(s, gw_xasprintf("%s%*s %s", label, pad > 0 ? pad : 0, "",
	                             value));
}

static void
summary_files(const gw_apply_result *r, wz_strv *s)
{
	const char *lab[3];
	int lw = 0, i;
	size_t k;

	lab[0] = _("Written:");
	lab[1] = _("Backup:");
	lab[2] = _("Unchanged:");
	for (i = 0; i < 3; i++)
		if (gw_text_cells(lab[i]) > lw)
			lw = gw_text_cells(lab[i]);
	if (r->vmx_path && r->vmx_unchanged && r->backup == NULL)
		wz_strv_push(s, gw_xstrdup(_("Nothing to change: the VM already has these settings.")));
	for (k = 0; k < r->nwritten; k++)
		push_labelled(s, lab[0], lw, r->written[k]);
	if (r->vmx_path && r->vmx_unchanged) {
		char *t = gw_xasprintf(_("%s (it already has every setting)"),
		                       r->vmx_path);

		push_labelled(s, lab[2], lw, t);
		free(t);
	} else if (r->vmx_path) {
		push_labelled(s, lab[0], lw, r->vmx_path);
	}
	if (r->backup)
		push_labelled(s, lab[1], lw, r->backup);
	if (r->nwritten == 0 && r->vmx_path == NULL)
		wz_strv_push(s, gw_xstrdup(_("Nothing was written: no output was chosen.")));
}

/* Item i of the next steps as plain lines: its mark and words, then
 * each command alone on its line, under the words. */
static void
next_item_lines(wz_strv *s, char *const *v, size_t i)
{
	int level;
	const char *text, *mark = gw_wizard_next_mark(v, i, &level, &text);
	const char *nl = strchr(text, '\n');
	int ind = 4 * level;

	wz_strv_push(s, gw_xasprintf("%*s%3s %.*s", ind, "", mark,
	                             nl ? (int)(nl - text) : (int)strlen(text),
	                             text));
	while (nl) {
		const char *line = nl + 1;

		nl = strchr(line, '\n');
		wz_strv_push(s, gw_xasprintf("%*s%.*s", ind + 4, "",
		                             nl ? (int)(nl - line) :
		                             (int)strlen(line), line));
	}
}

char **
gw_wizard_exit_summary(const gw_wizard *w)
{
	wz_strv s = { NULL, 0 };
	char **cmds;
	size_t i;

	if (!w->written)
		return NULL;
	wz_done_changes(w, &s);   /* on the host, before the files */
	summary_files(&w->result, &s);
	cmds = gw_wizard_next_commands(w);
	if (cmds && cmds[0])
		wz_strv_push(&s, gw_xstrdup(_("Next steps:")));
	for (i = 0; cmds && cmds[i]; i++)
		next_item_lines(&s, cmds, i);
	gw_strv_free(cmds);
	/* printed after the screen is gone, to the operator's terminal:
	 * paths and names from outside escaped (doc/design.md 5.3) */
	for (i = 0; i < s.n; i++) {
		char *t = gw_str_escaped(s.v[i]);

		free(s.v[i]);
		s.v[i] = t;
	}
	return wz_strv_finish(&s);
}
