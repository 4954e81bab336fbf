/* wizard_int.h: the wizard's model, for src/wizard/ and white-box tests
 * only.  The screens in ui/ see a gw_wizard through the accessors of
 * wizard.h (doc/design.md, "The wizard model"). */
#ifndef GW_WIZARD_INT_H
#define GW_WIZARD_INT_H

#include "wizard.h"

struct gw_wizard {
	const gw_table *table;  /* borrowed */
	gw_answers_file af;     /* answers, vmx path, out dir, formats, force */
	gw_mode mode;
	gw_step step;
	int visited[GW_NSTEPS];
	int host_ok[GW_NHOST];  /* operator confirmed the BIOS item */
	gw_vmx *vmx;            /* loaded from af.vmx_path; NULL when none */
	char *vmx_error;        /* why af.vmx_path could not be used, or NULL */
	gw_plan plan;
	int have_plan;
	char plan_error[1024];  /* why there is no plan ("" when have_plan) */
	int dirty;              /* changed since loaded/saved and not written */
	int written;            /* the write step succeeded */
	gw_apply_result result; /* what the write step wrote */
	char write_error[1024];
	/* GW_MODE_LINUX: the probes of the host (gw_wizard_probe_host) */
	int probed;             /* the probes have run */
	gw_linux_check *checks; /* gpuwiz check's rows */
	size_t nchecks;
	char *checks_error;     /* why the checks could not run, or NULL */
	gw_linux_gpu *detected; /* gpuwiz gpus' list, onboard displays left out */
	size_t ndetected;
	char *detect_error;     /* why the GPUs could not be listed, or NULL */
	int *detected_added;    /* per detected GPU: added with its BDF */
	int host_override;      /* the operator goes on despite FAIL rows */
	char *sysroot;          /* GW_MODE_LINUX root; NULL = gw_wizard_sysroot() */
	/* GW_MODE_ESXI_SSH: the host through a runner (gw_wizard_attach_esxi);
	 * checks/detected above hold its rows and GPUs (driver = the ESXi
	 * module, no BARs, no IOMMU group) */
	gw_runner *runner;      /* owned; NULL = no ESXi host */
	char *esxi_label;       /* "root@esx01", or the sample's name */
	gw_esxi_pci_list esxi_pci;
	gw_esxi_vm_list esxi_vms;
	char *esxi_vms_error;   /* why the VMs could not be listed, or NULL */
	long esxi_vm;           /* index into esxi_vms.vms of the open VM, -1 */
	gw_esxi_power esxi_power; /* its state when opened / last checked */
	char *esxi_vmx_path;    /* its .vmx on the host */
	int esxi_reloaded;      /* the write step reloaded the VM */
	char *esxi_backup;      /* the write step's backup on the datastore */
	char *scratch;          /* a sample host: where the writes go (shown) */
	/* GW_MODE_VSPHERE: vCenter or ESXi through the API
	 * (gw_wizard_attach_vsphere).  The screens of the ESXi mode show it:
	 * checks/detected hold the hosts' rows and GPUs, esxi_vms the VMs
	 * (Vmid = position), esxi_vm the open one. */
	gw_vs *vs;              /* owned; NULL = none */
	gw_vs_inventory vs_inv;
	size_t *vs_det_host;    /* per detected GPU: its host in vs_inv */
	char *vs_picked;        /* the devices the plan attaches, for the screens */
	gw_vs_progress_fn progress;   /* long API tasks report here */
	void *progress_ctx;
};

#endif
