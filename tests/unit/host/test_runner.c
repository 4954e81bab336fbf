/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_runner.c: the command runner and the ESXi session helpers against
 * the esxcli / vim-cmd stand-ins (tests/esxi-standins).
 *
 * Local runner by default.  With GW_SSH_TEST_HOST set (tests/cli/
 * test_ssh.sh), the same tests run through the ssh runner:
 *   GW_SSH_TEST_HOST=user@127.0.0.1 GW_SSH_TEST_PORT GW_SSH_TEST_KEY
 *   GW_SSH_TEST_KNOWN_HOSTS GW_SSH_TEST_STANDINS (a copy of the stand-ins;
 *   their log is standin.log in it, the remote side sees no environment).
 * Stand-ins: $GW_STANDINS, else $GW_SRCDIR/tests/esxi-standins, else
 * tests/esxi-standins.  Each test gets an empty state directory for them
 * ($GW_STANDIN_STATE here, state/ beside the stand-ins over ssh) and
 * switches behaviours on with files in it (standin_flag: storage,
 * apply-now, iommu-off, ...), then asserts on what the stand-ins were
 * asked to run (their log). */
#include "testutil.h"
#include "runner_int.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *ssh_host;

static char *
standins_dir(void)
{
	const char *d = getenv("GW_SSH_TEST_STANDINS");
	char *cwd, *p;

	if (ssh_host && d && *d)
		return gw_xstrdup(d);
	d = getenv("GW_STANDINS");
	if (d && *d)
		return gw_xstrdup(d);
	d = getenv("GW_SRCDIR");
	if (d && *d)
		return gw_xasprintf("%s/tests/esxi-standins", d);
	cwd = getcwd(NULL, 0);
	assert_non_null(cwd);
	p = gw_xasprintf("%s/tests/esxi-standins", cwd);
	free(cwd);
	return p;
}

typedef struct fx {
	gw_runner *r;
	char *tmp;
	char *log;
	char *standins;
	char *state;      /* the stand-ins' state directory (see esxcli) */
} fx;

static gw_runner *
open_runner(const char *known_hosts, gw_err *e)
{
	const char *extra[16];
	char *kh;
	size_t n = 0;
	gw_runner *r;

	if (!ssh_host)
		return gw_runner_open_local();
	if (getenv("GW_SSH_TEST_PORT")) {
		extra[n++] = "-p";
		extra[n++] = getenv("GW_SSH_TEST_PORT");
	}
	if (getenv("GW_SSH_TEST_KEY")) {
		extra[n++] = "-i";
		extra[n++] = getenv("GW_SSH_TEST_KEY");
		extra[n++] = "-o";
		extra[n++] = "IdentitiesOnly=yes";
	}
	kh = gw_xasprintf("UserKnownHostsFile=%s",
	                  known_hosts ? known_hosts
	                  : getenv("GW_SSH_TEST_KNOWN_HOSTS"));
	extra[n++] = "-o";
	extra[n++] = kh;
	extra[n++] = "-o";
	extra[n++] = "GlobalKnownHostsFile=/dev/null";
	extra[n++] = "-F";
	extra[n++] = "/dev/null";
	extra[n] = NULL;
	r = gw_runner_open_ssh_prompt(ssh_host, extra, 0, e);
	free(kh);
	return r;
}

static int
setup(void **state)
{
	fx *f = gw_xcalloc(1, sizeof *f);
	gw_err e;

	f->tmp = tu_tmpdir();
	f->standins = standins_dir();
	if (ssh_host) {
		/* the remote side sees no environment: the stand-ins use the
		 * log and state directory beside them */
		f->log = gw_xasprintf("%s/standin.log", f->standins);
		unlink(f->log);
		f->state = gw_xasprintf("%s/state", f->standins);
	} else {
		f->log = gw_xasprintf("%s/standin.log", f->tmp);
		setenv("GW_STANDIN_LOG", f->log, 1);
		f->state = gw_xasprintf("%s/state", f->tmp);
		setenv("GW_STANDIN_STATE", f->state, 1);
	}
	if (mkdir(f->state, 0755) != 0)
		fail_msg("mkdir %s: %s", f->state, strerror(errno));
	e.msg[0] = '\0';
	f->r = open_runner(NULL, &e);
	if (f->r == NULL)
		fail_msg("open: %s", e.msg);
	gw_runner_set_path_prefix(f->r, f->standins);
	gw_runner_set_volumes_root(f->r, f->tmp);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	fx *f = *state;
	char *cmd = gw_xasprintf("rm -rf '%s' '%s'", f->tmp, f->state);

	gw_runner_close(f->r);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", f->tmp);
	if (ssh_host)
		unlink(f->log);
	free(cmd);
	free(f->tmp);
	free(f->log);
	free(f->standins);
	free(f->state);
	free(f);
	return 0;
}

