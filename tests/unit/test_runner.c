/* test_runner.c: the command runner and the ESXi session helpers against
 * the esxcli / vim-cmd stand-ins (tests/esxi-standins).
 *
 * Local runner by default.  With GW_SSH_TEST_HOST set (tests/cli/
 * test_ssh.sh), the same tests run through the ssh runner:
 *   GW_SSH_TEST_HOST=user@127.0.0.1 GW_SSH_TEST_PORT GW_SSH_TEST_KEY
 *   GW_SSH_TEST_KNOWN_HOSTS GW_SSH_TEST_STANDINS (a copy of the stand-ins;
 *   their log is standin.log in it, the remote side sees no environment).
 * Stand-ins: $GW_STANDINS, else $GW_SRCDIR/tests/esxi-standins, else
 * tests/esxi-standins. */
#include "testutil.h"
#include "runner.h"

#include <sys/stat.h>
#include <unistd.h>

static const char *ssh_host;

static char *
standins_dir(void)
{
	const char *d = getenv("GW_SSH_TEST_STANDINS");
	char *cwd, *p;

	if (ssh_host && d && *d)
		return gw_xstrdup(d);
	d = getenv("GW_STANDINS");
	if (d && *d)
		return gw_xstrdup(d);
	d = getenv("GW_SRCDIR");
	if (d && *d)
		return gw_xasprintf("%s/tests/esxi-standins", d);
	cwd = getcwd(NULL, 0);
	assert_non_null(cwd);
	p = gw_xasprintf("%s/tests/esxi-standins", cwd);
	free(cwd);
	return p;
}

typedef struct fx {
	gw_runner *r;
	char *tmp;
	char *log;
	char *standins;
} fx;

static gw_runner *
open_runner(const char *known_hosts, gw_err *e)
{
	const char *extra[16];
	char *kh;
	size_t n = 0;
	gw_runner *r;

	if (!ssh_host)
		return gw_runner_open_local();
	if (getenv("GW_SSH_TEST_PORT")) {
		extra[n++] = "-p";
		extra[n++] = getenv("GW_SSH_TEST_PORT");
	}
	if (getenv("GW_SSH_TEST_KEY")) {
		extra[n++] = "-i";
		extra[n++] = getenv("GW_SSH_TEST_KEY");
		extra[n++] = "-o";
		extra[n++] = "IdentitiesOnly=yes";
	}
	kh = gw_xasprintf("UserKnownHostsFile=%s",
	                  known_hosts ? known_hosts
	                  : getenv("GW_SSH_TEST_KNOWN_HOSTS"));
	extra[n++] = "-o";
	extra[n++] = kh;
	extra[n++] = "-o";
	extra[n++] = "GlobalKnownHostsFile=/dev/null";
	extra[n++] = "-F";
	extra[n++] = "/dev/null";
	extra[n] = NULL;
	r = gw_runner_open_ssh(ssh_host, extra, e);
	free(kh);
	return r;
}

static int
setup(void **state)
{
	fx *f = gw_xcalloc(1, sizeof *f);
	gw_err e;

	f->tmp = tu_tmpdir();
	f->standins = standins_dir();
	if (ssh_host) {
		f->log = gw_xasprintf("%s/standin.log", f->standins);
		unlink(f->log);
	} else {
		f->log = gw_xasprintf("%s/standin.log", f->tmp);
		setenv("GW_STANDIN_LOG", f->log, 1);
	}
	e.msg[0] = '\0';
	f->r = open_runner(NULL, &e);
	if (f->r == NULL)
		fail_msg("open: %s", e.msg);
	gw_runner_set_path_prefix(f->r, f->standins);
	gw_runner_set_volumes_root(f->r, f->tmp);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	fx *f = *state;
	char *cmd = gw_xasprintf("rm -rf '%s'", f->tmp);

	gw_runner_close(f->r);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", f->tmp);
	if (ssh_host)
		unlink(f->log);
	free(cmd);
	free(f->tmp);
	free(f->log);
	free(f->standins);
	free(f);
	return 0;
}

static char *
slurp(const char *path)
{
	char *d = NULL;
	size_t n;
	gw_err e;

	if (gw_read_file(path, 1u << 20, &d, &n, &e) != 0)
		return NULL;
	return d;
}

