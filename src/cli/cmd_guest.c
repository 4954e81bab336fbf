/* cmd_guest.c: the commands that run inside the guest or read what it
 * logged: verify, diagnose.
 */
#include "cli_int.h"
#include "diagnose.h"
#include "verify.h"

/* diagnose FILE|-: cause and fix for a vmware.log excerpt or error text */
int
cmd_diagnose(cli_opts *o, const gw_table *t, gw_err *e)
{
	(void)t;
	if (o->nargs != 1) {
		gw_err_set(e, o->nargs == 0
		           ? _("missing the FILE to read (a vmware.log excerpt or an error message; - reads standard input)")
		           : _("expected one FILE (or - for standard input)"));
		return EXIT_USAGE;
	}
	return gw_diagnose_command(o->args[0], o->json, e);
}

/* verify (CMD_NOARGS): the checks inside the guest */
int
cmd_verify(cli_opts *o, const gw_table *t, gw_err *e)
{
	/* a saved capture alone: its checks only; otherwise the live guest
	 * (--sysroot DIR, else /), with the capture's checks when given */
	if (o->nvsmi != NULL && o->sysroot == NULL && o->bundle == NULL)
		return gw_verify_command(t, o->nvsmi, o->json, e);
	return gw_verify_live_command(t, o->sysroot, o->nvsmi, o->bundle,
	                              o->json, e);
}