static char *
slurp(const char *path)
{
	char *d = NULL;
	size_t n;
	gw_err e;

	if (gw_read_file(path, 1u << 20, &d, &n, &e) != 0)
		return NULL;
	return d;
}

static void
write_text(const char *path, const char *text, mode_t mode)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* Switch on a behaviour of the stand-ins (a file in their state
 * directory: storage, apply-now, iommu-off, ...). */
static void
standin_flag(fx *f, const char *name)
{
	char *p = gw_xasprintf("%s/%s", f->state, name);

	write_text(p, "", 0644);
	free(p);
}

/* The stand-ins' log so far, and a fresh one after. */
static char *
take_log(fx *f)
{
	char *log = slurp(f->log);

	unlink(f->log);
	return log ? log : gw_xstrdup("");
}

static void
log_is(fx *f, const char *want)
{
	char *log = take_log(f);

	assert_string_equal(log, want);
	free(log);
}

/* gw_esxi_session_list_pci, and the device at bdf (must be there). */
static const gw_esxi_pci_dev *
pci_dev(fx *f, gw_esxi_pci_list *l, const char *bdf)
{
	const gw_esxi_pci_dev *d;
	gw_err e;

	if (gw_esxi_session_list_pci(f->r, NULL, NULL, l, &e) != 0)
		fail_msg("list pci: %s", e.msg);
	d = gw_esxi_pci_find(l, bdf);
	if (d == NULL)
		fail_msg("%s not in the stand-in's pci list", bdf);
	return d;
}

/* ---- tests ------------------------------------------------------------ */

static void
test_run_quoting(void **state)
{
	fx *f = *state;
	const char *argv[] = {"printf", "%s|", "a'b c", "$HOME", "`id`", ";x",
	                      "", "new\nline", NULL};
	char *out, *err;
	int st;
	gw_err e;

	assert_int_equal(gw_runner_run(f->r, argv, &out, &err, &st, &e), 0);
	assert_int_equal(st, 0);
	assert_string_equal(out, "a'b c|$HOME|`id`|;x||new\nline|");
	assert_string_equal(err, "");
	free(out);
	free(err);
}

static void
test_run_status_and_errors(void **state)
{
	fx *f = *state;
	const char *bad[] = {"vim-cmd", "vmsvc/nope", NULL};
	const char *missing[] = {"gpuwiz-no-such-command-xyz", NULL};
	char *out = NULL, *err = NULL;
	int st;
	gw_err e;

	assert_int_equal(gw_runner_run(f->r, bad, &out, &err, &st, &e), 0);
	assert_int_equal(st, 1);
	assert_non_null(strstr(err, "Unknown command"));
	free(out);
	free(err);
	assert_int_equal(gw_runner_run_ok(f->r, bad, &out, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "vim-cmd vmsvc/nope"));
	assert_non_null(strstr(e.msg, "exit 1"));
	assert_non_null(strstr(e.msg, "Unknown command"));
	assert_int_equal(gw_runner_run(f->r, missing, &out, &err, &st, &e), 0);
	assert_int_equal(st, 127);
	free(out);
	free(err);
}

static void
test_run_timeout(void **state)
{
	fx *f = *state;
	const char *argv[] = {"sleep", "30", NULL};
	char *out = NULL;
	int st;
	gw_err e;

	f->r->timeout = 1;
	assert_int_equal(gw_runner_run(f->r, argv, &out, NULL, &st, &e), -1);
	assert_null(out);
	assert_non_null(strstr(e.msg, "no answer within 1 second;"));
}

static void
test_list_vms(void **state)
{
	fx *f = *state;
	gw_vm_list l;
	gw_err e;

	assert_int_equal(gw_esxi_session_list_vms(f->r, &l, &e), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.vms[0].vmid, 11);
	assert_string_equal(l.vms[0].name, "itachi_lab");
	assert_string_equal(l.vms[0].datastore, "datastore1");
	assert_string_equal(l.vms[0].path, "itachi_lab/itachi_lab.vmx");
	gw_vm_list_free(&l);
}

static void
test_list_pci(void **state)
{
	fx *f = *state;
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *d;
	gw_err e;

	assert_int_equal(gw_esxi_session_list_pci(f->r, NULL, NULL, &l, &e), 0);
	d = gw_esxi_pci_find(&l, "0000:3b:00.0");
	assert_non_null(d);
	assert_true(gw_esxi_pci_is_display(d));
	assert_int_equal(d->vendor_id, 0x10de);
	gw_esxi_pci_list_free(&l);
}

