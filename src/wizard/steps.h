/* steps.h: the wizard's steps, one row each, in order (doc/design.md,
 * "Adding a wizard step").  The gw_step enum (wizard.h), the step table
 * (wizard_steps.c: titles, purposes, help, what each needs before the
 * next), the step bar and "Step k/N" line (ui/frame.c) and the screens
 * (ui/tui.c, ui/screen.h) are all made from these rows by the
 * preprocessor; the screen tests read the count from here too
 * (tests/e2e/lib.sh).  No include guard: included once per use with
 * GW_STEP defined.
 *
 *   GW_STEP(ID, TITLE, PURPOSE, HELP, CHECK, SCREEN)
 *     ID       the step is GW_STEP_<ID>
 *     TITLE    N_(): at most 18 cells (a CJK character is 2)
 *     PURPOSE  N_(): one line under the title, at most 76 cells
 *     HELP     N_(): the help (F1), paragraphs '\n' separated, wrapped to
 *              about 70 cells; a mode may say more (wizard_mode.c), and
 *              a screen may add to it (ui_screen.help)
 *     CHECK    int CHECK(const gw_wizard *, char *why, size_t n): 0 when
 *              the step may be left forward (wizard_steps.c)
 *     SCREEN   the ui_screen drawing it (ui/step_*.c)
 */
GW_STEP(WELCOME,
        /* TRANSLATORS: wizard step title, shown in the step list: at
         * most 18 cells (a CJK character is 2 cells). */
        N_("Welcome"),
        /* TRANSLATORS: one-line purpose of a wizard step, shown under
         * its title: at most 76 cells. */
        N_("Choose the language and what you are doing."),
        /* TRANSLATORS: help of step 1, wrapped to about 70 cells; each
         * mode's paragraph follows it (wizard_mode.c). */
        N_("Choose the language of the screens (the default comes from your locale "
           "or --lang) and what you are doing."),
        check_welcome, ui_step_welcome)
GW_STEP(HOST,
        /* TRANSLATORS: wizard step title, shown in the step list: at
         * most 18 cells (a CJK character is 2 cells). */
        N_("Host check"),
        /* TRANSLATORS: one-line purpose of a wizard step, shown under
         * its title: at most 76 cells. */
        N_("Check that the host's firmware is ready for GPU passthrough."),
        /* TRANSLATORS: help of step 2, wrapped to about 70 cells. */
        N_("Passthrough needs the IOMMU (Intel VT-d or AMD-Vi) and, for GPUs with large "
           "memory windows, \"Above 4G decoding\" (also called MMIO above 4 GB) turned on "
           "in the host's BIOS/UEFI setup; vGPU on Ampere and later GPUs also needs SR-IOV. "
           "ESXi cannot report these settings, so when planning offline you confirm each "
           "one: Space toggles the highlighted item. A confirmed item shows PASS; one not "
           "confirmed shows WARN and where to find it. SR-IOV shows INFO while no vGPU "
           "that needs it is chosen; the review step asks for it when one is.\n"
           "A device that shows \"Passthru Capable: false\" in esxcli hardware pci list "
           "usually means the IOMMU is off."),
        check_host, ui_step_host)
GW_STEP(GPU,
        /* TRANSLATORS: wizard step title, shown in the step list: at
         * most 18 cells (a CJK character is 2 cells). */
        N_("GPU selection"),
        /* TRANSLATORS: one-line purpose of a wizard step, shown under
         * its title: at most 76 cells. */
        N_("Choose the GPUs: passthrough or a vGPU profile, and how many."),
        /* TRANSLATORS: help of step 3, wrapped to about 70 cells. */
        N_("Pick the GPUs this VM gets. The list is gpuwiz's table of GPUs: type in the "
           "search field to narrow it (id, model name or PCI id such as 10de:26b9), and use "
           "the Vendor and Class filters (Space or Left/Right changes them).\n"
           "In the table, Space adds the highlighted GPU in passthrough (the whole GPU), one "
           "at a time; a letter or digit starts a new search, / goes to the search field. "
           "A GPU whose memory size the table does not know asks for it: sizes are never "
           "guessed.\n"
           "In the selection below the table: + and - (or Right and Left) change the count, "
           "Space switches between passthrough and the vGPU profiles of that GPU, Delete "
           "or x removes it. GPUs already in the .vmx you open later are listed too; they "
           "count for the memory window but are not changed.\n"
           "Configuring this Linux host, the GPUs found on it are listed first (address, "
           "name, VRAM, driver, IOMMU group): Space adds the highlighted one in passthrough "
           "and keeps its PCI address; a GPU the table does not know is sized from its "
           "64-bit BARs.\n"
           "Enter goes on once at least one GPU is selected, or with none: the VM you "
           "open keeps only the devices it has (for example its vGPUs, to turn on "
           "unified memory for them)."),
        check_gpu, ui_step_gpu)
