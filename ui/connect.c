/* SPDX-License-Identifier: GPL-3.0-or-later */
/* connect.c: the connection box of the routes that connect from the
 * welcome screen (wizard_connect.h): the route's fields (its form: an
 * ESXi host over SSH asks for user@host, port and identity file; the API
 * for URL, user and a password that is never shown), Enter connects with
 * a progress box, a failure comes back as one line in the box; a
 * certificate the system does not trust is shown by its fingerprint and
 * asked about (default No), as ssh asks about an unknown host key. */
#include "connect.h"
#include "dialog.h"
#include "draw.h"
#include "field.h"
#include "wizard_connect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct conn_box {
	gw_mode m;
	const gw_wizard_conn_form *form;
	ui_field f[GW_WIZARD_CONN_FIELDS];
	size_t cur;               /* the field with the focus */
	char *error;              /* the last failure, or NULL */
} conn_box;

/* The label column: the widest label with its colon. */
static int
label_cells(const conn_box *b)
{
	size_t i;
	int w = 0;

	for (i = 0; i < b->form->nfields; i++) {
		char *l = gw_xasprintf(_("%s: "), _(b->form->fields[i].label));
		int c = gw_text_cells(l);

		free(l);
		if (c > w)
			w = c;
	}
	return w;
}

static void
box_draw(ui_ctx *u, conn_box *b)
{
	int bw = ui_box_width(), bh, y, x, rows, erows = 0, lw, i;
	const char *keys[7];

	rows = dw_wrap_rows(_(b->form->about), bw - 4);
	if (rows > 3)
		rows = 3;
	if (b->error) {
		erows = dw_wrap_rows(b->error, bw - 4);
		if (erows > 4)
			erows = 4;
	}
	bh = 1 + rows + 1 + (int)b->form->nfields + 1 +
	     (erows ? erows + 1 : 0) + 2;
	ui_box_place(bh, bw, &y, &x);
	dw_box(y, x, bh, bw, ui_attr(UI_C_BOX));
	ui_box_title(y, x, bw, _(b->form->title));
	dw_wrap_put(y + 1, x + 2, bw - 4, rows, _(b->form->about), A_NORMAL);
	lw = label_cells(b);
	for (i = 0; i < (int)b->form->nfields; i++) {
		const gw_wizard_conn_field *fd = &b->form->fields[i];
		int fy = y + 2 + rows + i, fx = x + 2 + lw;
		/* TRANSLATORS: a field's label in the connection box
		 * (User@host, Port...) and its colon. */
		char *l = gw_xasprintf(_("%s: "), _(fd->label));

		dw_put(fy, x + 2, l, lw, (size_t)i == b->cur ? A_BOLD : A_NORMAL);
		free(l);
		ui_field_draw(u, &b->f[i], fy, fx, bw - 4 - lw,
		              (size_t)i == b->cur);
		if (ui_field_empty(&b->f[i]) && fd->example && !fd->secret)
			dw_put(fy, fx, _(fd->example), bw - 4 - lw,
			       ui_attr((size_t)i == b->cur ? UI_C_FIELD_FOCUS :
			                                     UI_C_FIELD) | A_DIM);
	}
	if (erows)
		dw_wrap_put(y + 3 + rows + (int)b->form->nfields, x + 2, bw - 4,
		            erows, b->error, ui_attr(UI_C_FAIL));
	keys[0] = "Enter";
	/* TRANSLATORS: keys of the connection box; at most 12 cells
	 * each. */
	keys[1] = _("Connect");
	keys[2] = "Tab";
	keys[3] = _("Next field");
	keys[4] = "Esc";
	keys[5] = _("Cancel");
	keys[6] = NULL;
	ui_box_keys(y + bh - 2, x + 2, bw - 4, keys);
}

static void
set_error(conn_box *b, const char *msg)
{
	free(b->error);
	b->error = msg ? gw_xstrdup(msg) : NULL;
}

/* The fingerprint in two rows of 16 bytes (a row of 95 characters would
 * be cut at 80 columns). */
static char *
fp_rows(const char *fp)
{
	size_t half = strlen(fp) > 48 ? 48 : strlen(fp);

	return gw_xasprintf("%.*s\n%s", (int)(half ? half - 1 : 0), fp,
	                    fp + half);
}

/* Ask whether to trust the certificate of what (the URL) whose
 * fingerprint is fp: 1 yes, 0 no, -1 ending. */
static int
ask_trust(ui_ctx *u, const char *what, const char *fp)
{
	char *rows = fp_rows(fp), *q;
	int r;

	/* TRANSLATORS: the question when the server's certificate is not
	 * trusted; %1$s is the URL, %2$s the fingerprint on two rows.
	 * Wrapped; the default answer is No. */
	q = gw_xasprintf(_("The certificate of %1$s is not trusted by this system (self-signed, or its CA is not known here). Its SHA-256 fingerprint is:\n%2$s\nCompare it with the server's own (on the ESXi shell: openssl x509 -in /etc/vmware/ssl/rui.crt -noout -fingerprint -sha256). Trust this certificate and connect? gpuwiz then accepts this certificate only."),
	                 what, rows);
	r = ui_confirm_no(u, q);
	free(q);
	free(rows);
	return r;
}

