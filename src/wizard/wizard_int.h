/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_int.h: the wizard's model, for src/wizard/ and white-box tests
 * only.  The screens in ui/ see a gw_wizard through the accessors of
 * wizard.h (doc/design.md, section 9, "The wizard model"). */
#ifndef GW_WIZARD_INT_H
#define GW_WIZARD_INT_H

#include "wizard.h"
#include "wizard_changes.h"
#include "wizard_connect.h"
#include "wizard_doctor.h"
#include "host.h"
#include "samplehost.h"
#include "session.h"
#include "emit.h"
#include "mmio.h"

struct gw_wizard {
	const gw_table *table;  /* borrowed (gw_wizard_init), or NULL:
	                         * read from lazy at its first use */
	struct wz_table *lazy;  /* the table read on first use (gw_wizard_new
	                         * without a table); NULL when borrowed */
	gw_answers_file af;     /* answers, vmx path, out dir, formats, force */
	gw_mode mode;
	gw_activity activity;   /* what the operator is making */
	gw_step step;
	int visited[GW_NSTEPS];
	int host_ok[GW_NHOST];  /* operator confirmed the BIOS item */
	gw_vmx *vmx;            /* loaded from af.vmx_path or from the host;
	                         * NULL when none */
	char *vmx_error;        /* why af.vmx_path could not be used, or NULL */
	gw_plan plan;
	int have_plan;
	char plan_error[1024];  /* why there is no plan ("" when have_plan) */
	int dirty;              /* changed since loaded/saved and not written */
	int written;            /* the write step succeeded */
	gw_apply_result result; /* what the write step wrote */
	char write_error[1024];
	char *vmx_disk;         /* the local .vmx's bytes as gpuwiz last
	                         * wrote them, or NULL: vmx, serialized */
	size_t vmx_disk_len;
	char reread_note[1024]; /* the write found the .vmx changed on disk
	                         * and read it again ("" when not) */
	/* the probes of the mode's host (gw_wizard_probe_host: the Linux
	 * root; gw_wizard_probe_esxi: the attached host).  On an ESXi host
	 * the GPUs have driver = the ESXi module, no BARs, no IOMMU group;
	 * through the API driver = the GPU's host. */
	int probed;             /* the probes have run */
	gw_finding *checks; /* gpuwiz check's rows */
	size_t nchecks;
	char *checks_error;     /* why the checks could not run, or NULL */
	gw_gpu_dev *detected; /* gpuwiz gpus' list, onboard displays left out */
	size_t ndetected;
	char *detect_error;     /* why the GPUs could not be listed, or NULL */
	int *detected_added;    /* per detected GPU: added with its BDF */
	char *capture;          /* offline: the lspci or esxcli capture the
	                         * detected GPUs were read from, or NULL */
	int host_override;      /* the operator goes on despite FAIL rows */
	char *sysroot;          /* GW_MODE_LINUX root; NULL = gw_wizard_sysroot() */
	char *scratch;          /* a sample host: where the writes go (shown) */
	char **scratch_left;    /* the samples' scratch directories left
	                         * before it (named on exit) */
	size_t nscratch_left;
	gw_host *local;         /* GW_MODE_LINUX: the root probed (owned; a
	                         * Linux sample's, else opened on sysroot) */
	gw_host *host;          /* owned; an ESXi host (--ssh, the ESXi shell,
	                         * an ESXi sample) or the vSphere API; NULL */
	gw_session sess;        /* on host: its VMs (sess.vms, sess.vms_error),
	                         * the open one (sess.vm, sess.power,
	                         * sess.vmx_where), the devices picked
	                         * (sess.picked), the host changes (sess.queue),
	                         * the last save (sess.last: reloaded, backup) */
	struct wz_address *addr;        /* how w->host was connected from
	                                 * the box or a replay
	                                 * (wizard_connect.c), or NULL */
	int replay_api;                 /* the answers file's API host waits
	                                 * for its box (the password):
	                                 * gw_wizard_connect_pending */
	gw_host_progress_fn progress;   /* long host tasks report here */
	void *progress_ctx;
	/* the plan is derived from the answers once per action: a change
	 * marks it stale (wz_changed); it is made again at the end of the
	 * outermost action (wz_begin/wz_end; no action: at once) or when
	 * something reads it first (wz_fresh) */
	int plan_stale;
	int batch;              /* actions open (wz_begin) */
	char *render[GW_NFORMATS];  /* the plan rendered, per format row,
	                             * made once per plan (wz_render) */
	char *render_error[GW_NFORMATS];
	int rendered[GW_NFORMATS];
	unsigned long nreplans; /* plans made: white-box tests count them */
	unsigned long nrenders; /* formats rendered by wz_render */
	int starting;           /* gw_wizard_new: the answers file's values
	                         * survive attaching its host */
	int outdir_given;       /* the answers file named [output] dir */
	char *host_error;       /* the answers file's host is not reached */
};

