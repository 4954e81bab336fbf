/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textesc.h: text from outside (a host's output, a file's bytes or name)
 * made safe for the terminal at the printers (doc/design.md 5.3): the
 * escaping every gw_err message has (util.c), without its size limit.
 * Valid UTF-8 is kept as it is (Chinese names print unchanged); C0
 * controls but tab and newline, DEL, C1 controls, the bidirectional
 * controls (gw_bidi_control: U+202E is \xE2\x80\xAE) and bytes that are
 * not well-formed UTF-8 become \xNN, byte by byte.  The screens show each
 * of them as '?' (ui/draw.c).  Defined in util.c. */
#ifndef GW_TEXTESC_H
#define GW_TEXTESC_H

#include "gw.h"

#include <stdio.h>

/* s escaped, whole, malloc'ed (at most 4 bytes out per byte in). */
char *gw_str_escaped(const char *s);
/* Append s escaped to b. */
void gw_buf_put_escaped(gw_buf *b, const char *s);
/* Write s escaped to f; 0, or EOF when the write failed. */
int gw_fputs_escaped(const char *s, FILE *f);
/* printf to f with the whole text escaped (a translated format holds no
 * control, so only what the arguments bring in changes). */
int gw_fprintf_escaped(FILE *f, const char *fmt, ...) GW_PRINTF(2, 3);

#endif
