/* wizard.c: the interactive wizard's state and step logic (wizard.h), apart
 * from any drawing.  The screens in ui/ call these functions on keys and
 * render the gw_wizard; settings come from the plan only.
 *
 * Facts used here (see shared/docs/domain.md):
 *  - BIOS checklist: VT-d/AMD-Vi and above-4G decoding are BIOS settings;
 *    "Passthru Capable: false" when the IOMMU is off (section 5).
 *  - SR-IOV: NVIDIA vGPU on Ampere and later GPUs uses SR-IOV virtual
 *    functions (NVIDIA vGPU documentation; the A16 host sample in
 *    shared/fixtures/nvidia-smi shows "Host VGPU Mode: SR-IOV").
 *  - vGPU C-series sizes: NVIDIA AI Enterprise "Virtual GPU Types for
 *    Supported GPUs" (see gw_wizard_profiles).
 *  - Next commands: vim-cmd (section 5), Ops Manager/BOSH (section 7),
 *    guest checks and the NCCL all-reduce test (section 8, seed 001).
 */
#include "wizard_int.h"
#include "emit.h"
#include "mmio.h"
#include "samplehost.h"
#include "vsapply.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALL_FORMATS (GW_FMT_VMX | GW_FMT_BOSH | GW_FMT_OPSMAN | GW_FMT_TILE)
#define SRC_MMIO "Broadcom KB 323402"

static const int format_bits[] = { GW_FMT_VMX, GW_FMT_BOSH, GW_FMT_OPSMAN,
                                   GW_FMT_TILE };
#define NFORMATS (sizeof format_bits / sizeof format_bits[0])

/* ---- string lists ------------------------------------------------------ */

typedef struct strv {
	char **v;
	size_t n;
} strv;

static void
strv_push(strv *s, char *item)
{
	s->v = gw_xrealloc(s->v, (s->n + 2) * sizeof *s->v);
	s->v[s->n++] = item;
	s->v[s->n] = NULL;
}

/* The NULL-terminated list (an empty one when nothing was pushed). */
static char **
strv_finish(strv *s)
{
	if (s->v == NULL)
		return gw_xcalloc(1, sizeof *s->v);
	return s->v;
}

