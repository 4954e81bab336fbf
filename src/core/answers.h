/* answers.h: the answers file (INI, read with iniparser).
 *
 *   [gpu]
 *   devices = l40s=2, grid_l40s-48c       ; SPECs, comma separated
 *   vram    = 48=2                        ; bare sizes (optional)
 *   [vm]
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
 *   dir     = out                         ; relative to the answers file
 *   formats = vmx,bosh,opsman,tile,om,ansible
 *   name    = gpu-l40s
 */
#ifndef GW_ANSWERS_H
#define GW_ANSWERS_H

#include "gw.h"
#include "plan.h"

typedef struct gw_answers_file {
	gw_answers a;
	char *vmx_path;   /* resolved, NULL when none */
	char *out_dir;    /* resolved, NULL when none */
	int formats;      /* gw_format mask */
	int force;        /* write even when the .vmx is locked */
	char *path;       /* the answers file */
	int uvm_set;      /* [options] uvm was given, or the operator chose
	                   * (the wizard proposes UVM for vGPUs otherwise) */
	int formats_set;  /* [output] formats was given, or the operator
	                   * chose (the wizard's defaults follow its activity
	                   * otherwise) */
} gw_answers_file;

/* Read and validate.  Unknown sections/keys, bad booleans, bad specs: one
 * error naming the file, the [section] key and what was expected. */
int gw_answers_load(gw_answers_file *af, const char *path, const gw_table *t,
                    gw_err *e);
void gw_answers_file_free(gw_answers_file *af);

/* Write answers back as INI (for the wizard's "save answers"). */
int gw_answers_save(const gw_answers_file *af, const char *path, gw_err *e);

#endif
