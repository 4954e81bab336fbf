/* SPDX-License-Identifier: GPL-3.0-or-later */
/* answers.h: the answers file (INI, read with iniparser).
 *
 *   [wizard]                              ; the wizard's own (gpuwiz
 *   activity = vm                         ; --answers); vm | tanzu
 *   language = en                         ; en | zh_CN
 *   [host]                                ; how the host is reached
 *   kind     = sample                     ; offline | linux | sample |
 *                                         ; ssh | api
 *   address  = esxi-l40s                  ; sample: its NAME; ssh:
 *                                         ; USER@HOST[:PORT]; api: URL
 *   identity = ~/.ssh/id_ed25519          ; ssh only (optional)
 *   user     = administrator@vsphere.local ; api only (optional)
 *   thumbprint = AA:BB:...:FF             ; api only (optional): the
 *                                         ; certificate's SHA-256 pinned
 *                                         ; never a password
 *   [gpu]
 *   devices = l40s=2, grid_l40s-48c       ; SPECs, comma separated
 *   vram    = 48=2                        ; bare sizes (optional)
 *   [vm]
 *   name      = llm-train                 ; a VM of the [host] (its list)
 *   vmx       = path/to/vm.vmx            ; relative to the answers file
 *   memory_mb = 65536                     ; when there is no .vmx
 *   esxi      = 8.0U2
 *   bdf       = 0000:42:00.0, 0000:43:00.0
 *   system_id = 5f2c...-...
 *   (no [gpu] with a [vm] vmx: the devices already in the VM, e.g.
 *   uvm = yes on its vGPUs)
 *   [options]
 *   uvm = yes   p2p = no   code43 = no   reserve = yes
 *   mmio_gb = 256   allow_below_rule = no   force = no
 *   [output]
 *   dir     = out                         ; relative to the answers file;
 *                                         ; absent on a sample host: its
 *                                         ; scratch directory's gpuwiz-out
 *   formats = vmx,bosh,opsman,tile,om,ansible
 *   name    = gpu-l40s
 */
#ifndef GW_ANSWERS_H
#define GW_ANSWERS_H

#include "gw.h"
#include "plan.h"

/* [host] kind: how the host is reached (GW_AHOST_NONE: no [host]
 * kind given).  The words: gw_answers_host_words, in this order. */
typedef enum {
	GW_AHOST_NONE,
	GW_AHOST_OFFLINE,
	GW_AHOST_LINUX,
	GW_AHOST_SAMPLE,
	GW_AHOST_SSH,
	GW_AHOST_API,
	GW_NAHOSTS
} gw_answers_host;

/* The words of [wizard] activity (in the order of the wizard's
 * gw_activity: "vm", "tanzu"), [wizard] language ("en", "zh_CN") and
 * [host] kind (gw_answers_host from GW_AHOST_OFFLINE: "offline",
 * "linux", "sample", "ssh", "api"); each NULL-terminated. */
extern const char *const gw_answers_activities[];
/* The audience (emit.h's GW_AUD_*) of activity i of gw_answers_activities
 * ("vm": a VM's .vmx, "tanzu": a Tanzu/BOSH VM type): its default outputs
 * are gw_format_defaults of it.  An answers file with an activity and no
 * [output] formats gets them (and gpuwiz-out beside the file). */
unsigned gw_answers_audience(int activity);
extern const char *const gw_answers_languages[];
extern const char *const gw_answers_host_words[];

/* Is a host of this [host] kind named by an address and reached by the
 * wizard: a sample, SSH or API (ESXi) host?  1 for GW_AHOST_SAMPLE,
 * GW_AHOST_SSH and GW_AHOST_API, 0 for the local kinds (none, offline,
 * linux).  Only such a host takes [host] address, lists the VM that
 * [vm] name names and queues the passthrough that [host] enable names:
 * the file is read (gw_answers_load) and written (the wizard's save)
 * by this answer. */
int gw_answers_host_addressed(gw_answers_host kind);

/* Does `gpuwiz apply --answers` take a file of this [host] kind?  1 for
 * the local kinds (!gw_answers_host_addressed): apply writes local files
 * only; 0 for a sample, SSH or API host, whose VM the wizard reaches
 * (gpuwiz --answers FILE).  cmd_plan.c's refusal and the saved file's
 * header comment both ask this. */
int gw_answers_apply_takes(gw_answers_host kind);

typedef struct gw_answers_file {
	gw_answers a;
	char *vmx_path;   /* resolved, NULL when none */
	char *out_dir;    /* resolved, NULL when none */
	int formats;      /* gw_format mask */
	int force;        /* write even when the .vmx is locked */
	char *path;       /* the answers file */
	int uvm_set;      /* [options] uvm was given, or the operator chose
	                   * (the wizard proposes UVM for vGPUs otherwise) */
	int activity;     /* [wizard] activity: index in
	                   * gw_answers_activities, -1 when not given */
	char *language;   /* [wizard] language, NULL when not given */
	gw_answers_host host;   /* [host] kind */
	char *host_address;     /* sample NAME, USER@HOST[:PORT] or URL */
	char *host_identity;    /* ssh: the identity file (resolved) */
	char *host_user;        /* api: the user */
	char *host_thumbprint;  /* api: the pinned certificate's SHA-256,
	                         * "AA:BB:...:FF" (normalised) */
	char *vm_name;    /* [vm] name: the VM of the host's list */
	char **host_enable;     /* [host] enable: the host PCI addresses
	                         * whose passthrough the replay queues, as
	                         * the host step's e did ("0000:5e:00.0") */
	size_t nhost_enable;
	int upgrade_hw;   /* [vm] upgrade_hw: the open VM's hardware upgrade
	                   * queued, as the VM step's u did */
	int formats_set;  /* [output] formats was given, or the operator
	                   * chose (the wizard's defaults follow its activity
	                   * otherwise) */
} gw_answers_file;

/* Read and validate.  Unknown sections/keys, bad booleans, bad specs: one
 * error naming the file, the [section] key and what was expected.  A
 * [host] key that its kind does not take (identity without ssh, user
 * or thumbprint without api, address with offline/linux, any without kind) and a
 * password are refused the same way.  [output] dir may be absent on a
 * sample host (the wizard writes into its scratch directory); [vm] name
 * stands for a .vmx (the VM's own devices). */
int gw_answers_load(gw_answers_file *af, const char *path, const gw_table *t,
                    gw_err *e);
void gw_answers_file_free(gw_answers_file *af);

/* Would v load as [host] address of kind (a sample's name, an SSH
 * USER@HOST[:PORT], an http(s) URL)?  1 yes, 0 no. */
int gw_answers_host_address_ok(gw_answers_host kind, const char *v);

/* Write answers back as INI (for the wizard's "save answers"): every
 * field above that is set, no [wizard] / [host] section when none of
 * theirs is. */
int gw_answers_save(const gw_answers_file *af, const char *path, gw_err *e);

#endif
