/* SPDX-License-Identifier: GPL-3.0-or-later */
/* answers.c: the answers file, read with iniparser. */
#include "answers.h"
#include "emit.h"
#include "mmio.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ini.h"

#define ANSWERS_MAX_BYTES (1u << 20)


struct known_key {
	const char *section;
	const char *key;
};

static const struct known_key known_keys[] = {
	{ "wizard", "activity" }, { "wizard", "language" },
	{ "host", "kind" }, { "host", "address" }, { "host", "identity" },
	{ "host", "user" }, { "host", "enable" }, { "host", "thumbprint" },
	{ "gpu", "devices" }, { "gpu", "vram" },
	{ "vm", "name" }, { "vm", "vmx" }, { "vm", "memory_mb" }, { "vm", "esxi" },
	{ "vm", "bdf" }, { "vm", "system_id" }, { "vm", "upgrade_hw" },
	{ "options", "uvm" }, { "options", "p2p" }, { "options", "code43" },
	{ "options", "dynamic" },
	{ "options", "reserve" }, { "options", "mmio_gb" },
	{ "options", "allow_below_rule" }, { "options", "force" },
	{ "output", "dir" }, { "output", "formats" }, { "output", "name" },
};

const char *const gw_answers_activities[] = { "vm", "tanzu", NULL };
unsigned
gw_answers_audience(int activity)
{
	return activity == 1 ? GW_AUD_TANZU : GW_AUD_VM;
}

const char *const gw_answers_languages[] = { "en", "zh_CN", NULL };
const char *const gw_answers_host_words[] = {
	"offline", "linux", "sample", "ssh", "api", NULL
};

static int
known(const char *section, const char *key)
{
	size_t i;

	for (i = 0; i < sizeof known_keys / sizeof known_keys[0]; i++)
		if (strcmp(known_keys[i].section, section) == 0 &&
		    (key == NULL || strcmp(known_keys[i].key, key) == 0))
			return 1;
	return 0;
}

/* A path from the file, relative to the answers file's directory. */
static char *
resolve_path(const char *answers_path, const char *p)
{
	char *copy, *dir, *out;

	if (p[0] == '/')
		return gw_xstrdup(p);
	copy = gw_xstrdup(answers_path);
	dir = dirname(copy);
	out = strcmp(dir, ".") == 0 ? gw_xstrdup(p) : gw_xasprintf("%s/%s", dir, p);
	free(copy);
	return out;
}

static int
parse_bool(const char *path, const char *key, const char *v, int *out,
           gw_err *e)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (gw_strieq(v, yes[i])) {
			*out = 1;
			return 0;
		}
		if (gw_strieq(v, no[i])) {
			*out = 0;
			return 0;
		}
	}
	gw_err_set(e, _("%s: [options] %s: '%s' is not a yes/no value (expected yes or no)"),
	           path, key, v);
	return -1;
}

/* Call fn for each comma-separated, trimmed, non-empty item. */
static int
each_item(const char *list, int (*fn)(void *, const char *, gw_err *),
          void *ctx, gw_err *e)
{
	char *copy = gw_xstrdup(list), *save = NULL, *tok;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		gw_trim(tok);
		if (*tok == '\0')
			continue;
		if ((rc = fn(ctx, tok, e)) != 0)
			break;
	}
	free(copy);
	return rc;
}

struct item_ctx {
	gw_answers *a;
	const gw_table *t;
	const char *field;
};

static int
add_gpu_item(void *p, const char *s, gw_err *e)
{
	struct item_ctx *c = p;

	return gw_answers_add_gpu(c->a, c->t, s, c->field, e);
}

static int
add_vram_item(void *p, const char *s, gw_err *e)
{
	struct item_ctx *c = p;

	return gw_answers_add_vram(c->a, s, c->field, e);
}

static int
add_bdf_item(void *p, const char *s, gw_err *e)
{
	struct item_ctx *c = p;

	return gw_answers_add_bdf(c->a, s, c->field, e);
}

