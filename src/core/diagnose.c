/* diagnose.c: known GPU passthrough / vGPU failures, from log text to
 * cause and fix (domain.md sections 1, 2, 3, 5, 8 and 10).
 *
 * How it works: the input is split into lines; each line is folded (ASCII
 * lower case, every kind of quote to ', tabs and no-break spaces to
 * spaces) and every rule's patterns are searched in it.  A pattern is the
 * message in lower case where
 *     ' '  matches any run of blanks, also none,
 *     '\'' matches one quote or none,
 *     '#'  matches a decimal number and captures it (at most two),
 * and any other byte matches itself.  All patterns start with a literal
 * word, found with memmem, so a line costs about one scan per pattern.
 * The texts are built after the scan, from the numbers captured.
 */
#include "diagnose.h"   /* gw.h first: config.h turns on memmem */
#include "mmio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#define GIB        (UINT64_C(1) << 30)
#define MAXCAP     2
/* Captured numbers above these are treated as absent (the finding keeps
 * its advice without figures): they cannot come from a real host. */
#define MAX_PAGES  (UINT64_C(1) << 40)   /* 4 PiB of 4 KiB pages */
#define MAX_KB     (UINT64_C(1) << 42)   /* 4 PiB */
#define MAX_MB     (UINT64_C(1) << 32)   /* 4 PiB of guest memory */

/* ---- folding ------------------------------------------------------------ */

/* Fold the character at s[i] (n bytes in all): stores the folded byte in
 * *c and returns how many input bytes it used (1..3). */
static size_t
fold_step(const unsigned char *s, size_t n, size_t i, char *c)
{
	unsigned char b = s[i];

	if (b < 0x80) {
		if (b >= 'A' && b <= 'Z')
			*c = (char)(b - 'A' + 'a');
		else if (b == '"' || b == '`')
			*c = '\'';
		else if (b == '\t')
			*c = ' ';
		else
			*c = (char)b;
		return 1;
	}
	if (b == 0xC2 && i + 1 < n) {
		if (s[i + 1] == 0xB4) {          /* ´ acute accent */
			*c = '\'';
			return 2;
		}
		if (s[i + 1] == 0xA0) {          /* no-break space */
			*c = ' ';
			return 2;
		}
	}
	if (b == 0xE2 && i + 2 < n && s[i + 1] == 0x80) {
		unsigned char t = s[i + 2];

		/* ‘ ’ ‚ ‛ “ ” „ ‟ (U+2018..U+201F), ′ ″ ‵ (U+2032, 2033, 2035) */
		if ((t >= 0x98 && t <= 0x9F) || t == 0xB2 || t == 0xB3 || t == 0xB5) {
			*c = '\'';
			return 3;
		}
	}
	if (b == 0xEF && i + 2 < n && s[i + 1] == 0xBC) {
		unsigned char t = s[i + 2];

		/* fullwidth " ' ( ) from a CJK input method */
		if (t == 0x82 || t == 0x87) {
			*c = '\'';
			return 3;
		}
		if (t == 0x88 || t == 0x89) {
			*c = t == 0x88 ? '(' : ')';
			return 3;
		}
	}
	*c = (char)b;
	return 1;
}

/* Fold s[0..n) into b (replacing its contents). */
static void
fold_line(const char *s, size_t n, gw_buf *b)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	b->len = 0;
	while (i < n) {
		char c;

		i += fold_step(u, n, i, &c);
		gw_buf_add(b, &c, 1);
	}
}

/* Offset in the original line of folded byte number off. */
static size_t
orig_offset(const char *s, size_t n, size_t off)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k = 0;

	while (i < n && k < off) {
		char c;

		i += fold_step(u, n, i, &c);
		k++;
	}
	return i;
}

/* ---- patterns ----------------------------------------------------------- */

typedef struct caps {
	uint64_t v[MAXCAP];
	int ok[MAXCAP];   /* 1 when v[] holds the number; 0 when too large */
	int n;
} caps;

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Match pattern p anchored at s[i]; 1 on a match. */
static int
pat_at(const char *s, size_t n, size_t i, const char *p, caps *c)
{
	c->n = 0;
	for (; *p; p++) {
		switch (*p) {
		case ' ':
			while (i < n && s[i] == ' ')
				i++;
			break;
		case '\'':
			if (i < n && s[i] == '\'')
				i++;
			break;
		case '#': {
			size_t st = i;
			uint64_t v = 0;
			int ok = 1;

			while (i < n && is_digit(s[i])) {
				if (v > (UINT64_MAX - 9) / 10)
					ok = 0;
				else
					v = v * 10 + (uint64_t)(s[i] - '0');
				i++;
			}
			if (i == st)
				return 0;
			if (c->n < MAXCAP) {
				c->v[c->n] = ok ? v : 0;
				c->ok[c->n] = ok;
				c->n++;
			}
			break;
		}
		default:
			if (i >= n || s[i] != *p)
				return 0;
			i++;
		}
	}
	return 1;
}

/* Find pattern p in s[0..n): the offset of the match, or -1. */
static long
pat_find(const char *s, size_t n, const char *p, caps *c)
{
	size_t lit = strcspn(p, " '#"), from = 0;

	if (lit == 0)
		return -1;   /* every pattern starts with a literal word */
	while (from < n) {
		const char *hit = memmem(s + from, n - from, p, lit);
		size_t at;

		if (hit == NULL)
			return -1;
		at = (size_t)(hit - s);
		if (pat_at(s, n, at, p, c))
			return (long)at;
		from = at + 1;
	}
	return -1;
}

