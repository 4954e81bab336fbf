/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vsphere.c: the vSphere SOAP client.
 *
 * Offline: URL and thumbprint handling, the SOAP answers saved in
 * tests/fixtures/vsphere (captured from vcsim, or synthetic where vcsim
 * cannot produce them: each file says which on its first line), the
 * ReconfigVM_Task envelope (parsed back with libxml2: escaping of odd
 * values, the device backings, the order of the spec's fields, nothing
 * sent twice), and the refusals that need no server.
 *
 * Live, when GW_VCSIM_URL is set (tests/cli/test_vsphere_lib.sh starts
 * vcsim-gpuwiz and sets GW_VCSIM_URL, GW_VCSIM_THUMB, GW_VCSIM_CERT,
 * GW_VCSIM_USER, GW_VCSIM_PASS, GW_VCSIM_MODE (esx|vpx), GW_VCSIM_VMS,
 * GW_VCSIM_ON, and GW_VCSIM_FAIL / GW_VCSIM_DIE for the fault runs):
 * connect, inventory, reconfigure and read back, idempotent re-apply,
 * powered-on refusal, certificate and password errors, upgrade, enable
 * passthrough, a SOAP fault, the server gone mid-task.
 *
 * One program: this file holds the helpers and main; the tests are in
 * test_vsphere_answers.c, test_vsphere_body.c (offline), test_vsphere_live.c
 * and test_vsphere_sim.c (live). */
#include "vsphere_test.h"

/* ---- helpers ----------------------------------------------------------- */

/* A fixture without its first line, which must be the source comment. */
char *
xml_fixture(const char *rel, size_t *len)
{
	char *path = gw_xasprintf("vsphere/%s", rel);
	size_t n;
	char *data = tu_read_fixture(path, &n), *nl, *out;

	if (strncmp(data, "<!-- source:", 12) != 0)
		fail_msg("%s: first line is not a '<!-- source: ... -->' comment", rel);
	nl = memchr(data, '\n', n);
	assert_non_null(nl);
	n -= (size_t)(nl + 1 - data);
	out = gw_xmalloc(n + 1);
	memcpy(out, nl + 1, n);
	out[n] = '\0';
	free(data);
	free(path);
	*len = n;
	return out;
}

void
parse_inventory_fixture(const char *rel, gw_vs_inventory *inv)
{
	size_t n;
	char *x = xml_fixture(rel, &n), *token = (char *)"x";
	gw_vs_parse_state *ps = gw_vs_parse_state_new();
	gw_err e;

	memset(inv, 0, sizeof *inv);
	if (gw_vs_parse_inventory_page(ps, x, n, inv, &token, &e) != 0)
		fail_msg("%s", e.msg);
	assert_null(token);
	gw_vs_parse_inventory_finish(ps, inv);
	gw_vs_parse_state_free(ps);
	free(x);
}


