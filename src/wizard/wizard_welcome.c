/* wizard_welcome.c: what the welcome screen asks of the wizard beyond
 * the modes (wizard.h, the welcome section at its end). */
#include "wizard_int.h"

#include <string.h>

/* The host whose scratch directory the wizard writes to is the sample in
 * use: an ESXi sample is w->host, a Linux one w->local (either may be left
 * from an earlier pick, so the scratch decides). */
const char *
gw_wizard_sample_name(const gw_wizard *w)
{
	const gw_host *hs[2];
	size_t i;

	if (w->scratch == NULL)
		return NULL;
	hs[0] = w->host;
	hs[1] = w->local;
	for (i = 0; i < 2; i++) {
		const char *s = hs[i] ? gw_host_scratch(hs[i]) : NULL;

		if (s != NULL && strcmp(s, w->scratch) == 0)
			return gw_host_sample_name(hs[i]);
	}
	return NULL;
}

/* What a mode is for, where its name alone could mislead: "Configure
 * this Linux host" checks the machine for a VMware VM, it does not set
 * up KVM.  Indexed by mode (a table, not a branch on the mode). */
static const char *const mode_notes[GW_NMODES][2] = {
	[GW_MODE_LINUX] = {
		/* TRANSLATORS: under "Configure this Linux host": what it is
		 * for; at most 72 cells. */
		N_("Check this machine's firmware, IOMMU and BARs; plan a VMware VM"),
		/* TRANSLATORS: under the focused "Configure this Linux
		 * host"; wrapped, at most 150 cells. */
		N_("Checks this machine's firmware, IOMMU and real BAR sizes, before or instead of ESXi, and plans a VMware VM from them; it does not set up KVM."),
	},
};

const char *
gw_wizard_mode_note(gw_mode m, int long_form)
{
	const char *s;

	if ((int)m < 0 || m >= GW_NMODES)
		return NULL;
	s = mode_notes[m][long_form ? 1 : 0];
	return s ? _(s) : NULL;
}