/* Case-insensitive ASCII search of needle (lower case) in s[0..n). */
static int
ci_contains(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), i, j;

	if (m == 0 || n < m)
		return m == 0;
	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m; j++) {
			char c = s[i + j];

			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[j])
				break;
		}
		if (j == m)
			return 1;
	}
	return 0;
}

/* ---- the rules ---------------------------------------------------------- */

enum {
	R_POWERON_CAUSE = 1,   /* explains a DevicePowerOn failure */
	R_KEEP_MAX = 2,        /* keep the line with the largest first number */
	R_NEEDS_NCCL = 4,      /* the input must mention NCCL somewhere */
	R_GENERIC = 8          /* dropped when an R_POWERON_CAUSE rule matched */
};

/* What the scan found for one rule. */
typedef struct hit {
	int found;
	unsigned long lineno, matches;
	size_t line_off, line_len;   /* the line, in the input */
	size_t match_off;            /* the match, from the line's start */
	caps c;
} hit;

typedef struct rule rule;
typedef void (*build_fn)(gw_diag_finding *f, const hit *h, const char *text,
                         size_t len);
struct rule {
	const char *id;
	const char *source;           /* not translated */
	const char *also;             /* the folded line must contain this */
	const char *pats[4];          /* alternatives, NULL-terminated */
	int flags;
	build_fn build;
};

#define SRC_MMIO_PAGES "Dell KB 000199172; Broadcom KB 323402"
#define SRC_MMIO_FW    "field reports (an L4 failed with a 32 GB window, worked with 64); Broadcom KB 323402"
#define SRC_MEM        "Broadcom KB 309986"
#define SRC_REGISTER   "field reports (device reset: /etc/vmware/passthru.map; virtual IOMMU)"
#define SRC_HOTPLUG    "Broadcom KB (HPE servers, PCIe hot-plug); HPE advisory a00121002en_us"
#define SRC_HEX_BDF    "field reports (decimal pciPassthruN.id)"
#define SRC_SYSTEMID   "field reports"
#define SRC_GRAPHICS   "NVIDIA vGPU documentation (host graphics type Shared Direct)"
#define SRC_NCCL       "NCCL 2.27 on vGPU (seed 001); NVIDIA AI Enterprise documentation"
#define SRC_FREE_ESXI  "field reports (free ESXi license)"
#define SRC_GUEST_BAR  "field reports (NVRM, lspci); Broadcom KB 323402"
#define SRC_POWERON    "Broadcom KB 323402; Dell KB 000199172; Broadcom KB 309986; Broadcom KB 437651"

/* "16.05" from hundredths. */
static void
fmt_x100(uint64_t x100, char *buf, size_t n)
{
	snprintf(buf, n, "%llu.%02llu", (unsigned long long)(x100 / 100),
	         (unsigned long long)(x100 % 100));
}

/* Fill need_bytes, need_gib_x100 and mmio_gb from a need in bytes
 * (1 .. 2^52).  The recommendation is the smallest power of two strictly
 * above the need, so a need of exactly 16 GiB gives 32: the window also
 * holds the small BARs. */
static void
set_need(gw_diag_finding *f, uint64_t bytes)
{
	uint64_t whole = bytes / GIB + (bytes % GIB != 0);
	uint64_t p = gw_pow2_ceil(whole ? whole : 1);

	if (p * GIB == bytes)
		p *= 2;
	f->need_bytes = bytes;
	f->need_gib_x100 = bytes / GIB * 100 +
	                   ((bytes % GIB) * 100 + GIB / 2) / GIB;
	/* rounding must not show the need as big as the recommendation */
	if (f->need_gib_x100 >= p * 100)
		f->need_gib_x100 = p * 100 - 1;
	f->mmio_gb = p;
}

static const char *
mmio_tail(void)
{
	return _("If you know the GPUs, also take the documented rule "
	         "(total VRAM rounded up to a power of two, then one power of "
	         "two higher; gpuwiz mmio --gpu SPEC) and use the larger "
	         "number. BARs larger than 16 GB need EFI firmware "
	         "(firmware = \"efi\"); a guest installed in BIOS mode must be "
	         "reinstalled in EFI mode, not just switched.");
}

static char *
mmio_fix_plain(void)
{
	return gw_xstrdup(_("Power the VM off and set pciPassthru.use64bitMMIO "
	                    "= \"TRUE\" and pciPassthru.64bitMMIOSizeGB to the "
	                    "documented rule for its GPUs (total VRAM rounded "
	                    "up to a power of two, then one power of two "
	                    "higher; gpuwiz mmio --gpu SPEC). BARs larger than "
	                    "16 GB need EFI firmware (firmware = \"efi\"); a "
	                    "guest installed in BIOS mode must be reinstalled "
	                    "in EFI mode, not just switched."));
}

