/* cli.c: the non-interactive command line (design.md section 3).
 *
 * Every command builds the same plan (plan.c) and renders it: as text with
 * reasons and sources, as JSON (jansson), as snippets (emit.c), or into a
 * .vmx (vmx.c).  Errors are one line on stderr and exit status 2.
 */
#include "cli.h"
#include "answers.h"
#include "diagnose.h"
#include "esxi.h"
#include "linux.h"
#include "verify.h"
#include "apply.h"
#include "emit.h"
#include "gputable.h"
#include "jsonutil.h"
#include "mmio.h"
#include "plan.h"
#include "runner.h"
#include "samplehost.h"
#include "vmx.h"
#include "vsapply.h"
#include "vsphere.h"
#include "wizard_int.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <signal.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include <jansson.h>

#define EXIT_FINDINGS 1
#define EXIT_USAGE 2

static const char *progname = "gpuwiz";

static void
die_line(const char *cmd, const char *msg)
{
	if (cmd)
		fprintf(stderr, "%s %s: %s\n", progname, cmd, msg);
	else
		fprintf(stderr, "%s: %s\n", progname, msg);
}

/* ---- locale --------------------------------------------------------- */

/* --lang LANG (anywhere on the command line) picks the catalogue; the
 * default comes from the locale.  GPUWIZ_LOCALEDIR overrides the installed
 * catalogue directory (the tests use a build-tree copy). */
static void
setup_locale(int argc, char **argv)
{
	const char *lang = NULL, *dir;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--lang") == 0 && i + 1 < argc)
			lang = argv[i + 1];
		else if (strncmp(argv[i], "--lang=", 7) == 0)
			lang = argv[i] + 7;
	}
	if (lang != NULL && *lang) {
		/* gettext ignores LANGUAGE in the C locale: make sure we run
		 * in a UTF-8 locale that can show the language. */
		char *loc = gw_xasprintf("%s.UTF-8", lang);

		setenv("LANGUAGE", lang, 1);
		if (setlocale(LC_ALL, loc) == NULL && setlocale(LC_ALL, "") == NULL)
			setlocale(LC_ALL, "C.UTF-8");
		else if (strcmp(setlocale(LC_ALL, NULL), "C") == 0)
			setlocale(LC_ALL, "C.UTF-8");
		free(loc);
	} else {
		setlocale(LC_ALL, "");
	}
#if defined(ENABLE_NLS) && ENABLE_NLS
	dir = getenv("GPUWIZ_LOCALEDIR");
	bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
	bind_textdomain_codeset(PACKAGE, "UTF-8");
	textdomain(PACKAGE);
#else
	(void)dir;
#endif
}

/* ---- usage ------------------------------------------------------------ */

static void
usage(FILE *f)
{
	fprintf(f, _("Usage: %s [--lang LANG] [--answers FILE] [HOST | --url URL --user USER]   the wizard\n"), progname);
	fputs(_("       gpuwiz mmio [--json] (--gpu SPEC | --vgpu PROFILE | --vram GB)...\n"
	        "       gpuwiz vmx FILE [--gpu SPEC]... [--vgpu PROFILE]... [--uvm]\n"
	        "                  [--bdf BDF --system-id UUID]... [--write [--force]] [--json]\n"
	        "       gpuwiz vmx --vm NAME|VMID HOST [--upgrade-hw] [plan options] [--write]\n"
	        "       gpuwiz snippet --format vmx|bosh|opsman|tile [--gpu SPEC]... [--vgpu P]...\n"
	        "       gpuwiz apply --answers FILE [--force]\n"
	        "       gpuwiz check [--sysroot DIR | HOST] [--json]\n"
	        "       gpuwiz gpus [--sysroot DIR | --esxcli-file FILE | HOST] [--json]\n"
	        "       gpuwiz vms HOST [--json]\n"
	        "       gpuwiz passthru --enable BDF HOST [--json]\n"
	        "       gpuwiz verify [--sysroot DIR] [--nvidia-smi-q FILE] [--bundle OUT.tar.gz] [--json]\n"
	        "       gpuwiz diagnose FILE|- [--json]\n"
	        "       gpuwiz vsphere --url URL --user USER [--thumbprint SHA256 | --insecure]\n"
	        "                  [--timeout SECONDS] list [--json]\n"
	        "       gpuwiz vsphere --url URL --user USER [...] apply --vm NAME [--gpu SPEC]...\n"
	        "                  [--bdf BDF]... [--vgpu PROFILE]... [--uvm] [--upgrade-hw] [--dry-run]\n"
	        "       gpuwiz vsphere --url URL --user USER [...] passthru --enable BDF [--host NAME]\n"
	        "       gpuwiz --help | --version\n"), f);
	fputs("\n", f);
	fputs(_("HOST is --ssh USER@HOST (an ESXi host through the system's ssh: one login,\n"
	        "host keys checked; with --ssh-port N, --ssh-identity FILE, --ssh-option K=V)\n"
	        "or --sample-host NAME (a practice host built from real captures in a scratch\n"
	        "directory: intel-2x-l40s, amd-geforce-usb, intel-iommu-off-kernel,\n"
	        "esxi-l40s).  On the ESXi shell itself (vim-cmd on the PATH) no HOST is needed.\n"), f);
	fputs("\n", f);
	fputs(_("SPEC is a table id (l40s), a PCI id (10de:26b9) or a model name, with an\n"
	        "optional count: l40s=2.  PROFILE is a vGPU profile (grid_l40s-48c[=COUNT]).\n"), f);
	fputs("\n", f);
	fputs(_("Plan options (mmio, vmx, snippet):\n"
	        "  -g, --gpu SPEC          add GPUs from the table\n"
	        "      --vgpu PROFILE      add vGPUs; MMIO follows the physical GPU\n"
	        "      --vram GB[=COUNT]   add GPUs of this framebuffer size\n"
	        "      --uvm               enable unified memory on every vGPU (NCCL >= 2.27)\n"
	        "      --p2p               allow peer-to-peer between the GPUs\n"
	        "      --code43            hide the hypervisor (old GeForce drivers only)\n"
	        "      --no-reserve        do not reserve all guest memory\n"
	        "      --memory MB         guest memory when there is no .vmx\n"
	        "      --esxi VERSION      the host's ESXi version (7.0U3, 8.0U2, ...)\n"
	        "      --mmio-gb GB        use this 64-bit MMIO size instead of the recommendation\n"
	        "      --allow-below-rule  accept an --mmio-gb below the documented rule\n"
	        "      --bdf BDF           attach the host device at BDF (0000:42:00.0)\n"
	        "      --system-id UUID    the host's id (esxcli system uuid get)\n"
	        "      --name NAME         VM extension name for bosh/opsman (no periods)\n"
	        "      --table FILE        use this GPU table instead of the bundled one\n"
	        "      --json              print JSON instead of text\n"
	        "      --write             (vmx) save the changes, with a backup\n"
	        "      --force             write even when the VM looks powered on\n"), f);
}

/* ---- options shared by mmio, vmx and snippet --------------------------- */

enum {
	OPT_VGPU = 256, OPT_VRAM, OPT_UVM, OPT_P2P, OPT_CODE43, OPT_NORESERVE,
	OPT_MEMORY, OPT_ESXI, OPT_MMIOGB, OPT_BELOW, OPT_BDF, OPT_SYSID,
	OPT_NAME, OPT_TABLE, OPT_JSON, OPT_WRITE, OPT_FORCE, OPT_FORMAT,
	OPT_ANSWERS, OPT_LANG, OPT_HELP, OPT_ESXCLI_FILE, OPT_NVSMI, OPT_SYSROOT,
	OPT_BUNDLE, OPT_SSH, OPT_SSH_PORT, OPT_SSH_ID, OPT_SSH_OPT, OPT_SAMPLE,
	OPT_VM, OPT_UPGRADE, OPT_ENABLE, OPT_KEEP, OPT_URL, OPT_USER,
	OPT_THUMB, OPT_INSECURE, OPT_CAFILE, OPT_DRYRUN, OPT_HOST, OPT_TIMEOUT
};

static const struct option long_opts[] = {
	{ "gpu", required_argument, NULL, 'g' },
	{ "vgpu", required_argument, NULL, OPT_VGPU },
	{ "vram", required_argument, NULL, OPT_VRAM },
	{ "uvm", no_argument, NULL, OPT_UVM },
	{ "p2p", no_argument, NULL, OPT_P2P },
	{ "code43", no_argument, NULL, OPT_CODE43 },
	{ "no-reserve", no_argument, NULL, OPT_NORESERVE },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "esxi", required_argument, NULL, OPT_ESXI },
	{ "mmio-gb", required_argument, NULL, OPT_MMIOGB },
	{ "allow-below-rule", no_argument, NULL, OPT_BELOW },
	{ "bdf", required_argument, NULL, OPT_BDF },
	{ "system-id", required_argument, NULL, OPT_SYSID },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "table", required_argument, NULL, OPT_TABLE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "write", no_argument, NULL, OPT_WRITE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "answers", required_argument, NULL, OPT_ANSWERS },
	{ "lang", required_argument, NULL, OPT_LANG },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "esxcli-file", required_argument, NULL, OPT_ESXCLI_FILE },
	{ "nvidia-smi-q", required_argument, NULL, OPT_NVSMI },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "bundle", required_argument, NULL, OPT_BUNDLE },
	{ "ssh", required_argument, NULL, OPT_SSH },
	{ "ssh-port", required_argument, NULL, OPT_SSH_PORT },
	{ "ssh-identity", required_argument, NULL, OPT_SSH_ID },
	{ "ssh-option", required_argument, NULL, OPT_SSH_OPT },
	{ "sample-host", required_argument, NULL, OPT_SAMPLE },
	{ "vm", required_argument, NULL, OPT_VM },
	{ "upgrade-hw", no_argument, NULL, OPT_UPGRADE },
	{ "enable", required_argument, NULL, OPT_ENABLE },
	{ "url", required_argument, NULL, OPT_URL },
	{ "user", required_argument, NULL, OPT_USER },
	{ "thumbprint", required_argument, NULL, OPT_THUMB },
	{ "insecure", no_argument, NULL, OPT_INSECURE },
	{ "cafile", required_argument, NULL, OPT_CAFILE },
	{ "dry-run", no_argument, NULL, OPT_DRYRUN },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ NULL, 0, NULL, 0 }
};

