/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_finding_print.c: the one text and the one JSON printer of findings,
 * in both layouts (the plan's findings and check rows), with topic masks.
 * The text is compared byte for byte with what gpuwiz prints today; the
 * JSON is parsed back with jansson. */
#include "testutil.h"
#include "finding_print.h"
#include "plan.h"

#include <jansson.h>

/* Run the printer into a memory stream; returns the bytes (malloc'ed). */
static char *
text_of(const gw_finding *v, size_t n, gw_finding_layout layout,
        unsigned topics)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	gw_findings_print(f, v, n, layout, topics);
	fclose(f);
	return buf;
}

/* Findings as the plan makes them for an L40S VM with an old .vmx. */
static void
plan_findings(gw_finding **v, size_t *n)
{
	*v = NULL;
	*n = 0;
	gw_findings_add(v, n, GW_SEV_INFO, "mmio-kept", GW_TOPIC_SIZING,
	                "Broadcom KB 323402", NULL,
	                gw_xstrdup("pciPassthru.64bitMMIOSizeGB = 256 in the "
	                           ".vmx is larger than the 128 GB needed: "
	                           "kept"), NULL);
	gw_findings_add(v, n, GW_SEV_WARN, "firmware-bios", GW_TOPIC_FIRMWARE,
	                "VMware GPU passthrough blog; NVIDIA vGPU "
	                "prerequisites", NULL,
	                gw_xstrdup("The VM boots with BIOS firmware (no "
	                           "firmware key): BARs larger than 16 GB "
	                           "need EFI firmware"),
	                gw_xstrdup("The guest must be installed in EFI mode."));
	gw_findings_add(v, n, GW_SEV_ERROR, "hw-too-new", GW_TOPIC_VERSION,
	                "Broadcom KB 1003746", NULL,
	                gw_xstrdup("The VM has hardware version 21, newer than "
	                           "ESXi 7.0U3 supports (19): it needs a newer "
	                           "host"),
	                gw_xstrdup("Run the VM on a host that supports hardware "
	                           "version 21; hardware versions cannot be "
	                           "downgraded safely."));
	gw_findings_add(v, n, GW_SEV_WARN, "gpu-vram-unknown", GW_TOPIC_GPU,
	                "Broadcom KB 323402", NULL,
	                gw_xstrdup("pciPassthru1 (10de:1234, 10de:1234): its "
	                           "VRAM is unknown in the GPU table, so it is "
	                           "not counted and the MMIO size may be too "
	                           "small"),
	                gw_xstrdup("Add its framebuffer with --vram GB."));
}

/* Check rows as the Linux probe makes them. */
static void
check_rows(gw_finding **v, size_t *n)
{
	*v = NULL;
	*n = 0;
	gw_findings_add(v, n, GW_SEV_PASS, "iommu", GW_TOPIC_HOST, NULL,
	                gw_xstrdup("Checking for an IOMMU (VT-d / AMD-Vi)"),
	                gw_xstrdup("IOMMU groups found in /sys/kernel/"
	                           "iommu_groups"), NULL);
	gw_findings_add(v, n, GW_SEV_WARN, "interrupt-remap", GW_TOPIC_HOST,
	                NULL, gw_xstrdup("Checking for interrupt remapping"),
	                gw_xstrdup("dmesg does not say whether interrupt "
	                           "remapping is on"), NULL);
	gw_findings_add(v, n, GW_SEV_ERROR, "gpu-driver", GW_TOPIC_HOST, NULL,
	                gw_xstrdup("Checking for the driver of 0000:41:00.0"),
	                gw_xstrdup("0000:41:00.0 is bound to nvidia, not "
	                           "vfio-pci"),
	                gw_xstrdup("Bind it to vfio-pci: echo vfio-pci > "
	                           "/sys/bus/pci/devices/0000:41:00.0/"
	                           "driver_override"));
	(*v)[2].gpu = 0;
}

