/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard.h: the interactive wizard's state and step logic, apart from any
 * drawing.  The screens in ui/ render a gw_wizard and call these functions
 * on keys; they never compute settings themselves (the plan does).  Every
 * function here is testable without a terminal (tests/unit/test_wizard.c).
 */
#ifndef GW_WIZARD_H
#define GW_WIZARD_H

#include "gw.h"
#include "answers.h"
#include "apply.h"
#include "gputable.h"
#include "hosttypes.h"   /* gw_gpu_dev, gw_vm, gw_power, gw_host (opaque) */
#include "plan.h"
#include "vmx.h"

/* The steps in order, one row each in steps.def: GW_STEP_WELCOME,
 * GW_STEP_HOST, GW_STEP_GPU, GW_STEP_VM, GW_STEP_MMIO, GW_STEP_OPTIONS,
 * GW_STEP_REVIEW, GW_STEP_WRITE. */
typedef enum {
#define GW_STEP(ID, TITLE, PURPOSE, HELP, CHECK, SCREEN) GW_STEP_##ID,
#include "steps.def"
#undef GW_STEP
	GW_NSTEPS
} gw_step;

typedef enum {
	GW_MODE_OFFLINE,   /* plan offline: snippets and/or a local .vmx */
	GW_MODE_LINUX,     /* configure this Linux host (doc/design.md, 4.3) */
	GW_MODE_ESXI_SSH,  /* an ESXi host over SSH (doc/design.md, 4.3) */
	GW_MODE_VSPHERE,   /* vCenter/ESXi through the API (doc/design.md, 4.3) */
	GW_NMODES
} gw_mode;

/* What the operator is making (the welcome step's choice, saved with the
 * answers as [wizard] activity): a VM's .vmx (patched, or the lines to
 * paste), or the settings of a Tanzu/BOSH VM type (BOSH VM extension, Ops
 * Manager, tile).  The route (gw_mode) says how the host is reached; the
 * activity says what comes out of it: the default outputs and the order
 * of the next steps follow it. */
typedef enum {
	GW_ACT_VM,      /* a VM's .vmx */
	GW_ACT_TANZU,   /* a Tanzu/BOSH VM type */
	GW_NACTS
} gw_activity;

typedef struct gw_wizard gw_wizard;

/* Translated texts (call after the locale is set). */
const char *gw_step_title(gw_step s);     /* short: fits 18 cells */
const char *gw_step_purpose(gw_step s);   /* one line */
const char *gw_step_help(gw_step s);      /* the step's own help */
const char *gw_mode_name(gw_mode m);
/* Is mode m usable in this wizard (w may be NULL: none yet)?  Returns 1
 * when usable (*why = NULL), 0 when not, *why then a translated sentence
 * (an unknown mode: plan offline).  GW_MODE_OFFLINE and GW_MODE_LINUX
 * always are; GW_MODE_ESXI_SSH and GW_MODE_VSPHERE are available once
 * a host of theirs is attached (gw_wizard_new: --ssh USER@HOST, the ESXi
 * shell itself, a sample ESXi host, --url; or gw_wizard_connect,
 * wizard_connect.h); before that *why says that Enter connects. */
int gw_wizard_mode_available(const gw_wizard *w, gw_mode m, const char **why);

/* The GPU classes of the table (gw_gpu.cls, gputable.h) for the
 * selection filter; gw_gpu_class_name(GW_CLASS_ANY) names the "all"
 * filter. */
const char *gw_gpu_class_name(gw_gpu_class c);   /* translated */

/* Host checklist items (offline: confirmed by the operator). */
enum { GW_HOST_IOMMU, GW_HOST_ABOVE4G, GW_HOST_SRIOV, GW_NHOST };
const char *gw_host_item_title(int item);  /* translated */
const char *gw_host_item_help(int item);   /* translated: where in the BIOS */


/* How the wizard starts (the command line): an answers file, a host
 * already connected (--ssh, the ESXi shell, or --url: ownership passes to
 * the wizard, which shows it by gw_host_label), or a sample host to
 * practise on. */
typedef struct gw_wizard_start {
	const char *answers;    /* --answers FILE, or NULL */
	gw_host *host;          /* an ESXi host or the vSphere API, or NULL */
	const char *sample;     /* --sample-host NAME, or NULL */
	const char *table_path; /* the GPU table file when gw_wizard_new is
	                         * given no table (NULL: the default one) */
	/* The language: lang (--lang: "en", "zh_CN"), else the locale's
	 * when it names one of the languages ("zh_CN.UTF-8" and "zh_TW"
	 * give zh_CN, "en_US.UTF-8" en; C, C.UTF-8 and POSIX name none),
	 * else the answers file's [wizard] language, else the front end's
	 * default (English): a trainee replaying a trainer's file reads it
	 * in their own language. */
	const char *lang;       /* --lang, or NULL */
	const char *locale;     /* the locale of the messages as the
	                         * environment names it (LC_ALL, else
	                         * LC_MESSAGES, else LANG), or NULL */
	/* The front end's switch of the language of the texts, called with
	 * the language to use (above) before the
	 * host is read, so that what the host's probes say is in it; 0 when
	 * it could switch.  NULL: the front end does it later. */
	int (*use_language)(const char *lang);
} gw_wizard_start;

/* Practise on sample host name (data/hosts; samplehost.h): it is built in
 * a fresh scratch directory (w->scratch), what came from the old host or
 * route is dropped (as gw_wizard_set_mode does), the output directory
 * moves into it (SCRATCH/gpuwiz-out; an answers file's own [output] dir
 * stays at the start), and the mode follows the sample: a Linux
 * sample is probed as this Linux host through its root, an ESXi sample is
 * attached through the stand-in commands (gw_wizard_new).  The
 * sample itself is never modified; the scratch directory stays (it holds
 * what was written) and its path is shown.  -1 and e on failure (unknown
 * name: the known ones are listed). */
