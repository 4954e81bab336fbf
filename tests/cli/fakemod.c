/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fakemod.c: a vSphere module from "another build" for test_startup.sh:
 * built as tests/cli/fakemod-abi/vsphere.so (an ABI number the program
 * does not know) and tests/cli/fakemod-ver/vsphere.so (the program's ABI
 * number, another version and list), so that the loader's check is seen
 * to refuse both (doc/design.md, section 2.5). */
#include "vsphere_api.h"

__attribute__((visibility("default")))
extern const gw_vs_api gw_vs_module;

const gw_vs_api gw_vs_module = {
	.abi = FAKE_ABI,
	.version = "0.0-other",
	.signature = "int gw_vs_other (void)\n",
};
