/* SPDX-License-Identifier: GPL-3.0-or-later */
/* apply.c: write a plan out, all or nothing (see apply.h for the order).
 *
 * Output files are first written to temporaries beside their final names,
 * then the .vmx is saved, then the temporaries are renamed: a failure at
 * any step leaves neither a half-written directory nor a changed .vmx.
 * The plan is applied to a copy of the .vmx document, so the caller's
 * document is only changed once everything has been written; a caller
 * that applied it to a copy already hands that in, and its document is
 * not changed.
 */
#include "apply.h"
#include "emit.h"
#include "safefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the formats' files, in the registry's order (formats.def) */
#define NFORMATS GW_NFORMATS

/* The all-reduce check from the NCCL-on-vGPU story (doc/design.md,
 * sections 15.1 and 15.9),
 * written beside the snippets when the VM has two GPUs or more, so the
 * operator can run the verification gpuwiz tells them to run. */
static const char nccl_check_py[] =
	"# nccl_check.py: a minimal NCCL all-reduce across the VM's GPUs\n"
	"# (written by gpuwiz).  Run it in the guest:\n"
	"#     torchrun --nproc_per_node=N nccl_check.py\n"
	"# Each rank prints \"ok N.0\" when NCCL works.  On a vGPU without\n"
	"# unified memory (pciPassthruN.cfg.enable_uvm), NCCL 2.27 and later fail\n"
	"# with Cuda failure 'operation not supported' in ncclCommInitRank.\n"
	"# For details run it again with NCCL_DEBUG=INFO.\n"
	"import os\n"
	"import torch\n"
	"import torch.distributed as dist\n"
	"\n"
	"torch.cuda.set_device(int(os.environ[\"LOCAL_RANK\"]))\n"
	"dist.init_process_group(\"nccl\")\n"
	"t = torch.ones(1024, device=\"cuda\")\n"
	"dist.all_reduce(t)\n"
	"torch.cuda.synchronize()\n"
	"print(\"rank\", dist.get_rank(), \"ok\", t[0].item())\n"
	"dist.destroy_process_group()\n";

/* GPUs the VM will have: the plan's, already attached ones included. */
static int
plan_gpu_count(const gw_plan *p)
{
	size_t i;
	int n = 0;

	for (i = 0; i < p->ngpus; i++)
		n += p->gpus[i].count;
	return n;
}

/* The NCCL all-reduce check goes with the snippets of a VM of 2+ GPUs. */
static int
wants_nccl(const gw_plan *p)
{
	return plan_gpu_count(p) >= 2;
}

int
gw_apply_writes_files(const gw_answers_file *af, const gw_plan *p)
{
	if (af->out_dir == NULL || af->out_dir[0] == '\0')
		return 0;
	return af->formats != 0 || (p != NULL && wants_nccl(p));
}

char **
gw_apply_outputs(const gw_answers_file *af, const gw_plan *p, size_t *n)
{
	char **v;
	size_t i;

	*n = 0;
	if (!gw_apply_writes_files(af, p))
		return NULL;
	v = gw_xcalloc(NFORMATS + 1, sizeof *v);
	for (i = 0; i < NFORMATS; i++)
		if (af->formats & gw_formats[i].bit)
			v[(*n)++] = gw_xasprintf("%s/%s", af->out_dir,
			                         gw_formats[i].filename);
	if (wants_nccl(p))
		v[(*n)++] = gw_xasprintf("%s/%s", af->out_dir, GW_NCCL_CHECK_FILE);
	return v;
}

typedef struct pending {
	char *tmp;     /* the temporary, NULL once renamed */
	int fd;        /* open (its lock held) until renamed or removed */
	char *final;
	int published; /* renamed into place by this call */
} pending;

/* mkdir -p dir; every directory this call creates is added to *created
 * (parents first) so that a failure can remove them again. */
static int
mkdirs(const char *dir, char ***created, size_t *ncreated, gw_err *e)
{
	char *copy = gw_xstrdup(dir), *p;
	struct stat st;

	for (p = copy + 1;; p++) {
		if (*p == '/' || *p == '\0') {
			char save = *p;

			*p = '\0';
			if (stat(copy, &st) != 0) {
				if (mkdir(copy, 0755) != 0) {
					gw_err_set(e, _("%s: cannot create directory: %s"),
					           copy, strerror(errno));
					free(copy);
					return -1;
				}
				*created = gw_xrealloc(*created, (*ncreated + 1) * sizeof **created);
				(*created)[(*ncreated)++] = gw_xstrdup(copy);
			} else if (!S_ISDIR(st.st_mode)) {
				gw_err_set(e, _("%s: exists and is not a directory"), copy);
				free(copy);
				return -1;
			}
			*p = save;
			if (save == '\0')
				break;
		}
	}
	free(copy);
	return 0;
}