static void
test_plan_text(void **state)
{
	gw_finding *v;
	size_t n;
	char *s;

	(void)state;
	plan_findings(&v, &n);
	s = text_of(v, n, GW_LAYOUT_PLAN, GW_TOPIC_ALL);
	assert_string_equal(s,
	    "  INFO  pciPassthru.64bitMMIOSizeGB = 256 in the .vmx is larger "
	    "than the 128 GB needed: kept\n"
	    "        source: Broadcom KB 323402\n"
	    "  WARN  The VM boots with BIOS firmware (no firmware key): BARs "
	    "larger than 16 GB need EFI firmware\n"
	    "        fix: The guest must be installed in EFI mode.\n"
	    "        source: VMware GPU passthrough blog; NVIDIA vGPU "
	    "prerequisites\n"
	    "  FAIL  The VM has hardware version 21, newer than ESXi 7.0U3 "
	    "supports (19): it needs a newer host\n"
	    "        fix: Run the VM on a host that supports hardware version "
	    "21; hardware versions cannot be downgraded safely.\n"
	    "        source: Broadcom KB 1003746\n"
	    "  WARN  pciPassthru1 (10de:1234, 10de:1234): its VRAM is unknown "
	    "in the GPU table, so it is not counted and the MMIO size may be "
	    "too small\n"
	    "        fix: Add its framebuffer with --vram GB.\n"
	    "        source: Broadcom KB 323402\n");
	free(s);
	gw_findings_free(&v, &n);
	assert_null(v);
	assert_int_equal(n, 0);
}

/* "gpuwiz mmio" shows the sizing rows and the GPU rows only. */
static void
test_plan_text_sizing(void **state)
{
	const unsigned sizing = GW_TOPIC_BIT(GW_TOPIC_SIZING) |
	                        GW_TOPIC_BIT(GW_TOPIC_GPU);
	gw_finding *v;
	size_t n;
	char *s;

	(void)state;
	plan_findings(&v, &n);
	assert_int_equal(gw_findings_count(v, n, sizing), 2);
	assert_int_equal(gw_findings_count(v, n, GW_TOPIC_ALL), 4);
	assert_int_equal(gw_findings_count(v, n,
	                                   GW_TOPIC_BIT(GW_TOPIC_HOST)), 0);
	s = text_of(v, n, GW_LAYOUT_PLAN, sizing);
	assert_string_equal(s,
	    "  INFO  pciPassthru.64bitMMIOSizeGB = 256 in the .vmx is larger "
	    "than the 128 GB needed: kept\n"
	    "        source: Broadcom KB 323402\n"
	    "  WARN  pciPassthru1 (10de:1234, 10de:1234): its VRAM is unknown "
	    "in the GPU table, so it is not counted and the MMIO size may be "
	    "too small\n"
	    "        fix: Add its framebuffer with --vram GB.\n"
	    "        source: Broadcom KB 323402\n");
	free(s);
	s = text_of(v, n, GW_LAYOUT_PLAN, 0);
	assert_string_equal(s, "");
	free(s);
	gw_findings_free(&v, &n);
}

static void
test_plan_json(void **state)
{
	gw_finding *v;
	size_t n;
	json_t *arr, *back, *j;
	json_error_t je;
	char *s;

	(void)state;
	plan_findings(&v, &n);
	arr = gw_findings_json(v, n, GW_LAYOUT_PLAN, GW_TOPIC_ALL);
	s = json_dumps(arr, JSON_PRESERVE_ORDER | JSON_COMPACT);
	json_decref(arr);
	back = json_loads(s, 0, &je);
	assert_non_null(back);
	assert_int_equal(json_array_size(back), 4);
	j = json_array_get(back, 0);
	assert_int_equal(json_object_size(j), 5);
	assert_string_equal(json_string_value(json_object_get(j, "id")),
	                    "mmio-kept");
	assert_string_equal(json_string_value(json_object_get(j, "severity")),
	                    "info");
	assert_true(json_is_null(json_object_get(j, "fix")));
	assert_string_equal(json_string_value(json_object_get(j, "source")),
	                    "Broadcom KB 323402");
	j = json_array_get(back, 2);
	assert_string_equal(json_string_value(json_object_get(j, "severity")),
	                    "error");
	assert_string_equal(json_string_value(json_object_get(j, "fix")),
	                    "Run the VM on a host that supports hardware "
	                    "version 21; hardware versions cannot be "
	                    "downgraded safely.");
	assert_string_equal(json_string_value(json_object_get(
	                        json_array_get(back, 1), "severity")), "warn");
	/* keys in the order gpuwiz has always written them */
	assert_non_null(strstr(s, "{\"id\":\"mmio-kept\",\"severity\":\"info\","
	                          "\"message\":"));
	assert_non_null(strstr(s, "\"fix\":null,\"source\":\"Broadcom KB "
	                          "323402\"}"));
	json_decref(back);
	free(s);
	arr = gw_findings_json(v, n, GW_LAYOUT_PLAN,
	                       GW_TOPIC_BIT(GW_TOPIC_FIRMWARE));
	assert_int_equal(json_array_size(arr), 1);
	assert_string_equal(json_string_value(json_object_get(
	                        json_array_get(arr, 0), "id")), "firmware-bios");
	json_decref(arr);
	gw_findings_free(&v, &n);
}

