/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli.c: the non-interactive command line (doc/design.md, section 8).
 *
 * Every command builds the same plan (plan.c) and renders it: as text with
 * reasons and sources, as JSON (jansson), as snippets (emit.c), or into a
 * .vmx (vmx.c).  Errors are one line on stderr and exit status 2.  The
 * commands are one table (cmd_table.c) and one file per group (cmd_*.c);
 * the options are one table too (opts.c).  This file finds the command,
 * prints the global --help (a command's own: help.c), answers --complete
 * (complete.c) and starts the wizard when there is no command.
 */
#include "cli_int.h"
#include "textesc.h"
#include "out.h"
#include "fatalsig.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *cli_progname = "gpuwiz";

void
cli_die_line(const char *cmd, const char *msg)
{
	if (cmd)
		gw_fprintf_escaped(stderr, "%s %s: %s\n", cli_progname, cmd, msg);
	else
		gw_fprintf_escaped(stderr, "%s: %s\n", cli_progname, msg);
}

/* ---- locale --------------------------------------------------------- */

static const char *locale_env(void);

/* The locale the environment asks the messages in when gpuwiz has a
 * catalogue for its language but the C library has no such locale (not
 * generated: setlocale fails and the messages would be English in
 * silence), else NULL.  gw_cli_main says so. */
static const char *locale_missing;

static const char *
missing_locale(void)
{
	const char *v = locale_env();
	locale_t l;

	if (v == NULL || !cli_lang_known(v) || strncmp(v, "en", 2) == 0)
		return NULL;
	if ((l = newlocale(LC_MESSAGES_MASK, v, (locale_t)0)) != (locale_t)0) {
		freelocale(l);
		return NULL;
	}
	return v;
}

/* --lang LANG (anywhere on the command line) picks the catalogue; the
 * default comes from the locale.  GPUWIZ_LOCALEDIR overrides the installed
 * catalogue directory (the tests use a build-tree copy) when trusted
 * (gw_env_path); the catalogues there are checked before gettext may use
 * them (gw_catalog_check, doc/design.md, section 2.4). */
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
	/* an unknown --lang is refused by opts.c (opt_lang); until then the
	 * locale's language */
	if (lang != NULL && *lang && cli_lang_known(lang)) {
		/* gettext ignores LANGUAGE in the C locale: make sure we run
		 * in a UTF-8 locale that can show the language. */
		char *loc = gw_xasprintf("%s.UTF-8", lang);

		setenv("LANGUAGE", lang, 1);
		if (setlocale(LC_ALL, loc) == NULL && setlocale(LC_ALL, "") == NULL)
			setlocale(LC_ALL, "C.UTF-8");
		else if (strcmp(setlocale(LC_ALL, NULL), "C") == 0)
			setlocale(LC_ALL, "C.UTF-8");
		free(loc);
	} else if (setlocale(LC_ALL, "") == NULL) {
		locale_missing = missing_locale();
	}
#if defined(ENABLE_NLS) && ENABLE_NLS
	if ((dir = gw_env_path("GPUWIZ_LOCALEDIR", GW_PATH_DIR)) == NULL)
		dir = gw_locale_dir();
	/* a catalogue refused: none is found there, English */
	bindtextdomain(PACKAGE, gw_catalog_check(dir, PACKAGE) == 0 ? dir : "/dev/null");
	bind_textdomain_codeset(PACKAGE, "UTF-8");
	textdomain(PACKAGE);
#else
	(void)dir;
#endif
}

/* The locale of the messages as the environment names it (POSIX: LC_ALL,
 * else LC_MESSAGES, else LANG), or NULL: whether it is installed or not,
 * it says which language the operator reads. */
static const char *
locale_env(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
	size_t i;

	for (i = 0; i < sizeof vars / sizeof *vars; i++) {
		const char *v = getenv(vars[i]);

		if (v != NULL && *v)
			return v;
	}
	return NULL;
}

/* ---- usage ------------------------------------------------------------ */

