/* SPDX-License-Identifier: GPL-3.0-or-later */
/* opts.c: the command line's options, one table (doc/design.md, section 8).
 *
 * Every option is one row, at its id (cli_int.h): its long name and
 * short key, whether it takes a value, where the value goes (a string or
 * flag of cli_opts, a GPU item kept in order, or a function that checks
 * the value first), the value's name and the option's line in the help
 * (help.c) and what the completion offers for the value (complete.c).
 * getopt_long's tables and the "does this option take the next word"
 * question come from the rows too, so an option is written once;
 * the command table's option sets name the ids (cmd_table.c).  The
 * options are read in three steps: given (getopt), checked against the
 * command's set, then their values taken.
 */
#include "cli_int.h"
#include "mmio.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef int (*opt_fn)(cli_opts *o, const char *arg, gw_err *e);

enum { O_STR, O_FLAG, O_ITEM, O_FN };

typedef struct cli_optdef {
	cli_optinfo info;   /* name, short key, --help, --complete */
	int has_arg;
	int kind;
	size_t off;         /* O_STR, O_FLAG: field of cli_opts; O_ITEM: kind */
	opt_fn fn;          /* O_FN */
} cli_optdef;

static void
add_item(cli_opts *o, int kind, const char *arg)
{
	o->items = gw_xrealloc(o->items, (o->nitems + 1) * sizeof *o->items);
	o->items[o->nitems].kind = kind;
	o->items[o->nitems].arg = arg;
	o->nitems++;
}

/* ---- the options that check their value -------------------------------- */

static int
opt_noreserve(cli_opts *o, const char *arg, gw_err *e)
{
	(void)arg;
	(void)e;
	o->a.reserve = 0;
	return 0;
}

static int
opt_memory(cli_opts *o, const char *arg, gw_err *e)
{
	unsigned long long v;

	if (gw_parse_uint(arg, 64ULL * 1024 * 1024, &v) != 0 || v == 0) {
		gw_err_set(e, _("--memory: '%s' is not a memory size in MB (expected 1..67108864)"),
		           arg);
		return -1;
	}
	o->a.memory_mb = (long)v;
	return 0;
}

static int
opt_esxi(cli_opts *o, const char *arg, gw_err *e)
{
	if (gw_esxi_to_hw(arg) == 0) {
		gw_err_set(e, _("--esxi: '%s' is not a known ESXi version (expected e.g. 7.0U3, 8.0U2, 9.0)"),
		           arg);
		return -1;
	}
	free(o->a.esxi_version);
	o->a.esxi_version = gw_xstrdup(arg);
	return 0;
}

static int
opt_mmiogb(cli_opts *o, const char *arg, gw_err *e)
{
	return gw_parse_gb(arg, "--mmio-gb", GW_MMIO_MAX_TOTAL_GB * 2,
	                   &o->a.mmio_gb, e);
}

static int
opt_sysid(cli_opts *o, const char *arg, gw_err *e)
{
	return gw_answers_set_system_id(&o->a, arg, "--system-id", e);
}

static int
opt_name(cli_opts *o, const char *arg, gw_err *e)
{
	(void)e;
	free(o->a.name);
	o->a.name = gw_xstrdup(arg);
	return 0;
}

static int
opt_ssh(cli_opts *o, const char *arg, gw_err *e)
{
	if (arg[0] == '\0' || arg[0] == '-') {
		gw_err_set(e, _("--ssh: '%s' is not a host (expected USER@HOST, e.g. root@esx01)"),
		           arg);
		return -1;
	}
	o->ssh = arg;
	return 0;
}

static int
opt_ssh_port(cli_opts *o, const char *arg, gw_err *e)
{
	if (gw_host_ssh_port_check(arg, e) != 0)
		return -1;
	o->ssh_port = arg;
	return 0;
}