static void
test_checks_text(void **state)
{
	gw_finding *v;
	size_t n;
	char *s;

	(void)state;
	check_rows(&v, &n);
	s = text_of(v, n, GW_LAYOUT_CHECKS, GW_TOPIC_ALL);
	assert_string_equal(s,
	    "Checking for an IOMMU (VT-d / AMD-Vi) : PASS\n"
	    "Checking for interrupt remapping : WARN\n"
	    "  dmesg does not say whether interrupt remapping is on\n"
	    "Checking for the driver of 0000:41:00.0 : FAIL\n"
	    "  0000:41:00.0 is bound to nvidia, not vfio-pci\n"
	    "  fix: Bind it to vfio-pci: echo vfio-pci > "
	    "/sys/bus/pci/devices/0000:41:00.0/driver_override\n");
	free(s);
	gw_findings_free(&v, &n);
}

/* gw_checks_print with json: {"checks": [...]} as gpuwiz check --json. */
static void
test_checks_json(void **state)
{
	gw_finding *v;
	size_t n, len = 0;
	char *buf = NULL;
	FILE *f;
	json_t *o, *arr, *j;
	json_error_t je;

	(void)state;
	check_rows(&v, &n);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	gw_checks_print(f, v, n, 1);
	fclose(f);
	assert_true(len > 2);
	assert_int_equal(buf[len - 1], '\n');
	assert_non_null(strstr(buf, "{\n  \"checks\": [\n    {\n      \"id\": "
	                            "\"iommu\",\n      \"status\": \"PASS\",\n"
	                            "      \"title\": "));
	o = json_loads(buf, 0, &je);
	assert_non_null(o);
	assert_int_equal(json_object_size(o), 1);
	arr = json_object_get(o, "checks");
	assert_int_equal(json_array_size(arr), 3);
	j = json_array_get(arr, 0);
	/* id, status, title, message, fix, source */
	assert_int_equal(json_object_size(j), 6);
	assert_true(json_is_null(json_object_get(j, "source")));
	assert_string_equal(json_string_value(json_object_get(j, "title")),
	                    "Checking for an IOMMU (VT-d / AMD-Vi)");
	assert_true(json_is_null(json_object_get(j, "fix")));
	j = json_array_get(arr, 2);
	assert_string_equal(json_string_value(json_object_get(j, "id")),
	                    "gpu-driver");
	assert_string_equal(json_string_value(json_object_get(j, "status")),
	                    "FAIL");
	assert_string_equal(json_string_value(json_object_get(j, "message")),
	                    "0000:41:00.0 is bound to nvidia, not vfio-pci");
	assert_non_null(strstr(json_string_value(json_object_get(j, "fix")),
	                       "driver_override"));
	assert_string_equal(json_string_value(json_object_get(
	                        json_array_get(arr, 1), "status")), "WARN");
	json_decref(o);
	free(buf);

	/* without json: the text layout */
	buf = NULL;
	f = open_memstream(&buf, &len);
	gw_checks_print(f, v, 1, 0);
	fclose(f);
	assert_string_equal(buf, "Checking for an IOMMU (VT-d / AMD-Vi) : "
	                         "PASS\n");
	free(buf);
	gw_findings_free(&v, &n);
}

/* Text that is not UTF-8 (a hand-edited .vmx quoted in a message) still
 * gives valid JSON: the bad byte as the text printers show it (\xFF), the
 * rest, Chinese included, as it is. */