static void
test_power_state(void **state)
{
	fx *f = *state;
	gw_power p;
	gw_err e;

	assert_int_equal(gw_esxi_session_power_state(f->r, 11, &p, &e), 0);
	assert_int_equal(p, GW_POWER_OFF);
	assert_int_equal(gw_esxi_session_power_state(f->r, 12, &p, &e), 0);
	assert_int_equal(p, GW_POWER_ON);
	assert_int_equal(gw_esxi_session_power_state(f->r, 13, &p, &e), 0);
	assert_int_equal(p, GW_POWER_SUSPENDED);
	assert_int_equal(gw_esxi_session_power_state(f->r, 99, &p, &e), -1);
	assert_non_null(strstr(e.msg, "vim-cmd vmsvc/power.getstate 99"));
}

static void
test_enable_passthru_and_reload(void **state)
{
	fx *f = *state;
	int rb = -1;
	gw_err e;

	/* already configured and owned by VM Passthru: nothing is set */
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "3B:00.0", &rb,
	                                                 &e), 0);
	assert_int_equal(rb, 0);
	assert_int_equal(gw_esxi_session_reload(f->r, 11, &e), 0);
	rb = -1;
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:3b:00.0;"
	                                                 " reboot", &rb, &e), -1);
	assert_int_equal(rb, 0);
	assert_non_null(strstr(e.msg, "not a PCI address"));
	log_is(f, "esxcli hardware pci list\n"
	          "vim-cmd vmsvc/reload 11\n");
}

static void
test_enable_passthru_reboot_needed(void **state)
{
	fx *f = *state;
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *d;
	int rb = -1;
	gw_err e;

	/* B200: configured for passthrough, still owned by the VMkernel;
	 * set -a cannot apply it now, the host must reboot */
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:5e:00.0",
	                                                 &rb, &e), 0);
	assert_int_equal(rb, 1);
	log_is(f, "esxcli hardware pci list\n"
	          "esxcli hardware pci pcipassthru set -d 0000:5e:00.0 -e true -a\n"
	          "esxcli hardware pci list\n");
	/* the NIC: not configured; reboot needed, NULL is allowed */
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "02:00.1", NULL,
	                                                 &e), 0);
	d = pci_dev(f, &l, "0000:02:00.1");
	assert_string_equal(d->configured_owner, "VM Passthru");
	assert_string_equal(d->current_owner, "VMkernel");
	gw_esxi_pci_list_free(&l);
	gw_esxi_pci_list_free(&l);     /* harmless twice */
	free(take_log(f));
}

static void
test_enable_passthru_applied_now(void **state)
{
	fx *f = *state;
	int rb = -1;
	gw_err e;

	standin_flag(f, "apply-now");
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:02:00.1",
	                                                 &rb, &e), 0);
	assert_int_equal(rb, 0);
	log_is(f, "esxcli hardware pci list\n"
	          "esxcli hardware pci pcipassthru set -d 0000:02:00.1 -e true -a\n"
	          "esxcli hardware pci list\n");
	/* now on: a second call sets nothing */
	rb = -1;
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:02:00.1",
	                                                 &rb, &e), 0);
	assert_int_equal(rb, 0);
	log_is(f, "esxcli hardware pci list\n");
}

static void
test_enable_passthru_refused(void **state)
{
	fx *f = *state;
	int rb = -1;
	gw_err e;

	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:99:00.0",
	                                                 &rb, &e), -1);
	assert_int_equal(rb, 0);
	assert_string_equal(e.msg, "0000:99:00.0: no such PCI device on this "
	                    "host (esxcli hardware pci list does not list it)");
	log_is(f, "esxcli hardware pci list\n");

	/* the controller of the datastores: refused, nothing set */
	standin_flag(f, "storage");
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:18:00.0",
	                                                 &rb, &e), -1);
	assert_non_null(strstr(e.msg, "\"datastore1\""));
	log_is(f, "esxcli hardware pci list\n"
	          "esxcli storage core path list\n"
	          "esxcli storage vmfs extent list\n"
	          "esxcli storage core device list\n");
	/* a controller holding nothing passes the guard */
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:af:00.0",
	                                                 &rb, &e), 0);
	assert_int_equal(rb, 1);
	log_is(f, "esxcli hardware pci list\n"
	          "esxcli storage core path list\n"
	          "esxcli storage vmfs extent list\n"
	          "esxcli storage core device list\n"
	          "esxcli hardware pci pcipassthru set -d 0000:af:00.0 -e true -a\n"
	          "esxcli hardware pci list\n");

	/* ESXi before 7.0: no pcipassthru namespace */
	standin_flag(f, "no-pcipassthru");
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:5e:00.0",
	                                                 &rb, &e), -1);
	assert_string_equal(e.msg, "0000:5e:00.0 (GB100 [HGX B200 168GB]): this "
	                    "ESXi has no 'esxcli hardware pci pcipassthru' (it "
	                    "came with ESXi 7.0); before 7.0, turn passthrough "
	                    "on in the Host Client (Manage > Hardware > PCI "
	                    "Devices, Toggle passthrough) and reboot the host");
	free(take_log(f));

	/* the IOMMU off: every device says Passthru Capable: false */
	standin_flag(f, "iommu-off");
	assert_int_equal(gw_esxi_session_enable_passthru(f->r, "0000:5e:00.0",
	                                                 &rb, &e), -1);
	assert_string_equal(e.msg, "0000:5e:00.0 (GB100 [HGX B200 168GB]) "
	                    "cannot be passed through (Passthru Capable: false): "
	                    "the IOMMU (Intel VT-d or AMD-Vi) is probably off in "
	                    "the BIOS; turn it on there and reboot the host");
	log_is(f, "esxcli hardware pci list\n");
}

