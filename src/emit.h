/* emit.h: render a plan as snippets.  YAML through libyaml's emitter, JSON
 * through jansson; never by string concatenation.
 */
#ifndef GW_EMIT_H
#define GW_EMIT_H

#include "gw.h"
#include "plan.h"

typedef enum {
	GW_FMT_VMX    = 1 << 0,   /* .vmx lines as ESXi writes them */
	GW_FMT_BOSH   = 1 << 1,   /* vm_extensions YAML */
	GW_FMT_OPSMAN = 1 << 2,   /* Ops Manager PUT body JSON */
	GW_FMT_TILE   = 1 << 3    /* AI Services tile custom VM type fields */
} gw_format;

/* "vmx" -> GW_FMT_VMX ...; 0 when unknown. */
int gw_format_parse(const char *name);
/* Comma list "vmx,bosh" -> mask; error names field and the bad word. */
int gw_formats_parse(const char *list, const char *field, int *mask, gw_err *e);
const char *gw_format_name(int fmt);
/* File name written by apply: "gpuwiz.vmx.txt", "bosh-vm-extension.yml",
 * "opsman-vm-extension.json", "tile-vm-type.yml". */
const char *gw_format_filename(int fmt);

/* Each returns a malloc'ed NUL-terminated text in *out. */
int gw_emit_vmx(const gw_plan *p, char **out, gw_err *e);
int gw_emit_bosh(const gw_plan *p, char **out, gw_err *e);
int gw_emit_opsman(const gw_plan *p, char **out, gw_err *e);
int gw_emit_tile(const gw_plan *p, char **out, gw_err *e);
int gw_emit(int fmt, const gw_plan *p, char **out, gw_err *e);

#endif
