/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_emit_ansible.c: the Ansible playbook and om's create-vm-extension
 * config, parsed back with libyaml's loader; plans from gw_plan_build on
 * the real GPU table.  And the comment post-pass of emit_yaml.c. */
#include "testutil.h"
#include "emit.h"
#include "emit_int.h"
#include "gputable.h"
#include "plan.h"
#include "yamltest.h"

static gw_table table;
TU_TABLE_GROUP(group_setup, group_teardown)

#define SYSID "5f3a1c2e-8b4d-11ee-9a2b-3cecef0a1b2c"

/* A plan from --gpu/--vgpu specs and a few options. */
static void
build(gw_plan *p, const char *spec, const char *bdf, int uvm, int p2p,
      const char *esxi, long mem)
{
	gw_answers a;
	gw_err e;

	gw_answers_init(&a);
	if (gw_answers_add_gpu(&a, &table, spec, "--gpu", &e) != 0)
		fail_msg("%s", e.msg);
	if (bdf) {
		assert_int_equal(gw_answers_add_bdf(&a, bdf, "--bdf", &e), 0);
		assert_int_equal(gw_answers_set_system_id(&a, SYSID, "--system-id",
		                                          &e), 0);
	}
	a.uvm = uvm;
	a.p2p = p2p;
	a.esxi_version = gw_xstrdup(esxi);
	a.memory_mb = mem;
	if (gw_plan_build(&a, &table, NULL, p, &e) != 0)
		fail_msg("%s", e.msg);
	gw_answers_free(&a);
}

/* The play's task whose module is key (NULL when absent). */
static yaml_node_t *
task_args(yaml_document_t *doc, yaml_node_t *play, const char *module)
{
	yaml_node_t *tasks = ymap_get(doc, play, "tasks");
	size_t i;

	for (i = 0; i < yseq_len(tasks); i++) {
		yaml_node_t *t = ymap_get(doc, yseq_at(doc, tasks, i), module);

		if (t)
			return t;
	}
	return NULL;
}

/* The value of an advanced_settings key, NULL when absent. */
static const char *
adv(yaml_document_t *doc, yaml_node_t *guest, const char *key)
{
	yaml_node_t *list = ymap_get(doc, guest, "advanced_settings");
	size_t i;

	for (i = 0; i < yseq_len(list); i++) {
		yaml_node_t *kv = yseq_at(doc, list, i);

		if (strcmp(yscalar(ymap_get(doc, kv, "key")), key) == 0)
			return yscalar(ymap_get(doc, kv, "value"));
	}
	return NULL;
}

/* Does the comment block right above the first line holding s, its
 * lines joined by spaces, hold want? */
static int
comment_above(const char *text, const char *s, const char *want)
{
	const char *at = strstr(text, s), *ls, *le;
	char *block = gw_xstrdup(""), *t;
	int found;

	if (at == NULL)
		return 0;
	while (at > text && at[-1] != '\n')
		at--;
	for (le = at; le > text; le = ls) {
		const char *c;

		for (ls = le - 1; ls > text && ls[-1] != '\n'; ls--)
			;
		for (c = ls; *c == ' '; c++)
			;
		if (c[0] != '#' || c[1] != ' ')
			break;
		t = gw_xasprintf("%.*s %s", (int)(le - 1 - (c + 2)), c + 2, block);
		free(block);
		block = t;
	}
	found = strstr(block, want) != NULL;
	free(block);
	return found;
}

