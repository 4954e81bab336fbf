/* plan.c: answers (+ a .vmx) -> settings and findings.  Pure: no file or
 * environment access (gettext aside).
 *
 * Facts used here and where they come from (see shared/docs/domain.md):
 *  - MMIO rule: Broadcom KB 323402 (section 2).
 *  - vGPU MMIO follows the physical GPU's framebuffer: NVIDIA AI Enterprise
 *    "MMIO space required" table (section 2).
 *  - BAR3 of NVIDIA GPUs is a 32 MiB 64-bit prefetchable BAR in every
 *    capture that shows its size: shared/fixtures/lspci/
 *    rtx4060ti-16gb-baremetal-rebar.txt ("Region 3 ... (64-bit,
 *    prefetchable) [size=32M]"), rtx6000ada-baremetal-bar64g.txt (same), and
 *    shared/fixtures/vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-
 *    p40-esxi8.txt ("barIndex 3 type 3 ... size 33554432").  The third lspci
 *    capture (rtx3090-arm-rk3568-bar-unassigned.txt) shows Region 3 as
 *    64-bit prefetchable but unassigned, without a size.  BAR0 is 32-bit
 *    there and does not use the 64-bit window.
 *  - Memory reservation: KB 309986; nested virtualization: KB 437651;
 *    P2P: NVIDIA GPU Operator docs; UVM: NVIDIA AI Enterprise docs and seed
 *    001; hardware versions: KB 1003746 (section 4); passthrough device
 *    limits: KB 309986 (section 4).
 */
#include "plan.h"
#include "mmio.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC_MMIO    "Broadcom KB 323402"
#define SRC_VGPU_MMIO "NVIDIA AI Enterprise documentation (vGPU MMIO space required)"
#define SRC_MEM     "Broadcom KB 309986"
#define SRC_NESTED  "Broadcom KB 437651"
#define SRC_UVM     "NVIDIA AI Enterprise documentation"
#define SRC_P2P     "NVIDIA GPU Operator documentation"
#define SRC_CODE43  "field reports (NVIDIA drivers before R465)"
#define SRC_EFI     "VMware GPU passthrough blog; NVIDIA vGPU prerequisites"
#define SRC_HW      "Broadcom KB 1003746"
#define SRC_LIMITS  "Broadcom KB 309986"
#define SRC_DEVICE  "ESXi .vmx device block (decimal id: field reports; hex 0x ids: govmomi issue 2248)"
#define SRC_VGPU_NAMES "NVIDIA vGPU type names (data/gpus.ini vgpu_prefix)"
#define SRC_VGPU    "VMware API VirtualPCIPassthroughVmiopBackingInfo (.vmx key not documented)"
#define SRC_NCCL    "NCCL 2.27 on vGPU (seed 001; NVIDIA NCCL issue 2101)"
#define SRC_REBAR   "field reports (Resizable BAR)"

#define NVIDIA_VENDOR 0x10deu
#define NVIDIA_BAR3_BYTES (UINT64_C(32) << 20)

/* ---- small helpers ----------------------------------------------------- */

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	       c == '\v' || c == '\f';
}

/* Copy of s without surrounding blanks. */
static char *
trimmed_dup(const char *s)
{
	const char *b = s ? s : "", *end;

	while (is_blank((unsigned char)*b))
		b++;
	end = b + strlen(b);
	while (end > b && is_blank((unsigned char)end[-1]))
		end--;
	return gw_xstrndup(b, (size_t)(end - b));
}

/* Parse 1..maxdigits hex digits at *pp; advances *pp. */
static int
parse_hex_field(const char **pp, int maxdigits, unsigned *out)
{
	const char *p = *pp;
	unsigned v = 0;
	int n = 0, d;

	while ((d = gw_hexval((unsigned char)*p)) >= 0) {
		if (++n > maxdigits)
			return -1;
		v = v * 16 + (unsigned)d;
		p++;
	}
	if (n == 0)
		return -1;
	*out = v;
	*pp = p;
	return 0;
}

/* Parse 1..maxdigits decimal digits at *pp; advances *pp. */
static int
parse_dec_field(const char **pp, int maxdigits, unsigned *out)
{
	const char *p = *pp;
	unsigned v = 0;
	int n = 0;

	while (*p >= '0' && *p <= '9') {
		if (++n > maxdigits)
			return -1;
		v = v * 10 + (unsigned)(*p - '0');
		p++;
	}
	if (n == 0)
		return -1;
	*out = v;
	*pp = p;
	return 0;
}

/* "0x10de" (as ESXi writes it) -> 0x10de.  Anything else fails. */
static int
parse_pci_id(const char *s, unsigned *out)
{
	const char *p = s;

	if (s == NULL || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return -1;
	p += 2;
	if (parse_hex_field(&p, 4, out) != 0 || *p != '\0')
		return -1;
	return 0;
}

/* The .vmx id form, decimal: "00000:066:00.0" or the short "0:66:0.0".
 * The domain may be left out ("066:00.0"). */
static int
parse_vmx_id(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
             unsigned *fn)
{
	unsigned a, b, c, f;
	const char *p = s;

	if (s == NULL)
		return -1;
	if (parse_dec_field(&p, 5, &a) != 0 || *p++ != ':')
		return -1;
	if (parse_dec_field(&p, 5, &b) != 0)
		return -1;
	if (*p == ':') {
		p++;
		if (parse_dec_field(&p, 3, &c) != 0)
			return -1;
	} else {
		c = b;
		b = a;
		a = 0;
	}
	if (*p++ != '.' || parse_dec_field(&p, 1, &f) != 0 || *p != '\0')
		return -1;
	if (a > 0xffff || b > 0xff || c > 0x1f || f > 7)
		return -1;
	*dom = a;
	*bus = b;
	*dev = c;
	*fn = f;
	return 0;
}

/* ---- public helpers ---------------------------------------------------- */

int
gw_bdf_parse(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
             unsigned *fn)
{
	const char *p = s, *q;
	unsigned a = 0, b, c, f;
	int colons = 0;

	if (s == NULL)
		return -1;
	for (q = s; *q; q++)
		if (*q == ':')
			colons++;
	if (colons == 2) {
		if (parse_hex_field(&p, 4, &a) != 0 || *p++ != ':')
			return -1;
	} else if (colons != 1) {
		return -1;
	}
	if (parse_hex_field(&p, 2, &b) != 0 || *p++ != ':')
		return -1;
	if (parse_hex_field(&p, 2, &c) != 0 || *p++ != '.')
		return -1;
	if (parse_hex_field(&p, 1, &f) != 0 || *p != '\0')
		return -1;
	if (a > 0xffff || b > 0xff || c > 0x1f || f > 7)
		return -1;
	if (dom)
		*dom = a;
	if (bus)
		*bus = b;
	if (dev)
		*dev = c;
	if (fn)
		*fn = f;
	return 0;
}

void
gw_bdf_vmx_id(unsigned dom, unsigned bus, unsigned dev, unsigned fn,
              char *out, size_t outlen)
{
	if (out == NULL || outlen == 0)
		return;
	snprintf(out, outlen, "%05u:%03u:%02u.%u", dom, bus, dev, fn);
}

int
gw_system_id_valid(const char *s)
{
	static const int groups[] = { 8, 4, 4, 4, 12 };
	size_t g;
	int i;

	if (s == NULL)
		return 0;
	for (g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		for (i = 0; i < groups[g]; i++, s++)
			if (gw_hexval((unsigned char)*s) < 0)
				return 0;
		if (g + 1 < sizeof groups / sizeof groups[0] && *s++ != '-')
			return 0;
	}
	return *s == '\0';
}

static int
skip_word(const char **pp, const char *word)
{
	size_t n = strlen(word), i;

	for (i = 0; i < n; i++)
		if (tolower((unsigned char)(*pp)[i]) != word[i])
			return 0;
	*pp += n;
	return 1;
}

static void
skip_blanks(const char **pp)
{
	while (is_blank((unsigned char)**pp))
		(*pp)++;
}

/* "8.0", "8.0U2", "8.0u2b", "8.0 U2", "8.0 Update 2", "8.0.2", "7.0.3",
 * "ESXi 8.0U2", "VMware ESXi 8.0.2 build-22380479" -> major, minor, update.
 * Returns 0 on success. */
static int
parse_esxi(const char *s, unsigned *maj, unsigned *min, unsigned *upd)
{
	const char *p = s;
	unsigned a, b, u = 0, extra;

	if (s == NULL)
		return -1;
	skip_blanks(&p);
	if (skip_word(&p, "vmware"))
		skip_blanks(&p);
	if (skip_word(&p, "esxi"))
		skip_blanks(&p);
	if (parse_dec_field(&p, 2, &a) != 0 || *p++ != '.' ||
	    parse_dec_field(&p, 2, &b) != 0)
		return -1;
	if (*p == '.') {
		p++;
		if (parse_dec_field(&p, 2, &u) != 0)
			return -1;
		if (*p == '.') {          /* "8.0.2.0" */
			p++;
			if (parse_dec_field(&p, 3, &extra) != 0)
				return -1;
		}
	} else {
		const char *save = p;

		skip_blanks(&p);
		if (skip_word(&p, "update") || skip_word(&p, "u")) {
			skip_blanks(&p);
			if (parse_dec_field(&p, 2, &u) != 0)
				return -1;
			/* patch letter: "7.0U3c", "8.0u2b" */
			while (isalpha((unsigned char)*p) &&
			       !isalpha((unsigned char)p[1]))
				p++;
		} else {
			p = save;
		}
	}
	skip_blanks(&p);
	if (*p != '\0') {
		/* allow a trailing build number, nothing else */
		if (*p == ',')
			p++;
		skip_blanks(&p);
		if (!skip_word(&p, "build"))
			return -1;
	}
	*maj = a;
	*min = b;
	*upd = u;
	return 0;
}

/* domain.md section 4 (KB 1003746 via govmomi; 9.0 field).  Updates beyond
 * the table map to the newest version known for that release: the host
 * supports at least that one. */
int
gw_esxi_to_hw(const char *esxi_version)
{
	unsigned maj, min, upd;

	if (parse_esxi(esxi_version, &maj, &min, &upd) != 0)
		return 0;
	if (maj == 6 && min == 0)
		return 11;
	if (maj == 6 && min == 5)
		return 13;
	if (maj == 6 && min == 7)
		return upd >= 2 ? 15 : 14;
	if (maj == 7 && min == 0)
		return upd >= 2 ? 19 : upd == 1 ? 18 : 17;
	if (maj == 8 && min == 0)
		return upd >= 2 ? 21 : 20;
	if (maj == 9 && min == 0)
		return 22;
	return 0;
}

/* KB 309986: 16 devices (hw 13-19), 32 (hw 20 on 8.0), 128 (hw 21, 8.0U2).
 * 8.0U1 allows 64 with hw 20: that depends on the host release, not on the
 * hardware version, so it is not visible here (the plan applies it when
 * the ESXi version is known). */
int
gw_hw_max_passthru(int hw)
{
	if (hw >= 21)
		return 128;
	if (hw == 20)
		return 32;
	if (hw >= 13)
		return 16;
	return 0;
}

static int
esxi_is_80u1(const char *esxi)
{
	unsigned maj, min, upd;

	return parse_esxi(esxi, &maj, &min, &upd) == 0 && maj == 8 &&
	       min == 0 && upd == 1;
}

/* ---- answers ----------------------------------------------------------- */

void
gw_answers_init(gw_answers *a)
{
	memset(a, 0, sizeof *a);
	a->reserve = 1;
}

static char *
dup_or_null(const char *s)
{
	return s ? gw_xstrdup(s) : NULL;
}

void
gw_answers_copy(gw_answers *o, const gw_answers *a)
{
	size_t i;

	gw_answers_init(o);
	o->gpus = gw_xcalloc(a->ngpus ? a->ngpus : 1, sizeof *o->gpus);
	for (i = 0; i < a->ngpus; i++) {
		o->gpus[i] = a->gpus[i];
		o->gpus[i].profile = dup_or_null(a->gpus[i].profile);
		o->gpus[i].spec = dup_or_null(a->gpus[i].spec);
	}
	o->ngpus = a->ngpus;
	o->bdfs = gw_xcalloc(a->nbdfs ? a->nbdfs : 1, sizeof *o->bdfs);
	for (i = 0; i < a->nbdfs; i++)
		o->bdfs[i] = gw_xstrdup(a->bdfs[i]);
	o->nbdfs = a->nbdfs;
	o->system_id = dup_or_null(a->system_id);
	o->uvm = a->uvm;
	o->p2p = a->p2p;
	o->code43 = a->code43;
	o->reserve = a->reserve;
	o->mmio_gb = a->mmio_gb;
	o->allow_below_rule = a->allow_below_rule;
	o->memory_mb = a->memory_mb;
	o->esxi_version = dup_or_null(a->esxi_version);
	o->name = dup_or_null(a->name);
}

void
gw_answers_free(gw_answers *a)
{
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < a->ngpus; i++) {
		free(a->gpus[i].profile);
		free(a->gpus[i].spec);
	}
	free(a->gpus);
	for (i = 0; i < a->nbdfs; i++)
		free(a->bdfs[i]);
	free(a->bdfs);
	free(a->system_id);
	free(a->esxi_version);
	free(a->name);
	gw_answers_init(a);
}