static void
usage(FILE *f)
{
	fputs(_("gpuwiz puts NVIDIA GPUs into VMware VMs so that they power on.\n"), f);
	fputs("\n", f);
	/* TRANSLATORS: the wizard's usage; the second line says what it is,
	 * under the first's options. */
	fprintf(f, _("Usage: %s [--lang LANG] [--answers FILE] [HOST | --url URL --user USER]\n"
	             "                  (the wizard)\n"), cli_progname);
	cli_usage_commands(f);
	fputs("\n", f);
	fputs(_("Each command's own help, with exactly the options it takes:\n"
	        "gpuwiz help COMMAND, or gpuwiz COMMAND --help.\n"), f);
	fputs("\n", f);
	fputs(_("HOST is --ssh USER@HOST (an ESXi host through the system's ssh: one login,\n"
	        "host keys checked; with --ssh-port N, --ssh-identity FILE, --ssh-option K=V)\n"
	        "or --sample-host NAME (a practice host built from real captures in a scratch\n"
	        "directory: intel-2x-l40s, amd-geforce-usb, intel-iommu-off-kernel,\n"
	        "esxi-l40s).  On the ESXi shell itself (vim-cmd on the PATH) no HOST is needed.\n"), f);
	cli_help_opts(f, cli_host_opts, 0);
	fputs("\n", f);
	fputs(_("SPEC is a table id (l40s), a PCI id (10de:26b9) or a model name, with an\n"
	        "optional count: l40s=2.  PROFILE is a vGPU profile (grid_l40s-48c[=COUNT]).\n"), f);
	fputs("\n", f);
	fputs(_("--url URL --user USER is vCenter or a licensed ESXi through the vSphere API\n"
	        "(with --thumbprint SHA256, --cafile FILE or --insecure, and --timeout SECONDS);\n"
	        "the password comes from GPUWIZ_PASSWORD or is asked.\n"), f);
	cli_help_opts(f, cli_api_opts, 0);
	fputs(_("The connection variables of govc and Ansible stand in for what is left out,\n"
	        "field by field: the option, then GPUWIZ_PASSWORD, then GOVC_URL (vsphere),\n"
	        "GOVC_USERNAME, GOVC_PASSWORD, GOVC_INSECURE, GOVC_TLS_CA_CERTS, then\n"
	        "VMWARE_HOST and VMWARE_PORT (vsphere), VMWARE_USER, VMWARE_PASSWORD,\n"
	        "VMWARE_VALIDATE_CERTS, then the terminal (the password).\n"), f);
	fputs("\n", f);
	fputs(_("A command takes the options of its lines above (HOST, --url URL --user USER\n"
	        "and [plan options] with theirs) and --lang, --table, --help, -v, -q; any\n"
	        "other is refused.\n"), f);
	cli_help_opts(f, cli_global_opts, 0);
	cli_help_item(f, "  -V, --version", _("print the version and the licence, and exit"));
	fputs("\n", f);
	fputs(_("Plan options (mmio, vmx, snippet, vsphere apply):\n"), f);
	cli_help_opts(f, cli_plan_opts, 0);
	fputs("\n", f);
	fputs(_("Other options:\n"), f);
	cli_help_opts(f, cli_help_other_opts(), 1);
	fputs("\n", f);
	fputs(_("Every option and the environment: man gpuwiz.\n"), f);
	/* GNU's last two lines: AC_INIT's bug address and home page, each
	 * only where configure.ac names one */
	if (PACKAGE_BUGREPORT[0] != '\0')
		fprintf(f, _("Report bugs to: %s\n"), PACKAGE_BUGREPORT);
	if (PACKAGE_URL[0] != '\0')
		fprintf(f, _("%s home page: <%s>\n"), PACKAGE_NAME, PACKAGE_URL);
}

/* --help on stdout in one write, so that a failure keeps its errno
 * (gw_out_text). */
void
cli_print_usage(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (m == NULL) {
		usage(stdout);
		return;
	}
	usage(m);
	fclose(m);
	gw_out_text(text);
	free(text);
}

/* GNU's form (GNU Coding Standards, --version): the package and its
 * version (the number after the last space), the copyright, the licence
 * (COPYING: GPL-3.0-or-later), the free-software and warranty lines; then
 * whether this build has the vSphere module (configure --without-vsphere).
 * The name, the licence's short name and the URL are never translated. */
static void
print_version(FILE *f)
{
	fputs(PACKAGE_NAME " " PACKAGE_VERSION "\n", f);
	fputs("Copyright (C) 2026 the gpuwiz authors.\n", f);
	/* TRANSLATORS: keep "GPLv3+" and the URL as they are. */
	fputs(_("License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"), f);
	fputs(_("This is free software: you are free to change and redistribute it.\n"), f);
	fputs(_("There is NO WARRANTY, to the extent permitted by law.\n"), f);
	fputs("\n", f);
	fputs(GW_WITH_VSPHERE ?
	      /* TRANSLATORS: keep "vsphere.so", "libcurl", "libxml2",
	       * "OpenSSL" and "--without-vsphere". */
	      _("vSphere API module: built (vsphere.so: libcurl, libxml2, OpenSSL)\n") :
	      _("vSphere API module: not built (configured --without-vsphere)\n"), f);
}

/* ---- the wizard: no command ------------------------------------------ */

/* What the wizard refuses before it starts: a message, or NULL.  An
 * option it does not take was refused already (cli_wizard_opts). */