static void
test_passthrough(void **state)
{
	gw_plan p;
	gw_err e;
	const char *vms[] = { "VM1", "VM two" };
	gw_emit_opts o = { vms, 2, "esx-1.example" };
	yaml_document_t doc;
	yaml_node_t *play, *n, *guest, *hw;
	char *out = NULL;

	(void)state;
	build(&p, "l40s=2", "0000:3b:00.0", 0, 1, "8.0U2", 98304);
	assert_int_equal(gw_emit_ansible(&p, &o, &out, &e), 0);
	assert_true(strncmp(out, "---\n", 4) == 0);
	ydoc_load(out, &doc);
	play = yseq_at(&doc, yaml_document_get_root_node(&doc), 0);
	assert_string_equal(yscalar(ymap_get(&doc, play, "hosts")), "localhost");
	n = ymap_get(&doc, ymap_get(&doc, play, "vars"), "gpuwiz_vms");
	assert_int_equal(yseq_len(n), 2);
	assert_string_equal(yscalar(yseq_at(&doc, n, 1)), "VM two");
	n = ymap_get(&doc, ymap_get(&doc, play, "vars"), "gpuwiz_esxi_hostname");
	assert_string_equal(yscalar(n), "esx-1.example");
	/* the connection from the environment, never a password */
	n = ymap_get(&doc, ymap_get(&doc, play, "module_defaults"),
	             "group/community.vmware.vmware");
	assert_non_null(strstr(yscalar(ymap_get(&doc, n, "password")),
	                       "lookup('env', 'VMWARE_PASSWORD')"));
	assert_non_null(strstr(yscalar(ymap_get(&doc, n, "hostname")), "VMWARE_HOST"));
	assert_non_null(task_args(&doc, play, "community.vmware.vmware_guest_info"));
	/* the host address of the one GPU with a --bdf */
	n = task_args(&doc, play, "community.vmware.vmware_host_passthrough");
	assert_non_null(n);
	n = ymap_get(&doc, n, "devices");
	assert_int_equal(yseq_len(n), 1);
	assert_string_equal(yscalar(ymap_get(&doc, yseq_at(&doc, n, 0), "device")),
	                    "0000:3b:00.0");
	assert_null(task_args(&doc, play, "community.vmware.vmware_guest_vgpu"));
	guest = task_args(&doc, play, "community.vmware.vmware_guest");
	assert_non_null(guest);
	assert_string_equal(adv(&doc, guest, "pciPassthru.use64bitMMIO"), "TRUE");
	assert_string_equal(adv(&doc, guest, "pciPassthru.64bitMMIOSizeGB"), "256");
	assert_string_equal(adv(&doc, guest, "pciPassthru.allowP2P"), "TRUE");
	assert_string_equal(adv(&doc, guest, "pciPassthru.RelaxACSforP2P"), "TRUE");
	/* device blocks and sched.mem.* are never advanced settings */
	assert_null(adv(&doc, guest, "pciPassthru0.id"));
	assert_null(adv(&doc, guest, "sched.mem.min"));
	hw = ymap_get(&doc, guest, "hardware");
	assert_string_equal(yscalar(ymap_get(&doc, hw, "memory_reservation_lock")),
	                    "true");
	assert_string_equal(yscalar(ymap_get(&doc, hw, "version")), "21");
	yaml_document_delete(&doc);
	/* comments: each setting's reason and source above it, the device
	 * the collection cannot add, the version's power-off and one way */
	assert_true(comment_above(out, "key: \"pciPassthru.64bitMMIOSizeGB\"",
	                          "source: Broadcom KB 323402"));
	assert_true(comment_above(out, "key: \"pciPassthru.allowP2P\"",
	                          "NVIDIA GPU Operator"));
	assert_true(comment_above(out, "memory_reservation_lock:", "KB 309986"));
	assert_true(comment_above(out, "version: \"21\"", "powered off"));
	assert_true(comment_above(out, "version: \"21\"", "never downgrades"));
	assert_true(comment_above(out, "community.vmware.vmware_guest:",
	                          "no module that adds a DirectPath PCI device"));
	assert_true(comment_above(out, "community.vmware.vmware_guest:",
	                          "gpuwiz vsphere --url https://HOST/sdk --user USER apply --vm VM1 --vm 'VM two' --gpu l40s=2 (it"));
	free(out);
	gw_plan_free(&p);
}