static void
test_json_bad_utf8(void **state)
{
	gw_finding *v = NULL;
	size_t n = 0;
	json_t *arr;

	(void)state;
	gw_findings_add(&v, &n, GW_SEV_WARN, "firmware-bios",
	                GW_TOPIC_FIRMWARE, NULL, NULL,
	                gw_xstrdup("firmware = \"bi\xffos\" 固件"), NULL);
	arr = gw_findings_json(v, n, GW_LAYOUT_PLAN, GW_TOPIC_ALL);
	assert_string_equal(json_string_value(json_object_get(
	                        json_array_get(arr, 0), "message")),
	                    "firmware = \"bi\\xFFos\" 固件");
	assert_true(json_is_null(json_object_get(json_array_get(arr, 0),
	                                         "source")));
	json_decref(arr);
	gw_findings_free(&v, &n);
}

static void
test_words(void **state)
{
	gw_finding f;

	(void)state;
	assert_true(GW_SEV_PASS < GW_SEV_INFO && GW_SEV_INFO < GW_SEV_WARN &&
	            GW_SEV_WARN < GW_SEV_ERROR);
	assert_string_equal(gw_sev_id(GW_SEV_PASS), "pass");
	assert_string_equal(gw_sev_id(GW_SEV_INFO), "info");
	assert_string_equal(gw_sev_id(GW_SEV_WARN), "warn");
	assert_string_equal(gw_sev_id(GW_SEV_ERROR), "error");
	assert_string_equal(gw_sev_word(GW_SEV_PASS), "PASS");
	assert_string_equal(gw_sev_word(GW_SEV_ERROR), "FAIL");
	assert_string_equal(gw_sev_label(GW_SEV_INFO), "INFO");
	assert_string_equal(gw_sev_label(GW_SEV_PASS), "PASS");
	assert_true(gw_topic_in(GW_TOPIC_HOST, GW_TOPIC_ALL));
	assert_false(gw_topic_in(GW_TOPIC_HOST, GW_TOPIC_BIT(GW_TOPIC_GUEST)));
	gw_finding_set(&f, GW_SEV_WARN, "x", GW_TOPIC_GUEST, "src",
	               gw_xstrdup("t"), gw_xstrdup("m"), NULL);
	assert_int_equal(f.gpu, -1);
	assert_int_equal(f.topic, GW_TOPIC_GUEST);
	gw_finding_free(&f);
	assert_null(f.message);
	gw_finding_free(NULL);
}

/* GW_LAYOUT_VERIFY: titles padded to 56 cells, the translated label, the
 * message under every row and the fix where there is one. */
static void
test_verify_layout(void **state)
{
	gw_finding *v = NULL;
	size_t n = 0;
	char *s;

	(void)state;
	gw_findings_add(&v, &n, GW_SEV_PASS, "driver", GW_TOPIC_GUEST, NULL,
	                gw_xstrdup("Checking the driver version"),
	                gw_xstrdup("Driver Version 550.90.12"), NULL);
	gw_findings_add(&v, &n, GW_SEV_ERROR, "bar1", GW_TOPIC_GUEST, NULL,
	                gw_xstrdup("Checking BAR1 of GPU 00000000:03:00.0"),
	                gw_xstrdup("BAR1 is 0"), gw_xstrdup("Set the size."));
	v[1].gpu = 0;
	s = text_of(v, n, GW_LAYOUT_VERIFY, GW_TOPIC_ALL);
	assert_string_equal(s,
	    "Checking the driver version                              : PASS\n"
	    "        Driver Version 550.90.12\n"
	    "Checking BAR1 of GPU 00000000:03:00.0                    : FAIL\n"
	    "        BAR1 is 0\n"
	    "        fix: Set the size.\n");
	free(s);
	s = text_of(v, n, GW_LAYOUT_VERIFY, GW_TOPIC_BIT(GW_TOPIC_HOST));
	assert_string_equal(s, "");
	free(s);
	gw_findings_free(&v, &n);
}

static void
gpu_name(json_t *j, const gw_finding *f, size_t i, void *arg)
{
	const char *const *names = arg;

	json_object_set_new(j, "gpu", f->gpu >= 0 ? json_string(names[f->gpu])
	                                          : json_null());
}

