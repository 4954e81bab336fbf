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
#include "plan.h"
#include "vmx.h"

typedef enum {
	GW_STEP_WELCOME,   /* language and what the operator is doing */
	GW_STEP_HOST,      /* host checks / BIOS checklist */
	GW_STEP_GPU,       /* GPU selection */
	GW_STEP_VM,        /* the .vmx (or none: snippets only) */
	GW_STEP_MMIO,      /* the calculation, editable */
	GW_STEP_OPTIONS,   /* UVM, P2P, reservation */
	GW_STEP_REVIEW,    /* every change with reason and source; outputs */
	GW_STEP_WRITE,     /* write and result, next commands */
	GW_NSTEPS
} gw_step;

typedef enum {
	GW_MODE_OFFLINE,   /* plan offline: snippets and/or a local .vmx */
	GW_MODE_LINUX,     /* configure this Linux host (issue: discovery) */
	GW_MODE_ESXI_SSH,  /* an ESXi host over SSH (issue: discovery) */
	GW_MODE_VSPHERE,   /* vCenter/ESXi through the API (issue: vSphere) */
	GW_NMODES
} gw_mode;

/* Translated texts (call after the locale is set). */
const char *gw_step_title(gw_step s);     /* short: fits 18 cells */
const char *gw_step_purpose(gw_step s);   /* one line */
const char *gw_mode_name(gw_mode m);
/* Is the mode usable in this build?  If not, *why gets a translated
 * sentence saying plainly that it is not available yet. */
int gw_mode_available(gw_mode m, const char **why);

/* GPU classes for the selection filter, derived from the table name. */
typedef enum { GW_CLASS_ANY, GW_CLASS_DATACENTER, GW_CLASS_WORKSTATION,
               GW_CLASS_GEFORCE, GW_NCLASSES } gw_gpu_class;
gw_gpu_class gw_gpu_class_of(const gw_gpu *g);
const char *gw_gpu_class_name(gw_gpu_class c);   /* translated */

/* Host checklist items (offline: confirmed by the operator). */
enum { GW_HOST_IOMMU, GW_HOST_ABOVE4G, GW_HOST_SRIOV, GW_NHOST };
const char *gw_host_item_title(int item);  /* translated */
const char *gw_host_item_help(int item);   /* translated: where in the BIOS */

typedef struct gw_wizard {
	const gw_table *table;  /* borrowed */
	gw_answers_file af;     /* answers, vmx path, out dir, formats, force */
	gw_mode mode;
	gw_step step;
	int visited[GW_NSTEPS];
	int host_ok[GW_NHOST];  /* operator confirmed the BIOS item */
	gw_vmx *vmx;            /* loaded from af.vmx_path; NULL when none */
	char *vmx_error;        /* why af.vmx_path could not be used, or NULL */
	gw_plan plan;
	int have_plan;
	char plan_error[1024];  /* why there is no plan ("" when have_plan) */
	int dirty;              /* changed since loaded/saved and not written */
	int written;            /* the write step succeeded */
	gw_apply_result result; /* what the write step wrote */
	char write_error[1024];
} gw_wizard;

/* Start empty, or pre-filled from an answers file (every screen then has
 * its value; Enter on each accepts it).  answers_path NULL = empty.  The
 * default output directory is "gpuwiz-out" and the default formats all four
 * when the file does not say. */
int gw_wizard_init(gw_wizard *w, const gw_table *t, const char *answers_path,
                   gw_err *e);
void gw_wizard_free(gw_wizard *w);

/* Rebuild the plan from the answers (+ the .vmx).  Returns 0 when a plan
 * exists; else plan_error says why (no GPU yet, below the rule...). */
int gw_wizard_replan(gw_wizard *w);

/* May the operator leave step s forwards?  0 = yes; else -1 with a
 * translated reason in why (e.g. "choose at least one GPU"). */
int gw_wizard_check_step(const gw_wizard *w, gw_step s, char *why, size_t n);
/* Move: next validates the current step first; back never fails at the
 * first step (returns -1 and stays). */
int gw_wizard_next(gw_wizard *w, char *why, size_t n);
int gw_wizard_back(gw_wizard *w);
/* Jump to a step already visited (mouse click on the step list). */
int gw_wizard_goto(gw_wizard *w, gw_step s);

/* GPU step.  Search the table: query matched case-insensitively against
 * short id, name and PCI id ("" = all), filtered by vendor id (0 = any)
 * and class.  Fills out (up to max), returns the number of matches. */
size_t gw_wizard_search(const gw_wizard *w, const char *query, unsigned vendor,
                        gw_gpu_class cls, const gw_gpu **out, size_t max);
/* Add a GPU (profile NULL = passthrough) with count; merges with an
 * identical entry.  Errors: unknown VRAM (asks for a size), count range,
 * a profile the GPU does not have. */
int gw_wizard_add_gpu(gw_wizard *w, const gw_gpu *g, const char *profile,
                      int count, gw_err *e);
int gw_wizard_add_vram(gw_wizard *w, int vram_gb, int count, gw_err *e);
int gw_wizard_set_count(gw_wizard *w, size_t idx, int count, gw_err *e);
int gw_wizard_remove_gpu(gw_wizard *w, size_t idx);
/* vGPU profiles offered for g: "<prefix>-<fb><series>" for the framebuffer
 * sizes NVIDIA documents for the board (C series, at least the full-board
 * profile).  Returns a malloc'ed NULL-terminated list (may be empty). */
char **gw_wizard_profiles(const gw_gpu *g);
void gw_strv_free(char **v);

/* VM step: open a .vmx (NULL or "" = none, snippets only).  On failure the
 * previous choice stays and e says why. */
int gw_wizard_open_vmx(gw_wizard *w, const char *path, gw_err *e);
/* Path completion for the entry field: the entries of prefix's directory
 * that start with its last component (directories end in '/', only .vmx
 * files and directories listed), sorted; NULL-terminated, malloc'ed. */
char **gw_path_complete(const char *prefix);
/* The longest common prefix of a completion list (malloc'ed). */
char *gw_common_prefix(char *const *v);

/* MMIO step: the operator's size.  0 = back to the recommendation.  Below
 * the rule needs confirmed = 1 (else -1 and e says what to confirm). */
int gw_wizard_set_mmio(gw_wizard *w, uint64_t gb, int confirmed, gw_err *e);

/* Options step. */
void gw_wizard_set_uvm(gw_wizard *w, int on);
void gw_wizard_set_p2p(gw_wizard *w, int on);
void gw_wizard_set_reserve(gw_wizard *w, int on);
void gw_wizard_set_formats(gw_wizard *w, int mask);
int gw_wizard_set_outdir(gw_wizard *w, const char *dir, gw_err *e);

/* Review step: save the answers (for a class to replay). */
int gw_wizard_save_answers(gw_wizard *w, const char *path, gw_err *e);

/* Write step: gw_apply with the current plan; sets written/result or
 * write_error.  Returns 0 on success. */
int gw_wizard_write(gw_wizard *w);

/* The commands to run next (translated lines): power on, vim-cmd
 * vmsvc/reload, the guest checks (nvidia-smi -q fields; the NCCL
 * all-reduce test for several GPUs).  NULL-terminated, malloc'ed. */
char **gw_wizard_next_commands(const gw_wizard *w);

#endif