static void
test_vgpu(void **state)
{
	gw_plan p;
	gw_err e;
	yaml_document_t doc;
	yaml_node_t *play, *n, *guest, *hw;
	char *out = NULL;

	(void)state;
	build(&p, "grid_l40s-48c=2", NULL, 1, 0, NULL, 0);
	/* no options: no VM named, the list empty, the assert first */
	assert_int_equal(gw_emit(GW_FMT_ANSIBLE, &p, &out, &e), 0);
	ydoc_load(out, &doc);
	play = yseq_at(&doc, yaml_document_get_root_node(&doc), 0);
	n = ymap_get(&doc, ymap_get(&doc, play, "vars"), "gpuwiz_vms");
	assert_int_equal(yseq_len(n), 0);
	assert_null(ymap_get(&doc, ymap_get(&doc, play, "vars"),
	                     "gpuwiz_esxi_hostname"));
	n = yseq_at(&doc, ymap_get(&doc, play, "tasks"), 0);
	assert_non_null(ymap_get(&doc, n, "ansible.builtin.assert"));
	assert_null(task_args(&doc, play, "community.vmware.vmware_host_passthrough"));
	/* one task for the profile, as ESXi names it; the count in a comment */
	n = task_args(&doc, play, "community.vmware.vmware_guest_vgpu");
	assert_string_equal(yscalar(ymap_get(&doc, n, "vgpu")), "nvidia_l40s-48c");
	assert_string_equal(yscalar(ymap_get(&doc, n, "state")), "present");
	guest = task_args(&doc, play, "community.vmware.vmware_guest");
	assert_string_equal(adv(&doc, guest, "pciPassthru0.cfg.enable_uvm"), "1");
	assert_string_equal(adv(&doc, guest, "pciPassthru1.cfg.enable_uvm"), "1");
	assert_string_equal(adv(&doc, guest, "pciPassthru.64bitMMIOSizeGB"), "256");
	hw = ymap_get(&doc, guest, "hardware");
	/* no memory size: the lock still, no version without --esxi */
	assert_string_equal(yscalar(ymap_get(&doc, hw, "memory_reservation_lock")),
	                    "true");
	assert_null(ymap_get(&doc, hw, "version"));
	yaml_document_delete(&doc);
	assert_true(comment_above(out, "community.vmware.vmware_guest_vgpu:",
	                          "adds only one vGPU of a profile"));
	assert_true(comment_above(out, "key: \"pciPassthru1.cfg.enable_uvm\"",
	                          "NVIDIA AI Enterprise"));
	assert_null(strstr(out, "no module that adds a DirectPath"));
	free(out);
	gw_plan_free(&p);
}

static void
test_refusals(void **state)
{
	gw_plan p;
	gw_err e;
	const char *bad[] = { "ok", "a\nb" };
	const char *empty[] = { "" };
	gw_emit_opts o = { bad, 2, NULL };
	char *out = NULL;

	(void)state;
	build(&p, "l40s", NULL, 0, 0, NULL, 0);
	assert_int_equal(gw_emit_ansible(&p, &o, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "--vm"));
	o.vms = empty;
	o.nvms = 1;
	assert_int_equal(gw_emit_ansible(&p, &o, &out, &e), -1);
	assert_int_equal(gw_emit_ansible(NULL, NULL, &out, &e), -1);
	assert_null(out);
	gw_plan_free(&p);
}

/* om: vm-extension-config {name, cloud_properties as bosh's} */
static void
test_om(void **state)
{
	gw_plan p;
	gw_err e;
	yaml_document_t doc;
	yaml_node_t *cfg, *cp, *n;
	char *out = NULL;

	(void)state;
	build(&p, "l40s", NULL, 0, 0, NULL, 65536);
	assert_int_equal(gw_emit(GW_FMT_OM, &p, &out, &e), 0);
	assert_true(strncmp(out, "---\n", 4) == 0);
	ydoc_load(out, &doc);
	cfg = ymap_get(&doc, yaml_document_get_root_node(&doc),
	               "vm-extension-config");
	assert_non_null(cfg);
	assert_string_equal(yscalar(ymap_get(&doc, cfg, "name")), "gpu-l40s");
	cp = ymap_get(&doc, cfg, "cloud_properties");
	n = yseq_at(&doc, ymap_get(&doc, cp, "pci_passthroughs"), 0);
	assert_string_equal(yscalar(ymap_get(&doc, n, "vendor_id")), "4318");
	assert_string_equal(yscalar(ymap_get(&doc, n, "device_id")), "9913");
	n = ymap_get(&doc, cp, "vmx_options");
	assert_string_equal(yscalar(ymap_get(&doc, n, "pciPassthru.64bitMMIOSizeGB")),
	                    "128");
	assert_string_equal(yscalar(ymap_get(&doc, cp,
	                    "memory_reservation_locked_to_max")), "true");
	yaml_document_delete(&doc);
	free(out);
	gw_plan_free(&p);
	/* a name with a period: refused as by the API */
	build(&p, "l40s", NULL, 0, 0, NULL, 65536);
	free(p.name);
	p.name = gw_xstrdup("gpu.l40s");
	out = NULL;
	assert_int_equal(gw_emit_om(&p, NULL, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "om"));
	gw_plan_free(&p);
	assert_int_equal(gw_format_parse("OM"), GW_FMT_OM);
	assert_int_equal(gw_format_parse("ansible"), GW_FMT_ANSIBLE);
	assert_string_equal(gw_format_filename(GW_FMT_OM), "om-vm-extension.yml");
	assert_string_equal(gw_format_filename(GW_FMT_ANSIBLE), "gpuwiz-playbook.yml");
}

