/* esxi_report.h: the output of `gpuwiz gpus` for an ESXi host (a saved
 * `esxcli hardware pci list`, or one run on the host): the GPUs of
 * gw_esxi_gpus_read() as a table with the MMIO line and the notes, or as
 * the JSON object described in esxi.h (gw_esxi_gpus_command). */
#ifndef GW_ESXI_REPORT_H
#define GW_ESXI_REPORT_H

#include "esxi.h"

/* Human name of a VM's power state (translated; the screens and the
 * vms/vmx commands). */
const char *gw_power_name(gw_power p);

#endif
