/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi.h: parsers for the ESXi shell output gpuwiz reads (doc/design.md,
 * section 15.6), and `gpuwiz gpus --esxcli-file FILE`.
 *
 * Every parser takes the command's output as NUL-terminated text and
 * fills a struct (getallvms and the process list take it too as it
 * arrives, from a gw_esxi_produce); nothing here runs a command or prints (gpuwiz gpus
 * prints a gw_gpu_list through src/report/gpus_print.h).  Common rules:
 *  - Lines end in LF or CRLF; a UTF-8 byte order mark at the start and
 *    blanks at the end of a line are ignored; the last line needs no
 *    newline.
 *  - name (may be NULL) names the input in errors: "FILE:LINE: what was
 *    found and what was expected"; without a name "line N: ...".  Errors
 *    about the whole input (empty) are "FILE: ..." or the bare text.
 *  - A control byte other than tab (or the CR of a CRLF) is refused as
 *    binary data, naming its line; text ends at its NUL (the command
 *    refuses a file holding one).
 *  - On failure the output struct is left empty (freeing it is harmless);
 *    on success its strings are malloc'ed and owned by the struct.
 *  - PCI addresses are stored normalised, lower case: "0000:3b:00.0".
 */
#ifndef GW_ESXI_H
#define GW_ESXI_H

#include "gw.h"
#include "gputable.h"
#include "hosttypes.h"

#include <string.h>

/* Largest input the parsers and the command accept. */
#define GW_ESXI_MAX_BYTES (16u << 20)

/* A command's output handed over as it arrives: produce calls sink(sctx,
 * bytes, n) for each chunk, in order (sink returns 0, and may change the
 * bytes: the chunk is produce's own buffer), and returns 0, or
 * -1 with e set when the output could not be had (the command failed:
 * that error is the parser's).  The parser reads it in one pass and keeps
 * none of it but what its result holds. */
typedef int gw_esxi_sink(void *sctx, char *p, size_t n);
typedef int gw_esxi_produce(void *pctx, gw_esxi_sink *sink, void *sctx,
                            gw_err *e);

/* ---- esxcli hardware pci list ----------------------------------------- */

/* One "Key: Value" line of a device block, as printed (blanks trimmed; the
 * value may be empty, e.g. "VMkernel Name:" of a device without a
 * driver).  The key is everything before the first ':'. */
typedef struct gw_esxi_field {
	char *key;
	char *value;
	unsigned line;
} gw_esxi_field;

/* One device block:
 *
 *   0000:3b:00.0
 *      Address: 0000:3b:00.0
 *      Segment: 0x0000
 *      ...
 *      Configured Owner: VM Passthru
 *      Vendor ID: 0x10de
 *      Device Class: 0x0302
 *      Passthru Capable: true
 *      ...
 *
 * The address line opens the block; its fields are indented "Key: Value"
 * lines (blank lines between blocks are optional).  Required fields:
 * Address (equal to the opening line), Vendor ID, Device ID (0x and 1-4
 * hex digits) and Device Class (0x0302, or decimal 770 as some older
 * releases may print it).  Segment/Bus/Slot/Function, when present, must
 * agree with the address.  SubVendor ID / SubDevice ID, the owners and
 * Passthru Capable ("true"/"false") are optional (ESXi 6.7 to 8 print
 * them all); fields gpuwiz does not know are kept in fields[] and
 * otherwise ignored.  A field printed twice in one block is an error.
 * Addresses are "0000:3b:00.0" (hex) or the old decimal form
 * "000:128:00.0" (three-digit segment, bus in decimal, as ESX 5 lspci
 * printed it). */
typedef struct gw_esxi_pci_dev {
	unsigned line;            /* line of the address that opens the block */
	char bdf[16];             /* "0000:3b:00.0" */
	char vmx_id[24];          /* ESXi's decimal form "00000:059:00.0" */
	unsigned domain, bus, slot, function;
	unsigned vendor_id;       /* 0x10de */
	unsigned device_id;       /* 0x26b9 */
	unsigned subvendor_id;    /* 0 when not printed */
	unsigned subdevice_id;
	unsigned device_class;    /* base class << 8 | subclass: 0x0302 */
	int passthru_capable;     /* 1, 0, or -1 when not printed */
	/* Values of well-known fields, pointing into fields[]; NULL when the
	 * field is not in the block. */
	const char *vendor_name;      /* "NVIDIA Corporation" */
	const char *device_name;      /* "AD102GL [L40S]" */
	const char *class_name;       /* "3D controller" */
	const char *vmkernel_name;    /* "vmnic5", "" */
	const char *module_name;      /* "pciPassthru", "ixgbe" */
	const char *configured_owner; /* "VM Passthru", "VMkernel", "Unknown" */
	const char *current_owner;
	gw_esxi_field *fields;    /* every field of the block, in order */
	size_t nfields;
} gw_esxi_pci_dev;

