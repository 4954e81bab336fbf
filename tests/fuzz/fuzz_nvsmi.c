/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_nvsmi.c: nvidia-smi -q, read by the guest check
 * (src/core/verify_nvsmi.c, then the checks of verify.c against the GPU
 * table) and by the ESXi host probe (src/host/esxi_vgpu.c: ECC and MIG
 * modes per GPU), as tests/unit/core/test_verify.c and
 * tests/unit/host/test_esxi_vgpu.c call them.  The input fed in chunks
 * (gw_nvsmi_parse_pieces, the pieces' size from its first byte) gives the
 * same answer as whole. */
#include "fuzz.h"
#include "verify.h"
#include "esxi_vgpu.h"

static int
same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	       (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The input in pieces of 1 to 64 bytes (the size from its first byte):
 * the same answer as whole (rc, the refusal, the fields). */
static void
check_chunks(const uint8_t *data, size_t size, int wrc, const gw_err *we,
             const gw_nvsmi *w)
{
	gw_nvsmi q;
	gw_err e;
	size_t piece = size ? 1 + data[0] % 64 : 1, i;

	FZ_CHECK(gw_nvsmi_parse_pieces(&q, (const char *)data, size, piece,
	                               "fuzz", &e) == wrc);
	if (wrc != 0)
		FZ_CHECK(strcmp(e.msg, we->msg) == 0);
	FZ_CHECK(q.ngpus == w->ngpus && q.banner == w->banner &&
	         q.attached_gpus == w->attached_gpus &&
	         q.attached_vgpus == w->attached_vgpus);
	FZ_CHECK(same_text(q.driver_version, w->driver_version));
	FZ_CHECK(same_text(q.cuda_version, w->cuda_version));
	FZ_CHECK(same_text(q.error_text, w->error_text));
	for (i = 0; i < q.ngpus; i++) {
		const gw_nvsmi_gpu *a = &q.gpus[i], *b = &w->gpus[i];

		FZ_CHECK(same_text(a->bus_id, b->bus_id) && a->line == b->line);
		FZ_CHECK(same_text(a->product_name, b->product_name));
		FZ_CHECK(same_text(a->virt_mode_text, b->virt_mode_text));
		FZ_CHECK(same_text(a->fb_total_text, b->fb_total_text));
		FZ_CHECK(same_text(a->bar1_total_text, b->bar1_total_text));
		FZ_CHECK(same_text(a->license_status, b->license_status));
		FZ_CHECK(a->device_id == b->device_id &&
		         a->subsys_device == b->subsys_device &&
		         a->active_vgpus == b->active_vgpus);
	}
	gw_nvsmi_free(&q);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gw_esxi_gpu_modes m;
	gw_nvsmi q;
	gw_verify v;
	char *s;
	gw_err e;
	int rc;

	rc = gw_nvsmi_parse(&q, (const char *)data, size, "fuzz", &e);
	check_chunks(data, size, rc, &e, &q);
	if (rc == 0) {
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
