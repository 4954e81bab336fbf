/* mmio_bars.h: the 64-bit MMIO size of a set of GPUs in one VM from what
 * is known of them: the rule on their VRAM and the need of their 64-bit
 * BARs (mmio.h), the larger wins, in whole GB. */
#ifndef GW_MMIO_BARS_H
#define GW_MMIO_BARS_H

#include "mmio.h"

typedef struct gw_mmio_size {
	int known;          /* 0: neither VRAM nor BARs were given */
	uint64_t rule_gb;   /* the rule on the total VRAM; 0 without VRAM */
	uint64_t bar_gb;    /* the BAR need in GB; 0 without BARs */
	uint64_t size_gb;   /* the larger of the two */
} gw_mmio_size;

/* Bytes in whole GB, rounded up (at least 1 for a need above 0). */
uint64_t gw_mmio_bytes_gb(uint64_t bytes);

/* gw_mmio_bars() in whole GB (gw_mmio_bytes_gb). */
int gw_mmio_bars_gb(const uint64_t *bar_bytes, size_t n, uint64_t *out_gb,
                    gw_err *e);

/* The size for total_gb of VRAM (0: unknown) and the 64-bit BARs
 * bar_bytes[0..n).  Returns 0 (out->known 0 when total_gb is 0 and n is
 * 0), or -1 with e set when the rule or the BAR need refuses its input
 * (*out then all zero). */
int gw_mmio_size_of(uint64_t total_gb, const uint64_t *bar_bytes, size_t n,
                    gw_mmio_size *out, gw_err *e);

#endif
