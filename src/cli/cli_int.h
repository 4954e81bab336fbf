/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli_int.h: what the pieces of the command line share (cli.c, opts.c,
 * cmd_table.c, cmd_*.c, plan_print.c, hostctx.c, password.c). */
#ifndef GW_CLI_INT_H
#define GW_CLI_INT_H

#include "cli.h"
#include "answers.h"
#include "esxi.h"
#include "host.h"
#include "gputable.h"
#include "plan.h"
#include "session.h"
#include "vsphere.h"
#include "plan_report.h"

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#define EXIT_FINDINGS 1
#define EXIT_USAGE 2
/* files were written, but standard output failed afterwards (cli.c) */
#define EXIT_WRITTEN_NO_OUTPUT 3

/* --gpu, --vgpu, --vram and --bdf, kept in command-line order and resolved
 * once the GPU table is loaded (resolve_items). */
enum { ITEM_GPU, ITEM_VGPU, ITEM_VRAM, ITEM_BDF };

typedef struct cli_item {
	int kind;
	const char *arg;
} cli_item;

/* The options by id: the rows of opts.c's table are indexed by these, and
 * the command table's option sets are built from them. */
enum cli_opt_id {
	OPT_GPU, OPT_VGPU, OPT_VRAM, OPT_UVM, OPT_P2P, OPT_CODE43,
	OPT_NO_RESERVE, OPT_MEMORY, OPT_ESXI, OPT_MMIO_GB,
	OPT_ALLOW_BELOW_RULE, OPT_BDF, OPT_SYSTEM_ID, OPT_NAME, OPT_TABLE,
	OPT_JSON, OPT_WRITE, OPT_FORCE, OPT_FORMAT, OPT_ANSWERS, OPT_LANG,
	OPT_HELP, OPT_ESXCLI_FILE, OPT_LSPCI_FILE, OPT_NVIDIA_SMI_Q, OPT_SYSROOT, OPT_BUNDLE,
	OPT_SSH, OPT_SSH_PORT, OPT_SSH_IDENTITY, OPT_SSH_OPTION,
	OPT_SAMPLE_HOST, OPT_VM, OPT_UPGRADE_HW, OPT_ENABLE, OPT_URL, OPT_USER,
	OPT_THUMBPRINT, OPT_INSECURE, OPT_CAFILE, OPT_DRY_RUN, OPT_HOST,
	OPT_TIMEOUT, OPT_PARALLEL, OPT_VMX, OPT_DYNAMIC,
	OPT_VERBOSE, OPT_QUIET,
	OPT_COUNT
};

/* A set of options: bit OPT_x for each */
typedef uint64_t cli_optset;
#define OPTBIT(id) ((cli_optset)1 << (id))

/* What --complete offers for an option's value (complete.c) */
enum { CV_NONE, CV_FILE, CV_DIR, CV_GPU, CV_VGPU, CV_FORMAT, CV_LANG,
       CV_SAMPLE };

/* What --help shows of an option and --complete offers: the row's name,
 * short key ('g', or 0), the name of its value in --help ("SPEC"; NULL
 * when it takes none), CV_* and its line of --help (N_()). */
typedef struct cli_optinfo {
	const char *name;
	int key;
	const char *meta;
	int comp;
	const char *help;
} cli_optinfo;

/* an option as given, before its value is taken (cli_take_opts) */
typedef struct cli_given {
	int id;
	const char *arg;
} cli_given;

typedef struct cli_opts {
	const char *cmd;
	const char *table_path;
	const char *answers;
	const char *lang;         /* --lang, as the answers file says it
	                           * ("en", "zh_CN"), or NULL */
	const char *esxcli_file;
	const char *lspci_file;   /* gpus --lspci-file FILE */
	const char *nvsmi;
	const char *sysroot;
	const char *bundle;
	const char *vmx_file;     /* diagnose --vmx FILE */
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
	unsigned parallel;        /* vsphere apply --parallel N (0 = default) */
	int insecure, dry_run;
	int json, write, force, help;
	int verbose, quiet;       /* -v, -q (gw_verbosity) */
	/* the connection variables (connenv.c): what they gave, kept for
	 * the options that point here */
	char *env_url, *env_user, *env_cafile;
	const char *env_url_var;  /* the variable env_url came from */
	cli_item *items;
	size_t nitems;
	cli_given *given;         /* every option, in command-line order */
	size_t ngiven;
	gw_answers a;
	char **args;
	size_t nargs;
} cli_opts;

/* ---- the command table (cmd_table.c), in the manner of tmux's
 * cmd_entry: a command's name, its usage forms, what it accepts, and the
 * function that runs it. */

/* flags */
#define CMD_NOARGS 0x1    /* no words after the command */
#define CMD_FILES 0x4     /* its words are files or folders (--complete) */
#define CMD_HELP 0x2      /* help [COMMAND [SUBCOMMAND]]: prints a help,
                           * loads no table (help.c) */