static int
opt_ssh_option(cli_opts *o, const char *arg, gw_err *e)
{
	if (strchr(arg, '=') == NULL || arg[0] == '-') {
		gw_err_set(e, _("--ssh-option: '%s' is not an ssh option (expected NAME=VALUE, e.g. UserKnownHostsFile=FILE)"),
		           arg);
		return -1;
	}
	if (strncasecmp(arg, "StrictHostKeyChecking", 21) == 0) {
		gw_err_set(e, _("--ssh-option: '%s': gpuwiz keeps host key checking on; add the host's key to known_hosts instead (ssh-keyscan, then check its fingerprint)"),
		           arg);
		return -1;
	}
	o->ssh_opts = gw_xrealloc(o->ssh_opts,
	                          (o->nssh_opts + 1) * sizeof *o->ssh_opts);
	o->ssh_opts[o->nssh_opts++] = arg;
	return 0;
}

static int
opt_vm(cli_opts *o, const char *arg, gw_err *e)
{
	(void)e;
	o->vm = arg;
	o->vm_list = gw_xrealloc(o->vm_list,
	                         (o->nvm_list + 1) * sizeof *o->vm_list);
	o->vm_list[o->nvm_list++] = arg;
	return 0;
}

static int
opt_timeout(cli_opts *o, const char *arg, gw_err *e)
{
	unsigned long long v;

	if (gw_parse_uint(arg, 3600, &v) != 0 || v == 0) {
		gw_err_set(e, _("--timeout: '%s' is not a number of seconds (expected 1..3600)"),
		           arg);
		return -1;
	}
	o->timeout = (long)v;
	return 0;
}

/* --parallel N: tasks in flight at once (vsphere apply; doc/design.md
 * 4.5). */
static int
opt_parallel(cli_opts *o, const char *arg, gw_err *e)
{
	unsigned long long v;
	int bad = gw_parse_uint(arg, 1024, &v) != 0 || v == 0;

	if (bad)
		gw_err_set(e, _("--parallel: '%s' is not a number of tasks (expected 1..1024)"),
		           arg);
	else
		o->parallel = (unsigned)v;
	return bad ? -1 : 0;
}

/* The languages: English (the msgids) and the catalogues of po/LINGUAS
 * (tests/cli/test_cli.sh checks the two lists agree). */
static const char *const langs[] = { "en", "zh_CN" };
#define LANGS_TEXT "en, zh_CN"

/* The entry of langs[] that lang names, NULL when none. */
static const char *
lang_word(const char *lang)
{
	size_t n = strcspn(lang, ".@"), i;

	if (n == 2 && strncmp(lang, "en", 2) == 0)
		return langs[0];
	if (n == 5 && strncmp(lang, "en_", 3) == 0)
		return langs[0];   /* en_US, en_GB: English too */
	for (i = 0; i < sizeof langs / sizeof langs[0]; i++)
		if (strlen(langs[i]) == n && strncmp(lang, langs[i], n) == 0)
			return langs[i];
	return NULL;
}

int
cli_lang_known(const char *lang)
{
	return lang_word(lang) != NULL;
}

/* --lang: setup_locale() has used a known one already; an unknown one
 * is an error rather than English in silence. */
static int
opt_lang(cli_opts *o, const char *arg, gw_err *e)
{
	if ((o->lang = lang_word(arg)) != NULL)
		return 0;
	gw_err_set(e, _("--lang: '%s' is not an available language (expected one of: %s)"),
	           arg, LANGS_TEXT);
	return -1;
}

/* ---- the table ------------------------------------------------------------ */

#define STR(n, k, f, m, c, h) \
	{ { n, k, m, c, h }, required_argument, O_STR, offsetof(cli_opts, f), NULL }
#define FLAG(n, k, f, h) \
	{ { n, k, NULL, CV_NONE, h }, no_argument, O_FLAG, offsetof(cli_opts, f), NULL }
