/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wizard_connect.c: the routes that connect from inside the wizard
 * (wizard_connect.c): their boxes as data, and what a connection that
 * cannot be made says and leaves unchanged.  The connections themselves
 * (a real sshd, vcsim) are walked by tests/e2e/test_tui_connect.sh. */
#include "testutil.h"
#include "wizard_connect.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static gw_table table;

static gw_wizard *
fresh(const char *sample)
{
	gw_wizard_start st;
	gw_wizard *w;
	gw_err e;

	memset(&st, 0, sizeof st);
	st.sample = sample;
	w = gw_wizard_new(&table, &st, &e);
	if (w == NULL)
		fail_msg("%s", e.msg);
	return w;
}

/* The boxes: SSH asks user@host, a port (digits) and an identity file;
 * the API a URL, a user and a password, the one secret field. */
static void
test_forms(void **state)
{
	const gw_wizard_conn_form *f;
	size_t i;
	int m, secret;

	(void)state;
	assert_null(gw_wizard_connect_form(GW_MODE_OFFLINE));
	assert_null(gw_wizard_connect_form(GW_MODE_LINUX));
	assert_null(gw_wizard_connect_form((gw_mode)GW_NMODES));
	f = gw_wizard_connect_form(GW_MODE_ESXI_SSH);
	assert_non_null(f);
	assert_int_equal(f->nfields, 3);
	assert_string_equal(f->fields[0].label, "User@host");
	assert_string_equal(f->fields[1].label, "Port");
	assert_true(f->fields[1].digits);
	assert_string_equal(f->fields[2].label, "Identity file");
	f = gw_wizard_connect_form(GW_MODE_VSPHERE);
#if GW_WITH_VSPHERE
	assert_non_null(f);
	assert_int_equal(f->nfields, 3);
	assert_string_equal(f->fields[0].label, "URL");
	assert_string_equal(f->fields[1].label, "User");
	assert_string_equal(f->fields[2].label, "Password");
#else
	assert_null(f);   /* test_api_not_built */
#endif
	/* only the password is secret, in every box */
	for (m = 0; m < GW_NMODES; m++) {
		f = gw_wizard_connect_form((gw_mode)m);
		for (i = 0; f && i < f->nfields; i++) {
			secret = strcmp(f->fields[i].label, "Password") == 0;
			assert_int_equal(f->fields[i].secret, secret);
			assert_true(f->nfields <= GW_WIZARD_CONN_FIELDS);
		}
	}
}

/* nothing changed: the route, the host, no address */
static void
unchanged(gw_wizard *w, gw_mode m, const char *label)
{
	gw_wizard_address a;

	assert_int_equal(gw_wizard_mode(w), m);
	assert_string_equal(gw_wizard_host_label(w), label);
	assert_int_equal(gw_wizard_address_of(w, &a), -1);
	assert_int_equal(a.mode, GW_NMODES);
	assert_null(gw_wizard_connect_value(w, GW_MODE_ESXI_SSH, 0));
	assert_null(gw_wizard_connect_value(w, GW_MODE_VSPHERE, 0));
}

/* SSH: each field's mistake is one line naming the field, in the
 * wizard's words (not the command line's --ssh-port); ssh is not run. */
static void
test_ssh_refusals(void **state)
{
	gw_wizard *w = fresh(NULL);
	gw_err e;

	(void)state;
	memset(&e, 0, sizeof e);
	assert_int_equal(gw_wizard_connect_ssh(w, "  ", NULL, NULL, &e), -1);
	assert_non_null(strstr(gw_err_text(&e, 1), "User@host: empty"));
	unchanged(w, GW_MODE_OFFLINE, "");

	assert_int_equal(gw_wizard_connect_ssh(w, "root@esx01", "0", NULL, &e), -1);
	assert_string_equal(gw_err_text(&e, 1),
	                    "Port: '0' is not a port (expected 1..65535, or empty for 22)");
	/* the command line's words for the same rule, one place */
	assert_string_equal(gw_err_text(&e, 0),
	                    "--ssh-port: '0' is not a port (expected 1..65535)");
	assert_int_equal(gw_wizard_connect_ssh(w, "root@esx01", "65536", NULL, &e), -1);
	assert_non_null(strstr(gw_err_text(&e, 1), "Port: '65536'"));

	assert_int_equal(gw_wizard_connect_ssh(w, "root@esx01", "22",
	                                       "/no/such/key", &e), -1);
	assert_string_equal(gw_err_text(&e, 1),
	                    "Identity file: /no/such/key: No such file or directory");

	assert_int_equal(gw_wizard_connect_ssh(w, "root@esx 01", NULL, NULL, &e), -1);
	assert_non_null(strstr(gw_err_text(&e, 1),
	                       "User@host: \"root@esx 01\" is not a host"));
	unchanged(w, GW_MODE_OFFLINE, "");
	gw_wizard_delete(w);
}

