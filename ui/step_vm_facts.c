/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_vm_facts.c: what step 4 shows of an open VM (a local .vmx or one
 * on the host): its hardware version, firmware, memory and reservation,
 * the passthrough devices already in it, and the plan's advice. */
#include "step_vm.h"
#include "wizard_changes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The passthrough devices already in the .vmx, as one line. */
static char *
devices_text(const gw_wizard *w)
{
	gw_vm_device d[128];
	size_t n = gw_wizard_vm_devices(w, d, 128), i;
	gw_buf b;

	gw_buf_init(&b);
	for (i = 0; i < n && i < 128; i++) {
		if (i > 0)
			gw_buf_puts(&b, "; ");
		if (d[i].vgpu)
			gw_buf_printf(&b, "pciPassthru%d vGPU %s", d[i].n, d[i].vgpu);
		else
			gw_buf_printf(&b, "pciPassthru%d %s:%s", d[i].n,
			              d[i].vendor_id ? d[i].vendor_id : "?",
			              d[i].device_id ? d[i].device_id : "?");
	}
	if (n == 0)
		/* TRANSLATORS: no pciPassthruN device in the .vmx. */
		gw_buf_puts(&b, _("none"));
	return b.data ? gw_buf_steal(&b) : gw_xstrdup("");
}

/* The plan's advice about the VM, under its facts from row y. */
static void
draw_advice(ui_ctx *u, ui_rect r, int y)
{
	/* "hw-", "firmware-", "memory-", "nested-", "device-", "devices-",
	 * "code43" */
	const unsigned advice = GW_TOPIC_BIT(GW_TOPIC_VERSION) |
	                        GW_TOPIC_BIT(GW_TOPIC_FIRMWARE) |
	                        GW_TOPIC_BIT(GW_TOPIC_MEMORY) |
	                        GW_TOPIC_BIT(GW_TOPIC_VM) |
	                        GW_TOPIC_BIT(GW_TOPIC_DEVICE);
	const char *err = gw_wizard_error(u->w, GW_ERR_PLAN);
	int used;

	/* TRANSLATORS: heading of the plan's findings about the VM. */
	dw_put(r.y + y + 1, r.x, _("Advice:"), r.w, ui_attr(UI_C_HEAD));
	if (gw_wizard_plan(u->w) == NULL) {
		dw_wrap_put(r.y + y + 2, r.x + 2, r.w - 2, r.h - y - 2,
		            err ? err : "", ui_attr(UI_C_MSG_ERR));
		return;
	}
	/* FAIL and WARN first; PgDn scrolls the rest into view */
	used = ui_findings_list(u, &vst(u)->adv,
	                        (ui_rect){ r.y + y + 2, r.x + 2, r.h - y - 2,
	                                   r.w - 2 }, advice);
	if (used == 0)
		/* TRANSLATORS: no finding about the VM. */
		dw_put(r.y + y + 2, r.x + 2, _("Nothing to change besides the GPU settings."),
		       r.w - 2, ui_attr(UI_C_DIM));
}

int
ui_vm_advice_key(ui_ctx *u, ui_key k)
{
	return ui_tl_page_key(&vst(u)->adv, k);
}

size_t
ui_vm_advice_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	return ui_tl_keys(&vst(u)->adv, out, max);
}

void
ui_vm_draw_facts(ui_ctx *u, ui_rect r, int y)
{
	const gw_wizard *w = u->w;
	const gw_vmx *v = gw_wizard_vmx(w);
	const gw_plan *p = gw_wizard_plan(w);
	const char *val, *val2;
	char buf[512], *devs;
	int lw = 0, i;
	/* TRANSLATORS: label of a VM fact; at most 18 cells. */
	const char *l_hw = _("Hardware version:");
	/* TRANSLATORS: label of a VM fact; at most 18 cells. */
	const char *l_fw = _("Firmware:");
	/* TRANSLATORS: label of a VM fact; at most 18 cells. */
	const char *l_mem = _("Memory:");
	/* TRANSLATORS: label of a VM fact; at most 18 cells. */
	const char *l_res = _("Reservation:");
	/* TRANSLATORS: label of the passthrough devices in the .vmx; at
	 * most 18 cells. */
	const char *l_dev = _("Passthrough:");
	const char *labs[5];

	labs[0] = l_hw; labs[1] = l_fw; labs[2] = l_mem; labs[3] = l_res;
	labs[4] = l_dev;
	for (i = 0; i < 5; i++)
		if (gw_text_cells(labs[i]) > lw)
			lw = gw_text_cells(labs[i]);
	lw += 1;

	/* hardware version: the file's, and the target the plan names */
	dw_put(r.y + y, r.x + 2, l_hw, lw, A_BOLD);
	val = gw_vmx_get(v, "virtualHW.version");
	if (gw_wizard_upgrade_queued(w) > 0 && gw_wizard_upgrade_from(w) > 0)
		/* TRANSLATORS: the hardware version while its upgrade is
		 * queued (it runs at the write), e.g. "13 -> 21 queued (the
		 * host's ESXi supports 21)". */
		snprintf(buf, sizeof buf,
		         _("%d -> %d queued (the host's ESXi supports %d)"),
		         gw_wizard_upgrade_from(w), gw_wizard_upgrade_queued(w),
		         p && p->hw_target > 0 ? p->hw_target :
		         gw_wizard_upgrade_queued(w));
	else if (p && p->hw_target > 0)
		/* TRANSLATORS: hardware version now and the one the host's
		 * ESXi supports, e.g. "19 (ESXi supports 21)". */
		snprintf(buf, sizeof buf, _("%s (the host's ESXi supports %d)"),
		         val ? val : "?", p->hw_target);
	else
		snprintf(buf, sizeof buf, "%s", val ? val : "?");
	dw_put(r.y + y++, r.x + 2 + lw, buf, r.w - 2 - lw, A_NORMAL);

	dw_put(r.y + y, r.x + 2, l_fw, lw, A_BOLD);
	val = gw_vmx_get(v, "firmware");
	/* TRANSLATORS: a .vmx key that is not in the file. */
	dw_put(r.y + y++, r.x + 2 + lw, val ? val : _("(not set)"),
	       r.w - 2 - lw, A_NORMAL);

	dw_put(r.y + y, r.x + 2, l_mem, lw, A_BOLD);
	val = gw_vmx_get(v, "memsize");
	if (val)
		/* TRANSLATORS: the VM's memory in MB. */
		snprintf(buf, sizeof buf, _("%s MB"), val);
	else
		snprintf(buf, sizeof buf, "%s", _("(not set)"));
	dw_put(r.y + y++, r.x + 2 + lw, buf, r.w - 2 - lw, A_NORMAL);

	dw_put(r.y + y, r.x + 2, l_res, lw, A_BOLD);
	val = gw_vmx_get(v, "sched.mem.min");
	val2 = gw_vmx_get(v, "sched.mem.pin");
	snprintf(buf, sizeof buf, "sched.mem.min = %s, sched.mem.pin = %s",
	         val ? val : "-", val2 ? val2 : "-");
	dw_put(r.y + y++, r.x + 2 + lw, buf, r.w - 2 - lw, A_NORMAL);

	/* passthrough devices already in the file */
	dw_put(r.y + y, r.x + 2, l_dev, lw, A_BOLD);
	devs = devices_text(w);
	y += dw_wrap_put(r.y + y, r.x + 2 + lw, r.w - 2 - lw, 2, devs,
	                 A_NORMAL);
	free(devs);
	if (y < r.h - 1)
		draw_advice(u, r, y);
}