/* ---- shared by the files of src/wizard/ -------------------------------- */

/* The formats of mask (GW_FMT_* bits; the registry, formats.def) that can
 * be made from the current plan. */
int wz_formats_possible(const gw_wizard *w, int mask);

/* The outputs follow the activity (wizard_uvm.c).  Before the plan is
 * built: until the operator or the answers file chose (af.formats_set),
 * the formats are the activity's defaults (formats.def's FOR), and the
 * answers say whether the outputs lock the memory reservation themselves
 * (a.outputs_do).  After: the defaults keep only what the plan
 * can make (no BOSH extension without a GPU to add, no tile for two GPU
 * models). */
void wz_outputs_follow(gw_wizard *w);
void wz_outputs_fit(gw_wizard *w);

/* A growing NULL-terminated string list. */
typedef struct wz_strv {
	char **v;
	size_t n;
} wz_strv;
void wz_strv_push(wz_strv *s, char *item);
char **wz_strv_finish(wz_strv *s);   /* an empty list when nothing pushed */

/* msg into why (may be NULL). */
void wz_put_why(char *why, size_t n, const char *msg);
/* After every change of the answers: the plan follows (stale until the
 * action ends or it is read), and what was written no longer describes
 * them. */
void wz_changed(gw_wizard *w);
/* The plan must be made again (at the end of the action). */
void wz_stale(gw_wizard *w);
/* One action of several changes: the plan is made once, at the
 * outermost wz_end (when stale). */
void wz_begin(gw_wizard *w);
void wz_end(gw_wizard *w);
/* Before reading w->plan / w->have_plan: made again when stale (the
 * plan is a cache of the answers, so a const wizard may refresh it). */
void wz_fresh(const gw_wizard *w);
/* The plan (wz_fresh first), NULL when there is none. */
const gw_plan *wz_plan(const gw_wizard *w);
/* Format row i rendered from the plan (made once per plan); NULL with
 * *why (may be NULL) when there is no plan or the emitter refuses. */
const char *wz_render(const gw_wizard *w, size_t i, const char **why);

/* Can the answers be saved (gw_wizard_save_answers)?  1 yes; 0 and e
 * (may be NULL) naming path why not. */
int wz_savable(const gw_wizard *w, const char *path, gw_err *e);
/* Forget the probes (rows, GPUs) of the last read (wizard_host.c). */
void wz_clear_probes(gw_wizard *w);
/* frees what the probes and a read capture left, nothing recomputed */
void wz_free_probes(gw_wizard *w);
/* The language changed: the host read (if any) is read again for its
 * texts (the check rows, the errors of the rows, GPUs and VMs, a sample
 * host's name), the queued changes' rows marked over them again
 * (wz_queue_rows); the GPUs, the GPUs added, the VMs and the open VM
 * stay.  Nothing when no host was read. */
void wz_reread_rows(gw_wizard *w);
/* The .vmx the wizard works on: v (owned from here, NULL for none) read
 * from path (owned, NULL); the old one and its error dropped. */
void wz_set_vmx(gw_wizard *w, gw_vmx *v, char *path);
/* A leading "~/" is the home directory (malloc'ed). */
char *wz_expand_tilde(const char *p);
/* The detected GPUs, free for passthrough where the host says so, become
 * the plan's host counts (af.a.avail; none detected: no check). */
void wz_fill_avail(gw_wizard *w);
/* The host mode m reads: the Linux root, or the attached host when it is
 * of m's kind; NULL when none. */
gw_host *wz_host_for(const gw_wizard *w, gw_mode m);
/* 1 (and *why, when not NULL) for the vSphere route in a build without
 * the vSphere module (gw_vs_available); else 0. */