/* One [host] enable item: a host PCI address, kept as given (trimmed). */
static int
add_enable_item(void *p, const char *s, gw_err *e)
{
	gw_answers_file *af = p;
	unsigned d, b, sl, f;
	char *t = gw_xstrdup(s), *v = gw_trim(t);
	size_t i;

	if (gw_bdf_parse(v, &d, &b, &sl, &f) != 0) {
		gw_err_set(e, _("%s: [host] enable: '%s' is not a PCI address (expected hex 0000:42:00.0, as esxcli hardware pci list shows it)"),
		           af->path, v);
		free(t);
		return -1;
	}
	for (i = 0; i < af->nhost_enable; i++)
		if (strcmp(af->host_enable[i], v) == 0) {
			gw_err_set(e, _("%s: [host] enable: %s is given twice"),
			           af->path, v);
			free(t);
			return -1;
		}
	af->host_enable = gw_xrealloc(af->host_enable,
	                              (af->nhost_enable + 1) *
	                              sizeof *af->host_enable);
	af->host_enable[af->nhost_enable++] = gw_xstrdup(v);
	free(t);
	return 0;
}

/* A list key ("gpu:devices") through add, one item at a time. */
static int
load_list(dictionary *d, const char *key, const char *path,
          const char *label, int (*add)(void *, const char *, gw_err *),
          struct item_ctx *c, gw_err *e)
{
	const char *v = iniparser_getstring(d, key, NULL);
	char field[128];

	if (v == NULL)
		return 0;
	snprintf(field, sizeof field, "%s: %s", path, label);
	c->field = field;
	return each_item(v, add, c, e);
}

/* The index of v in words (NULL-terminated), -1 when not there. */
static int
word_index(const char *const *words, const char *v)
{
	int i;

	for (i = 0; words[i]; i++)
		if (strcmp(words[i], v) == 0)
			return i;
	return -1;
}

/* words as "a, b or c" for the errors. */
static char *
word_list(const char *const *words)
{
	gw_buf b;
	int i;

	gw_buf_init(&b);
	for (i = 0; words[i]; i++)
		gw_buf_printf(&b, "%s%s", i == 0 ? "" : words[i + 1] ? ", " :
		              /* TRANSLATORS: between the last two of a list
		               * of words ("vm or tanzu"). */
		              _(" or "), words[i]);
	return gw_buf_steal(&b);
}

/* A key of sec whose value must be one of words. */
static int
load_word(dictionary *d, const char *path, const char *sec, const char *key,
          const char *const *words, int *idx, gw_err *e)
{
	char k[64];
	const char *v;
	char *list;

	snprintf(k, sizeof k, "%s:%s", sec, key);
	*idx = -1;
	if ((v = iniparser_getstring(d, k, NULL)) == NULL)
		return 0;
	if ((*idx = word_index(words, v)) >= 0)
		return 0;
	list = word_list(words);
	/* TRANSLATORS: %s: the answers file, the section, the key, the
	 * value, then the words it may be ("vm or tanzu"). */
	gw_err_set(e, _("%s: [%s] %s: '%s' is not known (expected %s)"),
	           path, sec, key, v, list);
	free(list);
	return -1;
}

/* [wizard] activity, language */
static int
load_wizard(gw_answers_file *af, dictionary *d, gw_err *e)
{
	int lang;

	if (load_word(d, af->path, "wizard", "activity", gw_answers_activities,
	              &af->activity, e) != 0 ||
	    load_word(d, af->path, "wizard", "language", gw_answers_languages,
	              &lang, e) != 0)
		return -1;
	if (lang >= 0)
		af->language = gw_xstrdup(gw_answers_languages[lang]);
	return 0;
}

/* USER@HOST[:PORT]: a user, a host, a port 1..65535 when given. */
static int
ssh_address_ok(const char *v)
{
	const char *at = strchr(v, '@'), *colon;
	unsigned long long port;

	if (at == NULL || at == v || at[1] == '\0' || strchr(at + 1, '@') ||
	    strpbrk(v, " \t"))
		return 0;
	colon = strchr(at + 1, ':');
	if (colon == NULL)
		return 1;
	if (colon == at + 1)
		return 0;
	return gw_parse_uint(colon + 1, 65535, &port) == 0 && port > 0;
}

int
gw_answers_host_address_ok(gw_answers_host kind, const char *v)
{
	if (v == NULL || *v == '\0')
		return 0;
	switch (kind) {
	case GW_AHOST_SAMPLE:
		return 1;
	case GW_AHOST_SSH:
		return ssh_address_ok(v);
	case GW_AHOST_API:
		return strncmp(v, "https://", 8) == 0 ||
		       strncmp(v, "http://", 7) == 0;
	default:
		return 0;
	}
}

