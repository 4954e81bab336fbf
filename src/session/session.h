/* SPDX-License-Identifier: GPL-3.0-or-later */
/* session.h: answers + host -> plan -> review -> apply, shared by the
 * command line and the wizard.  A session holds the host (host.h, NULL for
 * files only), its VMs and the open one, the devices and system id picked
 * from the host for the plan, the queue of host changes shown in the
 * review (enable passthrough, upgrade the hardware version), and applies
 * the plan to the files and/or the host with the one refusal policy:
 *
 *  - a VM that is not powered off on a host is never written, with or
 *    without force (every back end's gw_host_write_vmx refuses it, as the
 *    host says it now);
 *  - a plan with FAIL findings is written only with force
 *    (gw_session_may_write: the rule and its message, once);
 *  - the hardware version goes up only, on a powered-off VM.
 *
 * The plan itself stays the caller's (gw_plan_build on the answers that
 * gw_session_answers gives).  Nothing here prints. */
#ifndef GW_SESSION_H
#define GW_SESSION_H

#include "gw.h"
#include "answers.h"
#include "apply.h"
#include "host.h"
#include "plan.h"
#include "vmx.h"

#define GW_CHANGE_BY_BDF ((size_t)-1)

/* A host change waiting for the apply (gw_session_run_queue). */
typedef enum {
	GW_CHANGE_ENABLE,    /* enable passthrough of a GPU of the last probe */
	GW_CHANGE_UPGRADE    /* raise the open VM's hardware version */
} gw_change_kind;

typedef struct gw_session_change {
	gw_change_kind kind;
	size_t gpu;          /* ENABLE: index into the last probe's GPUs, or
	                      * GW_CHANGE_BY_BDF: the device bdf */
	char *host_name;     /* ENABLE by BDF through the API: its host */
	char *bdf;           /* ENABLE: its address, for the review */
	int from, to;        /* UPGRADE: hardware versions */
	int done;            /* ran (0: waiting) */
	int reboot;          /* ENABLE ran: the host needs a reboot first */
	gw_finding row;      /* ENABLE: the host's row of the GPU as probed,
	                      * while a front end shows the change in its
	                      * place (row_saved); freed with the change */
	int row_saved;
} gw_session_change;

/* The steps of a run report here: step k of n (from 1), what is being
 * done (translated: "Upgrading the VM's hardware version..."). */
typedef void (*gw_session_step_fn)(void *ctx, size_t k, size_t n,
                                   const char *what);

/* Called by a write after it ran the host changes waiting (rc: 0 or -1,
 * e set): the caller marks what ran and, after an upgrade, makes the plan
 * anew on the .vmx read again and sets *p to it.  Returns 0 to go on,
 * -1 (e set) to stop the write before any file. */
typedef int (*gw_session_changes_fn)(void *ctx, int rc, const gw_plan **p,
                                     gw_err *e);

typedef struct gw_session {
	gw_host *host;          /* borrowed; NULL = files only */
	gw_host_vms vms;        /* the host's VMs (the last listing) */
	char *vms_error;        /* why they could not be listed, or NULL */
	long vm;                /* the open VM: index into vms.list, or -1 */
	gw_power power;    /* its state when opened / last listed */
	char *vmx_where;        /* its .vmx on the host: path, or name (API) */
	char *vm_key;           /* finds it again in a new listing */
	char *picked;           /* the devices gw_session_answers picked
	                         * ("0000:3b:00.0, ..."), or NULL */
	gw_session_change *queue;
	size_t nqueue;
	size_t steps_after;     /* steps the caller reports after the queue
	                         * (the wizard's write: 1), for "k of n" */
	gw_session_step_fn on_step;   /* NULL: no reports */
	void *step_ctx;
	gw_session_changes_fn on_changes;   /* NULL: none */
	void *changes_ctx;
	gw_host_write last;     /* what the last host write did */
	char *backup_first;     /* the VM's .vmx backed up by the last write
	                         * before its host changes, or NULL */
	int keep_gpus;          /* gw_session_host_avail probes once and
	                         * keeps the GPUs (a batch: the host's
	                         * inventory is read once) */
	int have_gpus;
	gw_host_probe gpus;     /* that probe */
} gw_session;

void gw_session_init(gw_session *s, gw_host *h);
void gw_session_free(gw_session *s);   /* not the host */

/* ---- the VMs ----------------------------------------------------------- */

/* Take over a listing (a probe's: vms and error are moved, zeroed in the
 * caller) and find the open VM again by its key (-1 when gone). */
