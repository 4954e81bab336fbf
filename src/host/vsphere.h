/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsphere.h: a small vSphere Web Services (SOAP, vim25) client for what
 * gpuwiz needs on vCenter or a standalone ESXi host: log in, read the
 * inventory (hosts with their PCI devices and passthrough states, VMs
 * with their GPU-related settings) in a few round trips, enable
 * passthrough on a host device, reconfigure a VM (extraConfig, memory
 * reservation, PCI passthrough / vGPU devices) and upgrade its hardware
 * version, following the tasks to their end.
 *
 * Transport: libcurl, one easy handle per session (one kept-alive
 * connection; the session cookie "vmware_soap_session" lives in curl's
 * cookie engine).  Envelopes are built with libxml2 tree calls (so every
 * value is escaped) and answers are parsed with libxml2; nothing is ever
 * found by searching strings.  Each call is one HTTP POST to URL with
 * "Content-Type: text/xml; charset=utf-8" and "SOAPAction:
 * urn:vim25/VERSION" (the server's about.apiVersion once known).
 *
 * Conventions of gw.h: 0 / -1 with one translated line in gw_err; nothing
 * is printed.  The password is never logged, never put in an error text
 * and never kept after Login (the copy is wiped); curl's verbose mode is
 * never turned on.
 *
 * Certificates (decided on every new TLS connection, in the handshake,
 * before any byte of a request is sent):
 *  - default: verified against the system CAs (plus cafile when set),
 *    host name included;
 *  - thumbprint set: the leaf certificate's SHA-256 (of its DER) must be
 *    that value; the chain and the name are then not checked (a
 *    self-signed home-lab certificate).  A reconnect (keep-alive dropped,
 *    server restarted) is checked again, so the pin cannot be skipped;
 *  - insecure: nothing is checked (only when the user asked for it).
 * Needs libcurl built with OpenSSL (CURLOPT_SSL_CTX_FUNCTION).
 */
#ifndef GW_VSPHERE_H
#define GW_VSPHERE_H

#include "gw.h"
#include "idset.h"

/* Length of a SHA-256 fingerprint "AA:BB:...:FF" plus NUL. */
#define GW_VS_FP_LEN 96

typedef struct gw_vs_opts {
	const char *url;          /* "https://vc01/sdk", "vc01", "vc01:8989",
	                           * "https://[::1]:8989" ("https://HOST/sdk"
	                           * implied; "http://" and "user@" refused) */
	const char *user;
	const char *password;     /* never logged, never in error text */
	const char *thumbprint;   /* SHA-256 of the server's certificate,
	                           * "AA:BB:.." as `openssl x509 -fingerprint
	                           * -sha256` prints it (case-insensitive,
	                           * colons optional, a "sha256 Fingerprint="
	                           * prefix accepted); NULL = verify against
	                           * the system CAs */
	const char *cafile;       /* optional extra CA bundle (tests), NULL */
	int insecure;             /* no verification at all (only when asked) */
	int verbose;              /* each SOAP call, one line on stderr
	                           * (gw_trace): the method, the object it
	                           * is called on, the HTTP status or fault,
	                           * its time; never a body, a header or the
	                           * session cookie */
	char *untrusted;          /* NULL, or GW_VS_FP_LEN bytes: a certificate
	                           * that does not verify (neither the CAs
	                           * nor the pin) leaves its SHA-256
	                           * fingerprint here, "AA:BB:...:FF" (the
	                           * form thumbprint takes); "" otherwise
	                           * (gw_vs_connect only) */
	long connect_timeout;     /* seconds, 0 = 10 */
	long call_timeout;        /* seconds per SOAP call, 0 = 60 */
	long timeout;             /* seconds for the whole session, from
	                           * gw_vs_new on (connecting, logging in,
	                           * every call): each call may take what is
	                           * left, and one that runs out names its
	                           * stage ("while connecting", "while
	                           * logging in", "while waiting for the
	                           * answer to METHOD"); connect_timeout and
	                           * call_timeout then do not bound a call;
	                           * 0 = none */
} gw_vs_opts;

