/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_transport.c: the vSphere client's transport (see vsphere_int.h):
 * libcurl with one kept-alive connection and its cookie engine, the TLS
 * check in the handshake (thumbprint pinning), timeouts, and one SOAP call
 * with its errors. */
#include "vsphere_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

/* ---- thumbprints ----------------------------------------------------- */

void
gw_vs_thumbprint_of_der(const unsigned char *der, size_t len,
                        char out[GW_VS_THUMB_LEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	out[0] = '\0';
	if (EVP_Digest(der, len, md, &mdlen, EVP_sha256(), NULL) != 1 || mdlen != 32)
		return;
	gw_thumbprint_format(md, mdlen, out);
}

/* ---- TLS: the check in the handshake ------------------------------------ */

static int ssl_ex_index = -1;

static void
cert_thumbprint(X509 *cert, char out[GW_VS_THUMB_LEN])
{
	unsigned char *der = NULL;
	int n;

	out[0] = '\0';
	n = i2d_X509(cert, &der);
	if (n > 0)
		gw_vs_thumbprint_of_der(der, (size_t)n, out);
	OPENSSL_free(der);
}

static int
verify_cb(int ok, X509_STORE_CTX *x)
{
	SSL *ssl = X509_STORE_CTX_get_ex_data(x, SSL_get_ex_data_X509_STORE_CTX_idx());
	gw_vs *s = NULL;
	X509 *leaf = X509_STORE_CTX_get0_cert(x);

	if (ssl && ssl_ex_index >= 0)
		s = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), ssl_ex_index);
	if (s == NULL)
		return ok;
	if (leaf)
		cert_thumbprint(leaf, s->seen);
	if (s->pin[0]) {
		if (s->seen[0] && strcmp(s->seen, s->pin) == 0) {
			/* Pinned: chain and name do not matter. */
			X509_STORE_CTX_set_error(x, X509_V_OK);
			return 1;
		}
		s->pin_mismatch = 1;
		return 0;
	}
	if (!ok && s->verify_reason[0] == '\0')
		snprintf(s->verify_reason, sizeof s->verify_reason, "%s",
		         X509_verify_cert_error_string(X509_STORE_CTX_get_error(x)));
	return ok;
}

static CURLcode
sslctx_cb(CURL *c, void *sslctx, void *parm)
{
	SSL_CTX *ctx = sslctx;

	(void)c;
	if (ssl_ex_index < 0 || SSL_CTX_set_ex_data(ctx, ssl_ex_index, parm) != 1)
		return CURLE_SSL_CERTPROBLEM;
	SSL_CTX_set_verify(ctx, SSL_CTX_get_verify_mode(ctx), verify_cb);
	return CURLE_OK;
}

/* ---- HTTP --------------------------------------------------------------- */

/* An answer as it arrives: counted, and parsed at once (vs_reader) when
 * its HTTP status is one a SOAP answer has; nothing else is kept. */
typedef struct answer {
	gw_vs *s;
	vs_reader rd;
	size_t len;
	size_t cap;               /* answer_cap */
	int too_big;              /* 1: over cap; 2: over rd.kept_cap; 3:
	                           * one unit over rd.unit_cap */
} answer;

/* The largest answer taken, by what it is.  An answer read as units
 * (vs_reader with a path) holds about one unit at a time, so it may have
 * MAX_ANSWER bytes.  An answer read whole is a DOM of 10 to 35 times its
 * text, so its cap is what the answer weighs at most, with a wide margin:
 * a session, a moref, a service content or nothing weigh 0.1 to 3 KiB
 * (tests/fixtures/vsphere, captured from vcsim), a task's info 1 to 1.5
 * KiB, so the task states of RetrievePropertiesEx read whole (one task's
 * info, the states of the tasks in flight) get more room. */
/* One unit of an answer read as units (a VM with its properties and
 * extraConfig, a host, one config target entry) weighs KiB in the
 * captures; its tree is held while it is read, so it has a cap too, with
 * room for a VM's large guestinfo values. */
#define MAX_UNIT (8u << 20)

static const struct method_cap {
	const char *method;       /* NULL: every other answer read whole */
	size_t cap;
} answer_caps[] = {
	{ "RetrievePropertiesEx", 4u << 20 },
	{ NULL, 1u << 20 },
};

/* The most bytes of an answer to method taken, read as units or whole
 * (what one read as units keeps whole has the cap of a whole answer); a
 * larger one is refused, naming method. */
static size_t
answer_cap(const char *method, int units)
{
	const struct method_cap *c = answer_caps;

	if (units)
		return MAX_ANSWER;
	while (c->method && strcmp(c->method, method) != 0)
		c++;
	return c->cap;
}

