/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runner.h: run commands on an ESXi host, either on its own shell (the
 * local runner, when vim-cmd is on the PATH) or from a workstation through
 * the system's ssh client (one ControlMaster per session: one
 * authentication, host key checking kept on), and the ESXi operations
 * gpuwiz needs on top of it (gw_esxi_session_*).
 *
 * Conventions of gw.h: 0 / -1 with one translated line in gw_err; nothing
 * is printed.  Commands are given as argv arrays; for the ssh runner every
 * word is single-quoted for the remote shell, so no word is ever read as
 * shell syntax.  Commands are started with fork/exec and pipes (never
 * system() or popen()), and are killed when they run past the timeout.
 */
#ifndef GW_RUNNER_H
#define GW_RUNNER_H

#include "gw.h"
#include "esxi.h"
#include "vmx.h"

typedef struct gw_runner gw_runner;

/* Default limit for one command, seconds. */
#define GW_RUNNER_TIMEOUT 120
/* Largest stdout / stderr kept from one command. */
#define GW_RUNNER_MAX_OUTPUT (16u << 20)

/* Commands run here (the ESXi shell itself).  Never fails. */
gw_runner *gw_runner_open_local(void);

/* Start one ssh ControlMaster to user_at_host ("root@esx01"; must not
 * start with '-') and check it works:
 *   ssh -M -S SOCK -o ControlPersist=600 -o BatchMode=yes
 *       -o StrictHostKeyChecking=yes [extra...] -- HOST true
 * BatchMode: no password prompt, so keys (or an agent) are needed; an
 * unknown or changed host key is refused, never accepted.  extra (may be
 * NULL) is a NULL-terminated list of further ssh words (tests: "-p",
 * "2222", "-i", KEY, "-o", "UserKnownHostsFile=FILE").  The socket lives
 * in a private temporary directory removed by gw_runner_close().  NULL on
 * failure, with ssh's own message in e.
 * When prompt is set the master is started without BatchMode, so ssh may
 * ask for a password or key passphrase on the terminal (/dev/tty) once;
 * every later command goes through the master and never prompts.  The
 * command line uses it when it has a terminal.  Errors: an unknown or
 * changed host key, and "Permission denied" without a terminal, say what
 * to do. */
gw_runner *gw_runner_open_ssh_prompt(const char *user_at_host,
                                     const char *const extra[], int prompt,
                                     gw_err *e);

/* Ends the master (ssh -O exit) and frees r.  NULL is harmless. */
void gw_runner_close(gw_runner *r);

/* Directory put first on the PATH the commands see (tests: the esxcli /
 * vim-cmd stand-ins).  NULL removes it. */
void gw_runner_set_path_prefix(gw_runner *r, const char *dir);

/* Where datastores are mounted ("/vmfs/volumes" unless set; tests: a
 * temporary directory).  Used by gw_esxi_session_vmx_path(). */
void gw_runner_set_volumes_root(gw_runner *r, const char *dir);

/* Run argv (argv[0] looked up on the PATH) with no input.  out and err (each
 * may be NULL) get the command's stdout and stderr, NUL-terminated.
 * Returns 0 when the command ran to its end, with its exit status in
 * *status (128+N when killed by signal N; for ssh, 255 is ssh's own
 * failure); -1 when it could not be started, ran past the timeout or wrote
 * too much. */
int gw_runner_run(gw_runner *r, const char *const argv[], char **out,
                  char **err, int *status, gw_err *e);

/* Like gw_runner_run, but a non-zero status is an error too, naming the
 * command and the first line of what it wrote on stderr. */
int gw_runner_run_ok(gw_runner *r, const char *const argv[], char **out,
                     gw_err *e);
/* Like gw_runner_run_ok, but stdout is handed to sink as it arrives,
 * chunk by chunk, and never collected (GW_RUNNER_MAX_OUTPUT still
 * holds); after an error the sink may have had part of it. */
int gw_runner_run_ok_sink(gw_runner *r, const char *const argv[],
                          gw_esxi_sink *sink, void *sctx, gw_err *e);

/* Whole file at path (absolute) through cat.  *data is NUL-terminated (the
 * extra byte not counted in *len). */