/* API: empty fields and a URL that is not https are refused before any
 * connection; a port nothing listens on fails as a connection, not as a
 * certificate (no fingerprint). */
static void
test_api_refusals(void **state)
{
	gw_wizard *w;
	char fp[GW_WIZARD_FP_LEN];
	gw_err e;

	(void)state;
	if (!GW_WITH_VSPHERE)
		skip();   /* test_api_not_built */
	w = fresh(NULL);
	memset(&e, 0, sizeof e);
	assert_int_equal(gw_wizard_connect_api(w, "", "root", "pw", NULL, fp, &e), -1);
	assert_non_null(strstr(gw_err_text(&e, 1), "URL: empty"));
	assert_int_equal(gw_wizard_connect_api(w, "https://vc01/sdk", " ", "pw",
	                                       NULL, fp, &e), -1);
	assert_non_null(strstr(gw_err_text(&e, 1), "User: empty"));
	assert_int_equal(gw_wizard_connect_api(w, "http://vc01/sdk", "root", "pw",
	                                       NULL, fp, &e), -1);
	assert_non_null(strstr(e.msg, "only https://"));
	/* the password never shows in a message */
	assert_null(strstr(e.msg, "pw-secret"));
	assert_int_equal(gw_wizard_connect_api(w, "https://127.0.0.1:1/sdk", "root",
	                                       "pw-secret", NULL, fp, &e), -1);
	assert_string_equal(fp, "");
	assert_non_null(strstr(e.msg, "127.0.0.1:1"));
	assert_null(strstr(e.msg, "pw-secret"));
	unchanged(w, GW_MODE_OFFLINE, "");
	gw_wizard_delete(w);
}

/* A failed connection leaves the host the wizard had: here an ESXi
 * sample stays attached and chosen. */
static void
test_failure_keeps_host(void **state)
{
	gw_wizard *w = fresh("esxi-l40s");
	const char *label;
	char *keep, fp[GW_WIZARD_FP_LEN];
	const char *v[3] = { "root@esx01", "0", NULL };
	gw_err e;

	(void)state;
	label = gw_wizard_host_label(w);
	keep = gw_xstrdup(label);
	assert_int_equal(gw_wizard_mode(w), GW_MODE_ESXI_SSH);
	assert_int_equal(gw_wizard_connect(w, GW_MODE_ESXI_SSH, v, NULL, fp, &e), -1);
	assert_non_null(strstr(gw_err_text(&e, 1), "Port: '0'"));
	unchanged(w, GW_MODE_ESXI_SSH, keep);
	assert_true(gw_wizard_checks(w, NULL) > 0);
	/* a route without a box connects nothing */
	assert_int_equal(gw_wizard_connect(w, GW_MODE_OFFLINE, v, NULL, fp, &e), -1);
	unchanged(w, GW_MODE_ESXI_SSH, keep);
	free(keep);
	gw_wizard_delete(w);
}

/* Against vcsim (tests/e2e/test_tui_connect.sh runs this binary with
 * GW_VCSIM_URL, GW_VCSIM_THUMB, GW_VCSIM_USER, GW_VCSIM_PASS set; skipped
 * otherwise): the self-signed certificate comes back untrusted with the
 * simulator's own fingerprint and nothing changes; pinned to it the login
 * works, the route is chosen and read, and the address kept is URL, user
 * and pin, never the password. */
