/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_summary.c: what the review step shows before the diff: one line
 * per choice (the host, the GPUs, the VM, the MMIO size, the outputs), and
 * the snippets the write would produce, rendered from the current plan by
 * the emitters (emit.h) without writing anything (doc/design.md, section
 * 10). */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How the host is reached, by mode (a table, not a branch on the mode);
 * %s is the host's name. */
static const char *const host_words[GW_NMODES] = {
	/* TRANSLATORS: the review summary's host when there is none. */
	[GW_MODE_OFFLINE] = N_("offline (no host)"),
	/* TRANSLATORS: the review summary's host; %s is the root probed
	 * ("/") or a sample's name. */
	[GW_MODE_LINUX] = N_("this Linux host %s"),
	/* TRANSLATORS: the review summary's host; %s is root@esx01 or a
	 * sample's name. */
	[GW_MODE_ESXI_SSH] = N_("ESXi host %s"),
	/* TRANSLATORS: the review summary's host; %s is the API's URL. */
	[GW_MODE_VSPHERE] = N_("vSphere API %s"),
};

static char *
host_value(const gw_wizard *w)
{
	const char *sample = gw_wizard_sample_name(w);
	const char *label = gw_wizard_host_label(w);
	const char *fmt = (int)w->mode >= 0 && w->mode < GW_NMODES ?
	                  host_words[w->mode] : host_words[GW_MODE_OFFLINE];
	const char *t, *at;
	char *name, *s;

	if (sample)
		/* TRANSLATORS: a sample host's name in the summary. */
		name = gw_xasprintf(_("%s (sample)"), sample);
	else if (*label)
		name = gw_xstrdup(label);
	else
		name = gw_xstrdup(w->sysroot ? w->sysroot : gw_wizard_sysroot());
	/* the name in place of the translation's %s (not a format: the
	 * table's strings are not literals) */
	t = _(fmt);
	if ((at = strstr(t, "%s")) != NULL)
		s = gw_xasprintf("%.*s%s%s", (int)(at - t), t, name, at + 2);
	else
		s = gw_xstrdup(t);
	free(name);
	return s;
}

/* The separator of the items of a list in a sentence, in the language's
 * punctuation: every list of the summary is joined by it. */
static const char *
list_sep(void)
{
	/* TRANSLATORS: between the items of a list of names in a sentence
	 * ("bosh, opsman, tile"); zh: the enumeration comma 、. */
	return _(", ");
}

/* "1 x l40s, 2 x nvidia_l40s-24c": the plan's GPUs added (existing 0) or
 * already in the VM (existing 1); NULL when none. */
static char *
gpu_list(const gw_plan *p, int existing)
{
	gw_buf b;
	size_t i;
	int n = 0;

	gw_buf_init(&b);
	for (i = 0; i < p->ngpus; i++) {
		if (p->gpus[i].existing != existing)
			continue;
		gw_buf_printf(&b, "%s%d x %s", n++ ? list_sep() : "",
		              p->gpus[i].count, p->gpus[i].label);
	}
	if (n == 0) {
		free(gw_buf_steal(&b));
		return NULL;
	}
	return gw_buf_steal(&b);
}

static char *
gpus_value(const gw_wizard *w)
{
	char *add, *have, *s;

	if (wz_plan(w) == NULL)
		/* TRANSLATORS: the summary's GPUs without a plan. */
		return gw_xstrdup(_("none chosen"));
	add = gpu_list(&w->plan, 0);
	have = gpu_list(&w->plan, 1);
	if (add && have)
		/* TRANSLATORS: the summary's GPUs: those added (first %s)
		 * and those already in the VM (second). */
		s = gw_xasprintf(_("%s; already in the VM: %s"), add, have);
	else if (have)
		/* TRANSLATORS: the summary's GPUs: none added, only the
		 * VM's own. */
		s = gw_xasprintf(_("none added; already in the VM: %s"), have);
	else
		s = gw_xstrdup(add ? add : "");
	free(add);
	free(have);
	return s;
}

static char *
vm_value(const gw_wizard *w)
{
	const gw_vm *vms;
	size_t n = gw_wizard_vms(w, &vms);
	long open = gw_wizard_vm_open(w);
	const char *where = gw_wizard_vmx_where(w);
	int hw = wz_plan(w) ? w->plan.hw_current : 0;
	long up;

	if (open >= 0 && (size_t)open < n)
		where = vms[open].name;
	if (where == NULL)
		/* TRANSLATORS: the summary's VM when no .vmx is open. */
		return gw_xstrdup(_("none: snippets only"));
	if (hw <= 0)
		return gw_xstrdup(where);
	up = gw_session_find_upgrade(&w->sess);
	if (up >= 0)
		/* TRANSLATORS: the summary's VM while its upgrade is queued:
		 * the hardware versions now and after, then its name. */
		return gw_xasprintf(_("vmx-%d -> vmx-%d (upgrade queued), %s"),
		                    w->sess.queue[up].from, hw, where);
	/* TRANSLATORS: the summary's VM: its hardware version (first, so
	 * that a long path is cut, not the version) and the VM's name or
	 * .vmx path. */
	return gw_xasprintf(_("vmx-%d, %s"), hw, where);
}

