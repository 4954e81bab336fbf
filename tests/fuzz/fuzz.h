/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz.h: what the fuzz targets share (tests/fuzz/README.md).
 *
 * Each target defines LLVMFuzzerTestOneInput(); it is linked either with
 * libFuzzer (configure --enable-fuzz, clang: make fuzz) or with replay.c,
 * a main that feeds each file named on the command line to it (make check
 * replays the seed corpus under gcc, and under ASan in the sanitizer layer
 * of tests/run-all.sh).  A target calls abort() when an invariant does not
 * hold, so that a mismatch is a crash either way. */
#ifndef GW_FUZZ_H
#define GW_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated copy (the text parsers take C strings and
 * stop at the first NUL, as they do for a command's output). */
static inline char *
fz_text(const uint8_t *data, size_t size)
{
	char *s = gw_xmalloc(size + 1);

	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* An invariant did not hold: say which, and crash. */
#define FZ_CHECK(cond)                                                      \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "%s:%d: invariant failed: %s\n",    \
			        __FILE__, __LINE__, #cond);                 \
			abort();                                            \
		}                                                           \
	} while (0)

/* The GPU table ($GPUWIZ_TABLE, else the source tree's data/gpus.ini),
 * loaded once; NULL (and a message) when it cannot be read. */
#include "gputable.h"
const gw_table *fz_table(void);

/* For the parsers that read files only (iniparser, the sample hosts): a
 * scratch directory under $TMPDIR made on first use and removed at exit
 * with the files named here (at most 8 names): fz_scratch_path gives the
 * path of NAME in it, fz_scratch_write writes the input there as well.
 * The paths are the helper's, valid until exit. */
const char *fz_scratch_dir(void);
const char *fz_scratch_path(const char *name);
const char *fz_scratch_write(const char *name, const uint8_t *data,
                             size_t size);

#endif