#define ITEM(n, k, i, m, c, h) \
	{ { n, k, m, c, h }, required_argument, O_ITEM, i, NULL }
#define FN(n, k, has, fn, m, c, h) { { n, k, m, c, h }, has, O_FN, 0, fn }

/* One row per option, at its id (cli_int.h); getopt_long sees them in
 * this order, and the option lists of --help show them so: the name, the
 * short key, where the value goes, the value's name in --help, what
 * --complete offers for it, and its line of --help. */
static const cli_optdef optdefs[OPT_COUNT] = {
	[OPT_GPU] = ITEM("gpu", 'g', ITEM_GPU, "SPEC", CV_GPU,
	                 N_("add GPUs from the table")),
	[OPT_VGPU] = ITEM("vgpu", 0, ITEM_VGPU, "PROFILE", CV_VGPU,
	                  N_("add vGPUs; MMIO follows the physical GPU")),
	[OPT_VRAM] = ITEM("vram", 0, ITEM_VRAM, "GB[/BAR1][=COUNT]", CV_NONE,
	                  N_("add GPUs of this framebuffer size (BAR1: 16G)")),
	[OPT_UVM] = FLAG("uvm", 0, a.uvm,
	                 N_("enable unified memory on every vGPU (NCCL >= 2.27)")),
	[OPT_P2P] = FLAG("p2p", 0, a.p2p,
	                 N_("allow peer-to-peer between the GPUs")),
	[OPT_CODE43] = FLAG("code43", 0, a.code43,
	                    N_("hide the hypervisor (old GeForce drivers only)")),
	[OPT_NO_RESERVE] = FN("no-reserve", 0, no_argument, opt_noreserve, NULL, CV_NONE,
	                      N_("do not reserve all guest memory")),
	[OPT_MEMORY] = FN("memory", 0, required_argument, opt_memory, "MB", CV_NONE,
	                  N_("guest memory when there is no .vmx")),
	[OPT_ESXI] = FN("esxi", 0, required_argument, opt_esxi, "VERSION", CV_NONE,
	                N_("the host's ESXi version (7.0U3, 8.0U2, ...)")),
	[OPT_MMIO_GB] = FN("mmio-gb", 0, required_argument, opt_mmiogb, "GB", CV_NONE,
	                   N_("this 64-bit MMIO size instead of the recommendation")),
	[OPT_ALLOW_BELOW_RULE] = FLAG("allow-below-rule", 0, a.allow_below_rule,
	                              N_("accept an --mmio-gb below the documented rule")),
	[OPT_BDF] = ITEM("bdf", 0, ITEM_BDF, "BDF", CV_NONE,
	                 N_("attach the host device at BDF (0000:42:00.0)")),
	[OPT_SYSTEM_ID] = FN("system-id", 0, required_argument, opt_sysid, "UUID", CV_NONE,
	                     N_("the host's id (esxcli system uuid get)")),
	[OPT_NAME] = FN("name", 0, required_argument, opt_name, "NAME", CV_NONE,
	                N_("extension name for bosh/opsman, no periods")),
	[OPT_TABLE] = STR("table", 0, table_path, "FILE", CV_FILE,
	                  N_("use this GPU table instead of the bundled one")),
	[OPT_JSON] = FLAG("json", 0, json, N_("print JSON instead of text")),
	[OPT_WRITE] = FLAG("write", 0, write, N_("save the changes, with a backup")),
	[OPT_FORCE] = FLAG("force", 0, force,
	                   N_("write even with failures or a VM that looks powered on")),
	[OPT_FORMAT] = STR("format", 0, format, "FORMAT", CV_FORMAT,
	                   N_("the format to print")),
	[OPT_ANSWERS] = STR("answers", 0, answers, "FILE", CV_FILE,
	                    N_("the answers file to start from or to apply")),
	[OPT_LANG] = FN("lang", 0, required_argument, opt_lang, "LANG", CV_LANG,
	                N_("the language of the messages")),
	[OPT_HELP] = FLAG("help", 'h', help, N_("print this help and exit")),
	[OPT_ESXCLI_FILE] = STR("esxcli-file", 0, esxcli_file, "FILE", CV_FILE,
	                        N_("read a saved 'esxcli hardware pci list'")),
	[OPT_LSPCI_FILE] = STR("lspci-file", 0, lspci_file, "FILE", CV_FILE,
	                       N_("read a saved 'lspci -nnvv' or 'lspci -vvv'")),
	[OPT_NVIDIA_SMI_Q] = STR("nvidia-smi-q", 0, nvsmi, "FILE", CV_FILE,
	                         N_("read a saved 'nvidia-smi -q' of the guest")),
	[OPT_SYSROOT] = STR("sysroot", 0, sysroot, "DIR", CV_DIR,
	                    N_("read /sys and /proc under DIR instead of /")),
	[OPT_BUNDLE] = STR("bundle", 0, bundle, "OUT.tar.gz", CV_FILE,
	                   N_("write a support bundle, without secrets")),
	[OPT_SSH] = FN("ssh", 0, required_argument, opt_ssh, "USER@HOST", CV_NONE,
	               N_("an ESXi host through the system's ssh")),
	[OPT_SSH_PORT] = FN("ssh-port", 0, required_argument, opt_ssh_port, "N", CV_NONE,
	                    N_("ssh's port on the host")),
	[OPT_SSH_IDENTITY] = STR("ssh-identity", 0, ssh_identity, "FILE", CV_FILE,
	                         N_("ssh's private key")),
	[OPT_SSH_OPTION] = FN("ssh-option", 0, required_argument, opt_ssh_option, "K=V", CV_NONE,
	                      N_("an ssh option; host keys stay checked")),
	[OPT_SAMPLE_HOST] = STR("sample-host", 0, sample, "NAME", CV_SAMPLE,
	                        N_("a practice host built from real captures")),
	[OPT_VM] = FN("vm", 0, required_argument, opt_vm, "NAME|VMID", CV_NONE,
	              N_("a VM by its name (or its VMID on ESXi)")),
	[OPT_UPGRADE_HW] = FLAG("upgrade-hw", 0, upgrade,
	                        N_("first raise the VM's hardware version to the host's newest")),
	[OPT_ENABLE] = STR("enable", 0, enable, "BDF", CV_NONE,
	                   N_("enable passthrough of the device at BDF")),
	[OPT_URL] = STR("url", 0, url, "URL", CV_NONE,
	                N_("vCenter or ESXi through the vSphere API")),
	[OPT_USER] = STR("user", 0, user, "USER", CV_NONE,
	                 N_("the vSphere user name")),
	[OPT_THUMBPRINT] = STR("thumbprint", 0, thumbprint, "SHA256", CV_NONE,
	                       N_("trust the server's certificate of this fingerprint")),
	[OPT_INSECURE] = FLAG("insecure", 0, insecure,
	                      N_("do not check the server's certificate")),
	[OPT_CAFILE] = STR("cafile", 0, cafile, "FILE", CV_FILE,
	                   N_("trust the certificate authorities of this PEM file")),
	[OPT_DRY_RUN] = FLAG("dry-run", 0, dry_run,
	                     N_("show what would be written or run; change nothing")),
	[OPT_HOST] = STR("host", 0, host, "NAME", CV_NONE,
	                 N_("the ESXi host by its name in vCenter")),
	[OPT_TIMEOUT] = FN("timeout", 0, required_argument, opt_timeout, "SECONDS", CV_NONE,
	                   N_("give up on a vSphere call after this long")),
	[OPT_PARALLEL] = FN("parallel", 0, required_argument, opt_parallel, "N", CV_NONE,
	                    N_("reconfigure this many VMs at once")),
	[OPT_VMX] = STR("vmx", 0, vmx_file, "VMX", CV_FILE,
	                N_("the VM's .vmx, read beside the log")),
	[OPT_DYNAMIC] = FLAG("dynamic", 0, a.dynamic,
	                     N_("Dynamic DirectPath I/O: GPUs by PCI ids (vCenter 7+)")),
	[OPT_VERBOSE] = FLAG("verbose", 'v', verbose,
	                     N_("each ssh command and vSphere call, timed, on stderr")),
	[OPT_QUIET] = FLAG("quiet", 'q', quiet,
	                   N_("only errors on stderr: no warnings, notes or progress")),
};

