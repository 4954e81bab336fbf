/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_vm.h: the VM step's two faces share this: a local .vmx path
 * (step_vm.c) or, on a host that lists VMs (GW_CAN_VMS), the host's VMs
 * (step_vm_esxi.c; step_vm.c hands its calls over). */
#ifndef GW_UI_STEP_VM_H
#define GW_UI_STEP_VM_H

#include "draw.h"
#include "field.h"
#include "screen.h"
#include "textlist.h"

/* The state of the host's VM list. */
typedef struct ui_vm_list {
	ui_list vl;            /* row 0 = no VM, row i+1 = the host's VM i */
	int y_rows, h_rows;    /* where the rows were drawn */
} ui_vm_list;

/* The state of the local face (step_vm.c, step_vm_answers.c). */
enum { F_NONE, F_PATH, F_ESXI, F_MEM, F_BDF, F_SYSID, F_LIST };
#define NSMALL 4

typedef struct vm_st {
	ui_field path;
	ui_field small[NSMALL];   /* F_ESXI .. F_SYSID */
	int focus;
	int y_small[NSMALL];
	char **cands;             /* completions of the path */
	size_t ncands;
	ui_list cl;
	int y_list, h_list;
	ui_vm_list host;          /* the host's VMs (GW_CAN_VMS) */
	ui_textlist adv;          /* the open VM's advice (PgUp/PgDn) */
} vm_st;

static inline vm_st *
vst(ui_ctx *u)
{
	return u->state[GW_STEP_VM];
}

/* The [vm] answers below the path (step_vm_answers.c): a field's value as
 * the wizard has it (malloc'ed); hand field f, or all of them, to the
 * wizard (0 when they stand; else the message says why and the focus
 * goes there); draw them. */
char *vm_small_value(const gw_wizard *w, int f);
int vm_apply_one(ui_ctx *u, int f);
int vm_apply_small(ui_ctx *u);
void vm_draw_small(ui_ctx *u, ui_rect r);

void ui_vm_esxi_enter(ui_ctx *u, ui_vm_list *s);
void ui_vm_esxi_draw(ui_ctx *u, ui_vm_list *s, ui_rect r);
int ui_vm_esxi_key(ui_ctx *u, ui_vm_list *s, ui_key k);
int ui_vm_esxi_mouse(ui_ctx *u, ui_vm_list *s, ui_rect r, int y, int x);
size_t ui_vm_esxi_keys(ui_ctx *u, ui_vm_list *s, ui_keyhelp *out,
                       size_t max);
/* The open VM's facts and the plan's advice about it, from row y. */
void ui_vm_draw_facts(ui_ctx *u, ui_rect r, int y);
/* PgUp/PgDn on the advice when it has rows out of sight: 1 when the key
 * scrolled it.  The "PgDn More" key help when it does (0 or 1 added). */
int ui_vm_advice_key(ui_ctx *u, ui_key k);
size_t ui_vm_advice_keys(ui_ctx *u, ui_keyhelp *out, size_t max);

#endif
