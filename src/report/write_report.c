/* SPDX-License-Identifier: GPL-3.0-or-later */
/* write_report.c: a write's description as text and JSON
 * (write_report.h). */
#include "write_report.h"
#include "jsonutil.h"
#include "textesc.h"

#include <stdlib.h>

/* copied: a step before copied the .vmx to a backup (GW_WRITE_BACKUP):
 * the save keeps that one and makes none. */
static void
vmx_text(gw_buf *b, const gw_write_step *s, int copied)
{
	size_t i;

	if (s->nlines == 0) {
		/* TRANSLATORS: a dry run's step; %s is a .vmx. */
		gw_buf_printf(b, _("  leave %s as it is: it already has every setting\n"),
		              s->what);
		return;
	}
	if (s->kind == GW_WRITE_VMX)
		/* TRANSLATORS: a dry run's step; %s is a .vmx. */
		gw_buf_printf(b, _("  save %s (a backup beside it)\n"), s->what);
	else if (s->what[0] == '/' && copied)
		/* TRANSLATORS: a dry run's step: the .vmx on the ESXi host,
		 * then the command that reloads the VM; the backup is the
		 * copy of the first step, made before the host changes. */
		gw_buf_printf(b, _("  save %s on the host (no second backup: the copy made first keeps the file as it was), then run: %s\n"),
		              s->what, s->command);
	else if (s->what[0] == '/')
		/* TRANSLATORS: a dry run's step: the .vmx on the ESXi host,
		 * then the command that reloads the VM. */
		gw_buf_printf(b, _("  save %s on the host (a backup beside it), then run: %s\n"),
		              s->what, s->command);
	else
		/* TRANSLATORS: a dry run's step: the API method and the VM. */
		gw_buf_printf(b, _("  send through the API: %s\n"), s->command);
	for (i = 0; i < s->nlines; i++)
		gw_buf_printf(b, "      %s\n", s->lines[i]);
}

void
gw_write_desc_render(gw_buf *out, const gw_write_desc *d)
{
	gw_buf b;
	size_t i;
	int copied = 0;

	if (out->data == NULL)
		gw_buf_init(out);
	gw_buf_init(&b);
	for (i = 0; i < d->n; i++) {
		const gw_write_step *s = &d->v[i];

		switch (s->kind) {
		case GW_WRITE_BACKUP:
			/* TRANSLATORS: a dry run's step; %s is the VM's .vmx
			 * on the ESXi host. */
			gw_buf_printf(&b, _("  copy %s to a backup beside it, before any change on the host touches the VM\n"),
			              s->what);
			copied = 1;
			break;
		case GW_WRITE_HOST:
			/* TRANSLATORS: a dry run's step: the exact command,
			 * then the change in words. */
			gw_buf_printf(&b, _("  run on the host: %s  (%s)\n"),
			              s->command ? s->command : "", s->what);
			break;
		case GW_WRITE_VMX:
		case GW_WRITE_VMX_HOST:
			vmx_text(&b, s, copied);
			break;
		case GW_WRITE_FILE:
			/* TRANSLATORS: a dry run's step; %s is a file. */
			gw_buf_printf(&b, _("  write %s\n"), s->what);
			break;
		}
	}
	if (d->n == 0)
		gw_buf_printf(&b, "  %s\n", _("(nothing to write)"));
	/* paths and names from outside: escaped (doc/design.md 5.3) */
	if (b.len)
		gw_buf_put_escaped(out, b.data);
	gw_buf_free(&b);
}

static json_t *
vmx_json(const gw_write_step *s, const char *backup)
{
	json_t *o = json_object(), *lines = json_array();
	size_t i;

	for (i = 0; i < s->nlines; i++)
		json_array_append_new(lines, gw_json_text(s->lines[i]));
	json_object_set_new(o, "path", gw_json_text(s->what));
	json_object_set_new(o, "on_host", json_boolean(s->kind == GW_WRITE_VMX_HOST));
	json_object_set_new(o, "command", s->command ? gw_json_text(s->command) : json_null());
	json_object_set_new(o, "changed", json_boolean(s->nlines > 0));
	json_object_set_new(o, "lines", lines);
	json_object_set_new(o, "backup", backup ? gw_json_text(backup) : json_null());
	return o;
}

json_t *
gw_write_desc_json(const gw_write_desc *d, const char *backup)
{
	json_t *o = json_object(), *host = json_array(), *files = json_array();
	json_t *vmx = NULL;
	size_t i;

	for (i = 0; i < d->n; i++) {
		const gw_write_step *s = &d->v[i];
		json_t *c;

		switch (s->kind) {
		case GW_WRITE_BACKUP:
			break;   /* the vmx's "backup" says where it went */
		case GW_WRITE_HOST:
			c = json_object();
			json_object_set_new(c, "change", gw_json_text(s->what));
			json_object_set_new(c, "command", s->command ? gw_json_text(s->command) : json_null());
			json_array_append_new(host, c);
			break;
		case GW_WRITE_VMX:
		case GW_WRITE_VMX_HOST:
			if (vmx == NULL)
				vmx = vmx_json(s, backup);
			break;
		case GW_WRITE_FILE:
			json_array_append_new(files, gw_json_text(s->what));
			break;
		}
	}
	json_object_set_new(o, "host_changes", host);
	json_object_set_new(o, "vmx", vmx ? vmx : json_null());
	json_object_set_new(o, "files", files);
	return o;
}