static void
test_api_live(void **state)
{
	const char *url = getenv("GW_VCSIM_URL"), *thumb = getenv("GW_VCSIM_THUMB");
	const char *user = getenv("GW_VCSIM_USER"), *pass = getenv("GW_VCSIM_PASS");
	gw_wizard *w;
	gw_wizard_address a;
	char fp[GW_WIZARD_FP_LEN], *v;
	gw_err e;

	(void)state;
	if (url == NULL || thumb == NULL || user == NULL || pass == NULL ||
	    !GW_WITH_VSPHERE)
		skip();
	w = fresh(NULL);
	memset(&e, 0, sizeof e);
	assert_int_equal(gw_wizard_connect_api(w, url, user, pass, NULL, fp, &e),
	                 GW_WIZARD_UNTRUSTED);
	assert_string_equal(fp, thumb);
	assert_null(strstr(e.msg, pass));
	unchanged(w, GW_MODE_OFFLINE, "");
	/* pinned, a wrong password: refused by the server, nothing kept */
	assert_int_equal(gw_wizard_connect_api(w, url, user, "not-it", fp, fp, &e), -1);
	assert_non_null(strstr(e.msg, "wrong user name or password"));
	assert_string_equal(fp, "");
	unchanged(w, GW_MODE_OFFLINE, "");
	/* pinned, the password: connected and read */
	assert_int_equal(gw_wizard_connect_api(w, url, user, pass, thumb, fp, &e), 0);
	assert_int_equal(gw_wizard_mode(w), GW_MODE_VSPHERE);
	assert_true(gw_wizard_checks(w, NULL) > 0);
	assert_true(gw_wizard_vms(w, NULL) > 0);
	assert_int_equal(gw_wizard_address_of(w, &a), 0);
	assert_int_equal(a.mode, GW_MODE_VSPHERE);
	assert_string_equal(a.url, url);
	assert_string_equal(a.user, user);
	assert_string_equal(a.thumbprint, thumb);
	assert_null(a.target);
	/* the box starts with URL and user, never the password */
	v = gw_wizard_connect_value(w, GW_MODE_VSPHERE, 0);
	assert_string_equal(v, url);
	free(v);
	v = gw_wizard_connect_value(w, GW_MODE_VSPHERE, 1);
	assert_string_equal(v, user);
	free(v);
	assert_null(gw_wizard_connect_value(w, GW_MODE_VSPHERE, 2));
	assert_null(gw_wizard_connect_value(w, GW_MODE_ESXI_SSH, 0));
	/* another host attached (a sample): the address goes with the old */
	assert_int_equal(gw_wizard_use_sample(w, "esxi-l40s", &e), 0);
	assert_int_equal(gw_wizard_address_of(w, &a), -1);
	gw_wizard_delete(w);
}

/* A build without the vSphere module (configure --without-vsphere): the
 * API route has no box, is not available and says why in the host
 * layer's one line; connecting refuses with that line before a field is
 * read (an empty URL included), and nothing changes.  In a build with
 * the module: the route is there, waiting for its connection. */
static void
test_api_not_built(void **state)
{
	const char *v[3] = { "https://vc01/sdk", "root", "pw-secret" };
	const char *why = NULL;
	char fp[GW_WIZARD_FP_LEN];
	gw_wizard *w = fresh(NULL);
	gw_err e;

	(void)state;
	memset(&e, 0, sizeof e);
	assert_int_equal(gw_wizard_mode_available(w, GW_MODE_VSPHERE, &why), 0);
	assert_non_null(why);
	if (GW_WITH_VSPHERE) {
		assert_null(strstr(why, "no vSphere module"));
		gw_wizard_delete(w);
		return;
	}
	assert_non_null(strstr(why, "this build of gpuwiz has no vSphere module"));
	assert_null(gw_wizard_connect_form(GW_MODE_VSPHERE));
	assert_int_equal(gw_wizard_set_mode(w, GW_MODE_VSPHERE, &why), -1);
	assert_non_null(strstr(why, "no vSphere module"));
	assert_int_equal(gw_wizard_connect(w, GW_MODE_VSPHERE, v, NULL, fp, &e), -1);
	assert_non_null(strstr(e.msg, "this build of gpuwiz has no vSphere module"));
	assert_null(strstr(e.msg, "pw-secret"));
	assert_int_equal(gw_wizard_connect_api(w, "", "", NULL, NULL, fp, &e), -1);
	assert_non_null(strstr(e.msg, "no vSphere module"));
	assert_string_equal(fp, "");
	unchanged(w, GW_MODE_OFFLINE, "");
	/* the other routes are there */
	assert_non_null(gw_wizard_connect_form(GW_MODE_ESXI_SSH));
	gw_wizard_delete(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_ssh_refusals),
		cmocka_unit_test(test_api_refusals),
		cmocka_unit_test(test_failure_keeps_host),
		cmocka_unit_test(test_api_live),
		cmocka_unit_test(test_api_not_built),
	};
	char tmpl[] = "/tmp/gwconnect.XXXXXX", *cmd;
	gw_err e;
	int rc;

	/* the sample's scratch directory goes here, removed at the end */
	if (mkdtemp(tmpl) == NULL)
		return 1;
	setenv("TMPDIR", tmpl, 1);
	if (gw_table_load(&table, tu_table_path(), &e) != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	gw_table_free(&table);
	cmd = gw_xasprintf("rm -rf '%s'", tmpl);
	if (system(cmd) != 0)
		rc = 1;
	free(cmd);
	return rc;
}
