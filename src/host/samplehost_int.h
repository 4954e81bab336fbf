/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost_int.h: what the pieces of the sample hosts share
 * (samplehost.h is the interface):
 *   samplehost.c        where the samples are, listing, open / close
 *   samplehost_ini.c    reading host.ini: typed keys, sections, [host]
 *   samplehost_dev.c    a [devN] section: address, ids, BARs, group
 *   samplehost_tree.c   writing and removing a scratch tree
 *   samplehost_proc.c   linux: /proc and the ACPI table
 *   samplehost_sysfs.c  linux: the /sys tree of the devices and IOMMUs
 *   samplehost_esxi.c   esxi: the command outputs, datastores, stand-ins
 * Nothing here prints.
 */
#ifndef GW_SAMPLEHOST_INT_H
#define GW_SAMPLEHOST_INT_H

#include "samplehost.h"

#include <stdint.h>
#include <sys/types.h>
#include "ini.h"

/* Largest file copied from an esxi sample. */
#define SAMPLE_MAX_FILE (16u << 20)
/* Bounds of the schema. */
#define SAMPLE_MAX_CPUS 64
#define SAMPLE_MAX_UNITS 16
#define SAMPLE_MAX_DEVS 256

/* The checks below name the file, the section and the key. */
typedef struct ini_ctx {
	const dictionary *d;
	const char *path;
	gw_err *e;
} ini_ctx;

/* ---- fs helpers (samplehost.c) ------------------------------------------ */

int smp_is_dir(const char *p);

/* ---- host.ini (samplehost_ini.c) ---------------------------------------- */

/* host.ini loaded, an unreadable file named as such; NULL and e. */
dictionary *smp_load_ini(const char *path, gw_err *e);
/* [sec] key, NULL when absent. */
const char *smp_ini_get(const dictionary *d, const char *sec, const char *key);
/* A required (or, with required 0, optional: *out untouched) string. */
int smp_get_str(const ini_ctx *c, const char *sec, const char *key,
                int required, const char **out);
/* Hex digits with an optional 0x: 0 and *out, or -1. */
int smp_parse_hex(const char *s, uint64_t max, uint64_t *out);
/* A hex number up to max (dflt when absent and not required). */
int smp_get_hex(const ini_ctx *c, const char *sec, const char *key,
                uint64_t max, int required, uint64_t dflt, uint64_t *out);
/* [host] title and kind of a host.ini (pointers into d). */
int smp_host_title_kind(const ini_ctx *c, const char **title,
                        const char **kind);
/* A name of letters, digits and the characters of extra, 1-63 long. */
int smp_word_ok(const char *s, const char *extra);

/* ---- linux: the description (samplehost_ini.c, samplehost_dev.c) -------- */

enum { BK_NONE, BK_MEM32, BK_MEM32P, BK_MEM64, BK_MEM64P, BK_IO, BK_UPPER };

typedef struct sbar {
	int kind;              /* BK_*; BK_UPPER: the upper half of the
	                        * 64-bit BAR before it */
	uint64_t size, addr;
	int has_addr;
} sbar;

typedef struct sdev {
	const char *sec;
	char bdf[16];
	unsigned dom, bus, dev, fn;
	unsigned vendor, device, subv, subd, cls, rev;
	sbar bars[6];
	const char *group;     /* NULL: none */
	const char *driver;    /* NULL: none */
	int bridge, multi;
	unsigned secondary, subordinate;   /* bridges: the buses behind */
} sdev;

typedef struct shost {
	int amd, virt, iommu, ir;
	const char *cpu_model, *kernel, *proc_version, *cmdline, *acpi;
	unsigned family, model, stepping, cpus, units;
	uint64_t cap, ecap;
	sdev *devs;
	size_t ndevs;
} shost;

/* A sample's host.ini read and checked as gw_sample_open reads it: its
 * [host], the known sections and keys, and a linux sample's [host] and
 * [devN] (strings point into *d) (samplehost_ini.c;
 * tests/fuzz/fuzz_samplehost.c feeds it). */
int smp_read_host(const char *path, dictionary **d, const char **title,
                  const char **kind, shost *h, gw_err *e);
/* One [devN] section into d. */
int smp_parse_dev(const ini_ctx *c, const char *sec, const shost *h, sdev *d);

/* ---- writing a tree (samplehost_tree.c) --------------------------------- */

/* Files are written under root; the first failure is kept in e and later
 * calls do nothing. */
typedef struct mk {
	const char *root;
	gw_err *e;
	int failed;
} mk;

enum { MK_CREATE, MK_WRITE, MK_LINK };

void smp_mk_fail(mk *m, int what, const char *path);
/* mkdir -p ROOT/rel */
void smp_mk_dirs(mk *m, const char *rel);
void smp_mk_file(mk *m, const char *rel, const void *data, size_t len,
                 mode_t mode);
void smp_mk_text(mk *m, const char *rel, const char *text);
void smp_mk_printf(mk *m, const char *rel, const char *fmt, ...)
	GW_PRINTF(3, 4);
void smp_mk_link(mk *m, const char *rel, const char *target);
/* rm -r p, never following a link. */
void smp_rm_tree(const char *p);

/* ---- materialising ------------------------------------------------------ */

/* samplehost_proc.c: /proc (cpuinfo, cmdline, version, osrelease,
 * interrupts) and the ACPI table. */
void smp_write_proc(mk *m, const shost *h);
void smp_write_acpi(mk *m, const shost *h);
/* samplehost_sysfs.c: SCRATCH/root for h. */
int smp_materialise_linux(const char *scratch, const shost *h, gw_err *e);
/* samplehost_esxi.c: the esxi sample sdir (of the folder hosts) into
 * s's scratch folder. */
int smp_materialise_esxi(const char *hosts, const char *sdir,
                         const gw_sample *s, gw_err *e);

#endif
