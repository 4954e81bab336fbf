/* host_ext.h: what the command line needs of a host beyond host.h, kept
 * apart so that host.h's back ends stay as they are (fold into host.h).
 *
 *  - gpuwiz gpus on an ESXi host prints esxcli's own listing (vmx ids,
 *    passthrough flags) exactly as for a saved one (--esxcli-file), so it
 *    needs the listing's text, not the probe's GPU list;
 *  - the wizard (gw_wizard_start) still takes a runner or a vSphere
 *    session: the command line opens the host through gw_host_open and
 *    hands the connection over. */
#ifndef GW_HOST_EXT_H
#define GW_HOST_EXT_H

#include "host.h"

/* The host's raw PCI listing: on the ESXi back end the output of
 * `esxcli hardware pci list`.  0, or -1 and e (another back end: it
 * cannot). */
int gw_host_pci_listing(gw_host *h, char **text, gw_err *e);

/* Hand h's connection over (*r: the ESXi runner, *vs: the vSphere
 * session; NULL where h has none) and close the rest of h. */
void gw_host_hand_over(gw_host *h, gw_runner **r, gw_vs **vs);

/* Many writes in a row (gpuwiz vsphere apply over several VMs): after a
 * write the back end reads again only what a later write needs (the
 * vSphere inventory once a passthrough device was attached, for the next
 * VM's pick), not the whole host after every write as the wizard wants
 * (its screens show the host as it is now).  Off by default. */
void gw_host_set_batch(gw_host *h, int on);

#endif