static gw_gpu_want *
want_push(gw_answers *a)
{
	gw_gpu_want *w;

	a->gpus = gw_xrealloc(a->gpus, (a->ngpus + 1) * sizeof *a->gpus);
	w = &a->gpus[a->ngpus++];
	memset(w, 0, sizeof *w);
	return w;
}

/* Split "ID[=COUNT]": *id gets a trimmed copy of ID, *count the count. */
static int
split_count(const char *spec, const char *field, char **id, int *count,
            gw_err *e)
{
	char *s = trimmed_dup(spec), *eq, *cnt;
	unsigned long long n;

	*id = NULL;
	*count = 1;
	eq = strchr(s, '=');
	if (eq) {
		*eq = '\0';
		cnt = trimmed_dup(eq + 1);
		if (gw_parse_uint(cnt, GW_MMIO_MAX_COUNT, &n) != 0 || n < 1) {
			gw_err_set(e, _("%s: count '%s' in '%s' is not a whole "
			                "number from 1 to %d"), field, cnt, spec,
			           GW_MMIO_MAX_COUNT);
			free(cnt);
			free(s);
			return -1;
		}
		free(cnt);
		*count = (int)n;
	}
	*id = trimmed_dup(s);
	free(s);
	return 0;
}

int
gw_answers_add_gpu(gw_answers *a, const gw_table *t, const char *spec,
                   const char *field, gw_err *e)
{
	const gw_gpu *g;
	gw_gpu_want *w;
	gw_err le;
	char *id;
	int count;
	size_t i;

	if (field == NULL)
		field = "--gpu";
	if (split_count(spec ? spec : "", field, &id, &count, e) != 0)
		return -1;
	if (*id == '\0') {
		gw_err_set(e, _("%s: '%s' names no GPU (expected ID[=COUNT], "
		                "e.g. l40s=2)"), field, spec ? spec : "");
		free(id);
		return -1;
	}
	if (gw_is_vgpu_profile(id)) {
		for (i = 0; id[i]; i++) {
			unsigned char c = (unsigned char)id[i];

			if (!isalnum(c) && c != '_' && c != '-') {
				gw_err_set(e, _("%s: '%s' is not a vGPU profile "
				                "name (letters, digits, '_' and "
				                "'-', e.g. grid_l40s-48c)"),
				           field, id);
				free(id);
				return -1;
			}
			id[i] = (char)tolower(c);
		}
	}
	if (t == NULL) {
		gw_err_set(e, _("%s: no GPU table loaded to look up '%s'"),
		           field, id);
		free(id);
		return -1;
	}
	g = gw_table_lookup(t, id, &le);
	if (g == NULL) {
		gw_err_set(e, "%s: %s", field, le.msg);
		free(id);
		return -1;
	}
	if (g->vram_gb < 0) {
		gw_err_set(e, _("%s: the VRAM of '%s' (%s) is unknown in the GPU "
		                "table, so the MMIO size cannot be computed; give "
		                "the size with --vram GB"), field, id, g->name);
		free(id);
		return -1;
	}
	w = want_push(a);
	w->gpu = g;
	w->vram_gb = g->vram_gb;
	w->count = count;
	w->profile = gw_is_vgpu_profile(id) ? gw_xstrdup(id) : NULL;
	w->spec = trimmed_dup(spec);
	free(id);
	return 0;
}

int
gw_answers_add_vram(gw_answers *a, const char *spec, const char *field,
                    gw_err *e)
{
	gw_gpu_want *w;
	uint64_t gb;
	char *id;
	int count;

	if (field == NULL)
		field = "--vram";
	if (split_count(spec ? spec : "", field, &id, &count, e) != 0)
		return -1;
	if (gw_parse_gb(id, field, GW_MMIO_MAX_GPU_GB, &gb, e) != 0) {
		free(id);
		return -1;
	}
	free(id);
	w = want_push(a);
	w->gpu = NULL;
	w->vram_gb = (int)gb;
	w->count = count;
	w->profile = NULL;
	w->spec = trimmed_dup(spec);
	return 0;
}

int
gw_answers_add_bdf(gw_answers *a, const char *bdf, const char *field,
                   gw_err *e)
{
	unsigned d, b, s, f, d2, b2, s2, f2;
	char *t = trimmed_dup(bdf);
	size_t i;

	if (field == NULL)
		field = "--bdf";
	if (gw_bdf_parse(t, &d, &b, &s, &f) != 0) {
		if (parse_vmx_id(t, &d, &b, &s, &f) == 0 && strlen(t) >= 12)
			gw_err_set(e, _("%s: '%s' looks like the .vmx decimal "
			                "form; give the host's hex PCI address "
			                "(e.g. 0000:42:00.0)"), field, t);
		else
			gw_err_set(e, _("%s: '%s' is not a PCI address (expected "
			                "hex 0000:42:00.0 or 42:00.0, as esxcli "
			                "hardware pci list or lspci shows it)"),
			           field, t);
		free(t);
		return -1;
	}
	free(t);
	for (i = 0; i < a->nbdfs; i++) {
		if (gw_bdf_parse(a->bdfs[i], &d2, &b2, &s2, &f2) == 0 &&
		    d == d2 && b == b2 && s == s2 && f == f2) {
			gw_err_set(e, _("%s: PCI address %04x:%02x:%02x.%x is "
			                "given twice"), field, d, b, s, f);
			return -1;
		}
	}
	a->bdfs = gw_xrealloc(a->bdfs, (a->nbdfs + 1) * sizeof *a->bdfs);
	a->bdfs[a->nbdfs++] = gw_xasprintf("%04x:%02x:%02x.%x", d, b, s, f);
	return 0;
}

int
gw_answers_set_system_id(gw_answers *a, const char *uuid, const char *field,
                         gw_err *e)
{
	char *t = trimmed_dup(uuid);

	if (field == NULL)
		field = "--system-id";
	if (!gw_system_id_valid(t)) {
		gw_err_set(e, _("%s: '%s' is not a system id (expected "
		                "8-4-4-4-12 hex digits, the output of esxcli "
		                "system uuid get)"), field, t);
		free(t);
		return -1;
	}
	free(a->system_id);
	a->system_id = t;
	return 0;
}

/* ---- plan building blocks ---------------------------------------------- */

static void
add_step(gw_plan *p, char *line)
{
	p->steps = gw_xrealloc(p->steps, (p->nsteps + 1) * sizeof *p->steps);
	p->steps[p->nsteps++] = line;
}

/* Takes ownership of msg and fix. */
static void
add_finding(gw_plan *p, gw_sev sev, const char *id, const char *source,
            char *msg, char *fix)
{
	gw_finding *f;

	p->findings = gw_xrealloc(p->findings,
	                          (p->nfindings + 1) * sizeof *p->findings);
	f = &p->findings[p->nfindings++];
	f->sev = sev;
	f->id = id;
	f->message = msg;
	f->fix = fix;
	f->source = source;
}

/* A setting; the current value comes from the .vmx.  An existing equal
 * value (case-insensitively: TRUE = true) is kept.  Takes ownership of
 * reason. */
