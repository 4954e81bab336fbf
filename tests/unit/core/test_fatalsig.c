/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_fatalsig.c: src/core/fatalsig.h and the password taken from the
 * environment (src/cli/password.c), each in a child process: the
 * cleanups run and the process ends by the signal itself (128 + it in a
 * shell); an ignored signal stays ignored; a held signal waits for the
 * release; no core dump once gw_no_core_dumps ran (RLIMIT_CORE 0, not
 * dumpable, SIGQUIT ends it without a core); GPUWIZ_PASSWORD is returned,
 * wiped where the environment held it and gone from what a child
 * inherits. */
#include "testutil.h"
#include "fatalsig.h"
#include "cli_int.h"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

static int hook_fd = -1;

static void
hook(void *arg)
{
	ssize_t w = write(hook_fd, arg, 1);

	(void)w;
}

/* Run fn in a child with a pipe for hook(); its wait status, what the
 * hooks wrote in got (NUL-terminated). */
static int
in_child(void (*fn)(void), char *got, size_t n)
{
	int p[2], st;
	pid_t pid;
	ssize_t k;
	size_t off;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* as a program started from a terminal: a suite run in the
		 * background of a non-interactive shell (or under nohup)
		 * starts with these ignored, which gw_fatal_signals_install
		 * keeps */
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		close(p[0]);
		hook_fd = p[1];
		fn();
		_exit(0);
	}
	close(p[1]);
	/* to the end of the pipe: a hook may write after a pause */
	for (off = 0; off < n - 1; off += (size_t)k) {
		k = read(p[0], got + off, n - 1 - off);
		if (k < 0 && errno == EINTR)
			k = 0;
		else if (k <= 0)
			break;
	}
	got[off] = '\0';
	close(p[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void
child_term(void)
{
	int a;

	gw_fatal_signals_install();
	a = gw_fatal_add(hook, "a");
	gw_fatal_add(hook, "b");
	gw_fatal_remove(a);
	gw_fatal_add(hook, "c");   /* a's slot again */
	raise(SIGTERM);
	_exit(3);
}

static void
test_cleanups_then_signal(void **state)
{
	char got[16];
	int st;

	(void)state;
	st = in_child(child_term, got, sizeof got);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
	assert_string_equal(got, "cb");
}

static void
child_ignored(void)
{
	signal(SIGHUP, SIG_IGN);
	gw_fatal_signals_install();
	gw_fatal_add(hook, "h");
	raise(SIGHUP);
	_exit(4);
}

static void
test_ignored_stays(void **state)
{
	char got[16];
	int st;

	(void)state;
	st = in_child(child_ignored, got, sizeof got);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 4);
	assert_string_equal(got, "");
}

static void
child_hold(void)
{
	gw_fatal_signals_install();
	gw_fatal_add(hook, "x");
	gw_fatal_hold();
	raise(SIGINT);
	if (gw_fatal_held() != SIGINT)
		_exit(5);
	hook((void *)"-");   /* still here */
	gw_fatal_release();
	_exit(6);
}

static void
test_hold(void **state)
{
	char got[16];
	int st;

	(void)state;
	st = in_child(child_hold, got, sizeof got);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGINT);
	/* the cleanups ran when it came and again at the release */
	assert_string_equal(got, "x-x");
}

static void
child_no_core(void)
{
	struct rlimit rl;

	getrlimit(RLIMIT_CORE, &rl);
	rl.rlim_cur = rl.rlim_max;   /* as `ulimit -c unlimited` */
	setrlimit(RLIMIT_CORE, &rl);
	if (chdir(getenv("TU_CORE_DIR")) != 0)
		_exit(7);
	gw_fatal_signals_install();
	gw_no_core_dumps();
	getrlimit(RLIMIT_CORE, &rl);
	if (rl.rlim_cur != 0 || prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
		_exit(8);
	raise(SIGQUIT);
	_exit(9);
}

static void
test_no_core(void **state)
{
	char got[16], dir[] = "/tmp/gw-core.XXXXXX", *core;
	int st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("TU_CORE_DIR", dir, 1);
	st = in_child(child_no_core, got, sizeof got);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGQUIT);
	assert_false(WCOREDUMP(st));
	core = gw_xasprintf("%s/core", dir);
	assert_int_not_equal(access(core, F_OK), 0);
	free(core);
	assert_int_equal(rmdir(dir), 0);
}

static void
test_env_password(void **state)
{
	char *held, *pw, line[64];
	FILE *f;
	gw_err e;

	(void)state;
	setenv("GPUWIZ_PASSWORD", "s3cret-pw", 1);
	held = getenv("GPUWIZ_PASSWORD");
	pw = cli_read_password("gw", "https://vc01/sdk", &e);
	assert_non_null(pw);
	assert_string_equal(pw, "s3cret-pw");
	/* wiped where the environment held it, and unset */
	assert_int_equal(held[0], '\0');
	assert_null(getenv("GPUWIZ_PASSWORD"));
	f = popen("echo \"${GPUWIZ_PASSWORD-unset}\"", "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	pclose(f);
	assert_string_equal(line, "unset\n");
	free(pw);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cleanups_then_signal),
		cmocka_unit_test(test_ignored_stays),
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_no_core),
		cmocka_unit_test(test_env_password),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