int gw_wizard_use_sample(gw_wizard *w, const char *name, gw_err *e);

/* Start empty, or pre-filled from an answers file (every screen then has
 * its value; Enter on each accepts it).  answers_path NULL = empty.  The
 * default output directory is "gpuwiz-out"; the formats follow the
 * activity until the file ([output] formats) or the operator chooses
 * (the options step, gw_wizard_set_formats): GW_ACT_VM the .vmx lines, or
 * only the patched .vmx when one is open; GW_ACT_TANZU BOSH, Ops Manager
 * and tile (formats.def's FOR).
 * Details: mode OFFLINE, step WELCOME (visited).  Without a file the host
 * checklist starts unconfirmed; with one every host_ok[] item starts
 * confirmed (the BIOS checklist is not in the file: a trainer's file
 * stands for a prepared host), so that Enter alone walks to the end.
 * [wizard] activity and language are taken; the file's [host] and [vm]
 * name are gw_wizard_new's (a host is attached there).  The default
 * formats keep those the plan can render.
 * A [vm] vmx that cannot be read is not fatal: vmx stays NULL and
 * vmx_error says why (the VM step then asks for another file or none).
 * Returns -1 (e set, *w left empty; gw_wizard_free is harmless) only when
 * the answers file itself cannot be loaded.  The plan is built; dirty = 0. */
int gw_wizard_init(gw_wizard *w, const gw_table *t, const char *answers_path,
                   gw_err *e);
void gw_wizard_free(gw_wizard *w);

/* Rebuild the plan from the answers (+ the .vmx).  Returns 0 when a plan
 * exists; else plan_error says why (no GPU yet, below the rule...).
 * The plan is derived from the answers once per action: every change
 * below marks it stale, and it is made again when the action ends, or
 * earlier when something reads it.  Outside an action each public call
 * is one.  The renders of the plan (gw_wizard_snippet,
 * gw_wizard_format_check, the write) are made once per plan. */
int gw_wizard_replan(gw_wizard *w);
/* One user action (a key): the changes between _begin and _end make one
 * plan, at _end (they nest; the front end wraps each key in them). */
void gw_wizard_action_begin(gw_wizard *w);
void gw_wizard_action_end(gw_wizard *w);

/* May the operator leave step s forwards?  0 = yes; else -1 with a
 * translated reason in why (e.g. "choose at least one GPU").
 *  WELCOME  the mode is available (gw_wizard_mode_available)
 *  HOST     offline: the IOMMU and above-4G items confirmed (SR-IOV is
 *           checked at REVIEW, once the GPUs are known:
 *           gw_wizard_host_item_sev); GW_MODE_LINUX: the probes ran and
 *           no check row FAILs (nor checks_error), unless host_override
 *  GPU      at least one GPU chosen
 *  VM       a .vmx or none; not a [vm] vmx that failed to load (vmx_error)
 *  MMIO, OPTIONS   a plan (plan_error says why not)
 *  REVIEW   a plan; something to write (a format or a .vmx); an output
 *           directory when there are formats; SR-IOV confirmed when a
 *           chosen vGPU needs it; every chosen format renders
 *           (gw_wizard_format_check); no FAIL finding unless af.force
 *  WRITE    never (the last step) */
int gw_wizard_check_step(const gw_wizard *w, gw_step s, char *why, size_t n);
/* The mark of step s in the step bar/list, the one rule for it:
 * GW_MARK_NONE for the current step and those not reached or ahead of
 * it (skipped, or not yet walked again after going back);
 * GW_MARK_PASS for a step behind the current one that passes
 * gw_wizard_check_step now and left nothing to look at; GW_MARK_WARN
 * for one that does not pass now, or that the operator went on from
 * with a FAIL or WARN: host rows that FAIL (overridden) or WARN, a
 * review with a FAIL finding (force). */
typedef enum { GW_MARK_NONE, GW_MARK_PASS, GW_MARK_WARN } gw_step_mark;
gw_step_mark gw_wizard_step_mark(const gw_wizard *w, gw_step s);
/* Move: next validates the current step first; back never fails at the
 * first step (returns -1 and stays). */
int gw_wizard_next(gw_wizard *w, char *why, size_t n);
int gw_wizard_back(gw_wizard *w);
/* Jump to a step already visited (mouse click on the step list).  Back
 * always works; forwards every step from the current one up to s must pass
 * gw_wizard_check_step (answers may have changed since s was visited).
 * On -1 nothing moves: s not visited yet, or a step on the way fails; why
 * (may be NULL) gets the reason (translated: the failing step's
 * check_step reason, or that s is not reached yet). */
int gw_wizard_goto_why(gw_wizard *w, gw_step s, char *why, size_t n);

/* GPU step.  Search the table: query matched case-insensitively against
 * short id, name and PCI id ("" = all), filtered by vendor id (0 = any)
 * and class.  Fills out (up to max), returns the number of matches.
 * The query is split at blanks and every word must occur in the id, the
 * name or the PCI id "10de:26b9" (so "10de:26b9", "l40", "rtx 3090" all
 * work); results come in table order.  out may be NULL when max is 0. */
size_t gw_wizard_search(const gw_wizard *w, const char *query, unsigned vendor,
                        gw_gpu_class cls, const gw_gpu **out, size_t max);