static size_t
write_cb(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	answer *a = userdata;
	size_t n = size * nmemb;
	long code = 0;

	if (a->len + n > a->cap) {
		a->too_big = 1;
		return 0;
	}
	a->len += n;
	curl_easy_getinfo(a->s->curl, CURLINFO_RESPONSE_CODE, &code);
	if ((code == 200 || code == 500) &&
	    vs_reader_feed(&a->rd, ptr, n) != 0 && a->rd.too_big) {
		a->too_big = 1 + a->rd.too_big;
		return 0;
	}
	return n;
}

/* ---- time: the session's deadline ------------------------------------- */

double
vs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double
vs_time_left(const gw_vs *s)
{
	double left;

	if (s->deadline <= 0)
		return -1;
	left = s->deadline - vs_now();
	return left > 0 ? left : 0;
}

/* The bounds of the next call: what is left of the deadline, else the
 * connect and call timeouts; limit (seconds, 0 none) lowers them.  The
 * call timeout bounds the server's silence, not an answer on its way: no
 * byte for that long ends the call, and an answer that keeps coming (a
 * page of thousands of VMs on a slow link) may take up to POLL_CALLS
 * times as long in all.  0, or -1 when the deadline has passed. */
static int
call_bounds(gw_vs *s, long limit)
{
	double left = vs_time_left(s);
	long connect_ms = s->connect_timeout * 1000, call_ms = s->call_timeout * 1000;
	long total_ms = call_ms * POLL_CALLS;

	if (left >= 0) {
		if (left < 0.001)
			return -1;
		connect_ms = call_ms = total_ms = (long)(left * 1000) + 1;
	}
	if (limit > 0 && call_ms > limit * 1000)
		call_ms = total_ms = limit * 1000;
	if (connect_ms > call_ms)
		connect_ms = call_ms;
	curl_easy_setopt(s->curl, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
	curl_easy_setopt(s->curl, CURLOPT_TIMEOUT_MS, total_ms);
	curl_easy_setopt(s->curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(s->curl, CURLOPT_LOW_SPEED_TIME,
	                 call_ms >= 1000 ? call_ms / 1000 : 1L);
	return 0;
}

/* The line for a call that ran out of time: which stage, which bound. */
static void
timeout_error(gw_vs *s, const char *method, int connecting, gw_err *e)
{
	int login = !s->logged_in && (strcmp(method, "RetrieveServiceContent") == 0 ||
	                              strcmp(method, "Login") == 0);

	s->out_of_time = 1;
	if (s->deadline > 0) {
		if (connecting)
			gw_err_set(e, _("%s: the --timeout of %ld s ran out while connecting"),
			           s->host, s->timeout);
		else if (login)
			gw_err_set(e, _("%s: the --timeout of %ld s ran out while logging in (%s)"),
			           s->host, s->timeout, method);
		else
			gw_err_set(e, _("%s: the --timeout of %ld s ran out while waiting for the answer to %s"),
			           s->host, s->timeout, method);
	} else if (connecting) {
		gw_err_set(e, _("no connection to %s within %ld s (connect timeout)"),
		           s->host, s->connect_timeout);
	} else {
		gw_err_set(e, _("%s did not answer %s within %ld s"),
		           s->host, method, s->call_timeout);
	}
}

void
vs_set_soap_action(gw_vs *s)
{
	char *h;

	curl_slist_free_all(s->headers);
	s->headers = curl_slist_append(NULL, "Content-Type: text/xml; charset=utf-8");
	h = gw_xasprintf("SOAPAction: urn:vim25/%s",
	                 s->api_version && *s->api_version ? s->api_version : FIRST_API_VERSION);
	s->headers = curl_slist_append(s->headers, h);
	free(h);
	s->headers = curl_slist_append(s->headers, "Expect:");
	curl_easy_setopt(s->curl, CURLOPT_HTTPHEADER, s->headers);
}

static int
http_error(gw_vs *s, CURLcode rc, const char *method, const answer *a,
           gw_err *e)
{
	const char *why = s->errbuf[0] ? s->errbuf : curl_easy_strerror(rc);
	s->lost = 0;
	if (s->pin_mismatch) {
		gw_err_set(e, _("the certificate of %s does not match --thumbprint: expected %s, got %s; nothing was sent (if the certificate was replaced on purpose, check the new one and pin it)"),
		           s->host, s->pin, s->seen[0] ? s->seen : "?");
		/* TRANSLATORS: the wizard's words for the same: the
		 * certificate changed after the operator trusted it. */
		gw_err_set_ui(e, _("the certificate of %s changed after you trusted it: expected %s, got %s; nothing was sent. Connect again to see the new one."),
		              s->host, s->pin, s->seen[0] ? s->seen : "?");
		return -1;
	}
	switch (rc) {
	case CURLE_PEER_FAILED_VERIFICATION:
#if LIBCURL_VERSION_NUM < 0x073e00
	case CURLE_SSL_CACERT:
#endif
		if (s->seen[0] && s->untrusted)
			snprintf(s->untrusted, GW_VS_FP_LEN, "%s", s->seen);
		if (s->seen[0])
			gw_err_set(e, _("the certificate of %s is not trusted (%s): check that its SHA-256 fingerprint %s is the server's, then pin it with --thumbprint (or use --insecure)"),
			           s->host, s->verify_reason[0] ? s->verify_reason : why,
			           s->seen);
		else
			gw_err_set(e, _("the certificate of %s is not trusted (%s): pin it with --thumbprint (its SHA-256 fingerprint) or use --insecure"),
			           s->host, why);
		return -1;
	case CURLE_SSL_CACERT_BADFILE:
		gw_err_set(e, _("cannot use the CA file: %s"), why);
		return -1;
	case CURLE_COULDNT_RESOLVE_HOST:
		gw_err_set(e, _("cannot find the host %s: check the name in --url"), s->host);
		return -1;
	case CURLE_COULDNT_CONNECT:
		s->lost = 1;
		gw_err_set(e, _("cannot connect to %s: %s"), s->host, why);
		return -1;
	case CURLE_OPERATION_TIMEDOUT:
		s->lost = 1;
		{
			/* the request was sent on a connection, new or kept
			 * alive, once the pre-transfer time is set */
			double t = 0;

			curl_easy_getinfo(s->curl, CURLINFO_PRETRANSFER_TIME, &t);
			timeout_error(s, method, t <= 0, e);
		}
		return -1;
	case CURLE_WRITE_ERROR:
		if (a->too_big == 2)
			gw_err_set(e, _("the answer of %s to %s holds more than %u MiB besides the parts read one at a time"),
			           s->host, method, (unsigned)(a->rd.kept_cap >> 20));
		else if (a->too_big == 3)
			/* TRANSLATORS: %s the server, %s a SOAP method, %u a
			 * size; a part: one object of the answer (a VM, a
			 * host). */
			gw_err_set(e, _("the answer of %s to %s has a part larger than %u MiB"),
			           s->host, method, (unsigned)(a->rd.unit_cap >> 20));
		else
			gw_err_set(e, _("the answer of %s to %s is larger than %u MiB"),
			           s->host, method, (unsigned)(a->cap >> 20));
		return -1;
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_PARTIAL_FILE:
		s->lost = 1;
		gw_err_set(e, _("the connection to %s was lost during %s: %s"),
		           s->host, method, why);
		return -1;
	case CURLE_SSL_CONNECT_ERROR:
		/* A reset in the handshake: the server went away (a refused
		 * certificate is PEER_FAILED_VERIFICATION or pin_mismatch). */
		s->lost = 1;
		gw_err_set(e, _("TLS with %s failed: %s"), s->host, why);
		return -1;
	default:
		s->lost = 1;
		gw_err_set(e, _("%s: %s failed: %s"), s->host, method, why);
		return -1;
	}
}

/* ---- -v: one line per call ------------------------------------------ */

/* The object the request is called on, "TYPE:VALUE" of its _this (the
 * method's first child), into buf; "?" when it has none. */
static void
req_this(const req *r, char *buf, size_t n)
{
	xmlNodePtr c;

	snprintf(buf, n, "?");
	for (c = r->method->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    xmlStrcmp(c->name, (const xmlChar *)"_this") == 0) {
			xmlChar *type = xmlGetProp(c, (const xmlChar *)"type");
			xmlChar *val = xmlNodeGetContent(c);

			snprintf(buf, n, "%s:%s", type ? (const char *)type : "",
			         val ? (const char *)val : "");
			xmlFree(type);
			xmlFree(val);
			return;
		}
}

/* With gw_vs_opts.verbose: the call as gw_trace's line.  how: the HTTP
 * status and the fault, or why no answer came; never the body (Login's
 * holds the password) nor a header (the session cookie). */
static void
trace_call(const gw_vs *s, const char *method, const req *r,
           const char *how, double t0)
{
	char obj[200];

	if (!s->verbose)
		return;
	req_this(r, obj, sizeof obj);
	/* TRANSLATORS: -v: one SOAP call: the server, the method, the
	 * object it is called on ("SessionManager:ha-sessionmgr"), what
	 * came back ("HTTP 200", "HTTP 500, fault InvalidLogin"), then its
	 * time in seconds. */
	gw_trace(_("vSphere %s: %s on %s: %s, %.3f s"), s->host, method, obj,
	         how, vs_now() - t0);
}

/* One call (vsphere_int.h); limit: seconds it may take at most (0: the
 * session's bounds). */
static int
call(gw_vs *s, const char *method, req *r, int secret, long limit,
     const char *const *path, vs_unit_fn unit, void *unit_ctx,
     xmlDocPtr *doc, xmlNodePtr *el, gw_vs_fault *fault, gw_err *e)
{
	answer ans;
	char *body;
	size_t len;
	CURLcode rc;
	long code = 0;
	int ret, parsed;
	double t0;
	char how[CURL_ERROR_SIZE + 64];

	*doc = NULL;
	*el = NULL;
	fault->type = fault->message = NULL;
	if (call_bounds(s, limit) != 0) {
		timeout_error(s, method, 0, e);
		return -1;
	}
	body = vs_req_dump(r, &len);
	memset(&ans, 0, sizeof ans);
	ans.s = s;
	ans.cap = answer_cap(method, path != NULL);
	vs_reader_init(&ans.rd, path, unit, unit_ctx);
	if (path) {
		ans.rd.kept_cap = answer_cap(method, 0);
		ans.rd.unit_cap = MAX_UNIT;
	}
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDSIZE, (long)len);
	curl_easy_setopt(s->curl, CURLOPT_WRITEDATA, &ans);
	s->errbuf[0] = '\0';
	s->pin_mismatch = 0;
	s->verify_reason[0] = '\0';
	s->lost = 0;
	s->round_trips++;
	t0 = vs_now();
	rc = curl_easy_perform(s->curl);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDS, NULL);
	curl_easy_setopt(s->curl, CURLOPT_WRITEDATA, NULL);
	if (secret)
		OPENSSL_cleanse(body, len);
	free(body);
	if (rc != CURLE_OK) {
		vs_reader_free(&ans.rd);
		if (rc == CURLE_WRITE_ERROR && !ans.too_big)
			rc = CURLE_RECV_ERROR;
		/* TRANSLATORS: -v: a SOAP call without an answer; %s why
		 * (libcurl's words). */
		snprintf(how, sizeof how, _("no answer (%s)"),
		         s->errbuf[0] ? s->errbuf : curl_easy_strerror(rc));
		trace_call(s, method, r, how, t0);
		return http_error(s, rc, method, &ans, e);
	}
	curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &code);
	snprintf(how, sizeof how, "HTTP %ld", code);
	parsed = (code == 200 || code == 500) &&
	         vs_reader_finish(&ans.rd, doc, el) == 0;
	vs_reader_free(&ans.rd);
	if (!parsed)
		trace_call(s, method, r, how, t0);
	if (!parsed) {
		if (code == 503)
			gw_err_set(e, _("%s is not ready (HTTP 503): vCenter may still be starting; try again in a few minutes"), s->host);
		else if (code == 200 || code == 500)
			gw_err_set(e, _("%s is not a vSphere endpoint: its answer to %s is not a SOAP envelope (is the URL https://HOST/sdk?)"),
			           s->url, method);
		else
			gw_err_set(e, _("%s is not a vSphere endpoint: HTTP %ld to %s (is the URL https://HOST/sdk?)"),
			           s->url, code, method);
		return -1;
	}
	ret = 0;
	if (vs_is_fault_el(*el)) {
		vs_fault_from_el(*el, fault);
		/* TRANSLATORS: -v: a SOAP call's HTTP status, then the fault
		 * (a vSphere type name: InvalidLogin). */
		snprintf(how, sizeof how, _("HTTP %ld, fault %s"), code,
		         fault->type ? fault->type : "?");
		trace_call(s, method, r, how, t0);
		if (fault->type && strcmp(fault->type, "NotAuthenticated") == 0 &&
		    s->logged_in)
			gw_err_set(e, _("%s: the session has expired or was ended (%s); log in again"),
			           s->host, method);
		else
			gw_err_set(e, _("%s refused %s: %s"), s->host, method,
			           vs_fault_reason(fault));
		xmlFreeDoc(*doc);
		*doc = NULL;
		*el = NULL;
		ret = 1;
	} else {
		trace_call(s, method, r, how, t0);
	}
	return ret;
}

