/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_connect.c: the routes that connect from inside the wizard
 * (wizard_connect.h): an ESXi host over SSH and vCenter or ESXi through
 * the API, opened by the host layer's gw_host_open as --ssh and --url
 * open them (host.h), then attached as gw_wizard_new attaches the host
 * it is started with (wz_attach).  Each route's box is data here; the
 * route descriptors (wizard_mode.c) point at it. */
#include "wizard_int.h"
#include "fatalsig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef char fp_len_matches[GW_WIZARD_FP_LEN == GW_VS_FP_LEN ? 1 : -1];

void
wz_address_free(gw_wizard *w)
{
	wz_address *a = w->addr;
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < GW_WIZARD_CONN_FIELDS; i++)
		free(a->v[i]);
	free(a->thumbprint);
	free(a);
	w->addr = NULL;
}

/* After a connection: keep its address (the secret fields left out). */
static void
keep_address(gw_wizard *w, gw_mode m, const char *const *v,
             const char *thumbprint)
{
	const gw_wizard_conn_form *f = gw_wizard_connect_form(m);
	wz_address *a = gw_xcalloc(1, sizeof *a);
	size_t i;

	a->mode = m;
	for (i = 0; f && i < f->nfields; i++)
		if (!f->fields[i].secret && v[i] && *v[i])
			a->v[i] = gw_xstrdup(v[i]);
	a->thumbprint = thumbprint ? gw_xstrdup(thumbprint) : NULL;
	wz_address_free(w);
	w->addr = a;
}

/* What is being done, to the screens' progress box. */
static void
say(gw_wizard *w, const char *what)
{
	if (w->progress)
		w->progress(w->progress_ctx, what, -1);
}

/* A trimmed copy of s; NULL for NULL or blanks only. */
static char *
trimmed(const char *s)
{
	char *c, *t;

	if (s == NULL)
		return NULL;
	c = gw_xstrdup(s);
	t = gw_trim(c);
	if (*t == '\0') {
		free(c);
		return NULL;
	}
	t = gw_xstrdup(t);
	free(c);
	return t;
}

/* Open what spec names, then work on it; -1 and e when it cannot be
 * opened (nothing changed). */
static int
open_and_attach(gw_wizard *w, const gw_host_spec *spec, const char *label,
                gw_err *e)
{
	gw_host *h;
	char *s;

	if (gw_host_open(spec, &h, e) != 0)
		return -1;
	/* TRANSLATORS: progress after connecting; %s is user@host or the
	 * URL. */
	s = gw_xasprintf(_("Reading %s..."), label);
	say(w, s);
	free(s);
	wz_attach(w, h);
	return 0;
}

int
gw_wizard_connect_ssh(gw_wizard *w, const char *target, const char *port,
                      const char *identity, gw_err *e)
{
	char *t = trimmed(target), *p = trimmed(port), *i = trimmed(identity);
	char *id = i ? wz_expand_tilde(i) : NULL, *s;
	const char *v[GW_WIZARD_CONN_FIELDS];
	gw_host_spec spec;
	int rc;

	if (t == NULL) {
		/* TRANSLATORS: the SSH connection box's host field, left
		 * empty. */
		gw_err_set(e, "%s", _("User@host: empty; expected the ESXi host as user@host, e.g. root@esx01"));
		free(p);
		free(i);
		free(id);
		return -1;
	}
	memset(&spec, 0, sizeof spec);
	spec.ssh = t;
	spec.ssh_port = p;
	spec.ssh_identity = id;
	spec.ssh_prompt = 0;   /* the screens own the terminal: keys only */
	spec.need = GW_HOST_NEED_ESXI;
	/* TRANSLATORS: progress while ssh connects; %s is user@host. */
	s = gw_xasprintf(_("Connecting to %s over SSH..."), t);
	say(w, s);
	free(s);
	rc = open_and_attach(w, &spec, t, e);
	if (rc == 0) {
		w->replay_api = 0;
		v[WZ_SSH_TARGET] = t;
		v[WZ_SSH_PORT] = p;
		v[WZ_SSH_IDENTITY] = i;
		keep_address(w, GW_MODE_ESXI_SSH, v, NULL);
	}
	free(t);
	free(p);
	free(i);
	free(id);
	return rc;
}