static void
build_mmio_pages(gw_diag_finding *f, const hit *h, const char *text,
                 size_t len)
{
	char need[32], lim[32];
	uint64_t n = h->c.v[0], m = h->c.v[1];

	(void)text;
	(void)len;
	if (h->c.n == 2 && h->c.ok[0] && h->c.ok[1] && n >= 1 &&
	    n <= MAX_PAGES && m <= MAX_PAGES) {
		f->pages_needed = n;
		f->pages_limit = m;
		set_need(f, n * 4096);
		fmt_x100(f->need_gib_x100, need, sizeof need);
		fmt_x100((m * 4096 / GIB) * 100 +
		         ((m * 4096 % GIB) * 100 + GIB / 2) / GIB, lim, sizeof lim);
		f->cause = gw_xasprintf(_("The VM's MMIO window is too small for "
		                          "its passthrough devices: their BARs "
		                          "need %llu pages of 4 KiB = %llu bytes "
		                          "(%s GiB), more than the VM's limit of "
		                          "%llu pages (%s GiB)."),
		                        (unsigned long long)n,
		                        (unsigned long long)f->need_bytes, need,
		                        (unsigned long long)m, lim);
		/* TRANSLATORS: %llu twice: the window size in GB; %s: the
		 * need in GiB ("16.05"); the last %s is another translated
		 * sentence (about the documented rule and EFI firmware). */
		f->fix = gw_xasprintf(_("Power the VM off and set "
		                        "pciPassthru.use64bitMMIO = \"TRUE\" and "
		                        "pciPassthru.64bitMMIOSizeGB = \"%llu\" or "
		                        "more: %llu is the smallest power of two "
		                        "above the %s GiB needed. %s"),
		                      (unsigned long long)f->mmio_gb,
		                      (unsigned long long)f->mmio_gb, need,
		                      mmio_tail());
		return;
	}
	f->cause = gw_xstrdup(_("The VM's MMIO window is too small for the BARs "
	                        "of its passthrough devices."));
	f->fix = mmio_fix_plain();
}

static void
build_mmio_firmware(gw_diag_finding *f, const hit *h, const char *text,
                    size_t len)
{
	char need[32];
	uint64_t kb = h->c.v[0];

	(void)text;
	(void)len;
	if (h->c.n >= 1 && h->c.ok[0] && kb >= 1 && kb <= MAX_KB) {
		f->alloc_kb = kb;
		set_need(f, kb * 1024);
		fmt_x100(f->need_gib_x100, need, sizeof need);
		f->cause = gw_xasprintf(_("The VM's firmware could not place the "
		                          "GPU's BARs: %llu KB (%s GiB) of PCI MMIO "
		                          "did not fit, so the 64-bit MMIO window "
		                          "is off or too small, or the VM boots "
		                          "with BIOS firmware, which cannot map "
		                          "large BARs."),
		                        (unsigned long long)kb, need);
		/* TRANSLATORS: as the message before; the last %s is another
		 * translated sentence. */
		f->fix = gw_xasprintf(_("Power the VM off and set "
		                        "pciPassthru.use64bitMMIO = \"TRUE\" and "
		                        "pciPassthru.64bitMMIOSizeGB = \"%llu\" or "
		                        "more: %llu is the smallest power of two "
		                        "above the %s GiB the firmware could not "
		                        "allocate (the message may count only part "
		                        "of the BARs). %s"),
		                      (unsigned long long)f->mmio_gb,
		                      (unsigned long long)f->mmio_gb, need,
		                      mmio_tail());
		return;
	}
	f->cause = gw_xstrdup(_("The VM's firmware could not place the GPU's "
	                        "BARs: the 64-bit MMIO window is off or too "
	                        "small, or the VM boots with BIOS firmware, "
	                        "which cannot map large BARs."));
	f->fix = mmio_fix_plain();
}

static void
build_memory(gw_diag_finding *f, const hit *h, const char *text, size_t len)
{
	uint64_t mb = h->c.v[0];

	(void)text;
	(void)len;
	if (h->c.n >= 1 && h->c.ok[0] && mb >= 1 && mb <= MAX_MB) {
		f->memsize_mb = mb;
		f->cause = gw_xasprintf(_("The VM has a passthrough device but "
		                          "not all of its memory is reserved: the "
		                          "reservation (sched.mem.min) must equal "
		                          "memsize, here %llu MB."),
		                        (unsigned long long)mb);
		f->fix = gw_xasprintf(_("Power the VM off and reserve all of its "
		                        "memory: sched.mem.min = \"%llu\", "
		                        "sched.mem.minSize = \"%llu\" and "
		                        "sched.mem.pin = \"TRUE\" (vSphere Client: "
		                        "Memory, Reserve all guest memory (All "
		                        "locked))."),
		                      (unsigned long long)mb,
		                      (unsigned long long)mb);
		return;
	}
	f->cause = gw_xstrdup(_("The VM has a passthrough device but not all of "
	                        "its memory is reserved: the reservation "
	                        "(sched.mem.min) must equal memsize."));
	f->fix = gw_xstrdup(_("Power the VM off and set sched.mem.min and "
	                      "sched.mem.minSize to the VM's memsize in MB and "
	                      "sched.mem.pin = \"TRUE\" (vSphere Client: "
	                      "Memory, Reserve all guest memory (All "
	                      "locked))."));
}

static void
build_register(gw_diag_finding *f, const hit *h, const char *text, size_t len)
{
	char dev[40];

	(void)text;
	(void)len;
	if (h->c.n >= 1 && h->c.ok[0] && h->c.v[0] < 1000)
		snprintf(dev, sizeof dev, "pciPassthru%llu",
		         (unsigned long long)h->c.v[0]);
	else
		snprintf(dev, sizeof dev, "pciPassthruN");
	f->cause = gw_xasprintf(_("ESXi could not attach the device %s to the "
	                          "VM (\"unavailable hardware or software "
	                          "support\"): usually the host cannot reset "
	                          "the device, or the VM has a virtual IOMMU "
	                          "enabled."), dev);
	f->fix = gw_xstrdup(_("Power the VM off. If the VM has a virtual IOMMU "
	                      "(vvtd.enable = \"TRUE\"; vSphere Client: CPU, "
	                      "IOMMU), turn it off. Otherwise give the device "
	                      "another reset method in /etc/vmware/passthru.map "
	                      "on the host (a line \"VENDOR DEVICE METHOD "
	                      "false\", METHOD one of d3d0, link, bridge, "
	                      "default; the IDs in hexadecimal without 0x, "
	                      "from esxcli hardware pci list) and reboot the "
	                      "host."));
}