/* Add a GPU (profile NULL = passthrough) with count; merges with an
 * identical entry.  Errors: unknown VRAM (asks for a size), count range,
 * a profile the GPU does not have.
 * g must be a row of w->table.  A profile is stored as the plan expects it
 * (gw_answers_add_gpu with "PROFILE=COUNT": the profile lower case, gpu =
 * g, vram_gb = g's physical framebuffer); it is g's when
 * gw_gpu_vgpu_profile(g, profile) knows it (grid_/nvidia_ spellings of the
 * same board are one entry).  Counts: 1..GW_MMIO_MAX_COUNT, also after a
 * merge.  gw_wizard_add_vram merges with a size-only entry of the same
 * size.  Every mutation here and below sets dirty = 1, clears written and
 * result, and rebuilds the plan. */
int gw_wizard_add_gpu(gw_wizard *w, const gw_gpu *g, const char *profile,
                      int count, gw_err *e);
int gw_wizard_add_vram(gw_wizard *w, int vram_gb, int count, gw_err *e);
/* "Add a GPU by its memory size": one GPU of vram GB (gw_parse_gb) and,
 * when bar1 is not blank, a BAR1 of that size (gw_parse_bar_size: "256M",
 * "16G"), which the plan packs into the MMIO window as it does the
 * table's.  Merges as gw_wizard_add_vram (the same sizes).  Errors name
 * the field ("VRAM size", "BAR1 size"). */
int gw_wizard_add_sized(gw_wizard *w, const char *vram, const char *bar1,
                        gw_err *e);
int gw_wizard_set_count(gw_wizard *w, size_t idx, int count, gw_err *e);
int gw_wizard_remove_gpu(gw_wizard *w, size_t idx);
/* vGPU profiles offered for g: "<prefix>-<fb><series>" for the framebuffer
 * sizes NVIDIA documents for the board (C series, at least the full-board
 * profile).  Returns a malloc'ed NULL-terminated list (may be empty).
 * The sizes are the GPU table's time-sliced C-series vgpu_types (NVIDIA AI
 * Enterprise 6, "Virtual GPU Types for Supported GPUs": L40S 48 24 16 12 8
 * 6 4; A100 PCIe 80GB 80 40 20 16 10 8 4), largest first; a board the
 * table lists no C-series types for gets its full-board profile
 * "<prefix>-<F>c" only.  No prefix or unknown VRAM: empty list.
 * MIG-backed profiles (grid_a100-1-5c) are not offered; an answers file
 * may still name them. */
char **gw_wizard_profiles(const gw_gpu *g);
void gw_strv_free(char **v);

/* VM step: open a .vmx (NULL or "" = none, snippets only).  On failure the
 * previous choice stays and e says why.  Success clears vmx_error.  A
 * leading "~/" is the home directory (as in gw_path_complete). */
int gw_wizard_open_vmx(gw_wizard *w, const char *path, gw_err *e);
/* Path completion for the entry field: the entries of prefix's directory
 * that start with its last component (directories end in '/', only .vmx
 * files and directories listed), sorted; NULL-terminated, malloc'ed.
 * Each entry is the whole path as typed (prefix's directory part + name),
 * so it can replace the field's text.  Hidden entries only when the last
 * component starts with '.'; ".vmx" compares case-insensitively; symlinks
 * are followed.  An unreadable directory gives an empty list (never NULL).
 * Free with gw_strv_free. */
char **gw_path_complete(const char *prefix);
/* The longest common prefix of a completion list (malloc'ed; "" for an
 * empty or NULL list).  Never ends inside a UTF-8 character. */
char *gw_common_prefix(char *const *v);

/* MMIO step: the operator's size.  0 = back to the recommendation.  Below
 * the rule needs confirmed = 1 (else -1 and e says what to confirm).
 * Stored in af.a.mmio_gb; allow_below_rule is set only for a confirmed
 * size below the rule (cleared otherwise).  More than
 * GW_MMIO_MAX_WINDOW_GB: -1.  The rule value comes from the plan (built
 * without an operator size when the current one is missing). */
int gw_wizard_set_mmio(gw_wizard *w, uint64_t gb, int confirmed, gw_err *e);
/* The MMIO field's text: empty (or blanks) goes back to the
 * recommendation; a whole number of GB is gw_wizard_set_mmio(w, gb,
 * confirmed).  0 when it stands; GW_MMIO_ASK when the size is below the
 * rule and not confirmed (e is the question's reason); -1 with e for
 * anything else: 0, "abc", "-5", "1.5", more than GW_MMIO_MAX_WINDOW_GB.
 * Nothing changes unless it returns 0.  *gb (may be NULL) gets the size
 * read (0 for empty). */
#define GW_MMIO_ASK 1
int gw_wizard_set_mmio_text(gw_wizard *w, const char *text, int confirmed,
                            uint64_t *gb, gw_err *e);

/* Options step. */
void gw_wizard_set_uvm(gw_wizard *w, int on);
void gw_wizard_set_p2p(gw_wizard *w, int on);
void gw_wizard_set_reserve(gw_wizard *w, int on);
/* Whether the session's host takes Dynamic DirectPath I/O (a vCenter
 * through the API: gw_host_takes_dynamic, the rule of the refusals). */
int gw_wizard_takes_dynamic(const gw_wizard *w);
/* Dynamic DirectPath I/O on or off; on where the host does not take it:
 * -1 and e (the wizard's words: gw_err_text(e, 1)), nothing changed. */
int gw_wizard_set_dynamic(gw_wizard *w, int on, gw_err *e);
/* GW_FMT_* bits: the operator's choice, kept over the activity's
 * defaults from then on. */
void gw_wizard_set_formats(gw_wizard *w, int mask);
/* Output directory (kept as given, relative to the current directory; a
 * leading "~/" is the home directory).  Empty: -1; a path that exists and
 * is not a directory: -1.  It is created when writing. */
int gw_wizard_set_outdir(gw_wizard *w, const char *dir, gw_err *e);

