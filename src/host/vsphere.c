/* vsphere.c: the vim25 SOAP client (see vsphere.h). */
#include "vsphere.h"
#include "plan.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlstring.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#define NS_SOAPENV "http://schemas.xmlsoap.org/soap/envelope/"
#define NS_XSI "http://www.w3.org/2001/XMLSchema-instance"
#define NS_XSD "http://www.w3.org/2001/XMLSchema"
#define NS_VIM "urn:vim25"

/* SOAPAction version sent before the server's own is known (what govc
 * sends; servers accept it for RetrieveServiceContent). */
#define FIRST_API_VERSION "6.7"
/* Largest answer kept. */
#define MAX_ANSWER (256u << 20)
/* Task polling: interval and the bound, in call timeouts. */
#define POLL_MS 250
#define POLL_CALLS 5

#define X(s) ((const xmlChar *)(s))
#define S(s) ((const char *)(s))

struct gw_vs {
	CURL *curl;
	struct curl_slist *headers;
	char *url;
	char *host;               /* authority of the URL, for messages */
	char *user;
	char *password;           /* wiped and freed after Login */
	char pin[GW_VS_THUMB_LEN];     /* normalised, "" when not pinning */
	char seen[GW_VS_THUMB_LEN];    /* leaf of the last handshake */
	char verify_reason[160];
	int pin_mismatch;
	int ctx_hook;             /* CURLOPT_SSL_CTX_FUNCTION accepted */
	int insecure;
	long connect_timeout, call_timeout;
	unsigned round_trips;
	int logged_in;
	int lost;                 /* last failure was the transport */
	char errbuf[CURL_ERROR_SIZE];
	char *api_type, *api_version, *full_name;
	char *root_folder, *property_collector, *session_manager;
	char *view_manager;
};

/* ---- small helpers --------------------------------------------------- */

static void
wipe_free(char *p)
{
	if (p) {
		OPENSSL_cleanse(p, strlen(p));
		free(p);
	}
}

static int
valid_text(const char *s, int allow_nl)
{
	const unsigned char *p;

	if (s == NULL)
		return 0;
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 && !(allow_nl && (*p == '\t' || *p == '\n' || *p == '\r')))
			return 0;
		else if (*p == 0x7f)
			return 0;
	return xmlCheckUTF8(X(s)) != 0;
}

/* Normalised "0000:3b:00.0" of a PCI id, "" when not one. */
static void
bdf_norm(const char *id, char out[20])
{
	unsigned d, b, s, f;

	out[0] = '\0';
	if (id && gw_bdf_parse(id, &d, &b, &s, &f) == 0)
		snprintf(out, 20, "%04x:%02x:%02x.%x", d, b, s, f);
}

