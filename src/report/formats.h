/* formats.h: the output formats, one row each (doc/design.md, "Adding an
 * output format").  Everything that lists the formats is made from these
 * rows by the preprocessor: the GW_FMT_* bits (emit.h, in row order), the
 * registry gw_formats[] (emit.c) and through it the answers file's
 * [output] formats, the files gw_apply writes, snippet --format and its
 * error message, the wizard's options and review, and the next steps.
 * No include guard: included once per use with GW_FORMAT defined.
 *
 *   GW_FORMAT(ID, NAME, FILE, LABEL, HOLDS, ON, EMIT, NEXT)
 *     ID     the bit is GW_FMT_<ID>
 *     NAME   its word in the answers file and in snippet --format
 *     FILE   the file gw_apply writes in the output directory
 *     LABEL  its check box on the wizard's options step (N_(), or a
 *            product name that stays as it is): at most 16 cells
 *     HOLDS  what the file holds, on the review (N_()): at most 20 cells
 *     ON     1: chosen by default in the wizard
 *     EMIT   int EMIT(const gw_plan *, const gw_emit_opts *, char **,
 *            gw_err *): the renderer
 *     NEXT   void NEXT(const gw_next_ctx *): the operator's next steps
 *            with the file (emit.h), pushed in row order
 * The bits are part of the answers and JSON interfaces only through
 * NAME; appending a row keeps every existing bit. */
GW_FORMAT(VMX, "vmx", "gpuwiz.vmx.txt",
          /* TRANSLATORS: an output format on the options step; at most
           * 16 cells. */
          N_(".vmx lines"),
          /* TRANSLATORS: what an output file holds, on the review; at
           * most 20 cells. */
          N_(".vmx lines"),
          1, gw_emit_vmx, gw_next_vmx)
GW_FORMAT(BOSH, "bosh", "bosh-vm-extension.yml", "BOSH",
          /* TRANSLATORS: what an output file holds; at most 20 cells. */
          N_("BOSH VM extension"),
          1, gw_emit_bosh, gw_next_bosh)
GW_FORMAT(OPSMAN, "opsman", "opsman-vm-extension.json", "Ops Manager",
          /* TRANSLATORS: what an output file holds; at most 20 cells. */
          N_("Ops Manager JSON"),
          1, gw_emit_opsman, gw_next_opsman)
GW_FORMAT(TILE, "tile", "tile-vm-type.yml",
          /* TRANSLATORS: an output format, at most 16 cells. */
          N_("tile values"),
          /* TRANSLATORS: what an output file holds; at most 16 cells. */
          N_("tile values"),
          1, gw_emit_tile, gw_next_tile)
GW_FORMAT(OM, "om", "om-vm-extension.yml", "om",
          /* TRANSLATORS: what an output file holds; at most 20 cells. */
          N_("om VM extension"),
          0, gw_emit_om, gw_next_om)
GW_FORMAT(ANSIBLE, "ansible", "gpuwiz-playbook.yml", "Ansible",
          /* TRANSLATORS: what an output file holds; at most 20 cells. */
          N_("Ansible playbook"),
          0, gw_emit_ansible, gw_next_ansible)