static void
test_guard_gpu_and_nic_run_nothing(void **state)
{
	fx *f = *state;
	gw_esxi_pci_list l;
	gw_err e;

	standin_flag(f, "storage");
	standin_flag(f, "storage-fails");    /* would fail if they ran */
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 pci_dev(f, &l, "0000:3b:00.0"), &e), 0);
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 gw_esxi_pci_find(&l, "0000:02:00.1"), &e), 0);
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 gw_esxi_pci_find(&l, "0000:03:00.0"), &e), 0);
	log_is(f, "esxcli hardware pci list\n");
	assert_int_equal(gw_esxi_session_passthru_guard(f->r, NULL, &e), -1);
	gw_esxi_pci_list_free(&l);
}

static void
test_guard_datastore_controller(void **state)
{
	fx *f = *state;
	gw_esxi_pci_list l;
	gw_err e;

	standin_flag(f, "storage");
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 pci_dev(f, &l, "0000:18:00.0"), &e), -1);
	assert_string_equal(e.msg, "0000:18:00.0 (SAS3008 PCI-Express "
	                    "Fusion-MPT SAS-3) is storage adapter vmhba0, which "
	                    "holds the datastores \"datastore1\", \"VM Store "
	                    "2\": passing it through would take them away from "
	                    "ESXi; refused");
	log_is(f, "esxcli hardware pci list\n"
	          "esxcli storage core path list\n"
	          "esxcli storage vmfs extent list\n"
	          "esxcli storage core device list\n");
	/* a free NVMe controller passes */
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 gw_esxi_pci_find(&l, "0000:af:00.0"), &e), 0);
	gw_esxi_pci_list_free(&l);
}

static void
test_guard_boot_controller(void **state)
{
	fx *f = *state;
	gw_esxi_pci_list l;
	gw_esxi_pci_dev usb;
	gw_err e;

	standin_flag(f, "storage");
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 pci_dev(f, &l, "0000:01:00.0"), &e), -1);
	assert_string_equal(e.msg, "0000:01:00.0 (NVMe SSD Controller "
	                    "SM981/PM981/PM983) is storage adapter vmhba1, which "
	                    "holds the boot device and the datastore "
	                    "\"OSDATA-64f1c1f0-7a2b3c4d-8e9f-3cecef0a1b2c\": "
	                    "passing it through would take them away from ESXi; "
	                    "refused");
	/* booted from a USB stick: its adapter holds only the boot device */
	standin_flag(f, "usb-boot");
	memset(&usb, 0, sizeof usb);
	snprintf(usb.bdf, sizeof usb.bdf, "0000:00:14.0");
	usb.vmkernel_name = "vmhba32";
	assert_int_equal(gw_esxi_session_passthru_guard(f->r, &usb, &e), -1);
	assert_string_equal(e.msg, "0000:00:14.0 is storage adapter vmhba32, "
	                    "which holds the boot device: passing it through "
	                    "would take it away from ESXi; refused");
	/* and the NVMe disk is no longer the boot device: only OSDATA */
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 gw_esxi_pci_find(&l, "0000:01:00.0"), &e), -1);
	assert_non_null(strstr(e.msg, "which holds the datastore \"OSDATA-"));
	assert_non_null(strstr(e.msg, "\": passing it through would take it "
	                       "away from ESXi; refused"));
	gw_esxi_pci_list_free(&l);
}