static gw_setting *
add_setting(gw_plan *p, const gw_vmx *v, gw_set_kind kind, const char *key,
            const char *value, char *reason, const char *source)
{
	gw_setting *s;
	const char *old = v ? gw_vmx_get(v, key) : NULL;

	p->settings = gw_xrealloc(p->settings,
	                          (p->nsettings + 1) * sizeof *p->settings);
	s = &p->settings[p->nsettings++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->key = gw_xstrdup(key);
	s->value = gw_xstrdup(value);
	s->old_value = old ? gw_xstrdup(old) : NULL;
	s->keep = old != NULL && gw_strieq(old, value);
	s->reason = reason;
	s->source = source;
	return s;
}

static char *
fmt_size(uint64_t bytes)
{
	uint64_t gib = bytes >> 30, mib = (bytes >> 20) & 1023;

	if (gib && mib)
		return gw_xasprintf(_("%llu GiB + %llu MiB"),
		                    (unsigned long long)gib,
		                    (unsigned long long)mib);
	if (gib)
		return gw_xasprintf(_("%llu GiB"), (unsigned long long)gib);
	return gw_xasprintf(_("%llu MiB"), (unsigned long long)(bytes >> 20));
}

/* One pciPassthruN entry of the .vmx. */
typedef struct vdev {
	unsigned idx;
	int present;
	const char *vgpu;         /* profile, NULL for DirectPath */
	int ids_ok;
	unsigned vendor, device;
	int has_addr;
	unsigned dom, bus, dev, fn;
	const char *system_id;
	int matched;              /* an answers BDF points at it */
} vdev;

typedef struct scan {
	vdev *devs;               /* present or not, sorted by idx */
	size_t ndevs;
	unsigned *used;           /* indices in use (file + this plan) */
	size_t nused;
} scan;

static int
used_has(const scan *sc, unsigned idx)
{
	size_t i;

	for (i = 0; i < sc->nused; i++)
		if (sc->used[i] == idx)
			return 1;
	return 0;
}

static void
used_add(scan *sc, unsigned idx)
{
	if (used_has(sc, idx))
		return;
	sc->used = gw_xrealloc(sc->used, (sc->nused + 1) * sizeof *sc->used);
	sc->used[sc->nused++] = idx;
}

static unsigned
next_free(scan *sc)
{
	unsigned i = 0;

	while (used_has(sc, i))
		i++;
	used_add(sc, i);
	return i;
}

/* "pciPassthru12.foo" -> 12.  Returns 0 when the key is one. */
static int
key_index(const char *key, unsigned *idx)
{
	static const char pre[] = "pcipassthru";
	const char *p = key;
	unsigned v;
	size_t i;

	for (i = 0; pre[i]; i++)
		if (tolower((unsigned char)key[i]) != pre[i])
			return -1;
	p = key + i;
	if (parse_dec_field(&p, 4, &v) != 0 || *p != '.')
		return -1;
	*idx = v;
	return 0;
}

static const char *
vget(const gw_vmx *v, unsigned idx, const char *suffix)
{
	char key[64];

	snprintf(key, sizeof key, "pciPassthru%u.%s", idx, suffix);
	return gw_vmx_get(v, key);
}

static int
cmp_vdev(const void *a, const void *b)
{
	unsigned x = ((const vdev *)a)->idx, y = ((const vdev *)b)->idx;

	return x < y ? -1 : x > y;
}

static void
scan_vmx(const gw_vmx *v, scan *sc)
{
	size_t i, n = v ? gw_vmx_count(v) : 0, j;
	unsigned idx;

	memset(sc, 0, sizeof *sc);
	for (i = 0; i < n; i++) {
		if (key_index(gw_vmx_key_at(v, i), &idx) != 0)
			continue;
		if (used_has(sc, idx))
			continue;
		used_add(sc, idx);
	}
	if (sc->nused == 0)
		return;
	sc->devs = gw_xcalloc(sc->nused, sizeof *sc->devs);
	for (j = 0; j < sc->nused; j++) {
		vdev *d = &sc->devs[sc->ndevs++];
		char key[64];
		const char *s;

		d->idx = sc->used[j];
		snprintf(key, sizeof key, "pciPassthru%u.present", d->idx);
		d->present = gw_vmx_get_bool(v, key, 0);
		s = vget(v, d->idx, "vgpu");
		d->vgpu = s && *s ? s : NULL;
		d->ids_ok = parse_pci_id(vget(v, d->idx, "vendorId"),
		                         &d->vendor) == 0 &&
		            parse_pci_id(vget(v, d->idx, "deviceId"),
		                         &d->device) == 0;
		d->has_addr = parse_vmx_id(vget(v, d->idx, "id"), &d->dom,
		                           &d->bus, &d->dev, &d->fn) == 0;
		d->system_id = vget(v, d->idx, "systemId");
	}
	qsort(sc->devs, sc->ndevs, sizeof *sc->devs, cmp_vdev);
}

static void
scan_free(scan *sc)
{
	free(sc->devs);
	free(sc->used);
}

/* Look a device up by PCI id.  Rows sharing the id (25b6 = A2/A16) that
 * agree on VRAM still give the VRAM (gpu stays NULL). */
static const gw_gpu *
lookup_pci(const gw_table *t, const gw_vmx *v, unsigned idx, unsigned ven,
           unsigned dev, int *vram)
{
	unsigned sv = 0, sd = 0;
	const gw_gpu *g;
	int amb = 0, common = -2;
	size_t i;

	*vram = -1;
	if (parse_pci_id(vget(v, idx, "subVendorId"), &sv) != 0 ||
	    parse_pci_id(vget(v, idx, "subDeviceId"), &sd) != 0)
		sv = sd = 0;
	g = gw_table_find_pci(t, ven, dev, sv, sd, &amb);
	if (g == NULL && !amb && (sv || sd))
		g = gw_table_find_pci(t, ven, dev, 0, 0, &amb);
	if (g) {
		*vram = g->vram_gb;
		return g;
	}
	for (i = 0; amb && i < t->n; i++) {
		if (t->gpus[i].vendor_id != ven || t->gpus[i].device_id != dev)
			continue;
		if (common == -2)
			common = t->gpus[i].vram_gb;
		else if (common != t->gpus[i].vram_gb)
			common = -1;
	}
	if (common >= 0)
		*vram = common;
	return NULL;
}

static gw_plan_gpu *
plan_gpu_push(gw_plan *p)
{
	gw_plan_gpu *g;

	p->gpus = gw_xrealloc(p->gpus, (p->ngpus + 1) * sizeof *p->gpus);
	g = &p->gpus[p->ngpus++];
	memset(g, 0, sizeof *g);
	return g;
}

/* Existing devices with the same identity are merged into one group. */
static void
add_existing_gpu(gw_plan *p, const gw_gpu *gpu, const char *profile,
                 int vram, unsigned ven, unsigned dev, const char *label)
{
	gw_plan_gpu *g;
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		g = &p->gpus[i];
		if (g->existing && g->gpu == gpu && g->vram_gb == vram &&
		    g->vendor_id == ven && g->device_id == dev &&
		    strcmp(g->label, label) == 0 &&
		    ((g->profile == NULL && profile == NULL) ||
		     (g->profile && profile && strcmp(g->profile, profile) == 0))) {
			g->count++;
			return;
		}
	}
	g = plan_gpu_push(p);
	g->gpu = gpu;
	g->label = gw_xstrdup(label);
	g->vram_gb = vram;
	g->count = 1;
	g->profile = profile ? gw_xstrdup(profile) : NULL;
	g->existing = 1;
	g->vendor_id = ven;
	g->device_id = dev;
}

