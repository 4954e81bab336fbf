/* ini.h: iniparser with its messages caught (answers files, sample hosts).
 * iniparser reports problems through a printf-style callback and a NULL
 * result; this turns them into one line naming the file and the line. */
#ifndef GW_INI_H
#define GW_INI_H

#include "gw.h"

#include <iniparser.h>

/* Load path.  NULL and e on failure: "FILE:LINE: syntax error, expected
 * '[section]' or 'key = value'" when iniparser named a line, else "FILE:
 * cannot be read as an INI file".  Free with iniparser_freedict. */
dictionary *gw_ini_load(const char *path, gw_err *e);

#endif