GW_STEP(VM,
        /* TRANSLATORS: wizard step title, shown in the step list: at
         * most 18 cells (a CJK character is 2 cells). */
        N_("Virtual machine"),
        /* TRANSLATORS: one-line purpose of a wizard step, shown under
         * its title: at most 76 cells. */
        N_("Open the VM's .vmx file, or go on without one for snippets only."),
        /* TRANSLATORS: help of step 4, wrapped to about 70 cells. */
        N_("Open the VM's .vmx file to patch it (a backup is kept), or choose no file to "
           "write the snippets only.\n"
           "Type the path; the list below shows the directories and .vmx files that match. "
           "Tab completes as far as the matches agree, or moves into the list (PgDn too); "
           "in the list Enter or Space opens a directory or a .vmx file. Enter in the field "
           "opens the file typed and shows it; Enter again goes on. An empty field means "
           "no .vmx.\n"
           "The other fields are optional: the host's ESXi version (7.0U3, 8.0U2...: the "
           "newest hardware version it supports), the memory in MB when there is no .vmx "
           "(for the reservation), and host PCI addresses (0000:42:00.0, separated by "
           "commas) with the host's system id (esxcli system uuid get) to add whole "
           "pciPassthruN device blocks. Up/Down and Tab move between the fields.\n"
           "For an open file the screen shows its hardware version, firmware, memory and "
           "reservation and the passthrough devices already in it, with gpuwiz's advice "
           "for each: a BIOS VM should not be switched to EFI without reinstalling, the "
           "hardware version is only ever raised, with the VM powered off and a backup "
           "taken.\n"
           "In the path field Backspace deletes; Esc goes back a step."),
        check_vm, ui_step_vm)
GW_STEP(MMIO,
        /* TRANSLATORS: wizard step title, shown in the step list: at
         * most 18 cells (a CJK character is 2 cells). */
        N_("MMIO size"),
        /* TRANSLATORS: one-line purpose of a wizard step, shown under
         * its title: at most 76 cells. */
        N_("Size the VM's 64-bit MMIO window, step by step."),
        /* TRANSLATORS: help of step 5, wrapped to about 70 cells. */
        N_("A GPU in a VM needs a 64-bit memory-mapped I/O window large enough for its BARs "
           "(pciPassthru.use64bitMMIO and pciPassthru.64bitMMIOSizeGB, one window for all "
           "GPUs of the VM). The rule (Broadcom KB 323402): add the memory of all GPUs; a "
           "power of two goes to the next power of two, anything else is rounded up to a "
           "power of two and doubled. Where the table knows the GPUs' BAR sizes, gpuwiz "
           "also packs the BARs and takes the larger result.\n"
           "Type a size in GB to use another one; empty (or r) goes back to the "
           "recommendation. A size below the rule is asked about first: the VM may then "
           "fail to power on (\"Module DevicePowerOn power on failed\").\n"
           "Up/Down and PgUp/PgDn scroll the calculation; Backspace deletes a digit; Esc "
           "goes back a step."),
        check_plan, ui_step_mmio)
