/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_vimcmd.c: the vim-cmd parsers (src/host/esxi_vms.c): vmsvc/getallvms
 * and vmsvc/power.getstate, as tests/unit/host/test_esxi.c calls them. */
#include "fuzz.h"
#include "esxi.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fz_text(data, size);
	gw_vm_list l;
	gw_power p;
	size_t i;
	gw_err e;

	if (gw_esxi_parse_getallvms(s, "fuzz", &l, &e) == 0) {
		/* a VM listed twice is refused */
		for (i = 0; i < l.n; i++)
			for (size_t j = i + 1; j < l.n; j++)
				FZ_CHECK(l.vms[i].vmid != l.vms[j].vmid);
	}
	gw_vm_list_free(&l);
	if (gw_esxi_parse_power_state(s, "fuzz", &p, &e) == 0)
		FZ_CHECK(gw_power_id(p) != NULL);
	free(s);
	return 0;
}