int gw_runner_read_file(gw_runner *r, const char *path, char **data,
                        size_t *len, gw_err *e);

/* Replace the file at path (absolute): the current file is copied to
 * "PATH.YYYYmmdd-HHMMSS.bak" (".N" appended while that exists; *backup
 * gets its name, NULL when there was no file; backup NULL: no copy, the
 * caller made one before with gw_runner_backup_file), the data is written through
 * stdin to a temporary "PATH.gpuwiz-XXXXXX" (random, created exclusively:
 * an existing name or link is never written through; a copy of the old
 * file first, so its mode is kept), its size checked, both synced, and
 * renamed into place, the backup first.  With was given, refused (-1, e
 * naming path) when the file no longer holds those wlen bytes (the file as
 * read) right before the renames: they go first on stdin, to one more
 * temporary, compared with cmp(1).  A file with no write bit for anyone
 * is refused unless force (gw_vmx_err_read_only).  On failure the temporaries are
 * removed and PATH is unchanged. */
int gw_runner_write_file_atomic(gw_runner *r, const char *path,
                                const char *data, size_t len,
                                const char *was, size_t wlen, int force,
                                char **backup, gw_err *e);
/* Copy the file at path (absolute) to a backup beside it, named as
 * gw_runner_write_file_atomic names its backup; *backup gets the name.
 * The copy is complete and synced before it gets that name.  -1 and e
 * when path does not exist or cannot be copied (nothing left behind). */
int gw_runner_backup_file(gw_runner *r, const char *path, char **backup,
                          gw_err *e);

/* ---- ESXi operations ------------------------------------------------- */

/* esxcli hardware pci list, parsed as it arrives: only the blocks keep
 * accepts are kept (keep NULL: every device; gw_esxi_pci_keep_display,
 * gw_esxi_pci_keep_addr with kctx a gw_esxi_addr). */
int gw_esxi_session_list_pci(gw_runner *r, gw_esxi_pci_keep *keep,
                             const void *kctx, gw_esxi_pci_list *out,
                             gw_err *e);
/* esxcli hardware pci list as gpuwiz gpus lists it
 * (gw_esxi_gpu_list_read), parsed as it arrives. */
int gw_esxi_session_gpus(gw_runner *r, const gw_table *t, gw_gpu_list *out,
                         gw_err *e);
/* esxcli system version get, parsed (*out empty on failure). */
int gw_esxi_session_version(gw_runner *r, gw_esxi_version *out, gw_err *e);
/* esxcli system uuid get: the host's system id (malloc'ed, lower case). */
int gw_esxi_session_uuid(gw_runner *r, char **uuid, gw_err *e);
/* vim-cmd vmsvc/getallvms, parsed as it arrives. */
int gw_esxi_session_list_vms(gw_runner *r, gw_vm_list *out, gw_err *e);
/* esxcli vm process list (the running VMs), parsed as it arrives. */
int gw_esxi_session_vm_processes(gw_runner *r, gw_esxi_vm_proc_list *out,
                                 gw_err *e);
/* vim-cmd vmsvc/power.getstate VMID, parsed. */
int gw_esxi_session_power_state(gw_runner *r, unsigned long vmid,
                                gw_power *out, gw_err *e);
/* May the PCI device dev (from gw_esxi_session_list_pci) be passed
 * through without taking storage away from ESXi (doc/design.md, section 15.6: never
 * the controller of the boot device or of a datastore)?  0 when it may.
 * Only a device whose VMkernel Name is a storage adapter ("vmhba0") is
 * checked; any other (a GPU, a NIC, a controller without a driver) passes
 * at once and no command is run.  For an adapter, `esxcli storage core
 * path list` gives the devices it reaches, `esxcli storage vmfs extent
 * list` the datastores on them and `esxcli storage core device list`
 * which is the boot device.  -1, naming the PCI device, the adapter and
 * the datastores (by volume name, else VMFS UUID) or the boot device,
 * when the adapter reaches a device holding a VMFS extent or a device with
 * "Is Boot Device: true"; -1 too when one of those commands fails or its
 * output cannot be read, or when a device on the adapter does not say
 * whether it is the boot device (releases before 6.7 print no "Is Boot
 * Device"), since the adapter cannot then be shown to be safe.  Limit:
 * ESXi booted from USB reaches its boot device through a USB adapter
 * (vmhba32) that is not the PCI controller's VMkernel Name. */
