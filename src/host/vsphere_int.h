/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsphere_int.h: what the pieces of the vSphere client share (vsphere.h
 * is the interface, vs_seams.h what the tests reach).  The client is
 * split by meaning:
 *   vs_transport.c  libcurl, TLS thumbprint pinning, timeouts, one call
 *   vs_xml.c        SOAP envelopes built and read with libxml2, faults
 *   vsphere.c       options, login / logout (the password), accessors
 *   vs_parse.c      inventory answers (RetrievePropertiesEx pages)
 *   vs_inventory.c  inventory calls (ContainerView, paging) and look-ups
 *   vs_reconfig.c   a spec as a ReconfigVM_Task request
 *   vs_actions.c    UpdatePassthruConfig, the *_Task calls
 *   vs_tasks.c      following tasks: one filter, WaitForUpdatesEx
 * Nothing here prints.
 */
#ifndef GW_VSPHERE_INT_H
#define GW_VSPHERE_INT_H

#include "vs_seams.h"

#include <curl/curl.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlstring.h>
#include <stdlib.h>
#include <string.h>

#define NS_SOAPENV "http://schemas.xmlsoap.org/soap/envelope/"
#define NS_XSI "http://www.w3.org/2001/XMLSchema-instance"
#define NS_XSD "http://www.w3.org/2001/XMLSchema"
#define NS_VIM "urn:vim25"

/* SOAPAction version sent before the server's own is known (what govc
 * sends; servers accept it for RetrieveServiceContent). */
#define FIRST_API_VERSION "6.7"
/* Largest answer taken (one read as units, vs_reader); an answer read
 * whole has a smaller cap (answer_cap in vs_transport.c, the one table
 * of caps). */
#define MAX_ANSWER (256u << 20)
/* Following tasks: the bound on waiting with nothing new, in call
 * timeouts. */
#define POLL_CALLS 5

#define X(s) ((const xmlChar *)(s))
#define S(s) ((const char *)(s))

/* A task of the session (vs_tasks.c); a slot with moref NULL is free. */
typedef struct vs_task {
	char *moref;
	char *vm;                 /* the VM's name */
	char *what;               /* translated: "reconfiguring VM x" */
	int state;                /* -1 not known yet, 0 queued ... 3 error */
	int sync;                 /* waited for alone (not the batch's) */
	int left;                 /* seen leaving its filter unfinished */
	int in_view;              /* in the session's task view */
	char *fault_type, *fault_message;
	gw_vs_progress_fn cb;     /* sync: its progress */
	void *ctx;
	int last_pct;
} vs_task;

struct gw_vs {
	CURL *curl;
	struct curl_slist *headers;
	char *url;
	char *host;               /* authority of the URL, for messages */
	char *user;
	char *password;           /* wiped and freed after Login */
	char pin[GW_VS_THUMB_LEN];     /* normalised, "" when not pinning */
	char seen[GW_VS_THUMB_LEN];    /* leaf of the last handshake */
	char *untrusted;               /* gw_vs_opts.untrusted, during
	                                * gw_vs_connect's login only */
	char verify_reason[160];
	int pin_mismatch;
	int ctx_hook;             /* CURLOPT_SSL_CTX_FUNCTION accepted */
	int insecure;
	int verbose;              /* gw_vs_opts.verbose */
	long connect_timeout, call_timeout;
	long timeout;             /* gw_vs_opts.timeout, 0 none */
	double deadline;          /* vs_now() at gw_vs_new + timeout, 0 none */
	int out_of_time;          /* a call ran out of time */
	unsigned round_trips;
	int logged_in;
	int lost;                 /* last failure was the transport */
	char errbuf[CURL_ERROR_SIZE];
	char *api_type, *api_version, *full_name;
	char *root_folder, *property_collector, *session_manager;
	char *view_manager;
	/* gw_vs_set_vm_names */
	char **vm_names;
	size_t nvm_names;
	/* tasks (vs_tasks.c) */
	unsigned parallel;
	gw_vs_task_done_fn done_cb;
	void *done_ctx;
	vs_task *tasks;
	size_t ntasks, tasks_cap, inflight;
	gw_idset task_ids;        /* moref key -> slot of tasks */
	int task_ids_shared;      /* two morefs met under one key */
	size_t read_at;           /* where the next read of states starts */
	size_t view_n;            /* tasks in the view, not ended */
	unsigned ndone, nfailed, ntotal;
	char *task_view;          /* the ListView of the tasks followed */
	char *task_filter;        /* the one PropertyFilter over it */
	char **view_ended;        /* ended tasks still in the view: taken
	                           * out with the next ModifyListView */
	size_t nview_ended;
	char *wait_version;
	int full_wait;            /* the next wait without a version */
	double last_wait;
	long wait_secs;           /* the next wait's maxWaitSeconds (0: 1) */
};

