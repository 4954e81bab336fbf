/* cli.c: being written */
#include "gw.h"
#include "cli.h"
int gw_cli_main(int argc, char **argv) { (void)argc; (void)argv; return 2; }