static char *
lower_dup(const char *s)
{
	char *r = gw_xstrdup(s), *q;

	for (q = r; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	return r;
}

/* Read the devices already in the .vmx into plan GPUs + findings. */
static void
plan_existing(gw_plan *p, const gw_table *t, const gw_vmx *v, scan *sc)
{
	size_t i;

	for (i = 0; i < sc->ndevs; i++) {
		vdev *d = &sc->devs[i];
		const gw_gpu *g = NULL;
		char label[32];
		int vram = -1;

		if (!d->present)
			continue;
		if (d->vgpu) {
			gw_err le;
			char *prof = lower_dup(d->vgpu);

			g = t ? gw_table_lookup(t, prof, &le) : NULL;
			vram = g ? g->vram_gb : -1;
			if (g == NULL)
				add_finding(p, GW_SEV_WARN, "vgpu-profile-unknown",
				            SRC_VGPU_MMIO,
				            gw_xasprintf(_("pciPassthru%u is vGPU "
				                           "profile '%s', whose GPU "
				                           "is not in the GPU table: "
				                           "its framebuffer is not "
				                           "counted and the MMIO size "
				                           "may be too small"),
				                         d->idx, d->vgpu),
				            gw_xasprintf(_("Add the physical GPU's "
				                           "framebuffer with --vram "
				                           "GB.")));
			else if (vram < 0)
				add_finding(p, GW_SEV_WARN, "gpu-vram-unknown",
				            SRC_VGPU_MMIO,
				            gw_xasprintf(_("pciPassthru%u is vGPU "
				                           "profile '%s' on %s, "
				                           "whose VRAM is unknown: "
				                           "the MMIO size may be too "
				                           "small"),
				                         d->idx, d->vgpu, g->id),
				            gw_xasprintf(_("Add the physical GPU's "
				                           "framebuffer with --vram "
				                           "GB.")));
			add_existing_gpu(p, g, prof, vram, g ? g->vendor_id : 0,
			                 g ? g->device_id : 0, prof);
			free(prof);
			continue;
		}
		if (!d->ids_ok) {
			const char *dv = vget(v, d->idx, "deviceId");

			add_finding(p, GW_SEV_WARN, "gpu-unknown", SRC_DEVICE,
			            gw_xasprintf(_("pciPassthru%u has no usable "
			                           "vendorId/deviceId (deviceId = "
			                           "'%s'; ESXi writes 0x%%04x): it "
			                           "cannot be identified, and if it "
			                           "is a GPU the MMIO size may be "
			                           "too small"),
			                         d->idx, dv ? dv : ""),
			            gw_xasprintf(_("If it is a GPU, add its "
			                           "framebuffer with --vram GB.")));
			snprintf(label, sizeof label, "pciPassthru%u", d->idx);
			add_existing_gpu(p, NULL, NULL, -1, 0, 0, label);
			continue;
		}
		if (t)
			g = lookup_pci(t, v, d->idx, d->vendor, d->device, &vram);
		snprintf(label, sizeof label, "%04x:%04x", d->vendor, d->device);
		if (g == NULL && vram < 0) {
			const char *cls = vget(v, d->idx, "class");
			int display = d->vendor == NVIDIA_VENDOR ||
			              (cls && strncmp(cls, "0x03", 4) == 0);

			add_finding(p, GW_SEV_WARN, "gpu-unknown", SRC_MMIO,
			            display
			            ? gw_xasprintf(_("pciPassthru%u (%s) is a "
			                             "display device that is not "
			                             "in the GPU table: its "
			                             "framebuffer is not counted "
			                             "and the MMIO size may be too "
			                             "small"), d->idx, label)
			            : gw_xasprintf(_("pciPassthru%u (%s) is not in "
			                             "the GPU table: if it is a "
			                             "GPU, its framebuffer is not "
			                             "counted and the MMIO size "
			                             "may be too small"),
			                           d->idx, label),
			            gw_xasprintf(_("Add its framebuffer with --vram "
			                           "GB.")));
		} else if (vram < 0) {
			add_finding(p, GW_SEV_WARN, "gpu-vram-unknown", SRC_MMIO,
			            gw_xasprintf(_("pciPassthru%u (%s, %s): its "
			                           "VRAM is unknown in the GPU "
			                           "table, so it is not counted "
			                           "and the MMIO size may be too "
			                           "small"),
			                         d->idx, label, g ? g->id : label),
			            gw_xasprintf(_("Add its framebuffer with --vram "
			                           "GB.")));
		}
		add_existing_gpu(p, g, NULL, vram, d->vendor, d->device,
		                 g ? g->id : label);
	}
}

/* ---- BDF pairing -------------------------------------------------------- */

typedef struct newdev {
	size_t want;          /* index into a->gpus */
	const char *bdf;      /* a->bdfs[i] */
	unsigned dom, bus, dev, fn;
	vdev *existing;       /* already attached at that address */
	int same;             /* 1: same PCI ids there (not counted again);
	                       * 0: ids unknown there; -1: other ids */
} newdev;

/* ---- the plan ----------------------------------------------------------- */

/* "gpu-<first id>": the first GPU asked for, else the first one in the
 * .vmx; characters outside [A-Za-z0-9_-] (periods above all: Ops Manager
 * names have none) become '-'. */
static char *
derive_name(const gw_plan *p, const gw_answers *a)
{
	const char *first = NULL;
	char *n, *q;
	size_t i;

	if (a->ngpus > 0) {
		const gw_gpu_want *w = &a->gpus[0];

		if (w->profile)
			first = w->profile;
		else if (w->gpu)
			first = w->gpu->id;
		else
			first = "";
	}
	for (i = 0; first == NULL && i < p->ngpus; i++)
		if (p->gpus[i].vram_gb >= 0)
			first = p->gpus[i].label;
	if (first && *first == '\0')
		n = gw_xasprintf("gpu-%dgb", a->gpus[0].vram_gb);
	else
		n = gw_xasprintf("gpu-%s", first ? first : "vm");
	for (q = n; *q; q++) {
		unsigned char c = (unsigned char)*q;

		if (!isalnum(c) && c != '-' && c != '_')
			*q = '-';
		else
			*q = (char)tolower(c);
	}
	return n;
}

static int
name_valid(const char *s)
{
	size_t n = 0;

	if (s == NULL || *s == '\0')
		return 0;
	for (; *s; s++, n++) {
		unsigned char c = (unsigned char)*s;

		if (!isalnum(c) && c != '-' && c != '_')
			return 0;
	}
	return n <= 80;
}

/* "2 x l40s 48 GB", "1 x grid_l40s-48c (vGPU on l40s) 48 GB", ... */
static char *
group_text(const gw_plan_gpu *g)
{
	if (g->profile && g->gpu)
		return gw_xasprintf(g->existing
		                    ? _("%d x %s (vGPU on %s, in the .vmx) %d GB")
		                    : _("%d x %s (vGPU on %s) %d GB"),
		                    g->count, g->profile, g->gpu->id, g->vram_gb);
	if (g->gpu == NULL && !g->existing)
		return gw_xasprintf(_("%d x %d GB (given by size)"), g->count,
		                    g->vram_gb);
	return gw_xasprintf(g->existing ? _("%d x %s %d GB (in the .vmx)")
	                                : _("%d x %s %d GB"),
	                    g->count, g->label, g->vram_gb);
}

static void
join(gw_buf *b, const char *sep, char *s)
{
	if (b->len)
		gw_buf_puts(b, sep);
	gw_buf_puts(b, s);
	free(s);
}

/* Rule + BAR need + operator/existing values -> p->mmio_gb, steps,
 * findings, settings.  Returns -1 (e set) when the plan is impossible. */
static int
plan_mmio(gw_plan *p, const gw_answers *a, const gw_vmx *v, gw_err *e)
{
	gw_buf list, unknown, barlist, vgpus;
	uint64_t *bars = NULL, bar_bytes = 0, rec, target, total = 0;
	size_t nbars = 0, i;
	int any_vgpu = 0, nunknown = 0;
	const char *cur;
	gw_setting *s;
	gw_err le;

	gw_buf_init(&list);
	gw_buf_init(&unknown);
	gw_buf_init(&barlist);
	gw_buf_init(&vgpus);
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->vram_gb < 0) {
			nunknown += g->count;
			join(&unknown, ", ", gw_xasprintf(_("%d x %s"),
			                                  g->count, g->label));
			continue;
		}
		total += (uint64_t)g->vram_gb * (uint64_t)g->count;
		join(&list, " + ", group_text(g));
		if (g->profile) {
			any_vgpu = 1;
			join(&vgpus, ", ", gw_xstrdup(g->profile));
		}
	}
	if (total == 0) {
		if (nunknown)
			gw_err_set(e, _("cannot size the MMIO window: the VRAM of "
			                "the GPUs in the VM (%s) is unknown; give "
			                "the size with --vram GB"),
			           unknown.data ? unknown.data : "");
		else
			gw_err_set(e, _("no GPU to plan for: give one with --gpu "
			                "SPEC, --vgpu PROFILE or --vram GB"));
		goto fail;
	}
	if (total > GW_MMIO_MAX_TOTAL_GB) {
		gw_err_set(e, _("total framebuffer %llu GB is not plausible for "
		                "one VM (expected at most %llu GB)"),
		           (unsigned long long)total,
		           (unsigned long long)GW_MMIO_MAX_TOTAL_GB);
		goto fail;
	}
	p->total_vram_gb = total;
	add_step(p, gw_xasprintf(_("Total framebuffer: %s = %llu GB"),
	                         list.data, (unsigned long long)total));
	if (nunknown)
		add_step(p, gw_xasprintf(_("Not counted (VRAM unknown): %s"),
		                         unknown.data));
	if (any_vgpu)
		add_step(p, gw_xasprintf(_("vGPU profiles (%s) count with the "
		                           "physical GPU's whole framebuffer, "
		                           "not the profile's share (%s)"),
		                         vgpus.data, SRC_VGPU_MMIO));
	if (gw_mmio_rule(total, &p->rule_gb, &le) != 0) {
		gw_err_set(e, "%s", le.msg);
		goto fail;
	}
	if (gw_is_pow2(total))
		add_step(p, gw_xasprintf(_("%llu is a power of two: take the "
		                           "next power of two: %llu GB (rule, "
		                           "%s)"),
		                         (unsigned long long)total,
		                         (unsigned long long)p->rule_gb,
		                         SRC_MMIO));
	else
		add_step(p, gw_xasprintf(_("%llu is not a power of two: round up "
		                           "to %llu, then double: %llu GB (rule, "
		                           "%s)"),
		                         (unsigned long long)total,
		                         (unsigned long long)(p->rule_gb / 2),
		                         (unsigned long long)p->rule_gb,
		                         SRC_MMIO));

	/* BAR-based need: DirectPath GPUs whose BAR1 is known.  vGPUs are
	 * left out: the VM sees the vGPU's own (virtual) BARs, not the
	 * physical GPU's; NVIDIA sizes them by the rule above. */
	gw_buf_free(&unknown);
	gw_buf_init(&unknown);
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		unsigned long mib = g->gpu ? gw_gpu_bar1_max_mib(g->gpu) : 0;
		uint64_t b1, b3;
		int k;

		if (g->profile)
			continue;
		if (mib == 0) {
			join(&unknown, ", ", gw_xstrdup(g->label));
			continue;
		}
		b1 = (uint64_t)mib << 20;
		b3 = g->gpu->vendor_id == NVIDIA_VENDOR ? NVIDIA_BAR3_BYTES : 0;
		bars = gw_xrealloc(bars, (nbars + 2 * (size_t)g->count) *
		                         sizeof *bars);
		for (k = 0; k < g->count; k++) {
			bars[nbars++] = b1;
			if (b3)
				bars[nbars++] = b3;
		}
		{
			char *s1 = fmt_size(b1), *s3 = fmt_size(b3);

			join(&barlist, "; ",
			     b3 ? gw_xasprintf(_("%d x %s: BAR1 %s + BAR3 %s"),
			                       g->count, g->label, s1, s3)
			        : gw_xasprintf(_("%d x %s: BAR1 %s"),
			                       g->count, g->label, s1));
			free(s1);
			free(s3);
		}
	}
	if (nbars > 0) {
		char *end;
		uint64_t sum = 0;

		if (gw_mmio_bars(bars, nbars, &bar_bytes, &le) != 0) {
			gw_err_set(e, "%s", le.msg);
			free(bars);
			goto fail;
		}
		for (i = 0; i < nbars; i++)
			sum += bars[i];
		p->bar_gb = bar_bytes >> 30;
		if (p->bar_gb == 0)
			p->bar_gb = 1;
		end = fmt_size(sum);
		add_step(p, gw_xasprintf(_("64-bit BARs (largest BAR1 observed, "
		                           "from the GPU table; NVIDIA BAR3 32 "
		                           "MiB, as in the NVIDIA lspci and "
		                           "vmware.log captures): %s"),
		                         barlist.data));
		add_step(p, gw_xasprintf(_("BAR-based need: packed largest "
		                           "first at natural alignment they end "
		                           "at %s; rounded up to a power of two: "
		                           "%llu GB"),
		                         end, (unsigned long long)p->bar_gb));
		free(end);
		if (unknown.len)
			add_step(p, gw_xasprintf(_("BAR sizes unknown for %s: not "
			                           "in the BAR-based need"),
			                         unknown.data));
	} else if (unknown.len) {
		add_step(p, gw_xasprintf(_("BAR sizes unknown for %s: only the "
		                           "rule applies"), unknown.data));
	}
	free(bars);

	rec = p->rule_gb > p->bar_gb ? p->rule_gb : p->bar_gb;
	if (p->bar_gb)
		add_step(p, gw_xasprintf(_("Recommended: the larger of the rule "
		                           "(%llu GB) and the BAR-based need "
		                           "(%llu GB): %llu GB"),
		                         (unsigned long long)p->rule_gb,
		                         (unsigned long long)p->bar_gb,
		                         (unsigned long long)rec));
	else
		add_step(p, gw_xasprintf(_("Recommended: %llu GB"),
		                         (unsigned long long)rec));

	target = rec;
	if (a->mmio_gb) {
		if (a->mmio_gb > GW_MMIO_MAX_WINDOW_GB) {
			gw_err_set(e, _("MMIO size: %llu GB is not plausible "
			                "(expected 1..%llu)"),
			           (unsigned long long)a->mmio_gb,
			           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
			goto fail;
		}
		if (a->mmio_gb < p->rule_gb && !a->allow_below_rule) {
			gw_err_set(e, _("MMIO size: %llu GB is below the rule's "
			                "%llu GB (%s) and the VM may not power on; "
			                "confirm a smaller size explicitly "
			                "(allow_below_rule) or use %llu"),
			           (unsigned long long)a->mmio_gb,
			           (unsigned long long)p->rule_gb, SRC_MMIO,
			           (unsigned long long)rec);
			goto fail;
		}
		target = a->mmio_gb;
		if (!gw_is_pow2(a->mmio_gb))
			add_finding(p, GW_SEV_INFO, "mmio-not-pow2", SRC_MMIO,
			            gw_xasprintf(_("The chosen MMIO size %llu GB is "
			                           "not a power of two; the sizes "
			                           "the rule gives always are"),
			                         (unsigned long long)a->mmio_gb),
			            NULL);
		if (a->mmio_gb < p->rule_gb)
			add_finding(p, GW_SEV_WARN, "mmio-below-rule", SRC_MMIO,
			            gw_xasprintf(_("The MMIO size %llu GB is below "
			                           "the rule's %llu GB, as "
			                           "confirmed: the VM may fail to "
			                           "power on (DevicePowerOn)"),
			                         (unsigned long long)a->mmio_gb,
			                         (unsigned long long)p->rule_gb),
			            gw_xasprintf(_("Use %llu GB if power-on fails."),
			                         (unsigned long long)rec));
		else if (a->mmio_gb < rec)
			add_finding(p, GW_SEV_WARN, "mmio-below-bars", SRC_MMIO,
			            gw_xasprintf(_("The MMIO size %llu GB is below "
			                           "the BAR-based need of %llu GB: "
			                           "the GPUs' BARs may not fit"),
			                         (unsigned long long)a->mmio_gb,
			                         (unsigned long long)p->bar_gb),
			            gw_xasprintf(_("Use %llu GB if power-on fails."),
			                         (unsigned long long)rec));
		else if (a->mmio_gb > rec)
			add_finding(p, GW_SEV_INFO, "mmio-operator", SRC_MMIO,
			            gw_xasprintf(_("Using the chosen MMIO size "
			                           "%llu GB (recommended: %llu GB)"),
			                         (unsigned long long)a->mmio_gb,
			                         (unsigned long long)rec),
			            NULL);
		add_step(p, gw_xasprintf(_("Chosen size: %llu GB"),
		                         (unsigned long long)a->mmio_gb));
	}

	/* pciPassthru.use64bitMMIO */
	add_setting(p, v, GW_SET_MMIO, "pciPassthru.use64bitMMIO", "TRUE",
	            gw_xstrdup(_("Map the GPUs' large BARs above 4 GB.")),
	            SRC_MMIO);
	if (v && (cur = gw_vmx_get(v, "pciPassthru.use64bitMMIO")) != NULL &&
	    gw_vmx_get_bool(v, "pciPassthru.use64bitMMIO", 0)) {
		p->settings[p->nsettings - 1].keep = 1;
	}

	/* pciPassthru.64bitMMIOSizeGB */
	cur = v ? gw_vmx_get(v, "pciPassthru.64bitMMIOSizeGB") : NULL;
	if (cur) {
		unsigned long long old;

		if (gw_parse_uint(cur, ULLONG_MAX, &old) == 0)
			p->existing_gb = old;
	}
	p->mmio_gb = target;
	if (p->existing_gb && p->existing_gb >= target) {
		char val[32];

		snprintf(val, sizeof val, "%llu",
		         (unsigned long long)p->existing_gb);
		s = add_setting(p, v, GW_SET_MMIO, "pciPassthru.64bitMMIOSizeGB",
		                val,
		                gw_xasprintf(_("The existing %llu GB already "
		                               "covers the %llu GB needed."),
		                             (unsigned long long)p->existing_gb,
		                             (unsigned long long)target),
		                SRC_MMIO);
		s->keep = 1;
		p->mmio_gb = p->existing_gb;
		if (p->existing_gb > target)
			add_finding(p, GW_SEV_INFO, "mmio-kept", SRC_MMIO,
			            gw_xasprintf(_("pciPassthru.64bitMMIOSizeGB = "
			                           "%llu in the .vmx is larger than "
			                           "the %llu GB needed: kept"),
			                         (unsigned long long)p->existing_gb,
			                         (unsigned long long)target),
			            NULL);
		add_step(p, gw_xasprintf(_("The .vmx already has %llu GB: kept"),
		                         (unsigned long long)p->existing_gb));
	} else {
		char val[32];

		snprintf(val, sizeof val, "%llu", (unsigned long long)target);
		s = add_setting(p, v, GW_SET_MMIO, "pciPassthru.64bitMMIOSizeGB",
		                val,
		                gw_xasprintf(_("64-bit MMIO window for %llu GB "
		                               "of framebuffer: %llu GB."),
		                             (unsigned long long)total,
		                             (unsigned long long)target),
		                SRC_MMIO);
		if (cur) {
			add_finding(p, GW_SEV_INFO, "mmio-raised", SRC_MMIO,
			            gw_xasprintf(_("pciPassthru.64bitMMIOSizeGB = "
			                           "'%s' in the .vmx is too small: "
			                           "raised to %llu"),
			                         cur, (unsigned long long)target),
			            NULL);
			add_step(p, gw_xasprintf(_("The .vmx has '%s': raised to "
			                           "%llu GB"), cur,
			                         (unsigned long long)target));
		}
	}
	gw_buf_free(&list);
	gw_buf_free(&unknown);
	gw_buf_free(&barlist);
	gw_buf_free(&vgpus);
	return 0;
fail:
	gw_buf_free(&list);
	gw_buf_free(&unknown);
	gw_buf_free(&barlist);
	gw_buf_free(&vgpus);
	return -1;
}