static void
write_text(const char *path, const char *text, mode_t mode)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* ---- tests ------------------------------------------------------------ */

static void
test_run_quoting(void **state)
{
	fx *f = *state;
	const char *argv[] = {"printf", "%s|", "a'b c", "$HOME", "`id`", ";x",
	                      "", "new\nline", NULL};
	char *out, *err;
	int st;
	gw_err e;

	assert_int_equal(gw_runner_run(f->r, argv, &out, &err, &st, &e), 0);
	assert_int_equal(st, 0);
	assert_string_equal(out, "a'b c|$HOME|`id`|;x||new\nline|");
	assert_string_equal(err, "");
	free(out);
	free(err);
}

static void
test_run_status_and_errors(void **state)
{
	fx *f = *state;
	const char *bad[] = {"vim-cmd", "vmsvc/nope", NULL};
	const char *missing[] = {"gpuwiz-no-such-command-xyz", NULL};
	char *out = NULL, *err = NULL;
	int st;
	gw_err e;

	assert_int_equal(gw_runner_run(f->r, bad, &out, &err, &st, &e), 0);
	assert_int_equal(st, 1);
	assert_non_null(strstr(err, "Unknown command"));
	free(out);
	free(err);
	assert_int_equal(gw_runner_run_ok(f->r, bad, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "vim-cmd vmsvc/nope"));
	assert_non_null(strstr(e.msg, "exit 1"));
	assert_non_null(strstr(e.msg, "Unknown command"));
	assert_int_equal(gw_runner_run(f->r, missing, &out, &err, &st, &e), 0);
	assert_int_equal(st, 127);
	free(out);
	free(err);
}

static void
test_run_timeout(void **state)
{
	fx *f = *state;
	const char *argv[] = {"sleep", "30", NULL};
	char *out = NULL;
	int st;
	gw_err e;

	gw_runner_set_timeout(f->r, 1);
	assert_int_equal(gw_runner_run(f->r, argv, &out, NULL, &st, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "no answer within 1 seconds"));
}

static void
test_list_vms(void **state)
{
	fx *f = *state;
	gw_esxi_vm_list l;
	gw_err e;

	assert_int_equal(gw_esxi_session_list_vms(f->r, &l, &e), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.vms[0].vmid, 11);
	assert_string_equal(l.vms[0].name, "itachi_lab");
	assert_string_equal(l.vms[0].datastore, "datastore1");
	assert_string_equal(l.vms[0].path, "itachi_lab/itachi_lab.vmx");
	gw_esxi_vm_list_free(&l);
}

static void
test_list_pci(void **state)
{
	fx *f = *state;
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *d;
	gw_err e;

	assert_int_equal(gw_esxi_session_list_pci(f->r, &l, &e), 0);
	d = gw_esxi_pci_find(&l, "0000:3b:00.0");
	assert_non_null(d);
	assert_true(gw_esxi_pci_is_display(d));
	assert_int_equal(d->vendor_id, 0x10de);
	gw_esxi_pci_list_free(&l);
}

static void
test_power_state(void **state)
{
	fx *f = *state;
	gw_esxi_power p;
	gw_err e;

	assert_int_equal(gw_esxi_session_power_state(f->r, 11, &p, &e), 0);
	assert_int_equal(p, GW_ESXI_POWER_OFF);
	assert_int_equal(gw_esxi_session_power_state(f->r, 12, &p, &e), 0);
	assert_int_equal(p, GW_ESXI_POWER_ON);
	assert_int_equal(gw_esxi_session_power_state(f->r, 13, &p, &e), 0);
	assert_int_equal(p, GW_ESXI_POWER_SUSPENDED);
	assert_int_equal(gw_esxi_session_power_state(f->r, 99, &p, &e), -1);
	assert_non_null(strstr(e.msg, "vim-cmd vmsvc/power.getstate 99"));
}

