/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mmio.h: 64-bit MMIO window sizing (doc/design.md, section 15.2).
 *
 * Rule (Broadcom KB 323402): total framebuffer of all GPUs in the VM; a
 * power of two goes to the next power of two; anything else is rounded up
 * to a power of two and then doubled.
 * BAR need: the GPUs' 64-bit BARs packed at natural alignment (largest
 * first), the end rounded up to a power of two.
 * The recommendation is the larger of the two.
 */
#ifndef GW_MMIO_H
#define GW_MMIO_H

#include "gw.h"

/* Limits that make an input "absurd" (the error says which). */
#define GW_MMIO_MAX_GPU_GB    4096ULL    /* one GPU's VRAM */
#define GW_MMIO_MAX_TOTAL_GB  65536ULL   /* all GPUs of one VM */
#define GW_MMIO_MAX_COUNT     128        /* passthrough devices per VM, hw 21 */
/* Largest window either calculation can produce: the rule's result for
 * GW_MMIO_MAX_TOTAL_GB.  BAR sets needing more are refused as absurd. */
#define GW_MMIO_MAX_WINDOW_GB (2 * GW_MMIO_MAX_TOTAL_GB)

/* Rule size in GB for a total in GB.  total_gb must be 1..MAX_TOTAL_GB. */
int gw_mmio_rule(uint64_t total_gb, uint64_t *out_gb, gw_err *e);

/* BAR-based need in bytes for the given 64-bit BAR sizes (bytes, each a
 * power of two; zero sizes ignored).  Rounded up to a power of two (a sum
 * that is already a power of two stays).  Fails on overflow/absurd sizes. */
int gw_mmio_bars(const uint64_t *bar_bytes, size_t n, uint64_t *out_bytes,
                 gw_err *e);

/* One 64-bit BAR in the window.  size is the caller's (bytes, a power
 * of two, or 0: not placed); tag is the caller's too (which device and
 * BAR); offset is set by gw_mmio_need_layout. */
typedef struct gw_mmio_bar {
	uint64_t size;
	uint64_t offset;   /* from the window's start, bytes */
	size_t tag;
} gw_mmio_bar;

/* Bytes -> GB, rounded up; at least 1 for a non-zero size. */
uint64_t gw_mmio_bytes_gb(uint64_t bytes);

/* The whole sizing of one VM, the one place it is computed: the rule for
 * total_gb of framebuffer (rule_gb; 0 when total_gb is 0), the BAR need
 * of the 64-bit BARs (bar_gb, in GB rounded up; 0 when nbars is 0 or all
 * sizes are 0), and the recommendation, the larger of the two (mmio_gb).
 * bar_end is where the packed BARs end, in bytes.  Fails (e
 * set, *out untouched) as gw_mmio_rule and gw_mmio_bars do; the rule is
 * checked first. */
typedef struct gw_mmio_need {
	uint64_t rule_gb;
	uint64_t bar_gb;
	uint64_t bar_end;
	uint64_t mmio_gb;
} gw_mmio_need;
int gw_mmio_need_for(uint64_t total_gb, const uint64_t *bar_bytes,
                     size_t nbars, gw_mmio_need *out, gw_err *e);
/* The same for BARs to place, as firmware places them: largest first
 * (equal sizes in the given order), each at the next offset that is a
 * multiple of its size (natural alignment).  bars is sorted into that
 * order and each offset set (BARs of size 0 go last, offset 0); bar_end
 * is where the placed BARs end.  The one packing of the BAR need
 * (gw_mmio_bars and the plan's gw_plan.bars). */
int gw_mmio_need_layout(uint64_t total_gb, gw_mmio_bar *bars, size_t nbars,
                        gw_mmio_need *out, gw_err *e);

/* Smallest power of two >= v (v >= 1), 0 on overflow. */
uint64_t gw_pow2_ceil(uint64_t v);
int gw_is_pow2(uint64_t v);

/* Parse a BAR size the operator gives ("256M", "16G", "16 GiB"): a
 * whole number and a unit, M/MB/MiB or G/GB/GiB (any case; binary units,
 * as PCI BAR sizes are), a power of two from 1 MiB to
 * GW_MMIO_MAX_WINDOW_GB GiB.  A bare number is refused (its unit would be
 * a guess).  field names the option or field for the error. */
int gw_parse_bar_size(const char *s, const char *field, uint64_t *bytes,
                      gw_err *e);
/* A BAR size as gw_parse_bar_size reads it: "16G" (whole GiB) or
 * "256M", into out (>= 24 bytes). */
void gw_fmt_bar_size(uint64_t bytes, char *out, size_t outlen);

/* Parse a user-supplied size in GB ("48"): decimal, 1..max.  field names
 * the option or field for the error ("--vram").  Blanks around the value
 * and a unit suffix "G"/"GB" (any case, "48GB", "48 gb") are accepted;
 * signs, fractions ("1.5"), hex and other units are refused. */
int gw_parse_gb(const char *s, const char *field, uint64_t max, uint64_t *out,
                gw_err *e);

#endif