void gw_session_take_vms(gw_session *s, gw_host_vms *vms, char **error);
/* List the host's VMs again (gw_host_list_vms), then as above. */
int gw_session_list_vms(gw_session *s, gw_err *e);
/* The VM the command line names (--vm): a Vmid (digits) or a name,
 * exactly; its index, or -1 and e. */
long gw_session_find_vm(const gw_session *s, const char *spec, gw_err *e);
/* The open VM, or NULL. */
const gw_vm *gw_session_vm(const gw_session *s);
/* Open VM idx: its power state, its .vmx read from the host into *vmx
 * (the caller owns it), *release the release of the VM's host where the
 * back end knows it (malloc'ed or NULL; may be NULL).  Failure keeps the
 * previous choice. */
int gw_session_open_vm(gw_session *s, long idx, gw_vmx **vmx, char **release,
                       gw_err *e);
void gw_session_close_vm(gw_session *s);
/* The open VM is powered off (as last read): 1, else 0. */
int gw_session_vm_off(const gw_session *s);

/* ---- answers -> plan ------------------------------------------------------ */

/* The answers the plan gets on this host: in, and for the open VM on a
 * host that picks devices (HOST_PICK) what the VM has counts, free
 * devices of its host are picked for the rest (none named), the system id
 * of the first device and the release of the VM's host when the answers
 * lack them.  s->picked says what was picked; *attached (may be NULL)
 * how many GPUs of the request the VM already has.  out is a copy (free
 * with gw_answers_free); -1 and e (out freed) on failure. */
int gw_session_answers(gw_session *s, const gw_answers *in, gw_answers *out,
                       int *attached, gw_err *e);
/* Fill release / system id from the host's facts where a is missing them
 * (ESXi: esxcli system version / uuid get): the release always, the
 * system id only when a has host PCI addresses.  -1 and e on failure. */
int gw_session_answers_facts(gw_session *s, gw_answers *a, gw_err *e);

/* ---- the refusal policy -------------------------------------------------- */

/* May the plan be written?  1 = yes (p NULL: nothing planned, yes); 0 =
 * it has FAIL findings and force is off, and e (may be NULL) gets the one
 * refusal message every front end shows. */
int gw_session_may_write(const gw_plan *p, int force, gw_err *e);
/* The VM open on the host may be changed: it is powered off as last read
 * (or none is open), 1; else 0 and e says so, in the host's words for
 * its state (left in English, as the ESXi shell and the vSphere Client
 * show them).  The host asks again when it writes. */
int gw_session_vm_may_change(const gw_session *s, gw_err *e);
/* The open VM's hardware version is below the host's newest
 * (plan hw_current < hw_target): the version to upgrade to, else 0. */
int gw_session_upgrade_target(const gw_session *s, const gw_plan *p);

/* ---- the queue of host changes -------------------------------------------- */

/* (session_queue.c) Nothing runs when queued: the review lists the
 * changes (gw_session_change_title, _command) and the write runs them
 * (gw_session_run_queue) before the files, after the operator's yes. */

/* Queue enabling passthrough of GPU idx (of the last probe) / of the
 * device bdf (on the API: of host_name's, NULL = the one host that has it)
 * / upgrading the open VM from -> to.  Returns the change's index. */
size_t gw_session_queue_enable(gw_session *s, size_t idx, const char *bdf);
size_t gw_session_queue_enable_bdf(gw_session *s, const char *bdf,
                                   const char *host_name);
size_t gw_session_queue_upgrade(gw_session *s, int from, int to);
/* Take change k off the queue (the later ones move up); -1 when it ran
 * already or there is no k. */
int gw_session_unqueue(gw_session *s, size_t k);
/* The enable of GPU idx (waiting or done) / the upgrade waiting: its
 * index, or -1. */
long gw_session_find_enable(const gw_session *s, size_t idx);
long gw_session_find_upgrade(const gw_session *s);
/* The changes not yet done. */
size_t gw_session_pending(const gw_session *s);
/* Run every change not yet done, in order, each reported first (step k
 * of pending + steps_after); stops at the first failure (the changes
 * before it stay done). */
int gw_session_run_queue(gw_session *s, gw_vmx **vmx, gw_err *e);
/* Where the steps report (NULL: nowhere), and a report of the caller's
 * own step. */
void gw_session_set_steps(gw_session *s, gw_session_step_fn fn, void *ctx);
void gw_session_report(const gw_session *s, size_t k, size_t n,
                       const char *what);
/* Change c in words (translated, malloc'ed): the review's line ("Enable
 * passthrough on 0000:5e:00.0", "Upgrade VM NAME from vmx-13 to
 * vmx-21"), the exact command gpuwiz runs for it (esxcli / vim-cmd on
 * the ESXi shell, the API method through the API; never translated), and
 * the progress line while it runs. */
