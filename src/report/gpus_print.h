/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpus_print.h: the one printer of gpuwiz gpus, over the rows of a host's
 * GPU list (hosttypes.h: gw_gpu_list), whatever back end filled them (a
 * Linux root, the ESXi shell or a saved esxcli listing, the vSphere API).
 *
 * Text: "Display-class devices in SOURCE:", then a table, two blanks
 * before each line, columns padded in terminal cells: Address, VMX id
 * (ESXi's decimal form), PCI id, Name, VRAM, 64-bit BARs ("1:64G 3:32M"),
 * IOMMU group, Driver, Passthrough; "-" for what the back end cannot see.
 * Then the MMIO line and "Notes:" with one "  - " line each.  No device:
 * "no display-class device in SOURCE".  What the host said is escaped.
 *
 * JSON: {"file": SOURCE,
 *        "gpus": [{"bdf": "0000:3b:00.0", "vmx_id": "00000:059:00.0",
 *                  "vendor_id": "10de", "device_id": "26b9",
 *                  "subvendor_id": "10de", "subdevice_id": "1851",
 *                  "name": "NVIDIA L40S", "table_id": "l40s",
 *                  "vram_gb": 48,
 *                  "bars": [{"index", "size_bytes", "is_64bit",
 *                            "prefetchable", "io"}],
 *                  "iommu_group": "15", "iommu_group_devices": [...],
 *                  "driver": "vfio-pci",
 *                  "passthru_capable": true, "passthru_enabled": true,
 *                  "configured_owner": "VM Passthru",
 *                  "current_owner": "VM Passthru",
 *                  "counted_in_mmio": true}],
 *        "mmio_size_gb": 128, "notes": ["..."]}
 * with null (or an empty list) for what the back end cannot see or the
 * table does not know: name, table_id, vram_gb, subvendor_id /
 * subdevice_id, iommu_group, driver, the passthrough keys; mmio_size_gb
 * null when it cannot be computed (the notes say why). */
#ifndef GW_GPUS_PRINT_H
#define GW_GPUS_PRINT_H

#include "hosttypes.h"

#include <jansson.h>

/* What gpuwiz gpus prints, appended to out (initialised when out->data is
 * NULL): the text, or with json the object indented as every JSON output
 * is (gw_json_fprint). */
void gw_gpus_output(gw_buf *out, const gw_gpu_list *l, int json);

#endif
