/* mmio_bars.c: the MMIO size from VRAM and BARs (mmio_bars.h). */
#include "mmio_bars.h"

#include <string.h>

uint64_t
gw_mmio_bytes_gb(uint64_t bytes)
{
	uint64_t gb = (bytes + (1ULL << 30) - 1) >> 30;

	return gb == 0 && bytes > 0 ? 1 : gb;
}

int
gw_mmio_bars_gb(const uint64_t *bar_bytes, size_t n, uint64_t *out_gb,
                gw_err *e)
{
	uint64_t need;

	if (gw_mmio_bars(bar_bytes, n, &need, e) != 0)
		return -1;
	*out_gb = gw_mmio_bytes_gb(need);
	return 0;
}

int
gw_mmio_size_of(uint64_t total_gb, const uint64_t *bar_bytes, size_t n,
                gw_mmio_size *out, gw_err *e)
{
	memset(out, 0, sizeof *out);
	if (total_gb == 0 && n == 0)
		return 0;
	if ((total_gb > 0 && gw_mmio_rule(total_gb, &out->rule_gb, e) != 0) ||
	    (n > 0 && gw_mmio_bars_gb(bar_bytes, n, &out->bar_gb, e) != 0)) {
		memset(out, 0, sizeof *out);
		return -1;
	}
	out->size_gb = out->rule_gb > out->bar_gb ? out->rule_gb : out->bar_gb;
	out->known = 1;
	return 0;
}
