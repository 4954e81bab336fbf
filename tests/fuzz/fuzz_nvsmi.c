/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_nvsmi.c: nvidia-smi -q, read by the guest check
 * (src/core/verify_nvsmi.c, then the checks of verify.c against the GPU
 * table) and by the ESXi host probe (src/host/esxi_vgpu.c: ECC and MIG
 * modes per GPU), as tests/unit/core/test_verify.c and
 * tests/unit/host/test_esxi_vgpu.c call them. */
#include "fuzz.h"
#include "verify.h"
#include "esxi_vgpu.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gw_esxi_gpu_modes m;
	gw_nvsmi q;
	gw_verify v;
	char *s;
	gw_err e;

	if (gw_nvsmi_parse(&q, (const char *)data, size, "fuzz", &e) == 0) {
		gw_verify_run(&q, fz_table(), &v);
		gw_verify_free(&v);
	}
	gw_nvsmi_free(&q);
	s = fz_text(data, size);
	(void)gw_esxi_parse_gpu_modes(s, "fuzz", &m, &e);
	gw_esxi_gpu_modes_free(&m);
	free(s);
	return 0;
}
