/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_plan.c: the commands that build a plan from the options and render
 * it: mmio (the sizing only), snippet (emit.c), apply (an answers file,
 * written by the session: session_apply.c).  vmx, which also reads and
 * writes a .vmx, is in cmd_vmx.c.
 */
#include "cli_int.h"
#include "textesc.h"
#include "apply.h"
#include "emit.h"
#include "finding_print.h"
#include "jsonutil.h"
#include "write_report.h"

#include <stdlib.h>
#include <string.h>

static void
mmio_text(const gw_plan *p)
{
	size_t i;

	printf("%s\n", _("GPUs in the VM:"));
	gw_plan_print_gpus(stdout, p);
	printf("%s\n", _("Calculation:"));
	gw_plan_print_steps(stdout, p);
	printf("%s\n", _("Settings:"));
	for (i = 0; i < p->nsettings; i++)
		if (p->settings[i].kind == GW_SET_MMIO)
			printf("  %s = \"%s\"\n", p->settings[i].key,
			       p->settings[i].value);
	gw_plan_print_findings(stdout, p, GW_PLAN_SIZING_TOPICS, _("Notes:"));
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
		json_t *j = gw_plan_json(&p, GW_PLAN_SIZING_TOPICS);

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
	eo.answers = &o->a;
	return gw_format_def_of(fmt)->emit(p, &eo, out, e);
}

/* snippet --json: {"format", "text": the snippet, "files": [] (it goes to
 * stdout, no file is written), "findings"}. */
static void
snippet_json(int fmt, const char *text, const gw_plan *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "format", json_string(gw_format_name(fmt)));
	json_object_set_new(j, "text", gw_json_text(text));
	json_object_set_new(j, "files", json_array());
	json_object_set_new(j, "findings", gw_findings_json(p->findings, p->nfindings,
	                                                    GW_LAYOUT_PLAN, GW_TOPIC_ALL));
	gw_json_print(j);
	json_decref(j);
}

/* The options of snippet that only some formats use (the row's TAKES):
 * --name, --vm and --host given to a format that does not use them are
 * refused as the command table refuses an option a command does not
 * take. */
static int
snippet_takes(const cli_opts *o, int fmt, gw_err *e)
{
	unsigned takes = gw_format_def_of(fmt)->takes;
	const char *bad = NULL;
	char *cmd;

	if (o->a.name != NULL && !(takes & GW_FMT_TAKES_NAME))
		bad = "name";
	else if (o->nvm_list > 0 && !(takes & GW_FMT_TAKES_VMS))
		bad = "vm";
	else if (o->host != NULL && !(takes & GW_FMT_TAKES_VMS))
		bad = "host";
	if (bad == NULL)
		return 0;
	cmd = gw_xasprintf("%s snippet --format %s", cli_progname,
	                   gw_format_name(fmt));
	gw_err_set(e, _("--%s: not an option of '%s' (see gpuwiz --help)"),
	           bad, cmd);
	free(cmd);
	return -1;
}

/* snippet --format F (CMD_NOARGS): the plan as a snippet of one of the
 * formats (formats.def) on stdout */
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
	/* what the format does to the VM itself (BOSH and the like lock the
	 * reservation and upgrade the hardware): the plan neither asks for
	 * it nor advises it */
	o->a.outputs_do = gw_formats_do(fmt);
	if (snippet_takes(o, fmt, e) != 0 || cli_resolve_items(o, t, e) != 0)
		return EXIT_USAGE;
	if (gw_plan_build(&o->a, t, NULL, &p, e) != 0)
		return EXIT_USAGE;
	if (snippet_emit(o, fmt, &p, &out, e) != 0) {
		gw_plan_free(&p);
		return EXIT_USAGE;
	}
	if (o->json) {
		snippet_json(fmt, out, &p);
	} else {
		fputs(out, stdout);
		/* Findings go to stderr so stdout stays a clean snippet;
		 * with -q only when they hold an error (exit 1). */
		if (gw_verbosity() != GW_QUIET || gw_plan_has_errors(&p))
			gw_plan_print_findings(stderr, &p, GW_TOPIC_ALL, _("Notes:"));
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

	/* the paths come from the answers file: escaped (textesc.h) */
	for (i = 0; i < res->nwritten; i++)
		gw_fprintf_escaped(stdout, _("wrote %s\n"), res->written[i]);
	if (res->vmx_path && res->vmx_unchanged)
		gw_fprintf_escaped(stdout, "%s: %s\n", res->vmx_path,
		       _("Nothing to change: the file already has these settings."));
	else if (res->vmx_path)
		gw_fprintf_escaped(stdout, _("patched %s (backup: %s)\n"),
		                   res->vmx_path, res->backup);
	gw_plan_print_findings(stdout, p, GW_TOPIC_ALL, _("Findings:"));
}