/* A subcommand (vsphere list, apply, passthru): the word after the
 * command, its usage form, its options and the function that runs it on
 * the host the command opened. */
typedef struct cli_sub {
	const char *name;
	const char *usage;         /* N_(): after "gpuwiz CMD " */
	const char *summary;       /* N_(): what it does, one line */
	cli_optset opts;
	int (*exec)(cli_opts *o, const gw_table *t, gw_host *h, gw_err *e);
} cli_sub;

typedef struct cli_cmd {
	const char *name;
	/* N_(): each form of the command after "gpuwiz NAME ", continuation
	 * lines included; NULL-terminated */
	const char *usage[4];
	const char *summary;       /* N_(): what it does, one line */
	int flags;
	/* the options it takes besides cli_global_opts (none where subs:
	 * each subcommand has its own) */
	cli_optset opts;
	const cli_sub *subs;       /* NULL-terminated, or NULL */
	/* 0, 1 (findings) or 2 (usage or input error, with e) */
	int (*exec)(cli_opts *o, const gw_table *t, gw_err *e);
} cli_cmd;

extern const cli_cmd cli_cmds[];
extern const size_t cli_ncmds;
/* the wizard (plain gpuwiz): its options */
extern const cli_optset cli_wizard_opts;
/* what every command and the wizard take: --help, --lang, --table, -v,
 * -q */
extern const cli_optset cli_global_opts;
/* the groups of --help: "[plan options]", HOST and the vSphere API */
extern const cli_optset cli_plan_opts, cli_host_opts, cli_api_opts;

const cli_cmd *cli_cmd_find(const char *name);
const cli_sub *cli_sub_find(const cli_cmd *c, const char *name);
void cli_usage_commands(FILE *f);
/* One usage form, "gpuwiz CMD FORM" after lead, wrapped in 80 cells: at
 * the last space outside brackets that fits where there is one, the lines
 * under it indented by 18 (help.c). */
void cli_usage_form(FILE *f, const char *lead, const char *cmd,
                    const char *form);
/* e: "unknown command 'name' (expected ...)" */
void cli_err_unknown_command(gw_err *e, const char *name);
/* The options the command c (its subcommand s, NULL for none) takes,
 * cli_global_opts included; c NULL: the wizard's.  With subcommands and
 * s NULL: those every subcommand takes. */
cli_optset cli_cmd_opts(const cli_cmd *c, const cli_sub *s);

/* ---- help.c: --help, -h and help [COMMAND [SUBCOMMAND]] */
/* The help the command line asks for (o->cmd, o->args): printed, 0; or
 * EXIT_USAGE with e for an unknown command. */
int cli_help(const cli_opts *o, gw_err *e);
/* The lines of the options of set, in the table's order; note: each
 * followed by the command that takes it where only one or two do */
void cli_help_opts(FILE *f, cli_optset set, int note);
/* One line of an option list: left ("  -g, --gpu SPEC"), then text from
 * the list's column (a left side too wide stands on its own line), text
 * wrapped in 80 terminal cells */
void cli_help_item(FILE *f, const char *left, const char *text);
/* The options some command takes outside the groups and the globals */
cli_optset cli_help_other_opts(void);
/* cli.c: the global --help on stdout */
void cli_print_usage(void);

/* ---- complete.c: gpuwiz --complete WORD... CURRENT (the bash
 * completion): the words that may follow, one a line; "@file" or "@dir"
 * for a file or folder name. */
int cli_complete(int argc, char **argv);

/* the commands, one file per group */
int cmd_mmio(cli_opts *o, const gw_table *t, gw_err *e);        /* cmd_plan.c */
int cmd_vmx(cli_opts *o, const gw_table *t, gw_err *e);         /* cmd_vmx.c */
int cmd_snippet(cli_opts *o, const gw_table *t, gw_err *e);     /* cmd_plan.c */
int cmd_apply(cli_opts *o, const gw_table *t, gw_err *e);       /* cmd_plan.c */
int cmd_gpus(cli_opts *o, const gw_table *t, gw_err *e);        /* cmd_host.c */
int cmd_check(cli_opts *o, const gw_table *t, gw_err *e);       /* cmd_host.c */
int cmd_vms(cli_opts *o, const gw_table *t, gw_err *e);         /* cmd_host.c */
int cmd_passthru(cli_opts *o, const gw_table *t, gw_err *e);    /* cmd_host.c */
int cmd_verify(cli_opts *o, const gw_table *t, gw_err *e);      /* cmd_guest.c */
int cmd_diagnose(cli_opts *o, const gw_table *t, gw_err *e);    /* cmd_guest.c */
int cmd_vsphere(cli_opts *o, const gw_table *t, gw_err *e);     /* cmd_vsphere.c */
/* its subcommands, on the host cmd_vsphere opened (cmd_vsphere.c) */
int vs_list(cli_opts *o, const gw_table *t, gw_host *h, gw_err *e);
int vs_apply(cli_opts *o, const gw_table *t, gw_host *h, gw_err *e);
int vs_passthru(cli_opts *o, const gw_table *t, gw_host *h, gw_err *e);