/* The options that only mean something beside another: refused without
 * it by a command that takes that other (vmx --force needs --write;
 * apply's --force stands alone, apply has no --write). */
static const struct {
	int opt, needs;
} companions[] = {
	{ OPT_SSH_PORT, OPT_SSH },
	{ OPT_SSH_IDENTITY, OPT_SSH },
	{ OPT_SSH_OPTION, OPT_SSH },
	{ OPT_USER, OPT_URL },
	{ OPT_THUMBPRINT, OPT_URL },
	{ OPT_INSECURE, OPT_URL },
	{ OPT_CAFILE, OPT_URL },
	{ OPT_TIMEOUT, OPT_URL },
	{ OPT_ALLOW_BELOW_RULE, OPT_MMIO_GB },
	{ OPT_FORCE, OPT_WRITE },
	{ OPT_DRY_RUN, OPT_WRITE },
};

#define NOPTS ((size_t)OPT_COUNT)
#define OPT_BASE 256       /* getopt_long's value of optdefs[0] */

_Static_assert(OPT_COUNT <= 64, "a cli_optset holds 64 options");

static int
opt_set(cli_opts *o, const cli_optdef *d, const char *arg, gw_err *e)
{
	char *field = (char *)o + d->off;

	switch (d->kind) {
	case O_STR:
		*(const char **)(void *)field = arg;
		return 0;
	case O_FLAG:
		*(int *)(void *)field = 1;
		return 0;
	case O_ITEM:
		add_item(o, (int)d->off, arg);
		return 0;
	default:
		return d->fn(o, arg, e);
	}
}

