/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsphere.c: the vim25 SOAP client (see vsphere.h): options, login and
 * logout, the password, the session's accessors.  The other pieces are
 * listed in vsphere_int.h. */
#include "vsphere_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

/* ---- small helpers --------------------------------------------------- */

/* ---- small helpers --------------------------------------------------- */

static void
wipe_free(char *p)
{
	if (p) {
		OPENSSL_cleanse(p, strlen(p));
		free(p);
	}
}

/* ---- URL and thumbprints ------------------------------------------------ */

/* "vc01" -> "https://vc01/sdk" (malloc'ed); see gw_vs_opts.url. */
static char *
normalize_url(const char *url, gw_err *e)
{
	const char *p, *auth, *end;
	char *tmp, *out, *t;
	size_t n;

	if (url == NULL || *url == '\0') {
		gw_err_set(e, _("--url: give the vCenter or ESXi host (\"vc01\" or \"https://vc01/sdk\")"));
		return NULL;
	}
	tmp = gw_xstrdup(url);
	t = gw_trim(tmp);
	for (p = t; *p; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f) {
			gw_err_set(e, _("--url: blanks or control characters are not allowed in the URL"));
			free(tmp);
			return NULL;
		}
	if (*t == '\0') {
		gw_err_set(e, _("--url: give the vCenter or ESXi host (\"vc01\" or \"https://vc01/sdk\")"));
		free(tmp);
		return NULL;
	}
	p = strstr(t, "://");
	if (p) {
		if ((size_t)(p - t) != 5 || strncasecmp(t, "https", 5) != 0) {
			gw_err_set(e, _("--url: only https:// is accepted (the password must not travel in clear text)"));
			free(tmp);
			return NULL;
		}
		auth = p + 3;
	} else {
		auth = t;
	}
	end = auth + strcspn(auth, "/?#");
	/* Never echo a URL holding credentials. */
	if (memchr(auth, '@', (size_t)(end - auth))) {
		gw_err_set(e, _("--url: put the user name in --user and the password in the prompt or GPUWIZ_PASSWORD, not in the URL"));
		free(tmp);
		return NULL;
	}
	if (end == auth) {
		gw_err_set(e, _("--url: no host name in \"%s\""), t);
		free(tmp);
		return NULL;
	}
	n = (size_t)(end - auth);
	if (*end == '\0' || strcmp(end, "/") == 0)
		out = gw_xasprintf("https://%.*s/sdk", (int)n, auth);
	else
		out = gw_xasprintf("https://%.*s%s", (int)n, auth, end);
	free(tmp);
	return out;
}

/* The options gw_vs_new checks before anything is set up. */
static int
check_opts(const gw_vs_opts *o, gw_err *e)
{
	if (o->user == NULL || *o->user == '\0' || !vs_valid_text(o->user, 0)) {
		gw_err_set(e, _("--user: give the vSphere user name (\"administrator@vsphere.local\", \"root\")"));
		return -1;
	}
	if (o->password == NULL || !vs_valid_text(o->password, 0)) {
		gw_err_set(e, _("the password is missing or holds control characters"));
		return -1;
	}
	if (o->insecure && o->thumbprint) {
		gw_err_set(e, _("--thumbprint and --insecure exclude each other"));
		return -1;
	}
	return 0;
}

gw_vs *
gw_vs_new(const gw_vs_opts *o, gw_err *e)
{
	gw_vs *s;
	char *url;
	const char *auth;

	if (o == NULL) {
		gw_err_set(e, _("no vSphere connection options"));
		return NULL;
	}
	url = normalize_url(o->url, e);
	if (url == NULL)
		return NULL;
	if (check_opts(o, e) != 0) {
		free(url);
		return NULL;
	}
	vs_global_init();
	s = gw_xcalloc(1, sizeof *s);
	s->url = url;
	auth = url + strlen("https://");
	s->host = gw_xstrndup(auth, strcspn(auth, "/"));
	if (o->thumbprint && gw_thumbprint_normalize(o->thumbprint, s->pin, e) != 0) {
		gw_vs_close(s);
		return NULL;
	}
	s->user = gw_xstrdup(o->user);
	s->password = gw_xstrdup(o->password);
	s->insecure = o->insecure;
	s->verbose = o->verbose;
	s->connect_timeout = o->connect_timeout > 0 ? o->connect_timeout : 10;
	s->call_timeout = o->call_timeout > 0 ? o->call_timeout : 60;
	if (o->timeout > 0) {
		s->timeout = o->timeout;
		s->deadline = vs_now() + (double)o->timeout;
	}
	s->api_type = gw_xstrdup("");
	s->api_version = gw_xstrdup("");
	s->full_name = gw_xstrdup("");
	if (vs_curl_setup(s, o, e) != 0) {
		gw_vs_close(s);
		return NULL;
	}
	return s;
}