/* ---- cli.c */
extern const char *cli_progname;
void cli_die_line(const char *cmd, const char *msg);

/* ---- opts.c: the options, one table */
/* getopt: every option into o->given, the other words into o->args;
 * -1 and e for an unknown option or one without its value */
int cli_parse_opts(cli_opts *o, int argc, char **argv, gw_err *e);
/* Does the command (o->cmd, its subcommand o->args[0]; the wizard when
 * o->cmd is NULL) take every option given, and each with the option it
 * only means something beside?  0, else -1 and e: one line that names
 * the option and the command.  An unknown command or subcommand is left
 * to its own check. */
int cli_check_opts(const cli_opts *o, gw_err *e);
/* The values of the options given, checked, into o */
int cli_take_opts(cli_opts *o, gw_err *e);
void cli_free_opts(cli_opts *o);
int cli_takes_value(const char *arg);
/* The row of option id (OPT_*), or of the option named arg ("--gpu",
 * "-g"; id -1 when none) */
const cli_optinfo *cli_opt_info(int id);
int cli_opt_find(const char *arg);
/* the languages --lang takes ("en", "zh_CN"): n of them */
const char *const *cli_langs(size_t *n);
/* Is lang (--lang's value) a language gpuwiz has: en (the msgids, en_US
 * and the like too) or a catalogue of po/LINGUAS, with or without an
 * encoding (zh_CN.UTF-8)? */
int cli_lang_known(const char *lang);
int cli_resolve_items(cli_opts *o, const gw_table *t, gw_err *e);
int cli_load_table(gw_table *t, const char *path, gw_err *e);
int cli_no_args(const cli_opts *o, gw_err *e);

/* ---- cmd_write.c: a write on the command line: with --dry-run nothing
 * runs (the caller prints w's description: cli_print_dry_run, or its
 * JSON), else the session runs it (gw_session_write_run). */
void cli_print_dry_run(const gw_write_desc *d);
int cli_write(const cli_opts *o, gw_session *s, gw_session_write *w,
              gw_vmx **doc, gw_apply_result *res, gw_err *e);
/* cli.c: what a write that worked changed (the .vmx saved and its backup,
 * the output files), kept so that a standard output that fails afterwards
 * does not hide it: each is named on standard error and the exit status
 * is EXIT_WRITTEN_NO_OUTPUT. */
void cli_note_written(const gw_apply_result *res);
/* Under the findings of a plan on a host: --upgrade-hw offered when the
 * VM's hardware version is below the host's newest (not asked). */
void cli_upgrade_hint(const gw_plan *p, int asked);
const char *cli_power_word(gw_power p);

/* ---- hostctx.c: the host the options name (host.h) */
int cli_host_open(const cli_opts *o, int need, gw_host **h, gw_err *e);
int cli_vs_check_opts(const cli_opts *o, gw_err *e);
/* The ways to a host the options name, checked against each other
 * (gw_host_spec_check: the one place of those exclusions). */
int cli_host_check(const cli_opts *o, gw_err *e);
int cli_vs_host_open(const cli_opts *o, gw_host **h, gw_err *e);
int cli_wizard_connection(const cli_opts *o, gw_wizard_start *st, gw_err *e);

/* ---- password.c: the vSphere password */
char *cli_read_password(const char *user, const char *url, gw_err *e);
/* The variable name out of the environment: a copy (NULL when unset),
 * the value wiped where the environment holds it (/proc/PID/environ) and
 * the variable unset, so that no child inherits it. */
char *cli_take_env(const char *name);
/* A password from the connection variables (connenv.c), taken by
 * cli_read_password after GPUWIZ_PASSWORD and before asking; ownership
 * passes (wiped when replaced or read). */
void cli_env_password_set(char *pw);
/* Free *p, a secret, its bytes zeroed first (explicit_bzero); *p NULL. */
void cli_secret_free(char **p);

/* ---- connenv.c: the connection variables of govc (GOVC_*) and of the
 * community.vmware collection (VMWARE_*) */
/* Does the command talk to vSphere: vsphere (the URL may then come from
 * the variables), or --url given? */
int cli_conn_wanted(const cli_opts *o);
/* Does a variable give the URL (vsphere only; nothing taken)? */
int cli_conn_env_has_url(const cli_opts *o);
/* Take every connection variable out of the environment (cli_take_env)
 * and fill what the options left unset, field by field: the options,
 * then GPUWIZ_PASSWORD, then GOVC_*, then VMWARE_*, then asking.  0, or
 * -1 and e: one line naming the variable and what was expected. */
int cli_conn_env(cli_opts *o, gw_err *e);

#endif
