/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_gpu_edit.c: what the keys of step 3 change: GPUs added from the
 * table (asking for a size the table does not know), by their memory
 * size, or from the host's list, a selected GPU's count and its
 * passthrough / vGPU profile. */
#include "step_gpu.h"
#include "mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table does not know g's size: ask for it, never guess. */
static void
add_vram(ui_ctx *u, const gw_gpu *g)
{
	char *label = gw_xasprintf(
		/* TRANSLATORS: asked when the table does not know a GPU's
		 * framebuffer; %s is the model.  Wrapped. */
		_("The table does not know the framebuffer size of %s. Enter it in GB, from the vendor's datasheet:"),
		g->name);
	char *val = NULL;
	unsigned long long gb;
	/* TRANSLATORS: title of the VRAM question; at most 30 cells. */
	int r = ui_input(u, _("Framebuffer size"), label, &val, 1);
	gw_err e;

	free(label);
	e.msg[0] = '\0';
	if (r == 1) {
		if (gw_parse_uint(val, 4096, &gb) != 0 || gb == 0)
			/* TRANSLATORS: %s is what was typed. */
			ui_msg(u, UI_MSG_ERROR, _("'%s' is not a size in GB (expected 1..4096)"),
			       val);
		else if (gw_wizard_add_vram(u->w, (int)gb, 1, &e) != 0)
			ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		else
			/* TRANSLATORS: %d is the size in GB. */
			ui_msg(u, UI_MSG_OK, _("Added a GPU of %d GB."), (int)gb);
	}
	free(val);
}

/* Two questions: the VRAM in GB, then the BAR1 size if known (empty: not
 * known); the wizard checks both (gw_wizard_add_sized) and the plan sizes
 * the window with them.  Esc on either adds nothing. */
