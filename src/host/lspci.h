/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lspci.h: the GPUs of a saved `lspci -vvv` / `lspci -nnvv` capture as
 * the rows of hosttypes.h (gpuwiz gpus --lspci-file FILE, and the
 * wizard's offline capture), printed like every other host's list by
 * src/report/gpus_print.h.
 *
 * What is read, line by line (LF or CRLF; blanks at either end of a
 * line ignored; lines starting with '#' skipped, so a capture may carry
 * a "# source:" line; anything before the first device line, such as a
 * shell prompt, skipped):
 *  - a device line "[DOMAIN:]BB:DD.F CLASS[ [cccc]]: TEXT[ [vvvv:dddd]]
 *    [(rev xx)] [(prog-if ...)]"; display-class devices (VGA, XGA, 3D and
 *    Display controllers, class 03xx) are kept, the others skipped;
 *  - its detail lines up to the next device line: "Subsystem: ...
 *    [ssss:tttt]", "Region N: Memory at ... (64-bit, prefetchable)
 *    [virtual] [disabled] [size=32G]" (only those before the first
 *    "Capabilities:" line: the SR-IOV capability lists its VFs' regions
 *    the same way), the "Physical Resizable BAR" capability's "BAR N:
 *    current size: 32GB, supported: ..." lines (the size of a region the
 *    host left without one, "<unassigned>"), "Kernel driver in use: X"
 *    and "IOMMU group: N".
 * With -nn the PCI ids pick the GPU table's row (gw_table_find_pci, the
 * subsystem deciding where the table needs it).  Without them the row is
 * the one table row whose name ends the device line's text ("NVIDIA
 * Corporation AD102GL [L40S]"), or "NVIDIA Corporation Device 2330" (the
 * id lspci prints for a device pci.ids lacks); otherwise the device has
 * no row and ids_unread set, and its BARs size it (gw_gpu_list_sum says
 * to run lspci -nnvv).
 *
 * Refused, naming the input: no device line at all, a NUL byte, more
 * than GW_LSPCI_MAX_BYTES. */
#ifndef GW_LSPCI_H
#define GW_LSPCI_H

#include "gw.h"
#include "gputable.h"
#include "hosttypes.h"

#include <stdio.h>

/* Largest capture accepted (the same as an esxcli listing). */
#define GW_LSPCI_MAX_BYTES (16u << 20)

/* The capture in text (NUL-terminated), named name in errors.  0, or -1
 * with e set and *out empty. */
int gw_lspci_gpu_list_read(const gw_table *t, const char *text,
                           const char *name, gw_gpu_list *out, gw_err *e);

/* The same from a file, read a line at a time (a missing file, a
 * directory, unreadable data refused, naming path). */
int gw_lspci_gpu_list_read_file(const gw_table *t, const char *path,
                                gw_gpu_list *out, gw_err *e);

/* 1 when text holds an lspci device line (the test the wizard uses to
 * tell a pasted lspci capture from an esxcli listing), else 0. */
int gw_lspci_is_capture(const char *text);

#endif
