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

/* A plan from --gpu/--vgpu specs and a few options; the answers kept in
 * *a (the playbook's gpuwiz options come from them). */
static void
build(gw_plan *p, gw_answers *a, const char *spec, const char *bdf, int uvm,
      int p2p, const char *esxi, long mem)
{
	gw_err e;

	gw_answers_init(a);
	if (gw_answers_add_gpu(a, &table, spec, "--gpu", &e) != 0)
		fail_msg("%s", e.msg);
	if (bdf) {
		assert_int_equal(gw_answers_add_bdf(a, bdf, "--bdf", &e), 0);
		assert_int_equal(gw_answers_set_system_id(a, SYSID, "--system-id",
		                                          &e), 0);
	}
	a->uvm = uvm;
	a->p2p = p2p;
	a->esxi_version = esxi ? gw_xstrdup(esxi) : NULL;
	a->memory_mb = mem;
	if (gw_plan_build(a, &table, NULL, p, &e) != 0)
		fail_msg("%s", e.msg);
}

/* The play's task that runs gpuwiz vsphere with word in its argv (NULL
 * when none). */
static yaml_node_t *
gpuwiz_task(yaml_document_t *doc, yaml_node_t *play, const char *word)
{
	yaml_node_t *tasks = ymap_get(doc, play, "tasks");
	size_t i;

	for (i = 0; i < yseq_len(tasks); i++) {
		yaml_node_t *t = yseq_at(doc, tasks, i);
		yaml_node_t *c = ymap_get(doc, t, "ansible.builtin.command");

		if (c && strstr(yscalar(ymap_get(doc, c, "argv")), word))
			return t;
	}
	return NULL;
}

/* A sequence of scalars joined by spaces (malloc'ed). */
static char *
yjoin(yaml_document_t *doc, yaml_node_t *seq)
{
	char *s = gw_xstrdup(""), *t;
	size_t i;

	for (i = 0; i < yseq_len(seq); i++) {
		t = gw_xasprintf("%s%s%s", s, i ? " " : "", yscalar(yseq_at(doc, seq, i)));
		free(s);
		s = t;
	}
	return s;
}