int wz_mode_not_built(gw_mode m, const char **why);
/* The mode that reads host h (the welcome step's choice for it). */
gw_mode wz_mode_of(const gw_host *h);
/* Work on host h (host.h: an ESXi host or the vSphere API, already
 * connected; ownership passes to the wizard, gw_wizard_free closes it).
 * Chooses the mode of h's kind (GW_MODE_ESXI_SSH, GW_MODE_VSPHERE) and
 * runs gw_wizard_probe_esxi; the session (session.h) holds its VMs and
 * the open one.  gw_wizard_new attaches the host it is started with. */
void wz_attach(gw_wizard *w, gw_host *h);
/* Forget how the host was connected (wizard_connect.c): a new host is
 * attached, or the wizard ends. */
void wz_address_free(gw_wizard *w);

/* ---- the modes as data (wizard_mode.c) --------------------------------- */

/* What a mode reads. */
typedef enum {
	WZ_REACH_NONE,      /* nothing: the BIOS checklist (offline) */
	WZ_REACH_ROOT,      /* a local root (w->local) */
	WZ_REACH_ATTACHED   /* the attached host (w->host): VMs, enabling */
} wz_reach;

/* One mode of the welcome step.  Strings are untranslated (N_); the
 * words with a value in them are made by functions (malloc'ed). */
typedef struct wz_mode_desc {
	const char *name;               /* the welcome step's choice */
	const char *note, *note_long;   /* under the choice and with the
	                                 * cursor on it, where the name alone
	                                 * could mislead; NULL: none */
	const char *about;              /* its paragraph of the welcome
	                                 * step's help */
	const char *missing;            /* why it is not available before its
	                                 * host is attached; NULL: always */
	wz_reach reach;
	gw_host_kind kind;              /* the kind of the host it reads */
	int (*probe)(gw_wizard *w);     /* its probes; NULL: none */
	char *(*checks_title)(const gw_wizard *w);  /* the rows' heading */
	char *(*vm_line)(const gw_vm *vm, gw_power p);  /* open VM */
	const char *host_help, *vm_help;   /* the steps' help; NULL: none */
	const char *no_host;            /* WZ_REACH_ATTACHED: the rows' error
	                                 * while no host is attached */
	int no_host_vms;                /* ... and the VM list's too */
	const struct wz_connect *conn;  /* the welcome step's connection
	                                 * box and what connects it; NULL:
	                                 * the route does not connect */
} wz_mode_desc;
/* The answers file's [vm] name on the host attached: opened, so that the
 * replay patches the same VM (wizard_view.c). */
void wz_file_vm(gw_wizard *w);
/* Replay the answers file's SSH or API host (wizard_connect.c): SSH
 * connects with its address; the API's waits for its box, pre-filled and
 * pinned.  What failed or waits: host_error, one line. */
void wz_replay_address(gw_wizard *w);

/* The routes that connect from the box (wizard_mode.c). */
extern const struct wz_connect wz_connect_ssh, wz_connect_api;

/* How w->host was connected from the box or a replay (wizard_connect.c;
 * gw_wizard_address, never a password). */
typedef struct wz_address {
	gw_mode mode;
	char *v[GW_WIZARD_CONN_FIELDS];   /* the box's values, as typed */
	char *thumbprint;                 /* the pin the operator accepted */
} wz_address;

/* A route that connects (its descriptor's conn, wizard_mode.c): its box,
 * what connects it from the box's values, and the address pieces of a
 * kept address. */
struct wz_connect {
	gw_wizard_conn_form form;
	int (*connect)(gw_wizard *w, const char *const *v, const char *pin,
	               char *fp, gw_err *e);
	void (*address)(const wz_address *a, gw_wizard_address *out);
};

/* The box's fields, in the order of gw_wizard_connect_ssh's arguments. */
enum { WZ_SSH_TARGET, WZ_SSH_PORT, WZ_SSH_IDENTITY };
/* ... and of gw_wizard_connect_api's. */
enum { WZ_API_URL, WZ_API_USER, WZ_API_PASSWORD };

/* m's descriptor (an unknown m: offline's). */
const wz_mode_desc *wz_mode(gw_mode m);

/* The GPU table read at its first use (wizard_view.c): path is the file
 * (gw_wizard_start.table_path, else gw_table_default_path's). */
void wz_table_free(struct wz_table *lz);

#endif