static char *
mmio_value(const gw_wizard *w)
{
	const gw_plan *p = wz_plan(w);

	if (p == NULL)
		/* TRANSLATORS: the summary's MMIO size without a plan. */
		return gw_xstrdup(_("no plan yet"));
	if (w->af.a.mmio_gb == 0)
		/* TRANSLATORS: the summary's MMIO size, as recommended. */
		return gw_xasprintf(_("%llu GB (the recommendation)"),
		                    (unsigned long long)p->mmio_gb);
	/* TRANSLATORS: the summary's MMIO size the operator typed; the
	 * second %llu is the rule's size. */
	return gw_xasprintf(_("%llu GB (your size; the rule gives %llu GB)"),
	                    (unsigned long long)p->mmio_gb,
	                    (unsigned long long)p->rule_gb);
}

/* The files' short names: the formats' names, then the NCCL script when
 * gw_apply_outputs lists one more file than there are formats. */
static char *
output_names(const gw_wizard *w)
{
	gw_buf b;
	size_t i, n = 0, nfmt = 0;
	char **files = NULL;

	gw_buf_init(&b);
	for (i = 0; i < GW_NFORMATS; i++)
		if (w->af.formats & gw_formats[i].bit)
			gw_buf_printf(&b, "%s%s", nfmt++ ? list_sep() : "",
			              gw_formats[i].name);
	if (wz_plan(w))
		files = gw_apply_outputs(&w->af, &w->plan, &n);
	if (n > nfmt) {
		const char *f = strrchr(files[n - 1], '/');

		gw_buf_printf(&b, "%s%s", list_sep(), f ? f + 1 : files[n - 1]);
	}
	gw_strs_free(files, n);
	return gw_buf_steal(&b);
}

static char *
outputs_value(const gw_wizard *w)
{
	char *names, *s;
	int vmx = gw_wizard_vmx_where(w) != NULL;

	if (w->af.formats == 0)
		return gw_xstrdup(vmx ?
		                  /* TRANSLATORS: the summary's outputs: only
		                   * the .vmx. */
		                  _("the .vmx is patched") :
		                  /* TRANSLATORS: the summary's outputs:
		                   * none. */
		                  _("nothing"));
	names = output_names(w);
	if (vmx)
		/* TRANSLATORS: the summary's outputs: the .vmx (first, so
		 * that a long directory is cut, not it), then the files
		 * (first %s) in the output directory (second). */
		s = gw_xasprintf(_("the .vmx is patched; %s in %s"), names,
		                 w->af.out_dir ? w->af.out_dir : "?");
	else
		/* TRANSLATORS: the summary's outputs: the files (first %s)
		 * in the output directory (second). */
		s = gw_xasprintf(_("%s in %s"), names,
		                 w->af.out_dir ? w->af.out_dir : "?");
	free(names);
	return s;
}

char **
gw_wizard_summary(const gw_wizard *w)
{
	char *(*const value[5])(const gw_wizard *) = {
		host_value, gpus_value, vm_value, mmio_value, outputs_value
	};
	const char *label[5];
	wz_strv s = { NULL, 0 };
	int i, wide = 0;

	/* TRANSLATORS: the labels of the review's summary; at most 10
	 * cells each (they are padded to the widest). */
	label[0] = _("Host:");
	/* TRANSLATORS: at most 10 cells. */
	label[1] = _("GPUs:");
	/* TRANSLATORS: at most 10 cells. */
	label[2] = _("VM:");
	/* TRANSLATORS: at most 10 cells. */
	label[3] = _("MMIO:");
	/* TRANSLATORS: at most 10 cells. */
	label[4] = _("Outputs:");
	for (i = 0; i < 5; i++)
		if (gw_text_cells(label[i]) > wide)
			wide = gw_text_cells(label[i]);
	for (i = 0; i < 5; i++) {
		char *v = value[i](w);

		wz_strv_push(&s, gw_xasprintf("%s%*s %s", label[i],
		                              wide - gw_text_cells(label[i]), "",
		                              v));
		free(v);
	}
	return wz_strv_finish(&s);
}

char *
gw_wizard_snippet(const gw_wizard *w, int fmt, gw_err *e)
{
	const char *text, *why = NULL;
	size_t i;

	if (wz_plan(w) == NULL) {
		gw_err_set(e, "%s", w->plan_error[0] ? w->plan_error :
		           _("No plan yet: choose the GPUs first."));
		return NULL;
	}
	for (i = 0; i < GW_NFORMATS && gw_formats[i].bit != fmt; i++)
		;
	if (i == GW_NFORMATS) {
		gw_err_set(e, _("unknown output format %d; expected one of: %s"),
		           fmt, gw_format_list());
		return NULL;
	}
	if ((text = wz_render(w, i, &why)) == NULL) {
		gw_err_set(e, "%s", why ? why : "");
		return NULL;
	}
	return gw_xstrdup(text);
}
