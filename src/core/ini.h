/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* What iniparser lets pass or reports only as a syntax error, checked on
 * the file's text (data, len) before gw_ini_load: a line longer than
 * iniparser reads ("FILE:LINE: [section] key: line too long (N bytes, at
 * most 1022)") and a key given twice in one section, where iniparser keeps
 * the last silently ("FILE:LINE: [section] key: given twice (first on
 * line N), expected each key once"), and a section whose name holds ':'
 * ("FILE:LINE: section [options:p2p]: a section name holds no ':' ..."),
 * which iniparser would read as the key p2p of [options].  0, or -1 and
 * e. */
int gw_ini_check(const char *path, const char *data, size_t len, gw_err *e);

#endif