/* ---- small helpers (vs_xml.c) ------------------------------------------ */

/* s has no control characters (tab and newlines allowed with allow_nl)
 * and is UTF-8. */
int vs_valid_text(const char *s, int allow_nl);
/* Normalised "0000:3b:00.0" of a PCI id, "" when not one. */
void vs_bdf_norm(const char *id, char out[20]);
/* The same PCI id (else the same text, case-insensitively). */
int vs_bdf_eq(const char *a, const char *b);
/* vs_graphics.c: a HostSystem's graphics properties.  1 when name is
 * config.graphicsConfig or config.sharedPassthruGpuTypes (read into h),
 * or config.graphicsInfo (kept in *ginfo for vs_host_graphics_info, once
 * the devices are read); else 0. */
int vs_host_graphics_prop(gw_vs_host *h, const char *name, xmlNodePtr val,
                          xmlNodePtr *ginfo);
void vs_host_graphics_info(xmlNodePtr ginfo, gw_vs_host *h);
/* Does the server's API (s->api_version "6.5", "8.0.2.0") reach
 * major.minor? */
int vs_api_at_least(const gw_vs *s, int major, int minor);
/* free(*dst), *dst = val. */
void vs_set_str(char **dst, char *val);
/* s, or NULL (s freed) when it is "". */
char *vs_nonempty(char *s);

/* ---- envelopes (vs_xml.c) ----------------------------------------------- */

typedef struct req {
	xmlDocPtr doc;
	xmlNodePtr method;
	xmlNsPtr xsi;
} req;

void vs_req_init(req *r, const char *method);
xmlNodePtr vs_add_text(xmlNodePtr parent, const char *name, const char *text);
xmlNodePtr vs_add_el(xmlNodePtr parent, const char *name);
xmlNodePtr vs_add_moref(xmlNodePtr parent, const char *name,
                        const char *type, const char *value);
void vs_set_xsi_type(req *r, xmlNodePtr n, const char *type);
/* A PropertyCollector call of s (method on s->property_collector) and its
 * spec element (spec_name: "specSet", "spec"). */
xmlNodePtr vs_req_collector(req *r, const gw_vs *s, const char *method,
                            const char *spec_name);
/* An objectSet from obj (of type) that skips it and follows path (a
 * TraversalSpec called name). */
void vs_add_traversal(req *r, xmlNodePtr spec, const char *type,
                      const char *obj, const char *name, const char *path);
/* The request as text (malloc'ed); libxml's copy is wiped. */
char *vs_req_dump(req *r, size_t *len);
void vs_req_free(req *r);

/* ---- answers (vs_xml.c) ------------------------------------------------- */

xmlNodePtr vs_next_el(xmlNodePtr n, const char *name);
xmlNodePtr vs_first_el(xmlNodePtr parent, const char *name);

#define FOR_EL(var, parent, name) \
	for (xmlNodePtr var = vs_first_el((parent), (name)); var; \
	     var = vs_next_el(var->next, (name)))