/* [host] enable and thumbprint: what the replay queues again, and the
 * API's pinned certificate. */
static int
load_host_changes(gw_answers_file *af, dictionary *d, gw_err *e)
{
	const char *path = af->path, *v;

	if ((v = iniparser_getstring(d, "host:enable", NULL)) != NULL) {
		if (!gw_answers_host_addressed(af->host)) {
			gw_err_set(e, _("%s: [host] enable: '%s' needs an ESXi host (expected [host] kind = sample, ssh or api)"),
			           path, v);
			return -1;
		}
		if (each_item(v, add_enable_item, af, e) != 0)
			return -1;
	}
	if ((v = iniparser_getstring(d, "host:thumbprint", NULL)) != NULL) {
		char fp[GW_THUMB_LEN];
		gw_err le;

		if (af->host != GW_AHOST_API) {
			gw_err_set(e, _("%s: [host] thumbprint: '%s' is taken only with kind = api (expected the certificate's SHA-256 fingerprint)"),
			           path, v);
			return -1;
		}
		le.msg[0] = '\0';
		if (gw_thumbprint_normalize(v, fp, &le) != 0) {
			/* TRANSLATORS: %s: the answers file, then what
			 * --thumbprint's check says. */
			gw_err_set(e, _("%s: [host] thumbprint: %s"), path, le.msg);
			return -1;
		}
		af->host_thumbprint = gw_xstrdup(fp);
	}
	return 0;
}

/* [host] kind and what that kind takes: address (sample NAME,
 * USER@HOST[:PORT], URL), identity (ssh), user (api); never a password. */
static int
load_host(gw_answers_file *af, dictionary *d, gw_err *e)
{
	const char *path = af->path, *v, *kind;
	int k;

	if (load_word(d, path, "host", "kind", gw_answers_host_words, &k, e) != 0)
		return -1;
	af->host = k >= 0 ? (gw_answers_host)(k + GW_AHOST_OFFLINE) :
	           GW_AHOST_NONE;
	kind = k >= 0 ? gw_answers_host_words[k] : "";
	if ((v = iniparser_getstring(d, "host:address", NULL)) != NULL) {
		if (!gw_answers_host_addressed(af->host)) {
			gw_err_set(e, _("%s: [host] address: not taken by kind '%s' (expected kind = sample, ssh or api with it)"),
			           path, kind);
			return -1;
		}
		if (!gw_answers_host_address_ok(af->host, v)) {
			gw_err_set(e, af->host == GW_AHOST_SAMPLE ?
			           _("%s: [host] address: '%s' is not a sample host's name (expected e.g. esxi-l40s)") :
			           af->host == GW_AHOST_SSH ?
			           _("%s: [host] address: '%s' is not an SSH address (expected USER@HOST or USER@HOST:PORT)") :
			           _("%s: [host] address: '%s' is not a URL (expected https://HOST or https://HOST/sdk)"),
			           path, v);
			return -1;
		}
		af->host_address = gw_xstrdup(v);
	} else if (gw_answers_host_addressed(af->host)) {
		gw_err_set(e, _("%s: [host] address: missing (expected the sample host's name, USER@HOST[:PORT] or the URL for kind '%s')"),
		           path, kind);
		return -1;
	}
	if ((v = iniparser_getstring(d, "host:identity", NULL)) != NULL) {
		if (af->host != GW_AHOST_SSH || *v == '\0') {
			gw_err_set(e, _("%s: [host] identity: '%s' is taken only with kind = ssh (expected an identity file, e.g. ~/.ssh/id_ed25519)"),
			           path, v);
			return -1;
		}
		af->host_identity = v[0] == '~' ? gw_xstrdup(v) :
		                    resolve_path(path, v);
	}
	if ((v = iniparser_getstring(d, "host:user", NULL)) != NULL) {
		if (af->host != GW_AHOST_API || *v == '\0') {
			gw_err_set(e, _("%s: [host] user: '%s' is taken only with kind = api (expected the API user, e.g. administrator@vsphere.local)"),
			           path, v);
			return -1;
		}
		af->host_user = gw_xstrdup(v);
	}
	if (load_host_changes(af, d, e) != 0)
		return -1;
	return 0;
}