static const char *
wizard_refusal(const cli_opts *o, gw_wizard_fn wizard, gw_err *e)
{
	if (cli_no_args(o, e) != 0)
		return e->msg;
	if (o->verbose)
		return _("-v: the wizard's screen would hide its lines; use -v with a command (gpuwiz vsphere list -v, gpuwiz vms --ssh USER@HOST -v)");
	if (cli_host_check(o, e) != 0)
		return e->msg;
	if (wizard == NULL)
		return _("the interactive wizard is not part of this build; use 'gpuwiz apply --answers FILE'");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return _("the wizard needs a terminal; without one use 'gpuwiz apply --answers FILE' or the commands in gpuwiz --help");
	return NULL;
}

/* plain gpuwiz [--lang L] [--answers FILE] [--ssh USER@HOST |
 * --sample-host NAME | --url URL --user USER]: the wizard */
static int
run_wizard(cli_opts *o, gw_wizard_fn wizard, gw_err *e)
{
	gw_wizard_start st;
	char *table;
	const char *why;
	int rc;

	if ((why = wizard_refusal(o, wizard, e)) != NULL) {
		cli_die_line(NULL, why);
		return EXIT_USAGE;
	}
	/* the table's path now (no table found: its line before the
	 * screen); the wizard reads the file when it needs it
	 * (gw_wizard_table) */
	table = o->table_path ? gw_xstrdup(o->table_path)
	                      : gw_table_default_path(e);
	if (table == NULL) {
		cli_die_line(NULL, e->msg);
		return EXIT_USAGE;
	}
	memset(&st, 0, sizeof st);
	st.answers = o->answers;
	st.sample = o->sample;
	st.lang = o->lang;
	st.locale = locale_env();
	st.table_path = table;
	if (cli_wizard_connection(o, &st, e) != 0) {
		cli_die_line(NULL, e->msg);
		free(table);
		return EXIT_USAGE;
	}
	rc = wizard(NULL, &st, e);
	if (rc == EXIT_USAGE)
		cli_die_line(NULL, e->msg);
	free(table);
	return rc;
}

/* ---- a command --------------------------------------------------------- */

static int
run_command(cli_opts *o, gw_err *e)
{
	const cli_cmd *c = cli_cmd_find(o->cmd);
	gw_table t;
	int rc;

	if (c == NULL) {
		cli_err_unknown_command(e, o->cmd);
		cli_die_line(NULL, e->msg);
		return EXIT_USAGE;
	}
	memset(&t, 0, sizeof t);
	if (cli_load_table(&t, o->table_path, e) != 0) {
		cli_die_line(o->cmd, e->msg);
		return EXIT_USAGE;
	}
	if ((c->flags & CMD_NOARGS) && cli_no_args(o, e) != 0)
		rc = EXIT_USAGE;
	else
		rc = c->exec(o, &t, e);
	if (rc == EXIT_USAGE && e->msg[0])
		cli_die_line(o->cmd, e->msg);
	gw_table_free(&t);
	gw_out_flush();
	return rc;
}

/* ---- entry ------------------------------------------------------------- */

/* The command: the first word that is not an option or its value, taken
 * out of argv so that getopt sees the rest.  NULL when there is none;
 * *version when --version comes first. */
static const char *
take_command(int *argc, char **argv, int *version)
{
	const char *cmd;
	int i;

	*version = 0;
	for (i = 1; i < *argc; i++) {
		if (cli_takes_value(argv[i])) {
			i++;
			continue;
		}
		if (argv[i][0] != '-')
			break;
		if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
			*version = 1;
			return NULL;
		}
	}
	if (i >= *argc)
		return NULL;
	cmd = argv[i];
	memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i - 1) * sizeof *argv);
	(*argc)--;
	return cmd;
}

/* --help or -h, or the help command */
static int
wants_help(const cli_opts *o)
{
	const cli_cmd *c = o->cmd ? cli_cmd_find(o->cmd) : NULL;

	return o->help || (c != NULL && (c->flags & CMD_HELP));
}

/* -q before the options are read, for the warnings that come first
 * (setup_locale's): a word -q or --quiet that is not an option's value. */
static int
early_quiet(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (cli_takes_value(argv[i]))
			i++;
		else if (strcmp(argv[i], "-q") == 0 ||
		         strcmp(argv[i], "--quiet") == 0)
			return 1;
	}
	return 0;
}

/* The command line read: --help, the wizard or the command, with the
 * connection variables of a command that talks to vSphere. */
static int
run(cli_opts *o, gw_wizard_fn wizard, gw_err *e)
{
	gw_verbosity_set(o->verbose ? GW_VERBOSE : o->quiet ? GW_QUIET
	                                                    : GW_NORMAL);
	if (wants_help(o)) {
		int rc = cli_help(o, e);

		if (rc != 0)
			cli_die_line(o->cmd, e->msg);
		return rc;
	}
	if (cli_conn_wanted(o) && cli_conn_env(o, e) != 0) {
		cli_die_line(o->cmd, e->msg);
		return EXIT_USAGE;
	}
	return o->cmd == NULL ? run_wizard(o, wizard, e) : run_command(o, e);
}

