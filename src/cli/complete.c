/* SPDX-License-Identifier: GPL-3.0-or-later */
/* complete.c: gpuwiz --complete WORD... CURRENT, the bash completion's
 * question (data/bash-completion/gpuwiz; doc/design.md, section 8.1).
 *
 * The words are the command line after "gpuwiz" up to the cursor, as
 * bash splits it (COMP_WORDS: "--format=v" comes as "--format" "=" "v"),
 * the last being the word being completed.  The answer is the words that
 * may stand there and start with it, one a line, all from the program's
 * own tables: the commands and subcommands (cmd_table.c), the options
 * the command takes (its option set), and the values of an option whose
 * values are a known set (the row's CV_*: the GPU table's ids and vGPU
 * profiles, the formats, the languages, the sample hosts).  "@file" or
 * "@dir" asks the shell for a file or folder name.  Nothing is printed
 * for a value that has no set (a BDF, a VM's name).
 */
#include "cli_int.h"
#include "emit.h"
#include "samplehost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what the command line so far says */
typedef struct comp_ctx {
	const char *cmd, *sub;     /* the first two words that are no option */
	size_t nwords;             /* words that are no option, the command's
	                            * included */
	const char *table;         /* --table FILE, for the GPU ids */
	int value_of;              /* the option whose value is being
	                            * completed, or -1 */
	const char *pre;           /* "--format=" when the word holds both */
	const char *cur;
} comp_ctx;

static void
offer(const comp_ctx *x, const char *word)
{
	if (strncmp(word, x->cur, strlen(x->cur)) == 0)
		printf("%s%s\n", x->pre, word);
}

static void
offer_gpus(const comp_ctx *x, int profiles)
{
	gw_table t;
	gw_err e;
	size_t i, k;
	char *p;

	memset(&t, 0, sizeof t);
	if (cli_load_table(&t, x->table, &e) != 0)
		return;
	for (i = 0; i < t.n; i++) {
		const gw_gpu *g = &t.gpus[i];

		if (!profiles) {
			offer(x, g->id);
			continue;
		}
		for (k = 0; g->vgpu_prefix != NULL && k < g->nvgpu_types; k++) {
			p = gw_xasprintf("%s-%s", g->vgpu_prefix, g->vgpu_types[k]);
			offer(x, p);
			free(p);
		}
	}
	gw_table_free(&t);
}

static void
offer_values(const comp_ctx *x, int comp)
{
	gw_sample_info *l;
	const char *const *langs;
	gw_err e;
	size_t i, n;

	switch (comp) {
	case CV_FILE:
		puts("@file");
		break;
	case CV_DIR:
		puts("@dir");
		break;
	case CV_GPU:
	case CV_VGPU:
		offer_gpus(x, comp == CV_VGPU);
		break;
	case CV_FORMAT:
		for (i = 0; i < GW_NFORMATS; i++)
			offer(x, gw_format_name(1 << i));
		break;
	case CV_LANG:
		for (langs = cli_langs(&n), i = 0; i < n; i++)
			offer(x, langs[i]);
		break;
	case CV_SAMPLE:
		if (gw_sample_list(&l, &n, &e) != 0)
			break;
		for (i = 0; i < n; i++)
			offer(x, l[i].name);
		gw_sample_list_free(l, n);
		break;
	default:
		break;
	}
}

/* --table FILE or --table=FILE, as it is given */
static void
note_value(comp_ctx *x, int id, const char *value)
{
	if (id == OPT_TABLE)
		x->table = value;
}

/* The words before the last: the command, its words, --table, and
 * whether the last is an option's value. */
static void
read_words(comp_ctx *x, int argc, char **argv)
{
	const char *w, *eq;
	char *name;
	int i, j, id;

	for (i = 0; i < argc - 1; i++) {
		w = argv[i];
		if (strcmp(w, "=") == 0)
			continue;
		if (w[0] == '-' && w[1] != '\0') {
			if ((eq = strchr(w, '=')) != NULL) {
				name = gw_xasprintf("%.*s", (int)(eq - w), w);
				if ((id = cli_opt_find(name)) >= 0)
					note_value(x, id, eq + 1);
				free(name);
			} else if (cli_takes_value(w)) {
				id = cli_opt_find(w);
				j = i + 1;
				if (j < argc - 1 && strcmp(argv[j], "=") == 0)
					j++;
				if (j >= argc - 1) {
					x->value_of = id;
					return;
				}
				note_value(x, id, argv[j]);
				i = j;
			}
			continue;
		}
		if (x->nwords == 0)
			x->cmd = w;
		else if (x->nwords == 1)
			x->sub = w;
		x->nwords++;
	}
}

/* A word that is no option: a command, a subcommand, a file */
static void
offer_words(const comp_ctx *x, const cli_cmd *c)
{
	const cli_cmd *of = c;
	const cli_sub *s;
	size_t i;

	if (c == NULL) {
		for (i = 0; i < cli_ncmds; i++)
			offer(x, cli_cmds[i].name);
		return;
	}
	if ((c->flags & CMD_HELP) && x->nwords == 1) {
		for (i = 0; i < cli_ncmds; i++)
			if (!(cli_cmds[i].flags & CMD_HELP))
				offer(x, cli_cmds[i].name);
		return;
	}
	if ((c->flags & CMD_HELP) && x->nwords == 2)
		of = cli_cmd_find(x->sub);
	if (of != NULL && of->subs != NULL && x->nwords == 1 + (of != c)) {
		for (s = of->subs; s->name != NULL; s++)
			offer(x, s->name);
		return;
	}
	if (c->flags & CMD_FILES)
		puts("@file");
}

int
cli_complete(int argc, char **argv)
{
	comp_ctx x;
	const cli_cmd *c = NULL;
	const cli_sub *s = NULL;
	const char *eq;
	cli_optset set;
	int id;

	memset(&x, 0, sizeof x);
	x.value_of = -1;
	x.pre = "";
	x.cur = argc > 0 ? argv[argc - 1] : "";
	read_words(&x, argc, argv);
	if (x.value_of < 0 && strncmp(x.cur, "--", 2) == 0 &&
	    (eq = strchr(x.cur, '=')) != NULL) {
		/* "--format=v" as one word */
		char *name = gw_xasprintf("%.*s", (int)(eq - x.cur), x.cur);

		x.value_of = cli_opt_find(name);
		free(name);
		x.pre = gw_xasprintf("%.*s", (int)(eq - x.cur + 1), x.cur);
		x.cur = eq + 1;
	}
	if (strcmp(x.cur, "=") == 0)
		x.cur = "";
	if (x.value_of >= 0) {
		offer_values(&x, cli_opt_info(x.value_of)->comp);
		goto out;
	}
	if (x.cmd != NULL && (c = cli_cmd_find(x.cmd)) == NULL)
		goto out;               /* an unknown command: nothing */
	if (c != NULL && c->subs != NULL && x.sub != NULL &&
	    (s = cli_sub_find(c, x.sub)) == NULL)
		goto out;
	if (x.cur[0] != '-') {
		offer_words(&x, c);
		goto out;
	}
	set = cli_cmd_opts(c, s);
	for (id = 0; id < OPT_COUNT; id++)
		if (set & OPTBIT(id)) {
			char *o = gw_xasprintf("--%s", cli_opt_info(id)->name);

			offer(&x, o);
			free(o);
		}
	if (c == NULL)
		offer(&x, "--version");
out:
	if (*x.pre)
		free((char *)x.pre);
	return fflush(stdout) == 0 ? 0 : EXIT_USAGE;
}