/* The device named in "Device 6:0.0 is not a passthrough device": the word
 * before " is not", if the word before it is "device". */
static char *
not_passthru_device(const char *text, const hit *h)
{
	const char *line = text + h->line_off;
	size_t at = orig_offset(line, h->line_len, h->match_off), end, st;

	end = at;
	while (end > 0 && line[end - 1] == ' ')
		end--;
	st = end;
	while (st > 0 && line[st - 1] != ' ' && line[st - 1] != '\t')
		st--;
	if (st == end || end - st > 32)
		return NULL;
	{
		size_t d = st, k;

		while (d > 0 && (line[d - 1] == ' ' || line[d - 1] == '\t'))
			d--;
		if (d < 6 || !ci_contains(line + d - 6, 6, "device"))
			return NULL;
		for (k = st; k < end; k++) {
			unsigned char c = (unsigned char)line[k];

			if (c < 0x21 || c > 0x7e)
				return NULL;
		}
	}
	return gw_xstrndup(line + st, end - st);
}

static void
build_not_passthru(gw_diag_finding *f, const hit *h, const char *text,
                   size_t len)
{
	char *dev = not_passthru_device(text, h);
	/* TRANSLATORS: %s: the device as the log names it ("6:0.0"); the
	 * result goes into "ESXi does not see %s as a passthrough device". */
	char *what = dev ? gw_xasprintf(_("the device %s"), dev)
	                 : gw_xstrdup(_("the device"));

	(void)len;
	f->cause = gw_xasprintf(_("ESXi does not see %s as a passthrough device "
	                          "when the VM powers on: on HPE servers PCIe "
	                          "native hot-plug makes the GPU look removed "
	                          "and inserted again (vmkernel.log: PCIEHP ... "
	                          "Adapter removed, Adapter inserted)."), what);
	f->fix = gw_xstrdup(_("Turn PCIe native hot-plug off on the host: "
	                      "esxcli system settings kernel set -s "
	                      "enablePCIEHotplug -v FALSE, reboot the host, and "
	                      "check that esxcli system settings kernel list -o "
	                      "enablePCIEHotplug shows FALSE. Then check that "
	                      "the device is still enabled for passthrough "
	                      "(esxcli hardware pci pcipassthru list)."));
	free(what);
	free(dev);
}

/* A host address DDDD:BB:SS.F (hex) at s[i], not inside a longer token.
 * Fills dom/bus/slot/fn; 1 when found. */
static int
bdf_at(const char *s, size_t n, size_t i, unsigned *dom, unsigned *bus,
       unsigned *slot, unsigned *fn)
{
	static const char shape[] = "hhhh:hh:hh.f";
	unsigned v[4] = { 0, 0, 0, 0 };
	size_t k;
	int part = 0;

	if (i + 12 > n)
		return 0;
	if (i > 0 && (gw_hexval(s[i - 1]) >= 0 || s[i - 1] == ':' ||
	              s[i - 1] == '.'))
		return 0;
	if (i + 12 < n && (gw_hexval(s[i + 12]) >= 0 || s[i + 12] == ':' ||
	                   s[i + 12] == '.'))
		return 0;
	for (k = 0; k < 12; k++) {
		char c = s[i + k];

		if (shape[k] == ':' || shape[k] == '.') {
			if (c != shape[k])
				return 0;
			part++;
			continue;
		}
		if (shape[k] == 'f') {
			if (c < '0' || c > '7')
				return 0;
			v[3] = (unsigned)(c - '0');
			continue;
		}
		if (gw_hexval(c) < 0)
			return 0;
		v[part] = v[part] * 16 + (unsigned)gw_hexval(c);
	}
	if (v[2] > 0x1f)
		return 0;
	*dom = v[0];
	*bus = v[1];
	*slot = v[2];
	*fn = v[3];
	return 1;
}

/* The first hex host address in the input, preferring a line that holds a
 * pciPassthruN.id.  Writes "0000:42:00.0" and "00000:066:00.0"; 1 when
 * one was found. */
static int
find_hex_bdf(const char *text, size_t len, char *hex, size_t hn, char *dec,
             size_t dn)
{
	int pass;

	for (pass = 0; pass < 2; pass++) {
		size_t ls = 0;

		while (ls < len) {
			const char *nl = memchr(text + ls, '\n', len - ls);
			size_t le = nl ? (size_t)(nl - text) : len, i;

			if (pass == 1 || (ci_contains(text + ls, le - ls,
			                              "pcipassthru") &&
			                  ci_contains(text + ls, le - ls, ".id"))) {
				for (i = ls; i < le; i++) {
					unsigned d, b, s, f;

					if (bdf_at(text, le, i, &d, &b, &s, &f)) {
						snprintf(hex, hn, "%.12s", text + i);
						snprintf(dec, dn, "%05u:%03u:%02u.%u",
						         d, b, s, f);
						return 1;
					}
				}
			}
			ls = le + 1;
		}
	}
	return 0;
}