/* Text of n (malloc'ed, never NULL for an element; NULL for NULL). */
char *vs_el_text(xmlNodePtr n);
char *vs_child_text(xmlNodePtr parent, const char *name);
int vs_el_long(xmlNodePtr n, long long *out);
int vs_child_long(xmlNodePtr parent, const char *name, long long def);
/* xs:short (signed) -> unsigned 16 bit. */
unsigned vs_child_u16(xmlNodePtr parent, const char *name);
/* 1, 0, or -1 when neither. */
int vs_el_bool(xmlNodePtr n);
int vs_child_bool(xmlNodePtr parent, const char *name);
/* xsi:type without its prefix (malloc'ed), NULL when absent. */
char *vs_xsi_type(xmlNodePtr n);
int vs_xsi_type_is(xmlNodePtr n, const char *type);
char *vs_attr(xmlNodePtr n, const char *name);
/* Parse a SOAP answer: the document and the first element in its Body. */
int vs_parse_envelope(const char *text, size_t len, xmlDocPtr *docp,
                      xmlNodePtr *elp);

/* An answer parsed as it arrives (libxml2's push parser), so that what it
 * holds is bounded by its parts, not by its size: each element at path
 * (element names below the Body's first element, NULL-terminated:
 * {"returnval", "objects", NULL}; "*" is any element) goes, once
 * complete, to unit and then
 * out of the tree; the rest stays in the document vs_reader_finish gives.
 * Without a path the whole document is kept. */
typedef void (*vs_unit_fn)(xmlNodePtr unit, void *ctx);
typedef struct vs_reader {
	xmlParserCtxtPtr ctxt;
	const char *const *path;
	size_t npath;
	vs_unit_fn unit;
	void *unit_ctx;
	size_t len;               /* bytes fed */
	size_t units;             /* units handed to unit */
	long mark;                /* the end of the last element event outside
	                           * units: a unit begins there (the text before
	                           * it goes with it) */
	long unit_from;           /* where the open unit began, -1 none */
	size_t unit_bytes;        /* bytes of the units handed on */
	size_t kept_cap;          /* most bytes outside units, 0 any */
	size_t unit_cap;          /* most bytes of one unit, 0 any */
	int failed;               /* not well-formed, or a cap passed */
	int too_big;              /* 1: kept_cap passed, 2: unit_cap */
} vs_reader;
void vs_reader_init(vs_reader *rd, const char *const *path, vs_unit_fn unit,
                    void *unit_ctx);
/* 0, or -1 once the text is not well-formed, what it keeps outside units
 * (the envelope, a fault, ...) has more than kept_cap bytes, or the unit
 * being read more than unit_cap (checked after each 1 MiB fed). */
int vs_reader_feed(vs_reader *rd, const char *data, size_t len);
/* The end: as vs_parse_envelope, the document and the Body's first
 * element (units taken out), or -1. */
int vs_reader_finish(vs_reader *rd, xmlDocPtr *docp, xmlNodePtr *elp);
void vs_reader_free(vs_reader *rd);
/* Where the answers that can be large are cut (vs_parse.c, vs_task_parse.c). */
extern const char *const vs_objects_path[];   /* returnval/objects */
extern const char *const vs_updates_path[];   /* returnval/filterSet/objectSet */
extern const char *const vs_config_target_path[];   /* returnval/ * */
int vs_is_fault_el(xmlNodePtr el);
void vs_fault_from_el(xmlNodePtr el, gw_vs_fault *f);
/* The message of f, else its type, else "no reason given" (translated). */
const char *vs_fault_reason(const gw_vs_fault *f);
/* A saved answer of method (the fixtures' entry points): 0 with *doc and
 * *el set; -1 with e set when it is not an envelope or is a fault. */
int vs_parse_answer(const char *text, size_t len, const char *method,
                    xmlDocPtr *doc, xmlNodePtr *el, gw_err *e);