/* [gpu] devices, vram */
static int
load_gpu(gw_answers_file *af, dictionary *d, struct item_ctx *c, gw_err *e)
{
	if (load_list(d, "gpu:devices", af->path, "[gpu] devices",
	              add_gpu_item, c, e) != 0 ||
	    load_list(d, "gpu:vram", af->path, "[gpu] vram", add_vram_item, c,
	              e) != 0)
		return -1;
	return 0;
}

/* [vm] vmx, memory_mb, esxi, bdf, system_id */
static int
load_vm(gw_answers_file *af, dictionary *d, struct item_ctx *c, gw_err *e)
{
	const char *path = af->path;
	const char *v;
	char field[128];

	if ((v = iniparser_getstring(d, "vm:name", NULL)) != NULL && *v) {
		if (!gw_answers_host_addressed(af->host)) {
			gw_err_set(e, _("%s: [vm] name: '%s' needs a host that lists VMs (expected [host] kind = sample, ssh or api; a local file is [vm] vmx)"),
			           path, v);
			return -1;
		}
		af->vm_name = gw_xstrdup(v);
	}
	if ((v = iniparser_getstring(d, "vm:vmx", NULL)) != NULL && *v)
		af->vmx_path = resolve_path(path, v);
	if ((v = iniparser_getstring(d, "vm:memory_mb", NULL)) != NULL && *v) {
		unsigned long long mb;

		if (gw_parse_uint(v, 64ULL * 1024 * 1024, &mb) != 0 || mb == 0) {
			gw_err_set(e, _("%s: [vm] memory_mb: '%s' is not a memory size in MB (expected 1..67108864)"),
			           path, v);
			return -1;
		}
		af->a.memory_mb = (long)mb;
	}
	if ((v = iniparser_getstring(d, "vm:esxi", NULL)) != NULL && *v) {
		if (gw_esxi_to_hw(v) == 0) {
			gw_err_set(e, _("%s: [vm] esxi: '%s' is not a known ESXi version (expected e.g. 7.0U3, 8.0U2, 9.0)"),
			           path, v);
			return -1;
		}
		af->a.esxi_version = gw_xstrdup(v);
	}
	if (load_list(d, "vm:bdf", path, "[vm] bdf", add_bdf_item, c, e) != 0)
		return -1;
	if ((v = iniparser_getstring(d, "vm:upgrade_hw", NULL)) != NULL) {
		if (parse_bool(path, "upgrade_hw", v, &af->upgrade_hw, e) != 0)
			return -1;
		if (af->upgrade_hw && af->vm_name == NULL) {
			gw_err_set(e, _("%s: [vm] upgrade_hw: the upgrade is of the VM named by [vm] name (expected [vm] name with it)"),
			           path);
			return -1;
		}
	}
	if ((v = iniparser_getstring(d, "vm:system_id", NULL)) != NULL && *v) {
		snprintf(field, sizeof field, "%s: [vm] system_id", path);
		if (gw_answers_set_system_id(&af->a, v, field, e) != 0)
			return -1;
	}
	return 0;
}

/* [options]: the yes/no keys, then mmio_gb */
static int
load_options(gw_answers_file *af, dictionary *d, gw_err *e)
{
	const struct { const char *key; int *dst; } bools[] = {
		{ "uvm", &af->a.uvm },
		{ "p2p", &af->a.p2p },
		{ "code43", &af->a.code43 },
		{ "dynamic", &af->a.dynamic },
		{ "reserve", &af->a.reserve },
		{ "allow_below_rule", &af->a.allow_below_rule },
		{ "force", &af->force },
	};
	const char *v;
	char key[64], field[128];
	size_t i;
	int b;

	for (i = 0; i < sizeof bools / sizeof bools[0]; i++) {
		snprintf(key, sizeof key, "options:%s", bools[i].key);
		if ((v = iniparser_getstring(d, key, NULL)) == NULL)
			continue;
		if (parse_bool(af->path, bools[i].key, v, &b, e) != 0)
			return -1;
		*bools[i].dst = b;
		if (bools[i].dst == &af->a.uvm)
			af->uvm_set = 1;
	}
	if ((v = iniparser_getstring(d, "options:mmio_gb", NULL)) != NULL && *v) {
		snprintf(field, sizeof field, "%s: [options] mmio_gb", af->path);
		if (gw_parse_gb(v, field, GW_MMIO_MAX_TOTAL_GB * 2, &af->a.mmio_gb,
		                e) != 0)
			return -1;
	}
	return 0;
}

