/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linux_parse.c: the parsers of what /proc and /sys hold, fed by the
 * readers of linux.c, linux_checks.c, linux_irq.c and linux_guest.c
 * (linux_int.h) and by tests/fuzz/fuzz_linux.c. */
#include "linux_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is flag one of the words on a "flags" line of /proc/cpuinfo? */
int
gw_linux_cpu_has_flag(const char *cpuinfo, const char *flag)
{
	const char *line = cpuinfo;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		if (strncmp(line, "flags", 5) == 0) {
			char *l = gw_xstrndup(line, n), *c = strchr(l, ':');
			int found = 0;

			if (c) {
				char *p;

				for (p = c; *p; p++)
					if (*p == '\t')
						*p = ' ';
				found = gw_linux_has_word(c + 1, flag);
			}
			free(l);
			if (found)
				return 1;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* The value of a small hex value file ("0x10de\n"; trimmed in place);
 * -1 when it is not one. */
long
gw_linux_parse_hex(char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(gw_trim(text), &end, 16);
	if (errno != 0 || *end != '\0' || v < 0)
		v = -1;
	return v;
}

/* What /proc/interrupts (the stream f, left open) shows of interrupt
 * remapping (linux_irq.c: scan_interrupts). */
int
gw_linux_scan_interrupts(FILE *f, char **kinds)
{
	char *line = NULL;
	size_t cap = 0;
	int msi = 0, ioapic = 0, bad;

	*kinds = NULL;
	while (getline(&line, &cap, f) >= 0) {
		if (strstr(line, "IR-PCI-MSI"))
			msi = 1;
		if (strstr(line, "IR-IO-APIC"))
			ioapic = 1;
	}
	bad = ferror(f);
	free(line);
	if (bad)
		return -1;
	if (msi || ioapic)
		*kinds = gw_xasprintf("%s%s%s", msi ? "IR-PCI-MSI" : "",
		                      msi && ioapic ? ", " : "",
		                      ioapic ? "IR-IO-APIC" : "");
	return 0;
}

/* Up to max hex digits from p (before end) into *v: the count, 0 when p
 * holds none or more than max.  Digit by digit (gw_hexval): strtoul's
 * locale and sign handling cost more than the rest of a line. */
static size_t
hex_field(const char *p, const char *end, size_t max, unsigned long *v)
{
	size_t n = 0;
	unsigned long x = 0;
	int d;

	/* the value in a register: *v may alias p for all the compiler knows */
	for (; p < end && n <= max && (d = gw_hexval((unsigned char)*p)) >= 0;
	     p++, n++)
		x = x << 4 | (unsigned long)d;
	*v = x;
	return n > max ? 0 : n;
}

/* Four hex digits at p: their value, or -1. */
static inline long
hex4(const char *p)
{
	int a = gw_hexval((unsigned char)p[0]);
	int b = gw_hexval((unsigned char)p[1]);
	int c = gw_hexval((unsigned char)p[2]);
	int d = gw_hexval((unsigned char)p[3]);

	return (a | b | c | d) < 0 ? -1 : (long)a << 12 | b << 8 | c << 4 | d;
}

/* The bus << 8 | devfn and the vendor of the /proc/bus/pci/devices line
 * [l, end); -1 when it does not start "BBDF\tVVVVDDDD" and a blank or
 * its end.  The kernel's own lines ("%02x%02x\t%04x%04x\t",
 * drivers/pci/proc.c) by their fixed places, the rest field by field. */
static int
pci_devices_line(const char *l, const char *end, unsigned *key,
                 unsigned *vendor)
{
	unsigned long a, b;
	long k, v;
	size_t n;

	if (end - l >= 14 && l[4] == '\t' && l[13] == '\t' &&
	    (k = hex4(l)) >= 0 && (v = hex4(l + 5)) >= 0 && hex4(l + 9) >= 0) {
		*key = (unsigned)k;
		*vendor = (unsigned)v;
		return 0;
	}
	if ((n = hex_field(l, end, 4, &a)) == 0 || l + n == end ||
	    (l[n] != '\t' && l[n] != ' '))
		return -1;
	for (l += n; l < end && (*l == '\t' || *l == ' '); l++)
		;
	if ((n = hex_field(l, end, 8, &b)) == 0 ||
	    (l + n < end && l[n] != '\t' && l[n] != ' '))
		return -1;
	*key = (unsigned)a;
	*vendor = (unsigned)(b >> 16);
	return 0;
}

/* What gw_linux_scan_pci_devices keeps while it reads. */
typedef struct pci_scan {
	/* one bit per bus << 8 | devfn: listed once, listed again */
	unsigned char seen[0x10000 / 8], again[0x10000 / 8];
	unsigned *keys;
	size_t nkeys, lines;
} pci_scan;

static int
pci_scan_line(pci_scan *s, const char *l, const char *end)
{
	unsigned key, vendor;

	if (pci_devices_line(l, end, &key, &vendor) != 0)
		return -1;
	s->lines++;
	if (s->seen[key / 8] & (1u << (key % 8)))
		s->again[key / 8] |= (unsigned char)(1u << (key % 8));
	s->seen[key / 8] |= (unsigned char)(1u << (key % 8));
	if (gw_is_gpu_maker(vendor)) {
		s->keys = gw_xrealloc(s->keys, (s->nkeys + 1) * sizeof *s->keys);
		s->keys[s->nkeys++] = key;
	}
	return 0;
}

/* The lines a block at a time: a line of the kernel's is some 300 bytes,
 * a longer one is not its.  16 KiB, some 60 lines a read: a bigger
 * block costs the first frame more in pages first touched than it saves
 * in reads. */
#define PCI_DEVICES_BLOCK 16384

int
gw_linux_scan_pci_devices(FILE *f, size_t max, unsigned **keys,
                          size_t *nkeys, int *dup)
{
	pci_scan *s = gw_xcalloc(1, sizeof *s);
	char *buf = gw_xmalloc(PCI_DEVICES_BLOCK);
	size_t have = 0, i;
	int bad = 0, full = 0, rc = 0;

	for (;;) {
		size_t r = fread(buf + have, 1, PCI_DEVICES_BLOCK - have, f);
		char *p = buf, *end = buf + have + r, *nl;

		while (!bad && !full &&
		       (nl = memchr(p, '\n', (size_t)(end - p)))) {
			bad = pci_scan_line(s, p, nl) != 0;
			p = nl + 1;
			full = max > 0 && s->lines == max;
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
		if (have == PCI_DEVICES_BLOCK)
			bad = 1;
		if (bad || full || r == 0)
			break;
	}
	if (full)
		/* a line more, or only the end */
		rc = have > 0 || fread(buf, 1, 1, f) > 0;
	else if (!bad && have > 0)
		/* the last line without its newline */
		bad = pci_scan_line(s, buf, buf + have) != 0;
	*keys = s->keys;
	*nkeys = s->nkeys;
	*dup = 0;
	if (bad || ferror(f) || s->lines == 0) {
		free(*keys);
		*keys = NULL;
		*nkeys = 0;
		rc = -1;
	}
	for (i = 0; i < *nkeys; i++)
		if (s->again[(*keys)[i] / 8] & (1u << ((*keys)[i] % 8)))
			*dup = 1;
	free(buf);
	free(s);
	return rc;
}

/* Bit 3 (IR) of an ecap file's value ("%llx", trimmed in place): 1 set,
 * 0 clear, -1 not a hex value. */
int
gw_linux_ecap_ir(char *text)
{
	char *t = gw_trim(text), *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(t, &end, 16);
	if (errno != 0 || end == t || *end != '\0')
		return -1;
	return (int)((v >> 3) & 1);
}

/* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri ..." ->
 * the first dotted version on the NVRM line. */
char *
gw_live_nvrm_version(const char *text)
{
	const char *p = strstr(text, "NVRM version:");
	char tok[64];

	if (p == NULL)
		return NULL;
	p += strlen("NVRM version:");
	while (*p && *p != '\n') {
		size_t n = 0;
		int cmp;

		while (*p != '\n' && isspace((unsigned char)*p))
			p++;
		while (p[n] && !isspace((unsigned char)p[n]))
			n++;
		if (n > 0 && n < sizeof tok) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			if (strchr(tok, '.') &&
			    gw_version_cmp(tok, "0", &cmp) == 0)
				return gw_xstrdup(tok);
		}
		p += n;
	}
	return NULL;
}

/* The BARs in the text of a device's sysfs resource file ("start end
 * flags" per line), up to six, into g. */
void
gw_live_parse_resource(gw_live_gpu *g, const char *res)
{
	const char *line, *nl;

	for (line = res; g->nres < 6 && *line;
	     line = nl ? nl + 1 : line + strlen(line)) {
		gw_live_bar *b = &g->bars[g->nres];

		nl = strchr(line, '\n');
		if (sscanf(line, "%llx %llx %llx", &b->start, &b->end,
		           &b->flags) != 3)
			break;
		g->nres++;
		if (nl == NULL)
			break;
	}
}

/* The six BAR registers of len bytes of the device's config space. */
void
gw_live_parse_config(gw_live_gpu *g, const char *cfg, size_t len)
{
	int k;

	if (len >= 0x28) {
		for (k = 0; k < 6; k++) {
			const unsigned char *c =
				(const unsigned char *)cfg + 0x10 + 4 * k;
			g->cfg_bar[k] = (unsigned)c[0] | (unsigned)c[1] << 8 |
			                (unsigned)c[2] << 16 |
			                (unsigned)c[3] << 24;
		}
		g->cfg_ok = 1;
	}
}