int
gw_wizard_connect_api(gw_wizard *w, const char *url, const char *user,
                      const char *password, const char *thumbprint,
                      char fp[GW_WIZARD_FP_LEN], gw_err *e)
{
	char *u = trimmed(url), *n = trimmed(user), *s;
	char *pin;
	const char *v[GW_WIZARD_CONN_FIELDS];
	gw_host_spec spec;
	int rc, replay;

	/* thumbprint may be fp itself (the fingerprint just shown): taken
	 * before fp is cleared */
	pin = thumbprint && *thumbprint ? gw_xstrdup(thumbprint) : NULL;
	fp[0] = '\0';
	/* a build without the vSphere module: the one line, before a field
	 * is read */
	if (gw_vs_available(e) != 0) {
		free(pin);
		return -1;
	}
	if (u == NULL || n == NULL) {
		gw_err_set(e, "%s", u == NULL ?
		           /* TRANSLATORS: the API connection box's fields,
		            * left empty. */
		           _("URL: empty; expected the vCenter or ESXi address, e.g. https://vc01/sdk") :
		           _("User: empty; expected the vSphere user, e.g. administrator@vsphere.local or root"));
		free(u);
		free(n);
		free(pin);
		return -1;
	}
	/* the password typed in the box: no core dump from here on */
	gw_no_core_dumps();
	memset(&spec, 0, sizeof spec);
	spec.url = u;
	spec.user = n;
	spec.password = password ? password : "";
	spec.thumbprint = pin;
	spec.untrusted = spec.thumbprint ? NULL : fp;
	/* TRANSLATORS: progress while gpuwiz logs in to the API; %s is
	 * the URL. */
	s = gw_xasprintf(_("Connecting to %s..."), u);
	say(w, s);
	free(s);
	/* the answers file's host: its values are for this host, and its
	 * VM is opened */
	replay = w->replay_api;   /* set for the API's address only */
	if (replay)
		w->starting = 1;
	rc = open_and_attach(w, &spec, u, e);
	if (replay)
		w->starting = 0;
	if (rc == 0) {
		w->replay_api = 0;
		if (replay) {
			free(w->host_error);
			w->host_error = NULL;
			wz_file_vm(w);
		}
		v[WZ_API_URL] = u;
		v[WZ_API_USER] = n;
		v[WZ_API_PASSWORD] = NULL;
		keep_address(w, GW_MODE_VSPHERE, v, spec.thumbprint);
	} else if (fp[0]) {
		rc = GW_WIZARD_UNTRUSTED;
	}
	free(u);
	free(n);
	free(pin);
	return rc;
}

const gw_wizard_conn_form *
gw_wizard_connect_form(gw_mode m)
{
	const struct wz_connect *c = (unsigned)m < GW_NMODES ? wz_mode(m)->conn
	                                                      : NULL;

	/* no box for a route this build cannot take: the route is refused
	 * with gw_wizard_mode_available's line instead */
	return c && !wz_mode_not_built(m, NULL) ? &c->form : NULL;
}

char *
gw_wizard_connect_value(const gw_wizard *w, gw_mode m, size_t i)
{
	const gw_wizard_conn_form *f = gw_wizard_connect_form(m);

	if (f == NULL || i >= f->nfields || f->fields[i].secret ||
	    w->addr == NULL || w->addr->mode != m || w->addr->v[i] == NULL)
		return NULL;
	return gw_xstrdup(w->addr->v[i]);
}

int
gw_wizard_connect(gw_wizard *w, gw_mode m, const char *const *values,
                  const char *pin, char fp[GW_WIZARD_FP_LEN], gw_err *e)
{
	const struct wz_connect *c = (unsigned)m < GW_NMODES ? wz_mode(m)->conn
	                                                      : NULL;

	fp[0] = '\0';
	if (c == NULL) {
		gw_err_set(e, "%s", _("This choice connects to nothing."));
		return -1;
	}
	return c->connect(w, values, pin, fp, e);
}

int
gw_wizard_address_of(const gw_wizard *w, gw_wizard_address *out)
{
	const wz_address *a = w->addr;

	memset(out, 0, sizeof *out);
	out->mode = GW_NMODES;
	if (a == NULL || w->host == NULL)
		return -1;
	out->mode = a->mode;
	wz_mode(a->mode)->conn->address(a, out);
	return 0;
}

gw_mode
gw_wizard_connect_pending(const gw_wizard *w)
{
	return w->replay_api && w->host == NULL && w->addr ? w->addr->mode
	                                                   : GW_NMODES;
}

const char *
gw_wizard_connect_pin(const gw_wizard *w, gw_mode m)
{
	return w->addr && w->addr->mode == m ? w->addr->thumbprint : NULL;
}

void
wz_replay_address(gw_wizard *w)
{
	const gw_answers_file *af = &w->af;
	const char *v[GW_WIZARD_CONN_FIELDS] = { NULL, NULL, NULL };
	char *target, *colon;
	gw_err le;

	if (af->host == GW_AHOST_API) {
		/* the password is the operator's: the box asks for it */
		v[WZ_API_URL] = af->host_address;
		v[WZ_API_USER] = af->host_user;
		keep_address(w, GW_MODE_VSPHERE, v, af->host_thumbprint);
		w->replay_api = 1;
		/* TRANSLATORS: %s: the answers file, then the URL. */
		w->host_error = gw_xasprintf(_("%s: [host] kind = api: not connected to %s: give the password in the box of the API route."),
		                             af->path, af->host_address);
		return;
	}
	/* USER@HOST[:PORT] (gw_answers_host_address_ok) */
	target = gw_xstrdup(af->host_address);
	colon = strchr(strchr(target, '@'), ':');
	if (colon)
		*colon++ = '\0';
	le.msg[0] = '\0';
	if (gw_wizard_connect_ssh(w, target, colon, af->host_identity, &le) != 0)
		/* TRANSLATORS: %s: the answers file, then why the SSH host
		 * could not be reached (one line). */
		w->host_error = gw_xasprintf(_("%s: [host] address: %s"),
		                             af->path, le.msg);
	free(target);
}