/* getopt_long's table, from the rows (built once) */
static const struct option *
long_opts(void)
{
	static struct option lo[NOPTS + 1];
	size_t i;

	if (lo[0].name == NULL)
		for (i = 0; i < NOPTS; i++) {
			/* an id without its row would end getopt's table
			 * there: every run of every command stops here */
			if (optdefs[i].info.name == NULL || optdefs[i].info.help == NULL)
				abort();
			lo[i].name = optdefs[i].info.name;
			lo[i].has_arg = optdefs[i].has_arg;
			lo[i].val = OPT_BASE + (int)i;
		}
	return lo;
}

int
cli_parse_opts(cli_opts *o, int argc, char **argv, gw_err *e)
{
	const struct option *lo = long_opts();
	char shorts[2 + 2 * NOPTS + 1] = ":";
	size_t k, n = 1;
	int c, i;

	/* getopt's short options, from the rows' keys ("-g SPEC", "-h") */
	for (k = 0; k < NOPTS; k++)
		if (optdefs[k].info.key != 0) {
			shorts[n++] = (char)optdefs[k].info.key;
			if (optdefs[k].has_arg == required_argument)
				shorts[n++] = ':';
		}
	shorts[n] = '\0';
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		for (k = 0; c != ':' && c != '?' && c < OPT_BASE && k < NOPTS; k++)
			if (optdefs[k].info.key == c)
				c = OPT_BASE + (int)k;   /* -g is --gpu */
		if (c >= OPT_BASE && c < OPT_BASE + (int)NOPTS) {
			o->given = gw_xrealloc(o->given,
			                       (o->ngiven + 1) * sizeof *o->given);
			o->given[o->ngiven].id = c - OPT_BASE;
			o->given[o->ngiven].arg = optarg;
			o->ngiven++;
			continue;
		}
		if (c == ':')
			gw_err_set(e, _("option '%s' needs a value (see gpuwiz --help)"),
			           argv[optind - 1]);
		else
			gw_err_set(e, _("unknown option '%s' (see gpuwiz --help)"),
			           argv[optind - 1]);
		return -1;
	}
	for (i = optind; i < argc; i++) {
		o->args = gw_xrealloc(o->args, (o->nargs + 1) * sizeof *o->args);
		o->args[o->nargs++] = argv[i];
	}
	return 0;
}

