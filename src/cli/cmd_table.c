/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_table.c: the commands, in the manner of tmux's cmd_entry: each
 * command's name, its usage forms, what it takes (its words and its
 * option set: ids of opts.c's one option table) and the function that
 * runs it, with a line on what it does.  Dispatch, the argument check,
 * the refusal of an option a command does not take (cli_check_opts), the
 * usage lines of --help, each command's own help (help.c) and the bash
 * completion (complete.c) all come from this table, in this order.
 */
#include "cli_int.h"

#include <string.h>

#define O(x) OPTBIT(OPT_##x)

/* ---- the option sets: what each command takes, as its code uses it ---- */

/* --help, --lang and --table: any command and the wizard (every command
 * loads the GPU table; --table names another one) */
const cli_optset cli_global_opts = O(HELP) | O(LANG) | O(TABLE) | O(VERBOSE) |
                                   O(QUIET);

/* the plan options: the GPUs and how the plan places them (answers.h) */
#define PLAN_OPTS (O(GPU) | O(VGPU) | O(VRAM) | O(UVM) | O(P2P) | O(CODE43) | \
                   O(NO_RESERVE) | O(MEMORY) | O(ESXI) | O(MMIO_GB) | \
                   O(ALLOW_BELOW_RULE) | O(BDF) | O(SYSTEM_ID) | O(DYNAMIC))
/* HOST: an ESXi host through ssh, or a sample host (hostctx.c) */
#define HOST_OPTS (O(SSH) | O(SSH_PORT) | O(SSH_IDENTITY) | O(SSH_OPTION) | \
                   O(SAMPLE_HOST))
/* --url URL --user USER: the vSphere API and how it is reached */
#define API_OPTS (O(URL) | O(USER) | O(THUMBPRINT) | O(INSECURE) | O(CAFILE) | \
                  O(TIMEOUT))

/* the groups as --help lists them */
const cli_optset cli_plan_opts = PLAN_OPTS;
const cli_optset cli_host_opts = HOST_OPTS;
const cli_optset cli_api_opts = API_OPTS;

/* plain gpuwiz: the wizard on a host, its answers file */
const cli_optset cli_wizard_opts = O(ANSWERS) | HOST_OPTS | API_OPTS;

/* vsphere: each subcommand has its set */
static const cli_sub vsphere_subs[] = {
	{ "list",
	  N_("--url URL --user USER [--thumbprint SHA256 | --insecure]\n"
	     "                  [--timeout SECONDS] list [--json]"),
	  N_("List the hosts with their GPUs and the VMs."),
	  API_OPTS | O(JSON), vs_list },
	{ "apply",
	  N_("--url URL --user USER [...] apply --vm NAME... [--gpu SPEC]...\n"
	     "                  [--bdf BDF]... [--vgpu PROFILE]... [--uvm] [plan options]\n"
	     "                  [--upgrade-hw] [--parallel N] [--force] [--dry-run] [--json]"),
	  N_("Put the GPUs into powered-off VMs through the API."),
	  API_OPTS | PLAN_OPTS | O(VM) | O(UPGRADE_HW) | O(PARALLEL) |
	  O(FORCE) | O(DRY_RUN) | O(JSON), vs_apply },
	{ "passthru",
	  N_("--url URL --user USER [...] passthru --enable BDF [--host NAME]\n"
	     "                  [--dry-run]"),
	  N_("Enable passthrough of a device on a host through the API."),
	  API_OPTS | O(ENABLE) | O(HOST) | O(DRY_RUN), vs_passthru },
	{ NULL, NULL, NULL, 0, NULL },
};