/* [output] dir, formats, name */
static int
load_output(gw_answers_file *af, dictionary *d, gw_err *e)
{
	const char *v;
	char field[128];

	if ((v = iniparser_getstring(d, "output:dir", NULL)) != NULL && *v) {
		struct stat st;

		af->out_dir = resolve_path(af->path, v);
		/* refused here, with the field, even where no format is
		 * written into it (a typo is still a typo) */
		if (stat(af->out_dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			/* TRANSLATORS: %s the answers file, then the value. */
			gw_err_set(e, _("%s: [output] dir: '%s' is not a directory (expected the directory to write the outputs into)"),
			           af->path, v);
			return -1;
		}
	}
	if ((v = iniparser_getstring(d, "output:formats", NULL)) != NULL) {
		snprintf(field, sizeof field, "%s: [output] formats", af->path);
		if (gw_formats_parse(v, field, &af->formats, e) != 0)
			return -1;
		af->formats_set = 1;
	}
	if ((v = iniparser_getstring(d, "output:name", NULL)) != NULL && *v)
		af->a.name = gw_xstrdup(v);
	if (af->formats == 0 && af->vmx_path == NULL && af->vm_name == NULL &&
	    af->activity >= 0) {
		/* the activity's outputs (formats.def's FOR), not chosen:
		 * the wizard's defaults follow the activity still */
		af->formats = gw_format_defaults(gw_answers_audience(af->activity));
		if (af->out_dir == NULL && af->host != GW_AHOST_SAMPLE)
			af->out_dir = resolve_path(af->path, "gpuwiz-out");
	}
	return 0;
}

/* Enough to do something: a GPU (or a .vmx, whose own devices the plan
 * works on: uvm = yes on the vGPUs already there), and an output
 * directory or a .vmx. */
static int
check_complete(const gw_answers_file *af, dictionary *d, gw_err *e)
{
	const char *path = af->path;
	int vm = af->vmx_path != NULL || af->vm_name != NULL;

	if (af->a.ngpus == 0 && !vm) {
		gw_err_set(e, _("%s: [gpu] devices: no GPU given (expected e.g. 'devices = l40s=2')"),
		           path);
		return -1;
	}
	if (af->formats != 0 && af->out_dir == NULL &&
	    af->host != GW_AHOST_SAMPLE) {
		gw_err_set(e, _("%s: [output] dir: missing (expected the directory to write %s into)"),
		           path, iniparser_getstring(d, "output:formats", ""));
		return -1;
	}
	if (af->formats == 0 && !vm) {
		gw_err_set(e, _("%s: nothing to do: expected [output] formats or [vm] vmx"),
		           path);
		return -1;
	}
	return 0;
}

static int
load_values(gw_answers_file *af, dictionary *d, const gw_table *t, gw_err *e)
{
	struct item_ctx c;

	c.a = &af->a;
	c.t = t;
	c.field = NULL;
	if (load_wizard(af, d, e) != 0 || load_host(af, d, e) != 0 ||
	    load_gpu(af, d, &c, e) != 0 || load_vm(af, d, &c, e) != 0 ||
	    load_options(af, d, e) != 0 || load_output(af, d, e) != 0)
		return -1;
	return check_complete(af, d, e);
}

/* NUL or control bytes other than tab/CR/LF: not a text file. */
static int
has_binary(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			return 1;
	}
	return 0;
}

