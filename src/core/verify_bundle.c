/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_bundle.c: the support bundle of gpuwiz verify --bundle
 * (verify_live.h): a gzip'ed tar of the report and what the guest shows,
 * never its secrets, written atomically.
 */
#include "verify_live.h"
#include "safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef gw_live_bar live_bar;
typedef gw_live_gpu live_gpu;
typedef gw_live_sys live_sys;

static const char bundle_readme[] =
	/* Not translated: it is read by NVIDIA / VMware support. */
	"gpuwiz support bundle\n"
	"=====================\n\n"
	"Written by `gpuwiz verify --bundle` in the guest.  It holds:\n\n"
	"  README.txt                    this file\n"
	"  verify.txt, verify.json       the gpuwiz verify report\n"
	"  nvidia-smi-q.txt              the nvidia-smi -q capture given with\n"
	"                                --nvidia-smi-q (when given)\n"
	"  proc-driver-nvidia-version.txt  /proc/driver/nvidia/version (when\n"
	"                                the driver is loaded)\n"
	"  proc-cmdline.txt              /proc/cmdline\n"
	"  lspci.txt                     the NVIDIA PCI devices as sysfs shows\n"
	"                                them: ids, class, driver, resources\n\n"
	"It never holds secrets: no environment variables, no vGPU license\n"
	"tokens (/etc/nvidia/ClientConfigToken/), no ssh keys, no passwords.\n\n"
	"Add to the support ticket yourself:\n"
	"  - the vLLM and NCCL versions in the image, and those of the last\n"
	"    image that worked;\n"
	"  - the hypervisor and its version, the vGPU profile in use and the\n"
	"    number of vGPUs on the VM;\n"
	"  - the GPU driver and CUDA versions on the hypervisor host;\n"
	"  - the output of nvidia-smi, nvidia-smi -q and nvidia-smi topo -m\n"
	"    from inside the container;\n"
	"  - confirmation that enable_uvm is set for every vGPU on the VM and\n"
	"    that the VM was power-cycled afterwards;\n"
	"  - the NCCL_DEBUG=INFO log from a failing start;\n"
	"  - whether the minimal NCCL test passes or fails.\n";

static char *
lspci_text(const live_sys *l)
{
	gw_buf b;
	size_t i;
	int k;

	gw_buf_init(&b);
	gw_buf_puts(&b, "");
	for (i = 0; i < l->ngpus; i++) {
		const live_gpu *g = &l->gpus[i];

		gw_buf_printf(&b, "%s vendor 0x%04x device 0x%04x class 0x%06x "
		              "subsystem 0x%04x:0x%04x\n", g->bdf, g->vendor,
		              g->device, g->cls, g->subv, g->subd);
		gw_buf_printf(&b, "\tKernel driver in use: %s\n",
		              g->driver ? g->driver : "(none)");
		for (k = 0; k < g->nres; k++) {
			const live_bar *r = &g->bars[k];

			if (r->start == 0 && r->end == 0)
				gw_buf_printf(&b, "\tRegion %d: unassigned "
				              "(config 0x%08x)\n", k,
				              g->cfg_ok ? g->cfg_bar[k] : 0);
			else
				gw_buf_printf(&b, "\tRegion %d: start 0x%llx end "
				              "0x%llx flags 0x%llx\n", k, r->start,
				              r->end, r->flags);
		}
	}
	if (l->ngpus == 0)
		gw_buf_puts(&b, "no NVIDIA display device\n");
	return gw_buf_steal(&b);
}

