/* SPDX-License-Identifier: GPL-3.0-or-later */
/* samplehost_test.h: what the parts of test_samplehost share (the
 * helpers and state of test_samplehost.c) and the tests main runs. */
#ifndef GW_SAMPLEHOST_TEST_H
#define GW_SAMPLEHOST_TEST_H

#include "testutil.h"
#include "samplehost.h"
#include "linux.h"
#include "runner.h"
#include "esxi.h"
#include "vmx.h"
#include "gputable.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

extern gw_table table;
extern char *samples_dir;
/* The sample a test opened: removed by close_after() even when the test
 * fails half-way. */
extern gw_sample cur;

int exists(const char *p);
char *read_all(const char *path);
char *scratch_file(const gw_sample *s, const char *rel);
const gw_finding *row(const gw_finding *rows, size_t n, const char *id);
void expect_row(const gw_finding *rows, size_t n, const char *id,
                gw_sev st);
const gw_gpu_bar *bar(const gw_gpu_dev *g, int index);
/* The VM of l with that Vmid (fails the test when there is none). */
const gw_vm *vm_of(const gw_vm_list *l, unsigned long vmid);
void open_ok(const char *name, gw_sample *s);
void close_removes(gw_sample *s);

/* test_samplehost_linux.c */
void intel_2x_l40s(void **state);
void amd_geforce_usb(void **state);
void intel_iommu_off_kernel(void **state);
void close_keeps_scratch(void **state);

/* test_samplehost_esxi.c */
void esxi_l40s(void **state);
void esxi_storage_outputs_parse(void **state);

/* test_samplehost_bad.c */
void broken_samples(void **state);

#endif
