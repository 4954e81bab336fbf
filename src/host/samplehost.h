/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost.h: the sample hosts for practice and training
 * (doc/design.md, section 4.3; data/hosts/README.md).
 *
 * A sample host is a folder data/hosts/NAME holding host.ini:
 *
 *   [host]  title (English; shown by the wizard, translated by the caller),
 *           kind = linux | esxi, source, and for linux: cpu = intel | amd,
 *           cpu_model, cpu_family, cpu_model_number, cpu_stepping, cpus
 *           (processor blocks, 1-64), virt = on | off (vmx/svm flag),
 *           kernel (osrelease), proc_version, cmdline, acpi = DMAR | IVRS |
 *           none, iommu = on | off (IOMMU groups populated), iommu_units
 *           (entries in /sys/class/iommu), interrupt_remapping = on | off,
 *           cap and ecap (Intel units: hex, ecap bit 3 = IR must match
 *           interrupt_remapping).
 *   [devN]  one PCI function each: bdf ("0000:3b:00.0"), vendor, device,
 *           subvendor, subdevice, class (0x030200), revision (hex), bars
 *           ("0:mem32:16M 1:mem64p:64G 3:mem64p:32M 5:io:128", KIND one of
 *           mem32, mem32p, mem64, mem64p, io, SIZE a power of two with an
 *           optional K/M/G/T suffix, an optional "@0xADDRESS"; a 64-bit
 *           BAR takes the next index too), group (only with iommu = on),
 *           driver, secondary and subordinate (bridges: the bus numbers
 *           behind them), name (a comment for readers).
 *
 * kind = esxi hosts have no [devN]: their esxi/ folder holds what each
 * command prints (esxi/esxcli-hardware-pci-list.txt for "esxcli hardware
 * pci list", esxi/vim-cmd-vmsvc-getallvms.txt, and
 * esxi/vim-cmd-vmsvc-power.getstate-ID.txt per VM) and volumes/ the
 * datastores (volumes/datastore1/VM/VM.vmx).  data/hosts/bin holds the
 * esxcli and vim-cmd stand-ins that answer from those files.
 *
 * Conventions of gw.h: 0 / -1 with one translated line in gw_err; nothing
 * is printed.  The sample folders are only read, never written.
 */
#ifndef GW_SAMPLEHOST_H
#define GW_SAMPLEHOST_H

#include "gw.h"
#include "runner.h"

/* gw_sample_info (one sample: name, title, kind) is in hosttypes.h. */
/* The sample hosts (the sub-folders of the hosts folder holding a
 * host.ini: $GPUWIZ_HOSTS_DIR when set, even if it does not exist, else
 * the first existing of EXEDIR/../data/hosts, EXEDIR/data/hosts and
 * PKGDATADIR/hosts), sorted by name; *out malloc'ed (NULL when *n is 0).
 * The names only: title and kind are NULL, no host.ini is read (one stat
 * each); gw_sample_describe reads them.  -1 with e set when no folder is
 * found or it cannot be read. */
int gw_sample_list(gw_sample_info **out, size_t *n, gw_err *e);
/* Fill s->title and s->kind from its host.ini (nothing when s->title is
 * set already): -1 with e naming the file when it cannot be read or lacks
 * a title or a valid kind. */
int gw_sample_describe(gw_sample_info *s, gw_err *e);
void gw_sample_list_free(gw_sample_info *l, size_t n);

/* An opened sample: a private scratch copy the caller may change freely. */
typedef struct gw_sample {
	char *name;
	char *kind;      /* "linux" or "esxi" */
	char *scratch;   /* the private folder, mode 0700 */
	char *sysroot;   /* linux: SCRATCH/root, for gw_linux_checks() etc.;
	                  * NULL for esxi */
	char *bin;       /* esxi: SCRATCH/bin with the esxcli and vim-cmd
	                  * stand-ins (gw_runner_set_path_prefix); else NULL */
	char *volumes;   /* esxi: SCRATCH/volumes, the datastores copied
	                  * (gw_runner_set_volumes_root); else NULL */
} gw_sample;

/* Open the sample host name (a folder name: no '/', not starting with
 * '.'): creates a fresh scratch folder with mkdtemp ($TMPDIR, else /tmp,
 * "gpuwiz-sample.XXXXXX") and materialises the sample there.
 *
 * linux: SCRATCH/root is a /sys and /proc tree as the kernel shows it, for
 * libpci's sysfs back end and the gpuwiz checks: proc/cpuinfo (cpus
 * blocks, vmx or svm flag), proc/cmdline, proc/version,
 * proc/sys/kernel/osrelease, proc/interrupts (one MSI line per device with
 * a driver other than vfio-pci, "IR-PCI-MSI" with interrupt remapping on,
 * "PCI-MSI" off; IR-IO-APIC / IO-APIC legacy lines likewise; "DMAR-MSI"
 * lines for Intel IOMMU units, "AMD-Vi" for AMD ones),
 * sys/firmware/acpi/tables/DMAR or IVRS (a 48-byte table with a valid
 * checksum; the DMAR INTR_REMAP flag follows interrupt_remapping),
 * sys/class/iommu/dmarN (Intel: links to sys/devices/virtual/iommu/dmarN
 * with intel-iommu/cap, ecap, version, address) or ivhdN (AMD), and per
 * device sys/devices/pci0000:00/BDF with vendor, device, class,
 * subsystem_vendor, subsystem_device, revision, irq, enable, numa_node,
 * resource (13 lines, 17 for a bridge, in the kernel's format) and config
 * (256 bytes: ids, command, revision, class, header type 0, or 1 with the
 * bus numbers and closed windows for a bridge, multi-function bit, BAR
 * registers whose low bits match the kinds, subsystem ids; no capability
 * list), the sys/bus/pci/devices/BDF link, the
 * iommu_group link and sys/kernel/iommu_groups/N/devices/BDF (N/type
 * "identity" with iommu=pt on the command line, else "DMA-FQ"), the driver
 * link and sys/bus/pci/drivers/NAME/BDF.  BARs without an address are
 * placed one after another (32-bit from 0x90000000, 64-bit from
 * 0x38000000000, I/O from 0x1000, each aligned to its size).
 *
 * esxi: SCRATCH/esxi and SCRATCH/volumes are copies of the sample's esxi/
 * and volumes/ (regular files and folders; links are skipped),
 * SCRATCH/bin holds the stand-ins (mode 0755) and SCRATCH/commands.log
 * (empty) gets one line per stand-in call.  The stand-ins find all this
 * from their own path.
 *
 * On success *out is filled (free with gw_sample_close).  -1 with e set:
 * an unknown name (the message lists the known ones), a host.ini that
 * does not follow the schema above (naming the file, the section and the
 * key), or a file that cannot be written; the scratch folder is then
 * removed and *out is zeroed. */
int gw_sample_open(const char *name, gw_sample *out, gw_err *e);

/* Frees s's strings (s is zeroed) and, when remove_scratch is set, removes
 * the scratch tree (recursively, never following a link: a link is removed,
 * not what it points to).  NULL or a zeroed s is harmless. */
void gw_sample_close(gw_sample *s, int remove_scratch);

/* An ESXi sample's host: a local runner whose PATH starts with s->bin (the
 * stand-ins) and whose datastores are s->volumes.  NULL for a Linux
 * sample.  Close with gw_runner_close. */
gw_runner *gw_sample_runner(const gw_sample *s);
/* How the screens and messages name the sample: "esxi-l40s (sample)"
 * (translated, malloc'ed). */
char *gw_sample_label(const gw_sample *s);

#endif