/* Connect with the box's values; 0 connected, -1 not (b->error says
 * why, or the operator ended). */
static int
box_connect(ui_ctx *u, conn_box *b)
{
	char *v[GW_WIZARD_CONN_FIELDS] = { NULL };
	char fp[GW_WIZARD_FP_LEN], pin[GW_WIZARD_FP_LEN];
	size_t i;
	gw_err e;
	int rc, yes;

	for (i = 0; i < b->form->nfields; i++)
		v[i] = ui_field_get(&b->f[i]);
	memset(&e, 0, sizeof e);
	/* the answers file's (or the last accepted) pin, else none */
	rc = gw_wizard_connect(u->w, b->m, (const char *const *)v,
	                       gw_wizard_connect_pin(u->w, b->m), fp, &e);
	if (rc == GW_WIZARD_UNTRUSTED) {
		yes = ask_trust(u, v[0], fp);
		if (yes == 1) {
			memset(&e, 0, sizeof e);
			snprintf(pin, sizeof pin, "%s", fp);
			rc = gw_wizard_connect(u->w, b->m, (const char *const *)v,
			                       pin, fp, &e);
		} else {
			/* TRANSLATORS: after No to the certificate question;
			 * %s is the URL. */
			gw_err_set(&e, _("Not connected: you did not trust the certificate of %s."),
			           v[0]);
			rc = -1;
		}
	}
	/* keys typed while the connection blocked do not act on the box */
	flushinp();
	set_error(b, rc == 0 ? NULL : gw_err_text(&e, 1));
	for (i = 0; i < b->form->nfields; i++) {
		if (v[i] && b->form->fields[i].secret)
			memset(v[i], 0, strlen(v[i]));
		free(v[i]);
	}
	u->repaint = UI_REPAINT_FULL;
	return rc == 0 ? 0 : -1;
}

/* A key of the box: 1 connected, 0 cancelled, 2 go on. */
static int
box_key(ui_ctx *u, conn_box *b, ui_key k)
{
	size_t n = b->form->nfields;

	if (ui_key_esc(k))
		return 0;
	if (ui_key_enter(k))
		return box_connect(u, b) == 0 ? 1 : 2;
	if (ui_key_tab(k) || ui_key_fn(k, KEY_DOWN)) {
		b->cur = (b->cur + 1) % n;
		return 2;
	}
	if (ui_key_btab(k) || ui_key_fn(k, KEY_UP)) {
		b->cur = (b->cur + n - 1) % n;
		return 2;
	}
	if (ui_key_fn(k, KEY_MOUSE)) {
		MEVENT ev;

		getmouse(&ev);
		return 2;
	}
	ui_field_key(&b->f[b->cur], k);
	return 2;
}

/* The box of route m until it connects (0) or is left (-1). */
static int
connect_box(ui_ctx *u, gw_mode m)
{
	conn_box b;
	size_t i;
	int r = 2;

	memset(&b, 0, sizeof b);
	b.m = m;
	b.form = gw_wizard_connect_form(m);
	for (i = 0; i < b.form->nfields; i++) {
		char *v = gw_wizard_connect_value(u->w, m, i);

		b.f[i].secret = b.form->fields[i].secret;
		b.f[i].digits_only = b.form->fields[i].digits;
		ui_field_set(&b.f[i], v ? v : "");
		free(v);
	}
	/* the cursor on the first field left to fill (the password of an
	 * address the answers file gave) */
	for (i = 0; i < b.form->nfields; i++) {
		char *v = ui_field_get(&b.f[i]);
		int empty = v == NULL || *v == '\0';

		free(v);
		if (empty) {
			b.cur = i;
			break;
		}
	}
	while (r == 2) {
		ui_key k;
		int got;

		ui_draw_all(u);
		u->cursor_y = -1;
		if (!u->too_small)
			box_draw(u, &b);
		if (u->cursor_y >= 0) {
			move(u->cursor_y, u->cursor_x);
			curs_set(1);
		} else {
			curs_set(0);
		}
		got = ui_box_wait(u, &k);
		if (got < 0)
			r = 0;
		else if (got > 0 && !u->too_small)
			r = box_key(u, &b, k);
	}
	for (i = 0; i < b.form->nfields; i++)
		ui_field_free(&b.f[i]);
	free(b.error);
	curs_set(0);
	ui_box_closed(u);
	return r == 1 ? 0 : -1;
}

int
ui_connect_mode(ui_ctx *u, gw_mode m)
{
	const char *why = NULL;

	if (gw_wizard_mode_available(u->w, m, &why) ||
	    gw_wizard_connect_form(m) == NULL) {
		/* choosing this Linux host runs its checks the first time */
		if (gw_wizard_set_mode(u->w, m, &why) != 0) {
			ui_msg(u, UI_MSG_ERROR, "%s", why ? why : "");
			return -1;
		}
		return 0;
	}
	if (connect_box(u, m) != 0)
		return -1;
	/* TRANSLATORS: after connecting from the box; %s is the host's
	 * name (user@host, the URL). */
	ui_msg(u, UI_MSG_OK, _("Connected to %s."), gw_wizard_host_label(u->w));
	return 0;
}