void
xq_open(xq *q, const char *text)
{
	q->doc = xmlReadMemory(text, (int)strlen(text), "req.xml", NULL,
	                       XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (q->doc == NULL)
		fail_msg("the request is not well-formed XML:\n%s", text);
	q->ctx = xmlXPathNewContext(q->doc);
	xmlXPathRegisterNs(q->ctx, (const xmlChar *)"s",
	                   (const xmlChar *)"http://schemas.xmlsoap.org/soap/envelope/");
	xmlXPathRegisterNs(q->ctx, (const xmlChar *)"v", (const xmlChar *)"urn:vim25");
	xmlXPathRegisterNs(q->ctx, (const xmlChar *)"xsi",
	                   (const xmlChar *)"http://www.w3.org/2001/XMLSchema-instance");
}

void
xq_close(xq *q)
{
	xmlXPathFreeContext(q->ctx);
	xmlFreeDoc(q->doc);
}

/* String value of an XPath expression (malloc'ed). */
char *
xq_str(xq *q, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression((const xmlChar *)expr, q->ctx);
	xmlChar *s;
	char *out;

	if (o == NULL)
		fail_msg("bad XPath %s", expr);
	s = xmlXPathCastToString(o);
	out = gw_xstrdup((const char *)s);
	xmlFree(s);
	xmlXPathFreeObject(o);
	return out;
}

double
xq_num(xq *q, const char *expr)
{
	xmlXPathObjectPtr o = xmlXPathEvalExpression((const xmlChar *)expr, q->ctx);
	double d;

	if (o == NULL)
		fail_msg("bad XPath %s", expr);
	d = xmlXPathCastToNumber(o);
	xmlXPathFreeObject(o);
	return d;
}


/* A powered-off VM as gpuwiz would read it. */
void
vm_init(gw_vs_vm *v)
{
	memset(v, 0, sizeof *v);
	v->moref = gw_xstrdup("vm-42");
	v->name = gw_xstrdup("llm01");
	v->host_moref = gw_xstrdup("host-21");
	v->hw_version = 19;
	v->firmware = gw_xstrdup("efi");
	v->memory_mb = 65536;
	v->reserve_locked = 0;
	v->power = GW_VS_POWER_OFF;
}

void
vm_add_ec(gw_vs_vm *v, const char *k, const char *val)
{
	v->ec_keys = gw_xrealloc(v->ec_keys, (v->nec + 1) * sizeof *v->ec_keys);
	v->ec_vals = gw_xrealloc(v->ec_vals, (v->nec + 1) * sizeof *v->ec_vals);
	v->ec_keys[v->nec] = gw_xstrdup(k);
	v->ec_vals[v->nec] = gw_xstrdup(val);
	v->nec++;
}

void
vm_add_dev(gw_vs_vm *v, const char *id, const char *vgpu)
{
	gw_vs_dev *d;

	v->devs = gw_xrealloc(v->devs, (v->ndevs + 1) * sizeof *v->devs);
	d = &v->devs[v->ndevs++];
	memset(d, 0, sizeof *d);
	d->key = 13000 + (int)v->ndevs;
	d->id = gw_xstrdup(id);
	d->vgpu = gw_xstrdup(vgpu);
	if (id) {
		d->vendor = 0x10de;
		d->device = 0x26b9;
		d->system_id = gw_xstrdup("65a1b2c3-0d4e-5f60-7182-93a4b5c6d7e8");
	}
}

/* gw_vs_inventory_free frees the VMs of an inventory: lend it a copy. */
void
vm_free1(gw_vs_vm *v)
{
	gw_vs_inventory inv;

	memset(&inv, 0, sizeof inv);
	inv.vms = gw_xmalloc(sizeof *inv.vms);
	inv.vms[0] = *v;
	inv.nvms = 1;
	gw_vs_inventory_free(&inv);
}


int progress_calls;
int progress_last;
int progress_between;     /* saw a value strictly between 0 and 100 */

void
progress(void *ctx, const char *what, int pct)
{
	(void)ctx;
	assert_non_null(what);
	assert_true(pct >= -1 && pct <= 100);
	progress_calls++;
	progress_last = pct;
	if (pct > 0 && pct < 100)
		progress_between = 1;
}

/* ---- the short answers read whole (src/host/vs_answers.c) ------------ */

/* text (a whole answer of method) -> its body element in *el */
static xmlDocPtr
answer_el(const char *text, size_t len, const char *method, xmlNodePtr *el)
{
	xmlDocPtr doc;
	gw_err e;

	if (vs_parse_answer(text, len, method, &doc, el, &e) != 0)
		fail_msg("%s: %s", method, e.msg);
	return doc;
}

/* One service content: its fields as the login keeps them, or NULL (and
 * *msg the error) when it is refused. */
static int
service_content(const char *text, vs_service_content *sc, gw_err *e)
{
	xmlNodePtr el;
	xmlDocPtr doc = answer_el(text, strlen(text), "RetrieveServiceContent",
	                          &el);
	int rc;

	memset(sc, 0, sizeof *sc);
	rc = vs_service_content_from(el, "https://vc.example/sdk", sc, e);
	xmlFreeDoc(doc);
	return rc;
}

/* text less its first occurrence of cut */
static char *
without(const char *text, const char *cut)
{
	const char *at = strstr(text, cut);

	if (at == NULL)
		fail_msg("no %s in the answer", cut);
	return gw_xasprintf("%.*s%s", (int)(at - text), text, at + strlen(cut));
}

static void
test_service_content(void **state)
{
	static const char *const cuts[] = {
		"<viewManager type=\"ViewManager\">ViewManager</viewManager>",
		"<sessionManager type=\"SessionManager\">ha-sessionmgr</sessionManager>",
		"<propertyCollector type=\"PropertyCollector\">ha-property-collector</propertyCollector>",
		"<rootFolder type=\"Folder\">ha-folder-root</rootFolder>",
		"<apiVersion>6.5</apiVersion>",
	};
	vs_service_content sc;
	size_t n;
	char *esx = xml_fixture("vcsim-esx-retrieve-service-content.xml", &n);
	char *vpx = xml_fixture("vcsim-gpuwiz-vpx-retrieve-service-content.xml", &n);
	gw_err e;

	(void)state;
	assert_int_equal(service_content(esx, &sc, &e), 0);
	assert_string_equal(sc.root_folder, "ha-folder-root");
	assert_string_equal(sc.property_collector, "ha-property-collector");
	assert_string_equal(sc.session_manager, "ha-sessionmgr");
	assert_string_equal(sc.view_manager, "ViewManager");
	assert_string_equal(sc.api_type, "HostAgent");
	assert_string_equal(sc.api_version, "6.5");
	assert_string_equal(sc.full_name, "VMware ESXi 6.5.0 build-5969303");
	vs_service_content_free(&sc);
	assert_int_equal(service_content(vpx, &sc, &e), 0);
	assert_string_equal(sc.root_folder, "group-d1");
	assert_string_equal(sc.property_collector, "propertyCollector");
	assert_string_equal(sc.session_manager, "SessionManager");
	assert_string_equal(sc.view_manager, "ViewManager");
	assert_string_equal(sc.api_type, "VirtualCenter");
	assert_string_equal(sc.api_version, "8.0.2.0");
	assert_string_equal(sc.full_name, "VMware vCenter Server 8.0.2 build-22385739");
	vs_service_content_free(&sc);
	/* each of what the login needs, missing: refused, naming the URL;
	 * what was there is kept (gw_vs_round_trips shows it) */
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		char *bad = without(esx, cuts[i]);

		assert_int_equal(service_content(bad, &sc, &e), -1);
		assert_string_equal(e.msg, "https://vc.example/sdk is not a vSphere endpoint: its service content lacks the API version or the managers gpuwiz needs");
		assert_non_null(sc.api_version);
		assert_string_equal(sc.api_type, "HostAgent");
		assert_string_equal(sc.full_name, "VMware ESXi 6.5.0 build-5969303");
		vs_service_content_free(&sc);
		free(bad);
	}
	free(esx);
	free(vpx);
}

