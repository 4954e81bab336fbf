/* SPDX-License-Identifier: GPL-3.0-or-later */
/* opts.c: the command line's options, one table (doc/design.md, section 8).
 *
 * Every option is one row, at its id (cli_int.h): its long name, whether
 * it takes a value, and where the value goes (a string or flag of
 * cli_opts, a GPU item kept in order, or a function that checks the value
 * first).  getopt_long's table and the "does this option take the next
 * word" question both come from the rows, so an option is written once;
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
	const char *name;
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

#define STR(n, f) { n, required_argument, O_STR, offsetof(cli_opts, f), NULL }
#define FLAG(n, f) { n, no_argument, O_FLAG, offsetof(cli_opts, f), NULL }
#define ITEM(n, k) { n, required_argument, O_ITEM, k, NULL }
#define FN(n, has, fn) { n, has, O_FN, 0, fn }

/* One row per option, at its id (cli_int.h); getopt_long sees them in
 * this order. */
static const cli_optdef optdefs[OPT_COUNT] = {
	[OPT_GPU] = ITEM("gpu", ITEM_GPU),
	[OPT_VGPU] = ITEM("vgpu", ITEM_VGPU),
	[OPT_VRAM] = ITEM("vram", ITEM_VRAM),
	[OPT_UVM] = FLAG("uvm", a.uvm),
	[OPT_P2P] = FLAG("p2p", a.p2p),
	[OPT_CODE43] = FLAG("code43", a.code43),
	[OPT_NO_RESERVE] = FN("no-reserve", no_argument, opt_noreserve),
	[OPT_MEMORY] = FN("memory", required_argument, opt_memory),
	[OPT_ESXI] = FN("esxi", required_argument, opt_esxi),
	[OPT_MMIO_GB] = FN("mmio-gb", required_argument, opt_mmiogb),
	[OPT_ALLOW_BELOW_RULE] = FLAG("allow-below-rule", a.allow_below_rule),
	[OPT_BDF] = ITEM("bdf", ITEM_BDF),
	[OPT_SYSTEM_ID] = FN("system-id", required_argument, opt_sysid),
	[OPT_NAME] = FN("name", required_argument, opt_name),
	[OPT_TABLE] = STR("table", table_path),
	[OPT_JSON] = FLAG("json", json),
	[OPT_WRITE] = FLAG("write", write),
	[OPT_FORCE] = FLAG("force", force),
	[OPT_FORMAT] = STR("format", format),
	[OPT_ANSWERS] = STR("answers", answers),
	[OPT_LANG] = FN("lang", required_argument, opt_lang),
	[OPT_HELP] = FLAG("help", help),
	[OPT_ESXCLI_FILE] = STR("esxcli-file", esxcli_file),
	[OPT_LSPCI_FILE] = STR("lspci-file", lspci_file),
	[OPT_NVIDIA_SMI_Q] = STR("nvidia-smi-q", nvsmi),
	[OPT_SYSROOT] = STR("sysroot", sysroot),
	[OPT_BUNDLE] = STR("bundle", bundle),
	[OPT_SSH] = FN("ssh", required_argument, opt_ssh),
	[OPT_SSH_PORT] = FN("ssh-port", required_argument, opt_ssh_port),
	[OPT_SSH_IDENTITY] = STR("ssh-identity", ssh_identity),
	[OPT_SSH_OPTION] = FN("ssh-option", required_argument, opt_ssh_option),
	[OPT_SAMPLE_HOST] = STR("sample-host", sample),
	[OPT_VM] = FN("vm", required_argument, opt_vm),
	[OPT_UPGRADE_HW] = FLAG("upgrade-hw", upgrade),
	[OPT_ENABLE] = STR("enable", enable),
	[OPT_URL] = STR("url", url),
	[OPT_USER] = STR("user", user),
	[OPT_THUMBPRINT] = STR("thumbprint", thumbprint),
	[OPT_INSECURE] = FLAG("insecure", insecure),
	[OPT_CAFILE] = STR("cafile", cafile),
	[OPT_DRY_RUN] = FLAG("dry-run", dry_run),
	[OPT_HOST] = STR("host", host),
	[OPT_TIMEOUT] = FN("timeout", required_argument, opt_timeout),
	[OPT_PARALLEL] = FN("parallel", required_argument, opt_parallel),
	[OPT_VMX] = STR("vmx", vmx_file),
	[OPT_DYNAMIC] = FLAG("dynamic", a.dynamic),
	[OPT_VERBOSE] = FLAG("verbose", verbose),
	[OPT_QUIET] = FLAG("quiet", quiet),
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
			if (optdefs[i].name == NULL)
				abort();
			lo[i].name = optdefs[i].name;
			lo[i].has_arg = optdefs[i].has_arg;
			lo[i].val = OPT_BASE + (int)i;
		}
	return lo;
}

int
cli_parse_opts(cli_opts *o, int argc, char **argv, gw_err *e)
{
	const struct option *lo = long_opts();
	int c, i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:vq", lo, NULL)) != -1) {
		if (c == 'g')
			c = OPT_BASE;   /* -g is --gpu, the first row */
		else if (c == 'v')
			c = OPT_BASE + OPT_VERBOSE;
		else if (c == 'q')
			c = OPT_BASE + OPT_QUIET;
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
		*set = cli_wizard_opts | cli_global_opts;
		return 0;
	}
	if ((c = cli_cmd_find(o->cmd)) == NULL)
		return -1;
	if (c->subs == NULL) {
		*set = c->opts | cli_global_opts;
		*name = gw_xasprintf("%s %s", cli_progname, c->name);
		return 0;
	}
	if (o->nargs != 1 || (sub = cli_sub_find(c, o->args[0])) == NULL)
		return -1;
	*set = sub->opts | cli_global_opts;
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
			           optdefs[id].name);
		else
			/* TRANSLATORS: an option, then the command
			 * ("gpuwiz mmio"). */
			gw_err_set(e, _("--%s: not an option of '%s' (see gpuwiz --help)"),
			           optdefs[id].name, name);
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
		           optdefs[id].name, optdefs[needs].name,
		           name ? name : cli_progname, optdefs[needs].name,
		           optdefs[id].name);
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

/* Is arg an option whose value is the next word ("--ssh root@h", "-g x")? */
int
cli_takes_value(const char *arg)
{
	size_t i;

	if (strcmp(arg, "-g") == 0)
		return 1;
	if (strncmp(arg, "--", 2) != 0 || strchr(arg, '=') != NULL)
		return 0;
	for (i = 0; i < NOPTS; i++)
		if (strcmp(arg + 2, optdefs[i].name) == 0)
			return optdefs[i].has_arg == required_argument;
	return 0;
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