char *gw_session_change_title(const gw_session *s, const gw_session_change *c);
char *gw_session_change_command(const gw_session *s,
                                const gw_session_change *c);

/* ---- the host's GPUs for the plan (session_queue.c) ------------------------ */

/* Passthrough of GPU idx of host h's last probe as the plan counts it: 1
 * when an enable of it is queued or done on the session's host, else
 * what h says (1 on, 0 off, -1 unknown or no h). */
int gw_session_gpu_passthru(const gw_session *s, const gw_host *h, size_t idx);
/* The GPUs of h's probe (gpus, n) become a's host counts (a->avail, the
 * gpu-count-host WARN): each one counts as free unless its passthrough
 * is off (gw_session_gpu_passthru == 0).  n == 0: no counts (no check). */
void gw_session_fill_avail(const gw_session *s, const gw_host *h,
                           gw_answers *a, const gw_gpu_dev *gpus,
                           size_t n);
/* The same from a probe of the session's host now (HOST_GPUS; without a
 * host or that capability nothing changes), or the first one kept when
 * keep_gpus is set.  -1 and e when the GPUs could not be listed. */
int gw_session_host_avail(gw_session *s, gw_answers *a, gw_err *e);

/* ---- the write (session_apply.c) ------------------------------------------ */

/* One description of what a write does (apply.h: gw_write_desc), made
 * before anything changes: a dry run prints it, the write runs it.  In
 * order: the host changes waiting in the queue, then the VM's .vmx on the
 * host (with a VM open there) or the local .vmx af->vmx_path (the plan
 * applied to a copy of vmx, after, which is what is saved; vmx itself is
 * not changed), then the snippet files of af.  Running it: the refusal
 * rule first; the snippets staged as temporaries, the host changes, the
 * .vmx, then the temporaries renamed (a failure before the end leaves no
 * file; session_apply.c). */
typedef struct gw_session_write {
	gw_write_desc desc;        /* what the write does, in order */
	const gw_answers_file *af; /* borrowed */
	const gw_plan *p;          /* borrowed; NULL: host changes only */
	const gw_vmx *vmx;         /* borrowed: the .vmx as read, or NULL */
	gw_vmx *after;             /* a copy with the plan applied: what
	                            * the .vmx is saved as */
	int host_vmx;              /* the .vmx is the open VM's on the host */
	int changed;               /* the .vmx changes */
	const char *const *texts;  /* borrowed, may be NULL: p rendered
	                            * already, per format (gw_formats' rows;
	                            * gw_apply_stage_begin); set by the
	                            * caller after _prepare, dropped when the
	                            * plan is made anew after an upgrade */
	const char *disk;          /* borrowed, may be NULL: the bytes a local
	                            * .vmx holds as the caller last knew them
	                            * (gw_apply_stage_expect; NULL: vmx);
	                            * set by the caller after _prepare */
	size_t disk_len;
} gw_session_write;

/* Describe the write of p (and vmx) with af's outputs on s: refused by
 * the rule (gw_session_may_write, af->force) with e; -1 and e also when
 * the plan cannot be applied.  Changes nothing anywhere. */
int gw_session_write_prepare(gw_session *s, const gw_answers_file *af,
                             const gw_plan *p, const gw_vmx *vmx,
                             gw_session_write *w, gw_err *e);
/* The same with the caller's copy of vmx with p applied already (after,
 * taken whatever the outcome: freed with w; NULL: made here), so that the
 * plan is not applied a second time. */
int gw_session_write_prepare_applied(gw_session *s, const gw_answers_file *af,
                                     const gw_plan *p, const gw_vmx *vmx,
                                     gw_vmx *after, gw_session_write *w,
                                     gw_err *e);
/* Run it.  doc (may be NULL): the caller's document of the .vmx, which an
 * upgrade among the host changes replaces with the one read again (s's
 * on_changes hook then gives the plan made on it).  res gets what was
 * written: on a host vmx_path is where the .vmx lives there, backup the
 * datastore's backup.  -1 and e on failure (no file changed). */
int gw_session_write_run(gw_session *s, gw_session_write *w, gw_vmx **doc,
                         gw_apply_result *res, gw_err *e);
void gw_session_write_free(gw_session_write *w);
void gw_session_set_on_changes(gw_session *s, gw_session_changes_fn fn,
                               void *ctx);
/* After a successful apply: the .vmx was saved but the VM could not be
 * reloaded (HOST_RELOAD): a translated sentence in buf, return 1; else 0. */
int gw_session_reload_warning(const gw_session *s, char *buf, size_t n);

#endif