GW_STEP(OPTIONS,
        /* TRANSLATORS: wizard step title, shown in the step list: at
         * most 18 cells (a CJK character is 2 cells). */
        N_("Options"),
        /* TRANSLATORS: one-line purpose of a wizard step, shown under
         * its title: at most 76 cells. */
        N_("Unified memory for vGPUs, peer-to-peer, memory reservation."),
        /* TRANSLATORS: help of step 6, wrapped to about 70 cells. */
        N_("UVM (unified memory) sets pciPassthruN.cfg.enable_uvm = \"1\" on every vGPU of "
           "the VM, the ones already in the .vmx included. NCCL 2.27 and later fail "
           "ncclCommInitRank with \"operation not supported\" on vGPUs without it. It has a "
           "price: vMotion is disabled for the VM while UVM is on, and on A100 multi-vGPU "
           "VMs it turns off NVLink peer-to-peer.\n"
           "P2P lets several GPUs under one PCIe root complex talk directly "
           "(pciPassthru.allowP2P and pciPassthru.RelaxACSforP2P).\n"
           "The memory reservation (all guest memory, pinned) is required for passthrough.\n"
           "Hiding the hypervisor (hypervisor.cpuid.v0 = FALSE) is only for GeForce cards "
           "on drivers older than R465, which stop with code 43 in a VM. Force writes even "
           "when the plan has failures or the VM looks powered on: use it only when you "
           "know why.\n"
           "Outputs: the snippets to write (Space toggles each; a dimmed one cannot be made "
           "from this plan, and the screen says why), the directory they go to, and the "
           "name of the VM extension for BOSH and Ops Manager (empty: derived from the "
           "GPU). Up/Down or Tab move, Space toggles; in a text field Backspace deletes."),
        check_plan, ui_step_options)
GW_STEP(REVIEW,
        /* TRANSLATORS: wizard step title, shown in the step list: at
         * most 18 cells (a CJK character is 2 cells). */
        N_("Review"),
        /* TRANSLATORS: one-line purpose of a wizard step, shown under
         * its title: at most 76 cells. */
        N_("Every change with its reason and source, and the files to write."),
        /* TRANSLATORS: help of step 7, wrapped to about 70 cells. */
        N_("Everything gpuwiz will change, before anything is written. Each line of the .vmx "
           "is shown as a diff: \"+\" a value written, \"-\" the value it replaces, \"=\" a "
           "value already right that stays. Under each: why, and the source of the fact. "
           "Then the findings (FAIL must be fixed before writing; WARN and INFO are "
           "advice) and the files the next step writes, and where.\n"
           "The summary at the top says what you chose; a step's digit goes back to "
           "that step (Enter on each step comes back here). v shows the snippets the "
           "write step would write (.vmx lines, the BOSH VM extension, the Ops Manager "
           "JSON, the tile fields), without writing anything; Esc closes them.\n"
           "Up/Down and PgUp/PgDn scroll. s saves your answers to a file: a trainer can "
           "hand it to a class, and gpuwiz --answers FILE starts with every screen filled "
           "in, so Enter alone walks to the written files. Enter goes to the write step; "
           "nothing is written until you press Enter there."
           "\n"
           "Host changes queued on the host and VM steps (e enables a GPU's passthrough, u upgrades the hardware version) are listed under \"Changes on the host\" with the exact command gpuwiz runs; they run only after you answer Yes to the write step's question, before the .vmx and the files."),
        check_review, ui_step_review)
GW_STEP(WRITE,
        /* TRANSLATORS: wizard step title, shown in the step list: at
         * most 18 cells (a CJK character is 2 cells). */
        N_("Write"),
        /* TRANSLATORS: one-line purpose of a wizard step, shown under
         * its title: at most 76 cells. */
        N_("Write the files, then run the commands shown."),
        /* TRANSLATORS: help of step 8, wrapped to about 70 cells. */
        N_("Enter writes everything at once: the snippet files into the output directory and, "
           "when a .vmx is open, the patch into it after a backup copy beside it "
           "(vm.vmx.<date>-<time>.bak). If anything fails, nothing is left half-written "
           "and the .vmx is as it was. A VM that looks powered on (a .lck beside the .vmx) "
           "is refused.\n"
           "After writing, the screen lists the files written, the backup, and what to run "
           "next: vim-cmd vmsvc/reload on the host so ESXi reads the edited .vmx, power on, "
           "then the checks inside the guest (nvidia-smi -q: Virtualization Mode, "
           "Addressing Mode, BAR1; and the NCCL all-reduce test when the VM has several "
           "GPUs). Enter or q then leaves."
           "\n"
           "With host changes queued, Enter first asks once (No is the default; y, or Enter on Yes, goes on). Then each change runs in order with a progress box, and the .vmx and the files are written only when all of them succeeded; if one fails, the screen says which and what was done before it, and the changes done are not run again."),
        check_last, ui_step_write)
