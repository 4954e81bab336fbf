/* SPDX-License-Identifier: GPL-3.0-or-later */
/* connenv.c: the connection variables of govc (GOVC_URL, GOVC_USERNAME,
 * GOVC_PASSWORD, GOVC_INSECURE, GOVC_TLS_CA_CERTS) and of the
 * community.vmware Ansible collection (VMWARE_HOST, VMWARE_PORT,
 * VMWARE_USER, VMWARE_PASSWORD, VMWARE_VALIDATE_CERTS), so that a shell
 * or playbook set up for those tools reaches the same server.
 *
 * One order, field by field (gpuwiz(1) ENVIRONMENT): the command line's
 * option, then GPUWIZ_PASSWORD (the password only), then GOVC_*, then
 * VMWARE_*, then asking (the password on the terminal):
 *   URL        --url, GOVC_URL, VMWARE_HOST with VMWARE_PORT (vsphere
 *              only: elsewhere --url picks the vSphere route)
 *   user       --user, the user of GOVC_URL, GOVC_USERNAME, VMWARE_USER
 *   password   GPUWIZ_PASSWORD, the password of GOVC_URL, GOVC_PASSWORD,
 *              VMWARE_PASSWORD, asked
 * (the user and password inside GOVC_URL only where GOVC_URL gives the
 * URL: never sent to the server of --url)
 *   checking   --thumbprint, --insecure or --cafile, GOVC_INSECURE,
 *              VMWARE_VALIDATE_CERTS=false
 *   CA file    --cafile, GOVC_TLS_CA_CERTS (one file)
 * Every variable is taken as GPUWIZ_PASSWORD is (cli_take_env: wiped in
 * place and unset, so /proc/PID/environ no longer shows it and no child
 * inherits it), and only by a command that talks to vSphere.  A value
 * that cannot be used is one line naming the variable.
 */
#include "cli_int.h"
#include "fatalsig.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum { V_GOVC_URL, V_GOVC_USERNAME, V_GOVC_PASSWORD, V_GOVC_INSECURE,
       V_GOVC_TLS_CA_CERTS, V_VMWARE_HOST, V_VMWARE_PORT, V_VMWARE_USER,
       V_VMWARE_PASSWORD, V_VMWARE_VALIDATE_CERTS, V_COUNT };

static const char *const var_names[V_COUNT] = {
	"GOVC_URL", "GOVC_USERNAME", "GOVC_PASSWORD", "GOVC_INSECURE",
	"GOVC_TLS_CA_CERTS", "VMWARE_HOST", "VMWARE_PORT", "VMWARE_USER",
	"VMWARE_PASSWORD", "VMWARE_VALIDATE_CERTS",
};

static int
is_vsphere(const cli_opts *o)
{
	return o->cmd != NULL && strcmp(o->cmd, "vsphere") == 0;
}

int
cli_conn_wanted(const cli_opts *o)
{
	return is_vsphere(o) || o->url != NULL;
}

static int
set_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && *v;
}

int
cli_conn_env_has_url(const cli_opts *o)
{
	return is_vsphere(o) &&
	       (set_nonempty("GOVC_URL") || set_nonempty("VMWARE_HOST"));
}

/* %XX decoded in place (a URL's user and password); -1 when malformed. */
static int
pct_decode(char *s)
{
	char *w = s;
	int hi, lo;

	for (; *s; s++) {
		if (*s != '%') {
			*w++ = *s;
			continue;
		}
		if ((hi = gw_hexval((unsigned char)s[1])) < 0 ||
		    (lo = gw_hexval((unsigned char)s[2])) < 0)
			return -1;
		*w++ = (char)(hi * 16 + lo);
		s += 2;
	}
	*w = '\0';
	return 0;
}

/* GOVC_URL as govc takes it: HOST, HOST:PORT or a URL, with an optional
 * USER[:PASSWORD]@ before the host (percent-encoded).  *url gets it
 * without those, *user and *pw what it held (NULL when nothing).  The
 * value is never echoed: it may hold a password. */