typedef struct cli_opts {
	const char *cmd;
	const char *table_path;
	const char *answers;
	const char *esxcli_file;
	const char *nvsmi;
	const char *sysroot;
	const char *bundle;
	const char *format;
	const char *ssh;          /* --ssh USER@HOST */
	const char *ssh_port, *ssh_identity;
	const char **ssh_opts;    /* --ssh-option, in order */
	size_t nssh_opts;
	const char *sample;       /* --sample-host NAME */
	const char *vm;           /* --vm NAME|VMID (the last one) */
	const char **vm_list;     /* every --vm, in order (vsphere apply) */
	size_t nvm_list;
	const char *enable;       /* passthru --enable BDF */
	int upgrade;              /* --upgrade-hw */
	const char *url, *user, *thumbprint, *cafile;   /* vsphere */
	const char *host;         /* vsphere passthru --host NAME */
	long timeout;             /* vsphere --timeout SECONDS (0 = default) */
	int insecure, dry_run;
	int json, write, force, help;
	/* GPU specs are kept in order and resolved once the table is loaded */
	struct { int kind; const char *arg; } *items;
	size_t nitems;
	gw_answers a;
	char **args;
	size_t nargs;
} cli_opts;

enum { ITEM_GPU, ITEM_VGPU, ITEM_VRAM, ITEM_BDF };

static void
add_item(cli_opts *o, int kind, const char *arg)
{
	o->items = gw_xrealloc(o->items, (o->nitems + 1) * sizeof *o->items);
	o->items[o->nitems].kind = kind;
	o->items[o->nitems].arg = arg;
	o->nitems++;
}

static int
parse_opts(cli_opts *o, int argc, char **argv, gw_err *e)
{
	int c, i;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:", long_opts, NULL)) != -1) {
		unsigned long long v;

		switch (c) {
		case 'g':
			add_item(o, ITEM_GPU, optarg);
			break;
		case OPT_VGPU:
			add_item(o, ITEM_VGPU, optarg);
			break;
		case OPT_VRAM:
			add_item(o, ITEM_VRAM, optarg);
			break;
		case OPT_BDF:
			add_item(o, ITEM_BDF, optarg);
			break;
		case OPT_UVM:
			o->a.uvm = 1;
			break;
		case OPT_P2P:
			o->a.p2p = 1;
			break;
		case OPT_CODE43:
			o->a.code43 = 1;
			break;
		case OPT_NORESERVE:
			o->a.reserve = 0;
			break;
		case OPT_MEMORY:
			if (gw_parse_uint(optarg, 64ULL * 1024 * 1024, &v) != 0 || v == 0) {
				gw_err_set(e, _("--memory: '%s' is not a memory size in MB (expected 1..67108864)"),
				           optarg);
				return -1;
			}
			o->a.memory_mb = (long)v;
			break;
		case OPT_ESXI:
			if (gw_esxi_to_hw(optarg) == 0) {
				gw_err_set(e, _("--esxi: '%s' is not a known ESXi version (expected e.g. 7.0U3, 8.0U2, 9.0)"),
				           optarg);
				return -1;
			}
			free(o->a.esxi_version);
			o->a.esxi_version = gw_xstrdup(optarg);
			break;
		case OPT_MMIOGB:
			if (gw_parse_gb(optarg, "--mmio-gb", GW_MMIO_MAX_TOTAL_GB * 2,
			                &o->a.mmio_gb, e) != 0)
				return -1;
			break;
		case OPT_BELOW:
			o->a.allow_below_rule = 1;
			break;
		case OPT_SYSID:
			if (gw_answers_set_system_id(&o->a, optarg, "--system-id", e) != 0)
				return -1;
			break;
		case OPT_NAME:
			free(o->a.name);
			o->a.name = gw_xstrdup(optarg);
			break;
		case OPT_TABLE:
			o->table_path = optarg;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_WRITE:
			o->write = 1;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case OPT_FORMAT:
			o->format = optarg;
			break;
		case OPT_ESXCLI_FILE:
			o->esxcli_file = optarg;
			break;
		case OPT_NVSMI:
			o->nvsmi = optarg;
			break;
		case OPT_SYSROOT:
			o->sysroot = optarg;
			break;
		case OPT_BUNDLE:
			o->bundle = optarg;
			break;
		case OPT_ANSWERS:
			o->answers = optarg;
			break;
		case OPT_SSH:
			if (optarg[0] == '\0' || optarg[0] == '-') {
				gw_err_set(e, _("--ssh: '%s' is not a host (expected USER@HOST, e.g. root@esx01)"),
				           optarg);
				return -1;
			}
			o->ssh = optarg;
			break;
		case OPT_SSH_PORT:
			if (gw_parse_uint(optarg, 65535, &v) != 0 || v == 0) {
				gw_err_set(e, _("--ssh-port: '%s' is not a port (expected 1..65535)"),
				           optarg);
				return -1;
			}
			o->ssh_port = optarg;
			break;
		case OPT_SSH_ID:
			o->ssh_identity = optarg;
			break;
		case OPT_SSH_OPT:
			if (strchr(optarg, '=') == NULL || optarg[0] == '-') {
				gw_err_set(e, _("--ssh-option: '%s' is not an ssh option (expected NAME=VALUE, e.g. UserKnownHostsFile=FILE)"),
				           optarg);
				return -1;
			}
			if (strncasecmp(optarg, "StrictHostKeyChecking", 21) == 0) {
				gw_err_set(e, _("--ssh-option: '%s': gpuwiz keeps host key checking on; add the host's key to known_hosts instead (ssh-keyscan, then check its fingerprint)"),
				           optarg);
				return -1;
			}
			o->ssh_opts = gw_xrealloc(o->ssh_opts,
			                          (o->nssh_opts + 1) * sizeof *o->ssh_opts);
			o->ssh_opts[o->nssh_opts++] = optarg;
			break;
		case OPT_SAMPLE:
			o->sample = optarg;
			break;
		case OPT_VM:
			o->vm = optarg;
			o->vm_list = gw_xrealloc(o->vm_list,
			                         (o->nvm_list + 1) * sizeof *o->vm_list);
			o->vm_list[o->nvm_list++] = optarg;
			break;
		case OPT_UPGRADE:
			o->upgrade = 1;
			break;
		case OPT_ENABLE:
			o->enable = optarg;
			break;
		case OPT_URL:
			o->url = optarg;
			break;
		case OPT_USER:
			o->user = optarg;
			break;
		case OPT_THUMB:
			o->thumbprint = optarg;
			break;
		case OPT_INSECURE:
			o->insecure = 1;
			break;
		case OPT_CAFILE:
			o->cafile = optarg;
			break;
		case OPT_DRYRUN:
			o->dry_run = 1;
			break;
		case OPT_HOST:
			o->host = optarg;
			break;
		case OPT_TIMEOUT:
			if (gw_parse_uint(optarg, 3600, &v) != 0 || v == 0) {
				gw_err_set(e, _("--timeout: '%s' is not a number of seconds (expected 1..3600)"),
				           optarg);
				return -1;
			}
			o->timeout = (long)v;
			break;
		case OPT_LANG:
			break; /* handled by setup_locale() */
		case OPT_HELP:
			o->help = 1;
			break;
		case ':':
			gw_err_set(e, _("option '%s' needs a value (see gpuwiz --help)"),
			           argv[optind - 1]);
			return -1;
		default:
			gw_err_set(e, _("unknown option '%s' (see gpuwiz --help)"),
			           argv[optind - 1]);
			return -1;
		}
	}
	for (i = optind; i < argc; i++) {
		o->args = gw_xrealloc(o->args, (o->nargs + 1) * sizeof *o->args);
		o->args[o->nargs++] = argv[i];
	}
	return 0;
}

static void
free_opts(cli_opts *o)
{
	free(o->ssh_opts);
	free(o->vm_list);
	free(o->items);
	free(o->args);
	gw_answers_free(&o->a);
}

static int
load_table(gw_table *t, const char *path, gw_err *e)
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

/* Resolve --gpu/--vgpu/--vram/--bdf in command-line order. */
static int
resolve_items(cli_opts *o, const gw_table *t, gw_err *e)
{
	size_t i;

	for (i = 0; i < o->nitems; i++) {
		const char *arg = o->items[i].arg;

		switch (o->items[i].kind) {
		case ITEM_GPU:
			if (gw_answers_add_gpu(&o->a, t, arg, "--gpu", e) != 0)
				return -1;
			break;
		case ITEM_VGPU:
			if (!gw_is_vgpu_profile(arg)) {
				gw_err_set(e, _("--vgpu: '%s' is not a vGPU profile (expected a name like grid_l40s-48c)"),
				           arg);
				return -1;
			}
			if (gw_answers_add_gpu(&o->a, t, arg, "--vgpu", e) != 0)
				return -1;
			break;
		case ITEM_VRAM:
			if (gw_answers_add_vram(&o->a, arg, "--vram", e) != 0)
				return -1;
			break;
		case ITEM_BDF:
			if (gw_answers_add_bdf(&o->a, arg, "--bdf", e) != 0)
				return -1;
			break;
		}
	}
	if (o->a.ngpus == 0) {
		gw_err_set(e, _("no GPU given: add --gpu SPEC, --vgpu PROFILE or --vram GB"));
		return -1;
	}
	return 0;
}

/* ---- rendering --------------------------------------------------------- */

static const char *
sev_label(gw_sev s)
{
	switch (s) {
	/* TRANSLATORS: severity labels, at most 5 cells. */
	case GW_SEV_ERROR: return _("FAIL");
	case GW_SEV_WARN: return _("WARN");
	default: return _("INFO");
	}
}

static const char *
sev_id(gw_sev s)
{
	return s == GW_SEV_ERROR ? "error" : s == GW_SEV_WARN ? "warn" : "info";
}

static void
print_gpus(const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		const char *name = g->gpu ? g->gpu->name : g->label;

		if (g->vram_gb >= 0)
			printf(_("  %d x %s (%s), %d GB%s\n"), g->count, g->label, name,
			       g->vram_gb, g->existing ? _(", already in the VM") : "");
		else
			printf(_("  %d x %s (%s), framebuffer unknown%s\n"), g->count,
			       g->label, name, g->existing ? _(", already in the VM") : "");
	}
}

static void
print_steps(const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++)
		printf("  %s\n", p->steps[i]);
}

