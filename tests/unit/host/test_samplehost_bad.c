/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_samplehost_bad.c: broken host.ini files and their errors (see
 * test_samplehost.c). */
#include "samplehost_test.h"

/* ---- broken samples ------------------------------------------------------ */

typedef struct bad_case {
	const char *ini;
	const char *expect;      /* a piece of the error */
} bad_case;

static const char good_host[] =
	"[host]\ntitle = t\nkind = linux\ncpu = intel\nkernel = 6.1.0\n"
	"cmdline = \"ro quiet\"\nacpi = DMAR\niommu = on\n";

void
broken_samples(void **state)
{
	static const bad_case cases[] = {
		{ "[host]\nkind = linux\n", "title is missing" },
		{ "[host]\ntitle = t\nkind = bsd\n",
		  "expected one of linux, esxi, found \"bsd\"" },
		{ "[host]\ntitle = t\nkind = esxi\n",
		  "needs an esxi/ folder" },
		{ "[host]\ntitle = t\nkind = esxi\n[dev1]\nbdf = 0000:00:00.0\n",
		  "unknown section [dev1]" },
		{ "EXTRA[host]\ncolour = red\n", "unknown key 'colour'" },
		{ "EXTRA[gpu]\nx = 1\n", "unknown section [gpu]" },
		{ "EXTRA[dev1]\nbdf = 3b:00.0\nvendor = 0x10de\n",
		  "expected a PCI address" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 10de0\n",
		  "[dev1] vendor: expected a hex number" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\n", "[dev1] class is missing" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "bars = \"1:mem64p:48G\"\n", "\"1:mem64p:48G\"" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "bars = \"0:mem64p:64G 1:mem32:16M\"\n", "BAR 1 is given twice" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "bars = \"5:mem64:16K\"\n", "BAR 5" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "bars = \"0:mem32:16M@0x123\"\n", "aligned to the size" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\ndriver = \"vfio pci\"\n",
		  "expected a driver name" },
		{ "EXTRA[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n"
		  "[dev2]\nbdf = 0000:3B:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\n",
		  "bdf 0000:3b:00.0 is also in [dev1]" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = intel\nkernel = 6.1\n"
		  "cmdline = ro\nacpi = DMAR\niommu = off\n"
		  "[dev1]\nbdf = 0000:3b:00.0\nvendor = 0x10de\n"
		  "device = 0x26b9\nclass = 0x030200\ngroup = 3\n",
		  "iommu = off" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = intel\nkernel = 6.1\n"
		  "cmdline = ro\nacpi = DMAR\niommu = on\necap = f020d7\n",
		  "bit 3 (interrupt remapping)" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = arm\n",
		  "expected one of intel, amd" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = amd\nkernel = 6.1\n"
		  "cmdline = ro\nacpi = IVRS\niommu = on\ncpus = 0\n",
		  "cpus: expected a whole number from 1 to 64" },
		{ "[host]\ntitle = t\nkind = linux\ncpu = amd\nkernel = 6.1\n"
		  "acpi = IVRS\niommu = on\n", "cmdline is missing" },
		{ "[host\ntitle = t\n", "syntax error" },
	};
	char *saved = gw_xstrdup(getenv("GPUWIZ_HOSTS_DIR"));
	char *saved_tmp = gw_xstrdup(getenv("TMPDIR"));
	char *hosts = tu_tmpdir(), *tmp = tu_tmpdir(), *dir, *ini, *cmd;
	size_t i;
	gw_sample s;
	gw_err e;
	FILE *f;
	DIR *dp;
	struct dirent *de;
	int entries = 0;

	(void)state;
	setenv("GPUWIZ_HOSTS_DIR", hosts, 1);
	setenv("TMPDIR", tmp, 1);
	dir = gw_xasprintf("%s/broken", hosts);
	assert_int_equal(mkdir(dir, 0755), 0);
	ini = gw_xasprintf("%s/host.ini", dir);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *text = cases[i].ini;

		f = fopen(ini, "w");
		assert_non_null(f);
		if (strncmp(text, "EXTRA", 5) == 0) {
			fputs(good_host, f);
			text += 5;
		}
		fputs(text, f);
		fclose(f);
		memset(&s, 0, sizeof s);
		if (gw_sample_open("broken", &s, &e) == 0)
			fail_msg("case %zu opened", i);
		if (strstr(e.msg, cases[i].expect) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, e.msg,
			         cases[i].expect);
		assert_null(s.scratch);
		/* the list names it without reading it; its description,
		 * read when shown, fails naming the file (cases 0, 1, 21: a
		 * fault of [host] title or kind, or of the syntax) */
		if (i <= 1 || i == sizeof cases / sizeof cases[0] - 1) {
			gw_sample_info *l;
			size_t n;

			if (gw_sample_list(&l, &n, &e) != 0)
				fail_msg("case %zu: %s", i, e.msg);
			assert_int_equal(n, 1);
			assert_string_equal(l[0].name, "broken");
			assert_int_equal(gw_sample_describe(&l[0], &e), -1);
			assert_non_null(strstr(e.msg, ini));
			assert_null(l[0].title);
			gw_sample_list_free(l, n);
		}
	}
	/* The good one opens (no devices); nothing was left in TMPDIR by
	 * the failures. */
	f = fopen(ini, "w");
	assert_non_null(f);
	fputs(good_host, f);
	fclose(f);
	dp = opendir(tmp);
	assert_non_null(dp);
	while ((de = readdir(dp)) != NULL)
		if (de->d_name[0] != '.')
			entries++;
	closedir(dp);
	assert_int_equal(entries, 0);
	if (gw_sample_open("broken", &s, &e) != 0)
		fail_msg("%s", e.msg);
	assert_true(strncmp(s.scratch, tmp, strlen(tmp)) == 0);
	close_removes(&s);

	setenv("GPUWIZ_HOSTS_DIR", saved, 1);
	if (saved_tmp)
		setenv("TMPDIR", saved_tmp, 1);
	else
		unsetenv("TMPDIR");
	cmd = gw_xasprintf("rm -rf '%s' '%s'", hosts, tmp);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(ini);
	free(dir);
	free(hosts);
	free(tmp);
	free(saved);
	free(saved_tmp);
}