/* GW_LAYOUT_VERIFY's JSON: lower-case status, the extra's "gpu" after
 * it, then message and fix; no "gpu" without the extra. */
static void
test_verify_json(void **state)
{
	static const char *const names[] = { "00000000:03:00.0" };
	gw_finding_extra x = { NULL, gpu_name, (void *)names };
	gw_finding *v = NULL;
	size_t n = 0;
	json_t *arr;
	char *s;

	(void)state;
	gw_findings_add(&v, &n, GW_SEV_ERROR, "bar1", GW_TOPIC_GUEST, NULL,
	                gw_xstrdup("t"), gw_xstrdup("BAR1 is 0"), NULL);
	v[0].gpu = 0;
	arr = gw_findings_json_ext(v, n, GW_LAYOUT_VERIFY, GW_TOPIC_ALL, &x);
	s = json_dumps(arr, JSON_PRESERVE_ORDER | JSON_COMPACT);
	assert_string_equal(s, "[{\"id\":\"bar1\",\"status\":\"fail\",\"gpu\":"
	                       "\"00000000:03:00.0\",\"message\":\"BAR1 is 0\","
	                       "\"fix\":null}]");
	free(s);
	json_decref(arr);
	arr = gw_findings_json(v, n, GW_LAYOUT_VERIFY, GW_TOPIC_ALL);
	s = json_dumps(arr, JSON_PRESERVE_ORDER | JSON_COMPACT);
	assert_string_equal(s, "[{\"id\":\"bar1\",\"status\":\"fail\","
	                       "\"message\":\"BAR1 is 0\",\"fix\":null}]");
	free(s);
	json_decref(arr);
	gw_findings_free(&v, &n);
}

static void
diag_head(gw_buf *out, const gw_finding *f, size_t i, void *arg)
{
	gw_buf_printf(out, "\n[%zu] %s\n", i + 1, f->id);
}

static void
diag_line(json_t *j, const gw_finding *f, size_t i, void *arg)
{
	json_object_set_new(j, "line_number", json_integer((json_int_t)i + 7));
}

/* GW_LAYOUT_DIAG: the extra's heading, then Cause, Fix and Source; in
 * JSON "cause" for the message and the extra's keys last. */
static void
test_diag_layout(void **state)
{
	gw_finding_extra x = { diag_head, diag_line, NULL };
	gw_finding *v = NULL;
	size_t n = 0;
	gw_buf b;
	json_t *arr;
	char *s;

	(void)state;
	gw_findings_add(&v, &n, GW_SEV_ERROR, "memory-reservation",
	                GW_TOPIC_DIAG, "Broadcom KB 309986", NULL,
	                gw_xstrdup("Not all memory is reserved."),
	                gw_xstrdup("Reserve it."));
	gw_buf_init(&b);
	gw_findings_render(&b, v, n, GW_LAYOUT_DIAG, GW_TOPIC_ALL, &x);
	assert_string_equal(b.data, "\n[1] memory-reservation\n"
	                            "    Cause: Not all memory is reserved.\n"
	                            "    Fix: Reserve it.\n"
	                            "    Source: Broadcom KB 309986\n");
	gw_buf_free(&b);
	arr = gw_findings_json_ext(v, n, GW_LAYOUT_DIAG,
	                           GW_TOPIC_BIT(GW_TOPIC_DIAG), &x);
	s = json_dumps(arr, JSON_PRESERVE_ORDER | JSON_COMPACT);
	assert_string_equal(s, "[{\"id\":\"memory-reservation\",\"cause\":"
	                       "\"Not all memory is reserved.\",\"fix\":"
	                       "\"Reserve it.\",\"source\":\"Broadcom KB "
	                       "309986\",\"line_number\":7}]");
	free(s);
	json_decref(arr);
	gw_findings_free(&v, &n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_text),
		cmocka_unit_test(test_verify_layout),
		cmocka_unit_test(test_verify_json),
		cmocka_unit_test(test_diag_layout),
		cmocka_unit_test(test_plan_text_sizing),
		cmocka_unit_test(test_plan_json),
		cmocka_unit_test(test_checks_text),
		cmocka_unit_test(test_checks_json),
		cmocka_unit_test(test_json_bad_utf8),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