/* Review step: save the answers (for a class to replay).  The answers
 * file resolves paths relative to itself, so the .vmx and output paths are
 * written relative to path's directory when they lie under it, else
 * absolute: loading the file again finds the same files.  Refused (-1)
 * when there is no GPU or nothing to write (the file could not be loaded
 * back).  Success: dirty = 0.  The whole document is saved: the activity,
 * the language, the host (a sample by its name, this Linux host, an SSH
 * or API host by its address; a host of the file not reached yet as the
 * file said), the open VM by its name (a local .vmx by its path), and
 * the output directory unless it lies in a sample's scratch directory
 * (made anew on the replay).  The BIOS checklist is not saved (see
 * gw_wizard_init). */
int gw_wizard_save_answers(gw_wizard *w, const char *path, gw_err *e);

/* Write step: the session's write of the current plan; sets written/result or
 * write_error.  Returns 0 on success.
 * First gw_wizard_check_step(REVIEW) must pass (so a plan with FAIL
 * findings is refused unless af.force).  The write gets a copy of the .vmx
 * document: w->vmx stays as loaded, so the plan (and a second write after
 * going back) is always "the file as opened + the changes"; writing twice
 * does not add devices twice.  Success: written = 1, dirty = 0. */
int gw_wizard_write(gw_wizard *w);

/* The commands to run next (translated lines): power on, vim-cmd
 * vmsvc/reload, the guest checks (nvidia-smi -q fields; the NCCL
 * all-reduce test for several GPUs).  NULL-terminated, malloc'ed.
 * Only for what is written (the chosen formats, a patched .vmx), the
 * activity's own route first.  GW_ACT_VM: the findings left open, the
 * host (a patched .vmx: getallvms, power.getstate, reload, power.on; a
 * power-cycle note for UVM), then the formats' steps (the .vmx lines to
 * paste first).  GW_ACT_TANZU: the formats' steps first (tile fields and
 * Apply Changes, Ops Manager PUT/om, BOSH cloud config), then the
 * findings and the host.  Both end with the guest (nvidia-smi, -q modes,
 * BAR1/FB totals, torchrun all-reduce when the VM has 2+ GPUs,
 * NCCL_DEBUG=INFO).
 * Paths are those written (result) or, before writing, those planned.
 * Commands are never translated, only the words around them.  Free with
 * gw_strv_free.
 * An item is one step: its first line is the words, each further line
 * ('\n') one command, alone on it (nothing follows a command on its
 * line).  Its leading tabs are its level: 0 a step; where the chosen
 * outputs give BOSH the VM type in more than one way, a step says so and
 * each way (route: the tile, Ops Manager, BOSH) follows at level 1 with
 * its own steps at level 2 (gw_wizard_next_mark numbers them). */
char **gw_wizard_next_commands(const gw_wizard *w);
/* The mark of item i of gw_wizard_next_commands' list v, in the one
 * numbering the write step and the exit summary show: "3." at level 0,
 * "A." for a route, "1." for a route's step (counted within it); *level
 * gets the item's level and *text its words after the tabs.  Static
 * storage, until the next call. */
const char *gw_wizard_next_mark(char *const *v, size_t i, int *level,
                                const char **text);

/* What the front end prints on the normal terminal when the wizard ends
 * after a successful write (translated plain lines, labels padded in
 * cells): "Written:" each file and the .vmx (or "Unchanged:"), "Backup:"
 * the .vmx's backup, then "Next steps:" and the numbered
 * gw_wizard_next_commands.  NULL when the write step has not succeeded
 * (or a change since cleared it).  Free with gw_strv_free. */
char **gw_wizard_exit_summary(const gw_wizard *w);

/* ---- additions for the screens ------------------------------------- */

/* "NVIDIA", "AMD", "Intel" for the vendor filter (brand names, not
 * translated); NULL for another id. */
const char *gw_vendor_name(unsigned vendor_id);

/* Confirm (ok = 1) or unconfirm a host checklist item; not saved, does not
 * change dirty.  An out-of-range item is ignored. */
void gw_wizard_set_host_ok(gw_wizard *w, int item, int ok);
/* The severity of an offline host checklist item, as the steps act on
 * it: GW_SEV_PASS once confirmed; not confirmed, the IOMMU and above-4G
 * items are GW_SEV_ERROR (the host step's Enter waits for them and names
 * every one missing), SR-IOV is GW_SEV_WARN when a chosen vGPU needs it
 * (the review's Enter waits for it), else GW_SEV_INFO. */
gw_sev gw_wizard_host_item_sev(const gw_wizard *w, int item);

/* ---- a host attached: ESXi (shell or ssh) or the vSphere API ----------- */

/* (Re)read the host: esxcli system version get (-> the ESXi version answer,
 * so the plan knows the newest hardware version), system uuid get (-> the
 * system id, so a GPU added from the host gets its whole device block),
 * hardware pci list (-> detected GPUs, onboard displays left out) and
 * vim-cmd vmsvc/getallvms.  The rows (checks) say: the host and its
 * version, the system id, GPUs present, and per GPU whether passthrough is
 * capable (FAIL: "Passthru Capable: false", the IOMMU is off in the BIOS),
 * enabled and active (PASS), configured but waiting for a reboot (WARN),
 * or not enabled (WARN: gw_wizard_esxi_enable).  Above-4G decoding cannot
 * be seen from ESXi: a WARN row says to check it in the BIOS.  Returns the
 * number of FAIL rows. */
int gw_wizard_probe_esxi(gw_wizard *w);
/* Queue enabling passthrough for detected GPU idx, or take a queued one
 * back (the host step's e): nothing runs until the write
 * (gw_wizard_host_changes; wizard_queue.c).  1 queued, 0 taken back, -1
 * and e (already enabled, or done by the write: *reboot, may be NULL,
 * then says whether the host needs a reboot). */
