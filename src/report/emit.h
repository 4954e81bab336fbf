/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit.h: render a plan as snippets.  YAML through libyaml's emitter, JSON
 * through jansson; never by string concatenation.
 *
 * What each format holds (all text UTF-8, LF line ends):
 *  vmx    `key = "value"` lines as ESXi writes them, for every setting with
 *         keep == 0, in plan order; '"', '|' and control bytes in a value
 *         are written as ESXi's "|XX".  A "# " header comment, and before
 *         each group (consecutive settings with one kind, reason and
 *         source) a blank line and "# <reason> (source: <source>)"; a
 *         setting that changes an existing value gets a "# ... replaces"
 *         comment.  Pasteable into a .vmx.  No setting to write: header and
 *         a "nothing to change" comment.
 *  bosh   vm_extensions: [{name, cloud_properties}] for the BOSH vSphere
 *         CPI.  cloud_properties: pci_passthroughs (one {vendor_id,
 *         device_id} mapping of decimal integers per physical GPU, so
 *         repeated for count), vgpus (profile per vGPU), vmx_options
 *         (extraConfig key -> double-quoted string: use64bitMMIO "TRUE" and
 *         64bitMMIOSizeGB from plan->mmio_gb, then the plan's UVM, P2P and
 *         code-43 settings, kept ones included: BOSH makes a new VM), then
 *         memory_reservation_locked_to_max: true and upgrade_hw_version:
 *         true.  Device blocks, sched.mem.* and vhv.enable are never in
 *         vmx_options.  Only GPUs the plan adds are listed (existing == 0):
 *         GPUs already attached in a .vmx are not the extension's business.
 *         Note: UVM keys keep the plan's pciPassthruN numbering.
 *  opsman {"name", "cloud_properties"} JSON body for
 *         PUT /api/v0/staged/vm_extensions/<name>, same content as bosh.
 *         The name must be letters, digits, '-' or '_' (no periods).
 *  tile   YAML mapping of the AI Services tile's custom VM type fields:
 *         "Processing technology": "PCI Passthrough", "PCI Passthrough
 *         Vendor ID"/"PCI Passthrough Device ID" as "0x10DE"/"0x26B9",
 *         "use 64bit MMIO": "TRUE", "size for 64bit MMIO": "<GB>".  A
 *         vGPU-only plan gets only the MMIO fields plus a "note" key (the
 *         tile documents no vGPU choice); several passthrough GPUs of one
 *         model get a "note" on the count.
 *  om     the `om create-vm-extension -c FILE` config: vm-extension-config:
 *         {name, cloud_properties}, cloud_properties as bosh's (om's
 *         docs/create-vm-extension/README.md).
 *  ansible a playbook for Debian 12's ansible (community.vmware 3.7) and
 *         python3-pyvmomi (6.7.1), with gpuwiz on the machine that runs it:
 *         one play on localhost, the VMs in vars gpuwiz_vms (an assert
 *         stops an empty list), the connection from the collection's
 *         VMWARE_* variables, given to gpuwiz as its options and the
 *         password as GPUWIZ_PASSWORD in the play's environment (never in
 *         the file); tasks: assert, then for the plan's host addresses
 *         gpuwiz vsphere list --json and passthru --enable for those not
 *         active, then gpuwiz vsphere apply --vm ... with the plan's
 *         options (--gpu/--vgpu/--vram, --bdf with one VM, --dynamic,
 *         --uvm, --p2p, --code43, and from the answers --no-reserve,
 *         --mmio-gb, --esxi with --upgrade-hw) and --json, changed_when a
 *         VM was reconfigured or upgraded, failed_when its exit status.  A
 *         "# " comment with the reason and source above each option.
 *         See doc/design.md 15.8.
 * Refusals (return -1, e set, *out untouched): bosh/opsman/tile with no GPU
 * to add or no MMIO size; a passthrough GPU to add with an unknown PCI id;
 * no extension name (bosh/opsman); tile with two GPU models or with
 * passthrough and vGPU mixed; a setting to write with an invalid key or no
 * value.
 */
#ifndef GW_EMIT_H
#define GW_EMIT_H

#include "gw.h"
#include "plan.h"

/* The formats' positions and bits, in the rows' order (formats.def):
 * GW_FMT_VMX = 1 << 0, GW_FMT_BOSH = 1 << 1, ... */
enum {
#define GW_FORMAT(ID, NAME, FILE, LABEL, HOLDS, FOR, DOES, TAKES, EMIT, NEXT) \
	GW_FMT_I_##ID,
#include "formats.def"
#undef GW_FORMAT
	GW_NFORMATS
};

typedef enum {
#define GW_FORMAT(ID, NAME, FILE, LABEL, HOLDS, FOR, DOES, TAKES, EMIT, NEXT) \
	GW_FMT_##ID = 1 << GW_FMT_I_##ID,
#include "formats.def"
#undef GW_FORMAT
	GW_FMT_ALL = (1 << GW_NFORMATS) - 1
} gw_format;

