/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host.h: one interface to the host gpuwiz works on, whatever reaches it,
 * in the manner of pciutils' pci_methods: an opaque gw_host with a table
 * of methods per back end (host_linux.c: a Linux root; host_esxi.c: the
 * ESXi shell, local or over ssh through the runner; host_vsphere.c:
 * vCenter or ESXi through the API; host_sample.c: a bundled sample host,
 * opened as the Linux or the ESXi back end over its scratch copy).
 *
 * The front ends (src/cli, src/wizard) and the session call only this
 * interface; where a back end lacks something they ask gw_host_can().
 * Results come in the common types of hosttypes.h: check rows are
 * gw_finding (topic GW_TOPIC_HOST), GPUs gw_gpu_dev (driver = the ESXi
 * module, or the host's name through the API), VMs gw_vm (through the
 * API: Vmid = position + 1), power states gw_power.  Nothing here prints. */
#ifndef GW_HOST_H
#define GW_HOST_H

#include "gw.h"
#include "answers.h"
#include "esxi.h"
#include "gputable.h"
#include "hosttypes.h"
#include "linux.h"
#include "plan.h"
#include "runner.h"
#include "vmx.h"
#include "vsphere.h"

/* What reaches the host (the welcome step's modes map onto these). */
typedef enum {
	GW_HOST_LINUX,     /* a Linux root: /proc and /sys (--sysroot) */
	GW_HOST_ESXI,      /* the ESXi shell: local, ssh, or a sample */
	GW_HOST_VSPHERE    /* the vSphere API (vCenter or ESXi) */
} gw_host_kind;

/* Capabilities (gw_host_can). */
enum {
	HOST_CHECKS   = 1 << 0,  /* check rows */
	HOST_GPUS     = 1 << 1,  /* GPU list */
	HOST_VMS      = 1 << 2,  /* VMs, their .vmx read and written back */
	HOST_PASSTHRU = 1 << 3,  /* enable passthrough of a device */
	HOST_UPGRADE  = 1 << 4,  /* raise a VM's hardware version */
	HOST_RELOAD   = 1 << 5,  /* a .vmx written back is then reloaded */
	HOST_PICK     = 1 << 6,  /* the host picks free devices for a VM and
	                          * knows each device's system id (the API) */
	HOST_SYSROOT  = 1 << 7,  /* reads a local root (Linux) */
	HOST_BACKUP   = 1 << 8   /* a VM's .vmx copied to a backup beside it
	                          * (gw_host_backup_vmx) */
};

/* What the host says about itself (gw_host_probe_all, gw_host_facts_get). */
typedef struct gw_host_facts {
	char *release;     /* ESXi release for the answers ("8.0U2"), or NULL */
	char *system_id;   /* esxcli system uuid get, or NULL */
	char *system_id_error;  /* why there is none (NULL when known) */
} gw_host_facts;
void gw_host_facts_free(gw_host_facts *f);

/* The VMs of a host.  power[] is set where the listing itself knows each
 * VM's state (the API); NULL where it must be asked (gw_host_power). */
typedef struct gw_host_vms {
	gw_vm_list list;
	gw_power *power;
} gw_host_vms;
void gw_host_vms_free(gw_host_vms *v);

/* Everything a host step shows, read in one go (gw_host_probe_all).  Owned by
 * the caller: free with gw_host_probe_free. */
typedef struct gw_host_probe {
	gw_finding *checks;       /* the rows of gpuwiz check (topic host) */
	size_t nchecks;
	char *checks_error;       /* why the checks could not run, or NULL */
	int fails;                /* FAIL rows (+1 for checks_error) */
	gw_gpu_dev *gpus;       /* onboard (BMC, emulated) displays left out */
	size_t ngpus;
	char *gpus_error;         /* why the GPUs could not be listed, or NULL */
	gw_host_vms vms;          /* hosts with VMs (HOST_VMS) */
	char *vms_error;
	gw_host_facts facts;
} gw_host_probe;
void gw_host_probe_free(gw_host_probe *p);

/* What writing a VM's .vmx back did (gw_host_write_vmx). */
typedef struct gw_host_write {
	int changed;          /* something was sent (0: already so) */
	char *where;          /* the .vmx written, as shown: its path on the
	                       * host, or "SERVER:VM" through the API */
	char *backup;         /* the backup beside it, or NULL */
	int reloaded;         /* HOST_RELOAD: the VM was reloaded */
	char reload_error[512];  /* why not, when changed and not reloaded */
} gw_host_write;
void gw_host_write_free(gw_host_write *w);

/* ---- opening --------------------------------------------------------- */

/* How the command line names the host (cli: --sysroot, --ssh...,
 * --sample-host, --url...).  Zero fields are absent. */
