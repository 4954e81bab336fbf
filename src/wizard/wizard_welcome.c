/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_welcome.c: what the welcome screen asks of the wizard beyond
 * the modes (wizard.h, the welcome section at its end). */
#include "wizard_int.h"

#include <string.h>

/* The host whose scratch directory the wizard writes to is the sample in
 * use: an ESXi sample is w->host, a Linux one w->local (either may be left
 * from an earlier pick, so the scratch decides), while the mode reads it
 * (another route chosen since: none). */
const char *
gw_wizard_sample_name(const gw_wizard *w)
{
	const gw_host *hs[2];
	size_t i;

	if (w->scratch == NULL)
		return NULL;
	hs[0] = wz_host_for(w, w->mode) == w->host ? w->host : NULL;
	hs[1] = w->mode == GW_MODE_LINUX ? w->local : NULL;
	for (i = 0; i < 2; i++) {
		const char *s = hs[i] ? gw_host_scratch(hs[i]) : NULL;

		if (s != NULL && strcmp(s, w->scratch) == 0)
			return gw_host_sample_name(hs[i]);
	}
	return NULL;
}

int
gw_wizard_sample_leaves_answers(const gw_wizard *w, const char *name)
{
	const char *in_use = gw_wizard_sample_name(w);

	/* the file's sample is the first made: none left before it */
	return w->af.path != NULL && w->af.host == GW_AHOST_SAMPLE &&
	       w->nscratch_left == 0 &&
	       w->af.host_address != NULL && name != NULL &&
	       in_use != NULL && strcmp(in_use, w->af.host_address) == 0 &&
	       strcmp(name, in_use) != 0;
}

const char *const *
gw_wizard_scratch_left(const gw_wizard *w, size_t *n)
{
	*n = w->nscratch_left;
	return (const char *const *)w->scratch_left;
}

/* The PCI functions the welcome screen's question looks at: every one of
 * a workstation or a server (some tens to a few hundred); beyond them
 * (SR-IOV's virtual functions by the thousand) the first frame would wait
 * on the host's size. */
#define WZ_GPU_QUESTION_MAX 1024

int
gw_wizard_machine_has_gpu(const gw_wizard *w)
{
	gw_err e;

	(void)w;
	/* /proc/bus/pci/devices and the GPU makers' class files
	 * (gw_linux_has_gpu): the welcome screen's question only; a root
	 * that cannot be read, or one with more functions than are looked
	 * at and no GPU among those, counts as one with a GPU (nothing
	 * offered in its place) */
	return gw_linux_has_gpu(gw_wizard_sysroot(), WZ_GPU_QUESTION_MAX,
	                        &e) != 0;
}