/* The apply task's gpuwiz options, joined (malloc'ed). */
static char *
plan_args(yaml_document_t *doc, yaml_node_t *play)
{
	yaml_node_t *t = gpuwiz_task(doc, play, "'apply'");

	assert_non_null(t);
	return yjoin(doc, ymap_get(doc, ymap_get(doc, t, "vars"), "gpuwiz_plan"));
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
	gw_answers a;
	gw_err e;
	const char *vms[] = { "VM1", "VM two" };
	gw_emit_opts o = { vms, 2, "esx-1.example", NULL };
	yaml_document_t doc;
	yaml_node_t *play, *vars, *n, *t;
	const char *at;
	char *out = NULL, *args;

	(void)state;
	build(&p, &a, "l40s=2", "0000:3b:00.0", 0, 1, "8.0U2", 98304);
	o.answers = &a;
	assert_int_equal(gw_emit_ansible(&p, &o, &out, &e), 0);
	assert_true(strncmp(out, "---\n", 4) == 0);
	ydoc_load(out, &doc);
	play = yseq_at(&doc, yaml_document_get_root_node(&doc), 0);
	assert_string_equal(yscalar(ymap_get(&doc, play, "hosts")), "localhost");
	vars = ymap_get(&doc, play, "vars");
	n = ymap_get(&doc, vars, "gpuwiz_vms");
	assert_int_equal(yseq_len(n), 2);
	assert_string_equal(yscalar(yseq_at(&doc, n, 1)), "VM two");
	assert_string_equal(yscalar(ymap_get(&doc, vars, "gpuwiz_esxi_hostname")),
	                    "esx-1.example");
	assert_string_equal(yscalar(ymap_get(&doc, vars, "gpuwiz")), "gpuwiz");
	/* the connection from the collection's variables, the password only
	 * through gpuwiz's environment */
	assert_non_null(strstr(yscalar(ymap_get(&doc, vars, "gpuwiz_vmware_host")),
	                       "lookup('env', 'VMWARE_HOST')"));
	assert_non_null(strstr(yscalar(ymap_get(&doc, vars, "gpuwiz_tls")),
	                       "'--insecure'"));
	n = ymap_get(&doc, play, "environment");
	assert_string_equal(yscalar(ymap_get(&doc, n, "GPUWIZ_PASSWORD")),
	                    "{{ lookup('env', 'VMWARE_PASSWORD') }}");
	assert_null(strstr(out, "password:"));
	/* no module of the collection: Debian 12's pyVmomi */
	assert_null(strstr(out, "community.vmware."));
	/* passthrough on for the one GPU with a --bdf, those not active */
	assert_non_null(gpuwiz_task(&doc, play, "'list', '--json'"));
	t = gpuwiz_task(&doc, play, "'passthru', '--enable', item");
	assert_non_null(t);
	args = yjoin(&doc, ymap_get(&doc, ymap_get(&doc, t, "vars"), "gpuwiz_bdfs"));
	assert_string_equal(args, "0000:3b:00.0");
	free(args);
	assert_string_equal(yscalar(ymap_get(&doc, t, "when")),
	                    "item not in gpuwiz_active");
	/* the VMs: the plan's options; two VMs, no --bdf */
	args = plan_args(&doc, play);
	assert_string_equal(args, "--gpu l40s=2 --p2p --esxi 8.0U2 --upgrade-hw");
	free(args);
	t = gpuwiz_task(&doc, play, "'apply'");
	assert_string_equal(yscalar(ymap_get(&doc, t, "failed_when")),
	                    "gpuwiz_apply.rc != 0");
	assert_non_null(strstr(yscalar(ymap_get(&doc, ymap_get(&doc, t, "vars"),
	                                        "gpuwiz_reconfigured")),
	                       "'reconfigured'"));
	yaml_document_delete(&doc);
	/* comments: each setting's reason and source above its option, why
	 * gpuwiz, the version's power-off and one way */
	assert_true(comment_above(out, "- \"--gpu\"", "pciPassthru.64bitMMIOSizeGB = \"256\""));
	assert_true(comment_above(out, "- \"--gpu\"", "source: Broadcom KB 323402"));
	assert_true(comment_above(out, "- \"--p2p\"", "NVIDIA GPU Operator"));
	assert_true(comment_above(out, "- \"--esxi\"", "powered off"));
	assert_true(comment_above(out, "- \"--esxi\"", "newer version is refused"));
	at = strstr(out, "Attach the GPUs");
	assert_non_null(at);
	assert_true(comment_above(at, "ansible.builtin.command:", "no module that adds a PCI device"));
	assert_true(comment_above(at, "ansible.builtin.command:", "KB 309986"));
	at = strstr(out, "Enable passthrough");
	assert_non_null(at);
	assert_true(comment_above(at, "ansible.builtin.command:", "applyNow"));
	at = strstr(out, "Read the host's GPUs");
	assert_non_null(at);
	assert_true(comment_above(at, "ansible.builtin.command:", "changes nothing"));
	free(out);
	/* one VM: the device by its host address */
	o.nvms = 1;
	assert_int_equal(gw_emit_ansible(&p, &o, &out, &e), 0);
	ydoc_load(out, &doc);
	play = yseq_at(&doc, yaml_document_get_root_node(&doc), 0);
	args = plan_args(&doc, play);
	assert_string_equal(args, "--gpu l40s=2 --bdf 0000:3b:00.0 --p2p --esxi 8.0U2 --upgrade-hw");
	free(args);
	yaml_document_delete(&doc);
	free(out);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_vgpu(void **state)
{
	gw_plan p;
	gw_answers a;
	gw_err e;
	gw_emit_opts o = { NULL, 0, NULL, NULL };
	yaml_document_t doc;
	yaml_node_t *play, *n;
	char *out = NULL, *args;

	(void)state;
	build(&p, &a, "grid_l40s-48c=2", NULL, 1, 0, NULL, 0);
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
	/* no host address: no passthrough task */
	assert_null(gpuwiz_task(&doc, play, "'passthru'"));
	assert_null(gpuwiz_task(&doc, play, "'list'"));
	/* the profile as ESXi names it, with its count; no --esxi, no
	 * upgrade */
	args = plan_args(&doc, play);
	assert_string_equal(args, "--vgpu nvidia_l40s-48c=2 --uvm");
	free(args);
	yaml_document_delete(&doc);
	assert_true(comment_above(out, "- \"--uvm\"", "pciPassthru1.cfg.enable_uvm"));
	assert_true(comment_above(out, "- \"--uvm\"", "NVIDIA AI Enterprise"));
	free(out);
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* the answers' --no-reserve and --mmio-gb are passed on */
	build(&p, &a, "l40s", NULL, 0, 0, "8.0U1", 0);
	gw_plan_free(&p);
	a.reserve = 0;
	a.mmio_gb = 512;
	assert_int_equal(gw_plan_build(&a, &table, NULL, &p, &e), 0);
	o.answers = &a;
	assert_int_equal(gw_emit_ansible(&p, &o, &out, &e), 0);
	ydoc_load(out, &doc);
	play = yseq_at(&doc, yaml_document_get_root_node(&doc), 0);
	args = plan_args(&doc, play);
	assert_string_equal(args, "--gpu l40s --no-reserve --mmio-gb 512 --esxi 8.0U1 --upgrade-hw");
	free(args);
	yaml_document_delete(&doc);
	free(out);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

static void
test_refusals(void **state)
{
	gw_plan p;
	gw_err e;
	const char *bad[] = { "ok", "a\nb" };
	const char *empty[] = { "" };
	gw_emit_opts o = { bad, 2, NULL, NULL };
	gw_answers a;
	char *out = NULL;

	(void)state;
	build(&p, &a, "l40s", NULL, 0, 0, NULL, 0);
	assert_int_equal(gw_emit_ansible(&p, &o, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "--vm"));
	o.vms = empty;
	o.nvms = 1;
	assert_int_equal(gw_emit_ansible(&p, &o, &out, &e), -1);
	assert_int_equal(gw_emit_ansible(NULL, NULL, &out, &e), -1);
	assert_null(out);
	gw_plan_free(&p);
	gw_answers_free(&a);
}

/* om: vm-extension-config {name, cloud_properties as bosh's} */
static void
test_om(void **state)
{
	gw_plan p;
	gw_answers a;
	gw_err e;
	yaml_document_t doc;
	yaml_node_t *cfg, *cp, *n;
	char *out = NULL;

	(void)state;
	build(&p, &a, "l40s", NULL, 0, 0, NULL, 65536);
	gw_answers_free(&a);
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
	build(&p, &a, "l40s", NULL, 0, 0, NULL, 65536);
	gw_answers_free(&a);
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