enum { GW_HOST_NEED_ANY, GW_HOST_NEED_ESXI, GW_HOST_NEED_LINUX };
typedef struct gw_host_spec {
	const char *sysroot;            /* --sysroot DIR */
	const char *ssh;                /* --ssh USER@HOST */
	const char *ssh_port, *ssh_identity;
	const char *const *ssh_opts;    /* --ssh-option, in order */
	size_t nssh_opts;
	int ssh_prompt;                 /* ssh may ask for a password once */
	const char *sample;             /* --sample-host NAME */
	int keep_scratch;               /* keep the sample's scratch on close */
	const char *url, *user, *password;   /* --url, --user (vSphere) */
	const char *thumbprint, *cafile;
	int insecure;
	char *untrusted;                /* NULL, or GW_VS_FP_LEN bytes: an API
	                                 * certificate that does not verify
	                                 * leaves its SHA-256 fingerprint here
	                                 * (gw_vs_opts.untrusted), for the
	                                 * caller to show and pin */
	long timeout;                   /* --timeout SECONDS (0 = default) */
	int esxi_shell;                 /* the ESXi shell when vim-cmd is on
	                                 * the PATH (and no --sysroot) */
	int need;                       /* GW_HOST_NEED_* */
	const char *listing;            /* a saved `esxcli hardware pci list`
	                                 * read instead of a host (gpus
	                                 * --esxcli-file): only checked here */
	const char *lspci;              /* a saved lspci -nnvv capture (gpus
	                                 * --lspci-file): only checked here */
} gw_host_spec;

/* Check what the spec combines (the one place of the exclusions between
 * the ways to a host, --url with --user, --thumbprint against --insecure)
 * without connecting: 0, or -1 and e. */
int gw_host_spec_check(const gw_host_spec *s, gw_err *e);
/* --ssh-port's value: a port 1..65535 (digits only).  0, or -1 and e
 * (in the wizard's words too: gw_err_text). */
int gw_host_ssh_port_check(const char *port, gw_err *e);
/* Open the host the spec names: a sample, ssh, the vSphere API (password
 * given), the ESXi shell (esxi_shell and vim-cmd on the PATH, need not
 * LINUX, no sysroot), else the Linux root (sysroot, "/" when NULL).
 * need ESXI without an ESXi host, or LINUX with one: -1 and e (the
 * command line's messages). */
int gw_host_open(const gw_host_spec *s, gw_host **out, gw_err *e);
/* The back ends one by one.  Ownership of r / s passes to the host. */
gw_host *gw_host_open_linux(const char *sysroot);
gw_host *gw_host_open_esxi(gw_runner *r, const char *label);
gw_host *gw_host_open_vsphere(gw_vs *s, const char *label);
/* A sample host (samplehost.h), as the Linux or the ESXi back end over
 * its scratch copy; keep_scratch: the scratch stays after close. */
int gw_host_open_sample(const char *name, int keep_scratch, gw_host **out,
                        gw_err *e);
void gw_host_close(gw_host *h);

/* ---- what it is -------------------------------------------------------- */

gw_host_kind gw_host_kind_of(const gw_host *h);
int gw_host_can(const gw_host *h, int cap);
/* Whether h takes Dynamic DirectPath I/O: a vCenter through the API, which
 * places the VM (the one rule; h NULL: no). */
int gw_host_takes_dynamic(const gw_host *h);
/* a->dynamic on a host that does not take it: -1 and e (the command
 * line's words and the wizard's); else, and with no host (an offline
 * .vmx), 0. */
int gw_host_dynamic_check(const gw_host *h, const gw_answers *a, gw_err *e);
#define host_can(h, cap) gw_host_can((h), (cap))
const char *gw_host_label(const gw_host *h);    /* "root@esx01", URL... */
const char *gw_host_sysroot(const gw_host *h);  /* Linux: its root */
const char *gw_host_scratch(const gw_host *h);  /* a sample's scratch */
void gw_host_set_progress(gw_host *h, gw_host_progress_fn fn, void *ctx);

/* ---- reading ----------------------------------------------------------- */

/* The host step's whole read: rows, GPUs, VMs, facts (the table names the
 * GPUs; may be NULL).  Returns p->fails.  Never fails as a call: what
 * could not be read is in the *_error fields and the rows. */
int gw_host_probe_all(gw_host *h, const gw_table *t, gw_host_probe *p);
/* The host's release and system id alone (vmx --vm). */
int gw_host_facts_get(gw_host *h, gw_host_facts *f, gw_err *e);
/* The VMs alone (vms, vmx --vm). */
int gw_host_list_vms(gw_host *h, gw_host_vms *out, gw_err *e);
/* vm from the last listing: its power state now. */
int gw_host_power(gw_host *h, const gw_vm *vm, gw_power *out,
                  gw_err *e);
/* A stable key of vm across listings: its .vmx path on the host, or its
 * name through the API (malloc'ed). */
int gw_host_vm_key(gw_host *h, const gw_vm *vm, char **key, gw_err *e);
/* Read vm's .vmx (*where: its path on the host or its name, malloc'ed);
 * *release: the release of the VM's own host when the back end knows it
 * (the API), else NULL. */
