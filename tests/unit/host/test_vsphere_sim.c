/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vsphere_sim.c: the live tests that need more of the simulator
 * (see test_vsphere.c): enable passthrough, a simulator of our own for the
 * pin after a reconnect, an expired session, a fault of the task. */
#include "vsphere_test.h"

void
test_live_enable_passthru(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv, inv2;
	const gw_vs_host *h;
	const char *fail = env("GW_VCSIM_FAIL");
	char *id = NULL, *moref;
	unsigned before;
	gw_err e;
	int rc;

	(void)state;
	LIVE();
	if (env("GW_VCSIM_DIE") || (fail && strncmp(fail, "UpdatePassthruConfig=", 21) != 0))
		skip();
	s = live_connect();
	live_inventory(s, &inv);
	h = &inv.hosts[0];
	for (size_t i = 0; i < h->npci; i++)
		if (is_l40s(&h->pci[i]) && h->pci[i].passthru_enabled == 0)
			id = h->pci[i].id;
	assert_non_null(id);
	/* already enabled: nothing sent */
	before = gw_vs_round_trips(s);
	assert_int_equal(gw_vs_enable_passthru(s, h, enabled_l40s(h)->id, &e), 0);
	assert_int_equal(gw_vs_round_trips(s), before);
	assert_int_equal(gw_vs_enable_passthru(s, h, "0000:ee:1f.7", &e), -1);
	assert_non_null(strstr(e.msg, "no PCI device"));
	rc = gw_vs_enable_passthru(s, h, id, &e);
	if (fail && strstr(fail, "=license")) {
		assert_int_equal(rc, -1);
		printf("# %s\n", e.msg);
		assert_non_null(strstr(e.msg, "free ESXi license"));
		assert_non_null(strstr(e.msg, "gpuwiz passthru --ssh root@"));
	} else if (rc != 0) {
		/* a server without the method: the SSH route */
		assert_non_null(strstr(e.msg, "SSH route"));
		printf("# enable passthru: %s\n", e.msg);
	} else {
		moref = gw_xstrdup(h->moref);
		live_inventory(s, &inv2);
		assert_int_equal(gw_vs_host_pci(gw_vs_find_host(&inv2, moref), id)->passthru_enabled, 1);
		gw_vs_inventory_free(&inv2);
		free(moref);
	}
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
}

/* A simulator of our own (GW_VCSIM_BIN), for the reconnect test. */
typedef struct sim {
	pid_t pid;
	int in_fd;
	char *url, *thumb;
	unsigned port;
} sim;