static int
stage_put(const char *dir, const char *name, const char *data, size_t len,
          char ***names, size_t *n)
{
	char *p = gw_xasprintf("%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644), rc = 0;

	if (fd < 0 || gw_write_all(fd, data, len) != 0)
		rc = -1;
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	if (fd >= 0) {
		*names = gw_xrealloc(*names, (*n + 1) * sizeof **names);
		(*names)[(*n)++] = p;
	} else {
		free(p);
	}
	return rc;
}

static int
run_tar(const char *out, const char *stage)
{
	static char *const envp[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
	const char *tar = access("/bin/tar", X_OK) == 0 ? "/bin/tar"
	                                                : "/usr/bin/tar";
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char *argv[] = { (char *)"tar", (char *)"-czf", (char *)out,
		                 (char *)"-C", (char *)stage,
		                 (char *)"gpuwiz-support", NULL };
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
		}
		execve(tar, argv, envp);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* The files of the bundle in sub (their paths appended to *names). */
static int
stage_all(const char *sub, const live_sys *l, const char *nvsmi_data,
          size_t nvsmi_len, const char *text, const char *js, char ***names,
          size_t *n)
{
	char *lsp = lspci_text(l);
	int rc = 0;

	if (stage_put(sub, "README.txt", bundle_readme,
	              sizeof bundle_readme - 1, names, n) != 0 ||
	    stage_put(sub, "verify.txt", text, strlen(text), names, n) != 0 ||
	    stage_put(sub, "verify.json", js, strlen(js), names, n) != 0 ||
	    (nvsmi_data && stage_put(sub, "nvidia-smi-q.txt", nvsmi_data,
	                             nvsmi_len, names, n) != 0) ||
	    (l->version_text &&
	     stage_put(sub, "proc-driver-nvidia-version.txt", l->version_text,
	               strlen(l->version_text), names, n) != 0) ||
	    (l->cmdline && stage_put(sub, "proc-cmdline.txt", l->cmdline,
	                             strlen(l->cmdline), names, n) != 0) ||
	    stage_put(sub, "lspci.txt", lsp, strlen(lsp), names, n) != 0)
		rc = -1;
	free(lsp);
	return rc;
}

/* fsync the file at path: the bundle is complete on disk before it gets
 * its name.  0, or -1 with errno set. */
static int
sync_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc, saved;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

/* Tar the stage into a temporary file beside out, then link it to out,
 * which must not exist: a reader never sees half a bundle.  0, or -1 with
 * e set. */
static int
publish(const char *out, const char *dir, const char *stage, gw_err *e)
{
	char *tmp = gw_xasprintf("%s/.gpuwiz-bundle-XXXXXX.tar.gz", dir);
	int fd = mkstemps(tmp, 7), rc = -1;

	if (fd < 0) {
		gw_err_set(e, "--bundle %s: %s", out, strerror(errno));
		free(tmp);
		return -1;
	}
	close(fd);
	if (run_tar(tmp, stage) != 0) {
		gw_err_set(e, _("--bundle %s: tar failed"), out);
	} else if (sync_file(tmp) != 0) {
		gw_err_set(e, "--bundle %s: %s", out, strerror(errno));
	} else if (link(tmp, out) != 0) {
		if (errno == EEXIST)
			gw_err_set(e, _("--bundle %s: the file exists; the bundle "
			                "never overwrites a file"), out);
		else
			gw_err_set(e, "--bundle %s: %s", out, strerror(errno));
	} else {
		gw_fsync_dir_of(out);
		rc = 0;
	}
	unlink(tmp);
	free(tmp);
	return rc;
}

int
gw_live_bundle_write(const char *out, const live_sys *l,
                     const char *nvsmi_data, size_t nvsmi_len,
                     const char *text, const char *js, gw_err *e)
{
	char *dir = gw_path_dir(out), *stage, *sub;
	char **names = NULL;
	size_t n = 0, i;
	int rc = -1;

	stage = gw_xasprintf("%s/.gpuwiz-bundle-XXXXXX", dir);
	if (mkdtemp(stage) == NULL) {
		gw_err_set(e, _("--bundle %s: cannot create a temporary "
		                "directory in %s: %s"), out, dir, strerror(errno));
		free(stage);
		free(dir);
		return -1;
	}
	sub = gw_xasprintf("%s/gpuwiz-support", stage);
	if (mkdir(sub, 0755) != 0 ||
	    stage_all(sub, l, nvsmi_data, nvsmi_len, text, js, &names,
	              &n) != 0)
		gw_err_set(e, "--bundle %s: %s", out, strerror(errno));
	else
		rc = publish(out, dir, stage, e);
	for (i = 0; i < n; i++) {
		unlink(names[i]);
		free(names[i]);
	}
	free(names);
	rmdir(sub);
	rmdir(stage);
	free(sub);
	free(stage);
	free(dir);
	return rc;
}
