/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_seams.h: the vSphere module's functions that its files share with
 * the unit tests (tests/unit/host/test_vsphere*.c, test_esxi_vgpu.c) and
 * the fuzz target (tests/fuzz/fuzz_vsphere.c): the halves of
 * gw_vs_connect, the session's state, the request builder and the
 * parsers of saved answers, each a pure function of its input.  They are
 * not part of the module's boundary (vsphere_api.def): code outside the
 * module includes vsphere.h, never this header.
 */
#ifndef GW_VS_SEAMS_H
#define GW_VS_SEAMS_H

#include "vsphere.h"

/* Length of a normalised SHA-256 thumbprint "AA:BB:...:FF" plus NUL. */
#define GW_VS_THUMB_LEN GW_VS_FP_LEN

/* The two halves of gw_vs_connect, for callers (and tests) that want the
 * session object even when the login fails (gw_vs_round_trips):
 * gw_vs_new checks the options (URL, thumbprint syntax, SHA-1 thumbprints
 * refused with a hint) and sets up curl, with no network I/O; gw_vs_login
 * runs RetrieveServiceContent (apiType, apiVersion, the managers) and then
 * Login.  The password is copied by gw_vs_new and wiped by gw_vs_login
 * (success or not) and gw_vs_close; a second gw_vs_login fails. */
gw_vs *gw_vs_new(const gw_vs_opts *o, gw_err *e);
int gw_vs_login(gw_vs *s, gw_err *e);

/* ---- requests and answers ---------------------------------------------- */

/* What gw_vs_reconfigure would send for vm, after dropping what the VM
 * already has: extraConfig keys whose value is already the one asked
 * (keys compared case-insensitively, values exactly), the reservation
 * when already so, a passthrough device whose PCI id is already attached
 * (or asked twice), and vGPUs of a profile the VM already has as many
 * of.  Returns the number of changes left (0: nothing to do) and, when
 * body is not NULL and there are changes, the whole SOAP envelope of the
 * ReconfigVM_Task call in *body (malloc'ed; the caller frees; NULL when
 * nothing to do).  -1 with e set on a bad spec (an add with neither id
 * nor vgpu, or both; an extraConfig key that is empty or has control
 * characters; a PCI id gw_bdf_parse refuses). */
int gw_vs_reconfigure_body(const gw_vs_vm *vm, const gw_vs_spec *spec,
                           const char *api_version, char **body, gw_err *e);

/* ---- helpers ----------------------------------------------------------- */

/* SHA-256 of der as "AA:BB:..." into out. */
void gw_vs_thumbprint_of_der(const unsigned char *der, size_t len,
                             char out[GW_VS_THUMB_LEN]);

/* A parsed SOAP fault. */
typedef struct gw_vs_fault {
	char *type;               /* "InvalidLogin", "RestrictedVersion", ...
	                           * (detail's xsi:type, else its element name
	                           * less "Fault"); NULL when unknown */
	char *message;            /* faultstring, NULL when empty */
} gw_vs_fault;
void gw_vs_fault_free(gw_vs_fault *f);

/* Parse a whole SOAP answer (text of len bytes): 1 when it is a fault
 * (filled in *fault), 0 when it is a normal answer, -1 when it is not a
 * SOAP envelope at all (e set). */
int gw_vs_parse_fault(const char *text, size_t len, gw_vs_fault *fault,
                      gw_err *e);

/* Parse the answers of RetrievePropertiesEx / ContinueRetrievePropertiesEx
 * into inv (added to what is there; compute resources are remembered in
 * the hidden part of the parse state, so call with the same inv for every
 * page).  *token (may be NULL) gets the continuation token or NULL.  Used
 * by gw_vs_inventory_get; exposed for the fixtures. */
typedef struct gw_vs_parse_state gw_vs_parse_state;
gw_vs_parse_state *gw_vs_parse_state_new(void);
void gw_vs_parse_state_free(gw_vs_parse_state *ps);
int gw_vs_parse_inventory_page(gw_vs_parse_state *ps, const char *text,
                               size_t len, gw_vs_inventory *inv,
                               char **token, gw_err *e);
/* Finish: hosts get their environmentBrowser from their parent, both
 * lists are sorted. */
void gw_vs_parse_inventory_finish(gw_vs_parse_state *ps,
                                  gw_vs_inventory *inv);
/* A QueryConfigTarget answer: system_id of h's devices listed in
 * pciPassthrough. */
int gw_vs_parse_config_target(const char *text, size_t len, gw_vs_host *h,
                              gw_err *e);
/* A RetrievePropertiesEx (or RetrieveProperties) answer for a
 * HostGraphicsManager's graphicsConfig: *type = its
 * hostDefaultGraphicsType ("shared", "sharedDirect"), malloc'ed; -1 with
 * e when it is missing, a fault or not an envelope (vs_graphics.c). */
int gw_vs_parse_graphics_config(const char *text, size_t len, char **type,
                                gw_err *e);

/* A task's info (RetrievePropertiesEx of a Task's "info"). */
typedef struct gw_vs_task_info {
	int state;                /* 0 queued, 1 running, 2 success, 3 error,
	                           * -1 unknown */
	int progress;             /* -1 unknown */
	char *fault_type;         /* error.fault xsi:type, NULL */
	char *fault_message;      /* error.localizedMessage, NULL */
} gw_vs_task_info;
int gw_vs_parse_task_info(const char *text, size_t len, gw_vs_task_info *ti,
                          gw_err *e);
void gw_vs_task_info_free(gw_vs_task_info *ti);

/* One object of a WaitForUpdatesEx answer (vs_tasks.c). */
typedef struct gw_vs_task_update {
	char *task;               /* obj: "task-12" */
	int left;                 /* kind "leave": off TaskManager.recentTask */
	int state;                /* info.state as gw_vs_task_info's, -1 not
	                           * in this update */
	int progress;             /* info.progress, -1 not in it */
	char *fault_type;         /* info.error.fault xsi:type, NULL */
	char *fault_message;      /* info.error.localizedMessage, NULL */
} gw_vs_task_update;
/* The objects of every filterSet in *ups (*n of them, malloc'ed; none when
 * maxWaitSeconds passed), the new version in *version (kept when the
 * answer has none), *truncated from the answer.  -1 with e when it is not
 * an envelope or is a fault. */
int gw_vs_parse_task_updates(const char *text, size_t len,
                             gw_vs_task_update **ups, size_t *n,
                             char **version, int *truncated, gw_err *e);
/* Each of n updates and the array. */
void gw_vs_task_updates_free(gw_vs_task_update *ups, size_t n);

#endif
