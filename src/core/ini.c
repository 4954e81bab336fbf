/* ini.c: iniparser with its messages caught (see ini.h). */
#include "ini.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* the first message of the current load */
static char ini_errmsg[512];

static int GW_PRINTF(1, 2)
ini_errback(const char *fmt, ...)
{
	va_list ap;
	char *nl;

	if (ini_errmsg[0] != '\0')
		return 0;
	va_start(ap, fmt);
	vsnprintf(ini_errmsg, sizeof ini_errmsg, fmt, ap);
	va_end(ap);
	if ((nl = strchr(ini_errmsg, '\n')) != NULL)
		*nl = '\0';
	return 0;
}

/* "iniparser: syntax error in FILE (12):" -> 12, else 0. */
static int
ini_errline(void)
{
	const char *p = strrchr(ini_errmsg, '(');
	unsigned long long n;
	char num[32];
	size_t i = 0;

	if (p == NULL)
		return 0;
	for (p++; *p >= '0' && *p <= '9' && i < sizeof num - 1; p++)
		num[i++] = *p;
	num[i] = '\0';
	if (gw_parse_uint(num, 1000000000ULL, &n) != 0)
		return 0;
	return (int)n;
}

dictionary *
gw_ini_load(const char *path, gw_err *e)
{
	dictionary *d;

	ini_errmsg[0] = '\0';
	iniparser_set_error_callback(ini_errback);
	d = iniparser_load(path);
	iniparser_set_error_callback(NULL);
	if (d == NULL || ini_errmsg[0] != '\0') {
		int line = ini_errline();

		if (line > 0)
			gw_err_set(e, _("%s:%d: syntax error, expected '[section]' or 'key = value'"),
			           path, line);
		else
			gw_err_set(e, _("%s: cannot be read as an INI file"), path);
		if (d)
			iniparser_freedict(d);
		return NULL;
	}
	return d;
}
