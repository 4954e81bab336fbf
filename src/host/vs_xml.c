/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_xml.c: the SOAP envelopes of the vSphere client (see vsphere_int.h),
 * built with libxml2 tree calls (so every value is escaped) and read with
 * libxml2 (nothing is found by searching strings), and the faults in them. */
#include "vsphere_int.h"
#include "plan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <openssl/crypto.h>

/* ---- small helpers --------------------------------------------------- */

int
vs_valid_text(const char *s, int allow_nl)
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
void
vs_bdf_norm(const char *id, char out[20])
{
	unsigned d, b, s, f;

	out[0] = '\0';
	if (id && gw_bdf_parse(id, &d, &b, &s, &f) == 0)
		snprintf(out, 20, "%04x:%02x:%02x.%x", d, b, s, f);
}

int
vs_bdf_eq(const char *a, const char *b)
{
	char na[20], nb[20];

	vs_bdf_norm(a, na);
	vs_bdf_norm(b, nb);
	if (na[0] && nb[0])
		return strcmp(na, nb) == 0;
	return a && b && gw_strieq(a, b);
}

void
vs_set_str(char **dst, char *val)
{
	free(*dst);
	*dst = val;
}

char *
vs_nonempty(char *s)
{
	if (s && *s == '\0') {
		free(s);
		return NULL;
	}
	return s;
}

/* ---- XML building ------------------------------------------------------- */

void
vs_req_init(req *r, const char *method)
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

xmlNodePtr
vs_add_text(xmlNodePtr parent, const char *name, const char *text)
{
	return xmlNewTextChild(parent, NULL, X(name), X(text ? text : ""));
}

xmlNodePtr
vs_add_el(xmlNodePtr parent, const char *name)
{
	return xmlNewChild(parent, NULL, X(name), NULL);
}

xmlNodePtr
vs_add_moref(xmlNodePtr parent, const char *name, const char *type,
             const char *value)
{
	xmlNodePtr n = vs_add_text(parent, name, value);

	xmlNewProp(n, X("type"), X(type));
	return n;
}

void
vs_set_xsi_type(req *r, xmlNodePtr n, const char *type)
{
	xmlNewNsProp(n, r->xsi, X("type"), X(type));
}

xmlNodePtr
vs_req_collector(req *r, const gw_vs *s, const char *method,
                 const char *spec_name)
{
	vs_req_init(r, method);
	vs_add_moref(r->method, "_this", "PropertyCollector", s->property_collector);
	return vs_add_el(r->method, spec_name);
}

void
vs_add_traversal(req *r, xmlNodePtr spec, const char *type, const char *obj,
                 const char *name, const char *path)
{
	xmlNodePtr os = vs_add_el(spec, "objectSet"), sel;

	vs_add_moref(os, "obj", type, obj);
	vs_add_text(os, "skip", "true");
	sel = vs_add_el(os, "selectSet");
	vs_set_xsi_type(r, sel, "TraversalSpec");
	vs_add_text(sel, "name", name);
	vs_add_text(sel, "type", type);
	vs_add_text(sel, "path", path);
	vs_add_text(sel, "skip", "false");
}

char *
vs_req_dump(req *r, size_t *len)
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

void
vs_req_free(req *r)
{
	xmlFreeDoc(r->doc);
	r->doc = NULL;
}

/* ---- XML reading -------------------------------------------------------- */

static int
vs_is_el(xmlNodePtr n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE &&
	       (name == NULL || xmlStrEqual(n->name, X(name)));
}

xmlNodePtr
vs_next_el(xmlNodePtr n, const char *name)
{
	for (; n; n = n->next)
		if (vs_is_el(n, name))
			return n;
	return NULL;
}

xmlNodePtr
vs_first_el(xmlNodePtr parent, const char *name)
{
	return parent ? vs_next_el(parent->children, name) : NULL;
}

/* Text of n (malloc'ed, never NULL for an element; NULL for NULL). */
char *
vs_el_text(xmlNodePtr n)
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

char *
vs_child_text(xmlNodePtr parent, const char *name)
{
	return vs_el_text(vs_first_el(parent, name));
}