/* GeForce cards without Resizable BAR have a 256 MiB BAR1. */
static void
plan_geforce(gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->profile || g->gpu == NULL || g->gpu->nbar1 == 0 ||
		    g->gpu->bar1_mib[0] != 256 ||
		    strstr(g->gpu->name, "GeForce") == NULL)
			continue;
		add_finding(p, GW_SEV_INFO, "geforce-bar1-256", SRC_REBAR,
		            g->gpu->nbar1 > 1
		            ? gw_xasprintf(_("%s: without Resizable BAR its BAR1 "
		                             "is 256 MiB and the MMIO setting is "
		                             "harmless but not what blocks "
		                             "power-on; with Resizable BAR it is "
		                             "%lu MiB and the setting matters"),
		                           g->label,
		                           g->gpu->bar1_mib[g->gpu->nbar1 - 1])
		            : gw_xasprintf(_("%s: without Resizable BAR its BAR1 "
		                             "is 256 MiB and the MMIO setting is "
		                             "harmless but not what blocks "
		                             "power-on; with Resizable BAR on, "
		                             "BAR1 can be as large as the VRAM "
		                             "and the setting matters"),
		                           g->label),
		            NULL);
	}
}

static void
plan_memory(gw_plan *p, const gw_answers *a, const gw_vmx *v)
{
	const char *ms = v ? gw_vmx_get(v, "memsize") : NULL;
	unsigned long long file_mb = 0;
	long mb = 0;
	char val[32];

	if (!a->reserve) {
		/* Only a .vmx can be checked; without one the operator just
		 * asked for no reservation lines.  A file already reserving
		 * all of memsize needs nothing. */
		const char *mn = v ? gw_vmx_get(v, "sched.mem.min") : NULL;

		if (v == NULL || (ms && mn && strcmp(ms, mn) == 0 &&
		                  gw_vmx_get_bool(v, "sched.mem.pin", 0)))
			return;
		add_finding(p, GW_SEV_WARN, "memory-not-reserved", SRC_MEM,
		            gw_xasprintf(_("Memory reservation is off: a VM with "
		                           "a passthrough device only powers on "
		                           "with all of its memory reserved")),
		            gw_xasprintf(_("Set sched.mem.min and "
		                           "sched.mem.minSize to the memory size "
		                           "in MB and sched.mem.pin = \"TRUE\" "
		                           "(Reserve all guest memory).")));
		return;
	}
	if (ms && gw_parse_uint(ms, (unsigned long long)LONG_MAX, &file_mb) != 0)
		file_mb = 0;
	if (file_mb > 0) {
		mb = (long)file_mb;
		if (a->memory_mb > 0 && a->memory_mb != mb)
			add_finding(p, GW_SEV_WARN, "memory-mismatch", SRC_MEM,
			            gw_xasprintf(_("The memory size given (%ld MB) "
			                           "differs from memsize = %ld in "
			                           "the .vmx; the reservation must "
			                           "equal memsize, so %ld MB is "
			                           "used"), a->memory_mb, mb, mb),
			            NULL);
	} else if (a->memory_mb > 0) {
		mb = a->memory_mb;
	}
	p->memory_mb = mb;
	if (mb <= 0) {
		add_finding(p, GW_SEV_WARN, "memory-unknown", SRC_MEM,
		            gw_xasprintf(_("The VM's memory size is unknown, so "
		                           "the full memory reservation cannot be "
		                           "written")),
		            gw_xasprintf(_("Set sched.mem.min and "
		                           "sched.mem.minSize to the VM's memsize "
		                           "in MB and sched.mem.pin = \"TRUE\" "
		                           "(Reserve all guest memory), or give "
		                           "the memory size.")));
		return;
	}
	snprintf(val, sizeof val, "%ld", mb);
	add_setting(p, v, GW_SET_MEM, "sched.mem.min", val,
	            gw_xasprintf(_("Reserve all %ld MB of guest memory: "
	                           "passthrough needs it."), mb), SRC_MEM);
	add_setting(p, v, GW_SET_MEM, "sched.mem.minSize", val,
	            gw_xasprintf(_("Reserve all %ld MB of guest memory: "
	                           "passthrough needs it."), mb), SRC_MEM);
	add_setting(p, v, GW_SET_MEM, "sched.mem.pin", "TRUE",
	            gw_xstrdup(_("Lock the reservation (Reserve all guest "
	                         "memory, All locked).")), SRC_MEM);
}

