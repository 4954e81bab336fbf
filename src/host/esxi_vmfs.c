/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_vmfs.c: `esxcli storage vmfs extent list` (see esxi.h for the
 * format). */
#include "esxi_int.h"

#include <stdlib.h>
#include <string.h>

void
gw_esxi_vmfs_extent_list_free(gw_esxi_vmfs_extent_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->extents[i].volume_name);
		free(l->extents[i].vmfs_uuid);
		free(l->extents[i].device_name);
	}
	free(l->extents);
	l->extents = NULL;
	l->n = 0;
}

/* A small decimal number ("0", "3"), or -1. */
static int
small_dec(const char *s)
{
	unsigned long long v;

	if (gw_parse_uint(s, 1000000, &v) != 0)
		return -1;
	return (int)v;
}

enum { XC_VOLUME, XC_UUID, XC_EXTENT, XC_DEVICE, XC_PARTITION, XC_N };

static const char *const extent_names[XC_N] = {
	"Volume Name", "VMFS UUID", "Extent Number", "Device Name",
	"Partition"
};

/* The table's columns. */
typedef struct extent_cols {
	esxi_column cols[16];
	size_t ncols;
	size_t at[XC_N];         /* column of each field, ESXI_NO_COL */
	int squeezable;          /* exactly the five columns, in order */
} extent_cols;

/* Cells c[] of a row hold a device name without blanks, and numbers (and
 * a UUID without blanks) in the columns the table has? */
static int
cells_valid(char c[XC_N][512], const size_t *at)
{
	if (c[XC_DEVICE][0] == '\0' || strpbrk(c[XC_DEVICE], " \t"))
		return 0;
	if (at[XC_UUID] != ESXI_NO_COL && strpbrk(c[XC_UUID], " \t"))
		return 0;
	if (at[XC_EXTENT] != ESXI_NO_COL && small_dec(c[XC_EXTENT]) < 0)
		return 0;
	return at[XC_PARTITION] == ESXI_NO_COL ||
	       small_dec(c[XC_PARTITION]) >= 0;
}

/* Fill x from the row's cells under the columns; -1 when they do not
 * make a row. */
static int
extent_cells(const char *s, const extent_cols *xc, gw_esxi_vmfs_extent *x)
{
	const size_t *at = xc->at;
	char c[XC_N][512];
	int k;

	for (k = 0; k < XC_N; k++) {
		c[k][0] = '\0';
		if (at[k] != ESXI_NO_COL)
			esxi_cell(s, &xc->cols[at[k]], c[k], sizeof c[k]);
	}
	if (!cells_valid(c, at))
		return -1;
	memset(x, 0, sizeof *x);
	x->volume_name = gw_xstrdup(c[XC_VOLUME]);
	x->vmfs_uuid = at[XC_UUID] != ESXI_NO_COL ? gw_xstrdup(c[XC_UUID])
	                                          : NULL;
	x->extent_number = at[XC_EXTENT] != ESXI_NO_COL
	                 ? small_dec(c[XC_EXTENT]) : -1;
	x->device_name = gw_xstrdup(c[XC_DEVICE]);
	x->partition = at[XC_PARTITION] != ESXI_NO_COL
	             ? small_dec(c[XC_PARTITION]) : -1;
	return 0;
}

/* A row whose blanks were squeezed: the last four words are UUID, extent,
 * device and partition; the volume name is what comes before. */
static int
extent_words(const char *s, gw_esxi_vmfs_extent *x)
{
	const char *w[4], *end[4], *p = s + strlen(s);
	char buf[4][512];
	int k;

	for (k = 3; k >= 0; k--) {
		while (p > s && esxi_is_blank(p[-1]))
			p--;
		end[k] = p;
		while (p > s && !esxi_is_blank(p[-1]))
			p--;
		w[k] = p;
		if (w[k] == end[k] || (size_t)(end[k] - w[k]) >= sizeof buf[k])
			return -1;
		memcpy(buf[k], w[k], (size_t)(end[k] - w[k]));
		buf[k][end[k] - w[k]] = '\0';
	}
	/* buf: uuid, extent, device, partition */
	if (small_dec(buf[1]) < 0 || small_dec(buf[3]) < 0)
		return -1;
	memset(x, 0, sizeof *x);
	x->volume_name = esxi_trimmed_span(s, w[0]);
	x->vmfs_uuid = gw_xstrdup(buf[0]);
	x->extent_number = small_dec(buf[1]);
	x->device_name = gw_xstrdup(buf[2]);
	x->partition = small_dec(buf[3]);
	return 0;
}

/* The parser's state. */
typedef struct extent_parse {
	extent_cols xc;
	gw_esxi_vmfs_extent_list *out;
	size_t cap;              /* of out->extents */
	const char *name;
	gw_err *e;
} extent_parse;

/* The header at line index i and the dashes under it. */
static int
extent_header(void *ctx, const esxi_lines *tl, size_t i)
{
	extent_parse *ps = ctx;
	extent_cols *xc = &ps->xc;
	const char *h = tl->v[i];
	char ex[64];
	size_t k;
	int rc = 1;

	if (strstr(h, "Volume Name") && strstr(h, "Device Name"))
		rc = esxi_table_dashes(tl, i, 1, xc->cols,
		                       sizeof xc->cols / sizeof xc->cols[0],
		                       &xc->ncols, ps->name, ps->e);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		esxi_find_columns(h, xc->cols, xc->ncols, extent_names, XC_N,
		                  xc->at);
		if (xc->at[XC_VOLUME] != ESXI_NO_COL &&
		    xc->at[XC_DEVICE] != ESXI_NO_COL) {
			xc->squeezable = xc->ncols == XC_N;
			for (k = 0; k < XC_N; k++)
				if (xc->at[k] != k)
					xc->squeezable = 0;
			return 0;
		}
	}
	esxi_err_line(ps->e, ps->name, (unsigned)i + 1,
	              _("expected the column names 'Volume Name' and 'Device "
	                "Name' of %s, found '%s'"), CMD_EXTENTS,
	              esxi_excerpt(h, ex, sizeof ex));
	return -1;
}

/* The row s at line ln, appended to the list. */
static int
extent_add(void *ctx, const char *s, unsigned ln)
{
	extent_parse *ps = ctx;
	gw_esxi_vmfs_extent_list *out = ps->out;
	gw_esxi_vmfs_extent x;
	char ex[64];

	if (extent_cells(s, &ps->xc, &x) != 0 &&
	    (!ps->xc.squeezable || extent_words(s, &x) != 0)) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected a volume name, a device name and "
		                "numbers under the columns of %s, found '%s'"),
		              CMD_EXTENTS, esxi_excerpt(s, ex, sizeof ex));
		return -1;
	}
	x.line = ln;
	out->extents = esxi_grow(out->extents, out->n, &ps->cap,
	                         sizeof *out->extents, 16);
	out->extents[out->n++] = x;
	return 0;
}

int
gw_esxi_parse_vmfs_extents(const char *text, const char *name,
                           gw_esxi_vmfs_extent_list *out, gw_err *e)
{
	static const esxi_table table = {
		CMD_EXTENTS, extent_header, extent_add
	};
	extent_parse ps = { .out = out, .name = name, .e = e };

	memset(out, 0, sizeof *out);
	if (esxi_parse_table(text, name, &table, &ps, e) == 0)
		return 0;
	gw_esxi_vmfs_extent_list_free(out);
	return -1;
}
