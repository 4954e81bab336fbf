/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_live.h: gpuwiz verify on the running guest (or a copy of its /
 * under a sysroot): what sysfs and /proc show of the NVIDIA GPUs and the
 * driver (gw_live_scan), the checks on that (gw_live_checks), and the
 * support bundle (gw_live_bundle_write).  The command that prints it all
 * is gw_verify_live_command (src/cli/cmd_guest.h). */
#ifndef GW_VERIFY_LIVE_H
#define GW_VERIFY_LIVE_H

#include "verify.h"

/* One line of a device's sysfs resource file. */
typedef struct gw_live_bar {
	unsigned long long start, end, flags;
} gw_live_bar;

typedef struct gw_live_gpu {
	char *bdf;
	unsigned vendor, device, subv, subd, cls;
	const gw_gpu *row;       /* the table's row, NULL when unknown */
	char *driver;            /* bound driver, NULL when none */
	gw_live_bar bars[6];
	int nres;                /* resource lines read */
	unsigned cfg_bar[6];     /* config space BAR registers */
	int cfg_ok;
} gw_live_gpu;

typedef struct gw_live_sys {
	char *root;              /* prefix, "" for / */
	const char *sysroot;     /* as given, NULL for / */
	gw_live_gpu *gpus;       /* NVIDIA display devices, by address */
	size_t ngpus;
	char *version_text;      /* /proc/driver/nvidia/version, NULL absent */
	char *driver_version;    /* the version on its NVRM line, or NULL */
	char *cmdline;           /* /proc/cmdline, NULL when unreadable */
} gw_live_sys;

/* Read the guest under sysroot (NULL or "" = "/"); t may be NULL.
 * Returns 0, or -1 with e set when sysroot is not a directory (*l then
 * needs no gw_live_free). */
int gw_live_scan(gw_live_sys *l, const gw_table *t, const char *sysroot,
                 gw_err *e);
void gw_live_free(gw_live_sys *l);

/* The rows "gpus", "driver", and per GPU "bar1" and "bars" (verify.h,
 * section 4) into *v (initialised here; free with gw_verify_free). */
void gw_live_checks(const gw_live_sys *l, gw_verify *v);

/* Is BAR k (0..5) of g the upper half of a 64-bit memory BAR? */
int gw_live_upper_half(const gw_live_gpu *g, int k);

/* Write the support bundle to out (gw_verify_live_command):
 * text and js are the report, nvsmi_data (may be NULL) the capture.
 * Returns 0, or -1 with e set (nothing left behind). */
int gw_live_bundle_write(const char *out, const gw_live_sys *l,
                         const char *nvsmi_data, size_t nvsmi_len,
                         const char *text, const char *js, gw_err *e);

#endif