static void
plan_firmware(gw_plan *p, const gw_vmx *v)
{
	const char *fw;
	int line;

	if (v == NULL) {
		add_finding(p, GW_SEV_INFO, "firmware-efi", SRC_EFI,
		            gw_xasprintf(_("The VM must boot with EFI firmware "
		                           "to map BARs larger than 16 GB; the "
		                           "guest must be installed in EFI "
		                           "mode")),
		            NULL);
		return;
	}
	fw = gw_vmx_get(v, "firmware");
	if (fw && gw_strieq(fw, "efi"))
		return;
	line = fw ? 0 : gw_vmx_malformed_line_of(v, "firmware");
	add_finding(p, GW_SEV_WARN, "firmware-bios", SRC_EFI,
	            fw ? gw_xasprintf(_("The VM boots with firmware = \"%s\", "
	                                "not EFI: BARs larger than 16 GB need "
	                                "EFI firmware"), fw)
	            : line ? gw_xasprintf(_("The firmware line (line %d) is "
	                                    "malformed, so EFI firmware cannot "
	                                    "be confirmed: BARs larger than 16 "
	                                    "GB need EFI firmware"), line)
	               : gw_xasprintf(_("The VM boots with BIOS firmware (no "
	                                "firmware key): BARs larger than 16 "
	                                "GB need EFI firmware")),
	            gw_xasprintf(_("The guest must be installed in EFI mode: "
	                           "switching an installed BIOS guest to EFI "
	                           "leaves it unbootable, so gpuwiz does not "
	                           "change it. Reinstall (or convert the boot "
	                           "disk to EFI), then set firmware = "
	                           "\"efi\".")));
}

static int
hw_needed_for(int n)
{
	if (n <= 16)
		return 13;
	if (n <= 32)
		return 20;
	return 21;
}

static void
plan_hw(gw_plan *p, const gw_answers *a, const gw_vmx *v, int ndevices)
{
	const char *hv = v ? gw_vmx_get(v, "virtualHW.version") : NULL;
	const char *esxi = a->esxi_version;
	unsigned long long cur = 0;
	int hw, limit;

	if (hv && gw_parse_uint(hv, 999, &cur) == 0)
		p->hw_current = (int)cur;
	p->hw_target = gw_esxi_to_hw(esxi);

	if (p->hw_target == 0) {
		add_finding(p, GW_SEV_INFO, "hw-target-unknown", SRC_HW,
		            esxi ? gw_xasprintf(_("ESXi version '%s' is not "
		                                  "known to gpuwiz: use the "
		                                  "newest hardware version the "
		                                  "host supports"), esxi)
		                 : gw_xasprintf(_("ESXi version not given: use "
		                                  "the newest hardware version "
		                                  "the host supports")),
		            gw_xasprintf(_("ESXi 6.0: 11, 6.5: 13, 6.7: 14, "
		                           "6.7U2: 15, "
		                           "7.0: 17, 7.0U1: 18, 7.0U2: 19, 8.0: "
		                           "20, 8.0U2: 21, 9.0: 22. With the VM "
		                           "off and a snapshot taken: vim-cmd "
		                           "vmsvc/upgrade <vmid> vmx-NN (one-way; "
		                           "never downgrade).")));
	} else if (p->hw_current && p->hw_current > p->hw_target) {
		add_finding(p, GW_SEV_ERROR, "hw-too-new", SRC_HW,
		            gw_xasprintf(_("The VM has hardware version %d, newer "
		                           "than ESXi %s supports (%d): it needs "
		                           "a newer host"), p->hw_current, esxi,
		                         p->hw_target),
		            gw_xasprintf(_("Run the VM on a host that supports "
		                           "hardware version %d; hardware "
		                           "versions cannot be downgraded "
		                           "safely."), p->hw_current));
	} else if (p->hw_current && p->hw_current < p->hw_target) {
		/* No documented minimum for 64-bit MMIO (domain.md 4, open):
		 * an upgrade is advice (INFO), a WARN below 17, which Dynamic
		 * DirectPath I/O needs. */
		int ws = p->hw_current == 12 || p->hw_current == 16;

		add_finding(p, p->hw_current < 17 ? GW_SEV_WARN : GW_SEV_INFO,
		            "hw-upgrade", SRC_HW,
		            ws ? gw_xasprintf(_("The VM has hardware version %d "
		                                "(a Workstation/Fusion version); "
		                                "ESXi %s supports %d"),
		                              p->hw_current, esxi, p->hw_target)
		               : gw_xasprintf(_("The VM has hardware version %d; "
		                                "ESXi %s supports %d (Dynamic "
		                                "DirectPath I/O needs 17)"),
		                              p->hw_current, esxi, p->hw_target),
		            gw_xasprintf(_("Power the VM off and take a snapshot "
		                           "or backup (the upgrade is one-way), "
		                           "then run: vim-cmd vmsvc/upgrade "
		                           "<vmid> vmx-%d (vim-cmd "
		                           "vmsvc/getallvms shows the Vmid)"),
		                         p->hw_target));
	} else if (p->hw_current == 0) {
		add_finding(p, GW_SEV_INFO, "hw-target", SRC_HW,
		            gw_xasprintf(_("Use hardware version vmx-%d, the "
		                           "newest ESXi %s supports"),
		                         p->hw_target, esxi),
		            NULL);
	}

	hw = p->hw_current ? p->hw_current : p->hw_target;
	limit = gw_hw_max_passthru(hw);
	if (hw == 20 && esxi_is_80u1(esxi))
		limit = 64;
	if (limit && ndevices > limit) {
		int need = hw_needed_for(ndevices);

		add_finding(p, GW_SEV_ERROR, "hw-too-many-devices", SRC_LIMITS,
		            gw_xasprintf(_("%d passthrough devices in one VM, but "
		                           "hardware version %d allows %d"),
		                         ndevices, hw, limit),
		            need == 21
		            ? gw_xasprintf(_("Use hardware version 21 (ESXi 8.0U2 "
		                             "or later) for up to 128 devices."))
		            : gw_xasprintf(_("Use hardware version %d or later "
		                             "(ESXi 8.0 for 32 devices)."), need));
	}
}

static void
plan_nested(gw_plan *p, const gw_vmx *v)
{
	if (v == NULL || !gw_vmx_get_bool(v, "vhv.enable", 0))
		return;
	add_setting(p, v, GW_SET_NESTED, "vhv.enable", "FALSE",
	            gw_xstrdup(_("Nested virtualization cannot be combined "
	                         "with passthrough devices.")), SRC_NESTED);
	add_finding(p, GW_SEV_WARN, "nested-virt", SRC_NESTED,
	            gw_xasprintf(_("vhv.enable is TRUE (nested "
	                           "virtualization), which is not supported "
	                           "with passthrough devices: it is turned "
	                           "off")),
	            NULL);
}

static void
uvm_setting(gw_plan *p, const gw_vmx *v, unsigned idx)
{
	char key[64];

	snprintf(key, sizeof key, "pciPassthru%u.cfg.enable_uvm", idx);
	add_setting(p, v, GW_SET_UVM, key, "1",
	            gw_xasprintf(_("Unified memory for vGPU pciPassthru%u "
	                           "(NCCL 2.27+ needs it)."), idx), SRC_UVM);
}

/* ---- gw_plan_build ----------------------------------------------------- */

/* The profile as ESXi names it on this GPU ("grid_h100xm-80c" typed ->
 * "nvidia_h100xm-80c", the H100 SXM's own spelling): that is what the .vmx
 * and BOSH need.  A different spelling is said as an INFO finding. */
static char *
esxi_profile(gw_plan *p, const gw_gpu_want *w)
{
	char *prof = w->gpu ? gw_gpu_vgpu_profile(w->gpu, w->profile) : NULL;

	if (prof == NULL)
		return lower_dup(w->profile);
	if (!gw_strieq(prof, w->profile))
		add_finding(p, GW_SEV_INFO, "vgpu-profile-spelling",
		            SRC_VGPU_NAMES,
		            gw_xasprintf(_("vGPU profile '%s' is written as ESXi "
		                           "names it on %s: %s"),
		                         w->profile, w->gpu->id, prof),
		            NULL);
	return prof;
}

