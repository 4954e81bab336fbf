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
#include "vmx.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	fprintf(f, _("Usage: %s [--lang LANG] [--answers FILE]   the interactive wizard\n"), progname);
	fputs(_("       gpuwiz mmio [--json] (--gpu SPEC | --vgpu PROFILE | --vram GB)...\n"
	        "       gpuwiz vmx FILE [--gpu SPEC]... [--vgpu PROFILE]... [--uvm]\n"
	        "                  [--bdf BDF --system-id UUID]... [--write [--force]] [--json]\n"
	        "       gpuwiz snippet --format vmx|bosh|opsman|tile [--gpu SPEC]... [--vgpu P]...\n"
	        "       gpuwiz apply --answers FILE [--force]\n"
	        "       gpuwiz check [--sysroot DIR] [--json]\n"
	        "       gpuwiz gpus [--sysroot DIR | --esxcli-file FILE] [--json]\n"
	        "       gpuwiz verify [--sysroot DIR] [--nvidia-smi-q FILE] [--bundle OUT.tar.gz] [--json]\n"
	        "       gpuwiz diagnose FILE|- [--json]\n"
	        "       gpuwiz --help | --version\n"), f);
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
	OPT_BUNDLE
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

static int
cmd_vmx(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_vmx *v = NULL;
	gw_plan p;
	char *before = NULL, *after = NULL, *backup = NULL;
	size_t blen = 0, alen = 0;
	int rc = 0, changed, written = 0, refused = 0;
	const char *path;

	if (o->nargs != 1) {
		gw_err_set(e, o->nargs == 0 ? _("missing the .vmx FILE to read")
		                            : _("expected one .vmx FILE"));
		return EXIT_USAGE;
	}
	path = o->args[0];
	if (resolve_items(o, t, e) != 0)
		return EXIT_USAGE;
	if (gw_vmx_load(&v, path, e) != 0)
		return EXIT_USAGE;
	if (gw_plan_build(&o->a, t, v, &p, e) != 0) {
		gw_vmx_free(v);
		return EXIT_USAGE;
	}
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
		gw_json_print(j);
		json_decref(j);
	} else {
		printf(_("VM: %s\n"), path);
		print_gpus(&p);
		printf("%s\n", _("Calculation:"));
		print_steps(&p);
		printf("%s\n", _("Changes:"));
		print_settings(&p, 1);
		if (p.nfindings > 0) {
			printf("%s\n", _("Findings:"));
			print_findings(&p, stdout);
		}
		if (!changed)
			printf("%s\n", _("Nothing to change: the file already has these settings."));
		else if (written)
			printf(_("Saved %s (backup: %s).\n"), path, backup);
		else if (!o->write)
			printf("%s\n", _("Nothing was written: add --write to save these changes."));
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
	gw_plan_free(&p);
	gw_vmx_free(v);
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
 * copy of /sys and /proc), or a saved `esxcli hardware pci list`. */
static int
cmd_gpus(cli_opts *o, const gw_table *t, gw_err *e)
{
	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	if (o->esxcli_file != NULL)
		return gw_esxi_gpus_command(t, o->esxcli_file, o->json, e);
	return gw_linux_gpus_command(t, o->sysroot, o->json, e);
}

static int
cmd_check(cli_opts *o, gw_err *e)
{
	if (o->nargs > 0) {
		gw_err_set(e, _("unexpected argument '%s'"), o->args[0]);
		return EXIT_USAGE;
	}
	return gw_linux_check_command(o->sysroot, o->json, e);
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

/* ---- entry ------------------------------------------------------------- */

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
		if (strcmp(argv[i], "--lang") == 0 || strcmp(argv[i], "--table") == 0 ||
		    strcmp(argv[i], "--answers") == 0) {
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
		/* plain gpuwiz [--lang L] [--answers FILE]: the wizard */
		if (o.nargs > 0 || o.nitems > 0) {
			die_line(NULL, _("the wizard takes only --lang and --answers; see gpuwiz --help for the commands"));
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
		rc = wizard(&t, o.answers, &e);
		if (rc == EXIT_USAGE)
			die_line(NULL, e.msg);
		gw_table_free(&t);
		free_opts(&o);
		return rc;
	}
	if (strcmp(cmd, "mmio") && strcmp(cmd, "vmx") && strcmp(cmd, "snippet") &&
	    strcmp(cmd, "apply") && strcmp(cmd, "gpus") && strcmp(cmd, "check") &&
	    strcmp(cmd, "diagnose") && strcmp(cmd, "verify")) {
		gw_err_set(&e, _("unknown command '%s' (expected mmio, vmx, snippet, apply, check, gpus, diagnose or verify; see gpuwiz --help)"),
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
		rc = cmd_check(&o, &e);
	else if (strcmp(cmd, "diagnose") == 0)
		rc = cmd_diagnose(&o, &e);
	else if (strcmp(cmd, "verify") == 0)
		rc = cmd_verify(&o, &t, &e);
	else
		rc = cmd_apply(&o, &t, &e);
	if (rc == EXIT_USAGE)
		die_line(cmd, e.msg);
	if (have_table)
		gw_table_free(&t);
	free_opts(&o);
	fflush(stdout);
	return rc;
}
