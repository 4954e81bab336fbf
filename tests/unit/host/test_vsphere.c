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
		cmocka_unit_test(test_inventory_after_reconfigure),
		cmocka_unit_test(test_config_target_vcsim_gpuwiz),
		cmocka_unit_test(test_config_target),
		cmocka_unit_test(test_task_info),
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
