/* SPDX-License-Identifier: GPL-3.0-or-later */
/* help.c: each command's own help (gpuwiz CMD --help, -h, gpuwiz help
 * CMD) and the option lists of the global --help (doc/design.md, section
 * 8.1).
 *
 * Everything shown comes from the two tables: a command's usage forms
 * and its line from cmd_table.c, its options from its option set, each
 * option's value name and line from its row of opts.c.  So an option is
 * listed for exactly the commands that take it.  The lines are measured
 * in terminal cells (a Chinese character is two) and wrapped in 80.
 */
#include "cli_int.h"
#include "out.h"

#include <stdlib.h>
#include <string.h>

#define HELP_COLS 80
#define HELP_DESC 26     /* the column where an option's line starts */
#define USAGE_INDENT 18  /* the lines of a usage form under its first */

/* "  -g, --gpu SPEC" or "      --json": the option as --help writes it */
static char *
opt_left(const cli_optinfo *d)
{
	char key[8] = "    ";

	if (d->key != 0)
		snprintf(key, sizeof key, "-%c, ", d->key);
	return d->meta ? gw_xasprintf("  %s--%s %s", key, d->name, d->meta)
	               : gw_xasprintf("  %s--%s", key, d->name);
}

/* text from column col to the edge, wrapped, each further line indented
 * to col */
static void
put_wrapped(FILE *f, const char *text, int col)
{
	size_t room = (size_t)(HELP_COLS - col), n, skip;
	int first = 1;

	while (*text) {
		n = gw_text_line(text, room, &skip);
		if (!first)
			fprintf(f, "%*s", col, "");
		fprintf(f, "%.*s\n", (int)n, text);
		text += n + skip;
		first = 0;
	}
}

/* The commands (and subcommands, and the wizard) that take option id,
 * when there are at most two of them ("vmx", "snippet"); else NULL. */
static char *
few_takers(int id)
{
	char *names[3];
	size_t i, n = 0;
	const cli_sub *s;
	char *out;

	if (cli_wizard_opts & OPTBIT(id))
		names[n++] = gw_xstrdup(_("the wizard"));
	for (i = 0; i < cli_ncmds; i++) {
		const cli_cmd *c = &cli_cmds[i];

		if (c->flags & CMD_HELP)
			continue;
		for (s = c->subs; s != NULL && s->name != NULL; s++)
			if ((s->opts & OPTBIT(id)) && n < 3)
				names[n++] = gw_xasprintf("%s %s", c->name, s->name);
		if (c->subs == NULL && (c->opts & OPTBIT(id)) && n < 3)
			names[n++] = gw_xstrdup(c->name);
	}
	if (n == 0 || n > 2) {
		for (i = 0; i < n; i++)
			free(names[i]);
		return NULL;
	}
	/* TRANSLATORS: two commands that take an option ("vmx, vsphere
	 * apply"), after its line of help. */
	out = n == 1 ? gw_xstrdup(names[0])
	             : gw_xasprintf(_("%s, %s"), names[0], names[1]);
	for (i = 0; i < n; i++)
		free(names[i]);
	return out;
}

void
cli_help_item(FILE *f, const char *left, const char *text)
{
	int w = gw_text_cells(left);

	if (w > HELP_DESC - 2)
		fprintf(f, "%s\n%*s", left, HELP_DESC, "");
	else
		fprintf(f, "%s%*s", left, HELP_DESC - w, "");
	put_wrapped(f, text, HELP_DESC);
}

/* One option's line */
static void
opt_line(FILE *f, int id, int note)
{
	const cli_optinfo *d = cli_opt_info(id);
	char *left = opt_left(d), *who = note ? few_takers(id) : NULL;
	/* TRANSLATORS: an option's line of help, then the commands that
	 * take it ("save the changes, with a backup (vmx)"). */
	char *text = who ? gw_xasprintf(_("%s (%s)"), _(d->help), who)
	                 : gw_xstrdup(_(d->help));

	cli_help_item(f, left, text);
	free(text);
	free(who);
	free(left);
}