/* What a playbook takes besides the plan (the command line's --vm and
 * --host, and the answers the plan was made from, for the options of the
 * gpuwiz command it runs); all may be empty.  The other formats take
 * none. */
typedef struct gw_emit_opts {
	const char *const *vms;   /* VM names, in order */
	size_t nvms;
	const char *esxi_host;    /* the host of the passthrough GPUs */
	const gw_answers *answers;/* NULL: the plan's own (no --esxi) */
} gw_emit_opts;

/* What a format's next steps need.  Each line is malloc'ed and handed to
 * push(list, line), which takes it. */
typedef struct gw_next_ctx {
	const char *path;     /* the format's file, as written or to be */
	const char *name;     /* the VM extension's name */
	const char *vm;       /* a VM's name for a command line ("NAME") */
	int formats;          /* every format chosen (GW_FMT_* bits) */
	int vmx_patched;      /* gpuwiz changes the VM's own .vmx (its steps
	                       * are said with the host's) */
	void (*push)(void *list, char *line);
	void *list;
} gw_next_ctx;

/* Push one next step: the words (taken), then each command (up to NULL)
 * alone on its line, "words\ncmd\ncmd": nothing follows a command on
 * its line, in any language (the wizard's next steps, wizard.h). */
void gw_next_push(const gw_next_ctx *c, char *words, ...);

/* What a snippet uses besides the plan (a row's TAKES). */
#define GW_FMT_TAKES_NAME 1u   /* the VM extension's name (--name) */
#define GW_FMT_TAKES_VMS  2u   /* VM names and their host (--vm, --host) */

/* Whom a format serves by default (a row's FOR).  The report layer knows
 * audiences, not the wizard's activities: the wizard maps its activity to
 * one of these. */
#define GW_AUD_VM    1u   /* a VM's own .vmx (a home lab, one VM) */
#define GW_AUD_TANZU 2u   /* a Tanzu/BOSH VM type (BOSH, Ops Manager, the
                           * AI Services tile) */

/* One row of formats.def; label and holds are msgids (_() them). */
typedef struct gw_format_def {
	int bit;
	const char *name;
	const char *filename;
	const char *label;
	const char *holds;
	unsigned audiences;       /* GW_AUD_* it serves by default */
	unsigned does;            /* GW_OUT_*: what the file does to the VM
	                           * itself */
	unsigned takes;           /* GW_FMT_TAKES_* */
	int (*emit)(const gw_plan *p, const gw_emit_opts *o, char **out,
	            gw_err *e);
	void (*next)(const gw_next_ctx *c);
} gw_format_def;

/* The rows, GW_NFORMATS of them, in order (files and lists show them so). */
extern const gw_format_def gw_formats[];

/* The row of exactly one GW_FMT_* bit; NULL otherwise. */
const gw_format_def *gw_format_def_of(int fmt);
/* "vmx, bosh, opsman, tile, om, ansible": every NAME (static). */
const char *gw_format_list(void);
/* The formats chosen by default for an audience (GW_AUD_* bits): the rows
 * whose FOR has one of them. */
int gw_format_defaults(unsigned audiences);
/* The GW_OUT_* bits that every format in mask does to the VM itself (the
 * rows' DOES): GW_OUT_LOCKS_MEM, the memory size is not needed;
 * GW_OUT_UPGRADES_HW, no manual hardware upgrade is advised.  0 when mask
 * has no format.  The answers' outputs_do, where no .vmx is patched. */
unsigned gw_formats_do(int mask);

/* "vmx" -> GW_FMT_VMX ... (case-insensitive); 0 when unknown. */
int gw_format_parse(const char *name);
/* Comma list "vmx,bosh" -> mask; spaces around words and duplicates are
 * fine, empty items are skipped.  Errors name field, the bad word and the
 * valid words; a list with no format at all is an error.  *mask is set
 * only on success. */
int gw_formats_parse(const char *list, const char *field, int *mask, gw_err *e);
/* "vmx" ... for exactly one GW_FMT_* bit; NULL otherwise (static). */
const char *gw_format_name(int fmt);
/* The row's FILE for exactly one GW_FMT_* bit; NULL otherwise (static). */
const char *gw_format_filename(int fmt);

/* Every row's renderer and next steps.  Each renderer returns a
 * malloc'ed NUL-terminated text in *out.  o: only ansible reads it (NULL:
 * no VM names, the playbook asks for -e gpuwiz_vms=...; a VM name that
 * is empty or has a control byte is refused). */
#define GW_FORMAT(ID, NAME, FILE, LABEL, HOLDS, FOR, DOES, TAKES, EMIT, NEXT) \
	int EMIT(const gw_plan *p, const gw_emit_opts *o, char **out,     \
	         gw_err *e);                                              \
	void NEXT(const gw_next_ctx *c);
#include "formats.def"
#undef GW_FORMAT

/* One format by its GW_FMT_* bit, without options; an unknown fmt is an
 * error. */
int gw_emit(int fmt, const gw_plan *p, char **out, gw_err *e);
/* How many renders gw_emit made in this process (tests count them: a
 * write renders each chosen format once). */
extern unsigned long gw_emit_renders;

#endif
