/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vmx_check.c: is this document a .vmx at all (vmx.h, gw_vmx_load_checked)?
 * And, before a parse, are the bytes text at all (vmx_looks_binary)?
 *
 * gw_vmx_parse() never fails for odd lines, so a vmware.log, an
 * nvidia-smi capture or an answers file given by mistake would parse as
 * a .vmx whose lines are all malformed, and a write would append GPU keys
 * to it.  The rule, one place for the CLI (gpuwiz vmx) and the wizard's
 * VM step:
 *   - at least one well-formed `key = value` entry;
 *   - malformed lines (neither key = value, blank nor '#' comment) allowed:
 *     as many as there are entries when the file has config.version or
 *     virtualHW.version (VMware writes both into every .vmx, so a typo or
 *     two in a real file stays editable), else 2 (a hand-written fragment
 *     such as a pciPassthru0 block copied from a document).
 */
#include "vmx_int.h"

#include <stdio.h>
#include <string.h>

/* How many bytes a word's mask marks: one or two at most, as a rule. */
static size_t
marks(uint64_t m)
{
	size_t n = 0;

	for (; m != 0; m &= m - 1)
		n++;
	return n;
}

/* Is this binary data rather than a text file?  *nul_at gets the offset of
 * the first NUL byte (NONE if there is none).  Besides a NUL, more control
 * bytes than lines (and more than 8) in the whole file: binary data has
 * about 25 per newline, a text file a stray one.  Counted per line, not
 * per byte, so that no edit gpuwiz makes (a value set in place keeps the
 * lines, a new key adds one, neither adds a control byte) turns the text
 * it writes into "binary data" on the next read. */
int
vmx_looks_binary(const char *d, size_t len, size_t *nul_at, size_t *nlines)
{
	const char *z = memchr(d, '\0', len);
	size_t i, ctl = 0, lines = 1;

	*nul_at = z ? (size_t)(z - d) : NONE;
	if (z)
		return 1;
	/* eight bytes at a time: most hold no byte below 0x20; in those
	 * that do, the newlines and the other control bytes are counted */
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w, low, nl;

		memcpy(&w, d + i, 8);
		if ((low = gw_word_below(w, 0x20)) == 0)
			continue;
		nl = gw_word_eq(w, '\n');
		lines += marks(nl);
		ctl += marks(low & ~nl & ~gw_word_eq(w, '\t') &
		             ~gw_word_eq(w, '\r') & ~gw_word_eq(w, '\f') &
		             ~gw_word_eq(w, '\v'));
	}
	for (; i < len; i++) {
		unsigned char c = (unsigned char)d[i];

		if (c == '\n')
			lines++;
		else if (c < 0x20 && c != '\t' && c != '\r' && c != '\f' &&
		         c != '\v')
			ctl++;
	}
	*nlines = lines;
	return ctl > 8 && ctl > lines;
}

/* A hand-written fragment (no version key) may have this many. */
#define FRAGMENT_MALFORMED 2

static int
first_malformed(const gw_vmx *v)
{
	size_t i;

	for (i = 0; i < v->nlines; i++)
		if (v->lines[i].kind == L_MALFORMED)
			return (int)(i + 1);
	return 0;
}

/* gw_vmx_load_checked's test (vmx.h). */
static int
vmx_check(const gw_vmx *v, gw_err *e)
{
	int versioned;

	if (v == NULL)
		return -1;
	if (v->nentries == 0) {
		/* TRANSLATORS: %s is a file path; "key = value" and
		 * config.version = "8" stay as they are. */
		gw_err_set(e, _("%s: not a .vmx file: no line has the form key = value (a .vmx has lines like config.version = \"8\")"),
		           vmx_vname(v));
		return -1;
	}
	versioned = vmx_lookup(v, "config.version") != NULL ||
	            vmx_lookup(v, "virtualHW.version") != NULL;
	if (v->nmalformed <= (versioned ? v->nentries : FRAGMENT_MALFORMED))
		return 0;
	if (versioned)
		/* TRANSLATORS: %1$s a file path, %2$zu and %3$zu counts of
		 * lines, %4$d a line number. */
		gw_err_set(e, P_("%s: not a .vmx file: %zu of its %zu lines is not key = value (the first is line %d)",
		                 "%s: not a .vmx file: %zu of its %zu lines are not key = value (the first is line %d)",
		                 v->nmalformed),
		           vmx_vname(v), v->nmalformed, v->nlines,
		           first_malformed(v));
	else
		/* TRANSLATORS: %1$s a file path, %2$zu a count of lines, %3$d a
		 * line number; config.version and virtualHW.version stay. */
		gw_err_set(e, P_("%s: not a .vmx file: no config.version or virtualHW.version, and %zu line is not key = value (the first is line %d)",
		                 "%s: not a .vmx file: no config.version or virtualHW.version, and %zu lines are not key = value (the first is line %d)",
		                 v->nmalformed),
		           vmx_vname(v), v->nmalformed, first_malformed(v));
	return -1;
}

int
gw_vmx_load_checked(gw_vmx **out, const char *path, gw_err *e)
{
	return gw_vmx_load_checked_fd(out, path, -1, e);
}

int
gw_vmx_load_checked_fd(gw_vmx **out, const char *path, int fd, gw_err *e)
{
	if ((fd < 0 ? gw_vmx_load(out, path, e)
	            : gw_vmx_load_fd(out, path, fd, e)) != 0)
		return -1;
	if (vmx_check(*out, e) != 0) {
		gw_vmx_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}