static void
test_moref_results(void **state)
{
	static const struct {
		const char *fixture, *method, *moref, *msg;
	} cases[] = {
		{ "vcsim-gpuwiz-create-container-view.xml", "CreateContainerView",
		  "session[d9cbde22-8415-49d7-aa4a-674c29969383]3c3c4aa2-8a3e-4a41-a965-a70063aee6f9",
		  "esx01: CreateContainerView returned no view" },
		{ "vcsim-gpuwiz-create-filter.xml", "CreateFilter",
		  "session[d9cbde22-8415-49d7-aa4a-674c29969383]f96585f6-c3e1-4aaa-8e49-efcc8ba8efff",
		  "esx01: CreateFilter returned no filter" },
		{ "vcsim-gpuwiz-reconfig-vm-task.xml", "ReconfigVM_Task", "task-60",
		  "esx01: ReconfigVM_Task returned no task" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n;
		char *x = xml_fixture(cases[i].fixture, &n), *at, *moref, *bad;
		xmlNodePtr el;
		xmlDocPtr doc = answer_el(x, n, cases[i].method, &el);
		gw_err e;

		moref = vs_moref_result(el, "esx01", cases[i].method, &e);
		assert_non_null(moref);
		assert_string_equal(moref, cases[i].moref);
		free(moref);
		xmlFreeDoc(doc);
		/* the returnval emptied, then gone */
		at = strstr(x, cases[i].moref);
		assert_non_null(at);
		bad = gw_xasprintf("%.*s%s", (int)(at - x), x,
		                   at + strlen(cases[i].moref));
		for (int k = 0; k < 2; k++) {
			doc = answer_el(bad, strlen(bad), cases[i].method, &el);
			e.msg[0] = '\0';
			assert_null(vs_moref_result(el, "esx01", cases[i].method, &e));
			assert_string_equal(e.msg, cases[i].msg);
			xmlFreeDoc(doc);
			free(bad);
			bad = gw_xasprintf("%.*s</%sResponse></soapenv:Body></soapenv:Envelope>",
			                   (int)(strstr(x, "<returnval") - x), x,
			                   cases[i].method);
		}
		free(bad);
		free(x);
	}
}

/* CreateListView's answer without a view: said as a view, not a task
 * (the container view's empty answer under the list view's name). */
static void
test_moref_list_view(void **state)
{
	static const char body[] =
		"<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
		"<soapenv:Body><CreateListViewResponse xmlns=\"urn:vim25\">"
		"%s</CreateListViewResponse></soapenv:Body></soapenv:Envelope>";
	static const char *const rv[] = {
		"<returnval type=\"ListView\">session[1]lv-1</returnval>",
		"<returnval type=\"ListView\"></returnval>", "",
	};

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char *x = gw_xasprintf(body, rv[i]), *moref;
		xmlNodePtr el;
		xmlDocPtr doc = answer_el(x, strlen(x), "CreateListView", &el);
		gw_err e;

		e.msg[0] = '\0';
		moref = vs_moref_result(el, "esx01", "CreateListView", &e);
		if (i == 0) {
			assert_non_null(moref);
			assert_string_equal(moref, "session[1]lv-1");
		} else {
			assert_null(moref);
			assert_string_equal(e.msg, "esx01: CreateListView returned no view");
		}
		free(moref);
		xmlFreeDoc(doc);
		free(x);
	}
}