static void
device_block(gw_plan *p, const gw_vmx *v, unsigned idx, const newdev *nd,
             const gw_gpu *g, const char *system_id)
{
	char key[64], val[32];

	snprintf(key, sizeof key, "pciPassthru%u.present", idx);
	add_setting(p, v, GW_SET_DEVICE, key, "TRUE",
	            gw_xasprintf(_("Attach host GPU %s (%s) as pciPassthru%u."),
	                         nd->bdf, g->id, idx), SRC_DEVICE);
	snprintf(key, sizeof key, "pciPassthru%u.id", idx);
	gw_bdf_vmx_id(nd->dom, nd->bus, nd->dev, nd->fn, val, sizeof val);
	add_setting(p, v, GW_SET_DEVICE, key, val,
	            gw_xasprintf(_("Host address %s in ESXi's decimal form."),
	                         nd->bdf), SRC_DEVICE);
	snprintf(key, sizeof key, "pciPassthru%u.deviceId", idx);
	snprintf(val, sizeof val, "0x%04x", g->device_id);
	add_setting(p, v, GW_SET_DEVICE, key, val,
	            gw_xasprintf(_("PCI device id of %s."), g->id), SRC_DEVICE);
	snprintf(key, sizeof key, "pciPassthru%u.vendorId", idx);
	snprintf(val, sizeof val, "0x%04x", g->vendor_id);
	add_setting(p, v, GW_SET_DEVICE, key, val,
	            gw_xasprintf(_("PCI vendor id of %s."), g->id), SRC_DEVICE);
	snprintf(key, sizeof key, "pciPassthru%u.systemId", idx);
	add_setting(p, v, GW_SET_DEVICE, key, system_id,
	            gw_xstrdup(_("The host's system id (esxcli system uuid "
	                         "get).")), SRC_DEVICE);
}

int
gw_plan_build(const gw_answers *a, const gw_table *t, const gw_vmx *v,
              gw_plan *p, gw_err *e)
{
	scan sc;
	newdev *nds = NULL;
	size_t nnd = 0, i, npt_slots = 0;
	int *dedup = NULL, ndevices = 0, nvgpu_all = 0;
	int a100_vgpus = 0;
	unsigned idx;

	memset(p, 0, sizeof *p);
	memset(&sc, 0, sizeof sc);
	if (a == NULL) {
		gw_err_set(e, _("no answers to plan from"));
		return -1;
	}
	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu_want *w = &a->gpus[i];

		if (w->count < 1 || w->count > GW_MMIO_MAX_COUNT) {
			gw_err_set(e, _("%s: count %d is not 1..%d"),
			           w->spec ? w->spec : "?", w->count,
			           GW_MMIO_MAX_COUNT);
			return -1;
		}
		if (w->vram_gb < 0) {
			gw_err_set(e, _("%s: the VRAM of this GPU is unknown in "
			                "the GPU table; give the size with --vram "
			                "GB"), w->spec ? w->spec : "?");
			return -1;
		}
		if (w->vram_gb == 0 || (uint64_t)w->vram_gb > GW_MMIO_MAX_GPU_GB) {
			gw_err_set(e, _("%s: %d GB is not a plausible size "
			                "(expected 1..%llu)"),
			           w->spec ? w->spec : "?", w->vram_gb,
			           (unsigned long long)GW_MMIO_MAX_GPU_GB);
			return -1;
		}
		if (w->profile == NULL)
			npt_slots += (size_t)w->count;
	}
	/* An encrypted VM keeps its real configuration inside
	 * encryption.data: plain keys appended to the .vmx would be ignored
	 * or break it, so refuse rather than write advice that cannot work. */
	if (v != NULL && (gw_vmx_get(v, "encryption.keySafe") != NULL ||
	                  gw_vmx_get(v, "encryption.data") != NULL)) {
		gw_err_set(e, _("%s: the VM is encrypted (encryption.keySafe): its settings live inside encryption.data and cannot be edited in the file; make these changes in the vSphere Client or Workstation"),
		           gw_vmx_name(v));
		return -1;
	}
	if (a->name && !name_valid(a->name)) {
		gw_err_set(e, _("name: '%s' may contain only letters, digits, "
		                "'-' and '_' (no periods), at most 80"), a->name);
		return -1;
	}
	if (a->nbdfs > 0 && (a->system_id == NULL ||
	                     !gw_system_id_valid(a->system_id))) {
		gw_err_set(e, _("--system-id: a host system id is needed with "
		                "--bdf (run esxcli system uuid get on the "
		                "host)"));
		return -1;
	}
	if (a->nbdfs > npt_slots) {
		gw_err_set(e, _("--bdf: %zu host PCI addresses given but only "
		                "%zu passthrough GPUs are being added (each "
		                "--bdf pairs with one GPU of --gpu, in order)"),
		           a->nbdfs, npt_slots);
		return -1;
	}

	scan_vmx(v, &sc);

	/* Pair BDFs with the passthrough GPUs being added, in order. */
	dedup = gw_xcalloc(a->ngpus ? a->ngpus : 1, sizeof *dedup);
	if (a->nbdfs)
		nds = gw_xcalloc(a->nbdfs, sizeof *nds);
	for (i = 0; i < a->ngpus && nnd < a->nbdfs; i++) {
		const gw_gpu_want *w = &a->gpus[i];
		int c;

		if (w->profile)
			continue;
		for (c = 0; c < w->count && nnd < a->nbdfs; c++) {
			newdev *nd = &nds[nnd];
			size_t j;

			nd->want = i;
			nd->bdf = a->bdfs[nnd];
			if (w->gpu == NULL) {
				gw_err_set(e, _("--bdf: %s pairs with a GPU given "
				                "only by size (%s); give that GPU "
				                "by id (--gpu) so its PCI ids can be "
				                "written"), nd->bdf,
				           w->spec ? w->spec : "--vram");
				goto fail;
			}
			if (gw_bdf_parse(nd->bdf, &nd->dom, &nd->bus, &nd->dev,
			                 &nd->fn) != 0) {
				gw_err_set(e, _("--bdf: '%s' is not a PCI address "
				                "(expected 0000:42:00.0)"), nd->bdf);
				goto fail;
			}
			for (j = 0; j < sc.ndevs; j++) {
				vdev *d = &sc.devs[j];

				if (!d->present || !d->has_addr || d->vgpu ||
				    d->matched)
					continue;
				if (d->dom == nd->dom && d->bus == nd->bus &&
				    d->dev == nd->dev && d->fn == nd->fn) {
					nd->existing = d;
					d->matched = 1;
					break;
				}
			}
			if (nd->existing && nd->existing->ids_ok) {
				if (nd->existing->vendor == w->gpu->vendor_id &&
				    nd->existing->device == w->gpu->device_id) {
					nd->same = 1;
					dedup[i]++;
				} else {
					nd->same = -1;
				}
			}
			nnd++;
		}
	}

	/* GPUs already in the .vmx, then the ones being added. */
	if (v)
		plan_existing(p, t, v, &sc);
	for (i = 0; i < sc.ndevs; i++)
		if (sc.devs[i].present) {
			ndevices++;
			if (sc.devs[i].vgpu)
				nvgpu_all++;
		}
	for (i = 0; i < a->ngpus; i++) {
		const gw_gpu_want *w = &a->gpus[i];
		gw_plan_gpu *g;
		int n = w->count - dedup[i];

		if (n <= 0)
			continue;
		g = plan_gpu_push(p);
		g->gpu = w->gpu;
		g->vram_gb = w->vram_gb;
		g->count = n;
		g->profile = w->profile ? esxi_profile(p, w) : NULL;
		g->existing = 0;
		if (w->profile)
			g->label = gw_xstrdup(w->profile);
		else if (w->gpu)
			g->label = gw_xstrdup(w->gpu->id);
		else
			g->label = gw_xasprintf("%dGB", w->vram_gb);
		if (w->gpu) {
			g->vendor_id = w->gpu->vendor_id;
			g->device_id = w->gpu->device_id;
		}
		if (w->profile) {
			p->n_vgpu += n;
			nvgpu_all += n;
		} else {
			p->n_passthru += n;
		}
		ndevices += n;
	}
	/* A BDF already attached adds no device (whatever is counted for
	 * MMIO in the mismatch case). */
	for (i = 0; i < nnd; i++)
		if (nds[i].existing && nds[i].same <= 0)
			ndevices--;
	for (i = 0; i < p->ngpus; i++)
		if (p->gpus[i].profile && p->gpus[i].gpu &&
		    strstr(p->gpus[i].gpu->name, "A100"))
			a100_vgpus += p->gpus[i].count;
	if (ndevices > GW_MMIO_MAX_COUNT) {
		gw_err_set(e, _("%d passthrough devices in one VM: more than "
		                "the maximum of %d (hardware version 21)"),
		           ndevices, GW_MMIO_MAX_COUNT);
		goto fail;
	}

	if (plan_mmio(p, a, v, e) != 0)
		goto fail;
	plan_geforce(p);
	plan_memory(p, a, v);

	/* New device blocks for the BDFs. */
	for (i = 0; i < nnd; i++) {
		newdev *nd = &nds[i];
		const gw_gpu *g = a->gpus[nd->want].gpu;
		char vmxid[32];

		if (nd->existing) {
			vdev *d = nd->existing;

			gw_bdf_vmx_id(nd->dom, nd->bus, nd->dev, nd->fn, vmxid,
			              sizeof vmxid);
			if (nd->same < 0) {
				add_finding(p, GW_SEV_WARN, "device-mismatch",
				            SRC_DEVICE,
				            gw_xasprintf(_("pciPassthru%u already has "
				                           "host address %s, but as "
				                           "%04x:%04x, not %s: not "
				                           "added again; both are "
				                           "counted for MMIO"),
				                         d->idx, nd->bdf, d->vendor,
				                         d->device, g->id),
				            gw_xasprintf(_("Check the address; if the "
				                           "card was replaced, remove "
				                           "the old pciPassthru%u "
				                           "block and add the device "
				                           "again."), d->idx));
				continue;
			}
			add_finding(p, GW_SEV_INFO, "device-already-attached",
			            SRC_DEVICE,
			            nd->same
			            ? gw_xasprintf(_("Host GPU %s (%s) is already "
			                             "attached as pciPassthru%u: "
			                             "not added twice"),
			                           nd->bdf, vmxid, d->idx)
			            : gw_xasprintf(_("Host address %s (%s) is "
			                             "already attached as "
			                             "pciPassthru%u (device ids "
			                             "not readable there): not "
			                             "added twice; counted as %s"),
			                           nd->bdf, vmxid, d->idx, g->id),
			            NULL);
			if (d->system_id && a->system_id &&
			    !gw_strieq(d->system_id, a->system_id)) {
				char key[64];

				snprintf(key, sizeof key,
				         "pciPassthru%u.systemId", d->idx);
				add_setting(p, v, GW_SET_DEVICE, key,
				            a->system_id,
				            gw_xasprintf(_("The systemId of "
				                           "pciPassthru%u must match "
				                           "this host (else: The "
				                           "systemId does not match "
				                           "the current system)."),
				                         d->idx), SRC_DEVICE);
			}
			continue;
		}
		idx = next_free(&sc);
		device_block(p, v, idx, nd, g, a->system_id);
	}
	if (v && npt_slots > nnd)
		add_finding(p, GW_SEV_INFO, "devices-without-address", SRC_DEVICE,
		            gw_xasprintf(_("%zu passthrough GPU(s) have no host "
		                           "PCI address: they are counted for "
		                           "MMIO but not written"),
		                         npt_slots - nnd),
		            gw_xasprintf(_("Give each GPU's host PCI address and "
		                           "the host's system id (--bdf and "
		                           "--system-id, or the wizard's VM step), "
		                           "or add the device in the vSphere "
		                           "Client (Edit Settings > Add new device "
		                           "> PCI Device).")));

	/* New vGPU blocks (only into a .vmx) and UVM. */
	if (v) {
		unsigned *vidx = NULL;
		size_t nv = 0;

		for (i = 0; i < sc.ndevs; i++)
			if (sc.devs[i].present && sc.devs[i].vgpu) {
				vidx = gw_xrealloc(vidx, (nv + 1) * sizeof *vidx);
				vidx[nv++] = sc.devs[i].idx;
			}
		for (i = 0; i < a->ngpus; i++) {
			const gw_gpu_want *w = &a->gpus[i];
			const char *prof = NULL;
			size_t j;
			int c;

			if (w->profile == NULL)
				continue;
			for (j = 0; j < p->ngpus && prof == NULL; j++)
				if (!p->gpus[j].existing && p->gpus[j].profile &&
				    p->gpus[j].gpu == w->gpu &&
				    gw_strieq(p->gpus[j].label, w->profile))
					prof = p->gpus[j].profile;
			if (prof == NULL)
				prof = w->profile;
			for (c = 0; c < w->count; c++) {
				char key[64];

				idx = next_free(&sc);
				snprintf(key, sizeof key, "pciPassthru%u.present",
				         idx);
				add_setting(p, v, GW_SET_DEVICE, key, "TRUE",
				            gw_xasprintf(_("Add vGPU %s as "
				                           "pciPassthru%u."),
				                         prof, idx), SRC_VGPU);
				snprintf(key, sizeof key, "pciPassthru%u.vgpu", idx);
				add_setting(p, v, GW_SET_DEVICE, key, prof,
				            gw_xasprintf(_("vGPU profile %s."),
				                         prof), SRC_VGPU);
				vidx = gw_xrealloc(vidx, (nv + 1) * sizeof *vidx);
				vidx[nv++] = idx;
			}
		}
		if (p->n_vgpu > 0)
			add_finding(p, GW_SEV_INFO, "vgpu-vmx-spelling", SRC_VGPU,
			            gw_xasprintf(_("The .vmx spelling of vGPU "
			                           "devices (pciPassthruN.vgpu) is "
			                           "not documented by VMware")),
			            gw_xasprintf(_("The documented way is the vSphere "
			                           "Client: Edit Settings > Add new "
			                           "device > PCI Device > NVIDIA "
			                           "GRID vGPU.")));
		if (a->uvm)
			for (i = 0; i < nv; i++)
				uvm_setting(p, v, vidx[i]);
		free(vidx);
	} else if (a->uvm && p->n_vgpu > 0) {
		/* Snippets: the vGPUs will be the VM's first devices when it
		 * has no DirectPath GPU; otherwise the indices are a guess. */
		int n = p->n_vgpu + (p->n_passthru ? p->n_passthru : 0);

		for (i = 0; i < (size_t)n; i++)
			uvm_setting(p, NULL, (unsigned)i);
		if (p->n_passthru)
			add_finding(p, GW_SEV_WARN, "uvm-indices", SRC_UVM,
			            gw_xasprintf(_("enable_uvm is written for "
			                           "pciPassthru0..%d because the VM "
			                           "mixes DirectPath GPUs and vGPUs: "
			                           "only the vGPU indices need it"),
			                         n - 1),
			            gw_xasprintf(_("Check which pciPassthruN are "
			                           "vGPUs after adding them.")));
	}
	if (a->uvm && nvgpu_all > 0) {
		add_finding(p, GW_SEV_WARN, "uvm-vmotion", SRC_UVM,
		            gw_xasprintf(_("enable_uvm disables vMotion of this "
		                           "VM's vGPUs")),
		            gw_xasprintf(_("Set it with the VM powered off, then "
		                           "power-cycle the VM.")));
		if (a100_vgpus >= 2)
			add_finding(p, GW_SEV_WARN, "uvm-a100-p2p", SRC_UVM,
			            gw_xasprintf(_("On A100 VMs with several vGPUs, "
			                           "unified memory turns NVLink P2P "
			                           "off")),
			            NULL);
	} else if (a->uvm) {
		add_finding(p, GW_SEV_INFO, "uvm-no-vgpu", SRC_UVM,
		            gw_xasprintf(_("--uvm applies to vGPUs only, and this "
		                           "VM has none: nothing to set")),
		            NULL);
	} else if (nvgpu_all > 0) {
		add_finding(p, GW_SEV_INFO, "uvm-suggest", SRC_NCCL,
		            gw_xasprintf(_("NCCL 2.27 and later fail on vGPUs "
		                           "without unified memory (Cuda failure "
		                           "'operation not supported' in "
		                           "ncclCommInitRank)")),
		            gw_xasprintf(_("Use --uvm to set "
		                           "pciPassthruN.cfg.enable_uvm = \"1\" "
		                           "on every vGPU (this disables vGPU "
		                           "vMotion).")));
	}

	/* P2P: only when asked and with two GPUs or more. */
	if (a->p2p) {
		uint64_t ngpus_all = 0;

		for (i = 0; i < p->ngpus; i++)
			ngpus_all += (uint64_t)p->gpus[i].count;
		if (ngpus_all >= 2) {
			add_setting(p, v, GW_SET_P2P, "pciPassthru.allowP2P",
			            "TRUE", gw_xstrdup(_("Allow peer-to-peer "
			                                 "transfers between the "
			                                 "VM's GPUs.")), SRC_P2P);
			add_setting(p, v, GW_SET_P2P,
			            "pciPassthru.RelaxACSforP2P", "TRUE",
			            gw_xstrdup(_("Relax ACS so P2P works between "
			                         "GPUs under one root complex.")),
			            SRC_P2P);
		} else {
			add_finding(p, GW_SEV_INFO, "p2p-single", SRC_P2P,
			            gw_xasprintf(_("P2P needs two GPUs or more in "
			                           "the VM: not set")),
			            NULL);
		}
	}

	if (a->code43) {
		add_setting(p, v, GW_SET_CODE43, "hypervisor.cpuid.v0", "FALSE",
		            gw_xstrdup(_("Hide the hypervisor from old GeForce "
		                         "drivers (Code 43).")), SRC_CODE43);
		add_finding(p, GW_SEV_INFO, "code43", SRC_CODE43,
		            gw_xasprintf(_("hypervisor.cpuid.v0 = \"FALSE\" is "
		                           "only for GeForce drivers older than "
		                           "R465; newer drivers allow GeForce "
		                           "passthrough without it")),
		            NULL);
	}

	plan_nested(p, v);
	plan_firmware(p, v);
	plan_hw(p, a, v, ndevices);

	/* A key that must change but exists only as a malformed line. */
	for (i = 0; v && i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];
		int line;

		if (s->keep || gw_vmx_get(v, s->key) != NULL)
			continue;
		line = gw_vmx_malformed_line_of(v, s->key);
		if (line > 0) {
			gw_err_set(e, _("%s:%d: the line for %s is malformed; fix "
			                "or remove it first"), gw_vmx_name(v), line,
			           s->key);
			goto fail;
		}
	}

	p->name = a->name ? gw_xstrdup(a->name) : derive_name(p, a);
	free(nds);
	free(dedup);
	scan_free(&sc);
	return 0;