typedef struct gw_esxi_pci_list {
	gw_esxi_pci_dev *devs;    /* in the order printed */
	size_t n;
} gw_esxi_pci_list;

/* `esxcli hardware pci list` is read as it arrives
 * (gw_esxi_pci_list_read_from, below).  Before the first block, lines
 * starting with '#' (notes added to a saved file) are skipped, and so are
 * lines holding the command itself ("[root@esx:~] esxcli hardware pci
 * list"); the other parsers do the same with their commands.  At least one device block is required: text that is not this
 * command's output fails at its first line with an error saying what was
 * expected.  A PCI address printed twice is an error. */
void gw_esxi_pci_list_free(gw_esxi_pci_list *l);

/* Value of a field by key (case-insensitive), NULL when absent. */
const char *gw_esxi_pci_field(const gw_esxi_pci_dev *d, const char *key);
/* The device with this address (any form gw_bdf_parse takes), or NULL. */
const gw_esxi_pci_dev *gw_esxi_pci_find(const gw_esxi_pci_list *l,
                                        const char *bdf);
/* Display-class device (PCI base class 0x03: VGA, XGA, 3D, other)? */
int gw_esxi_pci_is_display(const gw_esxi_pci_dev *d);
/* Which blocks of a listing read as it arrives are kept: 1 to keep d;
 * ctx is the reader's (gw_esxi_session_list_pci). */
typedef int gw_esxi_pci_keep(const gw_esxi_pci_dev *d, const void *ctx);
/* The display-class devices (ctx unused). */
int gw_esxi_pci_keep_display(const gw_esxi_pci_dev *d, const void *ctx);
/* A PCI address, its parts parsed. */
typedef struct gw_esxi_addr {
	unsigned dom, bus, dev, fn;
} gw_esxi_addr;
/* The device at the address ctx (a const gw_esxi_addr *). */
int gw_esxi_pci_keep_addr(const gw_esxi_pci_dev *d, const void *ctx);
/* gw_esxi_parse_pci_list over the output produce hands over as it
 * arrives (name: the source in messages), keeping only the blocks keep
 * accepts (NULL: every block). */
int gw_esxi_pci_list_read_from(gw_esxi_produce *produce, void *pctx,
                               const char *name, gw_esxi_pci_keep *keep,
                               const void *kctx, gw_esxi_pci_list *out,
                               gw_err *e);

/* A text (pctx, NUL-terminated) handed over as a command's output, in
 * copies of 4 KiB (the sink may change the bytes it is given). */
static inline int
gw_esxi_text_produce(void *pctx, gw_esxi_sink *sink, void *sctx, gw_err *e)
{
	const char *t = (const char *)pctx;
	size_t left = strlen(t);
	char chunk[4096];

	(void)e;
	while (left > 0) {
		size_t n = left < sizeof chunk ? left : sizeof chunk;

		memcpy(chunk, t, n);
		sink(sctx, chunk, n);
		t += n;
		left -= n;
	}
	return 0;
}

/* The whole listing in text, every device kept (a saved listing in the
 * tests and fuzz targets: the program reads it as it arrives). */
static inline int
gw_esxi_parse_pci_list(const char *text, const char *name,
                       gw_esxi_pci_list *out, gw_err *e)
{
	return gw_esxi_pci_list_read_from(gw_esxi_text_produce,
	                                  (void *)(text ? text : ""), name, NULL,
	                                  NULL, out, e);
}
/* Passthrough configured: 1 when Configured Owner is "VM Passthru", 0 for
 * any other owner, -1 when the block has no Configured Owner. */
int gw_esxi_pci_passthru_enabled(const gw_esxi_pci_dev *d);

/* ---- esxcli system uuid get ------------------------------------------- */

/* One line, the host's system id (8-4-4-4-12 hex), the value a .vmx
 * pciPassthruN.systemId takes.  *uuid gets it in lower case (malloc'ed;
 * NULL on failure). */