int gw_esxi_session_passthru_guard(gw_runner *r, const gw_esxi_pci_dev *dev,
                                   gw_err *e);
/* Turn passthrough on for the device at bdf (any form gw_bdf_parse takes;
 * passed on normalised):
 *  1. esxcli hardware pci list: the device must be listed, and not
 *     "Passthru Capable: false" (the IOMMU, VT-d / AMD-Vi, is then
 *     probably off in the BIOS).  A device already configured and owned
 *     by "VM Passthru" needs nothing: 0, *reboot_needed = 0, and nothing
 *     else is run.
 *  2. gw_esxi_session_passthru_guard().
 *  3. esxcli hardware pci pcipassthru set -d BDF -e true -a (-a applies it
 *     now where the host can, else at the next reboot).  A host without
 *     that namespace (ESXi before 7.0: "Unknown command or namespace")
 *     gets a message saying to toggle passthrough in the Host Client
 *     (Manage > Hardware > PCI Devices) and reboot.
 *  4. esxcli hardware pci list again: *reboot_needed = 1 when the device's
 *     Current Owner is not "VM Passthru" yet (the host must be rebooted
 *     before a VM can use it), else 0.
 * reboot_needed may be NULL; it is 0 on failure. */
int gw_esxi_session_enable_passthru(gw_runner *r, const char *bdf,
                                    int *reboot_needed, gw_err *e);
/* Steps 1 and 2 only, nothing set: 0 when step 3 would run, 1 when the
 * device needs nothing, -1 and e when it would be refused. */
int gw_esxi_session_enable_check(gw_runner *r, const char *bdf, gw_err *e);
/* Hardware versions gw_esxi_session_upgrade takes (vmx-04 is ESX 3.x,
 * vmx-22 ESXi 9.0; Broadcom KB 1003746, doc/design.md, section 15.5). */
#define GW_ESXI_HW_MIN 4
#define GW_ESXI_HW_MAX 22
/* vim-cmd vmsvc/upgrade VMID vmx-NN, for VM vmid now at current_hw.
 * Refused, with nothing run, unless GW_ESXI_HW_MIN <= target_hw <=
 * GW_ESXI_HW_MAX and target_hw > current_hw (an upgrade is one-way and
 * never goes down; equal is "already vmx-NN").  Then the VM must be
 * "Powered off" (vim-cmd vmsvc/power.getstate, right before): any other
 * state is refused and the upgrade is not run.  A non-zero exit of
 * vim-cmd is an error naming the command and the first line it wrote on
 * stderr. */
int gw_esxi_session_upgrade(gw_runner *r, unsigned long vmid, int current_hw,
                            int target_hw, gw_err *e);
/* vim-cmd vmsvc/reload VMID (after editing its .vmx). */
int gw_esxi_session_reload(gw_runner *r, unsigned long vmid, gw_err *e);
/* "[datastore1] vm/vm.vmx" -> "VOLUMES_ROOT/datastore1/vm/vm.vmx"
 * (malloc'ed).  Refuses ".." components. */
int gw_esxi_session_vmx_path(gw_runner *r, const gw_vm *vm, char **path,
                             gw_err *e);
/* Read and parse the .vmx at path. */
int gw_esxi_session_read_vmx(gw_runner *r, const char *path, gw_vmx **out,
                             gw_err *e);
/* Save v over path (gw_runner_write_file_atomic; backup NULL: no backup,
 * the caller took one before) after checking that VM vmid is "Powered
 * off": any other state is refused and nothing is written; refused too
 * when the file no longer holds the document was as read (was NULL: not
 * checked), and when it is read-only without force. */
int gw_esxi_session_save_vmx(gw_runner *r, unsigned long vmid,
                             const char *path, const gw_vmx *v,
                             const gw_vmx *was, int force, char **backup,
                             gw_err *e);

#endif
