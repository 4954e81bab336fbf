/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_int.h: what the pieces of gpuwiz verify share (verify_nvsmi.c,
 * verify.c, verify_memory.c, verify_live.c); not for other modules. */
#ifndef GW_VERIFY_INT_H
#define GW_VERIFY_INT_H

#include "verify.h"

/* Does s start with prefix, ignoring ASCII case? */
int gw_verify_starts_ci(const char *s, const char *prefix);

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