static void
build_hex_bdf(gw_diag_finding *f, const hit *h, const char *text, size_t len)
{
	char hex[16], dec[24];

	(void)h;
	if (!find_hex_bdf(text, len, hex, sizeof hex, dec, sizeof dec)) {
		snprintf(hex, sizeof hex, "0000:42:00.0");
		snprintf(dec, sizeof dec, "00000:066:00.0");
	}
	f->cause = gw_xstrdup(_("A pciPassthruN.id in the .vmx holds the host's "
	                        "PCI address in hexadecimal; ESXi reads it as "
	                        "decimal and finds no such device (\"No device "
	                        "hints found\")."));
	/* TRANSLATORS: the first %s is the format "%05d:%03d:%02d.%d", then a
	 * hexadecimal address and its decimal form ("0000:42:00.0",
	 * "00000:066:00.0"). */
	f->fix = gw_xasprintf(_("Power the VM off and write pciPassthruN.id in "
	                        "ESXi's decimal form %s (domain:bus:slot."
	                        "function): %s becomes %s. gpuwiz vmx FILE --bdf "
	                        "BDF --system-id UUID writes the whole device "
	                        "block; or remove the PCI device from the VM and "
	                        "add it again."),
	                      "%05d:%03d:%02d.%d", hex, dec);
}

static void
build_systemid(gw_diag_finding *f, const hit *h, const char *text, size_t len)
{
	(void)h;
	(void)text;
	(void)len;
	f->cause = gw_xstrdup(_("A pciPassthruN.systemId (or deviceId) in the "
	                        ".vmx does not match this host, typically after "
	                        "the VM was moved or cloned to another host or "
	                        "ESXi was reinstalled."));
	f->fix = gw_xstrdup(_("Power the VM off and set pciPassthruN.systemId "
	                      "to the output of esxcli system uuid get on this "
	                      "host, and pciPassthruN.deviceId to the device's "
	                      "ID from esxcli hardware pci list (hexadecimal, "
	                      "e.g. 0x26b9); or remove the PCI device from the "
	                      "VM and add it again, which writes both."));
}

static void
build_graphics(gw_diag_finding *f, const hit *h, const char *text, size_t len)
{
	(void)h;
	(void)text;
	(void)len;
	f->cause = gw_xstrdup(_("The host's graphics type is not \"Shared "
	                        "Direct\", so it has no vGPU resources to give "
	                        "the VM."));
	f->fix = gw_xstrdup(_("Set the host's default graphics type to Shared "
	                      "Direct (vSphere Client: the host, Configure, "
	                      "Hardware, Graphics, Host Graphics, Edit; or esxcli "
	                      "graphics host set --default-type SharedPassthru), "
	                      "then restart Xorg (/etc/init.d/xorg restart) or "
	                      "reboot the host, and power the VM on again."));
}

static void
build_nccl(gw_diag_finding *f, const hit *h, const char *text, size_t len)
{
	(void)h;
	(void)text;
	(void)len;
	f->cause = gw_xstrdup(_("NCCL (2.27 and later) fails in ncclCommInitRank "
	                        "with Cuda failure 'operation not supported' on "
	                        "a vGPU: the vGPU does not expose unified memory "
	                        "unless it is enabled for the VM."));
	f->fix = gw_xstrdup(_("First check that the GPUs are vGPUs (nvidia-smi "
	                      "-q: Virtualization Mode : VGPU, Addressing Mode : "
	                      "None); for passthrough GPUs this fix does not "
	                      "apply. Power the VM off, set "
	                      "pciPassthruN.cfg.enable_uvm = \"1\" for every "
	                      "vGPU N of the VM (pciPassthru0, pciPassthru1, ...; "
	                      "gpuwiz vmx FILE --uvm sets all of them), then "
	                      "power it on again: a guest reboot is not enough. "
	                      "Consequence: vMotion is disabled for this VM's "
	                      "vGPUs, and on A100 multi-vGPU VMs unified memory "
	                      "turns NVLink P2P off. Verify with the 2-GPU "
	                      "torchrun all-reduce check (it prints ok 2.0)."));
}

static void
build_free_esxi(gw_diag_finding *f, const hit *h, const char *text,
                size_t len)
{
	(void)h;
	(void)text;
	(void)len;
	f->cause = gw_xstrdup(_("The host's license (free ESXi) or version "
	                        "refuses changes through the API, although it "
	                        "answers reads."));
	f->fix = gw_xstrdup(_("Use the ESXi shell instead (enable SSH on the "
	                      "host): power the VM off, edit its .vmx under "
	                      "/vmfs/volumes/DATASTORE/VM/ (vim-cmd "
	                      "vmsvc/getallvms shows the VM id and file), run "
	                      "vim-cmd vmsvc/reload VMID so that ESXi reads it "
	                      "again, then power the VM on."));
}

static void
build_guest_bar(gw_diag_finding *f, const hit *h, const char *text,
                size_t len)
{
	(void)h;
	(void)text;
	(void)len;
	f->cause = gw_xstrdup(_("The guest sees the GPU but its BARs got no "
	                        "address (size 0 or <unassigned>): the VM's "
	                        "64-bit MMIO window is off or too small, or, on "
	                        "a physical machine, above-4G decoding is off "
	                        "in the BIOS."));
	f->fix = gw_xstrdup(_("In a VM: power it off and set "
	                      "pciPassthru.use64bitMMIO = \"TRUE\" and "
	                      "pciPassthru.64bitMMIOSizeGB to the documented "
	                      "rule for its GPUs (gpuwiz mmio --gpu SPEC), with "
	                      "EFI firmware. On a physical machine (bare metal, "
	                      "or the ESXi host itself): enable Above 4G "
	                      "decoding (MMIO above 4 GB) in the BIOS."));
}

