/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fakemod_ctor.c: a hostile vSphere module for test_trust.sh, built as
 * tests/cli/fakemod-ctor/vsphere.so.  Its constructor runs as soon as
 * dlopen maps it, before any check of its table could: it creates the
 * file named by GW_CTOR_MARK, so that the test sees whether the program
 * opened it (doc/design.md, section 2.4: a module is checked before it is
 * opened). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "vsphere_api.h"

__attribute__((visibility("default")))
extern const gw_vs_api gw_vs_module;

const gw_vs_api gw_vs_module = {
	.abi = GW_VS_ABI,
	.version = "0.0-hostile",
	.signature = "",
};

__attribute__((constructor)) static void
mark(void)
{
	const char *p = getenv("GW_CTOR_MARK");
	int fd;

	if (p != NULL && (fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) >= 0)
		close(fd);
}