/* The mmio command answers one question: show only what bears on it. */
static int
finding_is_sizing(const gw_finding *x)
{
	static const char *const prefixes[] = { "mmio-", "gpu-", "vgpu-profile",
	                                         "geforce-" };
	size_t i;

	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(x->id, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

static void
print_findings_if(const gw_plan *p, FILE *f, int sizing_only)
{
	size_t i;

	for (i = 0; i < p->nfindings; i++) {
		const gw_finding *x = &p->findings[i];

		if (sizing_only && !finding_is_sizing(x))
			continue;

		/* pad the label to 5 cells, not bytes: CJK labels are 2 cells
		 * a character */
		fprintf(f, "  %s%*s %s\n", sev_label(x->sev),
		        5 - gw_text_cells(sev_label(x->sev)) > 0 ?
		        5 - gw_text_cells(sev_label(x->sev)) : 0, "", x->message);
		if (x->fix)
			fprintf(f, _("        fix: %s\n"), x->fix);
		if (x->source)
			fprintf(f, _("        source: %s\n"), x->source);
	}
}

static void
print_findings(const gw_plan *p, FILE *f)
{
	print_findings_if(p, f, 0);
}

static size_t
count_sizing_findings(const gw_plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nfindings; i++)
		n += finding_is_sizing(&p->findings[i]);
	return n;
}

static int
setting_unchanged(const gw_setting *s)
{
	return s->keep || (s->old_value && strcmp(s->old_value, s->value) == 0);
}

static void
print_settings(const gw_plan *p, int diff)
{
	size_t i;

	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];

		if (!diff) {
			if (!s->keep)
				printf("  %s = \"%s\"\n", s->key, s->value);
		} else if (s->keep) {
			printf("  = %s = \"%s\"  %s\n", s->key, s->old_value,
			       _("(kept)"));
		} else if (setting_unchanged(s)) {
			printf("  = %s = \"%s\"  %s\n", s->key, s->value,
			       _("(already set)"));
		} else {
			if (s->old_value)
				printf("  - %s = \"%s\"\n", s->key, s->old_value);
			printf("  + %s = \"%s\"\n", s->key, s->value);
		}
		if (s->reason)
			printf(_("      why: %s\n"), s->reason);
		if (s->source)
			printf(_("      source: %s\n"), s->source);
	}
}

static json_t *
plan_json(const gw_plan *p, int sizing_only)
{
	json_t *o = json_object(), *gpus = json_array(), *steps = json_array();
	json_t *sets = json_array(), *finds = json_array();
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		json_t *j = json_object();

		json_object_set_new(j, "id", json_string(g->gpu ? g->gpu->id : g->label));
		json_object_set_new(j, "name", json_string(g->gpu ? g->gpu->name : g->label));
		json_object_set_new(j, "vram_gb", g->vram_gb >= 0 ? json_integer(g->vram_gb) : json_null());
		json_object_set_new(j, "count", json_integer(g->count));
		json_object_set_new(j, "profile", g->profile ? json_string(g->profile) : json_null());
		json_object_set_new(j, "existing", json_boolean(g->existing));
		json_array_append_new(gpus, j);
	}
	for (i = 0; i < p->nsteps; i++)
		json_array_append_new(steps, json_string(p->steps[i]));
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];
		json_t *j = json_object();

		json_object_set_new(j, "key", json_string(s->key));
		json_object_set_new(j, "value", json_string(s->value));
		json_object_set_new(j, "old_value", s->old_value ? json_string(s->old_value) : json_null());
		json_object_set_new(j, "change", json_boolean(!setting_unchanged(s)));
		json_object_set_new(j, "reason", s->reason ? json_string(s->reason) : json_null());
		json_object_set_new(j, "source", s->source ? json_string(s->source) : json_null());
		json_array_append_new(sets, j);
	}
	for (i = 0; i < p->nfindings; i++) {
		const gw_finding *x = &p->findings[i];
		json_t *j;

		if (sizing_only && !finding_is_sizing(x))
			continue;
		j = json_object();
		json_object_set_new(j, "id", json_string(x->id));
		json_object_set_new(j, "severity", json_string(sev_id(x->sev)));
		json_object_set_new(j, "message", json_string(x->message));
		json_object_set_new(j, "fix", x->fix ? json_string(x->fix) : json_null());
		json_object_set_new(j, "source", x->source ? json_string(x->source) : json_null());
		json_array_append_new(finds, j);
	}
	json_object_set_new(o, "gpus", gpus);
	json_object_set_new(o, "total_vram_gb", json_integer((json_int_t)p->total_vram_gb));
	json_object_set_new(o, "rule_gb", json_integer((json_int_t)p->rule_gb));
	json_object_set_new(o, "bar_gb", p->bar_gb ? json_integer((json_int_t)p->bar_gb) : json_null());
	json_object_set_new(o, "existing_mmio_gb", p->existing_gb ? json_integer((json_int_t)p->existing_gb) : json_null());
	json_object_set_new(o, "mmio_size_gb", json_integer((json_int_t)p->mmio_gb));
	json_object_set_new(o, "steps", steps);
	json_object_set_new(o, "settings", sets);
	json_object_set_new(o, "findings", finds);
	return o;
}

/* On a host (vmx --vm, vsphere apply) the hardware-version advice has a
 * flag of its own: say so under the findings. */
static void
upgrade_hint(const gw_plan *p, int asked)
{
	if (!asked && p->hw_current > 0 && p->hw_target > p->hw_current)
		/* TRANSLATORS: %d is the newest hardware version of the host;
		 * --upgrade-hw is an option. */
		printf(_("  Add --upgrade-hw to upgrade this VM to vmx-%d first (powered off only; one-way: take a snapshot or backup).\n"),
		       p->hw_target);
}

/* ---- hosts: --ssh USER@HOST, the ESXi shell, --sample-host NAME ------- */

typedef struct host_ctx {
	gw_sample smp;         /* --sample-host: materialised in a scratch dir */
	int have_sample;
	gw_runner *r;          /* an ESXi host; NULL for a Linux one */
	char *label;           /* "root@esx01", "esxi-l40s (sample)", "this host" */
	const char *sysroot;   /* a Linux host: --sysroot or the sample's root */
} host_ctx;

static void host_close(host_ctx *h);

/* Is vim-cmd on the PATH (gpuwiz runs on the ESXi shell itself)? */
static int
on_esxi_shell(void)
{
	const char *path = getenv("PATH");
	char *copy, *p, *dir;
	int found = 0;

	if (path == NULL)
		return 0;
	copy = gw_xstrdup(path);
	for (p = copy; !found && (dir = strsep(&p, ":")) != NULL;) {
		char *f = gw_xasprintf("%s/vim-cmd", *dir ? dir : ".");

		found = access(f, X_OK) == 0;
		free(f);
	}
	free(copy);
	return found;
}

/* The runner's test and unusual-host settings from the environment:
 * GPUWIZ_ESXI_PATH is put first on the PATH the host's commands see,
 * GPUWIZ_ESXI_VOLUMES replaces /vmfs/volumes. */
static void
runner_env(gw_runner *r)
{
	const char *p = getenv("GPUWIZ_ESXI_PATH");
	const char *v = getenv("GPUWIZ_ESXI_VOLUMES");

	if (p && *p)
		gw_runner_set_path_prefix(r, p);
	if (v && *v)
		gw_runner_set_volumes_root(r, v);
}

/* gpuwiz on the ESXi shell itself: the commands run here. */
static gw_runner *
esxi_shell_runner(void)
{
	gw_runner *r = gw_runner_open_local();

	runner_env(r);
	return r;
}

static const char *
esxi_shell_label(void)
{
	/* TRANSLATORS: the host gpuwiz runs on (the ESXi shell). */
	return _("this ESXi host");
}

static gw_runner *
open_ssh(cli_opts *o, gw_err *e)
{
	const char **extra = gw_xcalloc(2 * o->nssh_opts + 5, sizeof *extra);
	gw_runner *r;
	size_t n = 0, i;

	if (o->ssh_port) {
		extra[n++] = "-p";
		extra[n++] = o->ssh_port;
	}
	if (o->ssh_identity) {
		extra[n++] = "-i";
		extra[n++] = o->ssh_identity;
	}
	for (i = 0; i < o->nssh_opts; i++) {
		extra[n++] = "-o";
		extra[n++] = o->ssh_opts[i];
	}
	extra[n] = NULL;
	/* on a terminal ssh may ask for the password once (the master);
	 * otherwise keys only */
	r = gw_runner_open_ssh_prompt(o->ssh, extra, isatty(STDIN_FILENO) &&
	                              isatty(STDERR_FILENO), e);
	free(extra);
	return r;
}

/* Open the host a command works on.  need: 'e' an ESXi host (--ssh, a
 * sample ESXi host, or the ESXi shell), 'l' a Linux host (--sysroot, a
 * sample Linux host, else /), 'a' whichever the options name (ESXi when
 * --ssh, an ESXi sample, or the ESXi shell without --sysroot; else
 * Linux). */
static int
host_open(cli_opts *o, int need, host_ctx *h, gw_err *e)
{
	memset(h, 0, sizeof *h);
	if (o->ssh && o->sample) {
		gw_err_set(e, "%s", _("--ssh and --sample-host exclude each other (a sample host is not reached over SSH)"));
		return -1;
	}
	if ((o->ssh || o->sample) && o->sysroot) {
		gw_err_set(e, _("--sysroot cannot be combined with %s"),
		           o->ssh ? "--ssh" : "--sample-host");
		return -1;
	}
	if (o->sample) {
		if (gw_sample_open(o->sample, &h->smp, e) != 0)
			return -1;
		h->have_sample = 1;
		h->label = gw_sample_label(&h->smp);
		if ((h->r = gw_sample_runner(&h->smp)) == NULL)
			h->sysroot = h->smp.sysroot;
	} else if (o->ssh) {
		if ((h->r = open_ssh(o, e)) == NULL)
			return -1;
		runner_env(h->r);
		h->label = gw_xstrdup(o->ssh);
	} else if (need != 'l' && !o->sysroot && on_esxi_shell()) {
		h->r = esxi_shell_runner();
		h->label = gw_xstrdup(esxi_shell_label());
	} else {
		h->sysroot = o->sysroot;
	}
	if (need == 'e' && h->r == NULL) {
		gw_err_set(e, "%s", _("no ESXi host: give --ssh USER@HOST (or --sample-host with an ESXi sample), or run gpuwiz on the ESXi shell"));
		host_close(h);
		return -1;
	}
	if (need == 'l' && h->r != NULL) {
		gw_err_set(e, "%s", _("this command reads a Linux host; an ESXi host has no /sys to read (use gpuwiz gpus or check with --ssh)"));
		host_close(h);
		return -1;
	}
	return 0;
}