static void
test_guard_cannot_tell(void **state)
{
	fx *f = *state;
	gw_esxi_pci_list l;
	gw_err e;

	standin_flag(f, "storage");
	standin_flag(f, "no-boot-field");    /* ESXi 6.5 */
	/* a datastore is still found */
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 pci_dev(f, &l, "0000:18:00.0"), &e), -1);
	assert_non_null(strstr(e.msg, "\"VM Store 2\""));
	/* nothing found, but whether its disk boots the host is unknown */
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 gw_esxi_pci_find(&l, "0000:af:00.0"), &e), -1);
	assert_string_equal(e.msg, "0000:af:00.0 (NVMe Datacenter SSD [3DNAND, "
	                    "Beta Rock Controller]) is storage adapter vmhba2, "
	                    "and this ESXi does not say whether its device "
	                    "t10.NVMe____INTEL_SSDPE2KX040T8_____________________"
	                    "PHLJ0123004A4P0DGN__ is the boot device (no 'Is Boot "
	                    "Device' in esxcli storage core device list before "
	                    "ESXi 6.7), so it is not passed through; if it is "
	                    "not, pass it through in the Host Client");
	free(take_log(f));
	/* the storage commands fail: refused with the reason */
	standin_flag(f, "storage-fails");
	assert_int_equal(gw_esxi_session_passthru_guard(f->r,
	                 gw_esxi_pci_find(&l, "0000:af:00.0"), &e), -1);
	assert_string_equal(e.msg, "0000:af:00.0 (NVMe Datacenter SSD [3DNAND, "
	                    "Beta Rock Controller]) is storage adapter vmhba2 "
	                    "and gpuwiz cannot tell whether it holds a datastore "
	                    "or the boot device, so it is not passed through: "
	                    "esxcli storage core path list: failed (exit 1): "
	                    "Error: Unable to get the list of storage objects: "
	                    "Not found");
	log_is(f, "esxcli storage core path list\n");
	gw_esxi_pci_list_free(&l);
}

static void
test_upgrade(void **state)
{
	fx *f = *state;
	gw_err e;

	/* never down, never to itself, only known versions: nothing run */
	assert_int_equal(gw_esxi_session_upgrade(f->r, 11, 13, 11, &e), -1);
	assert_string_equal(e.msg, "VM 11 is vmx-13; vmx-11 would be a "
	                    "downgrade, and the hardware version only goes up: "
	                    "refused");
	assert_int_equal(gw_esxi_session_upgrade(f->r, 11, 13, 13, &e), -1);
	assert_string_equal(e.msg, "VM 11 is already vmx-13: nothing to "
	                    "upgrade");
	assert_int_equal(gw_esxi_session_upgrade(f->r, 11, 13, 23, &e), -1);
	assert_string_equal(e.msg, "vmx-23 is not a hardware version gpuwiz can "
	                    "upgrade to (expected vmx-04 to vmx-22)");
	assert_int_equal(gw_esxi_session_upgrade(f->r, 11, 1, 3, &e), -1);
	log_is(f, "");

	/* not off: refused after the power state, upgrade not run */
	assert_int_equal(gw_esxi_session_upgrade(f->r, 12, 13, 21, &e), -1);
	assert_string_equal(e.msg, "VM 12 is Powered on, not Powered off: power "
	                    "it off before its hardware version is upgraded; "
	                    "nothing changed");
	log_is(f, "vim-cmd vmsvc/power.getstate 12\n");
	assert_int_equal(gw_esxi_session_upgrade(f->r, 13, 13, 21, &e), -1);
	assert_non_null(strstr(e.msg, "VM 13 is Suspended"));
	log_is(f, "vim-cmd vmsvc/power.getstate 13\n");

	/* off: upgraded */
	assert_int_equal(gw_esxi_session_upgrade(f->r, 11, 13, 21, &e), 0);
	log_is(f, "vim-cmd vmsvc/power.getstate 11\n"
	          "vim-cmd vmsvc/upgrade 11 vmx-21\n");
	assert_int_equal(gw_esxi_session_upgrade(f->r, 11, 8, 9, &e), 0);
	log_is(f, "vim-cmd vmsvc/power.getstate 11\n"
	          "vim-cmd vmsvc/upgrade 11 vmx-09\n");

	/* vim-cmd fails: its first stderr line */
	assert_int_equal(gw_esxi_session_upgrade(f->r, 14, 13, 21, &e), -1);
	assert_string_equal(e.msg, "vim-cmd vmsvc/upgrade 14 vmx-21: failed "
	                    "(exit 1): Upgrade VM failed: The virtual machine is "
	                    "already up-to-date.");
	/* the VM's state cannot be read */
	assert_int_equal(gw_esxi_session_upgrade(f->r, 99, 13, 21, &e), -1);
	assert_non_null(strstr(e.msg, "vim-cmd vmsvc/power.getstate 99"));
	log_is(f, "vim-cmd vmsvc/power.getstate 14\n"
	          "vim-cmd vmsvc/upgrade 14 vmx-21\n"
	          "vim-cmd vmsvc/power.getstate 99\n");
}

