/* SPDX-License-Identifier: GPL-3.0-or-later */
/* idset.c: see idset.h.  Linear probing, grown at 1/2 full. */
#include "idset.h"
#include "gw.h"

#include <stdlib.h>
#include <string.h>

void
gw_idset_init(gw_idset *s)
{
	memset(s, 0, sizeof *s);
}

void
gw_idset_free(gw_idset *s)
{
	free(s->keys);
	free(s->vals);
	free(s->used);
	gw_idset_init(s);
}

/* splitmix64's finaliser: every bit of the key moves the slot */
static size_t
slot_of(uint64_t k, size_t cap)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return (size_t)k & (cap - 1);
}

static size_t
find(const gw_idset *s, uint64_t key)
{
	size_t i = slot_of(key, s->cap);

	while (s->used[i] && s->keys[i] != key)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void
grow(gw_idset *s)
{
	gw_idset old = *s;
	size_t i, j;

	s->cap = old.cap ? old.cap * 2 : 16;
	s->keys = gw_xcalloc(s->cap, sizeof *s->keys);
	s->vals = gw_xcalloc(s->cap, sizeof *s->vals);
	s->used = gw_xcalloc(s->cap, 1);
	for (i = 0; i < old.cap; i++)
		if (old.used[i]) {
			j = find(s, old.keys[i]);
			s->used[j] = 1;
			s->keys[j] = old.keys[i];
			s->vals[j] = old.vals[i];
		}
	free(old.keys);
	free(old.vals);
	free(old.used);
}

const size_t *
gw_idset_put(gw_idset *s, uint64_t key, size_t val)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	i = find(s, key);
	if (s->used[i])
		return &s->vals[i];
	s->used[i] = 1;
	s->keys[i] = key;
	s->vals[i] = val;
	s->n++;
	return NULL;
}

const size_t *
gw_idset_get(const gw_idset *s, uint64_t key)
{
	size_t i;

	if (s->cap == 0)
		return NULL;
	i = find(s, key);
	return s->used[i] ? &s->vals[i] : NULL;
}