static int
retrieve_service_content(gw_vs *s, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el;
	vs_service_content sc;
	int rc;

	vs_req_init(&r, "RetrieveServiceContent");
	vs_add_moref(r.method, "_this", "ServiceInstance", "ServiceInstance");
	rc = vs_call_simple(s, "RetrieveServiceContent", &r, &doc, &el, e);
	vs_req_free(&r);
	if (rc != 0)
		return -1;
	rc = vs_service_content_from(el, s->url, &sc, e);
	xmlFreeDoc(doc);
	/* kept when incomplete too: gw_vs_round_trips shows what it had */
	vs_set_str(&s->root_folder, sc.root_folder);
	vs_set_str(&s->property_collector, sc.property_collector);
	vs_set_str(&s->session_manager, sc.session_manager);
	vs_set_str(&s->view_manager, sc.view_manager);
	vs_set_str(&s->api_type, sc.api_type);
	vs_set_str(&s->api_version, sc.api_version);
	vs_set_str(&s->full_name, sc.full_name);
	if (rc != 0)
		return -1;
	vs_set_soap_action(s);
	return 0;
}

int
gw_vs_login(gw_vs *s, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el, pw;
	gw_vs_fault f;
	int rc;

	if (s->password == NULL || s->logged_in) {
		gw_err_set(e, _("already logged in, or the password was used already"));
		return -1;
	}
	if (retrieve_service_content(s, e) != 0) {
		wipe_free(s->password);
		s->password = NULL;
		return -1;
	}
	vs_req_init(&r, "Login");
	vs_add_moref(r.method, "_this", "SessionManager", s->session_manager);
	vs_add_text(r.method, "userName", s->user);
	pw = vs_add_text(r.method, "password", s->password);
	wipe_free(s->password);
	s->password = NULL;
	rc = vs_call(s, "Login", &r, 1, &doc, &el, &f, e);
	if (pw && pw->children && pw->children->content)
		OPENSSL_cleanse(pw->children->content,
		                strlen(S(pw->children->content)));
	vs_req_free(&r);
	if (rc == 1) {
		if (f.type && strcmp(f.type, "InvalidLogin") == 0)
			gw_err_set(e, _("login to %s as %s failed: wrong user name or password"),
			           s->host, s->user);
		else if (f.type && strcmp(f.type, "NoPermission") == 0)
			gw_err_set(e, _("login to %s as %s failed: the user has no permission to log in"),
			           s->host, s->user);
		else
			gw_err_set(e, _("login to %s as %s failed: %s"), s->host,
			           s->user, vs_fault_reason(&f));
		gw_vs_fault_free(&f);
		return -1;
	}
	if (rc != 0)
		return -1;
	xmlFreeDoc(doc);
	s->logged_in = 1;
	return 0;
}

gw_vs *
gw_vs_connect(const gw_vs_opts *o, gw_err *e)
{
	gw_vs *s;
	int rc;

	if (o && o->untrusted)
		o->untrusted[0] = '\0';
	if ((s = gw_vs_new(o, e)) == NULL)
		return NULL;
	/* the caller's buffer is written during the login only */
	s->untrusted = o->untrusted;
	rc = gw_vs_login(s, e);
	s->untrusted = NULL;
	if (rc != 0) {
		gw_vs_close(s);
		return NULL;
	}
	return s;
}

void
gw_vs_close(gw_vs *s)
{
	if (s == NULL)
		return;
	if (s->logged_in && s->curl && s->session_manager) {
		req r;
		xmlDocPtr doc;
		xmlNodePtr el;
		gw_err ignore;

		vs_req_init(&r, "Logout");
		vs_add_moref(r.method, "_this", "SessionManager", s->session_manager);
		/* Quick, and never past the deadline: the session ends
		 * anyway when the server times it out. */
		if (vs_call_quick(s, "Logout", &r, 10, &doc, &el, &ignore) == 0)
			xmlFreeDoc(doc);
		vs_req_free(&r);
	}
	if (s->curl)
		curl_easy_cleanup(s->curl);
	curl_slist_free_all(s->headers);
	wipe_free(s->password);
	free(s->url);
	free(s->host);
	free(s->user);
	free(s->api_type);
	free(s->api_version);
	free(s->full_name);
	free(s->root_folder);
	free(s->property_collector);
	free(s->session_manager);
	free(s->view_manager);
	vs_tasks_free(s);
	gw_vs_set_vm_names(s, NULL, 0);
	free(s);
}

unsigned
gw_vs_round_trips(const gw_vs *s)
{
	return s ? s->round_trips : 0;
}

int
gw_vs_is_vcenter(const gw_vs *s)
{
	return s && s->api_type && strcmp(s->api_type, "VirtualCenter") == 0;
}

const char *
gw_vs_full_name(const gw_vs *s)
{
	return s && s->full_name ? s->full_name : "";
}