const cli_cmd cli_cmds[] = {
	{ "mmio",
	  { N_("[--json] (--gpu SPEC | --vgpu PROFILE | --vram GB)...\n"
	       "                  [plan options]"), NULL },
	  N_("Print the 64-bit MMIO size the GPUs need and the two .vmx keys."),
	  CMD_NOARGS,
	  /* sizing only: the guest memory is never reserved here */
	  (PLAN_OPTS & ~(O(NO_RESERVE) | O(DYNAMIC))) | O(JSON),
	  NULL, cmd_mmio },
	{ "vmx",
	  { N_("FILE|DIR... [--gpu SPEC]... [--vgpu PROFILE]... [--uvm] [--json]\n"
	       "                  [--bdf BDF --system-id UUID]... [plan options]\n"
	       "                  [--write [--force] [--dry-run]]"),
	    N_("--vm NAME|VMID HOST [--upgrade-hw] [plan options] [--write [--dry-run]]"),
	    NULL },
	  N_("Show the changes the GPUs need in a .vmx; with --write, save them."),
	  CMD_FILES,
	  PLAN_OPTS | HOST_OPTS | O(VM) | O(UPGRADE_HW) | O(WRITE) | O(FORCE) |
	  O(DRY_RUN) | O(JSON),
	  NULL, cmd_vmx },
	{ "snippet",
	  { N_("--format vmx|bosh|opsman|tile|om [--name NAME] [--gpu SPEC]... [--vgpu P]..."),
	    N_("--format ansible [--vm NAME]... [--host NAME] [plan options]\n"
	       "                  [--json]"),
	    NULL },
	  N_("Print the plan as a snippet of one format for another tool."),
	  CMD_NOARGS,
	  PLAN_OPTS | O(NAME) | O(FORMAT) | O(VM) | O(HOST) | O(JSON),
	  NULL, cmd_snippet },
	{ "apply",
	  { N_("--answers FILE [--force] [--dry-run] [--json]"), NULL },
	  N_("Do the whole run from an answers file: the formats and the .vmx."),
	  0, O(ANSWERS) | O(FORCE) | O(DRY_RUN) | O(JSON), NULL, cmd_apply },
	{ "check",
	  { N_("[--sysroot DIR | HOST | --url URL --user USER] [--json]"), NULL },
	  N_("Check that a host can pass GPUs through: PASS, WARN or FAIL with a fix."),
	  CMD_NOARGS, O(SYSROOT) | HOST_OPTS | API_OPTS | O(JSON), NULL, cmd_check },
	{ "gpus",
	  { N_("[--sysroot DIR | --esxcli-file FILE | --lspci-file FILE | HOST | --url URL --user USER] [--json]"), NULL },
	  N_("List a host's GPUs with the MMIO size for all of them in one VM."),
	  CMD_NOARGS, O(SYSROOT) | O(ESXCLI_FILE) | O(LSPCI_FILE) | HOST_OPTS | API_OPTS | O(JSON),
	  NULL, cmd_gpus },
	{ "vms",
	  { N_("HOST [--json]"), NULL },
	  N_("List an ESXi host's VMs with their power state and hardware version."),
	  CMD_NOARGS, HOST_OPTS | O(JSON), NULL, cmd_vms },
	{ "passthru",
	  { N_("--enable BDF HOST [--dry-run] [--json]"), NULL },
	  N_("Enable passthrough of a device on an ESXi host."),
	  CMD_NOARGS, O(ENABLE) | HOST_OPTS | O(DRY_RUN) | O(JSON),
	  NULL, cmd_passthru },
	{ "verify",
	  { N_("[--sysroot DIR] [--nvidia-smi-q FILE] [--bundle OUT.tar.gz] [--json]"), NULL },
	  N_("Inside the guest: check the GPUs, their BARs and the driver."),
	  CMD_NOARGS, O(SYSROOT) | O(NVIDIA_SMI_Q) | O(BUNDLE) | O(JSON),
	  NULL, cmd_verify },
	{ "diagnose",
	  { N_("FILE|- [--vmx VMX] [--json]"), NULL },
	  N_("Explain the failures a vmware.log or an error message shows."),
	  CMD_FILES, O(VMX) | O(JSON), NULL, cmd_diagnose },
	{ "vsphere", { NULL },
	  N_("vCenter or a licensed ESXi through the vSphere API."),
	  0, 0, vsphere_subs, cmd_vsphere },
	{ "help", { N_("[COMMAND [SUBCOMMAND]]"), NULL },
	  N_("Print the help of gpuwiz or of one command."),
	  CMD_HELP, 0, NULL, NULL },
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

const cli_sub *
cli_sub_find(const cli_cmd *c, const char *name)
{
	const cli_sub *s;

	for (s = c->subs; s != NULL && s->name != NULL; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

void
cli_err_unknown_command(gw_err *e, const char *name)
{
	gw_buf b;
	char *list;
	size_t i;

	/* the commands of cli_cmds[], in its order */
	gw_buf_init(&b);
	for (i = 0; i + 1 < cli_ncmds; i++)
		/* TRANSLATORS: between the items of a list of names in a
		 * sentence ("bosh, opsman, tile"); zh: the enumeration comma. */
		gw_buf_printf(&b, "%s%s", i ? _(", ") : "", cli_cmds[i].name);
	list = gw_buf_steal(&b);
	if (cli_ncmds > 1) {
		char *t;

		/* TRANSLATORS: the last item of a list of choices after the
		 * others ("mmio, vmx, help": "mmio, vmx" or "help"). */
		t = gw_xasprintf(_("%s or %s"), list, cli_cmds[cli_ncmds - 1].name);
		free(list);
		list = t;
	}
	/* TRANSLATORS: the word given, then the list of commands. */
	gw_err_set(e, _("unknown command '%s' (expected %s; see gpuwiz --help)"),
	           name, list);
	free(list);
}

cli_optset
cli_cmd_opts(const cli_cmd *c, const cli_sub *s)
{
	cli_optset set = ~(cli_optset)0;

	if (c == NULL)
		return cli_wizard_opts | cli_global_opts;
	if (s != NULL)
		return s->opts | cli_global_opts;
	if (c->subs == NULL)
		return c->opts | cli_global_opts;
	for (s = c->subs; s->name != NULL; s++)
		set &= s->opts;
	return set | cli_global_opts;
}

/* The usage lines of --help: every form of every command. */
void
cli_usage_commands(FILE *f)
{
	const cli_sub *s;
	size_t i, k;

	for (i = 0; i < cli_ncmds; i++) {
		for (k = 0; cli_cmds[i].usage[k] != NULL; k++)
			cli_usage_form(f, "       ", cli_cmds[i].name,
			               _(cli_cmds[i].usage[k]));
		for (s = cli_cmds[i].subs; s != NULL && s->name != NULL; s++)
			cli_usage_form(f, "       ", cli_cmds[i].name, _(s->usage));
	}
	fputs("       gpuwiz --help | --version\n", f);
}
