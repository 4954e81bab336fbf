/* cli.h: the non-interactive command line (design.md section 3). */
#ifndef GW_CLI_H
#define GW_CLI_H

/* Run gpuwiz with argv; returns the exit status (0 ok, 1 check failed,
 * 2 usage or input error). */
int gw_cli_main(int argc, char **argv);

#endif