int gw_wizard_esxi_enable(gw_wizard *w, size_t idx, int *reboot, gw_err *e);
/* VM step: open VM idx of the host's VMs (sess.vms; its power state, its .vmx read from
 * the datastore into w->vmx; af.vmx_path stays NULL: the file lives on the
 * host).  idx < 0: no VM (snippets only).  Failure keeps the previous
 * choice. */
int gw_wizard_esxi_open_vm(gw_wizard *w, long idx, gw_err *e);
/* The open VM's hardware version is below the host's newest
 * (plan.hw_current < plan.hw_target): the version to upgrade to, else 0. */
int gw_wizard_esxi_upgrade_target(const gw_wizard *w);
/* Queue the upgrade of the open VM to gw_wizard_esxi_upgrade_target
 * (powered off only, never down), or take a queued one back (the VM
 * step's u): the plan is made for the target version at once, the write
 * runs vim-cmd vmsvc/upgrade (or the API's) and reads the .vmx again.
 * 1 queued, 0 taken back, -1 and e. */
int gw_wizard_esxi_upgrade(gw_wizard *w, gw_err *e);
/* Where the open .vmx lives, for the screens: af.vmx_path, or on an ESXi
 * host "root@esx01:/vmfs/volumes/datastore1/vm/vm.vmx" (static buffer,
 * valid until the next call); NULL when no .vmx is open. */
const char *gw_wizard_vmx_where(const gw_wizard *w);
/* Does the write leave the VM as it is?  1 when a VM's .vmx is open, it
 * already holds every setting of the plan (none to write) and no host
 * change is queued: the review, the write step and the exit say
 * "nothing to change", and the write takes no backup. */
int gw_wizard_changes_nothing(const gw_wizard *w);
/* ---- GW_MODE_VSPHERE -------------------------------------------------- */

/* Where long API tasks (reconfigure, upgrade) report their progress. */
void gw_wizard_set_progress(gw_wizard *w, gw_host_progress_fn fn, void *ctx);
/* ESXi over SSH or the API: the host screens (rows, VM list) apply. */
int gw_wizard_host_mode(const gw_wizard *w);
/* Passthrough of detected GPU idx on its host: 1 on, 0 off, -1 unknown. */
int gw_wizard_detected_passthru(const gw_wizard *w, size_t idx);


/* ---- GW_MODE_LINUX: this Linux host ----------------------------------- */

/* The root the Linux probes read (/proc, /sys): the environment variable
 * GPUWIZ_SYSROOT when set and not empty (tests point it at a fake host
 * built in a temporary directory, like gpuwiz check --sysroot), else "/". */
const char *gw_wizard_sysroot(void);
/* Choose the mode (the welcome step).  A mode that is not available:
 * -1 and *why (may be NULL) gets gw_wizard_mode_available's sentence; nothing
 * changes.  Another mode than the current one drops what came from the
 * old route: the GPUs, memory and MMIO sizes, the .vmx and the open VM,
 * the host's facts (ESXi version, BDFs, system id, GPU counts), the
 * probes and queued host changes, and the output directory goes back to
 * "gpuwiz-out"; options, outputs, name and language stay.  Then the
 * mode's probe runs (GW_MODE_LINUX: gw_wizard_probe_host; an attached
 * host: gw_wizard_probe_esxi).  Does not change dirty. */
int gw_wizard_set_mode(gw_wizard *w, gw_mode m, const char **why);
/* (Re)run the host checks and the GPU listing (gw_host_probe_all, without
 * onboard BMC/emulated displays) of the attached host, or of the Linux
 * root gw_wizard_sysroot(); an error of either is kept in checks_error /
 * detect_error.  Clears host_override.  Returns the number of FAIL rows
 * (a checks_error counts as one). */
int gw_wizard_probe_host(gw_wizard *w);
/* Go on past FAIL rows anyway (the host step's explicit confirmation). */
void gw_wizard_set_host_override(gw_wizard *w, int on);
/* The first FAIL row, NULL when none (or not GW_MODE_LINUX). */
const gw_finding *gw_wizard_host_fail(const gw_wizard *w);
/* Offline: read the host's GPUs from a saved `lspci -nnvv` (or -vvv)
 * capture or `esxcli hardware pci list` output at path, told apart by
 * their device lines (gw_lspci_is_capture); they become the detected GPUs
 * (onboard displays left out, as gw_wizard_probe_host lists them) that
 * gw_wizard_add_detected adds, and the host's GPU counts.  Another capture
 * replaces them.  Returns their number, or -1 and e (a host is probed; the
 * file missing, binary, or neither capture) with nothing changed. */
int gw_wizard_read_capture(gw_wizard *w, const char *path, gw_err *e);
/* The capture read, or NULL. */
const char *gw_wizard_capture(const gw_wizard *w);
/* Add detected GPU idx (of w->detected) in passthrough, one: its table
 * row when the table knows it; else a GPU sized from its BARs (VRAM
 * unknown: the 64-bit BAR need in GB, as gpuwiz gpus sizes it, stands for
 * the VRAM, so the window covers the BARs); no 64-bit BAR: -1.  Each
 * detected GPU is added once (again: -1); detected_added[idx] = 1 keeps
 * its BDF with the answers.  The BDF goes into the answers' host PCI
 * addresses (gw_wizard_add_bdf: a full .vmx device block) only when a
 * system id is set, as the plan requires one with a BDF; a Linux/KVM host
 * needs no .vmx device block, so without one the GPU is added for sizing
 * only.  e says why on -1. */
int gw_wizard_add_detected(gw_wizard *w, size_t idx, gw_err *e);

/* The output formats as the screens show them: the rows of the
 * registry (src/report/formats.def), in its order, at most
 * GW_WIZARD_MAX_FORMATS (the options step sizes its rows by it).  bit is
 * the format's bit in gw_answers_file.formats; label (the options step's
 * check box) and holds (the review's words) are msgids: _() them;
 * filename is the file in the output directory. */