static void
test_enable_passthru_and_reload(void **state)
{
	fx *f = *state;
	char *log;
	gw_err e;

	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "3B:00.0", &e), 0);
	assert_int_equal(gw_esxi_session_reload(f->r, 11, &e), 0);
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:3b:00.0;"
	                                                 " reboot", &e), -1);
	assert_non_null(strstr(e.msg, "not a PCI address"));
	log = slurp(f->log);
	assert_non_null(log);
	assert_string_equal(log,
	    "esxcli hardware pci pcipassthru set -d 0000:3b:00.0 -e true -a\n"
	    "vim-cmd vmsvc/reload 11\n");
	free(log);
}

/* Makes TMP/datastore1/itachi_lab/itachi_lab.vmx; returns its path. */
static char *
make_vmx(fx *f, const gw_esxi_vm_list *l, unsigned long vmid)
{
	char *path, *dir;
	gw_err e;

	assert_int_equal(gw_esxi_session_vmx_path(f->r,
	                 gw_esxi_vm_find(l, vmid), &path, &e), 0);
	dir = gw_xasprintf("%s/datastore1", f->tmp);
	mkdir(dir, 0755);
	free(dir);
	dir = gw_xstrndup(path, (size_t)(strrchr(path, '/') - path));
	assert_int_equal(mkdir(dir, 0755), 0);
	free(dir);
	write_text(path, ".encoding = \"UTF-8\"\nconfig.version = \"8\"\n"
	           "virtualHW.version = \"13\"\n", 0754);
	return path;
}

static void
test_vmx_read_write_backup(void **state)
{
	fx *f = *state;
	gw_esxi_vm_list l;
	gw_vmx *v;
	char *path, *want, *bak = NULL, *old, *now, *tmp;
	struct stat st;
	gw_err e;

	assert_int_equal(gw_esxi_session_list_vms(f->r, &l, &e), 0);
	path = make_vmx(f, &l, 11);
	want = gw_xasprintf("%s/datastore1/itachi_lab/itachi_lab.vmx", f->tmp);
	assert_string_equal(path, want);
	old = slurp(path);
	assert_int_equal(gw_esxi_session_read_vmx(f->r, path, &v, &e), 0);
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "13");
	assert_int_equal(gw_vmx_set(v, "pciPassthru.use64bitMMIO", "TRUE", &e),
	                 0);
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 11, path, v, &bak, &e),
	                 0);
	assert_non_null(bak);
	assert_int_equal(strncmp(bak, path, strlen(path)), 0);
	assert_non_null(strstr(bak, ".bak"));
	now = slurp(bak);
	assert_non_null(now);
	assert_string_equal(now, old);     /* backup holds the old file */
	free(now);
	now = slurp(path);
	assert_non_null(strstr(now, "pciPassthru.use64bitMMIO = \"TRUE\""));
	assert_non_null(strstr(now, "virtualHW.version = \"13\""));
	free(now);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0754);  /* mode kept */
	tmp = gw_xasprintf("%s.gpuwiz-tmp", path);
	assert_int_not_equal(access(tmp, F_OK), 0);
	free(tmp);
	/* a second save in the same second gets another backup name */
	{
		char *bak2 = NULL;
		assert_int_equal(gw_esxi_session_save_vmx(f->r, 11, path, v, &bak2,
		                                          &e), 0);
		assert_non_null(bak2);
		assert_string_not_equal(bak, bak2);
		free(bak2);
	}
	gw_vmx_free(v);
	gw_esxi_vm_list_free(&l);
	free(bak);
	free(old);
	free(want);
	free(path);
}

static void
test_vmx_refused_when_not_off(void **state)
{
	fx *f = *state;
	gw_esxi_vm_list l;
	gw_vmx *v;
	char *path, *bak = (char *)"x", *old, *now, *dir, *cmd, *ls = NULL;
	const char *lsargv[4] = {"ls", NULL, NULL, NULL};
	gw_err e;

	assert_int_equal(gw_esxi_session_list_vms(f->r, &l, &e), 0);
	path = make_vmx(f, &l, 11);
	old = slurp(path);
	assert_int_equal(gw_esxi_session_read_vmx(f->r, path, &v, &e), 0);
	assert_int_equal(gw_vmx_set(v, "hypervisor.cpuid.v0", "FALSE", &e), 0);
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 12, path, v, &bak, &e),
	                 -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, "VM 12 is powered on"));
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 13, path, v, NULL, &e),
	                 -1);
	assert_non_null(strstr(e.msg, "suspended"));
	now = slurp(path);
	assert_string_equal(now, old);
	dir = gw_xstrndup(path, (size_t)(strrchr(path, '/') - path));
	lsargv[1] = dir;
	assert_int_equal(gw_runner_run_ok(f->r, lsargv, &ls, &e), 0);
	assert_string_equal(ls, "itachi_lab.vmx\n");   /* no backup, no tmp */
	cmd = NULL;
	free(cmd);
	free(ls);
	free(dir);
	free(now);
	free(old);
	free(path);
	gw_vmx_free(v);
	gw_esxi_vm_list_free(&l);
}

