/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsphere_test.h: what the parts of test_vsphere share (the helpers of
 * test_vsphere.c, the live helpers of test_vsphere_live.c) and the tests
 * main runs. */
#ifndef GW_VSPHERE_TEST_H
#define GW_VSPHERE_TEST_H

#include "testutil.h"
#include "vsphere_int.h"   /* vs_seams.h, and the session (gw_vs) */

#include <fcntl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#define SYSID "65a1b2c3-0d4e-5f60-7182-93a4b5c6d7e8"
#define FP_ABC "BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD"

/* ---- helpers (test_vsphere.c) ---------------------------------------- */

/* XPath over a request we built, with prefixes s (soapenv), v (vim25),
 * xsi. */
typedef struct xq {
	xmlDocPtr doc;
	xmlXPathContextPtr ctx;
} xq;

#define assert_xq(q, expr, want) do { \
		char *got_ = xq_str((q), (expr)); \
		if (strcmp(got_, (want)) != 0) \
			fail_msg("%s: got \"%s\", want \"%s\"", (expr), got_, (want)); \
		free(got_); \
	} while (0)

char *xml_fixture(const char *rel, size_t *len);
void parse_inventory_fixture(const char *rel, gw_vs_inventory *inv);
void xq_open(xq *q, const char *text);
void xq_close(xq *q);
char *xq_str(xq *q, const char *expr);
double xq_num(xq *q, const char *expr);
void vm_init(gw_vs_vm *v);
void vm_add_ec(gw_vs_vm *v, const char *k, const char *val);
void vm_add_dev(gw_vs_vm *v, const char *id, const char *vgpu);
void vm_free1(gw_vs_vm *v);
void progress(void *ctx, const char *what, int pct);
extern int progress_calls;
extern int progress_last;
extern int progress_between;

/* ---- live helpers (test_vsphere_live.c) ------------------------------ */

#define LIVE() do { if (!env("GW_VCSIM_URL")) { skip(); } } while (0)
/* The normal runs (no injected fault). */
#define LIVE_PLAIN() do { LIVE(); if (env("GW_VCSIM_FAIL") || env("GW_VCSIM_DIE")) skip(); } while (0)

const char *env(const char *name);
gw_vs *live_connect(void);
void live_inventory(gw_vs *s, gw_vs_inventory *inv);
int is_l40s(const gw_vs_pci *p);
const gw_vs_vm *pick_vm(const gw_vs_inventory *inv, gw_vs_power p, int skip_n);
const gw_vs_pci *enabled_l40s(const gw_vs_host *h);
/* The URL gw_vs_new makes of url (no network I/O), malloc'ed; NULL with e
 * when it refuses it (test_vsphere_answers.c). */
char *vs_test_url(const char *url, gw_err *e);
/* 1 when both thumbprints normalise to the same value. */
int vs_test_thumb_equal(const char *a, const char *b);

/* ---- the tests -------------------------------------------------------- */

/* test_vsphere_answers.c */
void test_normalize_url(void **state);
void test_thumbprint(void **state);
void test_thumbprint_of_der(void **state);
void test_fault_invalid_login(void **state);
void test_fault_restricted_version(void **state);
void test_fault_managed_object_not_found(void **state);
void test_fault_not_a_fault_and_not_soap(void **state);
void test_inventory_vcsim_esx(void **state);
void test_reader_units(void **state);
void test_reader_kept_cap(void **state);
void test_reader_unit_cap(void **state);
void test_inventory_vcsim_vpx(void **state);
void test_inventory_after_reconfigure(void **state);
void test_config_target_vcsim_gpuwiz(void **state);
void test_inventory_pages(void **state);
void test_config_target(void **state);
void test_task_info(void **state);
void test_inventory_index(void **state);
/* test_vsphere_named.c */
void test_live_named_inventory(void **state);
/* test_vsphere_tasks.c */
void test_task_updates_enter(void **state);
void test_task_updates_error(void **state);
void test_task_updates_timeout(void **state);
void test_task_updates_leave_truncated(void **state);
void test_task_updates_refused(void **state);
void test_power_names(void **state);

/* test_vsphere_body.c */
void test_reconfigure_body(void **state);
void test_reconfigure_body_skips_what_is_there(void **state);
void test_reconfigure_body_refusals(void **state);
void test_reconfigure_body_dynamic(void **state);
void test_new_options(void **state);
void test_refused_without_sending(void **state);
void test_enable_passthru_refusals(void **state);
void test_connect_refused(void **state);
void test_connect_timeout(void **state);

/* test_vsphere_live.c */
void test_live_connect(void **state);
void test_live_inventory(void **state);
void test_live_reconfigure(void **state);
void test_live_powered_on_refused(void **state);
void test_live_wrong_thumbprint(void **state);
void test_live_unverified_certificate(void **state);
void test_live_wrong_password(void **state);
void test_live_not_vsphere(void **state);
void test_live_upgrade(void **state);

/* test_vsphere_sim.c */
void test_live_enable_passthru(void **state);
void test_live_reconnect_pinned(void **state);
void test_live_session_expired(void **state);
void test_live_reconfigure_fault(void **state);

#endif