int gw_host_read_vmx(gw_host *h, const gw_vm *vm, gw_vmx **out,
                     char **where, char **release, gw_err *e);
/* Passthrough of GPU idx of the last probe: 1 on, 0 off, -1 unknown. */
int gw_host_gpu_passthru(const gw_host *h, size_t idx);
/* Through the API, the devices for vm: what the VM has counts, free ones
 * of its host are picked for the rest (a->nbdfs == 0 only), and the system
 * id of the first (a->system_id NULL only).  *picked: "a, b" or NULL.
 * Other back ends: no change, 0. */
int gw_host_pick(gw_host *h, const gw_vm *vm, gw_answers *a,
                 char **picked, int *attached, gw_err *e);

/* ---- changing ---------------------------------------------------------- */

/* Write vm's .vmx back (where: as gw_host_read_vmx gave it; before: the
 * file as read): after is the file with the plan applied (the
 * ESXi shell saves it, backup beside it, and reloads), p the plan (the API
 * sends its changes with ReconfigVM_Task).  taken: the backup that
 * gw_host_backup_vmx made of this file earlier in the same write (before
 * a host change rewrote it), or NULL; with one, no second backup is made
 * and res->backup names that one: a write keeps one backup, the file as it
 * was before anything changed.  Never a VM that is not powered off; a
 * file with no write bit for anyone only with force.  -1
 * and e on refusal or failure (nothing changed). */
int gw_host_write_vmx(gw_host *h, const gw_vm *vm, const char *where,
                      const gw_plan *p, const gw_vmx *before, const gw_vmx *after,
                      const char *taken, int force, gw_host_write *res,
                      gw_err *e);
/* HOST_BACKUP: copy vm's .vmx (where: as gw_host_read_vmx gave it) to a
 * backup beside it, as it is now, before a host change touches the VM
 * (an upgrade rewrites the file); *backup gets its path (malloc'ed).  -1
 * and e on failure (nothing changed). */
int gw_host_backup_vmx(gw_host *h, const char *where, char **backup,
                       gw_err *e);
/* Enable passthrough of GPU idx of the last probe (HOST_PASSTHRU);
 * *reboot = 1 when the host must reboot first. */
int gw_host_enable_gpu(gw_host *h, size_t idx, int *reboot, gw_err *e);
/* Enable passthrough of the device bdf (on the API: of host_name, NULL =
 * the one host that has it). */
int gw_host_enable_bdf(gw_host *h, const char *bdf, const char *host_name,
                       int *reboot, gw_err *e);
/* What gw_host_enable_bdf would do, asked of the host without changing
 * it: 0 it would enable the device, 1 nothing to do (already on), -1 and
 * e it would refuse (no such device, not capable, a controller holding a
 * datastore or the boot device, several hosts have it).  A back end that
 * cannot tell says 0. */
int gw_host_enable_check(gw_host *h, const char *bdf, const char *host_name,
                         gw_err *e);
/* Raise vm's hardware version from current to target (powered off
 * only; never down: target <= current is refused). */
int gw_host_upgrade(gw_host *h, const gw_vm *vm, int current, int target,
                    gw_err *e);

/* ---- the API's own view (the vsphere command's list) -------------------- */

/* The vSphere session (NULL for another back end), and its inventory as
 * last read (read now when not yet; NULL and e on failure or for another
 * back end). */
gw_vs *gw_host_vs(const gw_host *h);
const gw_vs_inventory *gw_host_inventory(gw_host *h, gw_err *e);

/* The host's GPUs as gpuwiz gpus shows them (HOST_GPUS): every
 * display-class device, on-board displays too, with the MMIO size and the
 * notes (gw_gpu_list_sum); t names them (may be NULL).  Linux: libpci
 * under the root (a sample's said as "/sys/bus/pci"); the ESXi shell:
 * `esxcli hardware pci list` read as a saved one is; the API: every
 * host's hardware.pciDevice.  0, or -1 and e (*out empty). */
int gw_host_gpus(gw_host *h, const gw_table *t, gw_gpu_list *out,
                 gw_err *e);

/* Many writes in a row (gpuwiz vsphere apply over several VMs): after a
 * write the back end reads again only what a later write needs (the
 * vSphere inventory once a passthrough device was attached, for the next
 * VM's pick), not the whole host after every write as the wizard wants
 * (its screens show the host as it is now).  Off by default. */
void gw_host_set_batch(gw_host *h, int on);

/* Which bundled sample host (samplehost.h) h is: its name (its folder
 * under data/hosts) when opened by gw_host_open_sample, else NULL (also
 * for h NULL).  The welcome screen marks the sample in use. */
const char *gw_host_sample_name(const gw_host *h);
/* The label of a sample host made again in the language in use ("NAME
 * (sample)", gw_sample_label); other hosts' labels are addresses and
 * stay.  Safe on NULL. */
void gw_host_relabel(gw_host *h);

#endif