static void
build_poweron(gw_diag_finding *f, const hit *h, const char *text, size_t len)
{
	(void)h;
	(void)text;
	(void)len;
	f->cause = gw_xstrdup(_("The VM did not power on because a passthrough "
	                        "device could not be set up; this message alone "
	                        "does not say why."));
	f->fix = gw_xstrdup(_("Look in the VM's vmware.log for the lines just "
	                      "before it and run gpuwiz diagnose on the log. "
	                      "Usual causes, most common first: the 64-bit MMIO "
	                      "window is too small (pciPassthru.use64bitMMIO = "
	                      "\"TRUE\", pciPassthru.64bitMMIOSizeGB as gpuwiz "
	                      "mmio --gpu SPEC computes it); memory not fully "
	                      "reserved (sched.mem.min = sched.mem.minSize = "
	                      "memsize, sched.mem.pin = \"TRUE\"); the device is "
	                      "not enabled for passthrough or cannot be reset "
	                      "(esxcli hardware pci pcipassthru list, "
	                      "/etc/vmware/passthru.map); a stale "
	                      "pciPassthruN.systemId or a hexadecimal "
	                      "pciPassthruN.id after the VM was moved; nested "
	                      "virtualization (vhv.enable = \"TRUE\") on the "
	                      "VM."));
}

/* In priority order: the order of the findings. */
static const rule rules[] = {
	{ GW_DIAG_MMIO_PAGES, SRC_MMIO_PAGES, NULL,
	  { "total number of pages needed (#) exceeds limit (#)", NULL },
	  R_POWERON_CAUSE | R_KEEP_MAX, build_mmio_pages },
	{ GW_DIAG_MMIO_FIRMWARE, SRC_MMIO_FW, NULL,
	  { "firmware could not allocate # kb of pci mmio", NULL },
	  R_POWERON_CAUSE | R_KEEP_MAX, build_mmio_firmware },
	{ GW_DIAG_MEM_RESERVATION, SRC_MEM, "sched.mem.min",
	  { "memsize (#)", NULL },
	  R_POWERON_CAUSE, build_memory },
	{ GW_DIAG_REGISTER_FAILED, SRC_REGISTER, NULL,
	  { "failed to register the device 'pcipassthru#",
	    "failed to register the device", NULL },
	  R_POWERON_CAUSE, build_register },
	{ GW_DIAG_NOT_PASSTHROUGH, SRC_HOTPLUG, NULL,
	  { "is not a passthrough device", NULL },
	  R_POWERON_CAUSE, build_not_passthru },
	{ GW_DIAG_HEX_BDF, SRC_HEX_BDF, NULL,
	  { "no device hints found", NULL },
	  R_POWERON_CAUSE, build_hex_bdf },
	{ GW_DIAG_SYSTEMID, SRC_SYSTEMID, NULL,
	  { "systemid' does not match the current system", NULL },
	  R_POWERON_CAUSE, build_systemid },
	{ GW_DIAG_VGPU_GRAPHICS, SRC_GRAPHICS, NULL,
	  { "graphics resource available in the parent resource pool is "
	    "insufficient", NULL },
	  R_POWERON_CAUSE, build_graphics },
	{ GW_DIAG_NCCL_UVM, SRC_NCCL, NULL,
	  { "cuda failure 'operation not supported",
	    "cuda failure # 'operation not supported", NULL },
	  R_NEEDS_NCCL, build_nccl },
	{ GW_DIAG_FREE_ESXI, SRC_FREE_ESXI, NULL,
	  { "current license or esxi version prohibits execution", NULL },
	  0, build_free_esxi },
	{ GW_DIAG_GUEST_BAR, SRC_GUEST_BAR, NULL,
	  { "nvrm: bar# is 0m @ 0x0", "memory at <unassigned>", NULL },
	  0, build_guest_bar },
	{ GW_DIAG_POWERON, SRC_POWERON, NULL,
	  { "module 'devicepoweron' power on failed", NULL },
	  R_GENERIC, build_poweron },
};
#define NRULES (sizeof rules / sizeof rules[0])

/* ---- quoting the line --------------------------------------------------- */

/* Length of a valid UTF-8 sequence at s[0..n) that is not a control
 * character, or 0. */