int
vs_el_long(xmlNodePtr n, long long *out)
{
	char *t = vs_el_text(n), *end;
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

int
vs_child_long(xmlNodePtr parent, const char *name, long long def)
{
	long long v;

	return vs_el_long(vs_first_el(parent, name), &v) == 0 ? (int)v : (int)def;
}

/* xs:short (signed) -> unsigned 16 bit. */
unsigned
vs_child_u16(xmlNodePtr parent, const char *name)
{
	long long v;

	if (vs_el_long(vs_first_el(parent, name), &v) != 0)
		return 0;
	return (unsigned)(v & 0xffff);
}

int
vs_el_bool(xmlNodePtr n)
{
	char *t = vs_el_text(n);
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

int
vs_child_bool(xmlNodePtr parent, const char *name)
{
	return vs_el_bool(vs_first_el(parent, name));
}

/* xsi:type without its prefix (malloc'ed), NULL when absent. */
char *
vs_xsi_type(xmlNodePtr n)
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

int
vs_xsi_type_is(xmlNodePtr n, const char *type)
{
	char *t = vs_xsi_type(n);
	int r = t && strcmp(t, type) == 0;

	free(t);
	return r;
}

char *
vs_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = n ? xmlGetProp(n, X(name)) : NULL;
	char *out = v ? gw_xstrdup(S(v)) : NULL;

	xmlFree(v);
	return out;
}

/* ---- answers parsed as they arrive ------------------------------------- */

/* Is n a unit of rd: an element at rd->path ("*": any element) below
 * the Body's first element? */
static int
is_unit(const vs_reader *rd, xmlNodePtr n)
{
	xmlNodePtr body;

	for (size_t i = rd->npath; i-- > 0; n = n->parent)
		if (n == NULL || !vs_is_el(n, strcmp(rd->path[i], "*") == 0 ?
		                              NULL : rd->path[i]))
			return 0;
	body = n ? n->parent : NULL;
	return n && vs_is_el(body, "Body") && vs_is_el(body->parent, "Envelope") &&
	       body->parent->parent && body->parent->parent->type == XML_DOCUMENT_NODE &&
	       vs_first_el(body, NULL) == n;
}

/* The start of an element: the tree's own step; where a unit begins is
 * noted, from the end of the element event before it (what a reader
 * keeps is counted outside units). */
static void
start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
              const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
              int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	xmlParserCtxtPtr ctxt = ctx;
	vs_reader *rd = ctxt->_private;

	xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_namespaces,
	                      namespaces, nb_attributes, nb_defaulted, attributes);
	if (rd == NULL || rd->unit == NULL || rd->unit_from >= 0)
		return;
	if (ctxt->node && is_unit(rd, ctxt->node))
		rd->unit_from = rd->mark;
	else
		rd->mark = xmlByteConsumed(ctxt);
}

/* The end of an element: the tree's own step, then a unit goes to its
 * function and out of the tree, with the blanks and text before it (only
 * elements are read around units). */
static void
end_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
            const xmlChar *uri)
{
	xmlParserCtxtPtr ctxt = ctx;
	vs_reader *rd = ctxt->_private;
	xmlNodePtr cur = ctxt->node, p;

	xmlSAX2EndElementNs(ctx, localname, prefix, uri);
	if (rd == NULL || rd->unit == NULL || cur == NULL)
		return;
	if (!is_unit(rd, cur)) {
		if (rd->unit_from < 0)
			rd->mark = xmlByteConsumed(ctxt);
		return;
	}
	rd->unit(cur, rd->unit_ctx);
	rd->units++;
	if (rd->unit_from >= 0) {
		long at = xmlByteConsumed(ctxt);

		if (at > rd->unit_from)
			rd->unit_bytes += (size_t)(at - rd->unit_from);
		rd->unit_from = -1;
		rd->mark = at;
	}
	while ((p = cur->prev) != NULL && p->type != XML_ELEMENT_NODE) {
		xmlUnlinkNode(p);
		xmlFreeNode(p);
	}
	xmlUnlinkNode(cur);
	xmlFreeNode(cur);
}

void
vs_reader_init(vs_reader *rd, const char *const *path, vs_unit_fn unit,
               void *unit_ctx)
{
	xmlSAXHandler sax;

	memset(rd, 0, sizeof *rd);
	rd->path = path;
	while (path && path[rd->npath])
		rd->npath++;
	rd->unit = rd->npath ? unit : NULL;
	rd->unit_ctx = unit_ctx;
	rd->unit_from = -1;
	memset(&sax, 0, sizeof sax);
	xmlSAXVersion(&sax, 2);
	sax.startElementNs = start_element;
	sax.endElementNs = end_element;
	rd->ctxt = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, "answer.xml");
	if (rd->ctxt == NULL) {
		rd->failed = 1;
		return;
	}
	rd->ctxt->_private = rd;
	xmlCtxtUseOptions(rd->ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR |
	                  XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
}

/* Bytes read so far that are not in units: what the tree holds (the
 * open unit's begun part aside). */
static size_t
kept(const vs_reader *rd)
{
	long at = xmlByteConsumed(rd->ctxt);
	size_t n;

	if (at < 0)
		return 0;
	n = (size_t)at;
	if (rd->unit_from >= 0 && at >= rd->unit_from)
		n -= (size_t)(at - rd->unit_from);
	return n > rd->unit_bytes ? n - rd->unit_bytes : 0;
}