/* What the writes of this run changed (cli_note_written): each line
 * already in the user's words, for close_stdout. */
static char **written_lines;
static size_t n_written_lines;

static void
written_add(char *line)
{
	written_lines = gw_xrealloc(written_lines, (n_written_lines + 1) *
	                            sizeof *written_lines);
	written_lines[n_written_lines++] = line;
}

static void
written_free(void)
{
	gw_strs_free(written_lines, n_written_lines);
	written_lines = NULL;
	n_written_lines = 0;
}

void
cli_note_written(const gw_apply_result *res)
{
	size_t i;

	if (res->vmx_path != NULL && !res->vmx_unchanged)
		written_add(res->backup != NULL ?
		            /* TRANSLATORS: the .vmx and its backup. */
		            gw_xasprintf(_("%s was saved (backup: %s)"),
		                         res->vmx_path, res->backup) :
		            gw_xasprintf(_("%s was saved"), res->vmx_path));
	for (i = 0; i < res->nwritten; i++)
		written_add(gw_xasprintf(_("%s was written"), res->written[i]));
}

/* As gnulib's close_stdout: output that could not be written (a full
 * disk, /dev/full, a closed stdout) is one error line and exit 2, even
 * after a command that worked; stdio's error flag keeps the failure of
 * every earlier write.  A closed stdout nothing was written to is fine.
 * When the command wrote files, the error says so, one line per file,
 * and the exit status is 3: the files are changed, only the report of
 * it is lost. */
static int
close_stdout(const char *cmd, int rc)
{
	int prev = ferror(stdout), some = __fpending(stdout) > 0, fail;
	char *msg, *why;
	size_t i;

	errno = 0;
	fail = fclose(stdout) != 0;
	if (!prev && !(fail && (some || errno != EBADF))) {
		written_free();
		return rc;
	}
	if (!fail)          /* stdio keeps the flag, not the errno */
		errno = gw_out_errno();
	why = errno ? gw_xstrdup(strerror(errno)) : NULL;
	if (n_written_lines == 0) {
		msg = why ? gw_xasprintf(_("write error: %s"), why)
		          : gw_xstrdup(_("write error"));
		cli_die_line(cmd, msg);
		free(msg);
		free(why);
		return EXIT_USAGE;
	}
	for (i = 0; i < n_written_lines; i++) {
		/* TRANSLATORS: %s: "FILE was saved (backup: FILE)" or "FILE
		 * was written"; %s: why standard output failed. */
		msg = why ? gw_xasprintf(_("%s, but standard output could not be written: %s"),
		                         written_lines[i], why)
		          : gw_xasprintf(_("%s, but standard output could not be written"),
		                         written_lines[i]);
		cli_die_line(cmd, msg);
		free(msg);
	}
	written_free();
	free(why);
	return EXIT_WRITTEN_NO_OUTPUT;
}

int
gw_cli_main(int argc, char **argv, gw_wizard_fn wizard)
{
	cli_opts o;
	gw_err e;
	int rc, version;

	gw_fatal_signals_install();
	gw_verbosity_set(early_quiet(argc, argv) ? GW_QUIET : GW_NORMAL);
	setup_locale(argc, argv);
	if (argc > 1 && strcmp(argv[1], "--complete") == 0)
		return cli_complete(argc - 2, argv + 2);
	/* the locale is set: a literal's translation is looked up once */
	gw_gettext_cache(1);
	if (locale_missing != NULL && gw_verbosity() != GW_QUIET) {
		int n = (int)strcspn(locale_missing, ".@");
		char *msg = gw_xasprintf(_("the %s locale is not installed, so the messages are in English (add it with locale-gen or gpuwiz's sh deps.sh, or use --lang %.*s)"),
		                         locale_missing, n, locale_missing);

		cli_die_line(NULL, msg);
		free(msg);
	}
	memset(&o, 0, sizeof o);
	e.msg[0] = '\0';
	gw_answers_init(&o.a);
	o.cmd = take_command(&argc, argv, &version);
	if (version) {
		print_version(stdout);
		rc = 0;
	} else if (cli_parse_opts(&o, argc, argv, &e) != 0) {
		cli_die_line(o.cmd, e.msg);
		rc = EXIT_USAGE;
	} else if (cli_check_opts(&o, &e) != 0) {
		cli_die_line(NULL, e.msg);      /* the line names the command */
		rc = EXIT_USAGE;
	} else if (cli_take_opts(&o, &e) != 0) {
		cli_die_line(o.cmd, e.msg);
		rc = EXIT_USAGE;
	} else {
		rc = run(&o, wizard, &e);
	}
	rc = close_stdout(o.cmd, rc);
	cli_free_opts(&o);
	gw_gettext_cache(0);
	return rc;
}