static size_t
utf8_ok(const unsigned char *s, size_t n)
{
	unsigned char b = s[0];
	size_t k, need;
	uint32_t cp;

	if (b >= 0x20 && b < 0x7f)
		return 1;
	if (b < 0x80)
		return 0;
	if (b >= 0xC2 && b <= 0xDF) {
		need = 2;
		cp = b & 0x1F;
	} else if (b >= 0xE0 && b <= 0xEF) {
		need = 3;
		cp = b & 0x0F;
	} else if (b >= 0xF0 && b <= 0xF4) {
		need = 4;
		cp = b & 0x07;
	} else {
		return 0;
	}
	if (n < need)
		return 0;
	for (k = 1; k < need; k++) {
		if ((s[k] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[k] & 0x3F);
	}
	if ((need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
	    (cp >= 0x80 && cp <= 0x9F))
		return 0;
	return need;
}

/* The line s[0..n), match at byte at: trimmed, printable UTF-8, at most
 * GW_DIAG_LINE_MAX bytes (a window around the match marked with "..."). */
static char *
quote_line(const char *s, size_t n, size_t at)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t st = 0, end = n, i;
	gw_buf b;
	int cut_front = 0, cut_back = 0;

	while (st < end && (s[st] == ' ' || s[st] == '\t'))
		st++;
	while (end > st && (s[end - 1] == ' ' || s[end - 1] == '\t'))
		end--;
	if (at < st)
		at = st;
	if (end - st > GW_DIAG_LINE_MAX - 6) {
		size_t room = GW_DIAG_LINE_MAX - 6, from;

		from = at > st + room / 4 ? at - room / 4 : st;
		if (from + room > end)
			from = end - room;
		/* do not start or end inside a UTF-8 sequence */
		while (from > st && (u[from] & 0xC0) == 0x80)
			from--;
		cut_front = from > st;
		st = from;
		if (end - st > room) {
			end = st + room;
			while (end > st && (u[end] & 0xC0) == 0x80)
				end--;
			cut_back = 1;
		}
	}
	gw_buf_init(&b);
	if (cut_front)
		gw_buf_puts(&b, "...");
	for (i = st; i < end;) {
		size_t k = utf8_ok(u + i, end - i);

		if (k == 0) {
			gw_buf_add(&b, s[i] == '\t' ? " " : "?", 1);
			i++;
		} else {
			gw_buf_add(&b, s + i, k);
			i += k;
		}
	}
	if (cut_back)
		gw_buf_puts(&b, "...");
	return gw_buf_steal(&b);
}

/* ---- the scan ----------------------------------------------------------- */

int
gw_diagnose_text(const char *text, size_t len, gw_diag_result *out)
{
	hit hits[NRULES];
	gw_buf fold;
	size_t pos = 0, r;
	unsigned long lineno = 0;
	int has_nccl, specific = 0;

	if (out == NULL || (text == NULL && len > 0))
		return -1;
	out->findings = NULL;
	out->n = 0;
	if (len == 0)
		return 0;
	memset(hits, 0, sizeof hits);
	has_nccl = ci_contains(text, len, "nccl");
	gw_buf_init(&fold);
	while (pos < len) {
		size_t end = pos;

		while (end < len && text[end] != '\n' && text[end] != '\r')
			end++;
		lineno++;
		fold_line(text + pos, end - pos, &fold);
		for (r = 0; r < NRULES; r++) {
			const rule *ru = &rules[r];
			hit *h = &hits[r];
			size_t p;

			if ((ru->flags & R_NEEDS_NCCL) && !has_nccl)
				continue;
			if (ru->also && !memmem(fold.data, fold.len, ru->also,
			                        strlen(ru->also)))
				continue;
			for (p = 0; ru->pats[p]; p++) {
				caps c;
				long at = pat_find(fold.data, fold.len,
				                   ru->pats[p], &c);

				if (at < 0)
					continue;
				if (!h->found || ((ru->flags & R_KEEP_MAX) &&
				                  c.n > 0 && c.ok[0] &&
				                  (h->c.n == 0 || !h->c.ok[0] ||
				                   c.v[0] > h->c.v[0]))) {
					unsigned long m = h->matches;

					h->found = 1;
					h->lineno = lineno;
					h->matches = m;
					h->line_off = pos;
					h->line_len = end - pos;
					h->match_off = (size_t)at;
					h->c = c;
				}
				h->matches++;
				break;
			}
		}
		/* one line break: \n, \r\n or \r */
		if (end < len && text[end] == '\r' && end + 1 < len &&
		    text[end + 1] == '\n')
			end++;
		pos = end + 1;
	}
	gw_buf_free(&fold);

	for (r = 0; r < NRULES; r++)
		if (hits[r].found && (rules[r].flags & R_POWERON_CAUSE))
			specific = 1;
	out->findings = gw_xcalloc(NRULES, sizeof *out->findings);
	for (r = 0; r < NRULES; r++) {
		const hit *h = &hits[r];
		gw_diag_finding *f;
		const char *line;

		if (!h->found || ((rules[r].flags & R_GENERIC) && specific))
			continue;
		f = &out->findings[out->n++];
		line = text + h->line_off;
		f->id = rules[r].id;
		f->source = rules[r].source;
		f->lineno = h->lineno;
		f->matches = h->matches;
		f->line = quote_line(line, h->line_len,
		                     orig_offset(line, h->line_len,
		                                 h->match_off));
		rules[r].build(f, h, text, len);
	}
	if (out->n == 0) {
		free(out->findings);
		out->findings = NULL;
	}
	return (int)out->n;
}

void
gw_diag_result_free(gw_diag_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->findings[i].cause);
		free(r->findings[i].fix);
		free(r->findings[i].line);
	}
	free(r->findings);
	r->findings = NULL;
	r->n = 0;
}

/* ---- rendering ---------------------------------------------------------- */

static const char *
no_match_line(void)
{
	return _("Send to support: the VM's whole vmware.log (in the VM's "
	         "folder on the datastore), its .vmx file, the exact error text "
	         "of the failed task, and from the host the output of esxcli "
	         "hardware pci list and esxcli system version get; for a "
	         "problem inside the guest, nvidia-smi -q and the application's "
	         "log.");
}

static void
render_json(const gw_diag_result *r, const char *name, gw_buf *out)
{
	json_t *o = json_object(), *arr = json_array();
	size_t i;
	char *s;

	for (i = 0; i < r->n; i++) {
		const gw_diag_finding *f = &r->findings[i];
		json_t *j = json_object();

		json_object_set_new(j, "id", json_string(f->id));
		json_object_set_new(j, "cause", json_string(f->cause));
		json_object_set_new(j, "fix", json_string(f->fix));
		json_object_set_new(j, "source", json_string(f->source));
		json_object_set_new(j, "line", json_string(f->line));
		json_object_set_new(j, "line_number",
		                    json_integer((json_int_t)f->lineno));
		json_object_set_new(j, "matches",
		                    json_integer((json_int_t)f->matches));
		if (f->mmio_gb)
			json_object_set_new(j, "mmio_size_gb",
			                    json_integer((json_int_t)f->mmio_gb));
		if (f->memsize_mb)
			json_object_set_new(j, "memsize_mb",
			                    json_integer((json_int_t)f->memsize_mb));
		json_array_append_new(arr, j);
	}
	json_object_set_new(o, "findings", arr);
	if (r->n == 0) {
		char *m = gw_xasprintf(_("No known failure recognised in %s."),
		                       name);
		char *msg = gw_xasprintf("%s %s", m, no_match_line());

		json_object_set_new(o, "message", json_string(msg));
		free(msg);
		free(m);
	}
	s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (s) {
		gw_buf_puts(out, s);
		gw_buf_puts(out, "\n");
		free(s);
	}
	json_decref(o);
}