void
gw_strv_free(char **v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

static void
put_why(char *why, size_t n, const char *msg)
{
	if (why && n > 0)
		snprintf(why, n, "%s", msg);
}

/* ---- texts -------------------------------------------------------------- */

const char *
gw_step_title(gw_step s)
{
	switch (s) {
	/* TRANSLATORS: wizard step titles, shown in the step list: at most
	 * 18 cells (a CJK character is 2 cells). */
	case GW_STEP_WELCOME: return _("Welcome");
	/* TRANSLATORS: wizard step title, at most 18 cells. */
	case GW_STEP_HOST: return _("Host check");
	/* TRANSLATORS: wizard step title, at most 18 cells. */
	case GW_STEP_GPU: return _("GPU selection");
	/* TRANSLATORS: wizard step title, at most 18 cells. */
	case GW_STEP_VM: return _("Virtual machine");
	/* TRANSLATORS: wizard step title, at most 18 cells. */
	case GW_STEP_MMIO: return _("MMIO size");
	/* TRANSLATORS: wizard step title, at most 18 cells. */
	case GW_STEP_OPTIONS: return _("Options");
	/* TRANSLATORS: wizard step title, at most 18 cells. */
	case GW_STEP_REVIEW: return _("Review");
	/* TRANSLATORS: wizard step title, at most 18 cells. */
	case GW_STEP_WRITE: return _("Write");
	default: return "";
	}
}

const char *
gw_step_purpose(gw_step s)
{
	switch (s) {
	/* TRANSLATORS: one-line purpose of a wizard step, shown under its
	 * title: at most 76 cells. */
	case GW_STEP_WELCOME: return _("Choose the language and what you are doing.");
	/* TRANSLATORS: one-line step purpose, at most 76 cells. */
	case GW_STEP_HOST: return _("Check that the host's firmware is ready for GPU passthrough.");
	/* TRANSLATORS: one-line step purpose, at most 76 cells. */
	case GW_STEP_GPU: return _("Choose the GPUs: passthrough or a vGPU profile, and how many.");
	/* TRANSLATORS: one-line step purpose, at most 76 cells. */
	case GW_STEP_VM: return _("Open the VM's .vmx file, or go on without one for snippets only.");
	/* TRANSLATORS: one-line step purpose, at most 76 cells. */
	case GW_STEP_MMIO: return _("Size the VM's 64-bit MMIO window, step by step.");
	/* TRANSLATORS: one-line step purpose, at most 76 cells. */
	case GW_STEP_OPTIONS: return _("Unified memory for vGPUs, peer-to-peer, memory reservation.");
	/* TRANSLATORS: one-line step purpose, at most 76 cells. */
	case GW_STEP_REVIEW: return _("Every change with its reason and source, and the files to write.");
	/* TRANSLATORS: one-line step purpose, at most 76 cells. */
	case GW_STEP_WRITE: return _("Write the files, then run the commands shown.");
	default: return "";
	}
}

const char *
gw_mode_name(gw_mode m)
{
	switch (m) {
	/* TRANSLATORS: what the operator is doing (welcome step choices):
	 * at most 40 cells each. */
	case GW_MODE_OFFLINE: return _("Plan offline (snippets, a local .vmx)");
	/* TRANSLATORS: welcome step choice, at most 40 cells. */
	case GW_MODE_LINUX: return _("Configure this Linux host");
	/* TRANSLATORS: welcome step choice, at most 40 cells. */
	case GW_MODE_ESXI_SSH: return _("An ESXi host over SSH");
	/* TRANSLATORS: welcome step choice, at most 40 cells. */
	case GW_MODE_VSPHERE: return _("vCenter or ESXi through the API");
	default: return "";
	}
}

int
gw_mode_available(gw_mode m, const char **why)
{
	const char *w = NULL;

	switch (m) {
	case GW_MODE_OFFLINE:
		break;
	case GW_MODE_LINUX:
		break;
	case GW_MODE_ESXI_SSH:
		break;
	case GW_MODE_VSPHERE:
		break;
	default:
		w = _("Unknown choice: plan offline.");
		break;
	}
	if (why)
		*why = w;
	return w == NULL;
}

int
gw_wizard_mode_available(const gw_wizard *w, gw_mode m, const char **why)
{
	if (m == GW_MODE_VSPHERE) {
		if (w != NULL && w->vs != NULL) {
			if (why)
				*why = NULL;
			return 1;
		}
		if (why)
			*why = _("No vCenter or ESXi connection yet: start gpuwiz with --url https://HOST/sdk --user USER (with --thumbprint for a self-signed certificate); the password is asked before the screens start, or taken from GPUWIZ_PASSWORD.");
		return 0;
	}
	if (m == GW_MODE_ESXI_SSH) {
		if (w != NULL && w->runner != NULL) {
			if (why)
				*why = NULL;
			return 1;
		}
		if (why)
			*why = _("No ESXi host yet: start gpuwiz with --ssh root@HOST (ssh keys or one password prompt), run it on the ESXi shell, or practise on a sample ESXi host (gpuwiz --sample-host esxi-l40s).");
		return 0;
	}
	return gw_mode_available(m, why);
}

gw_gpu_class
gw_gpu_class_of(const gw_gpu *g)
{
	if (g == NULL || g->name == NULL)
		return GW_CLASS_DATACENTER;
	if (strstr(g->name, "GeForce"))
		return GW_CLASS_GEFORCE;
	if (strstr(g->name, "Quadro") || strstr(g->name, "RTX "))
		return GW_CLASS_WORKSTATION;
	return GW_CLASS_DATACENTER;
}

const char *
gw_gpu_class_name(gw_gpu_class c)
{
	switch (c) {
	/* TRANSLATORS: GPU class filter on the GPU step: at most 12 cells
	 * each.  "All classes" is the no-filter choice. */
	case GW_CLASS_ANY: return _("All classes");
	/* TRANSLATORS: GPU class filter, at most 12 cells. */
	case GW_CLASS_DATACENTER: return _("Data center");
	/* TRANSLATORS: GPU class filter, at most 12 cells. */
	case GW_CLASS_WORKSTATION: return _("Workstation");
	/* TRANSLATORS: GPU class filter, at most 12 cells (a brand name). */
	case GW_CLASS_GEFORCE: return _("GeForce");
	default: return "";
	}
}

const char *
gw_host_item_title(int item)
{
	switch (item) {
	/* TRANSLATORS: host checklist items (BIOS settings): at most 28
	 * cells each. */
	case GW_HOST_IOMMU: return _("VT-d / AMD-Vi (IOMMU)");
	/* TRANSLATORS: host checklist item, at most 28 cells. */
	case GW_HOST_ABOVE4G: return _("Above 4G decoding");
	/* TRANSLATORS: host checklist item, at most 28 cells. */
	case GW_HOST_SRIOV: return _("SR-IOV (vGPU)");
	default: return "";
	}
}

const char *
gw_host_item_help(int item)
{
	switch (item) {
	case GW_HOST_IOMMU:
		return _("Turn on Intel VT-d or AMD-Vi (IOMMU) in the BIOS/UEFI setup, usually under Processor, Chipset or Integrated I/O. While it is off, esxcli hardware pci list shows Passthru Capable: false for every device.");
	case GW_HOST_ABOVE4G:
		return _("Turn on Above 4G decoding (also called MMIO above 4 GB or 64-bit MMIO) in the BIOS/UEFI PCI settings: GPUs with large BARs cannot be mapped without it.");
	case GW_HOST_SRIOV:
		return _("Turn on SR-IOV in the BIOS/UEFI PCI settings: NVIDIA vGPU on Ampere and later GPUs (A10, A16, A30, A40, A100, L4, L40S, H100, ...) runs on SR-IOV virtual functions. Passthrough does not need it.");
	default:
		return "";
	}
}

const char *
gw_vendor_name(unsigned vendor_id)
{
	switch (vendor_id) {
	case 0x10de: return "NVIDIA";
	case 0x1002: return "AMD";
	case 0x8086: return "Intel";
	default: return NULL;
	}
}

int
gw_gpu_needs_sriov(const gw_gpu *g)
{
	static const char *const chips[] = { "GA", "AD", "GH", "GB" };
	size_t i;

	if (g == NULL || g->name == NULL || g->vendor_id != 0x10de)
		return 0;
	for (i = 0; i < sizeof chips / sizeof chips[0]; i++)
		if (strncmp(g->name, chips[i], 2) == 0 &&
		    isdigit((unsigned char)g->name[2]))
			return 1;
	return 0;
}

int
gw_setting_is_change(const gw_setting *s)
{
	if (s == NULL || s->keep)
		return 0;
	return !(s->old_value && s->value && strcmp(s->old_value, s->value) == 0);
}

/* ---- lifecycle ----------------------------------------------------------- */

static int vs_answers(gw_wizard *w, gw_answers *out, gw_err *e);
static void clear_probes(gw_wizard *w);
static int probe_vsphere(gw_wizard *w);
static int vs_enable(gw_wizard *w, size_t idx, int *reboot, gw_err *e);
static int vs_open_vm(gw_wizard *w, long idx, gw_err *e);
static int vs_upgrade(gw_wizard *w, int target, gw_err *e);
static int write_vsphere(gw_wizard *w);

static void
clear_plan(gw_wizard *w)
{
	if (w->have_plan)
		gw_plan_free(&w->plan);
	memset(&w->plan, 0, sizeof w->plan);
	w->have_plan = 0;
}

int
gw_wizard_replan(gw_wizard *w)
{
	gw_err le;
	gw_answers eff, *a = &w->af.a;
	int rc;

	clear_plan(w);
	w->plan_error[0] = '\0';
	le.msg[0] = '\0';
	if (w->af.a.ngpus == 0 && w->vmx == NULL) {
		snprintf(w->plan_error, sizeof w->plan_error, "%s",
		         _("No GPU chosen yet: choose one on the GPU step."));
		return -1;
	}
	/* through the API the request is what the VM should have: what it
	 * has counts, free devices of its host are picked for the rest */
	if (w->mode == GW_MODE_VSPHERE && w->vs && w->esxi_vm >= 0) {
		if (vs_answers(w, &eff, &le) != 0) {
			snprintf(w->plan_error, sizeof w->plan_error, "%s", le.msg);
			return -1;
		}
		a = &eff;
	}
	rc = gw_plan_build(a, w->table, w->vmx, &w->plan, &le);
	if (a == &eff)
		gw_answers_free(&eff);
	if (rc != 0) {
		gw_plan_free(&w->plan);
		memset(&w->plan, 0, sizeof w->plan);
		if (w->af.a.ngpus == 0)
			snprintf(w->plan_error, sizeof w->plan_error, "%s",
			         _("No GPU chosen yet: choose one on the GPU step."));
		else
			snprintf(w->plan_error, sizeof w->plan_error, "%s",
			         le.msg);
		return -1;
	}
	w->have_plan = 1;
	return 0;
}

/* After every change of the answers: the plan follows, and what was written
 * no longer describes them. */
static void
changed(gw_wizard *w)
{
	w->dirty = 1;
	w->written = 0;
	gw_apply_result_free(&w->result);
	w->write_error[0] = '\0';
	gw_wizard_replan(w);
}

static char *
expand_tilde(const char *p)
{
	const char *home = getenv("HOME");

	if (p[0] == '~' && p[1] == '/' && home && *home)
		return gw_xasprintf("%s%s", home, p + 1);
	return gw_xstrdup(p);
}

int
gw_wizard_init(gw_wizard *w, const gw_table *t, const char *answers_path,
               gw_err *e)
{
	int from_file_formats = 1, i;

	memset(w, 0, sizeof *w);
	w->table = t;
	w->mode = GW_MODE_OFFLINE;
	w->esxi_vm = -1;
	w->step = GW_STEP_WELCOME;
	w->visited[GW_STEP_WELCOME] = 1;
	if (answers_path) {
		if (gw_answers_load(&w->af, answers_path, t, e) != 0) {
			gw_answers_file_free(&w->af);
			memset(w, 0, sizeof *w);
			return -1;
		}
		for (i = 0; i < GW_NHOST; i++)
			w->host_ok[i] = 1;
		if (w->af.vmx_path) {
			gw_err le;

			if (gw_vmx_load(&w->vmx, w->af.vmx_path, &le) != 0) {
				w->vmx = NULL;
				w->vmx_error = gw_xstrdup(le.msg);
			}
		}
	} else {
		gw_answers_init(&w->af.a);
	}
	if (w->af.out_dir == NULL)
		w->af.out_dir = gw_xstrdup("gpuwiz-out");
	if (w->af.formats == 0) {
		from_file_formats = 0;
		w->af.formats = ALL_FORMATS;
	}
	gw_wizard_replan(w);
	if (answers_path && !from_file_formats && w->have_plan) {
		/* a .vmx-only file: the snippets that can be made from it */
		size_t k;
		int mask = 0;

		for (k = 0; k < NFORMATS; k++)
			if (gw_wizard_format_check(w, format_bits[k], NULL, 0) == 0)
				mask |= format_bits[k];
		w->af.formats = mask;
	}
	w->dirty = 0;
	return 0;
}

void
gw_wizard_free(gw_wizard *w)
{
	if (w == NULL)
		return;
	gw_answers_file_free(&w->af);
	gw_vmx_free(w->vmx);
	free(w->vmx_error);
	clear_plan(w);
	gw_apply_result_free(&w->result);
	gw_linux_checks_free(w->checks, w->nchecks);
	free(w->checks_error);
	gw_linux_gpus_free(w->detected, w->ndetected);
	free(w->detected_added);
	free(w->detect_error);
	free(w->sysroot);
	gw_runner_close(w->runner);
	free(w->esxi_label);
	gw_esxi_pci_list_free(&w->esxi_pci);
	gw_esxi_vm_list_free(&w->esxi_vms);
	free(w->esxi_vms_error);
	free(w->esxi_vmx_path);
	free(w->esxi_backup);
	free(w->scratch);
	gw_vs_inventory_free(&w->vs_inv);
	gw_vs_close(w->vs);
	free(w->vs_det_host);
	free(w->vs_picked);
	memset(w, 0, sizeof *w);
}

/* ---- GW_MODE_LINUX --------------------------------------------------------- */

const char *
gw_wizard_sysroot(void)
{
	const char *r = getenv("GPUWIZ_SYSROOT");

	return r && *r ? r : "/";
}

int
gw_wizard_set_mode(gw_wizard *w, gw_mode m, const char **why)
{
	const char *reason = NULL;

	if (!gw_wizard_mode_available(w, m, &reason)) {
		if (why)
			*why = reason;
		return -1;
	}
	if (why)
		*why = NULL;
	w->mode = m;
	if (m == GW_MODE_LINUX && !w->probed)
		gw_wizard_probe_host(w);
	if ((m == GW_MODE_ESXI_SSH || m == GW_MODE_VSPHERE) && !w->probed)
		gw_wizard_probe_esxi(w);
	return 0;
}

int
gw_wizard_probe_host(gw_wizard *w)
{
	const char *root = w->sysroot ? w->sysroot : gw_wizard_sysroot();
	gw_linux_gpu *all = NULL;
	size_t nall = 0, i;
	int fails = 0;
	gw_err e;

	clear_probes(w);
	w->probed = 1;

	e.msg[0] = '\0';
	if (gw_linux_checks(root, &w->checks, &w->nchecks, &e) != 0) {
		w->checks_error = gw_xstrdup(e.msg);
		fails++;
	}
	for (i = 0; i < w->nchecks; i++)
		fails += w->checks[i].status == GW_LINUX_FAIL;

	e.msg[0] = '\0';
	if (gw_linux_gpus(w->table, root, &all, &nall, &e) != 0) {
		w->detect_error = gw_xstrdup(e.msg);
		return fails;
	}
	/* keep the GPUs: not the BMC's or an emulated display */
	w->detected = gw_xcalloc(nall ? nall : 1, sizeof *w->detected);
	for (i = 0; i < nall; i++) {
		if (all[i].onboard) {
			gw_linux_gpu *one = gw_xmalloc(sizeof *one);

			*one = all[i];
			gw_linux_gpus_free(one, 1);
			continue;
		}
		w->detected[w->ndetected++] = all[i];
	}
	free(all);
	w->detected_added = gw_xcalloc(w->ndetected ? w->ndetected : 1,
	                               sizeof *w->detected_added);
	return fails;
}

void
gw_wizard_set_host_override(gw_wizard *w, int on)
{
	w->host_override = on ? 1 : 0;
}

const gw_linux_check *
gw_wizard_host_fail(const gw_wizard *w)
{
	size_t i;

	if (w->mode != GW_MODE_LINUX && !gw_wizard_host_mode(w))
		return NULL;
	for (i = 0; i < w->nchecks; i++)
		if (w->checks[i].status == GW_LINUX_FAIL)
			return &w->checks[i];
	return NULL;
}

int
gw_wizard_add_detected(gw_wizard *w, size_t idx, gw_err *e)
{
	const gw_linux_gpu *d;
	int rc;

	if (idx >= w->ndetected) {
		gw_err_set(e, _("No detected GPU %zu."), idx + 1);
		return -1;
	}
	d = &w->detected[idx];
	if (w->detected_added[idx]) {
		/* TRANSLATORS: %s is a PCI address (0000:41:00.0). */
		gw_err_set(e, _("%s is already added: one detected GPU is one GPU."),
		           d->bdf);
		return -1;
	}
	if (d->row && d->row->vram_gb >= 0) {
		rc = gw_wizard_add_gpu(w, d->row, NULL, 1, e);
	} else {
		uint64_t gb = gw_linux_gpu_bar_gb(d);

		if (gb == 0) {
			/* TRANSLATORS: %s is a PCI address. */
			gw_err_set(e, _("%s: the VRAM is unknown and the device has no 64-bit BAR to size it from; pick the GPU from the table instead."),
			           d->bdf);
			return -1;
		}
		rc = gw_wizard_add_vram(w, (int)gb, 1, e);
	}
	if (rc != 0)
		return -1;
	w->detected_added[idx] = 1;
	if (w->af.a.system_id) {
		size_t k;
		int have = 0;

		for (k = 0; k < w->af.a.nbdfs; k++)
			have |= strcmp(w->af.a.bdfs[k], d->bdf) == 0;
		if (!have && gw_wizard_add_bdf(w, d->bdf, e) != 0)
			return -1;
	}
	return 0;
}

/* ---- GW_MODE_ESXI_SSH ----------------------------------------------------- */

void
gw_wizard_set_sysroot(gw_wizard *w, const char *root)
{
	free(w->sysroot);
	w->sysroot = root && *root ? gw_xstrdup(root) : NULL;
	w->probed = 0;
}

const char *
gw_esxi_power_name(gw_esxi_power p)
{
	switch (p) {
	/* TRANSLATORS: a VM's power state; at most 14 cells each. */
	case GW_ESXI_POWER_ON: return _("powered on");
	case GW_ESXI_POWER_OFF: return _("powered off");
	case GW_ESXI_POWER_SUSPENDED: return _("suspended");
	default: return _("state unknown");
	}
}

/* One row of the ESXi host checks (same struct as the Linux ones). */
static void
esxi_row(gw_wizard *w, const char *id, gw_linux_status st, char *title,
         char *msg, char *fix)
{
	gw_linux_check *r;

	w->checks = gw_xrealloc(w->checks, (w->nchecks + 1) * sizeof *w->checks);
	r = &w->checks[w->nchecks++];
	r->id = id;
	r->status = st;
	r->title = title;
	r->message = msg;
	r->fix = fix;
}

/* One GPU's passthrough row on an ESXi host (esxcli or the API).  title,
 * pending (the message while configured but not yet active) and off_fix
 * (how to enable it) are taken over.  Returns 1 for a FAIL row. */
static int
passthru_row(gw_wizard *w, char *title, int capable, int enabled, int active,
             char *pending, char *off_fix)
{
	if (capable == 0) {
		esxi_row(w, "gpu-passthru", GW_LINUX_FAIL, title,
		         gw_xstrdup(_("Passthru Capable: false: ESXi cannot pass this device through; the IOMMU (VT-d / AMD-Vi) is probably off in the BIOS")),
		         gw_xstrdup(_("Turn on VT-d (Intel) or AMD-Vi/IOMMU (AMD) and Above 4G decoding in the BIOS/UEFI setup, then reboot the host.")));
		free(pending);
		free(off_fix);
		return 1;
	}
	if (enabled && active) {
		esxi_row(w, "gpu-passthru", GW_LINUX_PASS, title,
		         gw_xstrdup(_("passthrough enabled and active (owner: VM Passthru)")),
		         NULL);
		free(pending);
		free(off_fix);
	} else if (enabled) {
		esxi_row(w, "gpu-passthru", GW_LINUX_WARN, title, pending,
		         gw_xstrdup(_("Reboot the host (maintenance mode first) so that passthrough takes effect.")));
		free(off_fix);
	} else {
		esxi_row(w, "gpu-passthru", GW_LINUX_WARN, title,
		         gw_xstrdup(_("passthrough not enabled for this GPU")), off_fix);
		free(pending);
	}
	return 0;
}

/* Above-4G decoding cannot be seen from ESXi: a reminder row. */
static void
above4g_row(gw_wizard *w)
{
	esxi_row(w, "above-4g", GW_LINUX_WARN,
	         gw_xstrdup(_("Checking Above 4G decoding")),
	         gw_xstrdup(_("not visible from ESXi")),
	         gw_xstrdup(_("Make sure \"Above 4G decoding\" (MMIO above 4 GB) is on in the BIOS/UEFI setup: GPUs with large BARs need it.")));
}

/* The host refused the change after the snippets were written: take them
 * back, so that the write step is all or nothing here too. */
static void
unwrite_outputs(gw_wizard *w)
{
	size_t i;

	for (i = 0; i < w->result.nwritten; i++)
		unlink(w->result.written[i]);
	gw_apply_result_free(&w->result);
}

static void
clear_probes(gw_wizard *w)
{
	gw_linux_checks_free(w->checks, w->nchecks);
	w->checks = NULL;
	w->nchecks = 0;
	free(w->checks_error);
	w->checks_error = NULL;
	gw_linux_gpus_free(w->detected, w->ndetected);
	w->detected = NULL;
	w->ndetected = 0;
	free(w->detected_added);
	w->detected_added = NULL;
	free(w->detect_error);
	w->detect_error = NULL;
	w->host_override = 0;
}

void
gw_wizard_attach_esxi(gw_wizard *w, gw_runner *r, const char *label)
{
	gw_runner_close(w->runner);
	w->runner = r;
	free(w->esxi_label);
	w->esxi_label = gw_xstrdup(label ? label : "");
	w->mode = GW_MODE_ESXI_SSH;
	w->probed = 0;
	gw_wizard_probe_esxi(w);
}

long
gw_wizard_esxi_dev(const gw_wizard *w, size_t idx)
{
	size_t i;

	if (w->mode != GW_MODE_ESXI_SSH || idx >= w->ndetected)
		return -1;
	for (i = 0; i < w->esxi_pci.n; i++)
		if (strcmp(w->esxi_pci.devs[i].bdf, w->detected[idx].bdf) == 0)
			return (long)i;
	return -1;
}

/* The detected GPU (the Linux struct, so the GPU step shows both kinds)
 * for one esxcli block. */
static void
esxi_detected(gw_wizard *w, const gw_esxi_pci_dev *d, gw_linux_gpu *g)
{
	memset(g, 0, sizeof *g);
	g->bdf = gw_xstrdup(d->bdf);
	g->dom = d->domain;
	g->bus = d->bus;
	g->dev = d->slot;
	g->fn = d->function;
	g->vendor = d->vendor_id;
	g->device = d->device_id;
	g->subvendor = d->subvendor_id;
	g->subdevice = d->subdevice_id;
	g->row = w->table ? gw_table_find_pci(w->table, d->vendor_id,
	                                      d->device_id, d->subvendor_id,
	                                      d->subdevice_id, NULL) : NULL;
	if (g->row)
		g->name = gw_xstrdup(g->row->name);
	else if (d->device_name && *d->device_name)
		g->name = gw_xstrdup(d->device_name);
	g->vram_gb = g->row ? g->row->vram_gb : -1;
	if (d->module_name && *d->module_name && strcmp(d->module_name, "None"))
		g->driver = gw_xstrdup(d->module_name);
	g->onboard = gw_is_onboard_display(d->vendor_id);
}

static int
owner_is_passthru(const char *o)
{
	return o != NULL && strcasecmp(o, "VM Passthru") == 0;
}

int
gw_wizard_probe_esxi(gw_wizard *w)
{
	gw_esxi_version ver;
	char *uuid = NULL;
	int fails = 0, ngpu = 0;
	size_t i;
	gw_err e;

	if (w->mode == GW_MODE_VSPHERE)
		return probe_vsphere(w);
	clear_probes(w);
	gw_esxi_pci_list_free(&w->esxi_pci);
	gw_esxi_vm_list_free(&w->esxi_vms);
	free(w->esxi_vms_error);
	w->esxi_vms_error = NULL;
	w->probed = 1;
	if (w->runner == NULL) {
		w->checks_error = gw_xstrdup(_("no ESXi host to check"));
		return 1;
	}

	/* the host and its version */
	e.msg[0] = '\0';
	if (gw_esxi_session_version(w->runner, &ver, &e) != 0) {
		/* TRANSLATORS: %s is the host (root@esx01). */
		esxi_row(w, "esxi-host", GW_LINUX_FAIL,
		         gw_xasprintf(_("Checking the ESXi host %s"), w->esxi_label),
		         gw_xstrdup(e.msg),
		         gw_xstrdup(_("Check that SSH is enabled on the host (Host Client: Manage > Services > TSM-SSH) and that you can log in with ssh yourself.")));
		fails++;
	} else {
		int hw = ver.release ? gw_esxi_to_hw(ver.release) : 0;
		gw_err le;

		esxi_row(w, "esxi-host", GW_LINUX_PASS,
		         gw_xasprintf(_("Checking the ESXi host %s"), w->esxi_label),
		         /* TRANSLATORS: product, version, build, then the
		          * newest VM hardware version it runs. */
		         gw_xasprintf(_("%s %s (%s): VM hardware version up to %d"),
		                      ver.product ? ver.product : "ESXi",
		                      ver.version ? ver.version : "?",
		                      ver.build ? ver.build : "?", hw),
		         NULL);
		if (ver.release && hw > 0)
			gw_wizard_set_esxi(w, ver.release, &le);
		if (ver.release && strncmp(ver.release, "6.", 2) == 0) {
			esxi_row(w, "esxi-version", GW_LINUX_WARN,
			         gw_xstrdup(_("Checking the ESXi release")),
			         gw_xasprintf(_("ESXi %s has no esxcli pcipassthru commands"),
			                      ver.release),
			         gw_xstrdup(_("Toggle passthrough in the Host Client (Manage > Hardware > PCI Devices) and reboot; ESXi 7.0 or later is recommended for current GPUs.")));
		}
	}
	gw_esxi_version_free(&ver);

	/* the system id, for whole device blocks */
	e.msg[0] = '\0';
	if (gw_esxi_session_uuid(w->runner, &uuid, &e) != 0) {
		esxi_row(w, "esxi-system-id", GW_LINUX_WARN,
		         gw_xstrdup(_("Checking the host's system id")),
		         gw_xstrdup(e.msg),
		         gw_xstrdup(_("Without it gpuwiz cannot write a whole pciPassthruN device block; add the GPU in the vSphere Client (Edit Settings > Add PCI Device) and let gpuwiz write the other settings.")));
	} else {
		gw_err le;

		if (gw_wizard_set_system_id(w, uuid, &le) == 0)
			esxi_row(w, "esxi-system-id", GW_LINUX_PASS,
			         gw_xstrdup(_("Checking the host's system id")),
			         /* TRANSLATORS: %s is the id (esxcli system uuid get). */
			         gw_xasprintf(_("%s (for the pciPassthruN.systemId of the device blocks)"),
			                      uuid),
			         NULL);
		else
			esxi_row(w, "esxi-system-id", GW_LINUX_WARN,
			         gw_xstrdup(_("Checking the host's system id")),
			         gw_xstrdup(le.msg), NULL);
	}
	free(uuid);

	/* the GPUs */
	e.msg[0] = '\0';
	if (gw_esxi_session_list_pci(w->runner, &w->esxi_pci, &e) != 0) {
		w->detect_error = gw_xstrdup(e.msg);
		esxi_row(w, "gpu-present", GW_LINUX_FAIL,
		         gw_xstrdup(_("Checking for GPUs")), gw_xstrdup(e.msg),
		         NULL);
		fails++;
	} else {
		w->detected = gw_xcalloc(w->esxi_pci.n ? w->esxi_pci.n : 1,
		                         sizeof *w->detected);
		for (i = 0; i < w->esxi_pci.n; i++) {
			const gw_esxi_pci_dev *d = &w->esxi_pci.devs[i];
			gw_linux_gpu g;

			if (!gw_esxi_pci_is_display(d))
				continue;
			esxi_detected(w, d, &g);
			if (g.onboard) {
				gw_linux_gpu *one = gw_xmalloc(sizeof *one);

				*one = g;
				gw_linux_gpus_free(one, 1);
				continue;
			}
			w->detected[w->ndetected++] = g;
		}
		w->detected_added = gw_xcalloc(w->ndetected ? w->ndetected : 1,
		                               sizeof *w->detected_added);
		ngpu = (int)w->ndetected;
		if (ngpu == 0) {
			esxi_row(w, "gpu-present", GW_LINUX_FAIL,
			         gw_xstrdup(_("Checking for GPUs")),
			         gw_xstrdup(_("esxcli hardware pci list shows no GPU (only on-board displays, if any)")),
			         gw_xstrdup(_("Check that the card is seated and powered; then look for it with: esxcli hardware pci list")));
			fails++;
		} else {
			esxi_row(w, "gpu-present", GW_LINUX_PASS,
			         gw_xstrdup(_("Checking for GPUs")),
			         /* TRANSLATORS: %d is a count of GPUs. */
			         gw_xasprintf(_("GPUs found: %d"), ngpu),
			         NULL);
		}
		for (i = 0; i < w->ndetected; i++) {
			const gw_linux_gpu *g = &w->detected[i];
			const gw_esxi_pci_dev *d =
				&w->esxi_pci.devs[gw_wizard_esxi_dev(w, i)];
			/* TRANSLATORS: %s is a PCI address, %s the GPU's name. */
			char *title = gw_xasprintf(_("Checking passthrough of %s (%s)"),
			                           g->bdf, g->name ? g->name : "?");

			char *cmd = gw_xasprintf("esxcli hardware pci pcipassthru set -d %s -e true -a",
			                         g->bdf);

			fails += passthru_row(w, title, d->passthru_capable,
			                      owner_is_passthru(d->configured_owner),
			                      owner_is_passthru(d->current_owner),
			                      /* TRANSLATORS: %s is the current owner
			                       * as esxcli prints it (VMkernel). */
			                      gw_xasprintf(_("passthrough configured, but the device is still owned by %s"),
			                                   d->current_owner ? d->current_owner : "?"),
			                      /* TRANSLATORS: %s is the esxcli command. */
			                      gw_xasprintf(_("Press e on this row to enable it (runs: %s)."),
			                                   cmd));
			free(cmd);
		}
	}
	above4g_row(w);

	/* the VMs */
	e.msg[0] = '\0';
	if (gw_esxi_session_list_vms(w->runner, &w->esxi_vms, &e) != 0)
		w->esxi_vms_error = gw_xstrdup(e.msg);
	if (w->esxi_vm >= 0) {
		/* the list was read again: the open VM's index may have
		 * changed; find it by its file */
		long k = -1;

		for (i = 0; w->esxi_vmx_path && i < w->esxi_vms.n; i++) {
			char *p = NULL;

			if (gw_esxi_session_vmx_path(w->runner, &w->esxi_vms.vms[i],
			                             &p, &e) == 0 &&
			    strcmp(p, w->esxi_vmx_path) == 0)
				k = (long)i;
			free(p);
		}
		w->esxi_vm = k;
	}
	return fails;
}

int
gw_wizard_esxi_enable(gw_wizard *w, size_t idx, int *reboot, gw_err *e)
{
	int rb = 0;

	if (reboot)
		*reboot = 0;
	if (w->mode == GW_MODE_VSPHERE)
		return vs_enable(w, idx, reboot, e);
	if (w->runner == NULL || idx >= w->ndetected) {
		gw_err_set(e, _("No detected GPU %zu."), idx + 1);
		return -1;
	}
	if (gw_esxi_session_enable_passthru(w->runner, w->detected[idx].bdf, &rb,
	                                    e) != 0)
		return -1;
	if (reboot)
		*reboot = rb;
	gw_wizard_probe_esxi(w);
	return 0;
}

int
gw_wizard_esxi_open_vm(gw_wizard *w, long idx, gw_err *e)
{
	const gw_esxi_vm *vm;
	gw_esxi_power pw = GW_ESXI_POWER_UNKNOWN;
	char *path = NULL;
	gw_vmx *v = NULL;

	if (w->mode == GW_MODE_VSPHERE && idx >= 0)
		return vs_open_vm(w, idx, e);
	if (idx < 0) {
		gw_vmx_free(w->vmx);
		w->vmx = NULL;
		w->esxi_vm = -1;
		free(w->esxi_vmx_path);
		w->esxi_vmx_path = NULL;
		free(w->vmx_error);
		w->vmx_error = NULL;
		changed(w);
		return 0;
	}
	if (w->runner == NULL || (size_t)idx >= w->esxi_vms.n) {
		gw_err_set(e, _("No VM %ld on the host."), idx + 1);
		return -1;
	}
	vm = &w->esxi_vms.vms[idx];
	if (gw_esxi_session_power_state(w->runner, vm->vmid, &pw, e) != 0 ||
	    gw_esxi_session_vmx_path(w->runner, vm, &path, e) != 0 ||
	    gw_esxi_session_read_vmx(w->runner, path, &v, e) != 0) {
		free(path);
		return -1;
	}
	gw_vmx_free(w->vmx);
	w->vmx = v;
	w->esxi_vm = idx;
	w->esxi_power = pw;
	free(w->esxi_vmx_path);
	w->esxi_vmx_path = path;
	free(w->vmx_error);
	w->vmx_error = NULL;
	changed(w);
	return 0;
}

int
gw_wizard_use_sample(gw_wizard *w, const char *name, gw_err *e)
{
	gw_sample smp;
	gw_runner *r;
	char *out;

	if (gw_sample_open(name, &smp, e) != 0)
		return -1;
	free(w->scratch);
	w->scratch = gw_xstrdup(smp.scratch);
	out = gw_xasprintf("%s/gpuwiz-out", smp.scratch);
	free(w->af.out_dir);
	w->af.out_dir = out;
	r = gw_sample_runner(&smp);
	if (r != NULL) {
		char *label = gw_sample_label(&smp);

		gw_wizard_attach_esxi(w, r, label);
		free(label);
	} else {
		gw_runner_close(w->runner);
		w->runner = NULL;
		gw_wizard_set_sysroot(w, smp.sysroot);
		w->mode = GW_MODE_LINUX;
		gw_wizard_probe_host(w);
	}
	gw_sample_close(&smp, 0);
	return 0;
}

const char *
gw_wizard_vmx_where(const gw_wizard *w)
{
	static char buf[4096];

	if (w->vmx == NULL)
		return NULL;
	if (gw_wizard_host_mode(w) && w->esxi_vm >= 0 && w->esxi_vmx_path) {
		snprintf(buf, sizeof buf, "%s:%s", w->esxi_label ? w->esxi_label : "",
		         w->esxi_vmx_path);
		return buf;
	}
	return w->af.vmx_path;
}

int
gw_wizard_esxi_upgrade_target(const gw_wizard *w)
{
	if (!gw_wizard_host_mode(w) || w->esxi_vm < 0 || !w->have_plan)
		return 0;
	if (w->plan.hw_current > 0 && w->plan.hw_target > w->plan.hw_current)
		return w->plan.hw_target;
	return 0;
}

int
gw_wizard_esxi_upgrade(gw_wizard *w, gw_err *e)
{
	int target = gw_wizard_esxi_upgrade_target(w);
	const gw_esxi_vm *vm;

	if (target == 0) {
		gw_err_set(e, "%s", _("Nothing to upgrade: the VM already has the newest hardware version this host runs."));
		return -1;
	}
	if (w->mode == GW_MODE_VSPHERE)
		return vs_upgrade(w, target, e);
	vm = &w->esxi_vms.vms[w->esxi_vm];
	if (gw_esxi_session_upgrade(w->runner, vm->vmid, w->plan.hw_current,
	                            target, e) != 0)
		return -1;
	return gw_wizard_esxi_open_vm(w, w->esxi_vm, e);
}

/* ---- GW_MODE_VSPHERE ------------------------------------------------------ */

int
gw_wizard_host_mode(const gw_wizard *w)
{
	return w->mode == GW_MODE_ESXI_SSH || w->mode == GW_MODE_VSPHERE;
}

void
gw_wizard_set_progress(gw_wizard *w, gw_vs_progress_fn fn, void *ctx)
{
	w->progress = fn;
	w->progress_ctx = ctx;
}

int
gw_wizard_detected_passthru(const gw_wizard *w, size_t idx)
{
	if (idx >= w->ndetected)
		return -1;
	if (w->mode == GW_MODE_VSPHERE && w->vs_det_host) {
		const gw_vs_pci *d = gw_vs_host_pci(&w->vs_inv.hosts[w->vs_det_host[idx]],
		                                    w->detected[idx].bdf);

		return d ? d->passthru_enabled : -1;
	}
	if (w->mode == GW_MODE_ESXI_SSH) {
		long k = gw_wizard_esxi_dev(w, idx);

		return k >= 0 ? gw_esxi_pci_passthru_enabled(&w->esxi_pci.devs[k]) : -1;
	}
	return -1;
}

void
gw_wizard_attach_vsphere(gw_wizard *w, gw_vs *s, const char *label)
{
	gw_vs_close(w->vs);
	w->vs = s;
	free(w->esxi_label);
	w->esxi_label = gw_xstrdup(label ? label : "");
	w->mode = GW_MODE_VSPHERE;
	w->probed = 0;
	gw_wizard_probe_esxi(w);
}

/* The answers the plan gets for the open VM (gw_wizard_replan). */
static int
vs_answers(gw_wizard *w, gw_answers *out, gw_err *e)
{
	const gw_vs_vm *vm = &w->vs_inv.vms[w->esxi_vm];
	const gw_vs_host *h = vm->host_moref ?
	                      gw_vs_find_host(&w->vs_inv, vm->host_moref) : NULL;
	char **picked = NULL;
	size_t n = 0, i;
	gw_buf b;

	gw_answers_copy(out, &w->af.a);
	free(w->vs_picked);
	w->vs_picked = NULL;
	if (h == NULL) {
		gw_err_set(e, _("%s: its host is not in the inventory"), vm->name);
		gw_answers_free(out);
		return -1;
	}
	if (out->nbdfs == 0) {
		gw_vs_answers_less_attached(out, vm);
		if (gw_vs_pick_devices(&w->vs_inv, h, vm, out, &picked, &n, e) != 0) {
			gw_answers_free(out);
			return -1;
		}
		gw_buf_init(&b);
		for (i = 0; i < n; i++) {
			gw_answers_add_bdf(out, picked[i], "--bdf", e);
			gw_buf_printf(&b, "%s%s", i ? ", " : "", picked[i]);
		}
		w->vs_picked = n ? gw_buf_steal(&b) : NULL;
		if (!n)
			gw_buf_free(&b);
		gw_vs_free_strv(picked, n);
	}
	if (out->nbdfs > 0 && out->system_id == NULL) {
		const gw_vs_pci *d = gw_vs_host_pci(h, out->bdfs[0]);

		if (d == NULL || d->system_id == NULL ||
		    gw_answers_set_system_id(out, d->system_id, "QueryConfigTarget", e) != 0) {
			gw_err_set(e, _("%s: host %s reports no system id for %s: is passthrough enabled and active for it?"),
			           vm->name, h->name, out->bdfs[0]);
			gw_answers_free(out);
			return -1;
		}
	}
	return 0;
}

static int
probe_vsphere(gw_wizard *w)
{
	char *open_name = NULL;
	size_t i, k, ngpu = 0;
	int fails = 0;
	gw_err e;

	if (w->esxi_vm >= 0 && (size_t)w->esxi_vm < w->vs_inv.nvms)
		open_name = gw_xstrdup(w->vs_inv.vms[w->esxi_vm].name);
	clear_probes(w);
	gw_esxi_vm_list_free(&w->esxi_vms);
	free(w->esxi_vms_error);
	w->esxi_vms_error = NULL;
	gw_vs_inventory_free(&w->vs_inv);
	free(w->vs_det_host);
	w->vs_det_host = NULL;
	w->probed = 1;
	e.msg[0] = '\0';
	if (w->vs == NULL || gw_vs_inventory_get(w->vs, &w->vs_inv, &e) != 0) {
		w->checks_error = gw_xstrdup(w->vs ? e.msg : _("no vSphere connection"));
		w->esxi_vms_error = gw_xstrdup(w->checks_error);
		w->esxi_vm = -1;
		free(open_name);
		return 1;
	}
	esxi_row(w, "vsphere-server", GW_LINUX_PASS,
	         /* TRANSLATORS: %s is the server (its URL). */
	         gw_xasprintf(_("Checking the vSphere server %s"), w->esxi_label),
	         /* TRANSLATORS: the server's name and version, then how many
	          * hosts and VMs it has. */
	         gw_xasprintf(_("%s: %zu host(s), %zu VM(s)"),
	                      gw_vs_full_name(w->vs) ? gw_vs_full_name(w->vs) : "?",
	                      w->vs_inv.nhosts, w->vs_inv.nvms),
	         NULL);
	for (i = 0; i < w->vs_inv.nhosts; i++) {
		const gw_vs_host *h = &w->vs_inv.hosts[i];
		char *ver = h->version ? gw_xasprintf("%s", h->version) : NULL;
		int hw = ver ? gw_esxi_to_hw(ver) : 0;

		esxi_row(w, "esxi-host", GW_LINUX_PASS,
		         gw_xasprintf(_("Checking the ESXi host %s"), h->name),
		         gw_xasprintf(_("%s %s (%s): VM hardware version up to %d"),
		                      "VMware ESXi", ver ? ver : "?",
		                      h->build ? h->build : "?", hw),
		         NULL);
		free(ver);
	}
	/* the GPUs of every host */
	for (i = 0; i < w->vs_inv.nhosts; i++)
		ngpu += w->vs_inv.hosts[i].npci;
	w->detected = gw_xcalloc(ngpu ? ngpu : 1, sizeof *w->detected);
	w->vs_det_host = gw_xcalloc(ngpu ? ngpu : 1, sizeof *w->vs_det_host);
	for (i = 0; i < w->vs_inv.nhosts; i++) {
		const gw_vs_host *h = &w->vs_inv.hosts[i];

		for (k = 0; k < h->npci; k++) {
			const gw_vs_pci *d = &h->pci[k];
			gw_linux_gpu *g;
			unsigned dom, bus, dev, fn;

			if ((d->class_id >> 8) != 0x03 || gw_is_onboard_display(d->vendor))
				continue;
			g = &w->detected[w->ndetected];
			memset(g, 0, sizeof *g);
			g->bdf = gw_xstrdup(d->id);
			if (gw_bdf_parse(d->id, &dom, &bus, &dev, &fn) == 0) {
				g->dom = dom;
				g->bus = bus;
				g->dev = dev;
				g->fn = fn;
			}
			g->vendor = d->vendor;
			g->device = d->device;
			g->subvendor = d->subvendor;
			g->subdevice = d->subdevice;
			g->row = w->table ? gw_table_find_pci(w->table, d->vendor, d->device,
			                                      d->subvendor, d->subdevice,
			                                      NULL) : NULL;
			g->name = g->row ? gw_xstrdup(g->row->name) :
			          d->device_name ? gw_xstrdup(d->device_name) : NULL;
			g->vram_gb = g->row ? g->row->vram_gb : -1;
			/* the host, where the Linux list shows the driver */
			g->driver = gw_xstrdup(h->name);
			w->vs_det_host[w->ndetected++] = i;
		}
	}
	w->detected_added = gw_xcalloc(w->ndetected ? w->ndetected : 1,
	                               sizeof *w->detected_added);
	if (w->ndetected == 0) {
		esxi_row(w, "gpu-present", GW_LINUX_FAIL,
		         gw_xstrdup(_("Checking for GPUs")),
		         gw_xstrdup(_("no host of this server has a GPU (hardware.pciDevice)")),
		         gw_xstrdup(_("Check that the card is seated and powered; then look for it with: esxcli hardware pci list")));
		fails++;
	} else {
		esxi_row(w, "gpu-present", GW_LINUX_PASS,
		         gw_xstrdup(_("Checking for GPUs")),
		         gw_xasprintf(_("GPUs found: %d"), (int)w->ndetected), NULL);
	}
	for (i = 0; i < w->ndetected; i++) {
		const gw_vs_host *h = &w->vs_inv.hosts[w->vs_det_host[i]];
		const gw_vs_pci *d = gw_vs_host_pci(h, w->detected[i].bdf);
		/* TRANSLATORS: a PCI address, the GPU's name, its host. */
		char *title = gw_xasprintf(_("Checking passthrough of %s (%s) on %s"),
		                           w->detected[i].bdf,
		                           w->detected[i].name ? w->detected[i].name : "?",
		                           h->name);

		fails += passthru_row(w, title, d ? d->passthru_capable : -1,
		                      d && d->passthru_enabled == 1,
		                      d && d->passthru_active == 1,
		                      gw_xstrdup(_("passthrough enabled, active after the host's next reboot")),
		                      gw_xstrdup(_("Press e on this row to enable it (UpdatePassthruConfig; a free ESXi licence refuses it: then use gpuwiz --ssh).")));
	}
	above4g_row(w);
	/* the VMs, for the VM step's list */
	w->esxi_vms.vms = gw_xcalloc(w->vs_inv.nvms ? w->vs_inv.nvms : 1,
	                             sizeof *w->esxi_vms.vms);
	w->esxi_vm = -1;
	for (i = 0; i < w->vs_inv.nvms; i++) {
		const gw_vs_vm *vm = &w->vs_inv.vms[i];
		gw_esxi_vm *x = &w->esxi_vms.vms[i];

		x->vmid = (unsigned long)i + 1;
		x->name = gw_xstrdup(vm->name);
		x->file = gw_xstrdup(vm->vmx_path ? vm->vmx_path : "");
		x->version = gw_xasprintf("vmx-%02d", vm->hw_version);
		x->hw_version = vm->hw_version;
		x->guest_os = gw_xstrdup("");
		x->annotation = gw_xstrdup("");
		if (open_name && strcmp(open_name, vm->name) == 0)
			w->esxi_vm = (long)i;
	}
	w->esxi_vms.n = w->vs_inv.nvms;
	if (w->esxi_vm >= 0)
		w->esxi_power = gw_vs_power_esxi(w->vs_inv.vms[w->esxi_vm].power);
	free(open_name);
	return fails;
}

static int
vs_enable(gw_wizard *w, size_t idx, int *reboot, gw_err *e)
{
	const gw_vs_host *h;
	const gw_vs_pci *d;
	char *id;

	if (w->vs == NULL || idx >= w->ndetected) {
		gw_err_set(e, _("No detected GPU %zu."), idx + 1);
		return -1;
	}
	h = &w->vs_inv.hosts[w->vs_det_host[idx]];
	id = gw_xstrdup(w->detected[idx].bdf);
	if (gw_vs_enable_passthru(w->vs, h, id, e) != 0) {
		free(id);
		return -1;
	}
	probe_vsphere(w);
	if (reboot) {
		*reboot = 1;
		for (idx = 0; idx < w->ndetected; idx++)
			if (strcmp(w->detected[idx].bdf, id) == 0 &&
			    (d = gw_vs_host_pci(&w->vs_inv.hosts[w->vs_det_host[idx]], id)) &&
			    d->passthru_active == 1)
				*reboot = 0;
	}
	free(id);
	return 0;
}

static int
vs_open_vm(gw_wizard *w, long idx, gw_err *e)
{
	const gw_vs_vm *vm;
	const gw_vs_host *h;
	gw_vmx *v;

	if (w->vs == NULL || (size_t)idx >= w->vs_inv.nvms) {
		gw_err_set(e, _("No VM %ld on the host."), idx + 1);
		return -1;
	}
	vm = &w->vs_inv.vms[idx];
	if ((v = gw_vs_vm_as_vmx(vm, e)) == NULL)
		return -1;
	gw_vmx_free(w->vmx);
	w->vmx = v;
	w->esxi_vm = idx;
	w->esxi_power = gw_vs_power_esxi(vm->power);
	free(w->esxi_vmx_path);
	w->esxi_vmx_path = gw_xstrdup(vm->name);
	free(w->vmx_error);
	w->vmx_error = NULL;
	h = vm->host_moref ? gw_vs_find_host(&w->vs_inv, vm->host_moref) : NULL;
	if (h && h->version && gw_esxi_to_hw(h->version) > 0) {
		free(w->af.a.esxi_version);
		w->af.a.esxi_version = gw_xstrdup(h->version);
	}
	changed(w);
	return 0;
}

static int
vs_upgrade(gw_wizard *w, int target, gw_err *e)
{
	char *name = gw_xstrdup(w->vs_inv.vms[w->esxi_vm].name);
	int rc;

	rc = gw_vs_upgrade(w->vs, &w->vs_inv.vms[w->esxi_vm], target, w->progress,
	                   w->progress_ctx, e);
	probe_vsphere(w);
	if (rc == 0 && w->esxi_vm < 0) {
		gw_err_set(e, _("%s: not found after the upgrade"), name);
		rc = -1;
	}
	if (rc == 0)
		rc = vs_open_vm(w, w->esxi_vm, e);
	free(name);
	return rc;
}

/* The write step through the API: the snippets locally (gw_apply), then
 * ReconfigVM_Task with the plan's changes, its progress shown; the
 * inventory is read again afterwards. */
static int
write_vsphere(gw_wizard *w)
{
	gw_vs_plan_spec spec;
	gw_err le;
	char *name;

	le.msg[0] = '\0';
	if (gw_vs_spec_from_plan(&w->plan, &spec, &le) != 0) {
		snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
		return -1;
	}
	if (w->af.formats &&
	    gw_apply(&w->af, &w->plan, NULL, w->af.force, &w->result, &le) != 0) {
		gw_vs_plan_spec_free(&spec);
		snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
		return -1;
	}
	name = gw_xstrdup(w->vs_inv.vms[w->esxi_vm].name);
	if (!gw_vs_spec_empty(&spec) &&
	    gw_vs_reconfigure(w->vs, &w->vs_inv.vms[w->esxi_vm], &spec.spec,
	                      w->progress, w->progress_ctx, &le) != 0) {
		unwrite_outputs(w);
		gw_vs_plan_spec_free(&spec);
		snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
		free(name);
		return -1;
	}
	free(w->result.vmx_path);
	w->result.vmx_path = gw_xasprintf("%s:%s", w->esxi_label ? w->esxi_label : "",
	                                  name);
	w->result.vmx_unchanged = gw_vs_spec_empty(&spec);
	gw_vs_plan_spec_free(&spec);
	free(name);
	/* what the server has now (the VM step and a second write show it) */
	probe_vsphere(w);
	w->written = 1;
	w->dirty = 0;
	return 0;
}

/* ---- steps ---------------------------------------------------------------- */

int
gw_wizard_sriov_needed(const gw_wizard *w)
{
	size_t i;

	for (i = 0; i < w->af.a.ngpus; i++) {
		const gw_gpu_want *g = &w->af.a.gpus[i];

		if (g->profile && gw_gpu_needs_sriov(g->gpu))
			return 1;
	}
	return 0;
}

void
gw_wizard_set_host_ok(gw_wizard *w, int item, int ok)
{
	if (item >= 0 && item < GW_NHOST)
		w->host_ok[item] = ok ? 1 : 0;
}

int
gw_wizard_format_check(const gw_wizard *w, int fmt, char *why, size_t n)
{
	char *out = NULL;
	gw_err le;

	if (gw_format_name(fmt) == NULL) {
		put_why(why, n, _("unknown output format"));
		return -1;
	}
	if (!w->have_plan) {
		put_why(why, n, w->plan_error);
		return -1;
	}
	le.msg[0] = '\0';
	if (gw_emit(fmt, &w->plan, &out, &le) != 0) {
		put_why(why, n, le.msg);
		return -1;
	}
	free(out);
	return 0;
}

char *
gw_wizard_output_path(const gw_wizard *w, int fmt)
{
	const char *f = gw_format_filename(fmt);

	if (f == NULL || w->af.out_dir == NULL || w->af.out_dir[0] == '\0')
		return NULL;
	return gw_xasprintf("%s/%s", w->af.out_dir, f);
}

static int
check_review(const gw_wizard *w, char *why, size_t n)
{
	char buf[1024];
	size_t i;

	if (!w->have_plan) {
		put_why(why, n, w->plan_error);
		return -1;
	}
	if (w->vmx_error) {
		put_why(why, n, w->vmx_error);
		return -1;
	}
	if (w->af.formats == 0 && w->vmx == NULL) {
		put_why(why, n, _("Nothing to write: choose at least one output format, or open a .vmx on the VM step."));
		return -1;
	}
	if (w->af.formats && (w->af.out_dir == NULL || w->af.out_dir[0] == '\0')) {
		put_why(why, n, _("Output directory: missing (expected the directory to write the snippets into)."));
		return -1;
	}
	if (gw_wizard_sriov_needed(w) && !w->host_ok[GW_HOST_SRIOV]) {
		snprintf(buf, sizeof buf,
		         _("%s: not confirmed, and the vGPUs chosen need it (NVIDIA vGPU on Ampere and later runs on SR-IOV); confirm it on the host check step."),
		         gw_host_item_title(GW_HOST_SRIOV));
		put_why(why, n, buf);
		return -1;
	}
	for (i = 0; i < NFORMATS; i++) {
		char reason[900];

		if (!(w->af.formats & format_bits[i]))
			continue;
		if (gw_wizard_format_check(w, format_bits[i], reason,
		                           sizeof reason) != 0) {
			snprintf(buf, sizeof buf,
			         _("Output '%s' cannot be made from this plan: %s; turn it off or change the GPUs."),
			         gw_format_name(format_bits[i]), reason);
			put_why(why, n, buf);
			return -1;
		}
	}
	if (gw_plan_has_errors(&w->plan) && !w->af.force) {
		put_why(why, n, _("The plan has failures (FAIL): fix them, or turn on force to write anyway."));
		return -1;
	}
	return 0;
}

int
gw_wizard_check_step(const gw_wizard *w, gw_step s, char *why, size_t n)
{
	const char *reason = NULL;
	char buf[1024];

	if (why && n > 0)
		why[0] = '\0';
	switch (s) {
	case GW_STEP_WELCOME:
		if (!gw_wizard_mode_available(w, w->mode, &reason)) {
			put_why(why, n, reason);
			return -1;
		}
		return 0;
	case GW_STEP_HOST: {
		static const int needed[] = { GW_HOST_IOMMU, GW_HOST_ABOVE4G };
		size_t i;

		if (w->mode == GW_MODE_LINUX || gw_wizard_host_mode(w)) {
			const gw_linux_check *f = gw_wizard_host_fail(w);

			if (w->host_override)
				return 0;
			if (!w->probed) {
				put_why(why, n, _("The host checks have not run yet: press r to run them."));
				return -1;
			}
			if (w->checks_error) {
				/* TRANSLATORS: %s says why the checks could not
				 * run; o and r are keys. */
				snprintf(buf, sizeof buf,
				         _("The host checks could not run: %s. Press o to go on anyway."),
				         w->checks_error);
				put_why(why, n, buf);
				return -1;
			}
			if (f) {
				/* TRANSLATORS: a FAIL row blocks the host
				 * step: its title and message; r and o are
				 * keys. */
				snprintf(buf, sizeof buf,
				         _("FAIL: %s: %s. Fix it and press r to check again, or press o to go on anyway."),
				         f->title, f->message);
				put_why(why, n, buf);
				return -1;
			}
			return 0;
		}

		for (i = 0; i < sizeof needed / sizeof needed[0]; i++) {
			if (w->host_ok[needed[i]])
				continue;
			snprintf(buf, sizeof buf,
			         _("%s: not confirmed; turn it on in the BIOS/UEFI setup and confirm it here."),
			         gw_host_item_title(needed[i]));
			put_why(why, n, buf);
			return -1;
		}
		return 0;
	}
	case GW_STEP_GPU:
		if (w->af.a.ngpus == 0) {
			put_why(why, n, _("Choose at least one GPU."));
			return -1;
		}
		return 0;
	case GW_STEP_VM:
		if (w->vmx_error) {
			snprintf(buf, sizeof buf,
			         _("%s; open another .vmx or choose none (snippets only)."),
			         w->vmx_error);
			put_why(why, n, buf);
			return -1;
		}
		if (w->vmx && !w->have_plan) {
			put_why(why, n, w->plan_error);
			return -1;
		}
		return 0;
	case GW_STEP_MMIO:
	case GW_STEP_OPTIONS:
		if (!w->have_plan) {
			put_why(why, n, w->plan_error);
			return -1;
		}
		return 0;
	case GW_STEP_REVIEW:
		return check_review(w, why, n);
	case GW_STEP_WRITE:
		put_why(why, n, _("This is the last step."));
		return -1;
	default:
		put_why(why, n, _("Unknown step."));
		return -1;
	}
}

int
gw_wizard_next(gw_wizard *w, char *why, size_t n)
{
	if (gw_wizard_check_step(w, w->step, why, n) != 0)
		return -1;
	w->step = (gw_step)(w->step + 1);
	w->visited[w->step] = 1;
	return 0;
}

int
gw_wizard_back(gw_wizard *w)
{
	if (w->step == GW_STEP_WELCOME)
		return -1;
	w->step = (gw_step)(w->step - 1);
	return 0;
}

int
gw_wizard_goto_why(gw_wizard *w, gw_step s, char *why, size_t n)
{
	gw_step k;

	if (why && n > 0)
		why[0] = '\0';
	if ((int)s < 0 || s >= GW_NSTEPS || !w->visited[s]) {
		put_why(why, n, _("That step is not reached yet: finish this one first."));
		return -1;
	}
	for (k = w->step; k < s; k = (gw_step)(k + 1))
		if (gw_wizard_check_step(w, k, why, n) != 0)
			return -1;
	w->step = s;
	return 0;
}

int
gw_wizard_goto(gw_wizard *w, gw_step s)
{
	return gw_wizard_goto_why(w, s, NULL, 0);
}

/* ---- GPU step ------------------------------------------------------------- */

/* ASCII case-insensitive substring. */
static int
ci_contains(const char *hay, const char *needle, size_t nlen)
{
	size_t i, hlen;

	if (hay == NULL)
		return 0;
	hlen = strlen(hay);
	for (i = 0; i + nlen <= hlen; i++) {
		size_t k;

		for (k = 0; k < nlen; k++)
			if (tolower((unsigned char)hay[i + k]) !=
			    tolower((unsigned char)needle[k]))
				break;
		if (k == nlen)
			return 1;
	}
	return 0;
}

static int
gpu_matches(const gw_gpu *g, const char *query)
{
	const char *p = query ? query : "";
	char pci[16];

	snprintf(pci, sizeof pci, "%04x:%04x", g->vendor_id & 0xffffu,
	         g->device_id & 0xffffu);
	for (;;) {
		size_t len;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return 1;
		for (len = 0; p[len] && !isspace((unsigned char)p[len]); len++)
			;
		if (!ci_contains(g->id, p, len) && !ci_contains(g->name, p, len) &&
		    !ci_contains(pci, p, len))
			return 0;
		p += len;
	}
}

size_t
gw_wizard_search(const gw_wizard *w, const char *query, unsigned vendor,
                 gw_gpu_class cls, const gw_gpu **out, size_t max)
{
	size_t i, n = 0;

	if (w->table == NULL)
		return 0;
	for (i = 0; i < w->table->n; i++) {
		const gw_gpu *g = &w->table->gpus[i];

		if (vendor && g->vendor_id != vendor)
			continue;
		if (cls != GW_CLASS_ANY && gw_gpu_class_of(g) != cls)
			continue;
		if (!gpu_matches(g, query))
			continue;
		if (out && n < max)
			out[n] = g;
		n++;
	}
	return n;
}

/* Every prime factor of f is 2, 3 or 5. */
static int
smooth5(int f)
{
	static const int primes[] = { 2, 3, 5 };
	size_t i;

	if (f <= 0)
		return 0;
	for (i = 0; i < sizeof primes / sizeof primes[0]; i++)
		while (f % primes[i] == 0)
			f /= primes[i];
	return f == 1;
}

char **
gw_wizard_profiles(const gw_gpu *g)
{
	strv s = { NULL, 0 };
	int fb, d;

	if (g == NULL || g->vgpu_prefix == NULL || g->vram_gb <= 0)
		return strv_finish(&s);
	fb = g->vram_gb;
	if (fb <= 80 && smooth5(fb)) {
		for (d = fb; d >= 4; d--)
			if (fb % d == 0)
				strv_push(&s, gw_xasprintf("%s-%dc", g->vgpu_prefix, d));
	}
	if (s.n == 0)
		strv_push(&s, gw_xasprintf("%s-%dc", g->vgpu_prefix, fb));
	return strv_finish(&s);
}

static void
want_set_spec(gw_gpu_want *g)
{
	free(g->spec);
	if (g->profile)
		g->spec = gw_xasprintf("%s=%d", g->profile, g->count);
	else if (g->gpu)
		g->spec = gw_xasprintf("%s=%d", g->gpu->id, g->count);
	else
		g->spec = gw_xasprintf("%d=%d", g->vram_gb, g->count);
}

static int
count_ok(const char *what, int count, gw_err *e)
{
	if (count >= 1 && count <= GW_MMIO_MAX_COUNT)
		return 0;
	gw_err_set(e, _("%s: count %d is not a whole number from 1 to %d"),
	           what, count, GW_MMIO_MAX_COUNT);
	return -1;
}

static void
want_pop(gw_answers *a)
{
	gw_gpu_want *g = &a->gpus[a->ngpus - 1];

	free(g->profile);
	free(g->spec);
	a->ngpus--;
}

/* Two profiles of g are the same vGPU type (grid_/nvidia_ spelling aside). */
static int
same_profile(const gw_gpu *g, const char *a, const char *b)
{
	char *ca = gw_gpu_vgpu_profile(g, a), *cb = gw_gpu_vgpu_profile(g, b);
	int same;

	if (ca && cb)
		same = strcmp(ca, cb) == 0;
	else
		same = gw_strieq(a, b);
	free(ca);
	free(cb);
	return same;
}

int
gw_wizard_add_gpu(gw_wizard *w, const gw_gpu *g, const char *profile,
                  int count, gw_err *e)
{
	gw_answers *a = &w->af.a;
	char *spec, *canon = NULL;
	size_t i;
	gw_err le;

	if (profile && *profile == '\0')
		profile = NULL;
	if (g == NULL) {
		gw_err_set(e, "%s", _("GPU selection: no GPU given"));
		return -1;
	}
	if (count_ok(g->id, count, e) != 0)
		return -1;
	if (g->vram_gb < 0) {
		gw_err_set(e, _("%s (%s): its VRAM is unknown in the GPU table, so the MMIO size cannot be computed; enter the framebuffer size in GB instead"),
		           g->id, g->name);
		return -1;
	}
	if (profile) {
		const char *q;

		for (q = profile; *q; q++)
			if (!isalnum((unsigned char)*q) && *q != '_' && *q != '-')
				break;
		if (g->vgpu_prefix == NULL) {
			gw_err_set(e, _("%s: this GPU has no vGPU profiles; choose passthrough"),
			           g->id);
			return -1;
		}
		if (*q != '\0' || !gw_is_vgpu_profile(profile) ||
		    (canon = gw_gpu_vgpu_profile(g, profile)) == NULL) {
			gw_err_set(e, _("%s: '%s' is not a vGPU profile of this GPU (expected e.g. %s-%dc)"),
			           g->id, profile, g->vgpu_prefix, g->vram_gb);
			return -1;
		}
		free(canon);
	}
	/* the same GPU and profile again: one entry with the counts added */
	for (i = 0; i < a->ngpus; i++) {
		gw_gpu_want *x = &a->gpus[i];

		if (x->gpu != g || (x->profile == NULL) != (profile == NULL))
			continue;
		if (profile && !same_profile(g, x->profile, profile))
			continue;
		if (count_ok(g->id, x->count + count, e) != 0)
			return -1;
		x->count += count;
		want_set_spec(x);
		changed(w);
		return 0;
	}
	spec = gw_xasprintf("%s=%d", profile ? profile : g->id, count);
	le.msg[0] = '\0';
	if (gw_answers_add_gpu(a, w->table, spec, g->id, &le) != 0) {
		gw_err_set(e, "%s", le.msg);
		free(spec);
		return -1;
	}
	free(spec);
	if (a->gpus[a->ngpus - 1].gpu != g) {
		want_pop(a);
		gw_err_set(e, _("%s: '%s' belongs to another GPU in the table"),
		           g->id, profile ? profile : g->id);
		return -1;
	}
	changed(w);
	return 0;
}

int
gw_wizard_add_vram(gw_wizard *w, int vram_gb, int count, gw_err *e)
{
	gw_answers *a = &w->af.a;
	char *spec, *what;
	size_t i;
	int rc;

	/* TRANSLATORS: names the field in errors: "48 GB: count 0 is ..." */
	what = gw_xasprintf(_("%d GB"), vram_gb);
	rc = count_ok(what, count, e);
	free(what);
	if (rc != 0)
		return -1;
	if (vram_gb < 1 || (uint64_t)vram_gb > GW_MMIO_MAX_GPU_GB) {
		gw_err_set(e, _("VRAM size: %d GB is not a plausible size (expected 1..%llu)"),
		           vram_gb, (unsigned long long)GW_MMIO_MAX_GPU_GB);
		return -1;
	}
	for (i = 0; i < a->ngpus; i++) {
		gw_gpu_want *x = &a->gpus[i];

		if (x->gpu || x->profile || x->vram_gb != vram_gb)
			continue;
		what = gw_xasprintf(_("%d GB"), vram_gb);
		rc = count_ok(what, x->count + count, e);
		free(what);
		if (rc != 0)
			return -1;
		x->count += count;
		want_set_spec(x);
		changed(w);
		return 0;
	}
	spec = gw_xasprintf("%d=%d", vram_gb, count);
	rc = gw_answers_add_vram(a, spec, _("VRAM size"), e);
	free(spec);
	if (rc != 0)
		return -1;
	changed(w);
	return 0;
}

int
gw_wizard_set_count(gw_wizard *w, size_t idx, int count, gw_err *e)
{
	gw_gpu_want *x;

	if (idx >= w->af.a.ngpus) {
		gw_err_set(e, _("GPU selection: there is no entry %zu"), idx + 1);
		return -1;
	}
	x = &w->af.a.gpus[idx];
	if (count_ok(x->profile ? x->profile : x->gpu ? x->gpu->id : x->spec,
	             count, e) != 0)
		return -1;
	x->count = count;
	want_set_spec(x);
	changed(w);
	return 0;
}

/* A detected GPU no longer in the selection is no longer added. */
static void
unmark_detected(gw_wizard *w)
{
	size_t i, k;

	for (i = 0; i < w->ndetected; i++) {
		const gw_linux_gpu *d = &w->detected[i];
		int found = 0;

		if (!w->detected_added || !w->detected_added[i])
			continue;
		for (k = 0; k < w->af.a.ngpus && !found; k++) {
			const gw_gpu_want *x = &w->af.a.gpus[k];

			found = x->profile == NULL &&
			        (d->row ? x->gpu == d->row
			                : x->gpu == NULL &&
			                  (uint64_t)x->vram_gb ==
			                      gw_linux_gpu_bar_gb(d));
		}
		if (!found)
			w->detected_added[i] = 0;
	}
}

int
gw_wizard_remove_gpu(gw_wizard *w, size_t idx)
{
	gw_answers *a = &w->af.a;

	if (idx >= a->ngpus)
		return -1;
	free(a->gpus[idx].profile);
	free(a->gpus[idx].spec);
	memmove(&a->gpus[idx], &a->gpus[idx + 1],
	        (a->ngpus - idx - 1) * sizeof *a->gpus);
	a->ngpus--;
	unmark_detected(w);
	changed(w);
	return 0;
}

/* ---- VM step --------------------------------------------------------------- */

int
gw_wizard_open_vmx(gw_wizard *w, const char *path, gw_err *e)
{
	gw_vmx *v = NULL;
	char *full;

	if (path == NULL || *path == '\0') {
		gw_vmx_free(w->vmx);
		w->vmx = NULL;
		free(w->af.vmx_path);
		w->af.vmx_path = NULL;
		free(w->vmx_error);
		w->vmx_error = NULL;
		changed(w);
		return 0;
	}
	full = expand_tilde(path);
	if (gw_vmx_load(&v, full, e) != 0) {
		free(full);
		return -1;
	}
	gw_vmx_free(w->vmx);
	w->vmx = v;
	free(w->af.vmx_path);
	w->af.vmx_path = full;
	free(w->vmx_error);
	w->vmx_error = NULL;
	changed(w);
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
ends_with_vmx(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && gw_strieq(name + n - 4, ".vmx");
}

char **
gw_path_complete(const char *prefix)
{
	strv s = { NULL, 0 };
	const char *p = prefix ? prefix : "", *slash, *base;
	char *dirpart, *dirpath;
	size_t blen;
	DIR *d;
	struct dirent *de;

	slash = strrchr(p, '/');
	dirpart = slash ? gw_xstrndup(p, (size_t)(slash - p + 1)) : gw_xstrdup("");
	base = slash ? slash + 1 : p;
	blen = strlen(base);
	dirpath = *dirpart ? expand_tilde(dirpart) : gw_xstrdup(".");
	d = opendir(dirpath);
	while (d && (de = readdir(d)) != NULL) {
		const char *name = de->d_name;
		struct stat st;
		char *full;
		int ok;

		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if (name[0] == '.' && base[0] != '.')
			continue;
		if (strncmp(name, base, blen) != 0)
			continue;
		full = gw_xasprintf("%s%s%s", dirpath,
		                    dirpath[strlen(dirpath) - 1] == '/' ? "" : "/",
		                    name);
		ok = stat(full, &st) == 0;
		free(full);
		if (!ok)
			continue;
		if (S_ISDIR(st.st_mode))
			strv_push(&s, gw_xasprintf("%s%s/", dirpart, name));
		else if (S_ISREG(st.st_mode) && ends_with_vmx(name))
			strv_push(&s, gw_xasprintf("%s%s", dirpart, name));
	}
	if (d)
		closedir(d);
	free(dirpart);
	free(dirpath);
	if (s.n > 1)
		qsort(s.v, s.n, sizeof *s.v, cmp_str);
	return strv_finish(&s);
}

char *
gw_common_prefix(char *const *v)
{
	size_t len, i, k;

	if (v == NULL || v[0] == NULL)
		return gw_xstrdup("");
	len = strlen(v[0]);
	for (i = 1; v[i]; i++) {
		for (k = 0; k < len && v[i][k] == v[0][k]; k++)
			;
		len = k;
	}
	/* do not cut a UTF-8 character: back off over continuation bytes */
	while (len > 0 && ((unsigned char)v[0][len] & 0xc0) == 0x80)
		len--;
	return gw_xstrndup(v[0], len);
}

/* ---- MMIO step ------------------------------------------------------------- */

/* The rule's size for the current GPUs (0 when no plan can be made). */
static uint64_t
current_rule(const gw_wizard *w)
{
	gw_answers a;
	gw_plan p;
	gw_err le;
	uint64_t rule = 0;

	if (w->have_plan)
		return w->plan.rule_gb;
	a = w->af.a;             /* shallow: gw_plan_build only reads it */
	a.mmio_gb = 0;
	a.allow_below_rule = 0;
	if (gw_plan_build(&a, w->table, w->vmx, &p, &le) == 0)
		rule = p.rule_gb;
	gw_plan_free(&p);
	return rule;
}

int
gw_wizard_set_mmio(gw_wizard *w, uint64_t gb, int confirmed, gw_err *e)
{
	uint64_t rule;

	if (gb > GW_MMIO_MAX_WINDOW_GB) {
		gw_err_set(e, _("MMIO size: %llu GB is not plausible (expected 1..%llu)"),
		           (unsigned long long)gb,
		           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
		return -1;
	}
	if (gb == 0) {
		w->af.a.mmio_gb = 0;
		w->af.a.allow_below_rule = 0;
		changed(w);
		return 0;
	}
	rule = current_rule(w);
	if (rule && gb < rule && !confirmed) {
		gw_err_set(e, _("MMIO size: %llu GB is below the rule's %llu GB (%s) and the VM may not power on; confirm to use it anyway"),
		           (unsigned long long)gb, (unsigned long long)rule,
		           SRC_MMIO);
		return -1;
	}
	w->af.a.mmio_gb = gb;
	w->af.a.allow_below_rule = confirmed && (rule == 0 || gb < rule);
	changed(w);
	return 0;
}

/* ---- options step ----------------------------------------------------------- */

void
gw_wizard_set_uvm(gw_wizard *w, int on)
{
	w->af.a.uvm = on ? 1 : 0;
	changed(w);
}

void
gw_wizard_set_p2p(gw_wizard *w, int on)
{
	w->af.a.p2p = on ? 1 : 0;
	changed(w);
}

void
gw_wizard_set_reserve(gw_wizard *w, int on)
{
	w->af.a.reserve = on ? 1 : 0;
	changed(w);
}

void
gw_wizard_set_code43(gw_wizard *w, int on)
{
	w->af.a.code43 = on ? 1 : 0;
	changed(w);
}

void
gw_wizard_set_force(gw_wizard *w, int on)
{
	w->af.force = on ? 1 : 0;
	changed(w);
}

void
gw_wizard_set_formats(gw_wizard *w, int mask)
{
	w->af.formats = mask & ALL_FORMATS;
	changed(w);
}

int
gw_wizard_set_outdir(gw_wizard *w, const char *dir, gw_err *e)
{
	struct stat st;
	char *full;

	if (dir == NULL || *dir == '\0') {
		gw_err_set(e, "%s", _("Output directory: empty (expected the directory to write the snippets into)"));
		return -1;
	}
	full = expand_tilde(dir);
	if (stat(full, &st) == 0 && !S_ISDIR(st.st_mode)) {
		gw_err_set(e, _("%s: exists and is not a directory"), full);
		free(full);
		return -1;
	}
	free(w->af.out_dir);
	w->af.out_dir = full;
	changed(w);
	return 0;
}

int
gw_wizard_set_esxi(gw_wizard *w, const char *version, gw_err *e)
{
	if (version && *version && gw_esxi_to_hw(version) == 0) {
		gw_err_set(e, _("ESXi version: '%s' is not a known ESXi version (expected e.g. 7.0U3, 8.0U2, 9.0)"),
		           version);
		return -1;
	}
	free(w->af.a.esxi_version);
	w->af.a.esxi_version = version && *version ? gw_xstrdup(version) : NULL;
	changed(w);
	return 0;
}

int
gw_wizard_set_memory(gw_wizard *w, long mb, gw_err *e)
{
	if (mb < 0 || mb > 64L * 1024 * 1024) {
		gw_err_set(e, _("Memory: %ld is not a memory size in MB (expected 1..67108864)"),
		           mb);
		return -1;
	}
	w->af.a.memory_mb = mb;
	changed(w);
	return 0;
}

int
gw_wizard_set_name(gw_wizard *w, const char *name, gw_err *e)
{
	const char *q;

	if (name && *name) {
		for (q = name; *q; q++)
			if (!isalnum((unsigned char)*q) && *q != '-' && *q != '_')
				break;
		if (*q != '\0' || strlen(name) > 80) {
			gw_err_set(e, _("VM extension name: '%s' may contain only letters, digits, '-' and '_' (no periods), at most 80"),
			           name);
			return -1;
		}
	}
	free(w->af.a.name);
	w->af.a.name = name && *name ? gw_xstrdup(name) : NULL;
	changed(w);
	return 0;
}

int
gw_wizard_add_bdf(gw_wizard *w, const char *bdf, gw_err *e)
{
	if (gw_answers_add_bdf(&w->af.a, bdf, _("Host PCI address"), e) != 0)
		return -1;
	changed(w);
	return 0;
}

void
gw_wizard_clear_bdfs(gw_wizard *w)
{
	size_t i;

	for (i = 0; i < w->af.a.nbdfs; i++)
		free(w->af.a.bdfs[i]);
	free(w->af.a.bdfs);
	w->af.a.bdfs = NULL;
	w->af.a.nbdfs = 0;
	changed(w);
}

int
gw_wizard_set_system_id(gw_wizard *w, const char *uuid, gw_err *e)
{
	if (uuid == NULL || *uuid == '\0') {
		free(w->af.a.system_id);
		w->af.a.system_id = NULL;
	} else if (gw_answers_set_system_id(&w->af.a, uuid, _("System id"),
	                                    e) != 0) {
		return -1;
	}
	changed(w);
	return 0;
}

/* ---- review step: saving the answers ----------------------------------------- */

static char *
absolute(const char *p)
{
	char *cwd;
	char *out;

	if (p[0] == '/')
		return gw_xstrdup(p);
	cwd = getcwd(NULL, 0);
	if (cwd == NULL)
		return gw_xstrdup(p);
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	out = gw_xasprintf("%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, p);
	free(cwd);
	return out;
}

/* target as the answers file in dir will read it back: relative when it
 * lies under dir, else absolute. */
static char *
path_for_answers(const char *target, const char *dir)
{
	char *abs = absolute(target), *out;
	size_t n = strlen(dir);

	if (strncmp(abs, dir, n) == 0 && abs[n] == '/' && abs[n + 1] != '\0') {
		out = gw_xstrdup(abs + n + 1);
		free(abs);
		return out;
	}
	return abs;
}

int
gw_wizard_save_answers(gw_wizard *w, const char *path, gw_err *e)
{
	gw_answers_file copy;
	char *apath, *dir, *d;
	int rc;

	if (path == NULL || *path == '\0') {
		gw_err_set(e, "%s", _("Answers file: no file name given"));
		return -1;
	}
	if (w->af.a.ngpus == 0) {
		gw_err_set(e, _("%s: no GPU chosen: choose at least one before saving the answers"),
		           path);
		return -1;
	}
	if (w->af.formats == 0 && w->af.vmx_path == NULL) {
		gw_err_set(e, _("%s: nothing to write: choose an output format or a .vmx before saving the answers"),
		           path);
		return -1;
	}
	apath = absolute(path);
	d = gw_xstrdup(apath);
	dir = gw_xstrdup(dirname(d));
	free(d);
	copy = w->af;            /* shallow: only the two paths differ */
	copy.vmx_path = w->af.vmx_path ? path_for_answers(w->af.vmx_path, dir) : NULL;
	copy.out_dir = w->af.formats && w->af.out_dir ?
	               path_for_answers(w->af.out_dir, dir) : NULL;
	rc = gw_answers_save(&copy, path, e);
	free(copy.vmx_path);
	free(copy.out_dir);
	free(dir);
	free(apath);
	if (rc == 0)
		w->dirty = 0;
	return rc;
}

/* ---- write step --------------------------------------------------------------- */

/* The write step on an ESXi host: the snippets locally (gw_apply, all or
 * nothing), then the .vmx on the datastore (powered off only, backup kept
 * beside it) and vim-cmd vmsvc/reload.  When the .vmx cannot be saved the
 * snippets just written are removed again. */
static int
write_esxi(gw_wizard *w)
{
	const gw_esxi_vm *vm = &w->esxi_vms.vms[w->esxi_vm];
	gw_vmx *copy = NULL;
	char *before, *after, *backup = NULL;
	size_t blen, alen;
	int changed_vmx;
	gw_err le;

	le.msg[0] = '\0';
	before = gw_vmx_serialize(w->vmx, &blen);
	if (gw_vmx_parse(&copy, before, blen, gw_vmx_name(w->vmx), &le) != 0 ||
	    gw_plan_apply_vmx(&w->plan, copy, &le) != 0) {
		free(before);
		gw_vmx_free(copy);
		snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
		return -1;
	}
	after = gw_vmx_serialize(copy, &alen);
	changed_vmx = blen != alen || memcmp(before, after, blen) != 0;
	free(before);
	free(after);
	if (w->af.formats &&
	    gw_apply(&w->af, &w->plan, NULL, w->af.force, &w->result, &le) != 0) {
		gw_vmx_free(copy);
		snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
		return -1;
	}
	if (changed_vmx &&
	    (gw_esxi_session_save_vmx(w->runner, vm->vmid, w->esxi_vmx_path, copy,
	                              &backup, &le) != 0)) {
		unwrite_outputs(w);
		gw_vmx_free(copy);
		snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
		return -1;
	}
	w->esxi_reloaded = 0;
	if (changed_vmx &&
	    gw_esxi_session_reload(w->runner, vm->vmid, &le) == 0)
		w->esxi_reloaded = 1;
	free(w->result.vmx_path);
	w->result.vmx_path = gw_xstrdup(w->esxi_vmx_path);
	free(w->result.backup);
	w->result.backup = backup;
	w->result.vmx_unchanged = !changed_vmx;
	free(w->esxi_backup);
	w->esxi_backup = backup ? gw_xstrdup(backup) : NULL;
	/* w->vmx stays the file as opened, as in the local write */
	gw_vmx_free(copy);
	if (changed_vmx && !w->esxi_reloaded)
		/* TRANSLATORS: %s says why vim-cmd vmsvc/reload failed. */
		snprintf(w->write_error, sizeof w->write_error,
		         _("Saved, but the VM could not be reloaded: %s; run vim-cmd vmsvc/reload %lu on the host."),
		         le.msg, vm->vmid);
	w->written = 1;
	w->dirty = 0;
	return 0;
}

int
gw_wizard_write(gw_wizard *w)
{
	gw_vmx *copy = NULL;
	gw_err le;
	int rc;

	gw_apply_result_free(&w->result);
	w->written = 0;
	w->write_error[0] = '\0';
	if (check_review(w, w->write_error, sizeof w->write_error) != 0)
		return -1;
	le.msg[0] = '\0';
	if (w->mode == GW_MODE_ESXI_SSH && w->runner != NULL && w->vmx != NULL &&
	    w->esxi_vm >= 0)
		return write_esxi(w);
	if (w->mode == GW_MODE_VSPHERE && w->vs != NULL && w->vmx != NULL &&
	    w->esxi_vm >= 0)
		return write_vsphere(w);
	if (w->vmx) {
		size_t len;
		char *bytes = gw_vmx_serialize(w->vmx, &len);

		rc = gw_vmx_parse(&copy, bytes, len, gw_vmx_name(w->vmx), &le);
		free(bytes);
		if (rc != 0) {
			snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
			return -1;
		}
	}
	rc = gw_apply(&w->af, &w->plan, copy, w->af.force, &w->result, &le);
	gw_vmx_free(copy);
	if (rc != 0) {
		snprintf(w->write_error, sizeof w->write_error, "%s", le.msg);
		return -1;
	}
	w->written = 1;
	w->dirty = 0;
	return 0;
}

/* ---- next commands ------------------------------------------------------------ */

static int
plan_has_kind(const gw_plan *p, gw_set_kind k)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++)
		if (p->settings[i].kind == k)
			return 1;
	return 0;
}

/* Where fmt went: the written path, else the planned one (malloc'ed). */
static char *
fmt_path(const gw_wizard *w, int fmt)
{
	const char *f = gw_format_filename(fmt);
	size_t i, n;

	for (i = 0; w->written && f && i < w->result.nwritten; i++) {
		n = strlen(w->result.written[i]);
		if (n >= strlen(f) &&
		    strcmp(w->result.written[i] + n - strlen(f), f) == 0)
			return gw_xstrdup(w->result.written[i]);
	}
	return gw_wizard_output_path(w, fmt);
}

char **
gw_wizard_next_commands(const gw_wizard *w)
{
	const gw_plan *p = w->have_plan ? &w->plan : NULL;
	const char *name = p && p->name ? p->name : "<name>";
	strv s = { NULL, 0 };
	int ngpu = 0, vgpu = 0, uvm;
	size_t i;
	char *path;

	if (p) {
		for (i = 0; i < p->ngpus; i++) {
			ngpu += p->gpus[i].count;
			if (p->gpus[i].profile)
				vgpu = 1;
		}
	} else {
		for (i = 0; i < w->af.a.ngpus; i++) {
			ngpu += w->af.a.gpus[i].count;
			if (w->af.a.gpus[i].profile)
				vgpu = 1;
		}
	}
	uvm = p ? plan_has_kind(p, GW_SET_UVM) : w->af.a.uvm;

	/* the host */
	if (w->mode == GW_MODE_VSPHERE && w->vmx && w->esxi_vm >= 0) {
		const char *vmn = w->esxi_vms.vms[w->esxi_vm].name;

		if (!w->written)
			/* TRANSLATORS: %s is the VM's name. */
			strv_push(&s, gw_xasprintf(_("gpuwiz reconfigures %s through the API (ReconfigVM_Task); it must stay powered off until then"),
			                           vmn));
		else if (!w->result.vmx_unchanged)
			strv_push(&s, gw_xasprintf(_("Reconfigured %s through the API (ReconfigVM_Task)"),
			                           vmn));
		/* TRANSLATORS: %s is the VM's name. */
		strv_push(&s, gw_xasprintf(_("Power on %s in the vSphere Client (Actions > Power > Power On)"),
		                           vmn));
	} else if (w->mode == GW_MODE_ESXI_SSH && w->vmx && w->esxi_vm >= 0) {
		unsigned long id = w->esxi_vms.vms[w->esxi_vm].vmid;
		char *c;

		if (!w->written) {
			c = gw_xasprintf("vim-cmd vmsvc/power.getstate %lu", id);
			strv_push(&s, gw_xasprintf(_("Check that the VM is off: %s (expect Powered off)"), c));
			free(c);
			/* TRANSLATORS: %s is a path on the datastore. */
			strv_push(&s, gw_xasprintf(_("gpuwiz saves %s on the host (backup beside it) and reloads the VM"),
			                           w->esxi_vmx_path));
		} else if (!w->result.vmx_unchanged) {
			c = gw_xasprintf("vim-cmd vmsvc/reload %lu", id);
			/* TRANSLATORS: %s is the backup's path, then a command. */
			strv_push(&s, gw_xasprintf(_("Saved on the host (backup: %s) and reloaded (%s)"),
			                           w->result.backup ? w->result.backup : "-", c));
			free(c);
		}
		c = gw_xasprintf("vim-cmd vmsvc/power.on %lu", id);
		strv_push(&s, gw_xasprintf(_("Power on the VM: %s (%s lists the Vmid)"),
		                           c, "vim-cmd vmsvc/getallvms"));
		free(c);
	} else if (w->vmx && w->af.vmx_path) {
		strv_push(&s, gw_xasprintf(_("On the ESXi host, find the VM's id: %s (the Vmid column)"),
		                           "vim-cmd vmsvc/getallvms"));
		strv_push(&s, gw_xasprintf(_("Check that the VM is off: %s (expect Powered off)"),
		                           "vim-cmd vmsvc/power.getstate <vmid>"));
		strv_push(&s, gw_xasprintf(_("If %s is a copy, put it back in the VM's folder on the datastore first (VM off)"),
		                           w->af.vmx_path));
		strv_push(&s, gw_xasprintf(_("After editing the .vmx on the host with the VM off: %s"),
		                           "vim-cmd vmsvc/reload <vmid>"));
		strv_push(&s, gw_xasprintf(_("Power on the VM: %s (%s lists the Vmid)"),
		                           "vim-cmd vmsvc/power.on <vmid>",
		                           "vim-cmd vmsvc/getallvms"));
	} else if (w->af.formats & GW_FMT_VMX) {
		path = fmt_path(w, GW_FMT_VMX);
		strv_push(&s, gw_xasprintf(_("With the VM off, add the lines of %s to its .vmx (or in the vSphere Client: Edit Settings > VM Options > Advanced > Configuration Parameters)"),
		                           path ? path : gw_format_filename(GW_FMT_VMX)));
		free(path);
		strv_push(&s, gw_xasprintf(_("After editing the .vmx on the host with the VM off: %s"),
		                           "vim-cmd vmsvc/reload <vmid>"));
		strv_push(&s, gw_xasprintf(_("Power on the VM: %s (%s lists the Vmid)"),
		                           "vim-cmd vmsvc/power.on <vmid>",
		                           "vim-cmd vmsvc/getallvms"));
	}
	if (uvm && vgpu)
		strv_push(&s, gw_xstrdup(_("Unified memory takes effect only after a power-cycle (off, then on), not a guest reboot; vMotion of this VM's vGPUs is then disabled")));

	/* Tanzu */
	if (w->af.formats & GW_FMT_BOSH) {
		path = fmt_path(w, GW_FMT_BOSH);
		strv_push(&s, gw_xasprintf(_("BOSH: merge the vm_extensions entry of %s into the cloud config (%s, edit, %s) and list %s in the instance group's vm_extensions"),
		                           path ? path : "", "bosh cloud-config > cloud-config.yml",
		                           "bosh update-cloud-config cloud-config.yml", name));
		free(path);
	}
	if (w->af.formats & GW_FMT_OPSMAN) {
		char *cmd;

		path = fmt_path(w, GW_FMT_OPSMAN);
		cmd = gw_xasprintf("om curl --path /api/v0/staged/vm_extensions/%s --request PUT --data \"$(cat %s)\"",
		                   name, path ? path : "");
		strv_push(&s, gw_xasprintf(_("Ops Manager: %s (or %s with the same name and cloud_properties under vm-extension-config:)"),
		                           cmd, "om create-vm-extension -c FILE.yml"));
		free(cmd);
		free(path);
		strv_push(&s, gw_xasprintf(_("Ops Manager: attach %s with additional_vm_extensions in the job's resource_config, then Apply Changes"),
		                           name));
	}
	if (w->af.formats & GW_FMT_TILE) {
		path = fmt_path(w, GW_FMT_TILE);
		strv_push(&s, gw_xasprintf(_("AI Services tile: enter the values of %s as a custom VM type in Infrastructure Config, save, then Apply Changes (select the BOSH Director and the AI Services tile)"),
		                           path ? path : ""));
		free(path);
	}

	/* the guest */
	strv_push(&s, gw_xasprintf(_("In the guest: %s lists the GPU; the driver version: %s"),
	                           "nvidia-smi",
	                           "nvidia-smi --query-gpu=driver_version --format=csv,noheader"));
	if (vgpu)
		strv_push(&s, gw_xasprintf(uvm
		                           ? _("In the guest: %s (expect Virtualization Mode : VGPU; with unified memory the Addressing Mode is no longer None)")
		                           : _("In the guest: %s (expect Virtualization Mode : VGPU; Addressing Mode : None means no unified memory, which NCCL 2.27 and later need)"),
		                           "nvidia-smi -q | grep -Ei 'Virtualization Mode|Addressing Mode'"));
	else
		strv_push(&s, gw_xasprintf(_("In the guest: %s (expect Virtualization Mode : Pass-Through)"),
		                           "nvidia-smi -q | grep -Ei 'Virtualization Mode|Addressing Mode'"));
	strv_push(&s, gw_xasprintf(_("In the guest: %s (the Total lines: BAR1 mapped for the GPU, FB its framebuffer)"),
	                           "nvidia-smi -q | grep -A3 -E 'BAR1 Memory Usage|FB Memory Usage'"));
	if (ngpu >= 2) {
		char *cmd = gw_xasprintf("torchrun --nproc_per_node=%d nccl_check.py", ngpu);

		if (w->af.formats && w->af.out_dir) {
			char *script = gw_xasprintf("%s/%s", w->af.out_dir,
			                            GW_NCCL_CHECK_FILE);

			/* TRANSLATORS: %1$d GPUs, %2$s the torchrun command,
			 * %3$s the script's path, %4$d the GPU count again. */
			strv_push(&s, gw_xasprintf(_("In the guest, across the %1$d GPUs: %2$s (the NCCL all-reduce check; copy %3$s into the guest first; each rank prints ok %4$d.0)"),
			                           ngpu, cmd, script, ngpu));
			free(script);
		} else {
			strv_push(&s, gw_xasprintf(_("In the guest, across the %1$d GPUs: %2$s (the NCCL all-reduce check from gpuwiz's README; each rank prints ok %3$d.0)"),
			                           ngpu, cmd, ngpu));
		}
		free(cmd);
		strv_push(&s, gw_xasprintf(_("If NCCL fails, run it again with %s set and keep the log"),
		                           "NCCL_DEBUG=INFO"));
	}
	return strv_finish(&s);
}