int
gw_answers_load(gw_answers_file *af, const char *path, const gw_table *t,
                gw_err *e)
{
	dictionary *d;
	char *data = NULL;
	size_t len = 0;
	int i, nsec, rc;

	memset(af, 0, sizeof *af);
	gw_answers_init(&af->a);
	af->activity = -1;
	af->path = gw_xstrdup(path);

	/* Clear messages for what iniparser would only half report. */
	if (gw_read_file(path, ANSWERS_MAX_BYTES, &data, &len, e) != 0)
		return -1;
	if (len == 0) {
		gw_err_set(e, _("%s: file is empty, expected an INI answers file with a [gpu] section"),
		           path);
		free(data);
		return -1;
	}
	if (has_binary(data, len)) {
		gw_err_set(e, _("%s: binary data, expected an INI answers file"), path);
		free(data);
		return -1;
	}
	/* a key given twice, a line too long: said before iniparser keeps
	 * the last or calls it a syntax error */
	rc = gw_ini_check(path, data, len, e);
	free(data);
	if (rc != 0)
		return -1;

	if ((d = gw_ini_load(path, e)) == NULL)
		return -1;

	/* Every section and key must be one we know: a typo must not be
	 * silently ignored. */
	nsec = iniparser_getnsec(d);
	for (i = 0; i < nsec; i++) {
		const char *sec = iniparser_getsecname(d, i);
		int nk = iniparser_getsecnkeys(d, sec), k;
		const char **keys;

		if (!known(sec, NULL)) {
			gw_err_set(e, _("%s: unknown section [%s] (expected [wizard], [host], [gpu], [vm], [options], [output])"),
			           path, sec);
			iniparser_freedict(d);
			return -1;
		}
		if (nk <= 0)
			continue;
		keys = gw_xcalloc((size_t)nk, sizeof *keys);
		iniparser_getseckeys(d, sec, keys);
		for (k = 0; k < nk; k++) {
			const char *key = strchr(keys[k], ':');

			key = key ? key + 1 : keys[k];
			if (strcmp(sec, "host") == 0 &&
			    strcmp(key, "password") == 0) {
				gw_err_set(e, _("%s: [host] password: an answers file never holds a password (gpuwiz asks for it when it connects)"),
				           path);
				free(keys);
				iniparser_freedict(d);
				return -1;
			}
			if (!known(sec, key)) {
				gw_err_set(e, _("%s: [%s] unknown key '%s'"), path, sec, key);
				free(keys);
				iniparser_freedict(d);
				return -1;
			}
		}
		free(keys);
	}
	if (nsec <= 0) {
		gw_err_set(e, _("%s: no sections, expected an INI answers file with a [gpu] section"),
		           path);
		iniparser_freedict(d);
		return -1;
	}

	rc = load_values(af, d, t, e);
	iniparser_freedict(d);
	return rc;
}

void
gw_answers_file_free(gw_answers_file *af)
{
	gw_answers_free(&af->a);
	free(af->vmx_path);
	free(af->out_dir);
	free(af->path);
	free(af->language);
	free(af->host_address);
	free(af->host_identity);
	free(af->host_user);
	free(af->host_thumbprint);
	free(af->vm_name);
	while (af->nhost_enable > 0)
		free(af->host_enable[--af->nhost_enable]);
	free(af->host_enable);
	memset(af, 0, sizeof *af);
	af->activity = -1;
}

/* ---- saving ------------------------------------------------------------ */

static void
put_kv(gw_buf *b, const char *k, const char *v)
{
	gw_buf_printf(b, "%s = %s\n", k, v);
}

static void
put_list(gw_buf *b, const char *k, char **items, size_t n)
{
	size_t i;

	if (n == 0)
		return;
	gw_buf_printf(b, "%s = ", k);
	for (i = 0; i < n; i++)
		gw_buf_printf(b, "%s%s", i ? ", " : "", items[i]);
	gw_buf_puts(b, "\n");
}

static void
save_wizard(gw_buf *b, const gw_answers_file *af)
{
	if (af->activity < 0 && af->language == NULL)
		return;
	gw_buf_puts(b, "[wizard]\n");
	if (af->activity >= 0)
		put_kv(b, "activity", gw_answers_activities[af->activity]);
	if (af->language)
		put_kv(b, "language", af->language);
	gw_buf_puts(b, "\n");
}

static void
save_host(gw_buf *b, const gw_answers_file *af)
{
	if (af->host == GW_AHOST_NONE)
		return;
	gw_buf_puts(b, "[host]\n");
	put_kv(b, "kind", gw_answers_host_words[af->host - GW_AHOST_OFFLINE]);
	if (af->host_address)
		put_kv(b, "address", af->host_address);
	if (af->host_identity)
		put_kv(b, "identity", af->host_identity);
	if (af->host_user)
		put_kv(b, "user", af->host_user);
	put_list(b, "enable", af->host_enable, af->nhost_enable);
	if (af->host_thumbprint)
		put_kv(b, "thumbprint", af->host_thumbprint);
	gw_buf_puts(b, "\n");
}