int gw_esxi_parse_uuid(const char *text, const char *name, char **uuid,
                       gw_err *e);

/* ---- esxcli system version get ---------------------------------------- */

/*   Product: VMware ESXi
 *   Version: 8.0.2
 *   Build: Releasebuild-22380479
 *   Update: 2
 *   Patch: 25
 *
 * Product and Version are required; Build, Update and Patch are optional
 * (ESXi 5.5 prints no Patch line); other fields are ignored. */
typedef struct gw_esxi_version {
	char *product;            /* "VMware ESXi" */
	char *version;            /* "8.0.2" as printed */
	char *build;              /* "Releasebuild-22380479", NULL when absent */
	long build_number;        /* 22380479, -1 when unknown */
	int update;               /* 2, -1 when no Update line */
	int patch;                /* 25, -1 when no Patch line */
	char *release;            /* "8.0U2", "5.5U3", "8.0": major.minor and the
	                           * update (the Update line, else the third
	                           * number of Version), the form
	                           * gw_esxi_to_hw and answers' esxi_version
	                           * take */
} gw_esxi_version;

int gw_esxi_parse_version(const char *text, const char *name,
                          gw_esxi_version *out, gw_err *e);
void gw_esxi_version_free(gw_esxi_version *v);

/* ---- vim-cmd vmsvc/getallvms ------------------------------------------ */

/*   Vmid   Name   File   Guest OS   Version   Annotation
 *   12     llm [L40S]   [ssd:01] llm [L40S]/llm [L40S].vmx   ubuntu64Guest   vmx-21   text
 *
 * Columns are padded but not aligned with the header, and names, paths,
 * datastores and annotations may hold blanks, brackets and colons, so a
 * row is read around its fixed points: the Vmid first, then the first
 * ".vmx" followed by a guest id and a "vmx-NN" version; the file starts
 * at the '[' of its datastore, chosen as the one whose path begins with
 * the VM's name and a '/' (ESXi's default folder), else the first one
 * after two or more blanks (the column gap), else the last one.  An
 * annotation with newlines continues on the next lines: a line after a
 * row that is not a row itself is appended to that annotation with '\n'.
 * "Skipping invalid VM 'N'" lines (inaccessible VMs) are recorded in
 * skipped[].  The header is required; no row is a valid, empty list.
 * Rows are kept in the order printed (not sorted); a Vmid printed twice
 * is an error. */

int gw_esxi_parse_getallvms(const char *text, const char *name,
                            gw_vm_list *out, gw_err *e);
/* The same, the output read as produce hands it over. */
int gw_esxi_parse_getallvms_from(gw_esxi_produce *produce, void *pctx,
                                 const char *name, gw_vm_list *out,
                                 gw_err *e);

/* ---- vim-cmd vmsvc/power.getstate ------------------------------------- */


/* "Retrieved runtime info" (optional) and exactly one state line. */
int gw_esxi_parse_power_state(const char *text, const char *name,
                              gw_power *out, gw_err *e);

/* ---- esxcli vm process list ------------------------------------------- */

/* The running VMs (VMware KB 1014165), one block each:
 *
 *   llm [L40S]
 *      World ID: 2102229
 *      Process ID: 0
 *      VMX Cartel ID: 2102197
 *      UUID: 56 4d c9 8d 87 2f a6 68-b2 3b 99 9f fb dc 76 cd
 *      Display Name: llm [L40S]
 *      Config File: /vmfs/volumes/64647e47-f74861a3-54af-c84bd699819a/llm [L40S]/llm [L40S].vmx
 *
 * A line at the margin opens a block (the VM's name: any text, blanks,
 * brackets and colons included); indented "Key: Value" lines are its
 * fields (a line at the margin starting with one of the six keys above is
 * a field too, for copies that lost the indentation).  Config File is
 * required, World ID must be a number; other keys are ignored, a key
 * printed twice in a block is an error, and so is a VM (a Config File)
 * listed twice.  No VM running prints nothing: empty or blank text is a
 * valid, empty list. */
typedef struct gw_esxi_vm_proc {
	char *name;               /* the block's first line */
	unsigned long world_id;   /* 0 when not printed */
	char *display_name;       /* NULL when not printed */
	char *config_file;        /* "/vmfs/volumes/UUID/dir/vm.vmx" */
	unsigned line;
} gw_esxi_vm_proc;