/* The post-pass: notes in order, indented as their line, wrapped at 78
 * cells (a Chinese text without spaces too, two cells a character), one note a line; an
 * anchor with no line is an error. */
static void
test_comment_pass(void **state)
{
	emit_notes ns = { NULL, 0 };
	const char *y = "---\na:\n  b: 1\n  c:\n  - key: \"x\"\n  - key: \"x\"\n";
	char *out = NULL, *line, *save = NULL;
	gw_err e;
	int n = 0;

	(void)state;
	emit_note_add(&ns, NULL, "head");
	emit_note_add(&ns, "b:", "about b");
	/* the connection note in Chinese: no Latin word split */
	emit_note_add(&ns, "c:",
	              "\xe8\xbf\x9e\xe6\x8e\xa5\xe4\xbf\xa1\xe6\x81\xaf\xe5\x8f\x96"
	              "\xe8\x87\xaa\xe8\xaf\xa5\xe9\x9b\x86\xe5\x90\x88\xe8\xaf\xbb"
	              "\xe5\x8f\x96\xe7\x9a\x84\xe7\x8e\xaf\xe5\xa2\x83\xe5\x8f\x98"
	              "\xe9\x87\x8f\xef\xbc\x9aVMWARE_HOST\xe3\x80\x81VMWARE_USER\xe3\x80\x81"
	              "VMWARE_PASSWORD\xe3\x80\x81VMWARE_VALIDATE_CERTS\xef\xbc\x88");
	emit_note_add(&ns, "key: \"x\"", "first x");
	emit_note_add(&ns, "key: \"x\"", "second x "
	              "一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十"
	              "一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十"
	              "一二三四五六七八九十");
	emit_note_add(&ns, "b:", "");      /* empty: no note */
	assert_int_equal(emit_yaml_comment(y, &ns, "t", &out, &e), 0);
	assert_non_null(strstr(out, "---\n# head\na:\n  # about b\n  b: 1\n"));
	assert_non_null(strstr(out, "  # first x\n  - key: \"x\"\n  # second x"));
	assert_non_null(strstr(out, "\n  # VMWARE_PASSWORD\xe3\x80\x81"));
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const unsigned char *s;
		int cells = 0;

		/* a character starts with a non-continuation byte; the
		 * CJK ideographs here (E4..E9 lead bytes) are two cells */
		for (s = (const unsigned char *)line; *s; s++)
			if ((*s & 0xc0) != 0x80)
				cells += *s >= 0xe4 && *s <= 0xe9 ? 2 : 1;
		assert_true(cells <= 78);
		n++;
	}
	assert_true(n >= 10);
	free(out);
	emit_note_add(&ns, "nowhere:", "lost");
	out = NULL;
	assert_int_equal(emit_yaml_comment(y, &ns, "t", &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "nowhere"));
	emit_notes_free(&ns);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passthrough),
		cmocka_unit_test(test_vgpu),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_om),
		cmocka_unit_test(test_comment_pass),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
