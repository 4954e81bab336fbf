/* main.c: kept thin; everything lives in libgpuwiz. */
#include "gw.h"
#include "cli.h"

int
main(int argc, char **argv)
{
	return gw_cli_main(argc, argv);
}