typedef struct gw_esxi_vm_proc_list {
	gw_esxi_vm_proc *procs;
	size_t n;
} gw_esxi_vm_proc_list;

int gw_esxi_parse_vm_processes(const char *text, const char *name,
                               gw_esxi_vm_proc_list *out, gw_err *e);
/* The same, the output read as produce hands it over. */
int gw_esxi_parse_vm_processes_from(gw_esxi_produce *produce, void *pctx,
                                    const char *name,
                                    gw_esxi_vm_proc_list *out, gw_err *e);
void gw_esxi_vm_proc_list_free(gw_esxi_vm_proc_list *l);

/* power[i] (vms->n of them) for vms->vms[i], from the running VMs (hash
 * sets: linear, doc/design.md 15.6): ON when a Config File is its .vmx,
 * OFF when none is (esxcli does not tell suspended from off), UNKNOWN
 * when it cannot be told and power.getstate must be asked.  getallvms
 * names "[datastore1] dir/vm.vmx", esxcli "/vmfs/volumes/VOL/dir/vm.vmx"
 * where VOL is the datastore's name or (usually) its UUID: the same
 * name matches; a UUID matches the one VM with that path, and when
 * several have it (copies on two datastores) those are UNKNOWN; a running
 * VM that matches no listed one (another form of path) makes every VM
 * not ON UNKNOWN. */
void gw_esxi_vms_power(const gw_vm_list *vms,
                       const gw_esxi_vm_proc_list *procs,
                       gw_power *power);

/* ---- esxcli storage core path list / core device list ------------------ */

/* Both print blocks that open with a storage name on a line of its own,
 * followed by "Key: Value" lines:
 *
 *   fc.5001438005685fb5:5001438005685fb4-fc.50060160c46036df:...-naa.6006...
 *      UID: fc.5001438005685fb5:5001438005685fb4-fc.50060160c46036df:...
 *      Runtime Name: vmhba0:C0:T0:L23
 *      Device: naa.6006016094602800e07ff528b73ae011
 *      Adapter: vmhba0
 *      ...
 *
 *   naa.6006016094602800e07ff528b73ae011
 *      Display Name: DGC Fibre Channel Disk (naa.6006...)
 *      ...
 *      Is Boot Device: false
 *
 * A line is a field when it starts (after any blanks) with a key of
 * letters, digits, blanks and / ( ) - and a ':' followed by a blank or the
 * end of the line ("Attached Filters:" has an empty value); any other line
 * opens a block and must be a storage name: a lower-case namespace, a dot
 * and no blanks ("naa.…", "t10.…", "mpx.vmhba32:C0:T0:L0", "sas.…-naa.…",
 * "iqn.…").  Indentation is therefore not needed: copies from web pages
 * that lost it parse the same.  Blank lines between blocks are optional.
 * A key printed twice in one block, or a block name printed twice, is an
 * error; fields gpuwiz does not know are kept in fields[].  At least one
 * block is required. */

/* One path of `esxcli storage core path list` (also `esxcli storage nmp
 * path list`, whose blocks have no Adapter line). */
typedef struct gw_esxi_storage_path {
	unsigned line;            /* line of the block's opening name */
	char *name;               /* the opening line: the path's UID */
	char adapter[32];         /* "vmhba0": the Adapter field, else Runtime
	                           * Name up to its first ':' */
	const char *runtime_name; /* "vmhba0:C0:T0:L23", NULL when absent */
	const char *device;       /* "naa.6006…" (required) */
	const char *state;        /* "active", "dead", NULL when absent */
	gw_esxi_field *fields;
	size_t nfields;
} gw_esxi_storage_path;

typedef struct gw_esxi_storage_path_list {
	gw_esxi_storage_path *paths;
	size_t n;
} gw_esxi_storage_path_list;

/* Device is required in every block, and Adapter or Runtime Name (an
 * adapter name is 1 to 31 characters without blanks). */
int gw_esxi_parse_storage_paths(const char *text, const char *name,
                                gw_esxi_storage_path_list *out, gw_err *e);
void gw_esxi_storage_path_list_free(gw_esxi_storage_path_list *l);