int
vs_reader_feed(vs_reader *rd, const char *data, size_t len)
{
	while (!rd->failed && len > 0) {
		int n = len > (1u << 20) ? 1 << 20 : (int)len;

		if (xmlParseChunk(rd->ctxt, data, n, 0) != 0 ||
		    !rd->ctxt->wellFormed)
			rd->failed = 1;
		if (rd->kept_cap && kept(rd) > rd->kept_cap)
			rd->failed = rd->too_big = 1;
		else if (rd->unit_cap && rd->unit_from >= 0 &&
		         xmlByteConsumed(rd->ctxt) - rd->unit_from >
		         (long)rd->unit_cap) {
			rd->failed = 1;
			rd->too_big = 2;
		}
		rd->len += (size_t)n;
		data += n;
		len -= (size_t)n;
	}
	return rd->failed ? -1 : 0;
}

int
vs_reader_finish(vs_reader *rd, xmlDocPtr *docp, xmlNodePtr *elp)
{
	xmlDocPtr doc;
	xmlNodePtr root, body, el;

	*docp = NULL;
	*elp = NULL;
	if (rd->failed || rd->len == 0 ||
	    xmlParseChunk(rd->ctxt, NULL, 0, 1) != 0 || !rd->ctxt->wellFormed)
		return -1;
	doc = rd->ctxt->myDoc;
	rd->ctxt->myDoc = NULL;
	root = xmlDocGetRootElement(doc);
	if (!vs_is_el(root, "Envelope") || root->ns == NULL ||
	    !xmlStrEqual(root->ns->href, X(NS_SOAPENV)) ||
	    (body = vs_first_el(root, "Body")) == NULL ||
	    (el = vs_first_el(body, NULL)) == NULL) {
		xmlFreeDoc(doc);
		return -1;
	}
	*docp = doc;
	*elp = el;
	return 0;
}

void
vs_reader_free(vs_reader *rd)
{
	if (rd->ctxt) {
		xmlFreeDoc(rd->ctxt->myDoc);
		rd->ctxt->myDoc = NULL;
		xmlFreeParserCtxt(rd->ctxt);
	}
	rd->ctxt = NULL;
}

/* vs_reader over a whole text. */
static int
vs_parse_stream(const char *text, size_t len, const char *const *path,
                vs_unit_fn unit, void *unit_ctx, xmlDocPtr *docp,
                xmlNodePtr *elp)
{
	vs_reader rd;
	int rc;

	vs_reader_init(&rd, path, unit, unit_ctx);
	rc = vs_reader_feed(&rd, text, len) == 0 ?
	     vs_reader_finish(&rd, docp, elp) : -1;
	vs_reader_free(&rd);
	if (rc != 0) {
		*docp = NULL;
		*elp = NULL;
	}
	return rc;
}

/* Parse a SOAP answer: the document and the first element in its Body. */
int
vs_parse_envelope(const char *text, size_t len, xmlDocPtr *docp,
                  xmlNodePtr *elp)
{
	return vs_parse_stream(text, len, NULL, NULL, NULL, docp, elp);
}

int
vs_is_fault_el(xmlNodePtr el)
{
	return vs_is_el(el, "Fault") && el->ns &&
	       xmlStrEqual(el->ns->href, X(NS_SOAPENV));
}

void
vs_fault_from_el(xmlNodePtr el, gw_vs_fault *f)
{
	xmlNodePtr detail = vs_first_el(el, "detail"), d;

	f->type = NULL;
	f->message = vs_child_text(el, "faultstring");
	if (f->message && *gw_trim(f->message) == '\0') {
		free(f->message);
		f->message = NULL;
	}
	d = vs_first_el(detail, NULL);
	if (d) {
		f->type = vs_xsi_type(d);
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
	if (vs_parse_envelope(text, len, &doc, &el) != 0) {
		gw_err_set(e, _("the answer is not a SOAP envelope"));
		return -1;
	}
	if (!vs_is_fault_el(el)) {
		xmlFreeDoc(doc);
		return 0;
	}
	vs_fault_from_el(el, fault);
	xmlFreeDoc(doc);
	return 1;
}

const char *
vs_fault_reason(const gw_vs_fault *f)
{
	return f->message ? f->message : f->type ? f->type : _("no reason given");
}

int
vs_parse_answer(const char *text, size_t len, const char *method,
                xmlDocPtr *doc, xmlNodePtr *el, gw_err *e)
{
	return vs_parse_answer_units(text, len, method, NULL, NULL, NULL, doc,
	                             el, e);
}

int
vs_parse_answer_units(const char *text, size_t len, const char *method,
                      const char *const *path, vs_unit_fn unit,
                      void *unit_ctx, xmlDocPtr *doc, xmlNodePtr *el,
                      gw_err *e)
{
	gw_vs_fault f;

	if (vs_parse_stream(text, len, path, unit, unit_ctx, doc, el) != 0) {
		gw_err_set(e, _("the answer is not a SOAP envelope"));
		return -1;
	}
	if (!vs_is_fault_el(*el))
		return 0;
	vs_fault_from_el(*el, &f);
	gw_err_set(e, _("the server refused %s: %s"), method, vs_fault_reason(&f));
	gw_vs_fault_free(&f);
	xmlFreeDoc(*doc);
	*doc = NULL;
	*el = NULL;
	return -1;
}