typedef struct gw_vs gw_vs;

/* The options checked, curl set up, then RetrieveServiceContent and
 * Login (gw_vs_new and gw_vs_login, vs_seams.h); NULL on failure
 * (nothing left open).  Errors, each one line naming the server (never
 * the password):
 *  - a certificate that does not verify: "... is not trusted (REASON) ...
 *    its SHA-256 fingerprint is XX:..: check it, then pin it with
 *    --thumbprint XX:.. or use --insecure";
 *  - a thumbprint mismatch: expected and got; nothing was sent;
 *  - InvalidLogin: wrong user name or password;
 *  - cannot resolve / connect, connect or call timeout, the timeout of
 *    the whole session (its stage named);
 *  - not a vSphere endpoint (HTTP error, an answer that is not a SOAP
 *    envelope, a service content without the managers). */
gw_vs *gw_vs_connect(const gw_vs_opts *o, gw_err *e);

/* 0 when this build has the vSphere module (configure's --with-vsphere,
 * the default); else -1 and e set to the one line that refuses the
 * vSphere API (gpuwiz vsphere, --url, the wizard's vSphere route). */
int gw_vs_available(gw_err *e);

/* Logout (errors ignored; not sent when never logged in), free.  NULL ok. */
void gw_vs_close(gw_vs *s);
/* HTTP POSTs attempted so far (one failed in the TLS handshake counts).
 * A NotAuthenticated fault after login (session expired or ended on the
 * server) fails any call with "the session has expired ...; log in
 * again": there is no silent re-login (the password is not kept). */
unsigned gw_vs_round_trips(const gw_vs *s);
/* about.apiType == "VirtualCenter" (0 for "HostAgent": a standalone ESXi). */
int gw_vs_is_vcenter(const gw_vs *s);
/* about.fullName ("VMware ESXi 8.0.2 build-22380479"); "" before login. */
const char *gw_vs_full_name(const gw_vs *s);

/* ---- inventory ------------------------------------------------------- */

typedef enum {
	GW_VS_POWER_UNKNOWN,
	GW_VS_POWER_ON,
	GW_VS_POWER_OFF,
	GW_VS_POWER_SUSPENDED
} gw_vs_power;

typedef struct gw_vs_pci {
	char *id;                 /* "0000:3b:00.0" as the API gives it */
	unsigned vendor, device, subvendor, subdevice, class_id;
	                          /* unsigned 16-bit (the API's shorts are
	                           * signed: converted) */
	char *vendor_name, *device_name;
	int passthru_capable, passthru_enabled, passthru_active;
	                          /* from config.pciPassthruInfo; -1 unknown */
	char *system_id;          /* from QueryConfigTarget's pciPassthrough
	                           * (enabled devices), else NULL */
	char *graphics_type;      /* config.graphicsInfo's graphicsType:
	                           * "basic", "shared", "direct",
	                           * "sharedDirect"; NULL when not listed */
} gw_vs_pci;

typedef struct gw_vs_host {
	char *moref;              /* "host-21" */
	char *name;
	char *version, *build;    /* config.product.version / build: "8.0.2",
	                           * "22380479"; NULL unknown */
	char *passthru_moref;     /* configManager.pciPassthruSystem, NULL when
	                           * absent */
	char *envbrowser_moref;   /* the parent compute resource's
	                           * environmentBrowser (QueryConfigTarget) */
	int config_target_read;   /* QueryConfigTarget asked already */
	char *graphics_type;      /* config.graphicsConfig.
	                           * hostDefaultGraphicsType: "shared",
	                           * "sharedDirect"; NULL unknown */
	long nvgpu_types;         /* config.sharedPassthruGpuTypes: how many
	                           * vGPU profiles the host offers; -1 when
	                           * not asked (servers before 6.5) */
	char *vgpu_type;          /* the first of them, NULL when none */
	gw_vs_pci *pci;           /* hardware.pciDevice: all devices, in the
	                           * order given */
	size_t npci;
} gw_vs_host;

