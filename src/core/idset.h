/* SPDX-License-Identifier: GPL-3.0-or-later */
/* idset.h: a set of 64-bit keys, each with a size_t value (the index of
 * the thing it names), in an open-addressing hash table: the parsers' and
 * the apply's "seen before?" in constant time, so that reading a list of
 * N items stays linear in N (doc/design.md, section 3). */
#ifndef GW_IDSET_H
#define GW_IDSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct gw_idset {
	uint64_t *keys;
	size_t *vals;
	unsigned char *used;
	size_t cap;              /* a power of two, or 0 */
	size_t n;
} gw_idset;

void gw_idset_init(gw_idset *s);
void gw_idset_free(gw_idset *s);
/* Add key with val: NULL when it is new, else the value it already has
 * (the set is unchanged then). */
const size_t *gw_idset_put(gw_idset *s, uint64_t key, size_t val);
/* The value of key, or NULL. */
const size_t *gw_idset_get(const gw_idset *s, uint64_t key);

/* A PCI address (domain:bus:device.function) as a key. */
static inline uint64_t
gw_idset_pci_key(unsigned dom, unsigned bus, unsigned dev, unsigned fn)
{
	return (uint64_t)dom << 32 | (uint64_t)bus << 16 | (uint64_t)dev << 8 |
	       fn;
}

/* A string as a key: its FNV-1a hash (equal strings, equal keys; a
 * caller that needs the string itself compares it after the lookup). */
static inline uint64_t
gw_idset_str_key(const char *str)
{
	uint64_t h = 14695981039346656037u;

	for (; *str; str++) {
		h ^= (unsigned char)*str;
		h *= 1099511628211u;
	}
	return h;
}

#endif