#define GW_WIZARD_MAX_FORMATS 16
typedef struct gw_wizard_format {
	int bit;
	const char *label;
	const char *holds;
	const char *filename;
} gw_wizard_format;
size_t gw_wizard_nformats(void);
/* Row i, or NULL past the last. */
const gw_wizard_format *gw_wizard_format_at(size_t i);

/* Can format fmt (one GW_FMT_* bit) be rendered from the current plan?
 * 0 = yes; else -1 and why says why (no plan, or the emitter's refusal,
 * e.g. the tile with two GPU models).  The review step can grey it out. */
int gw_wizard_format_check(const gw_wizard *w, int fmt, char *why, size_t n);
/* Where fmt will be written: "<out_dir>/<file name>" (malloc'ed), NULL
 * without an output directory or for an invalid fmt. */
char *gw_wizard_output_path(const gw_wizard *w, int fmt);
/* Does setting s change the file (not kept, not already that value)?
 * For the review diff: 0 = show as "=", 1 = show "-old" / "+new". */
int gw_setting_is_change(const gw_setting *s);

/* VM step, the other answers (each validates, sets dirty and replans):
 * the host's ESXi version ("8.0U2"; NULL or "" = unknown), the memory in
 * MB when there is no .vmx (0 = from the .vmx), the VM extension name for
 * BOSH/Ops Manager (NULL or "" = derived), a host PCI address to attach
 * (pairs with the passthrough GPUs in order; needs the system id), the
 * host's system id (esxcli system uuid get; NULL or "" = none), code-43
 * hiding (old GeForce drivers only) and force (write even when the VM
 * looks powered on or the plan has failures). */
int gw_wizard_set_esxi(gw_wizard *w, const char *version, gw_err *e);
/* The plan asks for the host's ESXi version: a .vmx below hardware
 * version 17 and no version known (the plan's WARN "hw-target-unknown",
 * src/core/plan_vm.c): 1, else 0.  The VM step then moves to its ESXi
 * version field. */
int gw_wizard_esxi_wanted(const gw_wizard *w);
int gw_wizard_set_memory(gw_wizard *w, long mb, gw_err *e);
int gw_wizard_set_name(gw_wizard *w, const char *name, gw_err *e);
int gw_wizard_add_bdf(gw_wizard *w, const char *bdf, gw_err *e);
void gw_wizard_clear_bdfs(gw_wizard *w);
int gw_wizard_set_system_id(gw_wizard *w, const char *uuid, gw_err *e);
void gw_wizard_set_code43(gw_wizard *w, int on);
void gw_wizard_set_force(gw_wizard *w, int on);

/* ---- accessors for the screens (wizard_view.c) ---- */

/* The screens (ui/) see the model only through these: what they draw
 * (const pointers into the model, valid until the next mutation) and
 * capability questions instead of the kind of host. */

/* A wizard on the heap, started as the command line says: from the
 * answers file, then the ESXi host or API session (ownership passes, also
 * on failure) or the sample host; without either, the answers file's
 * [host] (a sample is built, this Linux host probed; an SSH or API host
 * is not connected here: GW_ERR_HOST says which option connects it).
 * The file's values stand for that host; its [vm] name is then opened
 * there (a name the host does not list: GW_ERR_VMX).  NULL and e on
 * failure: the answers cannot be loaded, or the sample host cannot be
 * built.  dirty = 0. */
gw_wizard *gw_wizard_new(const gw_table *t, gw_wizard_start *st, gw_err *e);
void gw_wizard_delete(gw_wizard *w);

/* The GPU table.  t given to gw_wizard_new (or gw_wizard_init): that one,
 * borrowed.  t NULL: st->table_path is read at the first call (the one
 * place that reads it; every step gets the same table), or at once when
 * the start needs it (an answers file, --sample-host, a host) or the path
 * is not a regular file; NULL when the table cannot be read.
 * gw_wizard_load_table reads it now: -1 and e (one line naming the file)
 * when it cannot be read; the front end calls it after its first screen,
 * before the first key, and ends on -1 (doc/design.md, section 9). */
const gw_table *gw_wizard_table(const gw_wizard *w);
int gw_wizard_load_table(gw_wizard *w, gw_err *e);
gw_step gw_wizard_step(const gw_wizard *w);
int gw_wizard_visited(const gw_wizard *w, gw_step s);
gw_mode gw_wizard_mode(const gw_wizard *w);
gw_activity gw_wizard_activity(const gw_wizard *w);
/* The language of the screens ("en" or "zh_CN"; saved as [wizard]
 * language).  The front end sets it when it switches (and at the start
 * unless gw_wizard_new chose one, which it applies):
 * NULL or another word is ignored.  gw_wizard_language: NULL when
 * unknown.  The front end switches the texts (gettext) first: a new
 * language makes every text the model holds again in it, the one rule
 * for a switch: the host read is read again for its check rows and
 * errors, the queued host changes marked over them again, and the plan
 * is made again (findings, next steps, files); the GPUs, the VM and the
 * queue stay, dirty does not change. */
void gw_wizard_set_language(gw_wizard *w, const char *lang);
const char *gw_wizard_language(const gw_wizard *w);
/* Choose the activity (an unknown one is ignored); does not change
 * dirty.  The default outputs follow it (gw_wizard_init) until the
 * operator or the answers file chooses them.  Its word in the answers file: "vm", "tanzu"
 * (gw_answers_activities; gw_activity_parse gives GW_NACTS for another). */