int
vs_call(gw_vs *s, const char *method, req *r, int secret, xmlDocPtr *doc,
        xmlNodePtr *el, gw_vs_fault *fault, gw_err *e)
{
	return call(s, method, r, secret, 0, NULL, NULL, NULL, doc, el, fault, e);
}

int
vs_call_units(gw_vs *s, const char *method, req *r, const char *const *path,
              vs_unit_fn unit, void *unit_ctx, xmlDocPtr *doc,
              xmlNodePtr *el, gw_err *e)
{
	gw_vs_fault f;
	int rc = call(s, method, r, 0, 0, path, unit, unit_ctx, doc, el, &f, e);

	gw_vs_fault_free(&f);
	return rc == 0 ? 0 : -1;
}

int
vs_call_units_fault(gw_vs *s, const char *method, req *r,
                    const char *const *path, vs_unit_fn unit, void *unit_ctx,
                    xmlDocPtr *doc, xmlNodePtr *el, gw_vs_fault *fault,
                    gw_err *e)
{
	return call(s, method, r, 0, 0, path, unit, unit_ctx, doc, el, fault, e);
}

int
vs_call_quick(gw_vs *s, const char *method, req *r, long limit,
              xmlDocPtr *doc, xmlNodePtr *el, gw_err *e)
{
	gw_vs_fault f;
	int rc = call(s, method, r, 0, limit, NULL, NULL, NULL, doc, el, &f, e);

	gw_vs_fault_free(&f);
	return rc == 0 ? 0 : -1;
}