static int
bdf_eq(const char *a, const char *b)
{
	char na[20], nb[20];

	bdf_norm(a, na);
	bdf_norm(b, nb);
	if (na[0] && nb[0])
		return strcmp(na, nb) == 0;
	return a && b && gw_strieq(a, b);
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- URL and thumbprints ------------------------------------------------ */

char *
gw_vs_normalize_url(const char *url, gw_err *e)
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

int
gw_vs_thumbprint_normalize(const char *in, char out[GW_VS_THUMB_LEN], gw_err *e)
{
	unsigned char bytes[64];
	size_t nb = 0;
	const char *p, *eq;
	int colons = -1;

	out[0] = '\0';
	if (in == NULL)
		in = "";
	while (isspace((unsigned char)*in))
		in++;
	eq = strrchr(in, '=');
	if (eq)
		in = eq + 1;
	else if (strncasecmp(in, "sha256:", 7) == 0)
		in = in + 7;
	while (isspace((unsigned char)*in))
		in++;
	p = in;
	while (*p && !isspace((unsigned char)*p)) {
		int hi = gw_hexval((unsigned char)p[0]), lo;

		lo = hi < 0 ? -1 : gw_hexval((unsigned char)p[1]);
		if (hi < 0 || lo < 0 || nb == sizeof bytes)
			goto bad;
		bytes[nb++] = (unsigned char)(hi << 4 | lo);
		p += 2;
		if (*p == ':') {
			if (colons == 0)
				goto bad;
			colons = 1;
			p++;
			if (*p == '\0' || isspace((unsigned char)*p))
				goto bad;
		} else if (*p && !isspace((unsigned char)*p)) {
			if (colons == 1)
				goto bad;
			colons = 0;
		}
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		goto bad;
	if (nb == 20) {
		gw_err_set(e, _("--thumbprint: this is a SHA-1 thumbprint (20 bytes); give the SHA-256 one (32 bytes), as `openssl x509 -noout -fingerprint -sha256` prints it"));
		return -1;
	}
	if (nb != 32) {
		gw_err_set(e, _("--thumbprint: expected a SHA-256 fingerprint, 32 bytes in hex (\"AA:BB:...\"), got %zu bytes"), nb);
		return -1;
	}
	for (size_t i = 0; i < nb; i++)
		snprintf(out + i * 3, 4, i + 1 < nb ? "%02X:" : "%02X", bytes[i]);
	return 0;
bad:
	gw_err_set(e, _("--thumbprint: expected a SHA-256 fingerprint in hex, like \"AA:BB:...\" (95 characters) or 64 hex digits"));
	return -1;
}

int
gw_vs_thumbprint_equal(const char *a, const char *b)
{
	char na[GW_VS_THUMB_LEN], nb[GW_VS_THUMB_LEN];

	if (gw_vs_thumbprint_normalize(a, na, NULL) != 0 ||
	    gw_vs_thumbprint_normalize(b, nb, NULL) != 0)
		return 0;
	return strcmp(na, nb) == 0;
}

void
gw_vs_thumbprint_of_der(const unsigned char *der, size_t len,
                        char out[GW_VS_THUMB_LEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	out[0] = '\0';
	if (EVP_Digest(der, len, md, &mdlen, EVP_sha256(), NULL) != 1 || mdlen != 32)
		return;
	for (unsigned i = 0; i < mdlen; i++)
		snprintf(out + i * 3, 4, i + 1 < mdlen ? "%02X:" : "%02X", md[i]);
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

/* ---- XML building ------------------------------------------------------- */

typedef struct req {
	xmlDocPtr doc;
	xmlNodePtr method;
	xmlNsPtr xsi;
} req;

static void
req_init(req *r, const char *method)
{
	xmlNodePtr env, body;
	xmlNsPtr soap, vim;

	r->doc = xmlNewDoc(X("1.0"));
	env = xmlNewDocNode(r->doc, NULL, X("Envelope"), NULL);
	soap = xmlNewNs(env, X(NS_SOAPENV), X("soapenv"));
	xmlSetNs(env, soap);
	xmlNewNs(env, X(NS_XSD), X("xsd"));
	r->xsi = xmlNewNs(env, X(NS_XSI), X("xsi"));
	xmlDocSetRootElement(r->doc, env);
	body = xmlNewChild(env, soap, X("Body"), NULL);
	r->method = xmlNewDocNode(r->doc, NULL, X(method), NULL);
	vim = xmlNewNs(r->method, X(NS_VIM), NULL);
	xmlSetNs(r->method, vim);
	xmlAddChild(body, r->method);
}

static xmlNodePtr
add_text(xmlNodePtr parent, const char *name, const char *text)
{
	return xmlNewTextChild(parent, NULL, X(name), X(text ? text : ""));
}

static xmlNodePtr
add_el(xmlNodePtr parent, const char *name)
{
	return xmlNewChild(parent, NULL, X(name), NULL);
}

static xmlNodePtr
add_moref(xmlNodePtr parent, const char *name, const char *type,
          const char *value)
{
	xmlNodePtr n = add_text(parent, name, value);

	xmlNewProp(n, X("type"), X(type));
	return n;
}

static void
set_xsi_type(req *r, xmlNodePtr n, const char *type)
{
	xmlNewNsProp(n, r->xsi, X("type"), X(type));
}

static char *
req_dump(req *r, size_t *len)
{
	xmlChar *mem = NULL;
	int n = 0;
	char *out;

	xmlDocDumpMemoryEnc(r->doc, &mem, &n, "UTF-8");
	out = gw_xstrndup(mem ? S(mem) : "", mem ? (size_t)n : 0);
	if (mem) {
		OPENSSL_cleanse(mem, (size_t)n);
		xmlFree(mem);
	}
	*len = strlen(out);
	return out;
}

static void
req_free(req *r)
{
	xmlFreeDoc(r->doc);
	r->doc = NULL;
}

/* ---- XML reading -------------------------------------------------------- */

static int
is_el(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE &&
	       (name == NULL || xmlStrEqual(n->name, X(name)));
}

static xmlNodePtr
next_el(xmlNodePtr n, const char *name)
{
	for (; n; n = n->next)
		if (is_el(n, name))
			return n;
	return NULL;
}

static xmlNodePtr
first_el(xmlNodePtr parent, const char *name)
{
	return parent ? next_el(parent->children, name) : NULL;
}

#define FOR_EL(var, parent, name) \
	for (xmlNodePtr var = first_el((parent), (name)); var; \
	     var = next_el(var->next, (name)))

/* Text of n (malloc'ed, never NULL for an element; NULL for NULL). */
static char *
el_text(xmlNodePtr n)
{
	xmlChar *c;
	char *out;

	if (n == NULL)
		return NULL;
	c = xmlNodeGetContent(n);
	out = gw_xstrdup(c ? S(c) : "");
	xmlFree(c);
	return out;
}

static char *
child_text(xmlNodePtr parent, const char *name)
{
	return el_text(first_el(parent, name));
}

static int
el_long(xmlNodePtr n, long long *out)
{
	char *t = el_text(n), *end;
	long long v;
	int rc = -1;

	if (t == NULL)
		return -1;
	errno = 0;
	v = strtoll(gw_trim(t), &end, 10);
	if (end != gw_trim(t) && *end == '\0' && errno == 0) {
		*out = v;
		rc = 0;
	}
	free(t);
	return rc;
}

static int
child_long(xmlNodePtr parent, const char *name, long long def)
{
	long long v;

	return el_long(first_el(parent, name), &v) == 0 ? (int)v : (int)def;
}

/* xs:short (signed) -> unsigned 16 bit. */
static unsigned
child_u16(xmlNodePtr parent, const char *name)
{
	long long v;

	if (el_long(first_el(parent, name), &v) != 0)
		return 0;
	return (unsigned)(v & 0xffff);
}

static int
el_bool(xmlNodePtr n)
{
	char *t = el_text(n);
	int v = -1;

	if (t) {
		gw_trim(t);
		if (strcmp(t, "true") == 0 || strcmp(t, "1") == 0)
			v = 1;
		else if (strcmp(t, "false") == 0 || strcmp(t, "0") == 0)
			v = 0;
		free(t);
	}
	return v;
}

static int
child_bool(xmlNodePtr parent, const char *name)
{
	return el_bool(first_el(parent, name));
}

/* xsi:type without its prefix (malloc'ed), NULL when absent. */
static char *
xsi_type(xmlNodePtr n)
{
	xmlChar *v;
	const char *colon;
	char *out;

	if (n == NULL)
		return NULL;
	v = xmlGetNsProp(n, X("type"), X(NS_XSI));
	if (v == NULL)
		return NULL;
	colon = strchr(S(v), ':');
	out = gw_xstrdup(colon ? colon + 1 : S(v));
	xmlFree(v);
	return out;
}

static int
xsi_type_is(xmlNodePtr n, const char *type)
{
	char *t = xsi_type(n);
	int r = t && strcmp(t, type) == 0;

	free(t);
	return r;
}

static char *
attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = n ? xmlGetProp(n, X(name)) : NULL;
	char *out = v ? gw_xstrdup(S(v)) : NULL;

	xmlFree(v);
	return out;
}

/* Parse a SOAP answer: the document and the first element in its Body. */
static int
parse_envelope(const char *text, size_t len, xmlDocPtr *docp,
               xmlNodePtr *elp)
{
	xmlDocPtr doc;
	xmlNodePtr root, body, el;

	*docp = NULL;
	*elp = NULL;
	if (len == 0 || len > INT_MAX)
		return -1;
	doc = xmlReadMemory(text, (int)len, "answer.xml", NULL,
	                    XML_PARSE_NONET | XML_PARSE_NOERROR |
	                    XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
	if (doc == NULL)
		return -1;
	root = xmlDocGetRootElement(doc);
	if (!is_el(root, "Envelope") || root->ns == NULL ||
	    !xmlStrEqual(root->ns->href, X(NS_SOAPENV)) ||
	    (body = first_el(root, "Body")) == NULL ||
	    (el = first_el(body, NULL)) == NULL) {
		xmlFreeDoc(doc);
		return -1;
	}
	*docp = doc;
	*elp = el;
	return 0;
}

static int
is_fault_el(xmlNodePtr el)
{
	return is_el(el, "Fault") && el->ns &&
	       xmlStrEqual(el->ns->href, X(NS_SOAPENV));
}

static void
fault_from_el(xmlNodePtr el, gw_vs_fault *f)
{
	xmlNodePtr detail = first_el(el, "detail"), d;

	f->type = NULL;
	f->message = child_text(el, "faultstring");
	if (f->message && *gw_trim(f->message) == '\0') {
		free(f->message);
		f->message = NULL;
	}
	d = first_el(detail, NULL);
	if (d) {
		f->type = xsi_type(d);
		if (f->type == NULL) {
			size_t n = strlen(S(d->name));

			if (n > 5 && strcmp(S(d->name) + n - 5, "Fault") == 0)
				f->type = gw_xstrndup(S(d->name), n - 5);
			else
				f->type = gw_xstrdup(S(d->name));
		}
	}
}

void
gw_vs_fault_free(gw_vs_fault *f)
{
	if (f == NULL)
		return;
	free(f->type);
	free(f->message);
	f->type = f->message = NULL;
}

int
gw_vs_parse_fault(const char *text, size_t len, gw_vs_fault *fault, gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;

	fault->type = fault->message = NULL;
	if (parse_envelope(text, len, &doc, &el) != 0) {
		gw_err_set(e, _("the answer is not a SOAP envelope"));
		return -1;
	}
	if (!is_fault_el(el)) {
		xmlFreeDoc(doc);
		return 0;
	}
	fault_from_el(el, fault);
	xmlFreeDoc(doc);
	return 1;
}

/* ---- HTTP --------------------------------------------------------------- */

static size_t
write_cb(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	gw_buf *b = userdata;
	size_t n = size * nmemb;

	if (b->len + n > MAX_ANSWER)
		return 0;
	gw_buf_add(b, ptr, n);
	return n;
}

static void
set_soap_action(gw_vs *s)
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
http_error(gw_vs *s, CURLcode rc, const char *method, gw_err *e)
{
	const char *why = s->errbuf[0] ? s->errbuf : curl_easy_strerror(rc);
	s->lost = 0;
	if (s->pin_mismatch) {
		gw_err_set(e, _("the certificate of %s does not match --thumbprint: expected %s, got %s; nothing was sent (if the certificate was replaced on purpose, check the new one and pin it)"),
		           s->host, s->pin, s->seen[0] ? s->seen : "?");
		return -1;
	}
	switch (rc) {
	case CURLE_PEER_FAILED_VERIFICATION:
#if LIBCURL_VERSION_NUM < 0x073e00
	case CURLE_SSL_CACERT:
#endif
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
			double t = 0;

			curl_easy_getinfo(s->curl, CURLINFO_APPCONNECT_TIME, &t);
			if (t <= 0)
				gw_err_set(e, _("no connection to %s within %ld s (connect timeout)"),
				           s->host, s->connect_timeout);
			else
				gw_err_set(e, _("%s did not answer %s within %ld s"),
				           s->host, method, s->call_timeout);
		}
		return -1;
	case CURLE_WRITE_ERROR:
		gw_err_set(e, _("the answer of %s to %s is larger than %u MiB"),
		           s->host, method, MAX_ANSWER >> 20);
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

/* One call.  0: *doc and *el (first element of the Body) set; 1: a SOAP
 * fault, in *fault, and a generic line in e; -1: e set. */
static int
vs_call(gw_vs *s, const char *method, req *r, int secret, xmlDocPtr *doc,
        xmlNodePtr *el, gw_vs_fault *fault, gw_err *e)
{
	gw_buf ans;
	char *body;
	size_t len;
	CURLcode rc;
	long code = 0;
	int ret;

	*doc = NULL;
	*el = NULL;
	fault->type = fault->message = NULL;
	body = req_dump(r, &len);
	gw_buf_init(&ans);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDSIZE, (long)len);
	curl_easy_setopt(s->curl, CURLOPT_WRITEDATA, &ans);
	s->errbuf[0] = '\0';
	s->pin_mismatch = 0;
	s->verify_reason[0] = '\0';
	s->lost = 0;
	s->round_trips++;
	rc = curl_easy_perform(s->curl);
	curl_easy_setopt(s->curl, CURLOPT_POSTFIELDS, NULL);
	if (secret)
		OPENSSL_cleanse(body, len);
	free(body);
	if (rc != CURLE_OK) {
		gw_buf_free(&ans);
		return http_error(s, rc, method, e);
	}
	curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &code);
	if ((code != 200 && code != 500) ||
	    parse_envelope(ans.data ? ans.data : "", ans.len, doc, el) != 0) {
		if (code == 503)
			gw_err_set(e, _("%s is not ready (HTTP 503): vCenter may still be starting; try again in a few minutes"), s->host);
		else if (code == 200 || code == 500)
			gw_err_set(e, _("%s is not a vSphere endpoint: its answer to %s is not a SOAP envelope (is the URL https://HOST/sdk?)"),
			           s->url, method);
		else
			gw_err_set(e, _("%s is not a vSphere endpoint: HTTP %ld to %s (is the URL https://HOST/sdk?)"),
			           s->url, code, method);
		gw_buf_free(&ans);
		return -1;
	}
	gw_buf_free(&ans);
	ret = 0;
	if (is_fault_el(*el)) {
		fault_from_el(*el, fault);
		if (fault->type && strcmp(fault->type, "NotAuthenticated") == 0 &&
		    s->logged_in)
			gw_err_set(e, _("%s: the session has expired or was ended (%s); log in again"),
			           s->host, method);
		else
			gw_err_set(e, _("%s refused %s: %s"), s->host, method,
			           fault->message ? fault->message :
			           fault->type ? fault->type : _("no reason given"));
		xmlFreeDoc(*doc);
		*doc = NULL;
		*el = NULL;
		ret = 1;
	}
	return ret;
}

/* vs_call for callers that treat every fault alike. */
static int
vs_call_simple(gw_vs *s, const char *method, req *r, xmlDocPtr *doc,
               xmlNodePtr *el, gw_err *e)
{
	gw_vs_fault f;
	int rc = vs_call(s, method, r, 0, doc, el, &f, e);

	gw_vs_fault_free(&f);
	return rc == 0 ? 0 : -1;
}

/* ---- session ------------------------------------------------------------ */

static void
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

gw_vs *
gw_vs_new(const gw_vs_opts *o, gw_err *e)
{
	gw_vs *s;
	char *url;
	const char *auth;
	size_t n;
	const curl_version_info_data *vi;

	if (o == NULL) {
		gw_err_set(e, _("no vSphere connection options"));
		return NULL;
	}
	url = gw_vs_normalize_url(o->url, e);
	if (url == NULL)
		return NULL;
	if (o->user == NULL || *o->user == '\0' || !valid_text(o->user, 0)) {
		gw_err_set(e, _("--user: give the vSphere user name (\"administrator@vsphere.local\", \"root\")"));
		free(url);
		return NULL;
	}
	if (o->password == NULL || !valid_text(o->password, 0)) {
		gw_err_set(e, _("the password is missing or holds control characters"));
		free(url);
		return NULL;
	}
	if (o->insecure && o->thumbprint) {
		gw_err_set(e, _("--thumbprint and --insecure exclude each other"));
		free(url);
		return NULL;
	}
	vs_global_init();
	s = gw_xcalloc(1, sizeof *s);
	s->url = url;
	auth = url + strlen("https://");
	n = strcspn(auth, "/");
	s->host = gw_xstrndup(auth, n);
	if (o->thumbprint && gw_vs_thumbprint_normalize(o->thumbprint, s->pin, e) != 0) {
		gw_vs_close(s);
		return NULL;
	}
	s->user = gw_xstrdup(o->user);
	s->password = gw_xstrdup(o->password);
	s->insecure = o->insecure;
	s->connect_timeout = o->connect_timeout > 0 ? o->connect_timeout : 10;
	s->call_timeout = o->call_timeout > 0 ? o->call_timeout : 60;
	s->api_type = gw_xstrdup("");
	s->api_version = gw_xstrdup("");
	s->full_name = gw_xstrdup("");
	s->curl = curl_easy_init();
	if (s->curl == NULL) {
		gw_err_set(e, _("cannot start libcurl"));
		gw_vs_close(s);
		return NULL;
	}
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
	curl_easy_setopt(s->curl, CURLOPT_CONNECTTIMEOUT, s->connect_timeout);
	curl_easy_setopt(s->curl, CURLOPT_TIMEOUT, s->call_timeout);
	curl_easy_setopt(s->curl, CURLOPT_COOKIEFILE, "");
	curl_easy_setopt(s->curl, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(s->curl, CURLOPT_USERAGENT, "gpuwiz/" PACKAGE_VERSION);
	if (o->cafile)
		curl_easy_setopt(s->curl, CURLOPT_CAINFO, o->cafile);
	vi = curl_version_info(CURLVERSION_NOW);
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
			gw_vs_close(s);
			return NULL;
		}
		/* The handshake's verify callback decides by the pin. */
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYHOST, 0L);
	} else {
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(s->curl, CURLOPT_SSL_VERIFYHOST, 2L);
	}
	set_soap_action(s);
	return s;
}

static void
set_str(char **dst, char *val)
{
	free(*dst);
	*dst = val;
}

static int
retrieve_service_content(gw_vs *s, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el, rv, about;
	int rc;

	req_init(&r, "RetrieveServiceContent");
	add_moref(r.method, "_this", "ServiceInstance", "ServiceInstance");
	rc = vs_call_simple(s, "RetrieveServiceContent", &r, &doc, &el, e);
	req_free(&r);
	if (rc != 0)
		return -1;
	rv = first_el(el, "returnval");
	about = first_el(rv, "about");
	set_str(&s->root_folder, child_text(rv, "rootFolder"));
	set_str(&s->property_collector, child_text(rv, "propertyCollector"));
	set_str(&s->session_manager, child_text(rv, "sessionManager"));
	set_str(&s->view_manager, child_text(rv, "viewManager"));
	set_str(&s->api_type, child_text(about, "apiType"));
	set_str(&s->api_version, child_text(about, "apiVersion"));
	set_str(&s->full_name, child_text(about, "fullName"));
	xmlFreeDoc(doc);
	if (!s->api_version || !*s->api_version || !s->root_folder ||
	    !*s->root_folder || !s->property_collector || !s->session_manager ||
	    !s->view_manager) {
		gw_err_set(e, _("%s is not a vSphere endpoint: its service content lacks the API version or the managers gpuwiz needs"),
		           s->url);
		if (!s->api_version)
			s->api_version = gw_xstrdup("");
		if (!s->api_type)
			s->api_type = gw_xstrdup("");
		if (!s->full_name)
			s->full_name = gw_xstrdup("");
		return -1;
	}
	if (!s->full_name)
		s->full_name = gw_xstrdup("");
	if (!s->api_type)
		s->api_type = gw_xstrdup("");
	set_soap_action(s);
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
	req_init(&r, "Login");
	add_moref(r.method, "_this", "SessionManager", s->session_manager);
	add_text(r.method, "userName", s->user);
	pw = add_text(r.method, "password", s->password);
	wipe_free(s->password);
	s->password = NULL;
	rc = vs_call(s, "Login", &r, 1, &doc, &el, &f, e);
	if (pw && pw->children && pw->children->content)
		OPENSSL_cleanse(pw->children->content,
		                strlen(S(pw->children->content)));
	req_free(&r);
	if (rc == 1) {
		if (f.type && strcmp(f.type, "InvalidLogin") == 0)
			gw_err_set(e, _("login to %s as %s failed: wrong user name or password"),
			           s->host, s->user);
		else if (f.type && strcmp(f.type, "NoPermission") == 0)
			gw_err_set(e, _("login to %s as %s failed: the user has no permission to log in"),
			           s->host, s->user);
		else
			gw_err_set(e, _("login to %s as %s failed: %s"), s->host,
			           s->user, f.message ? f.message :
			           f.type ? f.type : _("no reason given"));
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
	gw_vs *s = gw_vs_new(o, e);

	if (s == NULL)
		return NULL;
	if (gw_vs_login(s, e) != 0) {
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

		req_init(&r, "Logout");
		add_moref(r.method, "_this", "SessionManager", s->session_manager);
		/* Quick: the session ends anyway when the server times it out. */
		curl_easy_setopt(s->curl, CURLOPT_TIMEOUT, s->call_timeout < 10 ? s->call_timeout : 10L);
		if (vs_call_simple(s, "Logout", &r, &doc, &el, &ignore) == 0)
			xmlFreeDoc(doc);
		req_free(&r);
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
gw_vs_api_version(const gw_vs *s)
{
	return s && s->api_version ? s->api_version : "";
}

const char *
gw_vs_full_name(const gw_vs *s)
{
	return s && s->full_name ? s->full_name : "";
}

const char *
gw_vs_url(const gw_vs *s)
{
	return s ? s->url : "";
}

const char *
gw_vs_server_thumbprint(const gw_vs *s)
{
	return s ? s->seen : "";
}

/* ---- inventory parsing -------------------------------------------------- */

struct gw_vs_parse_state {
	char **hp_host, **hp_parent;    /* host -> parent compute resource */
	size_t nhp;
	char **cr, **cr_env;            /* compute resource -> env browser */
	size_t ncr;
};

gw_vs_parse_state *
gw_vs_parse_state_new(void)
{
	return gw_xcalloc(1, sizeof(gw_vs_parse_state));
}

void
gw_vs_parse_state_free(gw_vs_parse_state *ps)
{
	if (ps == NULL)
		return;
	for (size_t i = 0; i < ps->nhp; i++) {
		free(ps->hp_host[i]);
		free(ps->hp_parent[i]);
	}
	for (size_t i = 0; i < ps->ncr; i++) {
		free(ps->cr[i]);
		free(ps->cr_env[i]);
	}
	free(ps->hp_host);
	free(ps->hp_parent);
	free(ps->cr);
	free(ps->cr_env);
	free(ps);
}

static void
pci_free(gw_vs_pci *p)
{
	free(p->id);
	free(p->vendor_name);
	free(p->device_name);
	free(p->system_id);
}

static void
host_free(gw_vs_host *h)
{
	free(h->moref);
	free(h->name);
	free(h->version);
	free(h->build);
	free(h->passthru_moref);
	free(h->envbrowser_moref);
	for (size_t i = 0; i < h->npci; i++)
		pci_free(&h->pci[i]);
	free(h->pci);
}

static void
dev_free(gw_vs_dev *d)
{
	free(d->label);
	free(d->id);
	free(d->system_id);
	free(d->vgpu);
}

static void
vm_free(gw_vs_vm *v)
{
	free(v->moref);
	free(v->name);
	free(v->host_moref);
	free(v->firmware);
	for (size_t i = 0; i < v->nec; i++) {
		free(v->ec_keys[i]);
		free(v->ec_vals[i]);
	}
	free(v->ec_keys);
	free(v->ec_vals);
	for (size_t i = 0; i < v->ndevs; i++)
		dev_free(&v->devs[i]);
	free(v->devs);
	free(v->vmx_path);
}

void
gw_vs_inventory_free(gw_vs_inventory *inv)
{
	if (inv == NULL)
		return;
	for (size_t i = 0; i < inv->nhosts; i++)
		host_free(&inv->hosts[i]);
	for (size_t i = 0; i < inv->nvms; i++)
		vm_free(&inv->vms[i]);
	free(inv->hosts);
	free(inv->vms);
	memset(inv, 0, sizeof *inv);
}

gw_vs_power
gw_vs_power_parse(const char *s)
{
	if (s == NULL)
		return GW_VS_POWER_UNKNOWN;
	if (strcmp(s, "poweredOn") == 0)
		return GW_VS_POWER_ON;
	if (strcmp(s, "poweredOff") == 0)
		return GW_VS_POWER_OFF;
	if (strcmp(s, "suspended") == 0)
		return GW_VS_POWER_SUSPENDED;
	return GW_VS_POWER_UNKNOWN;
}

const char *
gw_vs_power_name(gw_vs_power p)
{
	switch (p) {
	case GW_VS_POWER_ON: return "on";
	case GW_VS_POWER_OFF: return "off";
	case GW_VS_POWER_SUSPENDED: return "suspended";
	default: return "unknown";
	}
}

static char *
nonempty(char *s)
{
	if (s && *s == '\0') {
		free(s);
		return NULL;
	}
	return s;
}

static void
parse_host_object(xmlNodePtr obj, gw_vs_parse_state *ps, gw_vs_inventory *inv)
{
	gw_vs_host h;
	xmlNodePtr pinfo = NULL;
	char *parent = NULL;

	memset(&h, 0, sizeof h);
	h.moref = child_text(obj, "obj");
	FOR_EL(p, obj, "propSet") {
		char *name = child_text(p, "name");
		xmlNodePtr val = first_el(p, "val");

		if (name == NULL || val == NULL) {
			free(name);
			continue;
		}
		if (strcmp(name, "name") == 0) {
			set_str(&h.name, el_text(val));
		} else if (strcmp(name, "hardware.pciDevice") == 0) {
			size_t n = 0;

			FOR_EL(d, val, NULL)
				n++;
			for (size_t i = 0; i < h.npci; i++)
				pci_free(&h.pci[i]);
			free(h.pci);
			h.pci = gw_xcalloc(n ? n : 1, sizeof *h.pci);
			h.npci = 0;
			FOR_EL(d, val, NULL) {
				gw_vs_pci *c = &h.pci[h.npci++];

				c->id = child_text(d, "id");
				c->class_id = child_u16(d, "classId");
				c->vendor = child_u16(d, "vendorId");
				c->device = child_u16(d, "deviceId");
				c->subvendor = child_u16(d, "subVendorId");
				c->subdevice = child_u16(d, "subDeviceId");
				c->vendor_name = child_text(d, "vendorName");
				c->device_name = child_text(d, "deviceName");
				c->passthru_capable = c->passthru_enabled =
					c->passthru_active = -1;
			}
		} else if (strcmp(name, "config.pciPassthruInfo") == 0) {
			pinfo = val;
		} else if (strcmp(name, "config.product") == 0 ||
		           (strcmp(name, "summary.config.product") == 0 && !h.version)) {
			set_str(&h.version, nonempty(child_text(val, "version")));
			set_str(&h.build, nonempty(child_text(val, "build")));
		} else if (strcmp(name, "configManager.pciPassthruSystem") == 0) {
			set_str(&h.passthru_moref, nonempty(el_text(val)));
		} else if (strcmp(name, "parent") == 0) {
			set_str(&parent, nonempty(el_text(val)));
		}
		free(name);
	}
	if (pinfo) {
		for (size_t i = 0; i < h.npci; i++) {
			gw_vs_pci *c = &h.pci[i];

			/* Listed: known; not listed: not capable. */
			c->passthru_capable = c->passthru_enabled = c->passthru_active = 0;
			FOR_EL(pi, pinfo, NULL) {
				char *id = child_text(pi, "id");

				if (id && bdf_eq(id, c->id)) {
					int v;

					v = child_bool(pi, "passthruCapable");
					c->passthru_capable = v < 0 ? 0 : v;
					v = child_bool(pi, "passthruEnabled");
					c->passthru_enabled = v < 0 ? 0 : v;
					v = child_bool(pi, "passthruActive");
					c->passthru_active = v < 0 ? 0 : v;
					free(id);
					break;
				}
				free(id);
			}
		}
	}
	if (h.name == NULL)
		h.name = gw_xstrdup(h.moref ? h.moref : "");
	if (h.moref == NULL)
		h.moref = gw_xstrdup("");
	if (parent) {
		ps->hp_host = gw_xrealloc(ps->hp_host, (ps->nhp + 1) * sizeof *ps->hp_host);
		ps->hp_parent = gw_xrealloc(ps->hp_parent, (ps->nhp + 1) * sizeof *ps->hp_parent);
		ps->hp_host[ps->nhp] = gw_xstrdup(h.moref);
		ps->hp_parent[ps->nhp] = parent;
		ps->nhp++;
	}
	inv->hosts = gw_xrealloc(inv->hosts, (inv->nhosts + 1) * sizeof *inv->hosts);
	inv->hosts[inv->nhosts++] = h;
}

static void
parse_vm_device(xmlNodePtr d, gw_vs_vm *v)
{
	xmlNodePtr backing = first_el(d, "backing");
	gw_vs_dev dev;
	char *btype;

	if (!xsi_type_is(d, "VirtualPCIPassthrough"))
		return;
	memset(&dev, 0, sizeof dev);
	dev.key = child_long(d, "key", 0);
	dev.label = nonempty(child_text(first_el(d, "deviceInfo"), "label"));
	btype = xsi_type(backing);
	if (btype && strcmp(btype, "VirtualPCIPassthroughVmiopBackingInfo") == 0) {
		dev.vgpu = nonempty(child_text(backing, "vgpu"));
	} else if (btype && strcmp(btype, "VirtualPCIPassthroughDeviceBackingInfo") == 0) {
		char *did = child_text(backing, "deviceId");

		dev.id = nonempty(child_text(backing, "id"));
		dev.vendor = child_u16(backing, "vendorId");
		dev.system_id = nonempty(child_text(backing, "systemId"));
		if (did) {
			char *t = gw_trim(did), *end;
			unsigned long x;

			if (strncasecmp(t, "0x", 2) == 0)
				t += 2;
			x = strtoul(t, &end, 16);
			if (end != t && *end == '\0')
				dev.device = (unsigned)(x & 0xffff);
			free(did);
		}
	} else if (btype && strcmp(btype, "VirtualPCIPassthroughDynamicBackingInfo") == 0) {
		xmlNodePtr a = first_el(backing, "allowedDevice");

		dev.vendor = child_u16(a, "vendorId");
		dev.device = child_u16(a, "deviceId");
	}
	free(btype);
	v->devs = gw_xrealloc(v->devs, (v->ndevs + 1) * sizeof *v->devs);
	v->devs[v->ndevs++] = dev;
}

static void
parse_vm_object(xmlNodePtr obj, gw_vs_inventory *inv)
{
	gw_vs_vm v;

	memset(&v, 0, sizeof v);
	v.reserve_locked = -1;
	v.moref = child_text(obj, "obj");
	FOR_EL(p, obj, "propSet") {
		char *name = child_text(p, "name");
		xmlNodePtr val = first_el(p, "val");

		if (name == NULL || val == NULL) {
			free(name);
			continue;
		}
		if (strcmp(name, "name") == 0) {
			set_str(&v.name, el_text(val));
		} else if (strcmp(name, "config.version") == 0) {
			char *t = el_text(val);
			unsigned long long hw;

			if (t && strncmp(t, "vmx-", 4) == 0 &&
			    gw_parse_uint(t + 4, 999, &hw) == 0)
				v.hw_version = (int)hw;
			free(t);
		} else if (strcmp(name, "config.firmware") == 0) {
			set_str(&v.firmware, nonempty(el_text(val)));
		} else if (strcmp(name, "config.hardware.memoryMB") == 0) {
			long long mb;

			if (el_long(val, &mb) == 0 && mb > 0)
				v.memory_mb = (long)mb;
		} else if (strcmp(name, "config.memoryReservationLockedToMax") == 0) {
			v.reserve_locked = el_bool(val);
		} else if (strcmp(name, "config.extraConfig") == 0) {
			FOR_EL(o, val, NULL) {
				char *k = child_text(o, "key");

				if (k == NULL)
					continue;
				v.ec_keys = gw_xrealloc(v.ec_keys, (v.nec + 1) * sizeof *v.ec_keys);
				v.ec_vals = gw_xrealloc(v.ec_vals, (v.nec + 1) * sizeof *v.ec_vals);
				v.ec_keys[v.nec] = k;
				v.ec_vals[v.nec] = child_text(o, "value");
				if (v.ec_vals[v.nec] == NULL)
					v.ec_vals[v.nec] = gw_xstrdup("");
				v.nec++;
			}
		} else if (strcmp(name, "config.hardware.device") == 0) {
			FOR_EL(d, val, NULL)
				parse_vm_device(d, &v);
		} else if (strcmp(name, "runtime.powerState") == 0) {
			char *t = el_text(val);

			v.power = gw_vs_power_parse(t ? gw_trim(t) : NULL);
			free(t);
		} else if (strcmp(name, "runtime.host") == 0) {
			set_str(&v.host_moref, nonempty(el_text(val)));
		} else if (strcmp(name, "config.files.vmPathName") == 0) {
			set_str(&v.vmx_path, nonempty(el_text(val)));
		}
		free(name);
	}
	if (v.moref == NULL)
		v.moref = gw_xstrdup("");
	if (v.name == NULL)
		v.name = gw_xstrdup(v.moref);
	inv->vms = gw_xrealloc(inv->vms, (inv->nvms + 1) * sizeof *inv->vms);
	inv->vms[inv->nvms++] = v;
}

static void
parse_cr_object(xmlNodePtr obj, gw_vs_parse_state *ps)
{
	char *moref = child_text(obj, "obj");

	FOR_EL(p, obj, "propSet") {
		char *name = child_text(p, "name");

		if (name && strcmp(name, "environmentBrowser") == 0 && moref) {
			char *env = nonempty(el_text(first_el(p, "val")));

			if (env) {
				ps->cr = gw_xrealloc(ps->cr, (ps->ncr + 1) * sizeof *ps->cr);
				ps->cr_env = gw_xrealloc(ps->cr_env, (ps->ncr + 1) * sizeof *ps->cr_env);
				ps->cr[ps->ncr] = gw_xstrdup(moref);
				ps->cr_env[ps->ncr] = env;
				ps->ncr++;
			}
		}
		free(name);
	}
	free(moref);
}

/* Objects of a RetrieveResult (returnval) into inv. */
static void
parse_retrieve_result(xmlNodePtr rv, gw_vs_parse_state *ps,
                      gw_vs_inventory *inv, char **token)
{
	if (token) {
		*token = nonempty(child_text(rv, "token"));
	}
	FOR_EL(obj, rv, "objects") {
		char *type = attr(first_el(obj, "obj"), "type");

		if (type == NULL) {
			continue;
		} else if (strcmp(type, "HostSystem") == 0) {
			parse_host_object(obj, ps, inv);
		} else if (strcmp(type, "VirtualMachine") == 0) {
			parse_vm_object(obj, inv);
		} else {
			parse_cr_object(obj, ps);
		}
		free(type);
	}
}

int
gw_vs_parse_inventory_page(gw_vs_parse_state *ps, const char *text,
                           size_t len, gw_vs_inventory *inv, char **token,
                           gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;

	if (token)
		*token = NULL;
	if (parse_envelope(text, len, &doc, &el) != 0) {
		gw_err_set(e, _("the answer is not a SOAP envelope"));
		return -1;
	}
	if (is_fault_el(el)) {
		gw_vs_fault f;

		fault_from_el(el, &f);
		gw_err_set(e, _("the server refused %s: %s"), "RetrievePropertiesEx",
		           f.message ? f.message : f.type ? f.type : _("no reason given"));
		gw_vs_fault_free(&f);
		xmlFreeDoc(doc);
		return -1;
	}
	/* An empty result has no returnval at all. */
	parse_retrieve_result(first_el(el, "returnval"), ps, inv, token);
	xmlFreeDoc(doc);
	return 0;
}

static int
cmp_host(const void *a, const void *b)
{
	const gw_vs_host *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->moref, y->moref);
}

static int
cmp_vm(const void *a, const void *b)
{
	const gw_vs_vm *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->moref, y->moref);
}

void
gw_vs_parse_inventory_finish(gw_vs_parse_state *ps, gw_vs_inventory *inv)
{
	for (size_t i = 0; i < inv->nhosts; i++) {
		gw_vs_host *h = &inv->hosts[i];

		for (size_t j = 0; j < ps->nhp && !h->envbrowser_moref; j++) {
			if (strcmp(ps->hp_host[j], h->moref) != 0)
				continue;
			for (size_t k = 0; k < ps->ncr; k++)
				if (strcmp(ps->cr[k], ps->hp_parent[j]) == 0) {
					h->envbrowser_moref = gw_xstrdup(ps->cr_env[k]);
					break;
				}
		}
	}
	if (inv->nhosts > 1)
		qsort(inv->hosts, inv->nhosts, sizeof *inv->hosts, cmp_host);
	if (inv->nvms > 1)
		qsort(inv->vms, inv->nvms, sizeof *inv->vms, cmp_vm);
}

/* systemIds from a QueryConfigTarget answer element. */
static void
config_target_from_el(xmlNodePtr el, gw_vs_host *h)
{
	FOR_EL(pp, first_el(el, "returnval"), "pciPassthrough") {
		char *id = child_text(first_el(pp, "pciDevice"), "id");
		char *sys = nonempty(child_text(pp, "systemId"));

		for (size_t i = 0; id && sys && i < h->npci; i++)
			if (bdf_eq(h->pci[i].id, id)) {
				set_str(&h->pci[i].system_id, gw_xstrdup(sys));
				break;
			}
		free(id);
		free(sys);
	}
}

int
gw_vs_parse_config_target(const char *text, size_t len, gw_vs_host *h,
                          gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;

	if (parse_envelope(text, len, &doc, &el) != 0) {
		gw_err_set(e, _("the answer is not a SOAP envelope"));
		return -1;
	}
	if (is_fault_el(el)) {
		gw_vs_fault f;

		fault_from_el(el, &f);
		gw_err_set(e, _("the server refused %s: %s"), "QueryConfigTarget",
		           f.message ? f.message : f.type ? f.type : _("no reason given"));
		gw_vs_fault_free(&f);
		xmlFreeDoc(doc);
		return -1;
	}
	config_target_from_el(el, h);
	xmlFreeDoc(doc);
	return 0;
}

/* ---- inventory: the calls ------------------------------------------------ */

static const char *const host_paths[] = {
	"name", "hardware.pciDevice", "config.pciPassthruInfo", "config.product",
	"configManager.pciPassthruSystem", "parent", NULL
};
static const char *const vm_paths[] = {
	"name", "config.version", "config.firmware", "config.hardware.memoryMB",
	"config.memoryReservationLockedToMax", "config.extraConfig",
	"config.hardware.device", "runtime.powerState", "runtime.host",
	"config.files.vmPathName", NULL
};

static void
add_prop_spec(xmlNodePtr spec, const char *type, const char *const *paths)
{
	xmlNodePtr ps = add_el(spec, "propSet");

	add_text(ps, "type", type);
	add_text(ps, "all", "false");
	for (; *paths; paths++)
		add_text(ps, "pathSet", *paths);
}

/* Run a retrieve-like call and feed its returnval to the parser. */
static int
inventory_call(gw_vs *s, const char *method, req *r, gw_vs_parse_state *ps,
               gw_vs_inventory *inv, char **token, gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;

	if (vs_call_simple(s, method, r, &doc, &el, e) != 0)
		return -1;
	parse_retrieve_result(first_el(el, "returnval"), ps, inv, token);
	xmlFreeDoc(doc);
	return 0;
}

static int
query_config_target(gw_vs *s, gw_vs_host *h, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el;
	gw_vs_fault f;
	int rc;

	req_init(&r, "QueryConfigTarget");
	add_moref(r.method, "_this", "EnvironmentBrowser", h->envbrowser_moref);
	add_moref(r.method, "host", "HostSystem", h->moref);
	rc = vs_call(s, "QueryConfigTarget", &r, 0, &doc, &el, &f, e);
	req_free(&r);
	gw_vs_fault_free(&f);
	if (rc == 1)
		return 0;       /* no systemIds: not fatal */
	if (rc != 0)
		return -1;
	config_target_from_el(el, h);
	xmlFreeDoc(doc);
	return 0;
}

int
gw_vs_inventory_get(gw_vs *s, gw_vs_inventory *inv, gw_err *e)
{
	req r;
	xmlDocPtr doc;
	xmlNodePtr el, spec, os, sel;
	char *view = NULL, *token = NULL;
	gw_vs_parse_state *ps;
	int rc = -1;

	memset(inv, 0, sizeof *inv);
	if (s == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	/* 1. a view of every host, VM and compute resource */
	req_init(&r, "CreateContainerView");
	add_moref(r.method, "_this", "ViewManager", s->view_manager);
	add_moref(r.method, "container", "Folder", s->root_folder);
	add_text(r.method, "type", "HostSystem");
	add_text(r.method, "type", "VirtualMachine");
	add_text(r.method, "type", "ComputeResource");
	add_text(r.method, "recursive", "true");
	if (vs_call_simple(s, "CreateContainerView", &r, &doc, &el, e) != 0) {
		req_free(&r);
		return -1;
	}
	req_free(&r);
	view = nonempty(child_text(el, "returnval"));
	xmlFreeDoc(doc);
	if (view == NULL) {
		gw_err_set(e, _("%s: CreateContainerView returned no view"), s->host);
		return -1;
	}
	/* 2. their properties, page by page */
	ps = gw_vs_parse_state_new();
	req_init(&r, "RetrievePropertiesEx");
	add_moref(r.method, "_this", "PropertyCollector", s->property_collector);
	spec = add_el(r.method, "specSet");
	add_prop_spec(spec, "HostSystem", host_paths);
	{
		static const char *const cr_paths[] = { "environmentBrowser", NULL };

		add_prop_spec(spec, "ComputeResource", cr_paths);
	}
	add_prop_spec(spec, "VirtualMachine", vm_paths);
	os = add_el(spec, "objectSet");
	add_moref(os, "obj", "ContainerView", view);
	add_text(os, "skip", "true");
	sel = add_el(os, "selectSet");
	set_xsi_type(&r, sel, "TraversalSpec");
	add_text(sel, "name", "traverseView");
	add_text(sel, "type", "ContainerView");
	add_text(sel, "path", "view");
	add_text(sel, "skip", "false");
	add_el(r.method, "options");
	rc = inventory_call(s, "RetrievePropertiesEx", &r, ps, inv, &token, e);
	req_free(&r);
	while (rc == 0 && token) {
		req_init(&r, "ContinueRetrievePropertiesEx");
		add_moref(r.method, "_this", "PropertyCollector", s->property_collector);
		add_text(r.method, "token", token);
		free(token);
		token = NULL;
		rc = inventory_call(s, "ContinueRetrievePropertiesEx", &r, ps, inv,
		                    &token, e);
		req_free(&r);
	}
	free(token);
	/* 3. the view is not needed any more (errors ignored: the session's
	 * end destroys it anyway) */
	{
		gw_err ignore;

		req_init(&r, "DestroyView");
		add_moref(r.method, "_this", "ContainerView", view);
		if (vs_call_simple(s, "DestroyView", &r, &doc, &el,
		                   rc == 0 ? e : &ignore) == 0)
			xmlFreeDoc(doc);
		else if (rc == 0 && s->lost)
			rc = -1;
		req_free(&r);
	}
	free(view);
	if (rc == 0) {
		gw_vs_parse_inventory_finish(ps, inv);
		/* 4. systemIds of the hosts with passthrough devices */
		for (size_t i = 0; rc == 0 && i < inv->nhosts; i++) {
			gw_vs_host *h = &inv->hosts[i];
			int want = 0;

			for (size_t j = 0; j < h->npci; j++)
				if (h->pci[j].passthru_enabled != 0)
					want = 1;
			if (want && h->envbrowser_moref)
				rc = query_config_target(s, h, e);
		}
	}
	gw_vs_parse_state_free(ps);
	if (rc != 0)
		gw_vs_inventory_free(inv);
	return rc;
}

const gw_vs_vm *
gw_vs_find_vm(const gw_vs_inventory *inv, const char *name_or_moref)
{
	const gw_vs_vm *hit = NULL;
	size_t n = 0;

	if (inv == NULL || name_or_moref == NULL)
		return NULL;
	for (size_t i = 0; i < inv->nvms; i++)
		if (strcmp(inv->vms[i].moref, name_or_moref) == 0)
			return &inv->vms[i];
	for (size_t i = 0; i < inv->nvms; i++)
		if (strcmp(inv->vms[i].name, name_or_moref) == 0)
			return &inv->vms[i];
	for (size_t i = 0; i < inv->nvms; i++)
		if (gw_strieq(inv->vms[i].name, name_or_moref)) {
			hit = &inv->vms[i];
			n++;
		}
	return n == 1 ? hit : NULL;
}

const gw_vs_host *
gw_vs_find_host(const gw_vs_inventory *inv, const char *moref)
{
	if (inv == NULL || moref == NULL)
		return NULL;
	for (size_t i = 0; i < inv->nhosts; i++)
		if (strcmp(inv->hosts[i].moref, moref) == 0)
			return &inv->hosts[i];
	for (size_t i = 0; i < inv->nhosts; i++)
		if (strcmp(inv->hosts[i].name, moref) == 0)
			return &inv->hosts[i];
	return NULL;
}

const gw_vs_pci *
gw_vs_host_pci(const gw_vs_host *h, const char *pci_id)
{
	for (size_t i = 0; h && pci_id && i < h->npci; i++)
		if (bdf_eq(h->pci[i].id, pci_id))
			return &h->pci[i];
	return NULL;
}

/* ---- faults of the write calls ------------------------------------------- */

static int
is_license_fault(const gw_vs_fault *f)
{
	if (f->type && strcmp(f->type, "RestrictedVersion") == 0)
		return 1;
	return f->message && strstr(f->message, "prohibits") &&
	       (strstr(f->message, "license") || strstr(f->message, "License"));
}

static int
is_unsupported_fault(const gw_vs_fault *f)
{
	static const char *const types[] = {
		"NotSupported", "MethodNotFound", "NotImplemented",
		"ManagedObjectNotFound", "MethodDisabled", NULL
	};

	for (size_t i = 0; f->type && types[i]; i++)
		if (strcmp(f->type, types[i]) == 0)
			return 1;
	return 0;
}

/* Host name without the port, for the SSH hints. */
static char *
ssh_host(const gw_vs *s)
{
	const char *h = s->host;

	if (*h == '[') {
		const char *end = strchr(h, ']');

		return end ? gw_xstrndup(h + 1, (size_t)(end - h - 1)) : gw_xstrdup(h);
	}
	return gw_xstrndup(h, strcspn(h, ":"));
}

/* ---- enable passthrough -------------------------------------------------- */

int
gw_vs_enable_passthru(gw_vs *s, const gw_vs_host *h, const char *pci_id,
                      gw_err *e)
{
	const gw_vs_pci *c;
	req r;
	xmlDocPtr doc;
	xmlNodePtr el, cfg;
	gw_vs_fault f;
	char *sh;
	char norm[20];
	int rc;

	if (s == NULL || h == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	c = gw_vs_host_pci(h, pci_id);
	if (c == NULL) {
		gw_err_set(e, _("host %s has no PCI device %s"), h->name,
		           pci_id ? pci_id : "");
		return -1;
	}
	if (c->passthru_enabled == 1)
		return 0;
	sh = ssh_host(s);
	bdf_norm(c->id, norm);
	if (c->passthru_capable == 0) {
		gw_err_set(e, _("%s on host %s is not passthrough capable: the IOMMU (VT-d / AMD-Vi) is probably off in the BIOS, or the device cannot be passed through"),
		           c->id, h->name);
		free(sh);
		return -1;
	}
	if (h->passthru_moref == NULL) {
		gw_err_set(e, _("this server cannot enable passthrough through the API; use the SSH route (gpuwiz passthru --ssh root@%s --enable %s)"),
		           sh, norm[0] ? norm : c->id);
		free(sh);
		return -1;
	}
	req_init(&r, "UpdatePassthruConfig");
	add_moref(r.method, "_this", "HostPciPassthruSystem", h->passthru_moref);
	cfg = add_el(r.method, "config");
	set_xsi_type(&r, cfg, "HostPciPassthruConfig");
	add_text(cfg, "id", c->id);
	add_text(cfg, "passthruEnabled", "true");
	/* applyNow (API 7.0 and later; older servers refuse the element):
	 * active at once where the host can, else after a reboot, like
	 * `esxcli hardware pci pcipassthru set -a`. */
	if (atoi(s->api_version) >= 7)
		add_text(cfg, "applyNow", "true");
	rc = vs_call(s, "UpdatePassthruConfig", &r, 0, &doc, &el, &f, e);
	req_free(&r);
	if (rc == 0)
		xmlFreeDoc(doc);
	if (rc == 1) {
		if (is_license_fault(&f))
			gw_err_set(e, _("the free ESXi license refuses changes through the API (\"%s\"); use the SSH route (gpuwiz passthru --ssh root@%s --enable %s)"),
			           f.message ? f.message : f.type, sh, norm[0] ? norm : c->id);
		else if (is_unsupported_fault(&f))
			gw_err_set(e, _("this server cannot enable passthrough through the API; use the SSH route (gpuwiz passthru --ssh root@%s --enable %s)"),
			           sh, norm[0] ? norm : c->id);
		else
			gw_err_set(e, _("enabling passthrough of %s on host %s failed: %s"),
			           c->id, h->name, f.message ? f.message :
			           f.type ? f.type : _("no reason given"));
		gw_vs_fault_free(&f);
		rc = -1;
	}
	free(sh);
	return rc;
}

/* ---- reconfigure ----------------------------------------------------------- */

static const char *
ec_value(const gw_vs_vm *vm, const char *key)
{
	const char *v = NULL;

	/* The last one wins, as in a .vmx. */
	for (size_t i = 0; i < vm->nec; i++)
		if (gw_strieq(vm->ec_keys[i], key))
			v = vm->ec_vals[i];
	return v;
}

/* Which of spec's parts are still needed: flags per extraConfig entry and
 * per add; returns the count, -1 on a bad spec. */
static int
plan_changes(const gw_vs_vm *vm, const gw_vs_spec *spec, char *ec_need,
             char *add_need, int *reserve_need, gw_err *e)
{
	int n = 0;

	for (size_t i = 0; i < spec->nec; i++) {
		const char *k = spec->ec_keys[i], *v = spec->ec_vals[i];
		const char *cur;

		ec_need[i] = 0;
		if (k == NULL || *k == '\0' || !valid_text(k, 0) || strchr(k, ' ')) {
			gw_err_set(e, _("extraConfig key %zu is empty or holds blanks or control characters"), i + 1);
			return -1;
		}
		if (v == NULL || !valid_text(v, 0)) {
			gw_err_set(e, _("extraConfig value of %s is missing or holds control characters"), k);
			return -1;
		}
		/* Asked twice: the last wins. */
		for (size_t j = i + 1; j < spec->nec; j++)
			if (spec->ec_keys[j] && gw_strieq(spec->ec_keys[j], k))
				goto next_ec;
		cur = ec_value(vm, k);
		if (cur == NULL || strcmp(cur, v) != 0) {
			ec_need[i] = 1;
			n++;
		}
next_ec:
		;
	}
	*reserve_need = 0;
	if (spec->reserve_locked == 0 || spec->reserve_locked == 1) {
		if (vm->reserve_locked != spec->reserve_locked) {
			*reserve_need = 1;
			n++;
		}
	}
	for (size_t i = 0; i < spec->nadds; i++) {
		const gw_vs_add *a = &spec->adds[i];

		add_need[i] = 0;
		if ((a->id == NULL) == (a->vgpu == NULL)) {
			gw_err_set(e, _("device %zu to add: give either a PCI id or a vGPU profile"), i + 1);
			return -1;
		}
		if (a->id) {
			char norm[20];
			int have = 0;

			bdf_norm(a->id, norm);
			if (!norm[0]) {
				gw_err_set(e, _("device %zu to add: \"%s\" is not a PCI address like 0000:3b:00.0"),
				           i + 1, a->id);
				return -1;
			}
			if (a->system_id == NULL || *a->system_id == '\0' ||
			    !valid_text(a->system_id, 0)) {
				gw_err_set(e, _("device %s has no systemId: passthrough is not active on the host yet (reboot the host after enabling it, then read the inventory again)"),
				           a->id);
				return -1;
			}
			if (a->vendor == 0 || a->vendor > 0xffff || a->device > 0xffff) {
				gw_err_set(e, _("device %s: vendor and device ids must be 16-bit PCI ids"),
				           a->id);
				return -1;
			}
			if (a->device_name && !valid_text(a->device_name, 0)) {
				gw_err_set(e, _("device %s: the device name holds control characters"), a->id);
				return -1;
			}
			for (size_t j = 0; j < vm->ndevs; j++)
				if (vm->devs[j].id && bdf_eq(vm->devs[j].id, norm))
					have = 1;
			for (size_t j = 0; j < i; j++)
				if (spec->adds[j].id && bdf_eq(spec->adds[j].id, norm))
					have = 1;
			if (!have) {
				add_need[i] = 1;
				n++;
			}
		} else {
			size_t have = 0, before = 0;

			if (*a->vgpu == '\0' || !valid_text(a->vgpu, 0) || strchr(a->vgpu, ' ')) {
				gw_err_set(e, _("device %zu to add: the vGPU profile is empty or holds blanks"), i + 1);
				return -1;
			}
			for (size_t j = 0; j < vm->ndevs; j++)
				if (vm->devs[j].vgpu && strcmp(vm->devs[j].vgpu, a->vgpu) == 0)
					have++;
			for (size_t j = 0; j < i; j++)
				if (spec->adds[j].vgpu && strcmp(spec->adds[j].vgpu, a->vgpu) == 0)
					before++;
			/* The VM's own vGPUs of this profile count for the first
			 * adds of it. */
			if (before >= have) {
				add_need[i] = 1;
				n++;
			}
		}
	}
	return n;
}

/* The ReconfigVM_Task request for what vm still needs of spec: the
 * number of changes (r set when > 0), 0, or -1. */
static int
build_reconfigure(const gw_vs_vm *vm, const gw_vs_spec *spec, req *r,
                  gw_err *e)
{
	char *ec_need, *add_need;
	int reserve_need, n, key = -100;
	xmlNodePtr cs;

	if (vm == NULL || spec == NULL ||
	    (spec->nec && (!spec->ec_keys || !spec->ec_vals)) ||
	    (spec->nadds && !spec->adds)) {
		gw_err_set(e, _("no VM or no changes given"));
		return -1;
	}
	ec_need = gw_xcalloc(spec->nec + 1, 1);
	add_need = gw_xcalloc(spec->nadds + 1, 1);
	n = plan_changes(vm, spec, ec_need, add_need, &reserve_need, e);
	if (n <= 0 || r == NULL) {
		free(ec_need);
		free(add_need);
		return n;
	}
	req_init(r, "ReconfigVM_Task");
	add_moref(r->method, "_this", "VirtualMachine", vm->moref);
	cs = add_el(r->method, "spec");
	/* VirtualMachineConfigSpec order: deviceChange, extraConfig, ...,
	 * memoryReservationLockedToMax. */
	for (size_t i = 0; i < spec->nadds; i++) {
		const gw_vs_add *a = &spec->adds[i];
		xmlNodePtr dc, dev, b;
		char k[16];

		if (!add_need[i])
			continue;
		dc = add_el(cs, "deviceChange");
		add_text(dc, "operation", "add");
		dev = add_el(dc, "device");
		set_xsi_type(r, dev, "VirtualPCIPassthrough");
		snprintf(k, sizeof k, "%d", key--);
		add_text(dev, "key", k);
		b = add_el(dev, "backing");
		if (a->id) {
			char norm[20], did[16], vid[16];
			int sv = a->vendor > 0x7fff ? (int)a->vendor - 0x10000 : (int)a->vendor;

			bdf_norm(a->id, norm);
			snprintf(did, sizeof did, "%04x", a->device & 0xffff);
			snprintf(vid, sizeof vid, "%d", sv);
			set_xsi_type(r, b, "VirtualPCIPassthroughDeviceBackingInfo");
			add_text(b, "deviceName", a->device_name ? a->device_name : "");
			add_text(b, "id", norm);
			add_text(b, "deviceId", did);
			add_text(b, "systemId", a->system_id);
			add_text(b, "vendorId", vid);
		} else {
			set_xsi_type(r, b, "VirtualPCIPassthroughVmiopBackingInfo");
			add_text(b, "vgpu", a->vgpu);
		}
	}
	for (size_t i = 0; i < spec->nec; i++) {
		xmlNodePtr ov, v;

		if (!ec_need[i])
			continue;
		ov = add_el(cs, "extraConfig");
		add_text(ov, "key", spec->ec_keys[i]);
		v = add_text(ov, "value", spec->ec_vals[i]);
		set_xsi_type(r, v, "xsd:string");
	}
	if (reserve_need)
		add_text(cs, "memoryReservationLockedToMax",
		         spec->reserve_locked ? "true" : "false");
	free(ec_need);
	free(add_need);
	return n;
}

int
gw_vs_reconfigure_body(const gw_vs_vm *vm, const gw_vs_spec *spec,
                       const char *api_version, char **body, gw_err *e)
{
	req r;
	size_t len;
	int n;

	(void)api_version;
	if (body)
		*body = NULL;
	n = build_reconfigure(vm, spec, body ? &r : NULL, e);
	if (n > 0 && body) {
		*body = req_dump(&r, &len);
		req_free(&r);
	}
	return n;
}

/* TaskInfo (the "info" val) into ti; info may be NULL. */
static void
task_info_from_el(xmlNodePtr info, gw_vs_task_info *ti)
{
	char *st;
	xmlNodePtr err;

	memset(ti, 0, sizeof *ti);
	ti->state = -1;
	ti->progress = -1;
	if (info == NULL)
		return;
	st = child_text(info, "state");
	err = first_el(info, "error");
	if (st) {
		gw_trim(st);
		ti->state = strcmp(st, "queued") == 0 ? 0 :
		            strcmp(st, "running") == 0 ? 1 :
		            strcmp(st, "success") == 0 ? 2 :
		            strcmp(st, "error") == 0 ? 3 : -1;
		free(st);
	}
	ti->progress = child_long(info, "progress", -1);
	if (err) {
		ti->fault_type = xsi_type(first_el(err, "fault"));
		ti->fault_message = nonempty(child_text(err, "localizedMessage"));
	}
}

/* The "info" val of a RetrievePropertiesEx answer element, or NULL. */
static xmlNodePtr
task_info_el(xmlNodePtr el)
{
	xmlNodePtr info = NULL;

	FOR_EL(p, first_el(first_el(el, "returnval"), "objects"), "propSet") {
		char *n = child_text(p, "name");

		if (n && strcmp(n, "info") == 0)
			info = first_el(p, "val");
		free(n);
	}
	return info;
}

/* The line for a fault of a VM task (the call's or the task's). */
static void
task_fault(gw_vs *s, const gw_vs_vm *vm, const char *what,
           const gw_vs_fault *f, gw_err *e)
{
	if (is_license_fault(f)) {
		char *sh = ssh_host(s);

		gw_err_set(e, _("%s failed: the free ESXi license refuses changes through the API (\"%s\"); use the SSH route (gpuwiz vmx --vm %s --ssh root@%s ... --write)"),
		           what, f->message ? f->message : f->type, vm->name, sh);
		free(sh);
	} else {
		gw_err_set(e, _("%s failed: %s"), what,
		           f->message ? f->message : f->type ? f->type : _("no reason given"));
	}
}

/* Follow a task to its end.  what: translated line for cb. */
static int
wait_task(gw_vs *s, const char *task, const gw_vs_vm *vm, const char *what,
          gw_vs_progress_fn cb, void *ctx, gw_err *e)
{
	double deadline = now_s() + (double)s->call_timeout * POLL_CALLS;
	int last_pct = -2;

	for (;;) {
		req r;
		xmlDocPtr doc;
		xmlNodePtr el, spec, ps, os, info;
		gw_vs_task_info ti;
		int rc;

		req_init(&r, "RetrievePropertiesEx");
		add_moref(r.method, "_this", "PropertyCollector", s->property_collector);
		spec = add_el(r.method, "specSet");
		ps = add_el(spec, "propSet");
		add_text(ps, "type", "Task");
		add_text(ps, "pathSet", "info");
		os = add_el(spec, "objectSet");
		add_moref(os, "obj", "Task", task);
		add_el(r.method, "options");
		rc = vs_call_simple(s, "RetrievePropertiesEx", &r, &doc, &el, e);
		req_free(&r);
		if (rc != 0) {
			if (s->lost)
				gw_err_set(e, _("the server went away while the task was running; check the VM in the vSphere Client before trying again"));
			return -1;
		}
		info = task_info_el(el);
		task_info_from_el(info, &ti);
		xmlFreeDoc(doc);
		if (info == NULL) {
			gw_err_set(e, _("%s: the task %s (%s) has gone; check the VM in the vSphere Client"),
			           s->host, task, what);
			return -1;
		}
		if (ti.state == 2) {
			gw_vs_task_info_free(&ti);
			if (cb)
				cb(ctx, what, 100);
			return 0;
		}
		if (ti.state == 3) {
			gw_vs_fault f = { ti.fault_type, ti.fault_message };

			task_fault(s, vm, what, &f, e);
			gw_vs_task_info_free(&ti);
			return -1;
		}
		if (cb && ti.progress != last_pct) {
			cb(ctx, what, ti.progress);
			last_pct = ti.progress;
		}
		gw_vs_task_info_free(&ti);
		if (now_s() > deadline) {
			gw_err_set(e, _("%s: the task %s is still running after %ld s; check the VM in the vSphere Client"),
			           what, task, s->call_timeout * POLL_CALLS);
			return -1;
		}
		sleep_ms(POLL_MS);
	}
}

/* Send a prepared *_Task body and follow the task. */
static int
run_task(gw_vs *s, const char *method, req *r, const gw_vs_vm *vm,
         const char *what, gw_vs_progress_fn cb, void *ctx, gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el;
	gw_vs_fault f;
	char *task;
	int rc;

	if (cb)
		cb(ctx, what, 0);
	rc = vs_call(s, method, r, 0, &doc, &el, &f, e);
	if (rc == 1) {
		task_fault(s, vm, what, &f, e);
		gw_vs_fault_free(&f);
		return -1;
	}
	if (rc != 0) {
		if (s->lost)
			gw_err_set(e, _("the connection to %s was lost during %s: the change may or may not have been made; check the VM in the vSphere Client before trying again"),
			           s->host, method);
		return -1;
	}
	task = nonempty(child_text(el, "returnval"));
	xmlFreeDoc(doc);
	if (task == NULL) {
		gw_err_set(e, _("%s: %s returned no task"), s->host, method);
		return -1;
	}
	rc = wait_task(s, task, vm, what, cb, ctx, e);
	free(task);
	return rc;
}

static int
check_off(const gw_vs_vm *vm, gw_err *e)
{
	if (vm->power == GW_VS_POWER_OFF)
		return 0;
	if (vm->power == GW_VS_POWER_ON)
		gw_err_set(e, _("VM %s is powered on: shut down its guest OS (or power it off), then run this again; nothing was changed"),
		           vm->name);
	else if (vm->power == GW_VS_POWER_SUSPENDED)
		gw_err_set(e, _("VM %s is suspended: power it on and shut it down cleanly, then run this again; nothing was changed"),
		           vm->name);
	else
		gw_err_set(e, _("the power state of VM %s is unknown; it must be powered off; nothing was changed"),
		           vm->name);
	return -1;
}

int
gw_vs_reconfigure(gw_vs *s, const gw_vs_vm *vm, const gw_vs_spec *spec,
                  gw_vs_progress_fn cb, void *ctx, gw_err *e)
{
	char *what;
	int n, rc;
	req r;

	n = build_reconfigure(vm, spec, NULL, e);
	if (n < 0)
		return -1;
	if (n == 0) {
		if (cb) {
			what = gw_xasprintf(_("VM %s already has these settings"), vm->name);
			cb(ctx, what, 100);
			free(what);
		}
		return 0;
	}
	if (check_off(vm, e) != 0)
		return -1;
	if (s == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	if (build_reconfigure(vm, spec, &r, e) <= 0)
		return -1;
	what = gw_xasprintf(_("reconfiguring VM %s"), vm->name);
	rc = run_task(s, "ReconfigVM_Task", &r, vm, what, cb, ctx, e);
	req_free(&r);
	free(what);
	return rc;
}

int
gw_vs_upgrade(gw_vs *s, const gw_vs_vm *vm, int target_hw,
              gw_vs_progress_fn cb, void *ctx, gw_err *e)
{
	char ver[16], *what;
	req r;
	int rc;

	if (vm == NULL) {
		gw_err_set(e, _("no VM or no changes given"));
		return -1;
	}
	if (target_hw < 4 || target_hw > 22) {
		gw_err_set(e, _("hardware version %d is not one vSphere knows (4 to 22)"), target_hw);
		return -1;
	}
	if (vm->hw_version > 0 && target_hw == vm->hw_version) {
		gw_err_set(e, _("VM %s is already vmx-%d"), vm->name, target_hw);
		return -1;
	}
	if (vm->hw_version > 0 && target_hw < vm->hw_version) {
		gw_err_set(e, _("VM %s is vmx-%d: a hardware version is never lowered (asked: vmx-%d)"),
		           vm->name, vm->hw_version, target_hw);
		return -1;
	}
	if (vm->hw_version <= 0) {
		gw_err_set(e, _("the hardware version of VM %s is unknown; not upgrading"), vm->name);
		return -1;
	}
	if (check_off(vm, e) != 0)
		return -1;
	if (s == NULL || !s->logged_in) {
		gw_err_set(e, _("not logged in to vSphere"));
		return -1;
	}
	snprintf(ver, sizeof ver, "vmx-%d", target_hw);
	req_init(&r, "UpgradeVM_Task");
	add_moref(r.method, "_this", "VirtualMachine", vm->moref);
	add_text(r.method, "version", ver);
	what = gw_xasprintf(_("upgrading VM %s to vmx-%d"), vm->name, target_hw);
	rc = run_task(s, "UpgradeVM_Task", &r, vm, what, cb, ctx, e);
	req_free(&r);
	free(what);
	return rc;
}

/* ---- task info (fixtures) -------------------------------------------------- */

int
gw_vs_parse_task_info(const char *text, size_t len, gw_vs_task_info *ti,
                      gw_err *e)
{
	xmlDocPtr doc;
	xmlNodePtr el, info;

	task_info_from_el(NULL, ti);
	if (parse_envelope(text, len, &doc, &el) != 0) {
		gw_err_set(e, _("the answer is not a SOAP envelope"));
		return -1;
	}
	info = task_info_el(el);
	if (info == NULL) {
		gw_err_set(e, _("no task info in the answer"));
		xmlFreeDoc(doc);
		return -1;
	}
	task_info_from_el(info, ti);
	xmlFreeDoc(doc);
	return 0;
}

void
gw_vs_task_info_free(gw_vs_task_info *ti)
{
	if (ti == NULL)
		return;
	free(ti->fault_type);
	free(ti->fault_message);
	ti->fault_type = ti->fault_message = NULL;
}
