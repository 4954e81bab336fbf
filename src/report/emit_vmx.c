/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit_vmx.c: the .vmx lines, a line format of its own (key = "value",
 * values escaped as ESXi writes them), grouped under a comment saying why
 * and where it comes from; and the next steps of the file when gpuwiz
 * does not change the VM's .vmx itself. */
#include "emit_int.h"

#include <stdlib.h>

/* ---- vmx ------------------------------------------------------------ */

/* One comment line: "# text\n" with line breaks and control bytes turned
 * into spaces, so the comment can never spill onto a second line. */
static void
vmx_comment(gw_buf *b, const char *text)
{
	const char *s;

	gw_buf_puts(b, "# ");
	for (s = text; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			gw_buf_add(b, " ", 1);
		else
			gw_buf_add(b, s, 1);
	}
	gw_buf_puts(b, "\n");
}

/* Value escaped the way ESXi writes .vmx values: '"', '|' and control
 * bytes as "|XX" (upper-case hex). */
static void
vmx_value(gw_buf *b, const char *v)
{
	const char *s;

	for (s = v; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '|' || c < 0x20 || c == 0x7f)
			gw_buf_printf(b, "|%02X", c);
		else
			gw_buf_add(b, s, 1);
	}
}

/* Same group: consecutive settings of one kind with one reason and source. */
static int
same_group(const gw_setting *a, const gw_setting *b)
{
	return a->kind == b->kind && emit_str_eq_null(a->reason, b->reason) &&
	       emit_str_eq_null(a->source, b->source);
}

int
gw_emit_vmx(const gw_plan *p, const gw_emit_opts *o, char **out, gw_err *e)
{
	gw_buf b;
	const gw_setting *prev = NULL;
	size_t i, nwritten = 0;

	(void)o;
	if (p == NULL || out == NULL) {
		gw_err_set(e, _("vmx: no plan to render"));
		return -1;
	}
	for (i = 0; i < p->nsettings; i++)
		if (!p->settings[i].keep &&
		    emit_setting_check(&p->settings[i], "vmx", e) != 0)
			return -1;

	gw_buf_init(&b);
	vmx_comment(&b, _("gpuwiz: settings for the VM's .vmx file. Edit the "
	                  ".vmx only while the VM is powered off, then reload "
	                  "it: vim-cmd vmsvc/reload <vmid>"));
	for (i = 0; i < p->nsettings; i++) {
		const gw_setting *s = &p->settings[i];

		if (s->keep)
			continue;
		if (prev == NULL || !same_group(prev, s)) {
			char *c = emit_setting_why(s);

			gw_buf_puts(&b, "\n");
			vmx_comment(&b, c);
			free(c);
		}
		if (s->old_value) {
			char *c = gw_xasprintf(_("%s: replaces the current value "
			                         "\"%s\""), s->key, s->old_value);
			vmx_comment(&b, c);
			free(c);
		}
		gw_buf_printf(&b, "%s = \"", s->key);
		vmx_value(&b, s->value);
		gw_buf_puts(&b, "\"\n");
		prev = s;
		nwritten++;
	}
	if (nwritten == 0) {
		gw_buf_puts(&b, "\n");
		vmx_comment(&b, _("Nothing to change: every setting the plan needs "
		                  "is already in the .vmx."));
	}
	*out = gw_buf_steal(&b);
	return 0;
}

/* Without a .vmx of the VM's own: the lines pasted, then reloaded. */
void
gw_next_vmx(const gw_next_ctx *c)
{
	if (c->vmx_patched)
		return;
	c->push(c->list, gw_xasprintf(_("With the VM off, add the lines of %s to its .vmx (or in the vSphere Client or the ESXi Host Client: Edit Settings > VM Options > Advanced > Configuration Parameters)"),
	                              c->path));
	c->push(c->list, gw_xasprintf(_("After editing the .vmx on the host with the VM off: %s"),
	                              "vim-cmd vmsvc/reload <vmid>"));
	c->push(c->list, gw_xasprintf(_("Power on the VM: %s (%s lists the Vmid)"),
	                              "vim-cmd vmsvc/power.on <vmid>",
	                              "vim-cmd vmsvc/getallvms"));
}
