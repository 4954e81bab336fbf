/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gputable_index.c: the GPU table's rows indexed by id, by vGPU board
 * (hashes) and by vendor:device (a sorted array, binary search), made in
 * one pass when the table is loaded; the duplicate checks of the load
 * (one PCI id and subsystem, one vGPU board per row) are that pass.  The
 * hash is the scan's too (sections and keys by name, gputable_scan.c). */
#include "gputable_int.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- hash ------------------------------------------------------------- */

void
gt_hash_init(gt_hash *h, size_t n)
{
	size_t cap = 16;

	/* at most half full */
	while (cap < 2 * n + 2)
		cap *= 2;
	h->slot = gw_xcalloc(cap, sizeof *h->slot);
	h->mask = cap - 1;
}

void
gt_hash_free(gt_hash *h)
{
	free(h->slot);
	memset(h, 0, sizeof *h);
}

size_t *
gt_hash_slot(const gt_hash *h, size_t hv, gt_hash_eq eq, const void *ctx,
             const void *key)
{
	size_t i = hv & h->mask;

	while (h->slot[i] != 0 && !eq(ctx, h->slot[i] - 1, key))
		i = (i + 1) & h->mask;
	return &h->slot[i];
}

size_t
gt_hash_lower(const char *s, size_t n)
{
	uint32_t hv = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		hv ^= (uint32_t)tolower((unsigned char)s[i]);
		hv *= 16777619u;
	}
	return hv;
}

/* ---- the table's index ------------------------------------------------ */

struct gw_table_index {
	gt_hash ids;              /* rows by id */
	gt_hash boards;           /* rows with a vgpu_prefix, by board */
	const gw_gpu **pci;       /* rows by vendor:device, then row order */
	size_t npci;
};

/* A name to look up: n bytes, any case. */
typedef struct name_key {
	const char *s;
	size_t n;
} name_key;

static int
id_eq(const void *ctx, size_t i, const void *key)
{
	const gw_table *t = ctx;
	const name_key *k = key;

	return strlen(t->gpus[i].id) == k->n &&
	       strncasecmp(t->gpus[i].id, k->s, k->n) == 0;
}

static int
board_eq(const void *ctx, size_t i, const void *key)
{
	const gw_table *t = ctx;
	const name_key *k = key;
	const char *b = gt_vgpu_board(t->gpus[i].vgpu_prefix);

	return strlen(b) == k->n && strncasecmp(b, k->s, k->n) == 0;
}

static int
pci_eq(const void *ctx, size_t i, const void *key)
{
	const gw_gpu *a = &((const gw_table *)ctx)->gpus[i], *b = key;

	return a->vendor_id == b->vendor_id && a->device_id == b->device_id &&
	       a->subsys_vendor == b->subsys_vendor &&
	       a->subsys_device == b->subsys_device;
}

static size_t
pci_hash(const gw_gpu *g)
{
	uint64_t v = ((uint64_t)g->vendor_id << 48) ^
	             ((uint64_t)g->device_id << 32) ^
	             ((uint64_t)g->subsys_vendor << 16) ^ g->subsys_device;

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

static unsigned long
pci_vd(const gw_gpu *g)
{
	return (unsigned long)g->vendor_id << 16 | g->device_id;
}

/* vendor:device, then the table's order (the rows are one array) */
static int
pci_cmp(const void *a, const void *b)
{
	const gw_gpu *x = *(const gw_gpu *const *)a;
	const gw_gpu *y = *(const gw_gpu *const *)b;

	if (pci_vd(x) != pci_vd(y))
		return pci_vd(x) < pci_vd(y) ? -1 : 1;
	return x < y ? -1 : x > y;
}

void
gt_index_build(gw_table *t, gt_dup *dup)
{
	struct gw_table_index *x = gw_xcalloc(1, sizeof *x);
	gt_hash quads;
	size_t i, *slot;

	memset(dup, 0, sizeof *dup);
	gt_hash_init(&x->ids, t->n);
	gt_hash_init(&x->boards, t->n);
	gt_hash_init(&quads, t->n);
	x->pci = gw_xcalloc(t->n ? t->n : 1, sizeof *x->pci);
	for (i = 0; i < t->n; i++) {
		const gw_gpu *g = &t->gpus[i];
		name_key k;
		size_t pci_first = SIZE_MAX, board_first = SIZE_MAX;

		k.s = g->id;
		k.n = strlen(g->id);
		slot = gt_hash_slot(&x->ids, gt_hash_lower(k.s, k.n), id_eq, t,
		                    &k);
		if (*slot == 0)
			*slot = i + 1;
		slot = gt_hash_slot(&quads, pci_hash(g), pci_eq, t, g);
		if (*slot == 0)
			*slot = i + 1;
		else
			pci_first = *slot - 1;
		if (g->vgpu_prefix != NULL) {
			k.s = gt_vgpu_board(g->vgpu_prefix);
			k.n = strlen(k.s);
			slot = gt_hash_slot(&x->boards, gt_hash_lower(k.s, k.n),
			                    board_eq, t, &k);
			if (*slot == 0)
				*slot = i + 1;
			else
				board_first = *slot - 1;
		}
		/* the first row with an earlier twin; of its twins the
		 * earliest, the PCI id first when it is the same row */
		if (dup->what == 0 && (pci_first != SIZE_MAX ||
		                       board_first != SIZE_MAX)) {
			dup->row = i;
			dup->what = pci_first <= board_first ? GT_DUP_PCI :
			            GT_DUP_BOARD;
			dup->first = pci_first <= board_first ? pci_first :
			             board_first;
		}
		x->pci[x->npci++] = g;
	}
	gt_hash_free(&quads);
	qsort(x->pci, x->npci, sizeof *x->pci, pci_cmp);
	t->index = x;
}

void
gt_index_free(gw_table *t)
{
	if (t->index == NULL)
		return;
	gt_hash_free(&t->index->ids);
	gt_hash_free(&t->index->boards);
	free(t->index->pci);
	free(t->index);
	t->index = NULL;
}

const gw_gpu *
gt_index_id(const gw_table *t, const char *id, size_t n)
{
	name_key k;
	size_t *slot;

	if (t->index == NULL)
		return NULL;
	k.s = id;
	k.n = n;
	slot = gt_hash_slot(&t->index->ids, gt_hash_lower(id, n), id_eq, t, &k);
	return *slot ? &t->gpus[*slot - 1] : NULL;
}

const gw_gpu *
gt_index_board(const gw_table *t, const char *board, size_t n)
{
	name_key k;
	size_t *slot;

	if (t->index == NULL)
		return NULL;
	k.s = board;
	k.n = n;
	slot = gt_hash_slot(&t->index->boards, gt_hash_lower(board, n),
	                    board_eq, t, &k);
	return *slot ? &t->gpus[*slot - 1] : NULL;
}

const gw_gpu *const *
gt_index_pci(const gw_table *t, unsigned vendor, unsigned device,
             size_t *count)
{
	const struct gw_table_index *x = t->index;
	unsigned long vd = (unsigned long)vendor << 16 | device;
	size_t lo = 0, hi, end;

	*count = 0;
	if (x == NULL)
		return NULL;
	/* the first row at or after vd */
	hi = x->npci;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pci_vd(x->pci[mid]) < vd)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < x->npci && pci_vd(x->pci[end]) == vd; end++)
		;
	*count = end - lo;
	return *count ? x->pci + lo : NULL;
}
