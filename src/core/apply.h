/* SPDX-License-Identifier: GPL-3.0-or-later */
/* apply.h: write a plan out: every requested snippet format into the output
 * directory and the patch into the .vmx, all or nothing.  Shared by
 * `gpuwiz apply --answers` and the wizard's write step.
 *
 * Order: render every format in memory; check the .vmx lock (unless force);
 * create the output directory (mkdir -p, remembering what was created);
 * write each format to a temporary beside its final name; save the .vmx
 * (backup, atomic replace); rename the temporaries into place.  Any failure
 * removes the temporaries and the directories this call created, and leaves
 * the .vmx as it was.
 */
#ifndef GW_APPLY_H
#define GW_APPLY_H

#include "gw.h"
#include "answers.h"
#include "plan.h"
#include "vmx.h"

/* Written beside the snippets when the VM has two GPUs or more: the NCCL
 * all-reduce check to run in the guest (torchrun --nproc_per_node=N). */
#define GW_NCCL_CHECK_FILE "nccl_check.py"

typedef struct gw_apply_result {
	char **written;     /* output files written, in format order */
	size_t nwritten;
	char *vmx_path;     /* the .vmx patched, NULL when none */
	char *backup;       /* its backup, NULL when none */
	int vmx_unchanged;  /* 1: the .vmx already had every setting, not rewritten */
} gw_apply_result;

void gw_apply_result_free(gw_apply_result *r);

/* The write, in two halves, so that a write that changes a host can do it
 * between them (src/session: the snippets staged, the host changed, then
 * the files put in place).  _begin does steps 1-3 (render, the .vmx
 * patched on a copy, its lock, the directory, the temporaries; v itself
 * is not changed); _commit steps 4-6 (save the .vmx, rename the
 * temporaries, apply the plan to v), undoing itself on failure; _end
 * removes what an uncommitted stage made (the temporaries, the
 * directories) and frees it (NULL: no-op).  The inputs must outlive the
 * stage.
 * v is the document loaded from af->vmx_path (NULL when none); it is
 * modified (the plan applied) when _commit succeeds and left as it was
 * on failure.  applied (may be NULL): v with p applied already, a copy the
 * caller made (borrowed until the stage ends): the stage saves it as it
 * is, without applying p again, and v is then only read, never changed.  _commit always initialises *r (free it with
 * gw_apply_result_free either way; it is empty on failure).  The lock is
 * checked only when the .vmx would change: a file that already has every
 * setting is neither checked nor rewritten (vmx_path set, backup NULL,
 * vmx_unchanged = 1).  A failure after the .vmx was saved (a rename) puts
 * the .vmx back from its backup and removes the files already put in
 * place.  Refused by _begin: formats without af->out_dir, v without
 * af->vmx_path, no format and no v ("nothing to write").  The plan's FAIL
 * findings are the caller's business (gw_session_may_write). */
typedef struct gw_apply_stage gw_apply_stage;
/* texts: the formats p was rendered to already (indexed as the
 * registry's rows, gw_formats; NULL entries, or texts NULL, are rendered
 * here): a caller that showed or checked the renders writes those,
 * without rendering them again. */
int gw_apply_stage_begin(const gw_answers_file *af, const gw_plan *p,
                         const char *const *texts, gw_vmx *v,
                         const gw_vmx *applied, int force,
                         gw_apply_stage **out, gw_err *e);
/* The .vmx is saved only while its file still holds these len bytes
 * (borrowed until the commit): the file as the caller last knew it.
 * Without this call, the document v given to _begin, serialized. */
void gw_apply_stage_expect(gw_apply_stage *st, const char *bytes,
                           size_t len);
int gw_apply_stage_commit(gw_apply_stage *st, gw_apply_result *r, gw_err *e);
void gw_apply_stage_end(gw_apply_stage *st);

/* ---- a write described before it runs --------------------------------------
 *
 * What one write does, in the order it does it: the host changes (each
 * with the exact command), the .vmx (local, or on a host with how it is
 * sent) with the lines it sets and removes, and the snippet files.  The
 * session builds one (session.h: gw_session_write_prepare) and either runs
 * it or, for --dry-run, hands it to the report layer to print; the same
 * description is what the JSON summary of apply says. */
typedef enum {
	GW_WRITE_BACKUP,    /* the VM's .vmx on a host copied to a backup
	                     * beside it before the host changes touch the
	                     * VM: what = its path there */
	GW_WRITE_HOST,      /* a host change: what, command */
	GW_WRITE_VMX,       /* a local .vmx: what = its path, lines */
	GW_WRITE_VMX_HOST,  /* the VM's .vmx on a host: what = as shown
	                     * (HOST:PATH, SERVER:VM), command = how it is
	                     * sent (vim-cmd vmsvc/reload N after the save,
	                     * or ReconfigVM_Task), lines */
	GW_WRITE_FILE       /* a snippet file: what = its path */
} gw_write_kind;

typedef struct gw_write_step {
	gw_write_kind kind;
	char *what;
	char *command;      /* NULL for a local file */
	char **lines;       /* "+ key = \"value\"" set, "- key = \"value\""
	                     * removed (a changed key: its - then its +) */
	size_t nlines;
} gw_write_step;

typedef struct gw_write_desc {
	gw_write_step *v;
	size_t n;
} gw_write_desc;

/* Append a step (strings copied; command may be NULL); its index. */
size_t gw_write_desc_add(gw_write_desc *d, gw_write_kind kind,
                         const char *what, const char *command);
/* The lines of step k: what changes from before to after (keys in after's
 * order, then the removed ones). */
void gw_write_desc_vmx_lines(gw_write_desc *d, size_t k,
                             const gw_vmx *before, const gw_vmx *after);
void gw_write_desc_free(gw_write_desc *d);

/* Does a write of plan p put files into af->out_dir: a format chosen, or
 * only the NCCL check of a VM of two GPUs or more (a .vmx patched with
 * no snippet still gets it, when there is an output directory). */
int gw_apply_writes_files(const gw_answers_file *af, const gw_plan *p);

/* What a write puts into af->out_dir for plan p, in order: each chosen
 * format's file, then GW_NCCL_CHECK_FILE when the plan counts two GPUs or
 * more, as "<out_dir>/<name>" (malloc'ed, *n entries; NULL and 0 when
 * gw_apply_writes_files is 0; freed with gw_strs_free).  The review and
 * write steps list these. */
char **gw_apply_outputs(const gw_answers_file *af, const gw_plan *p,
                        size_t *n);

#endif