typedef struct gw_vs_dev {        /* a VirtualPCIPassthrough in the VM */
	int key;
	char *label;              /* deviceInfo.label, NULL when absent */
	char *id;                 /* DeviceBackingInfo id ("0000:3b:00.0"),
	                           * NULL for vGPU */
	unsigned vendor, device;  /* 0 for vGPU */
	char *system_id;
	char *vgpu;               /* VmiopBackingInfo vgpu ("nvidia_l40s-24c"),
	                           * NULL for a device */
	int dynamic;              /* DynamicBackingInfo: vendor and device
	                           * from its allowedDevice, no id */
} gw_vs_dev;

typedef struct gw_vs_vm {
	char *moref, *name, *host_moref;
	int hw_version;           /* config.version "vmx-19" -> 19; 0 unknown */
	char *firmware;           /* "efi" / "bios" / NULL */
	long memory_mb;           /* 0 unknown */
	int reserve_locked;       /* config.memoryReservationLockedToMax: 1/0,
	                           * -1 unknown */
	char **ec_keys, **ec_vals;/* config.extraConfig, in the order given */
	size_t nec;
	gw_vs_dev *devs;          /* only the VirtualPCIPassthrough devices */
	size_t ndevs;
	gw_vs_power power;        /* runtime.powerState */
	char *vmx_path;           /* config.files.vmPathName "[ds] vm/vm.vmx" */
} gw_vs_vm;

/* A key of the inventory's index: a string of an entry (borrowed from
 * it) and the entry's position. */
typedef struct gw_vs_key {
	const char *key;
	size_t i;
} gw_vs_key;

typedef struct gw_vs_inventory {
	gw_vs_host *hosts;        /* sorted by name (then moref) */
	size_t nhosts;
	gw_vs_vm *vms;            /* sorted by name (then moref) */
	size_t nvms;
	/* the index (gw_vs_inventory_index), built once per read: every
	 * lookup of a VM or host by name or moref a bsearch, and the
	 * passthrough devices attached to each host's VMs a hash set */
	int indexed;
	gw_vs_key *vm_morefs;     /* sorted by strcmp */
	gw_vs_key *vm_inames;     /* VM names, sorted case-insensitively */
	gw_vs_key *host_morefs;   /* sorted by strcmp */
	gw_idset attached;        /* gw_vs_attached_key of each VM device */
} gw_vs_inventory;

/* The whole inventory in a few round trips, whatever the number of VMs:
 *  1. CreateContainerView on rootFolder for HostSystem, VirtualMachine and
 *     ComputeResource (clusters included), recursive;
 *  2. RetrievePropertiesEx with one propSet per type (hosts: name,
 *     hardware.pciDevice, config.pciPassthruInfo, config.product,
 *     configManager.pciPassthruSystem, parent; compute resources:
 *     environmentBrowser; VMs: name, config.version, config.firmware,
 *     config.hardware.memoryMB, config.memoryReservationLockedToMax,
 *     config.extraConfig, config.hardware.device, runtime.powerState,
 *     runtime.host, config.files.vmPathName), then
 *     ContinueRetrievePropertiesEx while a token comes back;
 *  3. DestroyView;
 *  4. one QueryConfigTarget per host that has a device with passthrough
 *     enabled (or unknown), for the systemIds.
 * So 3 + hosts with passthrough devices round trips.  A VM without
 * readable config (inaccessible) is kept with what could be read.  On
 * failure inv is left empty. */
int gw_vs_inventory_get(gw_vs *s, gw_vs_inventory *inv, gw_err *e);
void gw_vs_inventory_free(gw_vs_inventory *inv);
/* Build inv's index (sorted keys, the attached devices' set) once its
 * VMs and hosts are final (gw_vs_parse_inventory_finish does); freed by
 * gw_vs_inventory_free.  The finders below use it when built and walk
 * the arrays otherwise (an inventory made by hand). */
