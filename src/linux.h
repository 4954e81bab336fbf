/* linux.h: probes of a Linux host (KVM/Proxmox hosts, or any Linux where
 * the GPU sits) through a root prefix, so tests can hand them a fake /sys
 * and /proc (design.md section 2). */
#ifndef GW_LINUX_H
#define GW_LINUX_H

#include "gw.h"
#include "gputable.h"

/* gpuwiz check [--sysroot DIR] [--json]: prints the rows and returns the
 * exit status: 0 nothing failed, 1 something failed, 2 input error (e set,
 * nothing printed).  sysroot NULL or "" = "/". */
int gw_linux_check_command(const char *sysroot, int json, gw_err *e);

/* gpuwiz gpus [--sysroot DIR] [--json]: display-class devices through
 * libpci's sysfs back end; returns 0, or 2 on an input error. */
int gw_linux_gpus_command(const gw_table *t, const char *sysroot, int json,
                          gw_err *e);

#endif