void
gw_diag_render(const gw_diag_result *r, const char *input_name, int json,
               gw_buf *out)
{
	const char *name = input_name ? input_name : "-";
	size_t i;

	if (out->data == NULL)
		gw_buf_init(out);
	if (json) {
		render_json(r, name, out);
		return;
	}
	if (r->n == 0) {
		gw_buf_printf(out, _("No known failure recognised in %s."), name);
		gw_buf_puts(out, "\n");
		gw_buf_puts(out, no_match_line());
		gw_buf_puts(out, "\n");
		return;
	}
	/* TRANSLATORS: %s: the file name (or "standard input"); %lu: how
	 * many known failures were found (1 or more). */
	gw_buf_printf(out, _("Known failures recognised in %s: %lu"), name,
	              (unsigned long)r->n);
	gw_buf_puts(out, "\n");
	for (i = 0; i < r->n; i++) {
		const gw_diag_finding *f = &r->findings[i];

		gw_buf_puts(out, "\n");
		if (f->matches > 1)
			/* TRANSLATORS: [finding number] rule id (untranslated),
			 * line number, number of lines that matched. */
			gw_buf_printf(out, _("[%lu] %s (line %lu; %lu matching "
			                     "lines)"), (unsigned long)i + 1, f->id,
			              f->lineno, f->matches);
		else
			gw_buf_printf(out, _("[%lu] %s (line %lu)"),
			              (unsigned long)i + 1, f->id, f->lineno);
		gw_buf_printf(out, "\n    \"%s\"\n    ", f->line);
		gw_buf_printf(out, _("Cause: %s"), f->cause);
		gw_buf_puts(out, "\n    ");
		gw_buf_printf(out, _("Fix: %s"), f->fix);
		gw_buf_puts(out, "\n    ");
		gw_buf_printf(out, _("Source: %s"), f->source);
		gw_buf_puts(out, "\n");
	}
}

/* ---- the command -------------------------------------------------------- */

static int
read_stdin(const char *name, char **out, size_t *len, gw_err *e)
{
	gw_buf b;
	char chunk[65536];

	gw_buf_init(&b);
	for (;;) {
		ssize_t r = read(STDIN_FILENO, chunk, sizeof chunk);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			gw_err_set(e, _("%s: cannot read: %s"), name,
			           strerror(errno));
			gw_buf_free(&b);
			return -1;
		}
		if (r == 0)
			break;
		if (b.len + (size_t)r > GW_DIAG_MAX_INPUT) {
			gw_err_set(e, _("%s: file is too large (more than %zu bytes)"),
			           name, (size_t)GW_DIAG_MAX_INPUT);
			gw_buf_free(&b);
			return -1;
		}
		gw_buf_add(&b, chunk, (size_t)r);
	}
	*len = b.len;
	*out = gw_buf_steal(&b);
	return 0;
}

int
gw_diagnose_command(const char *path, int json, gw_err *e)
{
	int from_stdin = path != NULL && strcmp(path, "-") == 0;
	const char *name;
	char *data = NULL;
	size_t len = 0, i;
	gw_diag_result res;
	gw_buf out;
	int blank = 1, rc;

	if (path == NULL || *path == '\0') {
		gw_err_set(e, _("expected a file name or - (standard input)"));
		return 2;
	}
	name = from_stdin ? _("standard input") : path;
	if (from_stdin ? read_stdin(name, &data, &len, e) != 0
	               : gw_read_file(path, GW_DIAG_MAX_INPUT, &data, &len,
	                              e) != 0)
		return 2;
	if (memchr(data, '\0', len) != NULL) {
		gw_err_set(e, _("%s: is a binary file (it holds NUL bytes); "
		                "expected text: a vmware.log excerpt or an error "
		                "message, saved as UTF-8"), name);
		free(data);
		return 2;
	}
	for (i = 0; i < len && blank; i++)
		if (data[i] != ' ' && data[i] != '\t' && data[i] != '\n' &&
		    data[i] != '\r' && data[i] != '\f' && data[i] != '\v')
			blank = 0;
	if (blank) {
		gw_err_set(e, _("%s: is empty; expected a vmware.log excerpt or an "
		                "error message"), name);
		free(data);
		return 2;
	}
	if (gw_diagnose_text(data, len, &res) < 0) {
		free(data);
		gw_err_set(e, _("%s: cannot read: %s"), name, strerror(EINVAL));
		return 2;
	}
	free(data);
	gw_buf_init(&out);
	gw_diag_render(&res, name, json, &out);
	rc = res.n > 0 ? 0 : 1;
	gw_diag_result_free(&res);
	fflush(stdout);
	if (gw_write_all(STDOUT_FILENO, out.data, out.len) != 0) {
		gw_err_set(e, _("standard output: cannot write: %s"),
		           strerror(errno));
		rc = 2;
	}
	gw_buf_free(&out);
	return rc;
}
