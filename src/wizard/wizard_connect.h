/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_connect.h: the routes that connect from inside the wizard (an
 * ESXi host over SSH, vCenter or ESXi through the API), without
 * restarting gpuwiz with --ssh or --url (doc/design.md, section 9, "The
 * routes that connect").  The welcome screen's box (ui/connect.c) asks
 * for the fields a route's form lists and calls gw_wizard_connect; an
 * answers file's replay calls gw_wizard_connect_ssh / _api with the
 * address it saved.  Part of the wizard's interface. */
#ifndef GW_WIZARD_CONNECT_H
#define GW_WIZARD_CONNECT_H

#include "wizard.h"

/* A SHA-256 fingerprint "AA:BB:...:FF" and its NUL (the host layer's
 * GW_VS_FP_LEN). */
#define GW_WIZARD_FP_LEN 96
/* gw_wizard_connect*: the certificate is not trusted (see there). */
#define GW_WIZARD_UNTRUSTED 1

/* One field of a route's connection box.  Texts are msgids: _() them. */
typedef struct gw_wizard_conn_field {
	const char *label;     /* "User@host", "Password" */
	const char *example;   /* shown while the field is empty, or NULL */
	int secret;            /* never shown, never kept (a password) */
	int digits;            /* 0-9 only (a port) */
} gw_wizard_conn_field;

#define GW_WIZARD_CONN_FIELDS 3
typedef struct gw_wizard_conn_form {
	const char *title;     /* the box's title */
	const char *about;     /* the sentence above the fields */
	size_t nfields;
	gw_wizard_conn_field fields[GW_WIZARD_CONN_FIELDS];
} gw_wizard_conn_form;

/* Route m's connection box; NULL when m does not connect (offline, this
 * Linux host). */
const gw_wizard_conn_form *gw_wizard_connect_form(gw_mode m);
/* The value field i of m's box starts with: that of the route's last
 * connection from the box or a replay (never a secret one), else NULL
 * (malloc'ed). */
char *gw_wizard_connect_value(const gw_wizard *w, gw_mode m, size_t i);

/* Connect route m with the values of its box (values[i] for field i,
 * NULL or "" for an empty one): gw_wizard_connect_ssh or _api.  pin: the
 * fingerprint the operator accepted after GW_WIZARD_UNTRUSTED (NULL the
 * first time). */
int gw_wizard_connect(gw_wizard *w, gw_mode m, const char *const *values,
                      const char *pin, char fp[GW_WIZARD_FP_LEN], gw_err *e);

/* Connect to an ESXi host over SSH as --ssh does (the host layer's
 * gw_host_open: ssh's own ControlMaster, host keys checked against
 * known_hosts, keys only: no password prompt inside the screens), then
 * work on it: the route GW_MODE_ESXI_SSH is chosen and the host read
 * (its check rows, GPUs and VMs), as gw_wizard_new does for --ssh.
 * target "user@host"; port NULL or "" for 22; identity NULL or "" for
 * ssh's own keys ("~/" is the home directory).  What is being done goes
 * to gw_wizard_set_progress's function.  -1 and e (one line naming the
 * field, or the host and what failed) on failure: nothing changes. */
int gw_wizard_connect_ssh(gw_wizard *w, const char *target, const char *port,
                          const char *identity, gw_err *e);
/* Connect to vCenter or ESXi through the API as --url and --user do,
 * then work on it (GW_MODE_VSPHERE, read as above).  thumbprint NULL: the
 * certificate must verify against the system CAs; else it is pinned to
 * that SHA-256, as --thumbprint pins it.  The password is used for the
 * login only: never kept, saved or shown.  Returns 0 when connected;
 * GW_WIZARD_UNTRUSTED when the certificate does not verify and no
 * thumbprint was given: fp gets its SHA-256 fingerprint for the operator
 * to compare with the server's, who may trust it (then call again with
 * thumbprint = fp), and e the host layer's line; -1 and e otherwise.
 * Nothing changes unless 0. */
int gw_wizard_connect_api(gw_wizard *w, const char *url, const char *user,
                          const char *password, const char *thumbprint,
                          char fp[GW_WIZARD_FP_LEN], gw_err *e);

/* The route whose box opens first, for the answers file's API host
 * (its URL and user pre-filled, the password asked): GW_MODE_VSPHERE,
 * or GW_NMODES when none waits. */
gw_mode gw_wizard_connect_pending(const gw_wizard *w);
/* The fingerprint route m's box pins the certificate to (the answers
 * file's [host] thumbprint, or the one accepted last), else NULL. */
const char *gw_wizard_connect_pin(const gw_wizard *w, gw_mode m);

/* How the host the wizard works on was reached from the box or a replay
 * (for the answers file's [host]): the route and its address pieces, the
 * others NULL; never a password.  -1 when the host was not connected by
 * gw_wizard_connect_* (none, a sample, --ssh or --url given to gpuwiz). */
typedef struct gw_wizard_address {
	gw_mode mode;             /* GW_MODE_ESXI_SSH or GW_MODE_VSPHERE */
	const char *target, *port, *identity;   /* over SSH */
	const char *url, *user, *thumbprint;    /* through the API */
} gw_wizard_address;
int gw_wizard_address_of(const gw_wizard *w, gw_wizard_address *out);

#endif
