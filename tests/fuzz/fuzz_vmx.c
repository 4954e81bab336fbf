/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_vmx.c: the .vmx document (src/core/vmx*.c).
 *
 * Invariants (vmx.h): a parsed document serializes back to the very bytes
 * it was parsed from; setting the first key in place keeps the number of
 * lines and reads back; appending a new key keeps the old bytes as a
 * prefix of the new ones and reads back. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* memfd_create */
#endif
#include "fuzz.h"
#include "vmx_int.h"   /* the line counts */

#include <sys/mman.h>
#include <unistd.h>

#define FZ_NEW_KEY "gpuwizFuzz.present"

/* The input as a file (an anonymous memory file, no disk) through
 * gw_vmx_load_checked: a document it accepts is the parsed one. */
static void
fz_load_checked(const uint8_t *data, size_t size, const gw_vmx *parsed)
{
	gw_vmx *v = NULL;
	char path[64];
	gw_err e;
	int fd = memfd_create("fuzz.vmx", 0);

	if (fd < 0)
		return;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		if (gw_vmx_load_checked(&v, path, &e) == 0)
			FZ_CHECK(gw_vmx_count(v) == gw_vmx_count(parsed));
		else
			FZ_CHECK(v == NULL);
		gw_vmx_free(v);
	}
	close(fd);
}

/* Serialize, parse again, and check that key reads back as value. */
static gw_vmx *
fz_reparse(const gw_vmx *v, const char *key, const char *value,
           char **bytes, size_t *len)
{
	gw_vmx *w = NULL;
	gw_err e;

	*bytes = gw_vmx_serialize(v, len);
	FZ_CHECK(*bytes != NULL);
	FZ_CHECK(gw_vmx_parse(&w, *bytes, *len, "fuzz.vmx", &e) == 0);
	FZ_CHECK(gw_vmx_get(w, key) != NULL);
	FZ_CHECK(strcmp(gw_vmx_get(w, key), value) == 0);
	return w;
}

static void
fz_set_first(const uint8_t *data, size_t size)
{
	gw_vmx *v = NULL, *w;
	char *key, *out;
	size_t len;
	gw_err e;

	if (gw_vmx_parse(&v, (const char *)data, size, "fuzz.vmx", &e) != 0)
		return;
	if (gw_vmx_count(v) > 0) {
		key = gw_xstrdup(gw_vmx_key_at(v, 0));
		if (gw_vmx_set(v, key, "fuzz", &e) == 0) {
			w = fz_reparse(v, key, "fuzz", &out, &len);
			FZ_CHECK(w->nlines == v->nlines);
			gw_vmx_free(w);
			free(out);
		}
		free(key);
	}
	gw_vmx_free(v);
}

static void
fz_append(const uint8_t *data, size_t size)
{
	gw_vmx *v = NULL, *w;
	char *out;
	size_t len;
	gw_err e;

	if (gw_vmx_parse(&v, (const char *)data, size, "fuzz.vmx", &e) != 0)
		return;
	if (gw_vmx_get(v, FZ_NEW_KEY) == NULL &&
	    gw_vmx_malformed_line_of(v, FZ_NEW_KEY) == 0 &&
	    gw_vmx_set(v, FZ_NEW_KEY, "TRUE", &e) == 0) {
		w = fz_reparse(v, FZ_NEW_KEY, "TRUE", &out, &len);
		FZ_CHECK(len > size && memcmp(out, data, size) == 0);
		gw_vmx_free(w);
		free(out);
	}
	gw_vmx_free(v);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gw_vmx *v = NULL;
	char *out;
	size_t len, i;
	gw_err e;

	if (gw_vmx_parse(&v, (const char *)data, size, "fuzz.vmx", &e) != 0)
		return 0;
	out = gw_vmx_serialize(v, &len);
	FZ_CHECK(out != NULL);
	FZ_CHECK(len == size && memcmp(out, data, size) == 0);
	free(out);
	fz_load_checked(data, size, v);
	for (i = 0; i < gw_vmx_count(v); i++) {
		const char *k = gw_vmx_key_at(v, i);

		FZ_CHECK(gw_vmx_get(v, k) != NULL);
		FZ_CHECK(gw_vmx_line_of(v, k) > 0);
	}
	(void)gw_vmx_get_bool(v, "pciPassthru0.present", 0);
	(void)gw_vmx_encoding(v);
	(void)gw_vmx_eol(v);
	gw_vmx_free(v);
	fz_set_first(data, size);
	fz_append(data, size);
	return 0;
}