void gw_vs_inventory_index(gw_vs_inventory *inv);
/* (the attached set's keys: gw_vs_attached_key, vsapply.h) */
void gw_vs_inventory_index_free(gw_vs_inventory *inv);
/* The devices of vm (one of inv's VMs) from the first-th on, added to
 * inv's attached set (gw_vs_inventory_note_adds, vsapply.h). */
/* vm (one of inv's VMs) read again from the server (one
 * RetrievePropertiesEx of its properties, no view), in place: after its
 * upgrade, the rest of the inventory as it was.  Its name and moref stay
 * (the index holds them); a device it has gained is noted in the
 * attached set.  0, or -1 with e (the VM as it was). */
int gw_vs_vm_read_again(gw_vs *s, gw_vs_inventory *inv, const gw_vs_vm *vm,
                        gw_err *e);
void gw_vs_inventory_note_devs(gw_vs_inventory *inv, const gw_vs_vm *vm,
                               size_t first);
/* A VM by moref ("vm-42"), else by exact name, else by case-insensitive
 * name when exactly one matches; NULL otherwise. */
const gw_vs_vm *gw_vs_find_vm(const gw_vs_inventory *inv,
                              const char *name_or_moref);
/* A host by moref (or by name). */
const gw_vs_host *gw_vs_find_host(const gw_vs_inventory *inv,
                                  const char *moref);
/* A host's device by PCI id (any form gw_bdf_parse takes), or NULL. */
const gw_vs_pci *gw_vs_host_pci(const gw_vs_host *h, const char *pci_id);

/* ---- actions ----------------------------------------------------------- */

/* Progress of a task: what (translated, e.g. "reconfiguring VM llm01")
 * and pct 0-100, -1 unknown.  Called at least once at the start and once
 * with 100 on success. */
typedef void (*gw_vs_progress_fn)(void *ctx, const char *what, int pct);

/* UpdatePassthruConfig on h->passthru_moref ({id, passthruEnabled true,
 * and applyNow true for API 7.0 and later, like esxcli's -a}).  pci_id
 * must be one of h's devices (any form gw_bdf_parse takes); a device
 * with passthruCapable false is refused (the IOMMU, VT-d / AMD-Vi, is
 * probably off in the BIOS); one already enabled needs nothing (0,
 * nothing sent).  No passthru_moref, NotSupported, an unknown
 * method or object: "this server cannot enable passthrough through the
 * API; use the SSH route (gpuwiz passthru --ssh root@HOST --enable ID)".
 * Free ESXi's RestrictedVersion / "license ... prohibits" fault: says the
 * free license refuses API writes and names the SSH route.  The host may
 * need a reboot before the device is active (passthru_active in a fresh
 * inventory; QueryConfigTarget gives its systemId only then). */
int gw_vs_enable_passthru(gw_vs *s, const gw_vs_host *h, const char *pci_id,
                          gw_err *e);

typedef struct gw_vs_add {        /* one device to add */
	const char *id;           /* passthrough: host PCI id "0000:3b:00.0";
	                           * NULL for vGPU */
	unsigned vendor, device;  /* passthrough: ids (deviceId goes out as 4
	                           * hex digits "26b9", vendorId as the signed
	                           * short) */
	const char *system_id;    /* passthrough: QueryConfigTarget's systemId */
	const char *vgpu;         /* vGPU profile, NULL for passthrough */
	const char *device_name;  /* optional backing deviceName (the host's
	                           * device name); NULL sends "" */
	int dynamic;              /* Dynamic DirectPath I/O: id and
	                           * system_id NULL, vendor and device go
	                           * out as VirtualPCIPassthroughDynamic-
	                           * BackingInfo's allowedDevice */
} gw_vs_add;

typedef struct gw_vs_spec {
	const char *const *ec_keys;   /* extraConfig to set */
	const char *const *ec_vals;
	size_t nec;
	int reserve_locked;       /* -1 leave, 0/1 set
	                           * memoryReservationLockedToMax */
	const gw_vs_add *adds;
	size_t nadds;
} gw_vs_spec;