/* vs_parse_answer with units (vs_reader). */
int vs_parse_answer_units(const char *text, size_t len, const char *method,
                          const char *const *path, vs_unit_fn unit,
                          void *unit_ctx, xmlDocPtr *doc, xmlNodePtr *el,
                          gw_err *e);

/* ---- the short answers read whole (vs_answers.c) ------------------------ */

/* What the login keeps of RetrieveServiceContent's ServiceContent: the
 * managers' morefs (NULL when absent) and about's apiType, apiVersion and
 * fullName ("" when absent). */
typedef struct vs_service_content {
	char *root_folder, *property_collector, *session_manager, *view_manager;
	char *api_type, *api_version, *full_name;
} vs_service_content;
/* From el, the answer's body element, into *sc (the caller frees it,
 * whatever the result): -1 with e naming url when the API version, the
 * root folder (each empty too), the property collector, the session
 * manager or the view manager is missing. */
int vs_service_content_from(xmlNodePtr el, const char *url,
                            vs_service_content *sc, gw_err *e);
/* For the tests and the fuzz target: the login moves the fields into the
 * session instead. */
static inline void
vs_service_content_free(vs_service_content *sc)
{
	free(sc->root_folder);
	free(sc->property_collector);
	free(sc->session_manager);
	free(sc->view_manager);
	free(sc->api_type);
	free(sc->api_version);
	free(sc->full_name);
	memset(sc, 0, sizeof *sc);
}
/* The moref that method (CreateContainerView, CreateFilter, a *_Task)
 * returns, from el, the answer's body element (malloc'ed); NULL with e
 * naming host and what was expected when its returnval is missing or
 * empty. */
char *vs_moref_result(xmlNodePtr el, const char *host, const char *method,
                      gw_err *e);
/* vs_call_simple of method with r (freed), then its vs_moref_result. */
char *vs_call_moref(gw_vs *s, const char *method, req *r, gw_err *e);

/* ---- transport (vs_transport.c) ----------------------------------------- */

/* curl, libxml2 and OpenSSL set up, once. */
void vs_global_init(void);
/* The curl handle of s for o (TLS as vsphere.h says); -1 with e set. */
int vs_curl_setup(gw_vs *s, const gw_vs_opts *o, gw_err *e);
/* The headers, with SOAPAction for the API version known so far. */
void vs_set_soap_action(gw_vs *s);
/* One call.  0: *doc and *el (first element of the Body) set; 1: a SOAP
 * fault, in *fault, and a generic line in e; -1: e set.  secret: the
 * request holds the password (its text is wiped after sending). */
int vs_call(gw_vs *s, const char *method, req *r, int secret,
            xmlDocPtr *doc, xmlNodePtr *el, gw_vs_fault *fault, gw_err *e);
/* vs_call for callers that treat every fault alike (0 or -1). */
int vs_call_simple(gw_vs *s, const char *method, req *r, xmlDocPtr *doc,
                   xmlNodePtr *el, gw_err *e);
/* vs_call_simple with the answer's units (vs_reader) handed to unit as
 * they arrive: an answer of any size holds about one unit at a time. */
int vs_call_units(gw_vs *s, const char *method, req *r,
                  const char *const *path, vs_unit_fn unit, void *unit_ctx,
                  xmlDocPtr *doc, xmlNodePtr *el, gw_err *e);
/* vs_call_units with a fault as vs_call has it (0, 1 or -1). */
int vs_call_units_fault(gw_vs *s, const char *method, req *r,
                        const char *const *path, vs_unit_fn unit,
                        void *unit_ctx, xmlDocPtr *doc, xmlNodePtr *el,
                        gw_vs_fault *fault, gw_err *e);
/* vs_call_simple bounded by limit seconds too (Logout). */
int vs_call_quick(gw_vs *s, const char *method, req *r, long limit,
                  xmlDocPtr *doc, xmlNodePtr *el, gw_err *e);
/* CLOCK_MONOTONIC in seconds. */
double vs_now(void);
/* Seconds left before the session's deadline (0 when passed), -1 when it
 * has none. */