/* vs_call for callers that treat every fault alike. */
int
vs_call_simple(gw_vs *s, const char *method, req *r, xmlDocPtr *doc,
               xmlNodePtr *el, gw_err *e)
{
	gw_vs_fault f;
	int rc = vs_call(s, method, r, 0, doc, el, &f, e);

	gw_vs_fault_free(&f);
	return rc == 0 ? 0 : -1;
}

/* ---- session ------------------------------------------------------------ */

void
vs_global_init(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	xmlInitParser();
	OPENSSL_init_ssl(0, NULL);
	ssl_ex_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

/* ---- the curl handle ------------------------------------------------- */

static void
curl_options(gw_vs *s, const gw_vs_opts *o)
{
	curl_easy_setopt(s->curl, CURLOPT_URL, s->url);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(s->curl, CURLOPT_PROTOCOLS_STR, "https");
#else
	curl_easy_setopt(s->curl, CURLOPT_PROTOCOLS, (long)CURLPROTO_HTTPS);
#endif
	curl_easy_setopt(s->curl, CURLOPT_POST, 1L);
	curl_easy_setopt(s->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(s->curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(s->curl, CURLOPT_VERBOSE, 0L);
	curl_easy_setopt(s->curl, CURLOPT_ERRORBUFFER, s->errbuf);
	curl_easy_setopt(s->curl, CURLOPT_WRITEFUNCTION, write_cb);
	curl_easy_setopt(s->curl, CURLOPT_COOKIEFILE, "");
	curl_easy_setopt(s->curl, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(s->curl, CURLOPT_USERAGENT, "gpuwiz/" PACKAGE_VERSION);
	if (o->cafile)
		curl_easy_setopt(s->curl, CURLOPT_CAINFO, o->cafile);
}

/* Verification as vsphere.h says: insecure, the pin, or the CAs. */
static int
tls_options(gw_vs *s, gw_err *e)
{
	const curl_version_info_data *vi = curl_version_info(CURLVERSION_NOW);

	if (vi && vi->ssl_version && strncmp(vi->ssl_version, "OpenSSL", 7) == 0 &&
	    curl_easy_setopt(s->curl, CURLOPT_SSL_CTX_FUNCTION, sslctx_cb) == CURLE_OK &&
	    curl_easy_setopt(s->curl, CURLOPT_SSL_CTX_DATA, s) == CURLE_OK)
		s->ctx_hook = 1;
	if (s->insecure) {
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYHOST, 0L);
	} else if (s->pin[0]) {
		if (!s->ctx_hook) {
			gw_err_set(e, _("--thumbprint needs libcurl built with OpenSSL; without it the certificate must verify against the system CAs"));
			return -1;
		}
		/* The handshake's verify callback decides by the pin. */
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYHOST, 0L);
	} else {
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYHOST, 2L);
	}
	return 0;
}

int
vs_curl_setup(gw_vs *s, const gw_vs_opts *o, gw_err *e)
{
	s->curl = curl_easy_init();
	if (s->curl == NULL) {
		gw_err_set(e, _("cannot start libcurl"));
		return -1;
	}
	curl_options(s, o);
	if (tls_options(s, e) != 0)
		return -1;
	vs_set_soap_action(s);
	return 0;
}