/* ReconfigVM_Task with the VirtualMachineConfigSpec above (extraConfig
 * OptionValues with xsd:string values, memoryReservationLockedToMax,
 * deviceChange "add" of VirtualPCIPassthrough devices with negative keys
 * and a VirtualPCIPassthroughDeviceBackingInfo {deviceName, id, deviceId,
 * systemId, vendorId} or VirtualPCIPassthroughVmiopBackingInfo {vgpu}).
 * Nothing to change: 0 at once, nothing sent, cb told "already
 * configured" with 100.  A VM not powered off (per vm->power) is refused
 * with nothing sent.  Then the task is polled (RetrievePropertiesEx of
 * its info about every 250 ms, at most 5 x call_timeout in all), cb
 * called with its progress; a task error gives its fault's
 * localizedMessage in one line; the connection lost while the task runs:
 * "the server went away while the task was running; check the VM in the
 * vSphere Client before trying again". */
int gw_vs_reconfigure(gw_vs *s, const gw_vs_vm *vm, const gw_vs_spec *spec,
                      gw_vs_progress_fn cb, void *ctx, gw_err *e);

/* UpgradeVM_Task version "vmx-NN", polled like gw_vs_reconfigure.
 * Refused with nothing sent unless vm->power is off, 4 <= target_hw <= 22
 * and target_hw > vm->hw_version (never down; equal: "already vmx-NN"). */
int gw_vs_upgrade(gw_vs *s, const gw_vs_vm *vm, int target_hw,
                  gw_vs_progress_fn cb, void *ctx, gw_err *e);

/* ---- many VMs at once (doc/design.md 4.5) ------------------------------ */

/* The inventory of gw_vs_inventory_get for an apply to some VMs: these
 * VMs (by moref, exact name or case-insensitive name, as gw_vs_find_vm)
 * keep everything; the others only what a device pick needs (moref,
 * name, host, power, passthrough devices).  Pages of at most
 * GW_VS_PAGE_OBJECTS objects, each pruned before the next is asked for,
 * so memory stays flat in the VM count; and no QueryConfigTarget (see
 * gw_vs_host_system_ids).  names are copied; n 0 ends the filter. */
void gw_vs_set_vm_names(gw_vs *s, const char *const *names, size_t n);
#define GW_VS_PAGE_OBJECTS 5000

/* QueryConfigTarget for h's systemIds, once per host (0 when already
 * read or when the server does not say: not fatal). */
int gw_vs_host_system_ids(gw_vs *s, gw_vs_host *h, gw_err *e);

/* A task of the batch has ended: vm, error (the translated line, NULL on
 * success), and the counts so far of tasks done, failed, and started. */
typedef void (*gw_vs_task_done_fn)(void *ctx, const char *vm,
                                   const char *error, unsigned done,
                                   unsigned failed, unsigned total);

/* n 0 (the default): gw_vs_reconfigure waits for its own task.  n >= 1:
 * gw_vs_reconfigure starts ReconfigVM_Task and returns once it is
 * started; when n are in flight it first waits until half of them have
 * ended (one RetrievePropertiesEx of the open tasks' state first, so
 * tasks go out in windows; UINT_MAX: no window); cb hears of every
 * task's end, and gw_vs_tasks_wait waits for the rest, their states read
 * first (at most 5,000 tasks a call).  The tasks still open at a wait
 * are put in the session's one ListView of tasks (ModifyListView, at
 * most 5,000 at a time), which one PropertyFilter follows (info.state,
 * info.error), and WaitForUpdatesEx answers for them all (vs_tasks.c,
 * doc/design.md 4.5). */
void gw_vs_set_parallel(gw_vs *s, unsigned n, gw_vs_task_done_fn cb,
                        void *ctx);
/* Wait for every task started since: 0 all succeeded, 1 some failed
 * (each told to cb), -1 with e (the connection lost: what the others did
 * is unknown).  The view and its filter stay until the session ends. */
int gw_vs_tasks_wait(gw_vs *s, gw_err *e);

#endif
