/* tui.c: being written */
#include "tui.h"
int gw_tui_main(const gw_table *t, const char *answers_path, gw_err *e)
{ (void)t; (void)answers_path; gw_err_set(e, "%s", _("the interactive wizard is not part of this build yet")); return 2; }