static int
govc_url(char *v, char **url, char **user, char **pw, gw_err *e)
{
	char *auth = strstr(v, "://"), *end, *at, *colon;

	*url = *user = *pw = NULL;
	auth = auth != NULL ? auth + 3 : v;
	end = auth + strcspn(auth, "/?#");
	at = NULL;
	for (colon = auth; colon < end; colon++)
		if (*colon == '@')
			at = colon;
	if (at != NULL) {
		*at = '\0';
		if ((colon = strchr(auth, ':')) != NULL) {
			*colon = '\0';
			*pw = gw_xstrdup(colon + 1);
		}
		*user = gw_xstrdup(auth);
		if (pct_decode(*user) != 0 || (*pw && pct_decode(*pw) != 0)) {
			cli_secret_free(user);
			cli_secret_free(pw);
			gw_err_set(e, "%s", _("GOVC_URL: the user or password before '@' is not percent-encoded right (expected a percent sign and two hex digits for each reserved character)"));
			return -1;
		}
		if (**user == '\0')
			cli_secret_free(user);
		*url = gw_xasprintf("%.*s%s", (int)(auth - v), v, at + 1);
	} else {
		*url = gw_xstrdup(v);
	}
	return 0;
}

/* A yes or no: govc's (Go's strconv.ParseBool: 1, t, true, 0, f,
 * false) or Ansible's (those and yes, no, y, n, on, off); any case.
 * 1, 0, or -1. */
