/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_limits.c: what a VM with GPUs conflicts with: guest memory smaller
 * than the GPUs' framebuffer, memory and CPU hot-add, and the features
 * DirectPath I/O turns off (snapshots, suspend, HA, vMotion, fault
 * tolerance).  Facts and sources: doc/design.md, section 15.3.
 */
#include "plan_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The framebuffer the VM's GPUs give it, in GB: a DirectPath GPU its
 * whole VRAM, a vGPU the size in its profile name ("nvidia_l40s-48c":
 * 48); unknown sizes count 0, so the check never over-warns. */
static uint64_t
vm_framebuffer_gb(const gw_plan *p)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		unsigned long gb = 0;

		if (g->profile) {
			const char *dash = strrchr(g->profile, '-');

			if (dash)
				gb = strtoul(dash + 1, NULL, 10);
		} else if (g->vram_gb > 0) {
			gb = (unsigned long)g->vram_gb;
		}
		total += (uint64_t)gb * (uint64_t)(g->count > 0 ? g->count : 0);
	}
	return total;
}

/* memsize of the .vmx, else the answers' memory; 0 unknown. */
static long
guest_memory_mb(const plan_ctx *c)
{
	const char *ms = c->v ? gw_vmx_get(c->v, "memsize") : NULL;
	unsigned long long mb = 0;

	if (ms && gw_parse_uint(ms, (unsigned long long)LONG_MAX, &mb) == 0 &&
	    mb > 0)
		return (long)mb;
	return c->a->memory_mb > 0 ? c->a->memory_mb : 0;
}

/* Loading a model stages its weights through guest memory (CUDA pinned
 * host buffers, vLLM's loader): less memory than framebuffer fails or
 * swaps.  No NVIDIA document found gives a figure (doc/design.md, section
 * 15.3, open): the total framebuffer is the floor, said as such. */
static void
guest_memory(plan_ctx *c)
{
	uint64_t fb_gb = vm_framebuffer_gb(c->p);
	long mb = guest_memory_mb(c);

	if (fb_gb == 0 || mb <= 0 || (uint64_t)mb >= fb_gb * 1024)
		return;
	pl_finding(c->p, GW_SEV_WARN, "memory-below-vram", GW_TOPIC_MEMORY,
	           SRC_GUESTMEM,
	           gw_xasprintf(_("The VM has %ld MB of memory, less than the "
	                          "%llu GB of framebuffer of its GPUs: CUDA "
	                          "and vLLM load model weights through guest "
	                          "memory, so large models fail to load or "
	                          "swap. No NVIDIA document gives a figure; "
	                          "at least the GPUs' total framebuffer is "
	                          "the usual floor"),
	                        mb, (unsigned long long)fb_gb),
	           gw_xasprintf(_("With the VM off, raise its memory to at "
	                          "least %llu MB (vSphere Client or ESXi Host "
	                          "Client: Edit Settings > Memory); the full "
	                          "reservation "
	                          "follows memsize."),
	                        (unsigned long long)fb_gb * 1024));
}

/* Hot-add with DirectPath devices: VMware lists hot adding of devices as
 * unavailable with DirectPath I/O, and memory added later is outside the
 * full reservation passthrough needs (KB 309986); CPU hot-add turns
 * virtual NUMA off (vSphere Resource Management, Virtual NUMA; KB
 * 2040375), so a VM wider than a host socket loses the memory locality of
 * the threads that feed its GPUs.  Each key that is TRUE is written
 * "FALSE" (a setting, with its own reason and source, as vhv.enable is)
 * and an INFO says so.  A VM with vGPUs only is left alone: those
 * documents do not cover vGPU (doc/design.md, section 15.3). */
static void
hotadd(plan_ctx *c)
{
	int mem, cpu;
	char on[64];

	if (c->v == NULL || c->ndevices - c->nvgpu_all <= 0)
		return;
	mem = gw_vmx_get_bool(c->v, "mem.hotadd", 0);
	cpu = gw_vmx_get_bool(c->v, "vcpu.hotadd", 0);
	if (mem)
		pl_setting(c->p, c->v, GW_SET_HOTADD, "mem.hotadd", "FALSE",
		           gw_xstrdup(_("Hot-add is not supported with "
		                        "passthrough devices, and memory "
		                        "added later is outside the full "
		                        "reservation.")), SRC_HOTADD);
	if (cpu)
		pl_setting(c->p, c->v, GW_SET_HOTADD, "vcpu.hotadd", "FALSE",
		           gw_xstrdup(_("CPU hot-add turns virtual NUMA off: the guest sees a single NUMA node, so a VM wider than a host socket loses the memory locality of the threads that feed its GPUs.")),
		           SRC_HOTADD_CPU);
	if (!mem && !cpu)
		return;
	if (!mem) {
		pl_finding(c->p, GW_SEV_INFO, "device-hotadd", GW_TOPIC_DEVICE,
		           SRC_HOTADD_CPU,
		           gw_xstrdup(_("CPU hot-add is on (vcpu.hotadd = \"TRUE\"), which turns virtual NUMA off in a VM with passthrough GPUs: it is turned off (\"FALSE\" is written)")),
		           NULL);
		return;
	}
	snprintf(on, sizeof on, "%s", cpu ? "mem.hotadd, vcpu.hotadd"
	                                  : "mem.hotadd");
	pl_finding(c->p, GW_SEV_INFO, "device-hotadd", GW_TOPIC_DEVICE,
	           SRC_HOTADD,
	           gw_xasprintf(_("Hot-add is on (%s = \"TRUE\"), which is not "
	                          "supported with passthrough devices and "
	                          "keeps hot-added memory out of the full "
	                          "reservation: it is turned off (\"FALSE\" "
	                          "is written)"), on),
	           NULL);
}

/* Once per plan, with DirectPath devices in the VM (vGPUs keep suspend
 * and vMotion: NVIDIA vGPU documentation). */
static void
directpath_features(plan_ctx *c)
{
	/* Dynamic DirectPath I/O says its own (pl_dynamic) */
	if (c->ndevices - c->nvgpu_all <= 0 || c->a->dynamic ||
	    (c->a->outputs_do & GW_OUT_DYNAMIC))
		return;
	pl_finding(c->p, GW_SEV_INFO, "device-directpath-limits", GW_TOPIC_DEVICE,
	           SRC_DPIO,
	           gw_xasprintf(_("With a DirectPath I/O device the VM has no "
	                          "snapshots, no suspend and resume, no "
	                          "vMotion or DRS migration to another host, "
	                          "no vSphere HA restart and no fault "
	                          "tolerance; devices cannot be hot-added")),
	           NULL);
}

void
pl_limits(plan_ctx *c)
{
	guest_memory(c);
	hotadd(c);
	directpath_features(c);
}
