/* cmd_table.c: the commands, in the manner of tmux's cmd_entry: each
 * command's name, its usage forms, what it takes and the function that
 * runs it.  Dispatch, the argument check and the usage lines of --help
 * all come from this table, in this order.
 */
#include "cli_int.h"

#include <string.h>

const cli_cmd cli_cmds[] = {
	{ "mmio",
	  { N_("[--json] (--gpu SPEC | --vgpu PROFILE | --vram GB)..."), NULL },
	  CMD_NOARGS, cmd_mmio },
	{ "vmx",
	  { N_("FILE|DIR... [--gpu SPEC]... [--vgpu PROFILE]... [--uvm]\n"
	       "                  [--bdf BDF --system-id UUID]... [--write [--force]] [--json]"),
	    N_("--vm NAME|VMID HOST [--upgrade-hw] [plan options] [--write]"),
	    NULL },
	  0, cmd_vmx },
	{ "snippet",
	  { N_("--format vmx|bosh|opsman|tile|om [--gpu SPEC]... [--vgpu P]..."),
	    N_("--format ansible [--vm NAME]... [--host NAME] [plan options]"),
	    NULL },
	  CMD_NOARGS, cmd_snippet },
	{ "apply",
	  { N_("--answers FILE [--force]"), NULL },
	  0, cmd_apply },
	{ "check",
	  { N_("[--sysroot DIR | HOST | --url URL --user USER] [--json]"), NULL },
	  CMD_NOARGS, cmd_check },
	{ "gpus",
	  { N_("[--sysroot DIR | --esxcli-file FILE | HOST | --url URL --user USER] [--json]"), NULL },
	  CMD_NOARGS, cmd_gpus },
	{ "vms",
	  { N_("HOST [--json]"), NULL },
	  CMD_NOARGS, cmd_vms },
	{ "passthru",
	  { N_("--enable BDF HOST [--json]"), NULL },
	  CMD_NOARGS, cmd_passthru },
	{ "verify",
	  { N_("[--sysroot DIR] [--nvidia-smi-q FILE] [--bundle OUT.tar.gz] [--json]"), NULL },
	  CMD_NOARGS, cmd_verify },
	{ "diagnose",
	  { N_("FILE|- [--json]"), NULL },
	  0, cmd_diagnose },
	{ "vsphere",
	  { N_("--url URL --user USER [--thumbprint SHA256 | --insecure]\n"
	       "                  [--timeout SECONDS] list [--json]"),
	    N_("--url URL --user USER [...] apply --vm NAME... [--gpu SPEC]...\n"
	       "                  [--bdf BDF]... [--vgpu PROFILE]... [--uvm] [--upgrade-hw]\n"
	       "                  [--parallel N] [--dry-run]"),
	    N_("--url URL --user USER [...] passthru --enable BDF [--host NAME]"),
	    NULL },
	  0, cmd_vsphere },
};

const size_t cli_ncmds = sizeof cli_cmds / sizeof cli_cmds[0];

const cli_cmd *
cli_cmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < cli_ncmds; i++)
		if (strcmp(cli_cmds[i].name, name) == 0)
			return &cli_cmds[i];
	return NULL;
}

/* The usage lines of --help: every form of every command. */
void
cli_usage_commands(FILE *f)
{
	size_t i, k;

	for (i = 0; i < cli_ncmds; i++)
		for (k = 0; cli_cmds[i].usage[k] != NULL; k++)
			fprintf(f, "       gpuwiz %s %s\n", cli_cmds[i].name,
			        _(cli_cmds[i].usage[k]));
	fputs("       gpuwiz --help | --version\n", f);
}