/* The options the command line's command takes, and its name as the
 * refusal says it ("gpuwiz vsphere list"; NULL for the wizard): 0, or -1
 * for an unknown command or subcommand. */
static int
cmd_optset(const cli_opts *o, cli_optset *set, char **name)
{
	const cli_cmd *c;
	const cli_sub *sub;

	*name = NULL;
	if (o->cmd == NULL) {
		*set = cli_cmd_opts(NULL, NULL);
		return 0;
	}
	if ((c = cli_cmd_find(o->cmd)) == NULL)
		return -1;
	if (c->subs == NULL) {
		*set = cli_cmd_opts(c, NULL);
		*name = gw_xasprintf("%s %s", cli_progname, c->name);
		return 0;
	}
	if (o->nargs != 1 || (sub = cli_sub_find(c, o->args[0])) == NULL)
		return -1;
	*set = cli_cmd_opts(c, sub);
	*name = gw_xasprintf("%s %s %s", cli_progname, c->name, sub->name);
	return 0;
}

static int
opt_given(const cli_opts *o, int id)
{
	size_t i;

	for (i = 0; i < o->ngiven; i++)
		if (o->given[i].id == id)
			return 1;
	return 0;
}

/* An option given without the one it only means something beside:
 * the first such, or -1. */
static int
lone_companion(const cli_opts *o, cli_optset set, int *needs)
{
	size_t i, k;

	for (i = 0; i < o->ngiven; i++)
		for (k = 0; k < sizeof companions / sizeof companions[0]; k++)
			if (companions[k].opt == o->given[i].id &&
			    (set & OPTBIT(companions[k].needs)) &&
			    !opt_given(o, companions[k].needs) &&
			    /* vsphere: GOVC_URL or VMWARE_HOST stands
			     * for --url */
			    !(companions[k].needs == OPT_URL &&
			      cli_conn_env_has_url(o))) {
				*needs = companions[k].needs;
				return o->given[i].id;
			}
	return -1;
}

int
cli_check_opts(const cli_opts *o, gw_err *e)
{
	cli_optset set;
	char *name;
	size_t i;
	int id, needs, rc = 0;

	if (cmd_optset(o, &set, &name) != 0)
		return 0;
	for (i = 0; rc == 0 && i < o->ngiven; i++) {
		id = o->given[i].id;
		if (set & OPTBIT(id))
			continue;
		if (name == NULL)
			gw_err_set(e, _("--%s: not an option of the wizard (plain gpuwiz; see gpuwiz --help for the commands)"),
			           optdefs[id].info.name);
		else
			/* TRANSLATORS: an option, then the command
			 * ("gpuwiz mmio"). */
			gw_err_set(e, _("--%s: not an option of '%s' (see gpuwiz --help)"),
			           optdefs[id].info.name, name);
		rc = -1;
	}
	if (rc == 0 && opt_given(o, OPT_VERBOSE) && opt_given(o, OPT_QUIET)) {
		gw_err_set(e, "%s", _("-v (--verbose) and -q (--quiet) exclude each other: give one"));
		rc = -1;
	}
	if (rc == 0 && (id = lone_companion(o, set, &needs)) >= 0) {
		/* TRANSLATORS: an option, the option it needs, then the
		 * command ("gpuwiz vmx"; "gpuwiz" is the wizard). */
		gw_err_set(e, _("--%s: only used with --%s in '%s'; add --%s or leave --%s out"),
		           optdefs[id].info.name, optdefs[needs].info.name,
		           name ? name : cli_progname, optdefs[needs].info.name,
		           optdefs[id].info.name);
		rc = -1;
	}
	free(name);
	return rc;
}