void gw_wizard_set_activity(gw_wizard *w, gw_activity a);
gw_activity gw_activity_parse(const char *word);
/* The answers (GPUs, options, outputs, the .vmx path, the file). */
const gw_answers_file *gw_wizard_answers(const gw_wizard *w);
/* The plan, NULL when there is none (gw_wizard_error GW_ERR_PLAN says
 * why). */
const gw_plan *gw_wizard_plan(const gw_wizard *w);
/* The open .vmx document, NULL when none (snippets only). */
const gw_vmx *gw_wizard_vmx(const gw_wizard *w);
/* What the write step wrote, NULL until it succeeded. */
const gw_apply_result *gw_wizard_result(const gw_wizard *w);
/* A sample host's scratch directory (where the writes go), or NULL. */
const char *gw_wizard_scratch(const gw_wizard *w);

typedef enum {
	GW_ERR_PLAN,     /* why there is no plan */
	GW_ERR_WRITE,    /* why the write step failed */
	GW_ERR_VMX,      /* why the [vm] vmx could not be used */
	GW_ERR_CHECKS,   /* why the host checks could not run */
	GW_ERR_DETECT,   /* why the host's GPUs could not be listed */
	GW_ERR_VMS,      /* why the host's VMs could not be listed */
	GW_ERR_HOST,     /* why the answers file's host is not reached
	                  * (an SSH or API host not given on the command
	                  * line: how to connect) */
	GW_ERR_REREAD    /* the write found the local .vmx changed on disk,
	                  * wrote nothing and read it again: the plan is
	                  * made on it now */
} gw_wizard_err;
/* The translated sentence, NULL when there is no such error. */
const char *gw_wizard_error(const gw_wizard *w, gw_wizard_err which);

typedef enum {
	GW_WIZ_DIRTY,          /* changed since loaded/saved, not written */
	GW_WIZ_WRITTEN,        /* the write step succeeded */
	GW_WIZ_HOST_OVERRIDE,  /* going on despite FAIL host rows */
	GW_WIZ_SAVABLE         /* gw_wizard_save_answers would take them:
	                        * a GPU, and a format, a .vmx or a VM */
} gw_wizard_flag;
int gw_wizard_is(const gw_wizard *w, gw_wizard_flag f);

/* What the host can do, for the screens (never the kind of host). */
typedef enum {
	GW_CAN_PROBE,    /* the host is probed: check rows, detected GPUs */
	GW_CAN_ENABLE,   /* passthrough can be enabled on its GPUs (e) */
	GW_CAN_VMS       /* it lists VMs to open (the VM step's list) */
} gw_wizard_cap;
int gw_wizard_can(const gw_wizard *w, gw_wizard_cap c);
/* Read the host again (its check rows, GPUs and VMs); the number of FAIL
 * rows.  0 when nothing is probed. */
int gw_wizard_reprobe(gw_wizard *w);

/* The host's name on the screens: "root@esx01", the API's URL, a sample
 * host's name; "" when there is none. */
const char *gw_wizard_host_label(const gw_wizard *w);
/* The host checklist item confirmed (offline). */
int gw_wizard_host_ok(const gw_wizard *w, int item);
/* The host's check rows and detected GPUs (GW_CAN_PROBE): their count,
 * and the array in *out (out may be NULL). */
size_t gw_wizard_checks(const gw_wizard *w, const gw_finding **out);
size_t gw_wizard_detected(const gw_wizard *w, const gw_gpu_dev **out);
/* Detected GPU idx was added with its address (gw_wizard_add_detected). */
int gw_wizard_detected_added(const gw_wizard *w, size_t idx);
/* Does this machine (gw_wizard_sysroot) have a GPU that is not an
 * on-board display?  Unknown (no /sys, or no GPU among the first 1,024
 * PCI functions of more) counts as yes (wizard_welcome.c). */
int gw_wizard_machine_has_gpu(const gw_wizard *w);

/* The host's VMs (GW_CAN_VMS): their count, the array in *out (out may
 * be NULL). */
size_t gw_wizard_vms(const gw_wizard *w, const gw_vm **out);
/* Index of the open VM in that list, -1 when none; its power state. */
long gw_wizard_vm_open(const gw_wizard *w);
gw_power gw_wizard_vm_power(const gw_wizard *w);
/* The devices of its host the write step attaches ("0000:42:00.0, ..."),
 * NULL when the host does not pick them or none is picked. */
const char *gw_wizard_vm_picked(const gw_wizard *w);

/* A passthrough device already in the open .vmx: pciPassthruN (N below
 * 128) with present = TRUE, its keys as written there. */
typedef struct gw_vm_device {
	int n;                  /* N */
	const char *vgpu;       /* pciPassthruN.vgpu, or NULL */
	const char *vendor_id;  /* pciPassthruN.vendorId, or NULL */
	const char *device_id;  /* pciPassthruN.deviceId, or NULL */
} gw_vm_device;
/* In the order of N; returns their count, stores at most max in out. */
size_t gw_wizard_vm_devices(const gw_wizard *w, gw_vm_device *out,
                            size_t max);

/* The screens' sentences that depend on how the host is reached
 * (translated, malloc'ed): the heading of the host's check rows; the open
 * VM's line (name, Vmid where the host has them, power state; NULL when
 * none is open). */
char *gw_wizard_checks_title(const gw_wizard *w);
char *gw_wizard_vm_title(const gw_wizard *w);
/* The help of step s (translated): in the words of the mode where it
 * has its own (host, VM), else the step's (gw_step_help). */
const char *gw_wizard_step_help(const gw_wizard *w, gw_step s);

/* The sample hosts to practise on (data/hosts), for the welcome screen:
 * gw_sample_list / gw_sample_list_free of samplehost.h (the names only);
 * gw_wizard_sample_describe reads one's title and kind when it is shown
 * (gw_sample_describe). */