static void
save_gpu(gw_buf *b, const gw_answers *a)
{
	char *spec;
	size_t i;
	int first = 1;

	gw_buf_puts(b, "[gpu]\n");
	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu_want *g = &a->gpus[i];

		if (g->gpu == NULL && g->profile == NULL)
			continue;
		gw_buf_printf(b, "%s%s%s=%d", first ? "devices = " : ", ",
		              "", g->profile ? g->profile : g->gpu->id, g->count);
		first = 0;
	}
	if (!first)
		gw_buf_puts(b, "\n");
	first = 1;
	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu_want *g = &a->gpus[i];

		if (g->gpu != NULL || g->profile != NULL)
			continue;
		spec = gw_vram_spec(g->vram_gb, g->bar1_bytes, g->count);
		gw_buf_printf(b, "%s%s", first ? "vram = " : ", ", spec);
		free(spec);
		first = 0;
	}
	if (!first)
		gw_buf_puts(b, "\n");
}

static void
save_vm(gw_buf *b, const gw_answers_file *af)
{
	const gw_answers *a = &af->a;

	gw_buf_puts(b, "\n[vm]\n");
	if (af->vm_name)
		put_kv(b, "name", af->vm_name);
	if (af->vmx_path)
		put_kv(b, "vmx", af->vmx_path);
	if (a->memory_mb > 0)
		gw_buf_printf(b, "memory_mb = %ld\n", a->memory_mb);
	if (a->esxi_version)
		put_kv(b, "esxi", a->esxi_version);
	put_list(b, "bdf", a->bdfs, a->nbdfs);
	if (a->system_id)
		put_kv(b, "system_id", a->system_id);
	if (af->upgrade_hw)
		put_kv(b, "upgrade_hw", "yes");
}

static const char *
yes_no(int v)
{
	return v ? "yes" : "no";
}

static void
save_options(gw_buf *b, const gw_answers *a)
{
	gw_buf_puts(b, "\n[options]\n");
	put_kv(b, "uvm", yes_no(a->uvm));
	put_kv(b, "p2p", yes_no(a->p2p));
	put_kv(b, "code43", yes_no(a->code43));
	if (a->dynamic)
		put_kv(b, "dynamic", "yes");
	put_kv(b, "reserve", yes_no(a->reserve));
	if (a->mmio_gb)
		gw_buf_printf(b, "mmio_gb = %llu\n", (unsigned long long)a->mmio_gb);
	put_kv(b, "allow_below_rule", yes_no(a->allow_below_rule));
}

static void
save_output(gw_buf *b, const gw_answers_file *af)
{
	size_t i;
	int first = 1;

	gw_buf_puts(b, "\n[output]\n");
	if (af->out_dir)
		put_kv(b, "dir", af->out_dir);
	if (af->formats) {
		for (i = 0; i < GW_NFORMATS; i++) {
			if (!(af->formats & gw_formats[i].bit))
				continue;
			gw_buf_printf(b, "%s%s", first ? "formats = " : ",",
			              gw_formats[i].name);
			first = 0;
		}
		gw_buf_puts(b, "\n");
	}
	if (af->a.name)
		put_kv(b, "name", af->a.name);
}

int
gw_answers_host_addressed(gw_answers_host kind)
{
	return kind == GW_AHOST_SAMPLE || kind == GW_AHOST_SSH ||
	       kind == GW_AHOST_API;
}

int
gw_answers_apply_takes(gw_answers_host kind)
{
	return !gw_answers_host_addressed(kind);
}

int
gw_answers_save(const gw_answers_file *af, const char *path, gw_err *e)
{
	gw_buf b;
	int rc;

	gw_buf_init(&b);
	/* only the commands that take this file */
	gw_buf_puts(&b, gw_answers_apply_takes(af->host) ?
	            "; gpuwiz answers file: gpuwiz apply --answers FILE, or gpuwiz --answers FILE\n" :
	            "; gpuwiz answers file: gpuwiz --answers FILE (the wizard reaches this host; gpuwiz apply writes local files only)\n");
	save_wizard(&b, af);
	save_host(&b, af);
	save_gpu(&b, &af->a);
	save_vm(&b, af);
	save_options(&b, &af->a);
	save_output(&b, af);
	rc = gw_write_file_atomic(path, b.data, b.len, e);
	gw_buf_free(&b);
	return rc;
}