/* One device of `esxcli storage core device list`. */
typedef struct gw_esxi_storage_dev {
	unsigned line;
	char *name;               /* "t10.ATA_____SK_hynix_SC311_…" */
	const char *display_name; /* "Local ATA Disk (t10.…)" (required) */
	int is_boot;              /* "Is Boot Device": 1, 0, or -1 when the
	                           * block has no such line (releases before
	                           * 6.7 print none): unknown */
	int is_local;             /* "Is Local": 1, 0, -1 when absent */
	gw_esxi_field *fields;
	size_t nfields;
} gw_esxi_storage_dev;

typedef struct gw_esxi_storage_dev_list {
	gw_esxi_storage_dev *devs;
	size_t n;
} gw_esxi_storage_dev_list;

/* Display Name is required in every block; Is Boot Device and Is Local,
 * when printed, must be true or false. */
int gw_esxi_parse_storage_devices(const char *text, const char *name,
                                  gw_esxi_storage_dev_list *out, gw_err *e);
void gw_esxi_storage_dev_list_free(gw_esxi_storage_dev_list *l);
/* The device with this name (exact), or NULL. */
const gw_esxi_storage_dev *
gw_esxi_storage_dev_find(const gw_esxi_storage_dev_list *l, const char *name);

/* ---- esxcli storage vmfs extent list ----------------------------------- */

/*   Volume Name  VMFS UUID                            Extent Number  Device Name                           Partition
 *   -----------  -----------------------------------  -------------  ------------------------------------  ---------
 *   VM Store 2   5f69774e-f1031e44-7bdb-ac1f6bc4b812              0  naa.600062b2049d040026fc1e4b2f305682          3
 *
 * Volume names may hold blanks, so cells are cut at the columns the dashed
 * line gives (the table may be indented as a whole); columns are found by
 * name, and only Volume Name and Device Name are required.  A row whose
 * cells do not sit under the dashes (blanks squeezed in a copy from a web
 * page) is read from its right end when the columns are the five above in
 * that order: Partition, Device Name, Extent Number and VMFS UUID are its
 * last four words, the volume name the rest.  A device name holds no
 * blank; extent and partition numbers are decimal.  No row (a host
 * without VMFS datastores) is a valid, empty list; so is a spanned volume
 * listed once per extent. */
typedef struct gw_esxi_vmfs_extent {
	char *volume_name;        /* "VM Store 2"; "" when the cell is empty */
	char *vmfs_uuid;          /* NULL when there is no such column */
	int extent_number;        /* -1 when there is no such column */
	char *device_name;        /* "naa.600062b2049d040026fc1e4b2f305682" */
	int partition;            /* -1 when there is no such column */
	unsigned line;
} gw_esxi_vmfs_extent;

typedef struct gw_esxi_vmfs_extent_list {
	gw_esxi_vmfs_extent *extents;
	size_t n;
} gw_esxi_vmfs_extent_list;

int gw_esxi_parse_vmfs_extents(const char *text, const char *name,
                               gw_esxi_vmfs_extent_list *out, gw_err *e);
void gw_esxi_vmfs_extent_list_free(gw_esxi_vmfs_extent_list *l);

/* ---- the GPUs of an esxcli hardware pci list --------------------------- */

/* Device d (a display-class block) as a GPU row: the table's row and
 * name (else esxcli's Device Name), VRAM, driver = the ESXi module, the
 * passthrough state and owners. */
void gw_esxi_gpu_dev(const gw_table *t, const gw_esxi_pci_dev *d,
                     gw_gpu_dev *g);
/* Parse `esxcli hardware pci list` output (name, NULL: "esxcli hardware
 * pci list", names it in messages and is the list's source) into the
 * list gpuwiz gpus prints: every display-class device (PCI class 0x03xx),
 * in the listing's order, summed (gw_gpu_list_sum).  Text over
 * GW_ESXI_MAX_BYTES is refused.  0, or -1 with e set and *out empty. */
int gw_esxi_gpu_list_read(const gw_table *t, const char *text,
                          const char *name, gw_gpu_list *out, gw_err *e);
/* The same, the output read as produce hands it over (only the display
 * devices' blocks are kept, not the output). */
int gw_esxi_gpu_list_read_from(const gw_table *t, gw_esxi_produce *produce,
                               void *pctx, const char *name,
                               gw_gpu_list *out, gw_err *e);
/* The same for a saved file (gpuwiz gpus --esxcli-file; missing, a
 * directory, unreadable, too large or holding a NUL byte: -1). */
int gw_esxi_gpu_list_read_file(const gw_table *t, const char *path,
                               gw_gpu_list *out, gw_err *e);

#endif