static int
write_temp(const char *final, const char *data, pending *pd, gw_err *e)
{
	char *tmp;
	int fd = gw_tmp_open(final, &tmp, e);

	if (fd < 0)
		return -1;
	if (gw_fd_fill(fd, data, strlen(data), 0644) != 0) {
		gw_err_set(e, _("%s: cannot write: %s"), final, strerror(errno));
		unlink(tmp);
		close(fd);
		free(tmp);
		return -1;
	}
	pd->tmp = tmp;
	pd->fd = fd;
	pd->final = gw_xstrdup(final);
	pd->published = 0;
	return 0;
}

/* Put the saved .vmx back from its backup (a rename failed after the save:
 * the .vmx must end as it was). */
static void
restore_backup(const char *path, const char *backup)
{
	char *data = NULL;
	size_t len = 0;
	gw_err le;

	if (backup == NULL)
		return;
	if (gw_read_file(backup, 64u << 20, &data, &len, &le) == 0 &&
	    gw_write_file_atomic(path, data, len, &le) == 0)
		unlink(backup);
	free(data);
}

/* Everything one write (a stage) holds, for the cleanup. */
typedef struct job {
	const gw_answers_file *af;
	const gw_plan *p;
	const char *const *given;  /* renders of p made by the caller */
	gw_vmx *v;
	int force;
	char *texts[NFORMATS];
	pending pend[NFORMATS + 1];
	size_t npend;
	char **created;           /* directories this call made */
	size_t ncreated;
	char *backup, *before;
	size_t blen;
	gw_vmx *copy;             /* v with the plan applied, made here */
	const gw_vmx *applied;    /* the same, the caller's: or NULL */
	const char *expect;       /* the file as the caller knows it, or NULL:
	                           * before */
	size_t elen;
	int changed, saved;
} job;

static int
check_inputs(const gw_answers_file *af, const gw_plan *p, const gw_vmx *v,
             gw_err *e)
{
	if (af->formats && (af->out_dir == NULL || af->out_dir[0] == '\0')) {
		gw_err_set(e, _("output directory: missing (expected the directory to write the snippets into)"));
		return -1;
	}
	if (v && (af->vmx_path == NULL || af->vmx_path[0] == '\0')) {
		gw_err_set(e, _(".vmx: a document was given without its path; nothing written"));
		return -1;
	}
	if (!gw_apply_writes_files(af, p) && v == NULL) {
		gw_err_set(e, _("nothing to write: no output format chosen and no .vmx to patch"));
		return -1;
	}
	return 0;
}

/* 1. render everything in memory (what the caller rendered already is
 * taken as it is) */
static int
render(job *j, gw_err *e)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++) {
		if (!(j->af->formats & gw_formats[i].bit))
			continue;
		if (j->given && j->given[i]) {
			j->texts[i] = gw_xstrdup(j->given[i]);
			continue;
		}
		if (gw_emit(gw_formats[i].bit, j->p, &j->texts[i], e) != 0)
			return -1;
	}
	return 0;
}

/* The document the .vmx is saved as: v with the plan applied. */
static const gw_vmx *
patched(const job *j)
{
	return j->applied ? j->applied : j->copy;
}

/* 2. the .vmx, on a copy of the document (or the caller's copy) */
static int
patch_copy(job *j, gw_err *e)
{
	char *lck = NULL;

	if (j->v == NULL)
		return 0;
	j->before = gw_vmx_serialize(j->v, &j->blen);
	if (j->applied == NULL) {
		j->copy = gw_vmx_dup(j->v);
		if (gw_plan_apply_vmx(j->p, j->copy, e) != 0)
			return -1;
	}
	j->changed = !gw_vmx_same(j->v, patched(j));
	if (j->changed && !j->force &&
	    gw_vmx_is_locked(j->af->vmx_path, &lck)) {
		gw_err_set(e, _("%s: the VM looks powered on (%s exists); power it off first, nothing written"),
		           j->af->vmx_path, lck);
		free(lck);
		return -1;
	}
	return 0;
}

static int
temp_file(job *j, const char *name, const char *data, gw_err *e)
{
	char *final = gw_xasprintf("%s/%s", j->af->out_dir, name);
	int rc = write_temp(final, data, &j->pend[j->npend], e);

	free(final);
	if (rc != 0)
		return -1;
	j->npend++;
	return 0;
}

/* 3. temporaries in the output directory */
static int
write_temps(job *j, gw_err *e)
{
	size_t i;

	if (!gw_apply_writes_files(j->af, j->p))
		return 0;
	if (mkdirs(j->af->out_dir, &j->created, &j->ncreated, e) != 0)
		return -1;
	for (i = 0; i < NFORMATS; i++)
		if ((j->af->formats & gw_formats[i].bit) &&
		    temp_file(j, gw_formats[i].filename, j->texts[i],
		              e) != 0)
			return -1;
	if (wants_nccl(j->p) &&
	    temp_file(j, GW_NCCL_CHECK_FILE, nccl_check_py, e) != 0)
		return -1;
	return 0;
}