int
cli_take_opts(cli_opts *o, gw_err *e)
{
	size_t i;

	for (i = 0; i < o->ngiven; i++)
		if (opt_set(o, &optdefs[o->given[i].id], o->given[i].arg, e) != 0)
			return -1;
	return 0;
}

void
cli_free_opts(cli_opts *o)
{
	free(o->env_url);
	free(o->env_user);
	free(o->env_cafile);
	free(o->ssh_opts);
	free(o->given);
	free(o->vm_list);
	free(o->items);
	free(o->args);
	gw_answers_free(&o->a);
}

/* The row of an option as the command line writes it: "--gpu", "-g"
 * (a row's key), or -1. */
int
cli_opt_find(const char *arg)
{
	size_t i;

	for (i = 0; i < NOPTS; i++) {
		const cli_optinfo *d = &optdefs[i].info;

		if (arg[0] == '-' && arg[1] != '-' && arg[1] != '\0' &&
		    arg[2] == '\0' && d->key == arg[1])
			return (int)i;
		if (strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, d->name) == 0)
			return (int)i;
	}
	return -1;
}

const cli_optinfo *
cli_opt_info(int id)
{
	return &optdefs[id].info;
}

const char *const *
cli_langs(size_t *n)
{
	*n = sizeof langs / sizeof langs[0];
	return langs;
}

/* Is arg an option whose value is the next word ("--ssh root@h", "-g x")? */
int
cli_takes_value(const char *arg)
{
	int id = cli_opt_find(arg);

	return id >= 0 && optdefs[id].has_arg == required_argument;
}

/* A command that takes no words after it (CMD_NOARGS). */
int
cli_no_args(const cli_opts *o, gw_err *e)
{
	if (o->nargs == 0)
		return 0;
	gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
	return -1;
}

int
cli_load_table(gw_table *t, const char *path, gw_err *e)
{
	char *p;
	int rc;

	if (path != NULL)
		return gw_table_load(t, path, e);
	if ((p = gw_table_default_path(e)) == NULL)
		return -1;
	rc = gw_table_load(t, p, e);
	free(p);
	return rc;
}

static int
resolve_item(cli_opts *o, const gw_table *t, const cli_item *it, gw_err *e)
{
	switch (it->kind) {
	case ITEM_GPU:
		return gw_answers_add_gpu(&o->a, t, it->arg, "--gpu", e);
	case ITEM_VGPU:
		if (!gw_is_vgpu_profile(it->arg)) {
			gw_err_set(e, _("--vgpu: '%s' is not a vGPU profile (expected a name like grid_l40s-48c)"),
			           it->arg);
			return -1;
		}
		return gw_answers_add_gpu(&o->a, t, it->arg, "--vgpu", e);
	case ITEM_VRAM:
		return gw_answers_add_vram(&o->a, it->arg, "--vram", e);
	default:
		return gw_answers_add_bdf(&o->a, it->arg, "--bdf", e);
	}
}

/* Resolve --gpu/--vgpu/--vram/--bdf in command-line order. */
int
cli_resolve_items(cli_opts *o, const gw_table *t, gw_err *e)
{
	size_t i;

	for (i = 0; i < o->nitems; i++)
		if (resolve_item(o, t, &o->items[i], e) != 0)
			return -1;
	if (o->a.ngpus == 0) {
		gw_err_set(e, _("no GPU given: add --gpu SPEC, --vgpu PROFILE or --vram GB"));
		return -1;
	}
	return 0;
}