int gw_wizard_samples(gw_sample_info **out, size_t *n, gw_err *e);
int gw_wizard_sample_describe(gw_sample_info *s, gw_err *e);
void gw_wizard_samples_free(gw_sample_info *l, size_t n);

/* ---- the devices already in the VM; unified memory (wizard_uvm.c) ---- */

/* GPUs (count) already in the open .vmx, as the plan counts them; 0
 * without a .vmx or a plan.  The GPU step goes on with only these. */
int gw_wizard_existing_gpus(const gw_wizard *w);
/* vGPUs (count) of the VM: already there and chosen; 0 without a plan. */
int gw_wizard_vm_vgpus(const gw_wizard *w);
/* Until the operator decides (an answers file's [options] uvm, or
 * gw_wizard_set_uvm), unified memory follows the VM: on when it has
 * vGPUs (NCCL 2.27+ fails without it), off otherwise.  Returns 1 when it
 * changed the answers.  Called when a .vmx is opened and when the options
 * step is shown. */
int gw_wizard_propose_uvm(gw_wizard *w);
/* UVM is on because the wizard proposed it (not decided yet). */
int gw_wizard_uvm_proposed(const gw_wizard *w);
/* With no GPU being added (only the VM's own devices), the outputs that
 * cannot be made from the plan (BOSH, Ops Manager and tile describe GPUs
 * to add) are turned off, so the review is not blocked by them.  Returns
 * 1 when it changed the formats.  Called when the options step is
 * shown. */
int gw_wizard_fit_formats(gw_wizard *w);

/* ---- the welcome screen ----------------------------------------------- */

/* The name of the sample host in use (--sample-host NAME or picked on the
 * welcome screen: the one the writes go to), or NULL. */
const char *gw_wizard_sample_name(const gw_wizard *w);
/* Would using sample name leave the answers file's host?  1 when the
 * wizard was started from an answers file whose [host] is a sample, it
 * still stands on that sample, and name is another one: what the file
 * chose there (its VM, GPUs, host changes) would be dropped, so the
 * screen asks first. */
int gw_wizard_sample_leaves_answers(const gw_wizard *w, const char *name);
/* The scratch directories of samples left earlier in this session (a
 * sample picked after another: gw_wizard_use_sample keeps the old one,
 * which holds what was written there), oldest first; *n of them.  With
 * gw_wizard_scratch, what the exit names: every one made, one rule. */
const char *const *gw_wizard_scratch_left(const gw_wizard *w, size_t *n);
/* What mode m is for, where its name alone could mislead (translated),
 * or NULL: one line of at most 72 cells shown under the mode, or
 * (long_form) the sentence shown when the mode has the cursor. */
const char *gw_wizard_mode_note(gw_mode m, int long_form);

/* ---- findings in the wizard's words (wizard_next.c) ------------------- */

/* The fix of f as the wizard says it: f->fix_ui (its steps, fields and
 * keys: tick "Unified memory (UVM) on every vGPU", fill "Host PCI
 * addresses") where the plan set one, else f->fix (which may name
 * command-line flags); NULL when f has no fix or f is NULL.  The screens
 * draw a finding's fix with this; the command line prints f->fix. */
const char *gw_wizard_finding_fix(const gw_finding *f);
/* gw_wizard_next_commands begins with one step per WARN/FAIL finding of
 * the plan that the write leaves open (wizard_next.c, a table from the
 * finding's id to its action), before the host's steps: the missing
 * device block first (the VM step's "Host PCI addresses" and "Host system
 * id", the host's detected GPUs, or the vSphere Client's Add new device >
 * PCI Device), the hardware upgrade with vim-cmd vmsvc/upgrade and the
 * open VM's real Vmid (else <vmid> and the getallvms hint; never down),
 * EFI (reinstall or convert: never switched), the reservation, the MMIO
 * size, the power-cycle after unified memory; a finding the write
 * resolves (nested-virt, memory-mismatch) has none, one the table does
 * not know gets its message and gw_wizard_finding_fix. */


/* ---- the review's summary and snippets (wizard_summary.c) ------------- */

/* The review step's summary of the choices, one translated line each, in
 * this order, the labels padded to the widest in cells: the host (how it
 * is reached and its name: "ESXi host esxi-l40s (sample)", "offline (no
 * host)"), the GPUs ("1 x l40s", then those already in the VM), the VM
 * (its hardware version, then the host's VM name or the .vmx path; or
 * "none: snippets only"), the MMIO size (and whether it is the
 * recommendation or the operator's), the outputs (the formats' names and
 * the NCCL script, in the output directory, after "the .vmx is patched"
 * when one is open).  Lines may be longer than the screen: the screen
 * wraps them under the text after the label.  Never NULL: 5 lines, NULL-terminated,
 * malloc'ed (gw_strv_free). */
char **gw_wizard_summary(const gw_wizard *w);
/* The text the write step would write for format fmt (one GW_FMT_* bit),
 * rendered by gw_emit from the current plan; nothing is written.  NULL
 * and e when there is no plan or the emitter refuses (malloc'ed). */
char *gw_wizard_snippet(const gw_wizard *w, int fmt, gw_err *e);
/* What the write step would do, in its order, as --dry-run prints it:
 * the one description the write runs (gw_session_write_prepare: the
 * host changes, the .vmx with the lines it sets and removes, the files)
 * rendered by its one printer (gw_write_desc_render); nothing is written
 * or changed.  NULL and e when there is no plan or the write would be
 * refused (malloc'ed). */
char *gw_wizard_write_preview(gw_wizard *w, gw_err *e);

/* Two more public headers of the wizard include this one: the doctor,
 * the welcome screen's detour that starts from a failure (wizard_doctor.h,
 * wizard_doctor.c), and the host changes queued for the write
 * (wizard_changes.h, wizard_queue.c). */

#endif
