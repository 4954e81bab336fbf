/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_gpu.h: what the two halves of the GPU step share (step_gpu.c: keys,
 * mouse and the changes; step_gpu_draw.c: drawing). */
#ifndef GW_UI_STEP_GPU_H
#define GW_UI_STEP_GPU_H

#include "draw.h"
#include "field.h"
#include "screen.h"

enum { F_DETECTED, F_SEARCH, F_VENDOR, F_CLASS, F_RESULTS, F_SELECTED, F_N };

typedef struct gpu_st {
	ui_field search;
	int focus;
	unsigned vendors[16];
	int nvendors;               /* vendors[0] = 0: any */
	int vendor_idx;
	gw_gpu_class cls;
	const gw_gpu **results;
	size_t nresults;
	ui_list rl, sl, dl;         /* results, selection, detected */
	int off;                    /* lines the detected list takes on top */
	int h_det;                  /* its rows */
	/* where things were drawn, for the mouse */
	int y_results, h_results, y_sel, h_sel, x_vendor, x_class;
} gpu_st;

static inline gpu_st *
gpu_state(ui_ctx *u)
{
	return u->state[GW_STEP_GPU];
}

/* GPUs found on the host are listed above the table. */
int gpu_detect_mode(const gw_wizard *w);
/* GPUs already in the .vmx (from the plan) beside the wanted ones (not
 * counted towards them), shown after the wanted ones. */
size_t gpu_n_existing(const gw_wizard *w);
const gw_plan_gpu *gpu_existing_at(const gw_wizard *w, size_t k);
/* The vendor filter's name of v. */
const char *gpu_vendor_name(unsigned v);

void gpu_draw(ui_ctx *u, ui_rect r);

/* The changes (step_gpu_edit.c): add the highlighted GPU of the table or
 * of the detected ones; cycle a selected GPU through passthrough and its
 * vGPU profiles; change its count by delta. */
void gpu_add_highlighted(ui_ctx *u);
/* "Add a GPU by its memory size": the row after the table's (the only
 * one when the search finds nothing) asks for the VRAM and, optionally,
 * the BAR1 size (gw_wizard_add_sized). */
void gpu_add_by_size(ui_ctx *u);
/* The table's rows: the GPUs found, then that row. */
static inline int
gpu_by_size_row(const gpu_st *st, int idx)
{
	return idx == (int)st->nresults;
}
void gpu_add_detected(ui_ctx *u);
/* Offline, F5: ask for the path of a saved lspci -nnvv or esxcli
 * hardware pci list output and list its GPUs above the table
 * (gw_wizard_read_capture). */
void gpu_read_capture(ui_ctx *u);
void gpu_cycle_profile(ui_ctx *u, size_t idx);
void gpu_change_count(ui_ctx *u, size_t idx, int delta);

/* Enter adds a GPU by its size: on that row, or in a search that found
 * nothing (the key line and the empty selection's hint say so). */
static inline int
gpu_enter_adds(const gpu_st *st)
{
	return (st->focus == F_SEARCH && st->nresults == 0) ||
	       (st->focus == F_RESULTS && gpu_by_size_row(st, st->rl.cur));
}

#endif
