/* linux_report.h: gpuwiz gpus on a Linux host, and the
 * printers of the rows and devices that the probes of linux.h return. */
#ifndef GW_LINUX_REPORT_H
#define GW_LINUX_REPORT_H

#include "linux.h"

/* gpuwiz gpus [--sysroot DIR] [--json]: display-class devices through
 * libpci's sysfs back end; returns 0, or 2 on an input error.
 * shown_root: the root the output names instead of sysroot (a sample
 * host's: ""), or NULL. */
int gw_linux_gpus_command(const gw_table *t, const char *sysroot,
                          const char *shown_root, int json, gw_err *e);

#endif