void
gpu_add_by_size(ui_ctx *u)
{
	char *vram = NULL, *bar1 = NULL, bar1s[24];
	uint64_t gb, bytes = 0;
	gw_err e;
	/* TRANSLATORS: title of the two questions; at most 30 cells. */
	const char *title = _("Add a GPU by its memory size");

	e.msg[0] = '\0';
	if (ui_input(u, title,
	             /* TRANSLATORS: first question of "Add a GPU by its
	              * memory size".  Wrapped. */
	             _("For a GPU the table does not list. Its framebuffer (VRAM) in GB, from the vendor's datasheet:"),
	             &vram, 1) != 1)
		goto out;
	/* TRANSLATORS: names the field in its errors. */
	if (gw_parse_gb(vram, _("VRAM size"), GW_MMIO_MAX_GPU_GB, &gb, &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		goto out;
	}
	if (ui_input(u, title,
	             /* TRANSLATORS: second question; "BAR1 Memory Usage" is
	              * nvidia-smi's, Region 1 lspci's: keep them.  Wrapped. */
	             _("Its BAR1 size, if known (nvidia-smi -q: BAR1 Memory Usage, Total; lspci -vv: Region 1, size=), e.g. 256M or 16G. Empty: not known, the rule alone sizes the window:"),
	             &bar1, 0) != 1)
		goto out;
	if (gw_wizard_add_sized(u->w, vram, bar1, &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		goto out;
	}
	/* Enter goes on from here; the new entry is the last one */
	gpu_state(u)->focus = F_SELECTED;
	gpu_state(u)->sl.n = (int)gw_wizard_answers(u->w)->a.ngpus;
	gpu_state(u)->sl.cur = gpu_state(u)->sl.n - 1;
	if (gw_parse_bar_size(bar1, NULL, &bytes, NULL) == 0) {
		gw_fmt_bar_size(bytes, bar1s, sizeof bar1s);
		/* TRANSLATORS: after "Add a GPU by its memory size"; %d the
		 * VRAM in GB, %s its BAR1 ("16G"). */
		ui_msg(u, UI_MSG_OK, _("Added a GPU of %d GB with a BAR1 of %s: the MMIO step packs it into the window."),
		       (int)gb, bar1s);
	} else {
		/* TRANSLATORS: after "Add a GPU by its memory size", no BAR1. */
		ui_msg(u, UI_MSG_OK, _("Added a GPU of %d GB: the MMIO step sizes its window by the rule."),
		       (int)gb);
	}
out:
	free(vram);
	free(bar1);
}

void
gpu_add_highlighted(ui_ctx *u)
{
	gpu_st *st = gpu_state(u);
	const gw_gpu *g;
	gw_err e;

	if (st->rl.cur < 0 || st->rl.cur >= (int)st->nresults)
		return;
	g = st->results[st->rl.cur];
	e.msg[0] = '\0';
	if (g->vram_gb < 0) {
		add_vram(u, g);
		return;
	}
	if (gw_wizard_add_gpu(u->w, g, NULL, 1, &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		return;
	}
	/* TRANSLATORS: after Space on a GPU of the table; %s is its id. */
	ui_msg(u, UI_MSG_OK, _("Added %s (passthrough). Tab to the selection to change the count or pick a vGPU profile."),
	       g->id);
}

/* The GPU added shares its IOMMU group with devices of other cards. */
static void
say_foreign(ui_ctx *u, const gw_gpu_dev *d)
{
	gw_buf b;
	size_t i;

	gw_buf_init(&b);
	for (i = 0; i < d->nforeign; i++)
		gw_buf_printf(&b, "%s%s", i ? ", " : "", d->foreign[i]);
	/* TRANSLATORS: after Space on a detected GPU whose IOMMU group holds
	 * other devices; %s: its address, its group, the other devices'
	 * addresses. */
	ui_msg(u, UI_MSG_INFO, _("Added the GPU at %s; its IOMMU group %s also holds %s, which is not part of the card: pass it through too, or move the card to a slot with its own group."),
	       d->bdf, d->group ? d->group : "?", b.data ? b.data : "");
	gw_buf_free(&b);
}

void
gpu_add_detected(ui_ctx *u)
{
	gw_wizard *w = u->w;
	int cur = gpu_state(u)->dl.cur;
	const gw_gpu_dev *det, *d;
	size_t n = gw_wizard_detected(w, &det);
	gw_err e;

	if (cur < 0 || cur >= (int)n)
		return;
	e.msg[0] = '\0';
	if (gw_wizard_add_detected(w, (size_t)cur, &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		return;
	}
	d = &det[cur];
	if (d->nforeign > 0) {
		say_foreign(u, d);
		return;
	}
	if (gw_wizard_can(w, GW_CAN_ENABLE) &&
	    gw_wizard_detected_passthru(w, (size_t)cur) != 1) {
		/* TRANSLATORS: after Space on an ESXi GPU whose passthrough is
		 * off; %s is its PCI address. */
		ui_msg(u, UI_MSG_INFO, _("Added the GPU at %s; its passthrough is off on the host: go back to the host step and press e on its row."),
		       d->bdf);
		return;
	}
	/* TRANSLATORS: after Space on a detected GPU; %s is its PCI
	 * address. */
	ui_msg(u, UI_MSG_OK, _("Added the GPU at %s (passthrough)."), d->bdf);
}

static int
find_want(const gw_wizard *w, const gw_gpu *g, const char *profile)
{
	const gw_answers *a = &gw_wizard_answers(w)->a;
	size_t i;

	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu_want *x = &a->gpus[i];

		if (x->gpu != g)
			continue;
		if ((profile == NULL && x->profile == NULL) ||
		    (profile && x->profile && gw_strieq(profile, x->profile)))
			return (int)i;
	}
	return -1;
}

/* The profile after cur in pv (n of them): passthrough (NULL) -> each
 * vGPU profile -> passthrough. */
static char *
next_profile(char **pv, size_t n, const char *cur)
{
	size_t i;

	if (cur == NULL)
		return pv[0];
	for (i = 0; i < n; i++)
		if (gw_strieq(pv[i], cur))
			break;
	return i + 1 < n ? pv[i + 1] : i < n ? NULL : pv[0];
}

/* Replace want idx by g with profile next (NULL = passthrough), keeping
 * its count; on a refusal put the old one back.  Returns the profile now
 * in use. */
static const char *
swap_profile(ui_ctx *u, size_t idx, const gw_gpu *g, const char *next,
             const char *old, int count)
{
	gw_err e;

	gw_wizard_remove_gpu(u->w, idx);
	e.msg[0] = '\0';
	if (gw_wizard_add_gpu(u->w, g, next, count, &e) != 0) {
		gw_err e2;

		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		gw_wizard_add_gpu(u->w, g, old, count, &e2);
		return old;
	}
	if (next)
		/* TRANSLATORS: %s is a vGPU profile name. */
		ui_msg(u, UI_MSG_OK, _("vGPU profile %s (Space for the next one)."), next);
	else
		ui_msg(u, UI_MSG_OK, "%s",
		       /* TRANSLATORS: Space cycled back to passthrough. */
		       _("Passthrough: the whole GPU (Space for the vGPU profiles)."));
	return next;
}

/* passthrough -> each vGPU profile -> passthrough */
void
gpu_cycle_profile(ui_ctx *u, size_t idx)
{
	const gw_gpu_want *x = &gw_wizard_answers(u->w)->a.gpus[idx];
	const gw_gpu *g = x->gpu;
	char **pv, *old;
	const char *now;
	size_t n;
	int count = x->count, at;

	if (g == NULL) {
		ui_msg(u, UI_MSG_ERROR, "%s",
		       /* TRANSLATORS: Space on a GPU given by size only. */
		       _("A GPU given by its size only has no vGPU profiles."));
		return;
	}
	pv = gw_wizard_profiles(g);
	for (n = 0; pv && pv[n]; n++)
		;
	if (n == 0) {
		/* TRANSLATORS: %s is the GPU's id. */
		ui_msg(u, UI_MSG_ERROR, _("%s has no vGPU profiles: passthrough only."),
		       g->id);
		gw_strv_free(pv);
		return;
	}
	old = gw_xstrdup(x->profile);
	now = swap_profile(u, idx, g, next_profile(pv, n, x->profile), old,
	                   count);
	at = find_want(u->w, g, now);
	if (at >= 0)
		gpu_state(u)->sl.cur = at;
	free(old);
	gw_strv_free(pv);
}

void
gpu_change_count(ui_ctx *u, size_t idx, int delta)
{
	int c = gw_wizard_answers(u->w)->a.gpus[idx].count + delta;
	gw_err e;

	if (c < 1) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: '-' at a count of one. */
		       _("The count is 1: press Delete to remove the GPU."));
		return;
	}
	e.msg[0] = '\0';
	if (gw_wizard_set_count(u->w, idx, c, &e) != 0)
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
}


void
gpu_read_capture(ui_ctx *u)
{
	gpu_st *st = gpu_state(u);
	char *path = NULL, *p;
	gw_err e;
	int n;

	/* TRANSLATORS: title of the question for a capture's path; at most
	 * 30 cells. */
	if (ui_input(u, _("Read the host's GPUs"),
	             /* TRANSLATORS: the question; lspci -nnvv and esxcli
	              * hardware pci list are commands: keep them.  Wrapped. */
	             _("The path of a saved output of lspci -nnvv (or lspci -vvv) or of esxcli hardware pci list from the host:"),
	             &path, 0) != 1) {
		free(path);
		return;
	}
	e.msg[0] = '\0';
	p = gw_trim(path);
	n = gw_wizard_read_capture(u->w, p, &e);
	if (strrchr(p, '/') != NULL)   /* the file's name says enough */
		p = strrchr(p, '/') + 1;
	if (n < 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
	} else if (n == 0) {
		/* TRANSLATORS: %s is the file read. */
		ui_msg(u, UI_MSG_INFO, _("%s lists no GPU: pick one from the table."), p);
	} else {
		ui_msg(u, UI_MSG_OK,
		       /* TRANSLATORS: %d GPUs read from file %s. */
		       P_("Read %d GPU from %s: Space adds it.",
		          "Read %d GPUs from %s: Space adds one.", n),
		       n, p);
		st->focus = F_DETECTED;
		st->dl.n = n;
		st->dl.cur = st->dl.top = 0;
	}
	free(path);
}
