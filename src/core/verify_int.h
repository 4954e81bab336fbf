/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_int.h: what the pieces of gpuwiz verify share (verify_nvsmi*.c,
 * verify.c, verify_memory.c, verify_live.c); not for other modules. */
#ifndef GW_VERIFY_INT_H
#define GW_VERIFY_INT_H

#include "verify.h"

/* Does s start with prefix, ignoring ASCII case? */
int gw_verify_starts_ci(const char *s, const char *prefix);

/* ---- the parser of nvidia-smi -q (verify_nvsmi.c), a line at a time:
 * the reader (verify_nvsmi_input.c) checks that the input is text and
 * hands the parser each line.  parser_new empties *q; parser_line takes
 * line[0..n) (line[n] == '\0', modified in place): -1 with e set on a
 * refusal; parser_end frees the parser after a last check, with rc the
 * reader's verdict so far: 0, -1 (kept), or 1 when nothing in the input
 * was nvidia-smi -q's (no banner, no GPU, no failure line); on 0 the
 * versions and counts are filled in. */
typedef struct gw_nvsmi_parser gw_nvsmi_parser;
gw_nvsmi_parser *gw_nvsmi_parser_new(gw_nvsmi *q, const char *name,
                                     gw_err *e);
int gw_nvsmi_parser_line(gw_nvsmi_parser *P, char *line, size_t n);
int gw_nvsmi_parser_end(gw_nvsmi_parser *P, int rc);

/* ---- its values (verify_nvsmi_values.c) */
/* "GPU 00000000:03:00.0" (4 to 8 hex digits of domain): pointer to the
 * bus id, else NULL. */
const char *gw_nvsmi_gpu_header_bus(const char *key);
/* "143771 MiB" -> MiB; "N/A" -> GW_NVSMI_NA; else GW_NVSMI_BAD. */
long long gw_nvsmi_parse_mib(const char *v);
/* "0x233510DE" -> hi 0x2335, lo 0x10de.  0 on success. */
int gw_nvsmi_parse_pci_pair(const char *v, unsigned *hi, unsigned *lo);
gw_virt_mode gw_nvsmi_decode_virt(const char *v);
/* "4" -> 4 (0..65536); -1 for anything else. */
int gw_nvsmi_parse_count(const char *v);
/* The version to judge from a newer and an older line (KMD Version and
 * Driver Version, CUDA UMD Version and CUDA Version), allocated; NULL
 * when both are absent. */
char *gw_nvsmi_pick_version(const char *newer, const char *older);

/* Append a row to v and count it; takes ownership of title, message and
 * fix (fix may be NULL). */
void gw_verify_add_check(gw_verify *v, const char *id, gw_sev st,
                         int gpu, char *title, char *message, char *fix);

/* The same, under the short name the row builders use. */
static inline void
add_check(gw_verify *v, const char *id, gw_sev st, int gpu,
          char *title, char *message, char *fix)
{
	gw_verify_add_check(v, id, st, gpu, title, message, fix);
}

/* The rows "bar1" and "fb" of capture GPU i (verify_memory.c); r is its
 * table row or NULL. */
void gw_verify_check_bar1(gw_verify *v, const gw_nvsmi_gpu *g, int i,
                          const gw_gpu *r);
void gw_verify_check_fb(gw_verify *v, const gw_nvsmi_gpu *g, int i,
                        const gw_gpu *r);

/* What to do about a BAR1 that is 0 or far too small, for a GPU in
 * Virtualization Mode m (v->mmio_gb and v->total_vram_gb give the size to
 * set when known). */
char *gw_verify_bar1_fix(const gw_verify *v, gw_virt_mode m);

/* "Install NVIDIA driver GW_VERIFY_MIN_DRIVER or newer in the guest ...":
 * the fix of a driver that is missing or too old. */
char *gw_verify_driver_fix(void);

#endif