/* Makes TMP/datastore1/itachi_lab/itachi_lab.vmx; returns its path. */
static char *
make_vmx(fx *f, const gw_vm_list *l, unsigned long vmid)
{
	const gw_vm *vm = NULL;
	char *path, *dir;
	gw_err e;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->vms[i].vmid == vmid)
			vm = &l->vms[i];
	assert_non_null(vm);
	assert_int_equal(gw_esxi_session_vmx_path(f->r, vm, &path, &e), 0);
	dir = gw_xasprintf("%s/datastore1", f->tmp);
	mkdir(dir, 0755);
	free(dir);
	dir = gw_xstrndup(path, (size_t)(strrchr(path, '/') - path));
	assert_int_equal(mkdir(dir, 0755), 0);
	free(dir);
	write_text(path, ".encoding = \"UTF-8\"\nconfig.version = \"8\"\n"
	           "virtualHW.version = \"13\"\n", 0754);
	return path;
}

/* Entries "NAME.gpuwiz-*" beside path. */
static int
count_temps(const char *path)
{
	char *dir = gw_xstrndup(path, (size_t)(strrchr(path, '/') - path));
	char *pre = gw_xasprintf("%s.gpuwiz-", strrchr(path, '/') + 1);
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		n += strncmp(de->d_name, pre, strlen(pre)) == 0;
	closedir(d);
	free(pre);
	free(dir);
	return n;
}

static void
test_vmx_read_write_backup(void **state)
{
	fx *f = *state;
	gw_vm_list l;
	gw_vmx *v;
	char *path, *want, *bak = NULL, *old, *now, *tmp, *victim, *trap;
	struct stat st;
	gw_err e;

	assert_int_equal(gw_esxi_session_list_vms(f->r, &l, &e), 0);
	path = make_vmx(f, &l, 11);
	want = gw_xasprintf("%s/datastore1/itachi_lab/itachi_lab.vmx", f->tmp);
	assert_string_equal(path, want);
	old = slurp(path);
	/* a link at the old fixed temporary name is never written through */
	victim = gw_xasprintf("%s/victim.txt", f->tmp);
	write_text(victim, "keep me\n", 0644);
	trap = gw_xasprintf("%s.gpuwiz-tmp", path);
	assert_int_equal(symlink(victim, trap), 0);
	assert_int_equal(gw_esxi_session_read_vmx(f->r, path, &v, &e), 0);
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "13");
	assert_int_equal(gw_vmx_set(v, "pciPassthru.use64bitMMIO", "TRUE", &e),
	                 0);
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 11, path, v, NULL, 0, &bak, &e),
	                 0);
	now = slurp(victim);
	assert_string_equal(now, "keep me\n");
	free(now);
	assert_int_equal(lstat(trap, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	unlink(trap);
	/* the temporary (a unique name) was synced before the rename, and
	 * none is left */
	now = slurp(f->log);
	tmp = gw_xasprintf("sync %s.gpuwiz-", path);
	assert_non_null(strstr(now, tmp));
	free(tmp);
	free(now);
	assert_int_equal(count_temps(path), 0);
	assert_non_null(bak);
	assert_int_equal(strncmp(bak, path, strlen(path)), 0);
	assert_non_null(strstr(bak, ".bak"));
	now = slurp(bak);
	assert_non_null(now);
	assert_string_equal(now, old);     /* backup holds the old file */
	free(now);
	now = slurp(path);
	assert_non_null(strstr(now, "pciPassthru.use64bitMMIO = \"TRUE\""));
	assert_non_null(strstr(now, "virtualHW.version = \"13\""));
	free(now);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0754);  /* mode kept */
	tmp = gw_xasprintf("%s.gpuwiz-tmp", path);
	assert_int_not_equal(access(tmp, F_OK), 0);
	free(tmp);
	/* a second save in the same second gets another backup name */
	{
		char *bak2 = NULL;
		assert_int_equal(gw_esxi_session_save_vmx(f->r, 11, path, v, NULL, 0, &bak2,
		                                          &e), 0);
		assert_non_null(bak2);
		assert_string_not_equal(bak, bak2);
		free(bak2);
	}
	gw_vmx_free(v);
	gw_vm_list_free(&l);
	free(bak);
	free(old);
	free(want);
	free(path);
	free(victim);
	free(trap);
}

