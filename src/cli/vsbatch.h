/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsbatch.h: the tasks of gpuwiz vsphere apply as the command line shows
 * them (cmd_vsphere_batch.c): each VM's end on stdout (or its error line
 * on stderr) as it comes, and on a terminal, not with --json, a line of
 * counts on stderr while the last ones run (doc/design.md 4.5).  With
 * --json each VM's end goes into its object of the summary instead. */
#ifndef GW_VSBATCH_H
#define GW_VSBATCH_H

#include "vsphere.h"

#include <jansson.h>
#include <limits.h>

/* Default tasks in flight: no bound, every task started before the
 * first wait (doc/design.md 4.5). */
#define VS_PARALLEL UINT_MAX

typedef struct vs_batch {
	const char *cmd;
	int bar;                   /* may draw the counts line */
	int waiting;               /* the last tasks: draw it */
	int drawn;
	json_t *vms;               /* --json: the VMs' objects ({"vm", ...}),
	                            * each given its "result" and "error" as
	                            * its task ends; NULL for text */
	json_t *byname;            /* --json: VM name -> its object (the
	                            * first of the name), vs_batch_name */
} vs_batch;

/* vms: the JSON array of the VMs' objects, or NULL (borrowed). */
void vs_batch_init(vs_batch *b, const char *cmd, int bar, json_t *vms);

/* --json: name is the VM of object jvm (of vms), for its task's end; the
 * first object given a name keeps it. */
void vs_batch_name(vs_batch *b, const char *name, json_t *jvm);
void vs_batch_free(vs_batch *b);

/* A gw_vs_task_done_fn; ctx is the vs_batch. */
void vs_batch_done(void *ctx, const char *vm, const char *error,
                   unsigned done, unsigned failed, unsigned total);
/* gw_vs_tasks_wait with the counts line shown, then cleared. */
int vs_batch_wait(vs_batch *b, gw_vs *vs, gw_err *e);

#endif