fail:
	free(nds);
	free(dedup);
	scan_free(&sc);
	gw_plan_free(p);
	return -1;
}

void
gw_plan_free(gw_plan *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->ngpus; i++) {
		free(p->gpus[i].label);
		free(p->gpus[i].profile);
	}
	free(p->gpus);
	for (i = 0; i < p->nsteps; i++)
		free(p->steps[i]);
	free(p->steps);
	for (i = 0; i < p->nsettings; i++) {
		free(p->settings[i].key);
		free(p->settings[i].value);
		free(p->settings[i].old_value);
		free(p->settings[i].reason);
	}
	free(p->settings);
	for (i = 0; i < p->nfindings; i++) {
		free(p->findings[i].message);
		free(p->findings[i].fix);
	}
	free(p->findings);
	free(p->name);
	memset(p, 0, sizeof *p);
}

int
gw_plan_apply_vmx(const gw_plan *p, gw_vmx *vmx, gw_err *e)
{
	size_t i;

	if (p == NULL || vmx == NULL) {
		gw_err_set(e, _("no plan or no .vmx to apply it to"));
		return -1;
	}
	/* Check first, so a refusal leaves the document untouched. */
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];
		int line;

		if (s->keep || gw_vmx_get(vmx, s->key) != NULL)
			continue;
		line = gw_vmx_malformed_line_of(vmx, s->key);
		if (line > 0) {
			gw_err_set(e, _("%s:%d: the line for %s is malformed; fix "
			                "or remove it first"), gw_vmx_name(vmx),
			           line, s->key);
			return -1;
		}
	}
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];

		if (s->keep)
			continue;
		if (gw_vmx_set(vmx, s->key, s->value, e) != 0)
			return -1;
	}
	return 0;
}

int
gw_plan_has_errors(const gw_plan *p)
{
	size_t i;

	for (i = 0; p && i < p->nfindings; i++)
		if (p->findings[i].sev == GW_SEV_ERROR)
			return 1;
	return 0;
}
