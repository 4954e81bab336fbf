/* SPDX-License-Identifier: GPL-3.0-or-later */
/* replay.c: a main for the fuzz targets without libFuzzer: each FILE
 * argument is read whole and fed once to LLVMFuzzerTestOneInput(), so the
 * corpus replays under gcc, ASan or valgrind.  Arguments starting with
 * '-' (libFuzzer's options) are ignored, so both builds take the same
 * command line.  Exit 0 when every file was read; a failed invariant
 * aborts. */
#include "fuzz.h"

static int
replay_file(const char *path)
{
	char *data = NULL;
	size_t len = 0;
	gw_err e;

	if (gw_read_file(path, 64u << 20, &data, &len, &e) != 0) {
		fprintf(stderr, "replay: %s\n", e.msg);
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	free(data);
	return 0;
}

int
main(int argc, char **argv)
{
	int i, n = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if (replay_file(argv[i]) != 0)
			bad++;
		else
			n++;
	}
	fprintf(stderr, "replay: %d inputs run, %d unreadable\n", n, bad);
	return bad ? 1 : 0;
}