static void
test_write_new_file_and_read_errors(void **state)
{
	fx *f = *state;
	char *path = gw_xasprintf("%s/new file 'q'.txt", f->tmp), *bak = NULL;
	char *data = NULL;
	size_t len = 0;
	static const char bin[] = "a\0b\n";
	gw_err e;

	assert_int_equal(gw_runner_write_file_atomic(f->r, path, bin,
	                 sizeof bin - 1, &bak, &e), 0);
	assert_null(bak);
	assert_int_equal(gw_runner_read_file(f->r, path, &data, &len, &e), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(data, bin, 4);
	free(data);
	assert_int_equal(gw_runner_read_file(f->r, "relative.vmx", &data, &len,
	                                     &e), -1);
	assert_non_null(strstr(e.msg, "absolute path"));
	free(path);
	path = gw_xasprintf("%s/missing.vmx", f->tmp);
	assert_int_equal(gw_runner_read_file(f->r, path, &data, &len, &e), -1);
	assert_null(data);
	assert_non_null(strstr(e.msg, "missing.vmx"));
	free(path);
	path = gw_xasprintf("%s/no-such-dir/x.vmx", f->tmp);
	assert_int_equal(gw_runner_write_file_atomic(f->r, path, "x", 1, &bak,
	                                             &e), -1);
	assert_non_null(strstr(e.msg, "temporary file"));
	free(path);
}

static void
test_vmx_path_checks(void **state)
{
	fx *f = *state;
	gw_esxi_vm vm;
	char *p;
	gw_err e;

	memset(&vm, 0, sizeof vm);
	vm.vmid = 5;
	vm.file = (char *)"[ds] ../../etc/passwd";
	vm.datastore = (char *)"ds";
	vm.path = (char *)"../../etc/passwd";
	assert_int_equal(gw_esxi_session_vmx_path(f->r, &vm, &p, &e), -1);
	assert_non_null(strstr(e.msg, "leaves the datastore"));
	vm.path = (char *)"a/b.vmx";
	vm.datastore = (char *)"..";
	assert_int_equal(gw_esxi_session_vmx_path(f->r, &vm, &p, &e), -1);
	vm.datastore = (char *)"nvme:01 local";
	assert_int_equal(gw_esxi_session_vmx_path(f->r, &vm, &p, &e), 0);
	assert_non_null(strstr(p, "/nvme:01 local/a/b.vmx"));
	free(p);
}

static void
test_ssh_refuses(void **state)
{
	gw_err e;
	char *kh;
	fx *f = *state;

	(void)f;
	assert_null(gw_runner_open_ssh("-oProxyCommand=x", NULL, &e));
	assert_non_null(strstr(e.msg, "user@host"));
	assert_null(gw_runner_open_ssh("a b", NULL, &e));
	if (!ssh_host)
		return;
	/* an empty known_hosts: the host key is unknown and must be refused */
	kh = gw_xasprintf("%s/empty_known_hosts", f->tmp);
	write_text(kh, "", 0600);
	assert_null(open_runner(kh, &e));
	assert_non_null(strstr(e.msg, "cannot connect"));
	free(kh);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_run_quoting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_status_and_errors, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_run_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_vms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_pci, setup, teardown),
		cmocka_unit_test_setup_teardown(test_power_state, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enable_passthru_and_reload,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_vmx_read_write_backup, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_vmx_refused_when_not_off,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_new_file_and_read_errors,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_vmx_path_checks, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_ssh_refuses, setup, teardown),
	};
	const char *h = getenv("GW_SSH_TEST_HOST");

	ssh_host = h && *h ? h : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