/* The task states that a quiet wait asks again (vs_tasks.c, reconcile). */
static void
test_task_states(void **state)
{
	size_t n;
	char *x = xml_fixture("vcsim-gpuwiz-retrieve-task-states.xml", &n), *bad;
	vs_updates a = { NULL, 0, 0 };
	xmlNodePtr el;
	xmlDocPtr doc = answer_el(x, n, "RetrievePropertiesEx", &el);

	(void)state;
	vs_task_states_from_el(el, &a);
	xmlFreeDoc(doc);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.ups[0].task, "task-60");
	assert_int_equal(a.ups[0].state, 2);
	assert_null(a.ups[0].fault_type);
	assert_string_equal(a.ups[1].task, "task-62");
	assert_int_equal(a.ups[1].state, 3);
	assert_string_equal(a.ups[1].fault_type, "SystemError");
	assert_string_equal(a.ups[1].fault_message,
	                    "A general system error occurred: vcsim-gpuwiz injected fault for VM VM1 (-fail-vm)");
	gw_vs_task_updates_free(a.ups, a.n);
	/* an object without its task, and one without a state: left out */
	bad = without(x, "<obj type=\"Task\">task-60</obj>");
	memset(&a, 0, sizeof a);
	doc = answer_el(bad, strlen(bad), "RetrievePropertiesEx", &el);
	vs_task_states_from_el(el, &a);
	xmlFreeDoc(doc);
	assert_int_equal(a.n, 1);
	assert_string_equal(a.ups[0].task, "task-62");
	gw_vs_task_updates_free(a.ups, a.n);
	free(bad);
	bad = without(x, "<name>info.state</name>");
	memset(&a, 0, sizeof a);
	doc = answer_el(bad, strlen(bad), "RetrievePropertiesEx", &el);
	vs_task_states_from_el(el, &a);
	xmlFreeDoc(doc);
	assert_int_equal(a.n, 1);
	assert_string_equal(a.ups[0].task, "task-62");
	gw_vs_task_updates_free(a.ups, a.n);
	free(bad);
	free(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize_url),
		cmocka_unit_test(test_thumbprint),
		cmocka_unit_test(test_thumbprint_of_der),
		cmocka_unit_test(test_fault_invalid_login),
		cmocka_unit_test(test_fault_restricted_version),
		cmocka_unit_test(test_fault_managed_object_not_found),
		cmocka_unit_test(test_fault_not_a_fault_and_not_soap),
		cmocka_unit_test(test_inventory_vcsim_esx),
		cmocka_unit_test(test_reader_units),
		cmocka_unit_test(test_reader_kept_cap),
		cmocka_unit_test(test_reader_unit_cap),
		cmocka_unit_test(test_inventory_vcsim_vpx),
		cmocka_unit_test(test_inventory_pages),
		cmocka_unit_test(test_inventory_index),
		cmocka_unit_test(test_inventory_after_reconfigure),
		cmocka_unit_test(test_config_target_vcsim_gpuwiz),
		cmocka_unit_test(test_config_target),
		cmocka_unit_test(test_task_info),
		cmocka_unit_test(test_service_content),
		cmocka_unit_test(test_moref_results),
		cmocka_unit_test(test_moref_list_view),
		cmocka_unit_test(test_task_states),
		cmocka_unit_test(test_task_updates_enter),
		cmocka_unit_test(test_task_updates_error),
		cmocka_unit_test(test_task_updates_timeout),
		cmocka_unit_test(test_task_updates_leave_truncated),
		cmocka_unit_test(test_task_updates_refused),
		cmocka_unit_test(test_power_names),
		cmocka_unit_test(test_reconfigure_body),
		cmocka_unit_test(test_reconfigure_body_skips_what_is_there),
		cmocka_unit_test(test_reconfigure_body_refusals),
		cmocka_unit_test(test_reconfigure_body_dynamic),
		cmocka_unit_test(test_new_options),
		cmocka_unit_test(test_refused_without_sending),
		cmocka_unit_test(test_enable_passthru_refusals),
		cmocka_unit_test(test_connect_refused),
		cmocka_unit_test(test_connect_timeout),
		cmocka_unit_test(test_live_connect),
		cmocka_unit_test(test_live_inventory),
		cmocka_unit_test(test_live_reconfigure),
		cmocka_unit_test(test_live_powered_on_refused),
		cmocka_unit_test(test_live_wrong_thumbprint),
		cmocka_unit_test(test_live_unverified_certificate),
		cmocka_unit_test(test_live_wrong_password),
		cmocka_unit_test(test_live_not_vsphere),
		cmocka_unit_test(test_live_upgrade),
		cmocka_unit_test(test_live_enable_passthru),
		cmocka_unit_test(test_live_reconnect_pinned),
		cmocka_unit_test(test_live_session_expired),
		cmocka_unit_test(test_live_reconfigure_fault),
		cmocka_unit_test(test_live_named_inventory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