double vs_time_left(const gw_vs *s);

/* ---- inventory answers (vs_parse.c) ------------------------------------- */

/* The context of vs_page_object, the vs_unit_fn of an inventory answer
 * read as it arrives: each object into inv (or ps), then, when set,
 * then(arg, inv, first) with the index of the first VM it added. */
typedef struct vs_page {
	gw_vs_parse_state *ps;
	gw_vs_inventory *inv;
	void (*then)(void *arg, gw_vs_inventory *inv, size_t first);
	void *arg;
} vs_page;
void vs_page_object(xmlNodePtr obj, void *ctx);
/* Objects of a RetrieveResult (returnval) into inv. */
void vs_parse_retrieve_result(xmlNodePtr rv, gw_vs_parse_state *ps,
                              gw_vs_inventory *inv, char **token);
/* A VM not asked for (gw_vs_set_vm_names): only what a pick needs kept. */
void vs_vm_prune(gw_vs_vm *v);
/* The vs_unit_fn of a QueryConfigTarget answer (a unit at
 * vs_config_target_path, ctx the gw_vs_host): a pciPassthrough's
 * systemId into the host's device; every other part (datastores,
 * networks, vGPU types, ...) is not used and only dropped. */
void vs_config_target_unit(xmlNodePtr unit, void *ctx);

/* ---- tasks (vs_tasks.c, vs_actions.c) ----------------------------------- */

int vs_task_state(const char *st);
/* The updates of a WaitForUpdatesEx answer, gathered. */
typedef struct vs_updates {
	gw_vs_task_update *ups;
	size_t n, cap;
} vs_updates;
/* One objectSet (a unit at vs_updates_path) into a (a vs_updates). */
void vs_task_update_unit(xmlNodePtr os, void *a);
/* The answer's version and truncated, and its objectSets still in el
 * into a. */
void vs_task_updates_from_el(xmlNodePtr el, vs_updates *a, char **version,
                             int *truncated);
/* The tasks of a RetrievePropertiesEx answer (el, its body element) of
 * their info.state and info.error, into a: those that name their task and
 * a known state. */
void vs_task_states_from_el(xmlNodePtr el, vs_updates *a);
/* One such object (a vs_unit_fn of vs_objects_path; ctx a vs_updates). */
void vs_task_state_unit(xmlNodePtr o, void *ctx);
/* A started task (moref taken over); sync: waited for alone. */
vs_task *vs_task_add(gw_vs *s, char *moref, const char *vm,
                     const char *what, int sync);
/* Wait until sync_task has ended (when not NULL), else until at most
 * max_inflight tasks are open.  0, or -1 with e. */
int vs_tasks_wait_until(gw_vs *s, vs_task *sync_task, size_t max_inflight,
                        gw_err *e);
/* A batch's window full: the open tasks' state read once (one
 * RetrievePropertiesEx), then, while more than max_inflight are open,
 * vs_tasks_wait_until. */
int vs_tasks_make_room(gw_vs *s, size_t max_inflight, gw_err *e);
void vs_task_forget(gw_vs *s, vs_task *t);
void vs_tasks_free(gw_vs *s);
/* RetrievePropertiesEx of a Task's info (state -1 when it has gone). */
int vs_task_info_get(gw_vs *s, const char *task, gw_vs_task_info *ti,
                     gw_err *e);
/* The line for a fault of a VM task (the call's or the task's). */
void vs_task_fault(gw_vs *s, const char *vm, const char *what,
                   const gw_vs_fault *f, gw_err *e);

/* ---- reconfigure (vs_reconfig.c) ---------------------------------------- */

/* The ReconfigVM_Task request for what vm still needs of spec: the
 * number of changes (r set when > 0 and r not NULL), 0, or -1. */
int vs_build_reconfigure(const gw_vs_vm *vm, const gw_vs_spec *spec, req *r,
                         gw_err *e);

#endif