/* apply --json: {"dry_run", "written", the description (write_report.h:
 * "host_changes", "vmx" with its backup, "files"), "findings"}. */
static void
apply_json(const cli_opts *o, const gw_session_write *w,
           const gw_apply_result *res, const gw_plan *p)
{
	json_t *j = json_object(), *d = gw_write_desc_json(&w->desc, res->backup);

	json_object_set_new(j, "dry_run", json_boolean(o->dry_run));
	json_object_set_new(j, "written", json_boolean(!o->dry_run));
	json_object_update(j, d);
	json_decref(d);
	json_object_set_new(j, "findings", gw_findings_json(p->findings, p->nfindings,
	                                                    GW_LAYOUT_PLAN, GW_TOPIC_ALL));
	gw_json_print(j);
	json_decref(j);
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

/* apply --answers FILE: the session describes the write (the snippets
 * and the .vmx, all or nothing), refuses a plan with failures unless
 * forced, and writes it, or with --dry-run prints what it would write. */
int
cmd_apply(cli_opts *o, const gw_table *t, gw_err *e)
{
	gw_answers_file af;
	gw_apply_result res;
	gw_session s;
	gw_session_write w;
	gw_vmx *v = NULL;
	gw_plan p;
	int rc = EXIT_USAGE, have_plan = 0, have_w = 0, lock = -1;

	memset(&res, 0, sizeof res);
	gw_session_init(&s, NULL);
	if (apply_args(o, e) != 0)
		return EXIT_USAGE;
	if (gw_answers_load(&af, o->answers, t, e) != 0) {
		gw_answers_file_free(&af);
		return EXIT_USAGE;
	}
	if (!gw_answers_apply_takes(af.host)) {
		/* a host's VM is the wizard's to reach, not a local write */
		gw_err_set(e, _("%s: [host] kind = %s: gpuwiz apply writes local files only (expected kind = offline or linux); replay it with gpuwiz --answers FILE"),
		           o->answers,
		           gw_answers_host_words[af.host - GW_AHOST_OFFLINE]);
		gw_answers_file_free(&af);
		return EXIT_USAGE;
	}
	af.force = o->force || af.force;
	/* gpuwiz's lock from the read to the write (as vmx --write) */
	if (af.vmx_path && !o->dry_run &&
	    gw_vmx_lock(af.vmx_path, &lock, e) != 0)
		goto out;
	if (af.vmx_path && gw_vmx_load_checked(&v, af.vmx_path, e) != 0)
		goto out;
	af.a.outputs_do = v == NULL ? gw_formats_do(af.formats) : 0;
	if (gw_plan_build(&af.a, t, v, &p, e) != 0)
		goto out;
	have_plan = 1;
	if (gw_session_write_prepare(&s, &af, &p, v, &w, e) != 0) {
		if (!gw_session_may_write(&p, af.force, NULL)) {
			/* the refusal after the findings it refers to */
			char *msg = gw_xasprintf("%s: %s", o->answers, e->msg);

			gw_plan_print_findings(stderr, &p, GW_TOPIC_ALL, NULL);
			cli_die_line(o->cmd, msg);
			free(msg);
			e->msg[0] = '\0';
			rc = EXIT_FINDINGS;
		}
		goto out;
	}
	have_w = 1;
	if (cli_write(o, &s, &w, NULL, &res, e) != 0)
		goto out;
	if (o->json)
		apply_json(o, &w, &res, &p);
	else if (!o->dry_run)
		apply_report(&res, &p);
	else {
		cli_print_dry_run(&w.desc);
		gw_plan_print_findings(stdout, &p, GW_TOPIC_ALL, _("Findings:"));
	}
	rc = gw_plan_has_errors(&p) ? EXIT_FINDINGS : 0;
out:
	gw_vmx_unlock(lock);
	if (have_w)
		gw_session_write_free(&w);
	gw_session_free(&s);
	gw_apply_result_free(&res);
	if (have_plan)
		gw_plan_free(&p);
	gw_vmx_free(v);
	gw_answers_file_free(&af);
	return rc;
}