void
cli_help_opts(FILE *f, cli_optset set, int note)
{
	int id;

	/* the command's own first, then those of any command */
	for (id = 0; id < OPT_COUNT; id++)
		if ((set & ~cli_global_opts) & OPTBIT(id))
			opt_line(f, id, note);
	for (id = 0; id < OPT_COUNT; id++)
		if ((set & cli_global_opts) & OPTBIT(id))
			opt_line(f, id, note);
}

cli_optset
cli_help_other_opts(void)
{
	cli_optset all = cli_cmd_opts(NULL, NULL);
	const cli_sub *s;
	size_t i;

	for (i = 0; i < cli_ncmds; i++) {
		all |= cli_cmd_opts(&cli_cmds[i], NULL);
		for (s = cli_cmds[i].subs; s != NULL && s->name != NULL; s++)
			all |= s->opts;
	}
	return all & ~(cli_plan_opts | cli_host_opts | cli_api_opts |
	               cli_global_opts);
}

/* The cells of s[0..n) */
static int
cells_n(const char *s, size_t n)
{
	char *t = gw_xstrndup(s, n);
	int w = gw_text_cells(t);

	free(t);
	return w;
}

/* s with each run of spaces and line breaks made one space, none at the
 * end: a form's own breaks and indents */
static void
squeeze_spaces(char *s)
{
	char *w = s;
	const char *r;

	for (r = s; *r; r++)
		if (*r != ' ' && *r != '\n')
			*w++ = *r;
		else if (w > s && w[-1] != ' ')
			*w++ = ' ';
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

/* How much of p the line holds in room cells: all of it when it fits,
 * else up to the last space that fits, outside brackets where there is
 * one that keeps more than half the line; a word wider than the line
 * cut where it fills it */
static size_t
usage_cut(const char *p, int room)
{
	size_t i, any = 0, outer = 0;
	int depth = 0;

	if (gw_text_cells(p) <= room)
		return strlen(p);
	for (i = 0; p[i] && (p[i] != ' ' || cells_n(p, i) <= room); i++)
		if (p[i] == ' ') {
			any = i;
			if (depth == 0)
				outer = i;
		} else if (p[i] == '[' || p[i] == '(')
			depth++;
		else if ((p[i] == ']' || p[i] == ')') && depth > 0)
			depth--;
	return outer && cells_n(p, outer) > room / 2 ? outer : any ? any : i;
}

void
cli_usage_form(FILE *f, const char *lead, const char *cmd, const char *form)
{
	char *s = gw_xasprintf("%s %s %s", cli_progname, cmd, form), *p;
	int first = 1;

	squeeze_spaces(s);
	for (p = s; *p; first = 0) {
		size_t cut = usage_cut(p, HELP_COLS - (first ? gw_text_cells(lead)
		                                             : USAGE_INDENT));

		if (first)
			fputs(lead, f);
		else
			fprintf(f, "%*s", USAGE_INDENT, "");
		fprintf(f, "%.*s\n", (int)cut, p);
		for (p += cut; *p == ' '; p++)
			;
	}
	free(s);
}

/* One usage form: "Usage: gpuwiz CMD FORM" first, then under it */
static void
usage_line(FILE *f, int first, const cli_cmd *c, const char *form)
{
	const char *lead = _("Usage:");
	char *l = first ? gw_xasprintf("%s ", lead)
	                : gw_xasprintf("%*s", gw_text_cells(lead) + 1, "");

	cli_usage_form(f, l, c->name, _(form));
	free(l);
}

/* Every form of c, or only its subcommand's */
static void
usage_lines(FILE *f, const cli_cmd *c, const cli_sub *only)
{
	const cli_sub *s;
	size_t k;
	int first = 1;

	for (k = 0; c->usage[k] != NULL; k++, first = 0)
		usage_line(f, first, c, c->usage[k]);
	for (s = c->subs; s != NULL && s->name != NULL; s++)
		if (only == NULL || s == only) {
			usage_line(f, first, c, s->usage);
			first = 0;
		}
}

static void
cmd_help(FILE *f, const cli_cmd *c, const cli_sub *s)
{
	const cli_sub *x;
	int w = 0;

	usage_lines(f, c, s);
	fputs("\n", f);
	put_wrapped(f, _(s ? s->summary : c->summary), 0);
	if (c->subs != NULL && s == NULL) {
		fputs("\n", f);
		fputs(_("Subcommands:\n"), f);
		for (x = c->subs; x->name != NULL; x++)
			if ((int)strlen(x->name) > w)
				w = (int)strlen(x->name);
		for (x = c->subs; x->name != NULL; x++) {
			fprintf(f, "  %-*s  ", w, x->name);
			put_wrapped(f, _(x->summary), w + 4);
		}
		fputs("\n", f);
		fputs(_("Options of every subcommand:\n"), f);
	} else {
		fputs("\n", f);
		fputs(_("Options:\n"), f);
	}
	cli_help_opts(f, cli_cmd_opts(c, s), 0);
	fputs("\n", f);
	if (c->subs != NULL && s == NULL)
		/* TRANSLATORS: "gpuwiz", then the command ("vsphere");
		 * SUBCOMMAND is the usage's placeholder. */
		fprintf(f, _("Each subcommand's own options: %s help %s SUBCOMMAND.\n"),
		        cli_progname, c->name);
	fputs(_("Every option and the environment: man gpuwiz.\n"), f);
}

/* The command and subcommand a help is asked for: words[0] and, for a
 * command with subcommands, words[1]; 0, or -1 with e. */
static int
help_target(char **words, size_t n, const cli_cmd **c, const cli_sub **s,
            gw_err *e)
{
	*s = NULL;
	if ((*c = cli_cmd_find(words[0])) == NULL) {
		cli_err_unknown_command(e, words[0]);
		return -1;
	}
	if (n < 2)
		return 0;
	if ((*c)->subs != NULL && (*s = cli_sub_find(*c, words[1])) == NULL) {
		gw_err_set(e, "%s", _("expected list, apply or passthru (gpuwiz vsphere --url URL --user USER list)"));
		return -1;
	}
	if (n > ((*c)->subs != NULL ? 2u : 1u)) {
		gw_err_set(e, _("unexpected argument '%s'"),
		           words[(*c)->subs != NULL ? 2 : 1]);
		return -1;
	}
	return 0;
}

int
cli_help(const cli_opts *o, gw_err *e)
{
	const cli_cmd *c = o->cmd ? cli_cmd_find(o->cmd) : NULL;
	const cli_sub *s = NULL;
	char *text = NULL, *words[2];
	size_t len = 0;
	FILE *m;

	if (o->cmd != NULL && c == NULL) {
		cli_err_unknown_command(e, o->cmd);
		return EXIT_USAGE;
	}
	if (c != NULL && (c->flags & CMD_HELP) && o->nargs > 0) {
		/* gpuwiz help CMD [SUB] */
		if (help_target(o->args, o->nargs, &c, &s, e) != 0)
			return EXIT_USAGE;
	} else if (c != NULL && c->subs != NULL && o->nargs > 0) {
		/* gpuwiz vsphere [...] apply --help: the word is the
		 * subcommand */
		words[0] = (char *)c->name;
		words[1] = o->args[0];
		if (help_target(words, 2, &c, &s, e) != 0)
			return EXIT_USAGE;
	} else if (c == NULL || ((c->flags & CMD_HELP) && !o->help)) {
		/* gpuwiz --help, gpuwiz help */
		cli_print_usage();
		return 0;
	}
	if ((m = open_memstream(&text, &len)) == NULL) {
		cmd_help(stdout, c, s);
		return 0;
	}
	cmd_help(m, c, s);
	fclose(m);
	gw_out_text(text);
	free(text);
	return 0;
}
