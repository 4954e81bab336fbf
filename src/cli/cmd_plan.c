/* cmd_plan.c: the commands that build a plan from the options and render
 * it: mmio (the sizing only), snippet (emit.c), apply (an answers file,
 * apply.c).  vmx, which also reads and writes a .vmx, is in cmd_vmx.c.
 */
#include "cli_int.h"
#include "apply.h"
#include "emit.h"
#include "jsonutil.h"

#include <stdlib.h>
#include <string.h>

static void
mmio_text(const gw_plan *p)
{
	size_t i;

	printf("%s\n", _("GPUs in the VM:"));
	cli_print_gpus(p);
	printf("%s\n", _("Calculation:"));
	cli_print_steps(p);
	printf("%s\n", _("Settings:"));
	for (i = 0; i < p->nsettings; i++)
		if (p->settings[i].kind == GW_SET_MMIO)
			printf("  %s = \"%s\"\n", p->settings[i].key,
			       p->settings[i].value);
	if (cli_count_sizing_findings(p) > 0) {
		printf("%s\n", _("Notes:"));
		cli_print_findings_if(p, stdout, 1);
	}
}

/* mmio (CMD_NOARGS): the 64-bit MMIO size for the GPUs given */
int
cmd_mmio(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_plan p;

	if (cli_resolve_items(o, t, e) != 0)
		return EXIT_USAGE;
	o->a.reserve = 0;   /* sizing only */
	if (gw_plan_build(&o->a, t, NULL, &p, e) != 0)
		return EXIT_USAGE;
	if (o->json) {
		json_t *j = cli_plan_json(&p, 1);

		gw_json_print(j);
		json_decref(j);
	} else {
		mmio_text(&p);
	}
	gw_plan_free(&p);
	return 0;
}

/* The snippet, with the VM names (--vm, repeated) and the passthrough
 * GPUs' host (--host) for the formats that take them (ansible). */
static int
snippet_emit(const cli_opts *o, int fmt, const gw_plan *p, char **out,
             gw_err *e)
{
	gw_emit_opts eo;

	eo.vms = o->vm_list;
	eo.nvms = o->nvm_list;
	eo.esxi_host = o->host;
	return gw_format_def_of(fmt)->emit(p, &eo, out, e);
}

/* snippet --format F (CMD_NOARGS): the plan as a snippet of one of the
 * formats (formats.h) on stdout */
int
cmd_snippet(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_plan p;
	char *out = NULL;
	int fmt, rc = 0;

	if (o->format == NULL) {
		gw_err_set(e, _("--format: missing (expected one of: %s)"),
		           gw_format_list());
		return EXIT_USAGE;
	}
	if ((fmt = gw_format_parse(o->format)) == 0) {
		gw_err_set(e, _("--format: unknown format '%s' (expected one of: %s)"),
		           o->format, gw_format_list());
		return EXIT_USAGE;
	}
	if (cli_resolve_items(o, t, e) != 0)
		return EXIT_USAGE;
	if (gw_plan_build(&o->a, t, NULL, &p, e) != 0)
		return EXIT_USAGE;
	if (snippet_emit(o, fmt, &p, &out, e) != 0) {
		gw_plan_free(&p);
		return EXIT_USAGE;
	}
	fputs(out, stdout);
	/* Findings go to stderr so stdout stays a clean snippet. */
	if (p.nfindings > 0) {
		fprintf(stderr, "%s\n", _("Notes:"));
		cli_print_findings(&p, stderr);
	}
	if (gw_plan_has_errors(&p))
		rc = EXIT_FINDINGS;
	free(out);
	gw_plan_free(&p);
	return rc;
}

static void
apply_report(const gw_apply_result *res, const gw_plan *p)
{
	size_t i;

	for (i = 0; i < res->nwritten; i++)
		printf(_("wrote %s\n"), res->written[i]);
	if (res->vmx_path && res->vmx_unchanged)
		printf("%s: %s\n", res->vmx_path,
		       _("Nothing to change: the file already has these settings."));
	else if (res->vmx_path)
		printf(_("patched %s (backup: %s)\n"), res->vmx_path, res->backup);
	cli_print_findings_titled(p);
}

static int
apply_args(const cli_opts *o, gw_err *e)
{
	if (o->answers == NULL) {
		gw_err_set(e, _("--answers: missing (expected an answers FILE)"));
		return -1;
	}
	if (o->nargs > 0 || o->nitems > 0) {
		gw_err_set(e, _("apply takes everything from --answers FILE; unexpected '%s'"),
		           o->nargs > 0 ? o->args[0] : o->items[0].arg);
		return -1;
	}
	return 0;
}

/* apply --answers FILE: the files are written by gw_apply (apply.c), all
 * or nothing; this command loads the answers, refuses a plan with
 * failures unless forced, and reports what was written. */
int
cmd_apply(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_answers_file af;
	gw_apply_result res;
	gw_vmx *v = NULL;
	gw_plan p;
	int rc = EXIT_USAGE, have_plan = 0, force;

	memset(&res, 0, sizeof res);
	if (apply_args(o, e) != 0)
		return EXIT_USAGE;
	if (gw_answers_load(&af, o->answers, t, e) != 0) {
		gw_answers_file_free(&af);
		return EXIT_USAGE;
	}
	force = o->force || af.force;
	if (af.vmx_path && gw_vmx_load_checked(&v, af.vmx_path, e) != 0)
		goto out;
	if (gw_plan_build(&af.a, t, v, &p, e) != 0)
		goto out;
	have_plan = 1;
	if (gw_plan_has_errors(&p) && !force) {
		cli_print_findings(&p, stderr);
		gw_err_set(e, _("%s: nothing written: the plan has failures (see above); fix them or set [options] force = yes"),
		           o->answers);
		goto out;
	}
	if (gw_apply(&af, &p, v, force, &res, e) != 0)
		goto out;
	apply_report(&res, &p);
	rc = gw_plan_has_errors(&p) ? EXIT_FINDINGS : 0;
out:
	gw_apply_result_free(&res);
	if (have_plan)
		gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_file_free(&af);
	return rc;
}
