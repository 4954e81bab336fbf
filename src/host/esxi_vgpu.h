/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_vgpu.h: what an ESXi host says about its readiness for NVIDIA
 * vGPU (doc/design.md, section 15.6): the host graphics type (`esxcli
 * graphics host get`), the NVIDIA vGPU manager VIB (`esxcli software vib
 * list`) and, where the vGPU manager is installed, each GPU's ECC and MIG
 * mode (`nvidia-smi -q` on the host).  Parsers only (esxi_vgpu.c): they
 * follow the rules of esxi.h and print nothing; the rows are
 * host_esxi_vgpu.c's. */
#ifndef GW_ESXI_VGPU_H
#define GW_ESXI_VGPU_H

#include "gw.h"

#define GW_ESXI_CMD_GRAPHICS "esxcli graphics host get"
#define GW_ESXI_CMD_VIBS     "esxcli software vib list"
#define GW_ESXI_CMD_NVSMI    "nvidia-smi -q"
#define GW_ESXI_CMD_GDEVICES "esxcli graphics device list"

/* esxcli graphics host get:
 *    Default Graphics Type: SharedPassthru
 *    Shared Passthru Assignment Policy: Performance */
typedef struct gw_esxi_graphics {
	char *default_type;      /* "SharedPassthru", "Shared" */
	char *policy;            /* "Performance"; NULL when absent */
} gw_esxi_graphics;

/* 0, or -1 and e (no "Default Graphics Type" line, binary, empty). */
int gw_esxi_parse_graphics_host(const char *text, const char *name,
                                gw_esxi_graphics *out, gw_err *e);
void gw_esxi_graphics_free(gw_esxi_graphics *g);
/* "SharedPassthru" (esxcli), "sharedDirect" (the API) or "Shared Direct"
 * (the clients' label), any case: what NVIDIA vGPU needs. */
int gw_esxi_graphics_shared_direct(const char *type);

/* esxcli graphics device list: one block per graphics device (the
 * layout of a published capture, frankdenneman.nl 2023):
 *    0000:af:00.0
 *       Vendor Name: NVIDIA Corporation
 *       Device Name: GA100 [A100 PCIe 40GB]
 *       Module Name: None
 *       Graphics Type: Basic
 *       Memory Size in KB: 0
 *       Number of VMs: 0
 * "Graphics Type" is Basic (no vGPU driver for it), Shared (vSGA) or
 * SharedPassthru (Shared Direct: NVIDIA vGPU). */
typedef struct gw_esxi_gdev {
	char *id;                /* "0000:af:00.0" */
	char *vendor;            /* "NVIDIA Corporation"; NULL when absent */
	char *device;
	char *module;            /* "nvidia", "None" */
	char *type;              /* "SharedPassthru" */
	long vms;                /* Number of VMs; -1 when absent */
} gw_esxi_gdev;

typedef struct gw_esxi_gdevs {
	gw_esxi_gdev *v;
	size_t n;
} gw_esxi_gdevs;

/* 0 (n may be 0: no graphics device), or -1 and e (a key line before any
 * device, binary, empty). */
int gw_esxi_parse_graphics_devices(const char *text, const char *name,
                                   gw_esxi_gdevs *out, gw_err *e);
void gw_esxi_gdevs_free(gw_esxi_gdevs *d);

/* The NVIDIA vGPU manager among the VIBs of esxcli software vib list (a
 * table: Name, Version, Vendor, Acceptance Level, Install Date...). */
typedef struct gw_esxi_vib {
	char *name;              /* "NVD-AIE_ESXi_8.0.0_Driver"; NULL: none */
	char *version;           /* "525.105.14-1OEM.800.1.0.20613240" */
} gw_esxi_vib;

/* 0 (out->name NULL when no vGPU manager is listed), or -1 and e (no
 * table with a Name and a Version column). */
int gw_esxi_parse_vib_list(const char *text, const char *name,
                           gw_esxi_vib *out, gw_err *e);
void gw_esxi_vib_free(gw_esxi_vib *v);

/* Per GPU of nvidia-smi -q: the "Current" line of its "ECC Mode" and "MIG
 * Mode" sections ("Enabled", "Disabled", "N/A"); NULL when absent. */
typedef struct gw_esxi_gpu_mode {
	char *bus_id;            /* "00000000:3B:00.0" */
	char *product;           /* "NVIDIA L40S", or NULL */
	char *ecc;
	char *mig;
} gw_esxi_gpu_mode;

typedef struct gw_esxi_gpu_modes {
	gw_esxi_gpu_mode *v;
	size_t n;
} gw_esxi_gpu_modes;

/* 0 (n may be 0: no GPU section), or -1 and e (binary, empty). */
int gw_esxi_parse_gpu_modes(const char *text, const char *name,
                            gw_esxi_gpu_modes *out, gw_err *e);
void gw_esxi_gpu_modes_free(gw_esxi_gpu_modes *m);

#endif