static void
host_close(host_ctx *h)
{
	gw_runner_close(h->r);
	if (h->have_sample)
		gw_sample_close(&h->smp, 1);
	free(h->label);
	memset(h, 0, sizeof *h);
}

/* The VM named by --vm: a Vmid (digits) or a name, exactly. */
static const gw_esxi_vm *
find_vm(const gw_esxi_vm_list *l, const char *spec, gw_err *e)
{
	unsigned long long id;
	size_t i, hits = 0;
	const gw_esxi_vm *vm = NULL;

	if (gw_parse_uint(spec, ~0UL, &id) == 0 &&
	    (vm = gw_esxi_vm_find(l, (unsigned long)id)) != NULL)
		return vm;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->vms[i].name, spec) == 0) {
			vm = &l->vms[i];
			hits++;
		}
	if (hits == 1)
		return vm;
	if (hits > 1)
		gw_err_set(e, _("--vm: %zu VMs are named '%s'; give the Vmid instead (gpuwiz vms lists them)"),
		           hits, spec);
	else
		gw_err_set(e, _("--vm: no VM '%s' on the host (expected a name or Vmid that gpuwiz vms lists)"),
		           spec);
	return NULL;
}

/* The power state word of the JSON outputs. */
static const char *
power_word(gw_esxi_power p)
{
	return p == GW_ESXI_POWER_ON ? "on" : p == GW_ESXI_POWER_OFF ? "off" :
	       p == GW_ESXI_POWER_SUSPENDED ? "suspended" : "unknown";
}

/* ---- commands ---------------------------------------------------------- */

static int
cmd_mmio(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_plan p;
	size_t i;

	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	if (resolve_items(o, t, e) != 0)
		return EXIT_USAGE;
	o->a.reserve = 0;   /* sizing only */
	if (gw_plan_build(&o->a, t, NULL, &p, e) != 0)
		return EXIT_USAGE;
	if (o->json) {
		json_t *j = plan_json(&p, 1);

		gw_json_print(j);
		json_decref(j);
	} else {
		printf("%s\n", _("GPUs in the VM:"));
		print_gpus(&p);
		printf("%s\n", _("Calculation:"));
		print_steps(&p);
		printf("%s\n", _("Settings:"));
		for (i = 0; i < p.nsettings; i++)
			if (p.settings[i].kind == GW_SET_MMIO)
				printf("  %s = \"%s\"\n", p.settings[i].key,
				       p.settings[i].value);
		if (count_sizing_findings(&p) > 0) {
			printf("%s\n", _("Notes:"));
			print_findings_if(&p, stdout, 1);
		}
	}
	gw_plan_free(&p);
	return 0;
}

/* vmx FILE, or vmx --vm NAME|VMID on an ESXi host (--ssh, a sample host,
 * the ESXi shell): the .vmx is read from the datastore and, with --write,
 * saved back there (VM powered off only; backup beside it) and the VM
 * reloaded.  On a host the ESXi version and, for --bdf, the system id
 * come from the host unless given; --upgrade-hw first raises the VM's
 * hardware version to the host's newest (vim-cmd vmsvc/upgrade, VM off,
 * never down). */