static int
boolean(const char *v, int ansible)
{
	static const char *const yes[] = { "1", "t", "true", "yes", "y", "on" };
	static const char *const no[] = { "0", "f", "false", "no", "n", "off" };
	size_t i, n = ansible ? 6 : 3;

	for (i = 0; i < n; i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* VMWARE_HOST (a host name or address, as the collection's hostname)
 * with VMWARE_PORT (1..65535) when set: the URL. */
static char *
vmware_url(const char *host, const char *port, gw_err *e)
{
	unsigned long long p;
	const char *c;

	if (port == NULL || *port == '\0')
		return gw_xstrdup(host);
	for (c = port; *c; c++)
		if (!isdigit((unsigned char)*c))
			break;
	if (*c || gw_parse_uint(port, 65535, &p) != 0 || p == 0) {
		gw_err_set(e, _("VMWARE_PORT: '%s' is not a port (expected 1..65535)"),
		           port);
		return NULL;
	}
	if (strchr(host, '/') != NULL ||
	    (host[0] != '[' && (c = strchr(host, ':')) != NULL &&
	     strchr(c + 1, ':') == NULL) || strchr(host, ']') != NULL) {
		gw_err_set(e, _("VMWARE_HOST: '%s' is not a host name or address (expected one like vc01 with the port in VMWARE_PORT)"),
		           host);
		return NULL;
	}
	/* an IPv6 address in brackets */
	return gw_xasprintf(strchr(host, ':') ? "https://[%s]:%s/sdk"
	                                      : "https://%s:%s/sdk", host, port);
}

/* The variables' values, every one taken out of the environment. */
static void
take_all(char *v[V_COUNT])
{
	size_t i;

	for (i = 0; i < V_COUNT; i++) {
		v[i] = cli_take_env(var_names[i]);
		if (v[i] != NULL && v[i][0] == '\0')
			cli_secret_free(&v[i]);   /* set empty: as unset */
	}
}

/* The certificate check: the options decide, else GOVC_INSECURE, else
 * VMWARE_VALIDATE_CERTS. */
static int
fill_check(cli_opts *o, char *v[V_COUNT], gw_err *e)
{
	int b;

	if (v[V_GOVC_INSECURE] != NULL &&
	    (b = boolean(v[V_GOVC_INSECURE], 0)) < 0) {
		gw_err_set(e, _("GOVC_INSECURE: '%s' is not a boolean (expected 1, true, 0 or false)"),
		           v[V_GOVC_INSECURE]);
		return -1;
	}
	if (v[V_VMWARE_VALIDATE_CERTS] != NULL &&
	    boolean(v[V_VMWARE_VALIDATE_CERTS], 1) < 0) {
		gw_err_set(e, _("VMWARE_VALIDATE_CERTS: '%s' is not a boolean (expected true or false, yes or no, 1 or 0)"),
		           v[V_VMWARE_VALIDATE_CERTS]);
		return -1;
	}
	if (o->thumbprint || o->insecure || o->cafile)
		return 0;
	if (v[V_GOVC_INSECURE] != NULL)
		o->insecure = boolean(v[V_GOVC_INSECURE], 0);
	else if (v[V_VMWARE_VALIDATE_CERTS] != NULL)
		o->insecure = !boolean(v[V_VMWARE_VALIDATE_CERTS], 1);
	return 0;
}

/* GOVC_TLS_CA_CERTS: one readable file (govc takes a list; the module
 * one bundle). */
static int
fill_cafile(cli_opts *o, char *v[V_COUNT], gw_err *e)
{
	const char *f = v[V_GOVC_TLS_CA_CERTS];

	if (f == NULL || o->cafile != NULL)
		return 0;
	if (access(f, R_OK) != 0) {
		if (errno == ENOENT && strchr(f, ':') != NULL)
			gw_err_set(e, _("GOVC_TLS_CA_CERTS: '%s' names several files; gpuwiz takes one (concatenate the certificates into one file)"),
			           f);
		else
			gw_err_set(e, _("GOVC_TLS_CA_CERTS: %s: %s (expected a file of CA certificates)"),
			           f, strerror(errno));
		return -1;
	}
	o->env_cafile = gw_xstrdup(f);
	o->cafile = o->env_cafile;
	return 0;
}

int
cli_conn_env(cli_opts *o, gw_err *e)
{
	char *v[V_COUNT], *url = NULL, *uuser = NULL, *upw = NULL;
	const char *user;
	size_t i;
	int rc = -1;

	take_all(v);
	if (v[V_GOVC_PASSWORD] || v[V_VMWARE_PASSWORD] || v[V_GOVC_URL])
		gw_no_core_dumps();     /* a password may be held */
	if (v[V_GOVC_URL] && govc_url(v[V_GOVC_URL], &url, &uuser, &upw, e) != 0)
		goto out;
	if (is_vsphere(o) && o->url == NULL) {
		if (url != NULL) {
			o->env_url = url;
			url = NULL;
			o->env_url_var = "GOVC_URL";
		} else if (v[V_VMWARE_HOST] != NULL) {
			if ((o->env_url = vmware_url(v[V_VMWARE_HOST],
			                             v[V_VMWARE_PORT], e)) == NULL)
				goto out;
			o->env_url_var = "VMWARE_HOST";
		}
		o->url = o->env_url;
	}
	/* the user and password inside GOVC_URL belong to that server: not
	 * sent to another one named by --url */
	if (o->env_url_var == NULL || strcmp(o->env_url_var, "GOVC_URL") != 0) {
		cli_secret_free(&uuser);
		cli_secret_free(&upw);
	}
	user = uuser ? uuser : v[V_GOVC_USERNAME] ? v[V_GOVC_USERNAME]
	                                          : v[V_VMWARE_USER];
	if (o->user == NULL && user != NULL) {
		o->env_user = gw_xstrdup(user);
		o->user = o->env_user;
	}
	if (fill_check(o, v, e) != 0 || fill_cafile(o, v, e) != 0)
		goto out;
	/* the password: after GPUWIZ_PASSWORD (cli_read_password) */
	if (upw != NULL) {
		cli_env_password_set(upw);
		upw = NULL;
	} else if (v[V_GOVC_PASSWORD] || v[V_VMWARE_PASSWORD]) {
		cli_env_password_set(gw_xstrdup(v[V_GOVC_PASSWORD] ?
		                                v[V_GOVC_PASSWORD] :
		                                v[V_VMWARE_PASSWORD]));
	}
	rc = 0;
out:
	for (i = 0; i < V_COUNT; i++)
		cli_secret_free(&v[i]);
	cli_secret_free(&url);
	cli_secret_free(&uuser);
	cli_secret_free(&upw);
	return rc;
}