static void
test_vmx_refused_when_not_off(void **state)
{
	fx *f = *state;
	gw_vm_list l;
	gw_vmx *v;
	char *path, *bak = (char *)"x", *old, *now, *dir, *cmd, *ls = NULL;
	const char *lsargv[4] = {"ls", NULL, NULL, NULL};
	gw_err e;

	assert_int_equal(gw_esxi_session_list_vms(f->r, &l, &e), 0);
	path = make_vmx(f, &l, 11);
	old = slurp(path);
	assert_int_equal(gw_esxi_session_read_vmx(f->r, path, &v, &e), 0);
	assert_int_equal(gw_vmx_set(v, "hypervisor.cpuid.v0", "FALSE", &e), 0);
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 12, path, v, NULL, 0, &bak, &e),
	                 -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, "VM 12 is Powered on, not Powered off"));
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 13, path, v, NULL, 0, NULL, &e),
	                 -1);
	assert_non_null(strstr(e.msg, "VM 13 is Suspended"));
	now = slurp(path);
	assert_string_equal(now, old);
	dir = gw_xstrndup(path, (size_t)(strrchr(path, '/') - path));
	lsargv[1] = dir;
	assert_int_equal(gw_runner_run_ok(f->r, lsargv, &ls, &e), 0);
	assert_string_equal(ls, "itachi_lab.vmx\n");   /* no backup, no tmp */
	cmd = NULL;
	free(cmd);
	free(ls);
	free(dir);
	free(now);
	free(old);
	free(path);
	gw_vmx_free(v);
	gw_vm_list_free(&l);
}

/* The .vmx changed on the host between the read and the write: the
 * script's cmp refuses it, naming the file; nothing changed, no backup,
 * no temporary. */
static void
test_save_vmx_changed_on_host(void **state)
{
	fx *f = *state;
	gw_vm_list l;
	gw_vmx *v, *was;
	char *path, *bak = (char *)"x", *now, *dir, *ls = NULL, *edited;
	const char *lsargv[4] = {"ls", NULL, NULL, NULL};
	gw_err e;

	assert_int_equal(gw_esxi_session_list_vms(f->r, &l, &e), 0);
	path = make_vmx(f, &l, 11);
	assert_int_equal(gw_esxi_session_read_vmx(f->r, path, &v, &e), 0);
	assert_int_equal(gw_esxi_session_read_vmx(f->r, path, &was, &e), 0);
	assert_int_equal(gw_vmx_set(v, "hypervisor.cpuid.v0", "FALSE", &e), 0);
	edited = slurp(path);
	edited = gw_xasprintf("%smemsize = \"8192\"\n", now = edited);
	free(now);
	write_text(path, edited, 0644);
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 11, path, v, was, 0, &bak,
	                                          &e), -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, path));
	assert_non_null(strstr(e.msg, "changed on disk"));
	now = slurp(path);
	assert_string_equal(now, edited);
	free(now);
	dir = gw_xstrndup(path, (size_t)(strrchr(path, '/') - path));
	lsargv[1] = dir;
	assert_int_equal(gw_runner_run_ok(f->r, lsargv, &ls, &e), 0);
	assert_string_equal(ls, "itachi_lab.vmx\n");   /* no backup, no tmp */
	free(ls);
	/* as read: written, with its backup */
	gw_vmx_free(was);
	assert_int_equal(gw_esxi_session_read_vmx(f->r, path, &was, &e), 0);
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 11, path, v, was, 0, &bak,
	                                          &e), 0);
	assert_non_null(bak);
	now = slurp(bak);
	assert_string_equal(now, edited);
	free(now);
	free(bak);
	free(dir);
	free(edited);
	free(path);
	gw_vmx_free(was);
	gw_vmx_free(v);
	gw_vm_list_free(&l);
}

/* A .vmx with no write bit for anyone on the host: refused without force
 * by the script (one line naming the file and --force; nothing changed,
 * no backup); with force written, its mode kept. */
static void
test_save_vmx_read_only_on_host(void **state)
{
	fx *f = *state;
	gw_vm_list l;
	gw_vmx *v;
	char *path, *bak = NULL, *old, *now;
	struct stat st;
	gw_err e;

	assert_int_equal(gw_esxi_session_list_vms(f->r, &l, &e), 0);
	path = make_vmx(f, &l, 11);
	assert_int_equal(chmod(path, 0444), 0);
	old = slurp(path);
	assert_int_equal(gw_esxi_session_read_vmx(f->r, path, &v, &e), 0);
	assert_int_equal(gw_vmx_set(v, "hypervisor.cpuid.v0", "FALSE", &e), 0);
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 11, path, v, NULL, 0,
	                                          &bak, &e), -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, path));
	assert_non_null(strstr(e.msg, "read-only"));
	assert_non_null(strstr(e.msg, "--force"));
	now = slurp(path);
	assert_string_equal(now, old);
	free(now);
	assert_int_equal(gw_esxi_session_save_vmx(f->r, 11, path, v, NULL, 1,
	                                          &bak, &e), 0);
	assert_non_null(bak);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0444);
	now = slurp(path);
	assert_non_null(strstr(now, "hypervisor.cpuid.v0 = \"FALSE\""));
	free(now);
	free(bak);
	free(old);
	free(path);
	gw_vmx_free(v);
	gw_vm_list_free(&l);
}