static int
cmd_vmx(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_vmx *v = NULL;
	gw_plan p;
	char *before = NULL, *after = NULL, *backup = NULL, *hpath = NULL;
	char *shown = NULL;
	size_t blen = 0, alen = 0;
	int rc = 0, changed, written = 0, refused = 0, have_plan = 0;
	int upgraded = 0, reloaded = 0;
	host_ctx h;
	gw_esxi_vm_list vms;
	const gw_esxi_vm *vm = NULL;
	gw_esxi_power pw = GW_ESXI_POWER_UNKNOWN;
	const char *path;

	memset(&h, 0, sizeof h);
	memset(&vms, 0, sizeof vms);
	if (o->vm == NULL && (o->ssh || o->sample)) {
		gw_err_set(e, "%s", _("--vm: missing (expected the VM's name or Vmid on the host; gpuwiz vms lists them)"));
		return EXIT_USAGE;
	}
	if (o->vm == NULL && o->nargs != 1) {
		gw_err_set(e, o->nargs == 0 ? _("missing the .vmx FILE to read")
		                            : _("expected one .vmx FILE"));
		return EXIT_USAGE;
	}
	if (o->vm != NULL && o->nargs > 0) {
		gw_err_set(e, _("--vm reads the .vmx from the host; unexpected '%s'"),
		           o->args[0]);
		return EXIT_USAGE;
	}
	if (o->vm == NULL && o->upgrade) {
		gw_err_set(e, "%s", _("--upgrade-hw needs --vm on an ESXi host (vim-cmd vmsvc/upgrade)"));
		return EXIT_USAGE;
	}
	if (resolve_items(o, t, e) != 0)
		return EXIT_USAGE;
	if (o->vm == NULL) {
		path = o->args[0];
		if (gw_vmx_load(&v, path, e) != 0)
			return EXIT_USAGE;
	} else {
		if (host_open(o, 'e', &h, e) != 0) {
			rc = EXIT_USAGE;
			goto out;
		}
		if (o->a.esxi_version == NULL) {
			gw_esxi_version ver;

			if (gw_esxi_session_version(h.r, &ver, e) != 0) {
				rc = EXIT_USAGE;
				goto out;
			}
			if (ver.release && gw_esxi_to_hw(ver.release) > 0)
				o->a.esxi_version = gw_xstrdup(ver.release);
			gw_esxi_version_free(&ver);
		}
		if (o->a.nbdfs > 0 && o->a.system_id == NULL) {
			char *uuid = NULL;

			if (gw_esxi_session_uuid(h.r, &uuid, e) != 0 ||
			    gw_answers_set_system_id(&o->a, uuid, "esxcli system uuid get",
			                             e) != 0) {
				free(uuid);
				rc = EXIT_USAGE;
				goto out;
			}
			free(uuid);
		}
		if (gw_esxi_session_list_vms(h.r, &vms, e) != 0 ||
		    (vm = find_vm(&vms, o->vm, e)) == NULL ||
		    gw_esxi_session_power_state(h.r, vm->vmid, &pw, e) != 0 ||
		    gw_esxi_session_vmx_path(h.r, vm, &hpath, e) != 0 ||
		    gw_esxi_session_read_vmx(h.r, hpath, &v, e) != 0) {
			rc = EXIT_USAGE;
			goto out;
		}
		if (o->upgrade) {
			const char *cur = gw_vmx_get(v, "virtualHW.version");
			unsigned long long hw = 0;
			int target = o->a.esxi_version ?
			             gw_esxi_to_hw(o->a.esxi_version) : 0;

			if (cur == NULL || gw_parse_uint(cur, 99, &hw) != 0 ||
			    target == 0) {
				gw_err_set(e, _("%s: --upgrade-hw: the VM's or the host's hardware version is unknown"),
				           hpath);
				rc = EXIT_USAGE;
				goto out;
			}
			if ((int)hw < target) {
				if (gw_esxi_session_upgrade(h.r, vm->vmid, (int)hw,
				                            target, e) != 0) {
					rc = EXIT_USAGE;
					goto out;
				}
				upgraded = target;
				gw_vmx_free(v);
				v = NULL;
				if (gw_esxi_session_read_vmx(h.r, hpath, &v, e) != 0) {
					rc = EXIT_USAGE;
					goto out;
				}
			}
		}
		shown = gw_xasprintf("%s:%s", h.label, hpath);
		path = shown;
	}
	if (gw_plan_build(&o->a, t, v, &p, e) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	have_plan = 1;
	before = gw_vmx_serialize(v, &blen);
	if (gw_plan_apply_vmx(&p, v, e) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	after = gw_vmx_serialize(v, &alen);
	changed = blen != alen || memcmp(before, after, blen) != 0;

	if (o->write && changed) {
		if (gw_plan_has_errors(&p) && !o->force) {
			/* reported below, after the findings it refers to */
			refused = 1;
		} else if (vm != NULL) {
			/* never a VM that is not off, --force or not */
			if (gw_esxi_session_save_vmx(h.r, vm->vmid, hpath, v, &backup,
			                             e) != 0) {
				rc = EXIT_USAGE;
				goto out;
			}
			written = 1;
			reloaded = gw_esxi_session_reload(h.r, vm->vmid, e) == 0;
		} else if (gw_vmx_save(v, path, o->force, &backup, e) != 0) {
			rc = EXIT_USAGE;
			goto out;
		} else {
			written = 1;
		}
	}

	if (o->json) {
		json_t *j = plan_json(&p, 0);

		json_object_set_new(j, "file", json_string(path));
		json_object_set_new(j, "changed", json_boolean(changed));
		json_object_set_new(j, "written", json_boolean(written));
		json_object_set_new(j, "backup", backup ? json_string(backup) : json_null());
		if (vm != NULL) {
			json_object_set_new(j, "vmid", json_integer((json_int_t)vm->vmid));
			json_object_set_new(j, "power", json_string(power_word(pw)));
			json_object_set_new(j, "upgraded_to", upgraded ?
			                    json_integer(upgraded) : json_null());
			json_object_set_new(j, "reloaded", json_boolean(reloaded));
		}
		gw_json_print(j);
		json_decref(j);
	} else {
		printf(_("VM: %s\n"), path);
		if (vm != NULL)
			/* TRANSLATORS: the VM on the host: its id and power
			 * state. */
			printf(_("  Vmid %lu, %s\n"), vm->vmid, gw_esxi_power_name(pw));
		if (upgraded)
			/* TRANSLATORS: %d is the new hardware version. */
			printf(_("Upgraded the hardware version to vmx-%d.\n"), upgraded);
		print_gpus(&p);
		printf("%s\n", _("Calculation:"));
		print_steps(&p);
		printf("%s\n", _("Changes:"));
		print_settings(&p, 1);
		if (p.nfindings > 0) {
			printf("%s\n", _("Findings:"));
			print_findings(&p, stdout);
		}
		if (vm != NULL)
			upgrade_hint(&p, o->upgrade);
		if (!changed)
			printf("%s\n", _("Nothing to change: the file already has these settings."));
		else if (written)
			printf(_("Saved %s (backup: %s).\n"), path, backup);
		else if (!o->write)
			printf("%s\n", _("Nothing was written: add --write to save these changes."));
		if (written && vm != NULL) {
			if (reloaded)
				printf(_("Reloaded the VM (vim-cmd vmsvc/reload %lu); power it on with: vim-cmd vmsvc/power.on %lu\n"),
				       vm->vmid, vm->vmid);
			else
				printf(_("The VM could not be reloaded (%s); run: vim-cmd vmsvc/reload %lu\n"),
				       e->msg, vm->vmid);
		}
	}
	if (refused) {
		fflush(stdout);
		fprintf(stderr, _("%s %s: %s: not written: the plan has failures (FAIL above); fix them or use --force\n"),
		        progname, o->cmd, path);
	}
	if (rc == 0 && gw_plan_has_errors(&p))
		rc = EXIT_FINDINGS;
out:
	free(before);
	free(after);
	free(backup);
	free(hpath);
	free(shown);
	if (have_plan)
		gw_plan_free(&p);
	gw_vmx_free(v);
	gw_esxi_vm_list_free(&vms);
	host_close(&h);
	return rc;
}

static int
cmd_snippet(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_plan p;
	char *out = NULL;
	int fmt, rc = 0;

	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	if (o->format == NULL) {
		gw_err_set(e, _("--format: missing (expected vmx, bosh, opsman or tile)"));
		return EXIT_USAGE;
	}
	if ((fmt = gw_format_parse(o->format)) == 0) {
		gw_err_set(e, _("--format: unknown format '%s' (expected vmx, bosh, opsman or tile)"),
		           o->format);
		return EXIT_USAGE;
	}
	if (resolve_items(o, t, e) != 0)
		return EXIT_USAGE;
	if (gw_plan_build(&o->a, t, NULL, &p, e) != 0)
		return EXIT_USAGE;
	if (gw_emit(fmt, &p, &out, e) != 0) {
		gw_plan_free(&p);
		return EXIT_USAGE;
	}
	fputs(out, stdout);
	/* Findings go to stderr so stdout stays a clean snippet. */
	if (p.nfindings > 0) {
		fprintf(stderr, "%s\n", _("Notes:"));
		print_findings(&p, stderr);
	}
	if (gw_plan_has_errors(&p))
		rc = EXIT_FINDINGS;
	free(out);
	gw_plan_free(&p);
	return rc;
}

/* The files are written by gw_apply (apply.c), all or nothing; this
 * command loads the answers, refuses a plan with failures unless forced,
 * and reports what was written. */
static int
cmd_apply(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_answers_file af;
	gw_apply_result res;
	gw_vmx *v = NULL;
	gw_plan p;
	size_t i;
	int rc = EXIT_USAGE, have_plan = 0, force;

	memset(&res, 0, sizeof res);
	if (o->answers == NULL) {
		gw_err_set(e, _("--answers: missing (expected an answers FILE)"));
		return EXIT_USAGE;
	}
	if (o->nargs > 0 || o->nitems > 0) {
		gw_err_set(e, _("apply takes everything from --answers FILE; unexpected '%s'"),
		           o->nargs > 0 ? o->args[0] : o->items[0].arg);
		return EXIT_USAGE;
	}
	if (gw_answers_load(&af, o->answers, t, e) != 0) {
		gw_answers_file_free(&af);
		return EXIT_USAGE;
	}
	force = o->force || af.force;
	if (af.vmx_path && gw_vmx_load(&v, af.vmx_path, e) != 0)
		goto out;
	if (gw_plan_build(&af.a, t, v, &p, e) != 0)
		goto out;
	have_plan = 1;
	if (gw_plan_has_errors(&p) && !force) {
		print_findings(&p, stderr);
		gw_err_set(e, _("%s: nothing written: the plan has failures (see above); fix them or set [options] force = yes"),
		           o->answers);
		goto out;
	}
	if (gw_apply(&af, &p, v, force, &res, e) != 0)
		goto out;
	for (i = 0; i < res.nwritten; i++)
		printf(_("wrote %s\n"), res.written[i]);
	if (res.vmx_path && res.vmx_unchanged)
		printf("%s: %s\n", res.vmx_path,
		       _("Nothing to change: the file already has these settings."));
	else if (res.vmx_path)
		printf(_("patched %s (backup: %s)\n"), res.vmx_path, res.backup);
	if (p.nfindings > 0) {
		printf("%s\n", _("Findings:"));
		print_findings(&p, stdout);
	}
	rc = gw_plan_has_errors(&p) ? EXIT_FINDINGS : 0;
out:
	gw_apply_result_free(&res);
	if (have_plan)
		gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_file_free(&af);
	return rc;
}

/* gpus: this Linux host's PCI devices through libpci (--sysroot for a
 * copy of /sys and /proc), a saved `esxcli hardware pci list`, or an ESXi
 * host's (--ssh, a sample host, the ESXi shell). */
static int
cmd_gpus(cli_opts *o, const gw_table *t, gw_err *e)
{
	host_ctx h;
	int rc;

	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	if (o->esxcli_file != NULL) {
		if (o->ssh || o->sample || o->sysroot) {
			gw_err_set(e, "%s", _("--esxcli-file reads a saved listing; it cannot be combined with --ssh, --sample-host or --sysroot"));
			return EXIT_USAGE;
		}
		return gw_esxi_gpus_command(t, o->esxcli_file, o->json, e);
	}
	if (host_open(o, 'a', &h, e) != 0)
		return EXIT_USAGE;
	if (h.r != NULL) {
		static const char *const argv[] = { "esxcli", "hardware", "pci",
		                                    "list", NULL };
		char *out = NULL;

		if (gw_runner_run_ok(h.r, argv, &out, e) != 0)
			rc = EXIT_USAGE;
		else
			rc = gw_esxi_gpus_text_command(t, out, "esxcli hardware pci list",
			                               o->json, e);
		free(out);
	} else {
		rc = gw_linux_gpus_command(t, h.sysroot, o->json, e);
	}
	host_close(&h);
	return rc;
}

/* check: this Linux host like virt-host-validate, or an ESXi host's
 * passthrough readiness (the wizard's host step rows). */
static int
cmd_check(cli_opts *o, const gw_table *t, gw_err *e)
{
	host_ctx h;
	int rc;

	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	if (host_open(o, 'a', &h, e) != 0)
		return EXIT_USAGE;
	if (h.r != NULL) {
		gw_wizard w;
		size_t i;
		int failed = 0;

		if (gw_wizard_init(&w, t, NULL, e) != 0) {
			host_close(&h);
			return EXIT_USAGE;
		}
		gw_wizard_attach_esxi(&w, h.r, h.label);
		h.r = NULL;   /* the wizard closes it */
		for (i = 0; i < w.nchecks; i++)
			failed |= w.checks[i].status == GW_LINUX_FAIL;
		gw_linux_print_checks(w.checks, w.nchecks, o->json);
		gw_wizard_free(&w);
		rc = failed ? EXIT_FINDINGS : 0;
	} else {
		rc = gw_linux_check_command(h.sysroot, o->json, e);
	}
	host_close(&h);
	return rc;
}

/* vms: the ESXi host's VMs with their power state and hardware version. */
static int
cmd_vms(cli_opts *o, gw_err *e)
{
	gw_esxi_vm_list l;
	gw_esxi_power *pw = NULL;
	host_ctx h;
	size_t i;
	int rc = 0;

	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	memset(&l, 0, sizeof l);
	if (host_open(o, 'e', &h, e) != 0)
		return EXIT_USAGE;
	if (gw_esxi_session_list_vms(h.r, &l, e) != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	pw = gw_xcalloc(l.n ? l.n : 1, sizeof *pw);
	for (i = 0; i < l.n; i++)
		if (gw_esxi_session_power_state(h.r, l.vms[i].vmid, &pw[i], e) != 0) {
			rc = EXIT_USAGE;
			goto out;
		}
	if (o->json) {
		json_t *j = json_object(), *arr = json_array();

		for (i = 0; i < l.n; i++) {
			const gw_esxi_vm *vm = &l.vms[i];
			json_t *x = json_object();

			json_object_set_new(x, "vmid", json_integer((json_int_t)vm->vmid));
			json_object_set_new(x, "name", gw_json_text(vm->name));
			json_object_set_new(x, "file", gw_json_text(vm->file));
			json_object_set_new(x, "datastore", gw_json_text(vm->datastore));
			json_object_set_new(x, "path", gw_json_text(vm->path));
			json_object_set_new(x, "guest_os", gw_json_text(vm->guest_os));
			json_object_set_new(x, "hw_version", vm->hw_version > 0 ?
			                    json_integer(vm->hw_version) : json_null());
			json_object_set_new(x, "power", json_string(power_word(pw[i])));
			json_array_append_new(arr, x);
		}
		json_object_set_new(j, "host", gw_json_text(h.label));
		json_object_set_new(j, "vms", arr);
		gw_json_print(j);
		json_decref(j);
	} else {
		/* TRANSLATORS: heading of gpuwiz vms; %s is the host. */
		printf(_("VMs on %s:\n"), h.label);
		for (i = 0; i < l.n; i++) {
			const gw_esxi_vm *vm = &l.vms[i];

			printf("  %-6lu %-12s %-7s %s  %s\n", vm->vmid,
			       gw_esxi_power_name(pw[i]),
			       vm->version ? vm->version : "-", vm->name, vm->file);
		}
		if (l.n == 0)
			printf("  %s\n", _("(none)"));
	}
out:
	free(pw);
	gw_esxi_vm_list_free(&l);
	host_close(&h);
	return rc;
}

/* passthru --enable BDF: enable passthrough of a device on the ESXi host
 * (refused for a controller holding a datastore or the boot device). */
static int
cmd_passthru(cli_opts *o, gw_err *e)
{
	host_ctx h;
	int reboot = 0, rc = 0;

	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	if (o->enable == NULL) {
		gw_err_set(e, "%s", _("--enable: missing (expected the device's address, e.g. 0000:3b:00.0; gpuwiz gpus lists them)"));
		return EXIT_USAGE;
	}
	if (host_open(o, 'e', &h, e) != 0)
		return EXIT_USAGE;
	if (gw_esxi_session_enable_passthru(h.r, o->enable, &reboot, e) != 0) {
		rc = EXIT_USAGE;
	} else if (o->json) {
		json_t *j = json_object();

		json_object_set_new(j, "device", gw_json_text(o->enable));
		json_object_set_new(j, "enabled", json_true());
		json_object_set_new(j, "reboot_needed", json_boolean(reboot));
		gw_json_print(j);
		json_decref(j);
	} else {
		/* TRANSLATORS: %s is the device's address, then the host. */
		printf(_("Passthrough enabled for %s on %s.\n"), o->enable, h.label);
		if (reboot)
			printf("%s\n", _("The host needs a reboot (maintenance mode first) before a VM can use the device."));
		else
			printf("%s\n", _("It is active now: add the device to the VM (gpuwiz vmx --vm NAME --bdf ADDRESS ...)."));
	}
	host_close(&h);
	return rc;
}

static int
cmd_diagnose(cli_opts *o, gw_err *e)
{
	if (o->nargs != 1) {
		gw_err_set(e, o->nargs == 0
		           ? _("missing the FILE to read (a vmware.log excerpt or an error message; - reads standard input)")
		           : _("expected one FILE (or - for standard input)"));
		return EXIT_USAGE;
	}
	return gw_diagnose_command(o->args[0], o->json, e);
}

static int
cmd_verify(cli_opts *o, const gw_table *t, gw_err *e)
{
	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	/* a saved capture alone: its checks only; otherwise the live guest
	 * (--sysroot DIR, else /), with the capture's checks when given */
	if (o->nvsmi != NULL && o->sysroot == NULL && o->bundle == NULL)
		return gw_verify_command(t, o->nvsmi, o->json, e);
	return gw_verify_live_command(t, o->sysroot, o->nvsmi, o->bundle,
	                              o->json, e);
}

/* ---- vsphere: vCenter or a licensed ESXi through the API ---------------- */

static struct termios pw_saved;
static int pw_fd = -1;

static void
pw_restore(int sig)
{
	if (pw_fd >= 0)
		tcsetattr(pw_fd, TCSAFLUSH, &pw_saved);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The password: GPUWIZ_PASSWORD, else asked on the terminal without echo
 * (never from the command line).  NULL and e when there is neither. */
static char *
read_password(const char *user, const char *url, gw_err *e)
{
	const char *env = getenv("GPUWIZ_PASSWORD");
	struct termios t;
	struct sigaction sa, oint, oterm, ohup;
	char buf[512];
	FILE *tty;
	int ok;

	if (env != NULL)
		return gw_xstrdup(env);
	tty = fopen("/dev/tty", "r+");
	if (tty == NULL) {
		gw_err_set(e, "%s", _("no password: set GPUWIZ_PASSWORD or run gpuwiz on a terminal (the password is never taken from the command line)"));
		return NULL;
	}
	pw_fd = fileno(tty);
	if (tcgetattr(pw_fd, &pw_saved) != 0) {
		fclose(tty);
		pw_fd = -1;
		gw_err_set(e, "%s", _("no password: set GPUWIZ_PASSWORD or run gpuwiz on a terminal (the password is never taken from the command line)"));
		return NULL;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = pw_restore;
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGTERM, &sa, &oterm);
	sigaction(SIGHUP, &sa, &ohup);
	t = pw_saved;
	t.c_lflag &= ~(tcflag_t)ECHO;
	tcsetattr(pw_fd, TCSAFLUSH, &t);
	/* TRANSLATORS: the password prompt; %s is the user, then the URL. */
	fprintf(tty, _("Password for %s at %s: "), user, url);
	fflush(tty);
	ok = fgets(buf, sizeof buf, tty) != NULL;
	tcsetattr(pw_fd, TCSAFLUSH, &pw_saved);
	fputc('\n', tty);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
	sigaction(SIGHUP, &ohup, NULL);
	fclose(tty);
	pw_fd = -1;
	if (!ok) {
		gw_err_set(e, "%s", _("no password given"));
		return NULL;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	{
		char *r = gw_xstrdup(buf);

		memset(buf, 0, sizeof buf);
		return r;
	}
}

static void
vs_progress(void *ctx, const char *what, int pct)
{
	(void)ctx;
	/* on standard output: standard error keeps the one error line */
	if (pct >= 0)
		printf("  %s: %d%%\n", what, pct);
	else
		printf("  %s...\n", what);
	fflush(stdout);
}

static json_t *
vs_host_json(const gw_table *t, const gw_vs_host *h)
{
	json_t *j = json_object(), *arr = json_array();
	size_t i;

	json_object_set_new(j, "moref", gw_json_text(h->moref));
	json_object_set_new(j, "name", gw_json_text(h->name));
	json_object_set_new(j, "version", h->version ? gw_json_text(h->version) : json_null());
	json_object_set_new(j, "build", h->build ? gw_json_text(h->build) : json_null());
	for (i = 0; i < h->npci; i++) {
		const gw_vs_pci *d = &h->pci[i];
		const gw_gpu *g;
		json_t *x;
		char hex[8];

		if ((d->class_id >> 8) != 0x03)
			continue;
		g = gw_table_find_pci(t, d->vendor, d->device, d->subvendor,
		                      d->subdevice, NULL);
		x = json_object();
		json_object_set_new(x, "bdf", gw_json_text(d->id));
		snprintf(hex, sizeof hex, "%04x", d->vendor);
		json_object_set_new(x, "vendor_id", json_string(hex));
		snprintf(hex, sizeof hex, "%04x", d->device);
		json_object_set_new(x, "device_id", json_string(hex));
		json_object_set_new(x, "name", gw_json_text(g ? g->name :
		                    d->device_name ? d->device_name : ""));
		json_object_set_new(x, "vram_gb", g && g->vram_gb >= 0 ?
		                    json_integer(g->vram_gb) : json_null());
		json_object_set_new(x, "passthru_capable", d->passthru_capable < 0 ?
		                    json_null() : json_boolean(d->passthru_capable));
		json_object_set_new(x, "passthru_enabled", d->passthru_enabled < 0 ?
		                    json_null() : json_boolean(d->passthru_enabled));
		json_object_set_new(x, "passthru_active", d->passthru_active < 0 ?
		                    json_null() : json_boolean(d->passthru_active));
		json_object_set_new(x, "system_id", d->system_id ?
		                    gw_json_text(d->system_id) : json_null());
		json_array_append_new(arr, x);
	}
	json_object_set_new(j, "gpus", arr);
	return j;
}

static json_t *
vs_vm_json(const gw_vs_vm *vm)
{
	json_t *j = json_object(), *arr = json_array();
	size_t i;

	json_object_set_new(j, "moref", gw_json_text(vm->moref));
	json_object_set_new(j, "name", gw_json_text(vm->name));
	json_object_set_new(j, "power", json_string(power_word(gw_vs_power_esxi(vm->power))));
	json_object_set_new(j, "hw_version", vm->hw_version ?
	                    json_integer(vm->hw_version) : json_null());
	json_object_set_new(j, "firmware", vm->firmware ? gw_json_text(vm->firmware) : json_null());
	json_object_set_new(j, "memory_mb", json_integer(vm->memory_mb));
	json_object_set_new(j, "reservation_locked", vm->reserve_locked < 0 ?
	                    json_null() : json_boolean(vm->reserve_locked));
	for (i = 0; i < vm->ndevs; i++) {
		const gw_vs_dev *d = &vm->devs[i];
		json_t *x = json_object();

		if (d->vgpu) {
			json_object_set_new(x, "vgpu", gw_json_text(d->vgpu));
		} else {
			char hex[8];

			json_object_set_new(x, "bdf", d->id ? gw_json_text(d->id) : json_null());
			snprintf(hex, sizeof hex, "%04x", d->vendor);
			json_object_set_new(x, "vendor_id", json_string(hex));
			snprintf(hex, sizeof hex, "%04x", d->device);
			json_object_set_new(x, "device_id", json_string(hex));
		}
		json_array_append_new(arr, x);
	}
	json_object_set_new(j, "passthrough", arr);
	return j;
}

static void
vs_list_text(const gw_table *t, const gw_vs_inventory *inv)
{
	size_t i, k;

	for (i = 0; i < inv->nhosts; i++) {
		const gw_vs_host *h = &inv->hosts[i];

		/* TRANSLATORS: a host in gpuwiz vsphere list: name, version. */
		printf(_("Host %s (ESXi %s):\n"), h->name, h->version ? h->version : "?");
		for (k = 0; k < h->npci; k++) {
			const gw_vs_pci *d = &h->pci[k];
			const gw_gpu *g;

			if ((d->class_id >> 8) != 0x03)
				continue;
			g = gw_table_find_pci(t, d->vendor, d->device, d->subvendor,
			                      d->subdevice, NULL);
			printf("  %s  %04x:%04x  %-28s %s\n", d->id, d->vendor,
			       d->device, g ? g->name : d->device_name ? d->device_name : "",
			       d->passthru_enabled == 1 ? (d->passthru_active == 1 ?
			       _("passthrough on") : _("passthrough on after a reboot")) :
			       _("passthrough off"));
		}
	}
	/* TRANSLATORS: heading of the VMs in gpuwiz vsphere list. */
	printf("%s\n", _("VMs:"));
	for (i = 0; i < inv->nvms; i++) {
		const gw_vs_vm *vm = &inv->vms[i];

		printf("  %-24s %-9s vmx-%-3d %-5s %6ld MB", vm->name,
		       power_word(gw_vs_power_esxi(vm->power)), vm->hw_version,
		       vm->firmware ? vm->firmware : "-", vm->memory_mb);
		for (k = 0; k < vm->ndevs; k++)
			printf(" %s", vm->devs[k].vgpu ? vm->devs[k].vgpu :
			       vm->devs[k].id ? vm->devs[k].id : "?");
		putchar('\n');
	}
}

/* Connect and log in: --url, --user, the password (GPUWIZ_PASSWORD or
 * asked), --thumbprint / --cafile / --insecure. */
/* --url and --user given, --thumbprint and --insecure not both: 0, else
 * -1 and e. */
static int
vs_check_opts(const cli_opts *o, gw_err *e)
{
	if (o->url == NULL || o->user == NULL) {
		gw_err_set(e, "%s", o->url == NULL ?
		           _("--url: missing (expected the vCenter or ESXi address, e.g. https://vc01/sdk)") :
		           _("--user: missing (expected the vSphere user, e.g. administrator@vsphere.local)"));
		return -1;
	}
	if (o->thumbprint && o->insecure) {
		gw_err_set(e, "%s", _("--thumbprint and --insecure exclude each other: pin the certificate, or (only if you must) skip verification"));
		return -1;
	}
	return 0;
}

static gw_vs *
vs_open(cli_opts *o, gw_err *e)
{
	gw_vs_opts vo;
	gw_vs *s;
	char *pw;

	if (vs_check_opts(o, e) != 0)
		return NULL;
	if ((pw = read_password(o->user, o->url, e)) == NULL)
		return NULL;
	memset(&vo, 0, sizeof vo);
	vo.url = o->url;
	vo.user = o->user;
	vo.password = pw;
	vo.thumbprint = o->thumbprint;
	vo.cafile = o->cafile;
	vo.insecure = o->insecure;
	if (o->timeout > 0) {
		vo.call_timeout = o->timeout;
		vo.connect_timeout = o->timeout < 10 ? o->timeout : 10;
	}
	s = gw_vs_connect(&vo, e);
	memset(pw, 0, strlen(pw));
	free(pw);
	return s;
}

/* gpuwiz vsphere ... apply for one VM of inv (read again after an
 * upgrade or a reconfigure).  0, 1 (the plan has failures), or 2 with e. */
static int
vs_apply_vm(cli_opts *o, const gw_table *t, gw_vs *s, gw_vs_inventory *inv,
            const char *name, gw_err *e)
{
	gw_answers ans;
	gw_vs_plan_spec spec;
	gw_plan p;
	gw_vmx *v = NULL;
	char **picked = NULL;
	size_t npicked = 0, i;
	int rc = EXIT_USAGE, have_plan = 0, upgraded = 0, applied = 0;
	const gw_vs_vm *vm;
	const gw_vs_host *h;

	memset(&spec, 0, sizeof spec);
	gw_answers_copy(&ans, &o->a);
	if ((vm = gw_vs_find_vm(inv, name)) == NULL) {
		gw_err_set(e, _("--vm: no VM '%s' on %s (gpuwiz vsphere ... list shows them)"),
		           name, o->url);
		goto out;
	}
	if (vm->power != GW_VS_POWER_OFF) {
		gw_err_set(e, _("%s is %s: gpuwiz does not change a VM that is not powered off; shut the guest down (or power the VM off), then run this again"),
		           vm->name, power_word(gw_vs_power_esxi(vm->power)));
		goto out;
	}
	h = vm->host_moref ? gw_vs_find_host(inv, vm->host_moref) : NULL;
	if (h == NULL) {
		gw_err_set(e, _("%s: its host is not in the inventory"), vm->name);
		goto out;
	}
	if (ans.esxi_version == NULL && h->version && gw_esxi_to_hw(h->version) > 0)
		ans.esxi_version = gw_xstrdup(h->version);
	/* the passthrough GPUs' devices: named with --bdf, else what the VM
	 * already has counts, and free ones of the VM's host for the rest */
	if (ans.nbdfs == 0) {
		int had = gw_vs_answers_less_attached(&ans, vm);

		if (had > 0)
			/* TRANSLATORS: %d GPUs of the request are attached. */
			printf(_("Already attached to the VM: %d of the GPUs asked for.\n"), had);
		if (gw_vs_pick_devices(inv, h, vm, &ans, &picked, &npicked, e) != 0)
			goto out;
		for (i = 0; i < npicked; i++)
			if (gw_answers_add_bdf(&ans, picked[i], "--bdf", e) != 0)
				goto out;
	}
	if (ans.nbdfs > 0 && ans.system_id == NULL) {
		const char *sid = NULL;

		for (i = 0; i < h->npci && sid == NULL; i++)
			if (strcasecmp(h->pci[i].id, ans.bdfs[0]) == 0)
				sid = h->pci[i].system_id;
		if (sid == NULL) {
			gw_err_set(e, _("%s: host %s reports no system id for %s: is passthrough enabled and active for it?"),
			           vm->name, h->name, ans.bdfs[0]);
			goto out;
		}
		if (gw_answers_set_system_id(&ans, sid, "QueryConfigTarget", e) != 0)
			goto out;
	}
	if (o->upgrade) {
		int target = ans.esxi_version ? gw_esxi_to_hw(ans.esxi_version) : 0;

		if (target > vm->hw_version && vm->hw_version > 0) {
			if (o->dry_run) {
				printf(_("Would upgrade the hardware version to vmx-%d.\n"), target);
			} else {
				if (gw_vs_upgrade(s, vm, target, vs_progress, NULL, e) != 0)
					goto out;
				upgraded = target;
				gw_vs_inventory_free(inv);
				if (gw_vs_inventory_get(s, inv, e) != 0 ||
				    (vm = gw_vs_find_vm(inv, name)) == NULL)
					goto out;
				/* the old inventory's host is gone with it */
				h = vm->host_moref ? gw_vs_find_host(inv, vm->host_moref) : NULL;
				if (h == NULL) {
					gw_err_set(e, _("%s: its host is not in the inventory"), vm->name);
					goto out;
				}
			}
		}
	}
	if ((v = gw_vs_vm_as_vmx(vm, e)) == NULL)
		goto out;
	if (gw_plan_build(&ans, t, v, &p, e) != 0)
		goto out;
	have_plan = 1;
	if (gw_vs_spec_from_plan(&p, &spec, e) != 0)
		goto out;
	if (upgraded)
		printf(_("Upgraded the hardware version to vmx-%d.\n"), upgraded);
	/* TRANSLATORS: the VM in gpuwiz vsphere apply: name, then server. */
	printf(_("VM: %s on %s\n"), vm->name, h->name);
	print_gpus(&p);
	printf("%s\n", _("Changes:"));
	print_settings(&p, 1);
	if (p.nfindings > 0) {
		printf("%s\n", _("Findings:"));
		print_findings(&p, stdout);
	}
	upgrade_hint(&p, o->upgrade);
	if (gw_plan_has_errors(&p) && !o->force) {
		gw_err_set(e, _("%s: not changed: the plan has failures (FAIL above); fix them or use --force"),
		           vm->name);
		rc = EXIT_FINDINGS;
		fflush(stdout);
		fprintf(stderr, "%s %s: %s\n", progname, o->cmd, e->msg);
		e->msg[0] = '\0';
		goto out;
	}
	if (!gw_vs_spec_empty(&spec)) {
		/* TRANSLATORS: heading of what goes into ReconfigVM_Task. */
		printf("%s\n", _("Through the API (ReconfigVM_Task):"));
		for (i = 0; i < spec.nec; i++)
			printf("  extraConfig %s = \"%s\"\n", spec.keys[i], spec.vals[i]);
		if (spec.spec.reserve_locked == 1)
			printf("  memoryReservationLockedToMax = true\n");
		for (i = 0; i < spec.nadds; i++) {
			if (spec.adds[i].vgpu)
				printf("  + VirtualPCIPassthrough vgpu %s\n", spec.adds[i].vgpu);
			else
				printf("  + VirtualPCIPassthrough %s (%04x:%04x, systemId %s)\n",
				       spec.adds[i].id, spec.adds[i].vendor, spec.adds[i].device,
				       spec.adds[i].system_id ? spec.adds[i].system_id : "-");
		}
	}
	if (gw_vs_spec_empty(&spec)) {
		printf("%s\n", _("Nothing to change: the VM already has these settings."));
	} else if (o->dry_run) {
		printf("%s\n", _("Dry run: nothing was sent (without --dry-run gpuwiz reconfigures the VM)."));
	} else {
		if (gw_vs_reconfigure(s, vm, &spec.spec, vs_progress, NULL, e) != 0)
			goto out;
		/* passthrough devices are now taken: the next VM's pick must
		 * see it (vGPUs and keys change nothing another VM reads) */
		for (i = 0; i < spec.nadds; i++)
			applied |= spec.adds[i].id != NULL;
		/* TRANSLATORS: after ReconfigVM_Task succeeded; %s is the VM. */
		printf(_("Reconfigured %s.\n"), vm->name);
	}
	rc = gw_plan_has_errors(&p) ? EXIT_FINDINGS : 0;
out:
	gw_vs_free_strv(picked, npicked);
	gw_vs_plan_spec_free(&spec);
	if (have_plan)
		gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_free(&ans);
	if (applied) {
		/* the server's view after a device was attached, for the
		 * next VM's pick */
		gw_err le;

		gw_vs_inventory_free(inv);
		if (gw_vs_inventory_get(s, inv, &le) != 0) {
			gw_err_set(e, "%s", le.msg);
			rc = EXIT_USAGE;
		}
	}
	return rc;
}

static int
cmd_vsphere(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_vs *s = NULL;
	gw_vs_inventory inv;
	size_t i;
	int rc = EXIT_USAGE, list, passthru;

	memset(&inv, 0, sizeof inv);
	if (o->nargs != 1 || (strcmp(o->args[0], "list") && strcmp(o->args[0], "apply") &&
	                      strcmp(o->args[0], "passthru"))) {
		gw_err_set(e, "%s", _("expected list, apply or passthru (gpuwiz vsphere --url URL --user USER list)"));
		return EXIT_USAGE;
	}
	list = strcmp(o->args[0], "list") == 0;
	passthru = strcmp(o->args[0], "passthru") == 0;
	if (passthru && o->enable == NULL) {
		gw_err_set(e, "%s", _("--enable: missing (expected the device's address, e.g. 0000:3b:00.0; gpuwiz vsphere ... list shows them)"));
		return EXIT_USAGE;
	}
	if (vs_check_opts(o, e) != 0)
		return EXIT_USAGE;
	if (list && (o->nitems || o->vm || o->upgrade || o->dry_run)) {
		gw_err_set(e, "%s", _("list takes no GPU, --vm, --upgrade-hw or --dry-run"));
		return EXIT_USAGE;
	}
	if (!list && !passthru && o->vm == NULL) {
		gw_err_set(e, "%s", _("--vm: missing (expected the VM's name; gpuwiz vsphere ... list shows them)"));
		return EXIT_USAGE;
	}
	if (!list && !passthru && resolve_items(o, t, e) != 0)
		return EXIT_USAGE;
	if (o->nvm_list > 1 && o->a.nbdfs > 0) {
		gw_err_set(e, "%s", _("--bdf names one VM's devices: give one --vm with it (without --bdf gpuwiz picks free devices for each VM)"));
		return EXIT_USAGE;
	}
	if ((s = vs_open(o, e)) == NULL)
		return EXIT_USAGE;
	if (gw_vs_inventory_get(s, &inv, e) != 0)
		goto out;

	if (list) {
		if (o->json) {
			json_t *j = json_object(), *ha = json_array(), *va = json_array();

			for (i = 0; i < inv.nhosts; i++)
				json_array_append_new(ha, vs_host_json(t, &inv.hosts[i]));
			for (i = 0; i < inv.nvms; i++)
				json_array_append_new(va, vs_vm_json(&inv.vms[i]));
			json_object_set_new(j, "server", json_string(gw_vs_is_vcenter(s) ?
			                    "vcenter" : "esxi"));
			json_object_set_new(j, "hosts", ha);
			json_object_set_new(j, "vms", va);
			json_object_set_new(j, "round_trips", json_integer(gw_vs_round_trips(s)));
			gw_json_print(j);
			json_decref(j);
		} else {
			vs_list_text(t, &inv);
		}
		rc = 0;
		goto out;
	}

	if (passthru) {
		const gw_vs_host *hh = NULL;
		size_t k, nhave = 0;

		for (i = 0; i < inv.nhosts; i++) {
			if (o->host && strcmp(inv.hosts[i].name, o->host) != 0)
				continue;
			for (k = 0; k < inv.hosts[i].npci; k++)
				if (strcasecmp(inv.hosts[i].pci[k].id, o->enable) == 0) {
					hh = &inv.hosts[i];
					nhave++;
				}
		}
		if (nhave != 1) {
			gw_err_set(e, nhave == 0 ?
			           _("--enable: no device %s on %s (gpuwiz vsphere ... list shows them)") :
			           _("--enable: several hosts of %s have a device %s: name one with --host NAME"),
			           nhave == 0 ? o->enable : o->url, nhave == 0 ? (o->host ? o->host : o->url) : o->enable);
			goto out;
		}
		{
			char *hname = gw_xstrdup(hh->name);
			int active = 0;

			if (gw_vs_enable_passthru(s, hh, o->enable, e) != 0) {
				free(hname);
				goto out;
			}
			/* read it back: active now, or after a reboot */
			gw_vs_inventory_free(&inv);
			if (gw_vs_inventory_get(s, &inv, e) != 0) {
				free(hname);
				goto out;
			}
			for (i = 0; i < inv.nhosts; i++)
				for (k = 0; k < inv.hosts[i].npci; k++)
					if (strcmp(inv.hosts[i].name, hname) == 0 &&
					    strcasecmp(inv.hosts[i].pci[k].id, o->enable) == 0)
						active = inv.hosts[i].pci[k].passthru_active == 1;
			/* TRANSLATORS: %s is the device's address, then the host. */
			printf(_("Passthrough enabled for %s on %s.\n"), o->enable, hname);
			printf("%s\n", active ?
			       _("It is active now: add the device to the VM (gpuwiz vsphere ... apply --vm NAME --bdf ADDRESS ...).") :
			       _("The host needs a reboot (maintenance mode first) before a VM can use the device."));
			free(hname);
		}
		rc = 0;
		goto out;
	}

	/* apply, to each --vm in turn (one session, one inventory) */
	rc = 0;
	for (i = 0; i < o->nvm_list; i++) {
		int r1 = vs_apply_vm(o, t, s, &inv, o->vm_list[i], e);

		if (r1 == EXIT_USAGE) {
			/* one line per VM that failed; the others go on */
			die_line(o->cmd, e->msg);
			e->msg[0] = '\0';
		}
		if (r1 > rc)
			rc = r1;
	}
	/* TRANSLATORS: the number of SOAP requests made. */
	printf(_("Round trips: %u\n"), gw_vs_round_trips(s));
	if (rc == EXIT_USAGE)
		e->msg[0] = '\0';   /* already said */
out:
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
	return rc;
}

/* ---- entry ------------------------------------------------------------- */

/* Is arg an option whose value is the next word ("--ssh root@h", "-g x")? */
static int
takes_value(const char *arg)
{
	size_t i;

	if (strcmp(arg, "-g") == 0)
		return 1;
	if (strncmp(arg, "--", 2) != 0 || strchr(arg, '=') != NULL)
		return 0;
	for (i = 0; long_opts[i].name; i++)
		if (strcmp(arg + 2, long_opts[i].name) == 0)
			return long_opts[i].has_arg == required_argument;
	return 0;
}

int
gw_cli_main(int argc, char **argv, gw_wizard_fn wizard)
{
	cli_opts o;
	gw_table t;
	gw_err e;
	const char *cmd;
	int rc, i, have_table = 0;

	setup_locale(argc, argv);
	memset(&o, 0, sizeof o);
	memset(&t, 0, sizeof t);
	e.msg[0] = '\0';
	gw_answers_init(&o.a);

	/* the command is the first word that is not an option or its value */
	cmd = NULL;
	for (i = 1; i < argc; i++) {
		if (takes_value(argv[i])) {
			i++;
			continue;
		}
		if (argv[i][0] != '-') {
			cmd = argv[i];
			break;
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("gpuwiz %s\n", PACKAGE_VERSION);
			gw_answers_free(&o.a);
			return 0;
		}
	}
	if (cmd) {
		/* drop the command word so getopt sees the rest */
		memmove(&argv[i], &argv[i + 1], (size_t)(argc - i - 1) * sizeof *argv);
		argc--;
	}
	o.cmd = cmd;
	if (parse_opts(&o, argc, argv, &e) != 0) {
		die_line(cmd, e.msg);
		free_opts(&o);
		return EXIT_USAGE;
	}
	if (o.help) {
		usage(stdout);
		free_opts(&o);
		return 0;
	}
	if (cmd == NULL) {
		gw_wizard_start st;

		/* plain gpuwiz [--lang L] [--answers FILE] [--ssh USER@HOST |
		 * --sample-host NAME]: the wizard */
		if (o.nargs > 0 || o.nitems > 0) {
			die_line(NULL, _("the wizard takes only --lang, --answers, --ssh (with --ssh-port, --ssh-identity, --ssh-option), --url (with --user, --thumbprint, --insecure) and --sample-host; see gpuwiz --help for the commands"));
			free_opts(&o);
			return EXIT_USAGE;
		}
		if (o.ssh && o.sample) {
			die_line(NULL, _("--ssh and --sample-host exclude each other (a sample host is not reached over SSH)"));
			free_opts(&o);
			return EXIT_USAGE;
		}
		if (o.url && (o.ssh || o.sample)) {
			die_line(NULL, _("--url (the vSphere API) excludes --ssh and --sample-host: pick one way to reach the host"));
			free_opts(&o);
			return EXIT_USAGE;
		}
		if (wizard == NULL) {
			die_line(NULL, _("the interactive wizard is not part of this build; use 'gpuwiz apply --answers FILE'"));
			free_opts(&o);
			return EXIT_USAGE;
		}
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
			die_line(NULL, _("the wizard needs a terminal; without one use 'gpuwiz apply --answers FILE' or the commands in gpuwiz --help"));
			free_opts(&o);
			return EXIT_USAGE;
		}
		if (load_table(&t, o.table_path, &e) != 0) {
			die_line(NULL, e.msg);
			free_opts(&o);
			return EXIT_USAGE;
		}
		memset(&st, 0, sizeof st);
		st.answers = o.answers;
		st.sample = o.sample;
		if (o.url) {
			/* before the screen starts: the password prompt */
			if ((st.vs = vs_open(&o, &e)) == NULL) {
				die_line(NULL, e.msg);
				gw_table_free(&t);
				free_opts(&o);
				return EXIT_USAGE;
			}
			st.label = o.url;
		} else if (o.ssh) {
			/* before the screen starts: ssh may ask for a password
			 * or passphrase on the terminal, once */
			if ((st.runner = open_ssh(&o, &e)) == NULL) {
				die_line(NULL, e.msg);
				gw_table_free(&t);
				free_opts(&o);
				return EXIT_USAGE;
			}
			runner_env(st.runner);
			st.label = o.ssh;
		} else if (!o.sample && on_esxi_shell()) {
			st.runner = esxi_shell_runner();
			st.label = esxi_shell_label();
		}
		rc = wizard(&t, &st, &e);
		if (rc == EXIT_USAGE)
			die_line(NULL, e.msg);
		gw_table_free(&t);
		free_opts(&o);
		return rc;
	}
	if (strcmp(cmd, "mmio") && strcmp(cmd, "vmx") && strcmp(cmd, "snippet") &&
	    strcmp(cmd, "apply") && strcmp(cmd, "gpus") && strcmp(cmd, "check") &&
	    strcmp(cmd, "diagnose") && strcmp(cmd, "verify") &&
	    strcmp(cmd, "vms") && strcmp(cmd, "passthru") && strcmp(cmd, "vsphere")) {
		gw_err_set(&e, _("unknown command '%s' (expected mmio, vmx, snippet, apply, check, gpus, vms, passthru, vsphere, diagnose or verify; see gpuwiz --help)"),
		           cmd);
		die_line(NULL, e.msg);
		free_opts(&o);
		return EXIT_USAGE;
	}
	if (load_table(&t, o.table_path, &e) != 0) {
		die_line(cmd, e.msg);
		free_opts(&o);
		return EXIT_USAGE;
	}
	have_table = 1;
	if (strcmp(cmd, "mmio") == 0)
		rc = cmd_mmio(&o, &t, &e);
	else if (strcmp(cmd, "vmx") == 0)
		rc = cmd_vmx(&o, &t, &e);
	else if (strcmp(cmd, "snippet") == 0)
		rc = cmd_snippet(&o, &t, &e);
	else if (strcmp(cmd, "gpus") == 0)
		rc = cmd_gpus(&o, &t, &e);
	else if (strcmp(cmd, "check") == 0)
		rc = cmd_check(&o, &t, &e);
	else if (strcmp(cmd, "vms") == 0)
		rc = cmd_vms(&o, &e);
	else if (strcmp(cmd, "passthru") == 0)
		rc = cmd_passthru(&o, &e);
	else if (strcmp(cmd, "vsphere") == 0)
		rc = cmd_vsphere(&o, &t, &e);
	else if (strcmp(cmd, "diagnose") == 0)
		rc = cmd_diagnose(&o, &e);
	else if (strcmp(cmd, "verify") == 0)
		rc = cmd_verify(&o, &t, &e);
	else
		rc = cmd_apply(&o, &t, &e);
	if (rc == EXIT_USAGE && e.msg[0])
		die_line(cmd, e.msg);
	if (have_table)
		gw_table_free(&t);
	free_opts(&o);
	fflush(stdout);
	return rc;
}
