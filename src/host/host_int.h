/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_int.h: what the back ends of host.h share (src/host/host*.c only). */
#ifndef GW_HOST_INT_H
#define GW_HOST_INT_H

#include "host.h"
#include "samplehost.h"

/* One back end, as pciutils' struct pci_methods.  A method left NULL is a
 * capability the back end lacks (gw_host_can says so from caps). */
typedef struct gw_host_methods {
	const char *name;
	gw_host_kind kind;
	int caps;
	void (*close)(gw_host *h);
	int (*probe)(gw_host *h, const gw_table *t, gw_host_probe *p);
	int (*facts)(gw_host *h, gw_host_facts *f, gw_err *e);
	int (*list_vms)(gw_host *h, gw_host_vms *out, gw_err *e);
	int (*power)(gw_host *h, const gw_vm *vm, gw_power *out,
	             gw_err *e);
	int (*vm_key)(gw_host *h, const gw_vm *vm, char **key, gw_err *e);
	int (*read_vmx)(gw_host *h, const gw_vm *vm, gw_vmx **out,
	                char **where, char **release, gw_err *e);
	int (*write_vmx)(gw_host *h, const gw_vm *vm, const char *where,
	                 const gw_plan *p,
	                 const gw_vmx *before, const gw_vmx *after,
	                 const char *taken, int force, gw_host_write *res, gw_err *e);
	int (*gpu_passthru)(const gw_host *h, size_t idx);
	int (*pick)(gw_host *h, const gw_vm *vm, gw_answers *a,
	            char **picked, int *attached, gw_err *e);
	int (*enable_gpu)(gw_host *h, size_t idx, int *reboot, gw_err *e);
	int (*enable_check)(gw_host *h, const char *bdf,
	                    const char *host_name, gw_err *e);
	int (*enable_bdf)(gw_host *h, const char *bdf, const char *host_name,
	                  int *reboot, gw_err *e);
	int (*upgrade)(gw_host *h, const gw_vm *vm, int current, int target,
	               gw_err *e);
	int (*backup_vmx)(gw_host *h, const char *where, char **backup,
	                  gw_err *e);
	/* every display-class device, the list summed (gw_gpu_list_sum) */
	int (*gpus)(gw_host *h, const gw_table *t, gw_gpu_list *out,
	            gw_err *e);
} gw_host_methods;

struct gw_host {
	const gw_host_methods *m;
	char *label;
	char *sysroot;              /* Linux */
	gw_runner *runner;          /* ESXi: owned */
	gw_esxi_pci_list pci;       /* ESXi: the last esxcli hardware pci list */
	char **gpu_bdf;             /* per GPU of the last probe: its BDF */
	size_t ngpu;
	gw_vs *vs;                  /* vSphere: owned */
	gw_vs_inventory inv;        /* vSphere: the last inventory */
	int have_inv;
	size_t *gpu_host;           /* vSphere: per GPU its host in inv */
	gw_sample smp;              /* a sample host */
	int have_sample, keep_scratch;
	gw_host_progress_fn progress;
	void *progress_ctx;
	int batch;                  /* gw_host_set_batch */
};

extern const gw_host_methods gw_host_linux_methods;
extern const gw_host_methods gw_host_esxi_methods;
extern const gw_host_methods gw_host_vsphere_methods;

gw_host *gw_host_new(const gw_host_methods *m, const char *label);
/* Rows (host.c): one appended to p->checks; the strings are taken over. */
void gw_host_row(gw_host_probe *p, const char *id, gw_sev st,
                 char *title, char *msg, char *fix);
/* One GPU's passthrough row (esxcli or the API).  title, pending,
 * off_fix (the command line's words) and off_ui (the wizard's: press e)
 * are taken over.  Returns 1 for a FAIL row. */
int gw_host_passthru_row(gw_host_probe *p, char *title, int capable,
                         int enabled, int active, char *pending,
                         char *off_fix, char *off_ui);
/* The ESXi host's vGPU readiness rows (host_esxi_vgpu.c). */
void gw_host_esxi_vgpu_rows(gw_host *h, gw_host_probe *p);
/* The vGPU readiness rows both ESXi back ends show (host_vgpu_rows.c).
 * host: the host's name in the title, NULL for the one host of an ESXi
 * shell.  The row just added gets source and fix_ui (taken over). */
void gw_host_row_extras(gw_host_probe *p, const char *source, char *fix_ui);
/* The default graphics type (esxcli's "Shared" or the API's "shared");
 * type NULL: an INFO row saying why (why).  api: the fix names the
 * vSphere Client first.  Returns 1 when it is Shared Direct. */
int gw_host_graphics_row(gw_host_probe *p, const char *host,
                         const char *type, const char *why, int api);
/* The vGPU manager: installed 1, 0 (WARN when the host is set to Shared
 * Direct, else INFO) or -1 (cannot tell: INFO); detail taken over. */
void gw_host_manager_row(gw_host_probe *p, const char *host, int installed,
                         char *detail, int shared_direct);
/* One GPU's graphics type (esxcli graphics device list, or the API's
 * config.graphicsInfo): Shared Direct PASS, direct INFO, else WARN where
 * the host is set to Shared Direct (host_sd; otherwise no row: the
 * host's row says it); vms the VMs on it, -1 unknown. */
void gw_host_gpu_graphics_row(gw_host_probe *p, const char *bdf,
                              const char *name, const char *type, long vms,
                              int host_sd);
/* Above-4G decoding cannot be seen from ESXi: a reminder row. */
void gw_host_above4g_row(gw_host_probe *p);
/* The "GPUs found" row, FAIL with none (none_msg taken over). */
int gw_host_gpus_row(gw_host_probe *p, char *none_msg);
/* Keep the GPU list's BDFs for enable_gpu / gpu_passthru. */
void gw_host_keep_bdfs(gw_host *h, const gw_gpu_dev *g, size_t n);
void gw_host_drop_bdfs(gw_host *h);

#endif