static int
sim_start(sim *m, const char *listen_addr)
{
	const char *bin = env("GW_VCSIM_BIN");
	int in[2], out[2];
	FILE *f;
	char line[4096];
	json_t *j;
	const char *u, *t, *colon;

	memset(m, 0, sizeof *m);
	m->pid = -1;
	if (bin == NULL || pipe(in) != 0 || pipe(out) != 0)
		return -1;
	m->pid = fork();
	if (m->pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(out[1], 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		close(in[1]);
		close(out[0]);
		execl(bin, bin, "-model", "esx", "-vms", "1", "-on", "0",
		      "-user", "u", "-pass", "pw-123456", "-listen", listen_addr,
		      (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	m->in_fd = in[1];
	f = fdopen(out[0], "r");
	if (f == NULL || fgets(line, sizeof line, f) == NULL) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	j = json_loads(line, 0, NULL);
	u = json_string_value(json_object_get(j, "url"));
	t = json_string_value(json_object_get(j, "thumbprint"));
	if (u && t) {
		m->url = gw_xstrdup(u);
		m->thumb = gw_xstrdup(t);
		colon = strrchr(u, ':');
		m->port = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
	}
	json_decref(j);
	return m->url ? 0 : -1;
}

static void
sim_stop(sim *m)
{
	int st;

	if (m->pid > 0) {
		close(m->in_fd);     /* EOF: it exits */
		for (int i = 0; i < 50; i++) {
			if (waitpid(m->pid, &st, WNOHANG) == m->pid) {
				m->pid = -1;
				break;
			}
			usleep(100000);
		}
		if (m->pid > 0) {
			kill(m->pid, SIGKILL);
			waitpid(m->pid, &st, 0);
		}
	}
	free(m->url);
	free(m->thumb);
	memset(m, 0, sizeof *m);
}

/* The pin is checked on every new connection: a server replaced behind
 * the same address (another certificate) is refused on the next call,
 * before anything is sent on the new connection. */
void
test_live_reconnect_pinned(void **state)
{
	sim a, b;
	gw_vs_opts o;
	gw_vs *s;
	gw_vs_inventory inv;
	char addr[64], pin[GW_VS_THUMB_LEN];
	unsigned before;
	gw_err e;

	(void)state;
	LIVE_PLAIN();
	if (!env("GW_VCSIM_BIN"))
		skip();
	if (sim_start(&a, "127.0.0.1:0") != 0)
		fail_msg("cannot start %s", env("GW_VCSIM_BIN"));
	memset(&o, 0, sizeof o);
	o.url = a.url;
	o.user = "u";
	o.password = "pw-123456";
	snprintf(pin, sizeof pin, "%s", a.thumb);
	o.thumbprint = pin;
	o.connect_timeout = 5;
	o.call_timeout = 20;
	s = gw_vs_connect(&o, &e);
	if (s == NULL)
		fail_msg("connect: %s", e.msg);
	live_inventory(s, &inv);
	gw_vs_inventory_free(&inv);
	snprintf(addr, sizeof addr, "127.0.0.1:%u", a.port);
	sim_stop(&a);
	if (sim_start(&b, addr) != 0)
		fail_msg("cannot start a second simulator on %s", addr);
	if (vs_test_thumb_equal(b.thumb, pin)) {
		sim_stop(&b);
		gw_vs_close(s);
		skip();     /* same certificate: nothing to show */
	}
	before = gw_vs_round_trips(s);
	assert_int_equal(gw_vs_inventory_get(s, &inv, &e), -1);
	printf("# after the restart: %s\n", e.msg);
	assert_non_null(strstr(e.msg, "does not match"));
	assert_int_equal(gw_vs_round_trips(s), before + 1);
	gw_vs_close(s);
	sim_stop(&b);
}

/* GW_VCSIM_FAIL=CreateContainerView=notauthenticated: the session is
 * gone (expired, or ended on the server). */
void
test_live_session_expired(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv;
	const char *fail = env("GW_VCSIM_FAIL");
	gw_err e;

	(void)state;
	LIVE();
	if (!fail || strcmp(fail, "CreateContainerView=notauthenticated") != 0)
		skip();
	s = live_connect();
	assert_int_equal(gw_vs_inventory_get(s, &inv, &e), -1);
	printf("# %s\n", e.msg);
	assert_non_null(strstr(e.msg, "session has expired"));
	assert_int_equal(inv.nvms, 0);
	gw_vs_close(s);
}

/* GW_VCSIM_FAIL=ReconfigVM_Task=...: the fault is one clear line. */
void
test_live_reconfigure_fault(void **state)
{
	gw_vs *s;
	gw_vs_inventory inv;
	const gw_vs_vm *vm;
	static const char *const keys[] = { "pciPassthru.use64bitMMIO" };
	static const char *const vals[] = { "TRUE" };
	gw_vs_spec spec = { keys, vals, 1, -1, NULL, 0 };
	const char *fail = env("GW_VCSIM_FAIL");
	const char *die = env("GW_VCSIM_DIE");
	gw_err e;

	(void)state;
	LIVE();
	if (!(fail && strncmp(fail, "ReconfigVM_Task=", 16) == 0) &&
	    !(die && strcmp(die, "ReconfigVM_Task") == 0))
		skip();
	s = live_connect();
	live_inventory(s, &inv);
	vm = pick_vm(&inv, GW_VS_POWER_OFF, 0);
	assert_non_null(vm);
	assert_int_equal(gw_vs_reconfigure(s, vm, &spec, progress, NULL, &e), -1);
	assert_null(strchr(e.msg, '\n'));
	printf("# %s\n", e.msg);
	if (die)
		assert_true(strstr(e.msg, "went away") || strstr(e.msg, "was lost"));
	else if (strstr(fail, "=license"))
		assert_non_null(strstr(e.msg, "free ESXi license"));
	else
		assert_non_null(strstr(e.msg, "reconfiguring VM"));
	gw_vs_inventory_free(&inv);
	gw_vs_close(s);
}