static void
test_write_new_file_and_read_errors(void **state)
{
	fx *f = *state;
	char *path = gw_xasprintf("%s/new file 'q'.txt", f->tmp), *bak = NULL;
	char *data = NULL;
	size_t len = 0;
	static const char bin[] = "a\0b\n";
	gw_err e;

	assert_int_equal(gw_runner_write_file_atomic(f->r, path, bin,
	                 sizeof bin - 1, NULL, 0, 0, &bak, &e), 0);
	assert_null(bak);
	assert_int_equal(gw_runner_read_file(f->r, path, &data, &len, &e), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(data, bin, 4);
	free(data);
	assert_int_equal(gw_runner_read_file(f->r, "relative.vmx", &data, &len,
	                                     &e), -1);
	assert_non_null(strstr(e.msg, "absolute path"));
	free(path);
	path = gw_xasprintf("%s/missing.vmx", f->tmp);
	assert_int_equal(gw_runner_read_file(f->r, path, &data, &len, &e), -1);
	assert_null(data);
	assert_non_null(strstr(e.msg, "missing.vmx"));
	free(path);
	path = gw_xasprintf("%s/no-such-dir/x.vmx", f->tmp);
	assert_int_equal(gw_runner_write_file_atomic(f->r, path, "x", 1, NULL, 0, 0, &bak,
	                                             &e), -1);
	assert_non_null(strstr(e.msg, "temporary file"));
	free(path);
}

static void
test_vmx_path_checks(void **state)
{
	fx *f = *state;
	gw_vm vm;
	char *p;
	gw_err e;

	memset(&vm, 0, sizeof vm);
	vm.vmid = 5;
	vm.file = (char *)"[ds] ../../etc/passwd";
	vm.datastore = (char *)"ds";
	vm.path = (char *)"../../etc/passwd";
	assert_int_equal(gw_esxi_session_vmx_path(f->r, &vm, &p, &e), -1);
	assert_non_null(strstr(e.msg, "leaves the datastore"));
	vm.path = (char *)"a/b.vmx";
	vm.datastore = (char *)"..";
	assert_int_equal(gw_esxi_session_vmx_path(f->r, &vm, &p, &e), -1);
	vm.datastore = (char *)"nvme:01 local";
	assert_int_equal(gw_esxi_session_vmx_path(f->r, &vm, &p, &e), 0);
	assert_non_null(strstr(p, "/nvme:01 local/a/b.vmx"));
	free(p);
}

static void
test_ssh_refuses(void **state)
{
	gw_err e;
	char *kh;
	fx *f = *state;

	(void)f;
	assert_null(gw_runner_open_ssh_prompt("-oProxyCommand=x", NULL, 0, &e));
	assert_non_null(strstr(e.msg, "user@host"));
	assert_null(gw_runner_open_ssh_prompt("a b", NULL, 0, &e));
	if (!ssh_host)
		return;
	/* an empty known_hosts: the host key is unknown and must be refused */
	kh = gw_xasprintf("%s/empty_known_hosts", f->tmp);
	write_text(kh, "", 0600);
	assert_null(open_runner(kh, &e));
	if (strstr(e.msg, "known_hosts") == NULL)
		fail_msg("%s", e.msg);
	assert_non_null(strstr(e.msg, "known_hosts"));
	free(kh);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_run_quoting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_status_and_errors, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_run_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_vms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_pci, setup, teardown),
		cmocka_unit_test_setup_teardown(test_power_state, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enable_passthru_and_reload,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_enable_passthru_reboot_needed,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_enable_passthru_applied_now,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_enable_passthru_refused,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_guard_gpu_and_nic_run_nothing,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_guard_datastore_controller,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_guard_boot_controller,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_guard_cannot_tell, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_upgrade, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vmx_read_write_backup, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_vmx_refused_when_not_off,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_vmx_changed_on_host,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_vmx_read_only_on_host,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_new_file_and_read_errors,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_vmx_path_checks, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_ssh_refuses, setup, teardown),
	};
	const char *h = getenv("GW_SSH_TEST_HOST");

	ssh_host = h && *h ? h : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