/* 5. publish the snippets */
static int
publish(job *j, gw_err *e)
{
	size_t i;

	for (i = 0; i < j->npend; i++) {
		pending *pd = &j->pend[i];

		if (rename(pd->tmp, pd->final) != 0) {
			gw_err_set(e, _("%s: cannot write: %s"), pd->final,
			           strerror(errno));
			return -1;
		}
		free(pd->tmp);
		pd->tmp = NULL;
		(void)close(pd->fd);   /* fsync'ed: close reports nothing new */
		pd->published = 1;
	}
	if (j->npend > 0)
		gw_fsync_dir_of(j->pend[0].final);
	return 0;
}

static void
fill_result(job *j, gw_apply_result *r)
{
	size_t i;

	if (j->npend > 0) {
		r->written = gw_xcalloc(j->npend, sizeof *r->written);
		for (i = 0; i < j->npend; i++) {
			r->written[i] = j->pend[i].final;
			j->pend[i].final = NULL;
		}
		r->nwritten = j->npend;
	}
	if (j->v) {
		r->vmx_path = gw_xstrdup(j->af->vmx_path);
		r->backup = j->backup;
		j->backup = NULL;
		r->vmx_unchanged = !j->changed;
	}
}

/* Remove what a failed call made; free what the job holds. */
static void
job_end(job *j, int ok)
{
	size_t i;

	for (i = 0; i < j->npend; i++) {
		if (j->pend[i].tmp) {
			unlink(j->pend[i].tmp);
			close(j->pend[i].fd);
			free(j->pend[i].tmp);
		}
		if (!ok && j->pend[i].published)
			unlink(j->pend[i].final);
		free(j->pend[i].final);
	}
	if (!ok && j->saved)
		restore_backup(j->af->vmx_path, j->backup);
	for (i = j->ncreated; i > 0; i--)
		if (!ok)
			rmdir(j->created[i - 1]);
	for (i = 0; i < j->ncreated; i++)
		free(j->created[i]);
	free(j->created);
	for (i = 0; i < NFORMATS; i++)
		free(j->texts[i]);
	free(j->before);
	free(j->backup);
	gw_vmx_free(j->copy);
}

/* 1-3: render, the .vmx on a copy, the temporaries */
static int
stage_job(job *j, gw_err *e)
{
	return render(j, e) != 0 || patch_copy(j, e) != 0 ||
	       write_temps(j, e) != 0 ? -1 : 0;
}

/* 4-6 */
static int
commit_job(job *j, gw_apply_result *r, gw_err *e)
{
	/* 4. the .vmx (backup, atomic replace) */
	if (j->v && j->changed) {
		if (gw_vmx_save(patched(j), j->af->vmx_path,
		                j->expect ? j->expect : j->before,
		                j->expect ? j->elen : j->blen, j->force,
		                &j->backup, e) != 0)
			return -1;
		j->saved = 1;
	}
	if (publish(j, e) != 0)
		return -1;
	/* 6. the caller's document gets what the file now has (unless the
	 * caller has it already); this cannot fail, it has just worked on
	 * the copy */
	if (j->v && j->changed && j->applied == NULL &&
	    gw_plan_apply_vmx(j->p, j->v, e) != 0)
		return -1;
	fill_result(j, r);
	return 0;
}

struct gw_apply_stage {
	job j;
	int committed;
};

int
gw_apply_stage_begin(const gw_answers_file *af, const gw_plan *p,
                     const char *const *texts, gw_vmx *v,
                     const gw_vmx *applied, int force,
                     gw_apply_stage **out, gw_err *e)
{
	gw_apply_stage *st;

	*out = NULL;
	if (check_inputs(af, p, v, e) != 0)
		return -1;
	st = gw_xcalloc(1, sizeof *st);
	st->j.af = af;
	st->j.p = p;
	st->j.given = texts;
	st->j.v = v;
	st->j.applied = v != NULL ? applied : NULL;
	st->j.force = force;
	if (stage_job(&st->j, e) != 0) {
		job_end(&st->j, 0);
		free(st);
		return -1;
	}
	*out = st;
	return 0;
}

void
gw_apply_stage_expect(gw_apply_stage *st, const char *bytes, size_t len)
{
	st->j.expect = bytes;
	st->j.elen = len;
}

int
gw_apply_stage_commit(gw_apply_stage *st, gw_apply_result *r, gw_err *e)
{
	int ok;

	memset(r, 0, sizeof *r);
	ok = commit_job(&st->j, r, e) == 0;
	/* a failed commit is undone here: the stage is spent either way */
	job_end(&st->j, ok);
	st->committed = 1;
	return ok ? 0 : -1;
}

void
gw_apply_stage_end(gw_apply_stage *st)
{
	if (st == NULL)
		return;
	if (!st->committed)
		job_end(&st->j, 0);
	free(st);
}

void
gw_apply_result_free(gw_apply_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nwritten; i++)
		free(r->written[i]);
	free(r->written);
	free(r->vmx_path);
	free(r->backup);
	memset(r, 0, sizeof *r);
}
