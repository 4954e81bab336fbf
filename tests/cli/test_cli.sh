#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Command-level tests: the real binary on real samples.
. "$(dirname "$0")/lib.sh"

# --- version and help ---------------------------------------------------
run "$GPUWIZ" --version
check "--version exits 0 and names the program" [ $rc -eq 0 ]
# GNU form: "gpuwiz X.Y.Z", then copyright, licence, free software, no
# warranty; then whether the vSphere module is built
check "--version: GNU first line" sh -c "head -n 1 '$out' | grep -qE '^gpuwiz [0-9]+\.[0-9]+(\.[0-9]+)?\$'"
check "--version: copyright line" sh -c "sed -n 2p '$out' | grep -q '^Copyright (C) [0-9]\{4\} '"
check "--version: licence line" sh -c "sed -n 3p '$out' | grep -q '^License GPLv3+: '"
check "--version: free-software line" sh -c "sed -n 4p '$out' | grep -q '^This is free software'"
check "--version: no-warranty line" sh -c "sed -n 5p '$out' | grep -q 'NO WARRANTY'"
check "--version: says whether the vSphere module is built" sh -c \
	"grep -qx 'vSphere API module: built (vsphere.so: libcurl, libxml2, OpenSSL)' '$out' ||
	 grep -qx 'vSphere API module: not built (configured --without-vsphere)' '$out'"
SRCDIR=${GW_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
# AC_INIT([gpuwiz], [VERSION], [BUG-REPORT], [TARNAME], [URL])
acinit=$(sed -n '/^AC_INIT(/,/)/p' "$SRCDIR/configure.ac" | tr -d '\n')
ac_arg() { echo "$acinit" | awk -F'[][]' -v n="$1" '{ print $(2 * n) }'; }
check "--version: AC_INIT's version" sh -c "head -n 1 '$out' | grep -qxF 'gpuwiz $(ac_arg 2)'"
run "$GPUWIZ" --help
check "--help exits 0" [ $rc -eq 0 ]
check "--help begins with a one-line description" sh -c \
	"head -n 1 '$out' | grep -q '^gpuwiz .*NVIDIA GPUs.*VMware' && sed -n 2p '$out' | grep -q '^\$'"
# No placeholder contact: AC_INIT names a real bug address and home page
# or none; --help prints the lines only for what it names.
check "AC_INIT: no placeholder bug address or home page" sh -c \
	"! echo '$acinit' | grep -qE 'example\.(invalid|com|org)|\.local/'"
if [ -n "$(ac_arg 3)" ]; then
	check "--help has the bug-report line (AC_INIT's)" grep -qxF "Report bugs to: $(ac_arg 3)" "$out"
else
	check "--help: no bug-report line (AC_INIT names no address)" sh -c "! grep -q '^Report bugs' '$out'"
fi
if [ -n "$(ac_arg 5)" ]; then
	check "--help has the home page line (AC_INIT's)" grep -qxF "gpuwiz home page: <$(ac_arg 5)>" "$out"
else
	check "--help: no home page line (AC_INIT names none)" sh -c "! grep -q 'home page' '$out'"
fi
check "--help: no placeholder address" sh -c "! grep -q 'example\.invalid' '$out'"
check "po/Makevars: the bug address is AC_INIT's, not a second copy" \
	grep -qx 'MSGID_BUGS_ADDRESS = $(PACKAGE_BUGREPORT)' "$SRCDIR/po/Makevars"

# --lang: an unknown language is an error naming those there are
for bad in xx_YY fr "" ; do
	run "$GPUWIZ" --lang "$bad" mmio --gpu l40s
	check "--lang '$bad': exit 2" [ $rc -eq 2 ]
	check "--lang '$bad': one line naming it and the languages" sh -c \
		"[ \$(wc -l <'$err') -eq 1 ] && grep -qF \"'$bad' is not an available language\" '$err' && grep -qF 'en, zh_CN' '$err'"
	check "--lang '$bad': nothing on stdout" [ ! -s "$out" ]
done
run "$GPUWIZ" --lang=xx_YY --help
check "--lang=xx_YY --help: exit 2" [ $rc -eq 2 ]
run "$GPUWIZ" --lang xx_YY
check "--lang xx_YY (the wizard): exit 2, the language named" sh -c \
	"[ $rc -eq 2 ] && grep -qF \"'xx_YY' is not an available language\" '$err'"
for good in en en_US zh_CN zh_CN.UTF-8; do
	run "$GPUWIZ" --lang "$good" mmio --gpu l40s
	check "--lang $good: accepted" [ $rc -eq 0 ]
done
# the list in the message is English plus po/LINGUAS
run "$GPUWIZ" --lang xx mmio --gpu l40s
for l in $(grep -v '^#' "$SRCDIR/po/LINGUAS"); do
	check "--lang's list names $l of po/LINGUAS" grep -qw "$l" "$err"
done
run "$GPUWIZ" --help
check "--help lists the commands" sh -c "grep -q 'gpuwiz mmio' '$out' && grep -q 'gpuwiz apply' '$out' && grep -q 'gpuwiz snippet' '$out'"

bad() { # name expected-substring args...
	name=$1; want=$2; shift 2
	run "$GPUWIZ" "$@"
	if [ $rc -eq 2 ] && err_one_line && errhas "$want" && [ ! -s "$out" ]; then
		ok "bad input: $name"
	else
		nok "bad input: $name" "rc=$rc stderr=$(cat "$err") stdout=$(head -c 200 "$out")"
	fi
}
# --- mmio: the documented examples ---------------------------------------
mmio_is() { # expected-GB args...
	want=$1; shift
	run "$GPUWIZ" mmio "$@"
	[ $rc -eq 0 ] && has "pciPassthru.64bitMMIOSizeGB = \"$want\"" && has 'pciPassthru.use64bitMMIO = "TRUE"'
}
check "mmio 1 x L40S 48 GB -> 128" mmio_is 128 --gpu l40s
check "mmio by PCI id 10de:26b9 -> 128" mmio_is 128 --gpu 10de:26b9
check "mmio 1 x A100 80GB -> 256 (KB example)" mmio_is 256 --gpu a100-80g-pcie
check "mmio 1 x H100 80GB -> 256 (KB example)" mmio_is 256 --gpu h100-sxm
check "mmio 2 x 24 GB -> 128 (KB example)" mmio_is 128 --vram 24=2
check "mmio H200 141 GB -> 512 (NVIDIA table)" mmio_is 512 --gpu h200-sxm
check "mmio vGPU profile follows the physical GPU" mmio_is 256 --vgpu grid_h100xm-80c
check "mmio 4 x A100 80GB -> 320 -> 512 -> 1024" mmio_is 1024 --gpu 10de:20b5=4

# --- SR-IOV: the table's sriov column, in every command's plan ---------------
sriov_msgs() { # command args...: the messages of the JSON gpu-sriov findings
	run "$GPUWIZ" "$@" --json
	[ $rc -eq 0 ] && python3 -c "
import json
d = json.load(open('$out'))
print(''.join(f['message'] + '\\n' for f in d['findings'] if f['id'] == 'gpu-sriov'), end='')
" >"$TMP/sriov.msg"
}
printf 'memSize = "16384"\nfirmware = "efi"\n' >"$TMP/sriov.vmx"
for cmd in "mmio" "vmx $TMP/sriov.vmx"; do
	# shellcheck disable=SC2086
	sriov_msgs $cmd --vgpu nvidia_l40s-24c
	check "${cmd%% *}: an L40S vGPU needs SR-IOV (gpu-sriov)" \
		grep -qx "vGPUs on l40s run on SR-IOV virtual functions: SR-IOV must be on in the host's BIOS/UEFI" "$TMP/sriov.msg"
	# shellcheck disable=SC2086
	sriov_msgs $cmd --vgpu grid_t4-16c
	check "${cmd%% *}: a T4 vGPU (Turing) does not" \
		sh -c "[ $rc -eq 0 ] && [ ! -s '$TMP/sriov.msg' ]"
done
# snippet prints its notes on stderr
run "$GPUWIZ" snippet --format vmx --vgpu nvidia_l40s-24c
check "snippet: an L40S vGPU needs SR-IOV (notes)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'INFO  vGPUs on l40s run on SR-IOV virtual functions' '$err'"
run "$GPUWIZ" snippet --format vmx --vgpu grid_t4-16c
check "snippet: a T4 vGPU (Turing) does not" \
	sh -c "[ $rc -eq 0 ] && ! grep -q SR-IOV '$err'"
run "$GPUWIZ" mmio --vgpu grid_a100d-80c
check "mmio prints the SR-IOV note with its fix" sh -c \
	"grep -q 'INFO  vGPUs on a100-80g-pcie run on SR-IOV' '$out' && grep -q 'Turn on SR-IOV in the BIOS/UEFI' '$out'"
run "$GPUWIZ" mmio --gpu l40s
check "passthrough has no SR-IOV note" sh -c "! grep -q SR-IOV '$out'"
check "mmio 64 GB (a power of two) -> 128" mmio_is 128 --vram 64
run "$GPUWIZ" mmio --gpu l40s
check "mmio explains both numbers" sh -c "grep -q '48' '$out' && grep -qi 'BAR' '$out'"

run "$GPUWIZ" mmio --json --gpu l40s=2
check "mmio --json exits 0" [ $rc -eq 0 ]
check "mmio --json fields" python3 -c "
import json,sys
d=json.load(open('$out'))
assert d['total_vram_gb']==96 and d['mmio_size_gb']==256, d
assert d['gpus'][0]['vram_gb']==48 and d['gpus'][0]['count']==2
assert isinstance(d['total_vram_gb'],int)
"

# --- vmx: preview changes nothing ----------------------------------------
sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/u.vmx"
cp "$TMP/u.vmx" "$TMP/u.orig"
run "$GPUWIZ" vmx "$TMP/u.vmx" --gpu l40s
check "vmx preview exits 0" [ $rc -eq 0 ]
check "vmx preview shows the MMIO change" has '+ pciPassthru.64bitMMIOSizeGB = "128"'
check "vmx preview shows the reservation" has '+ sched.mem.min = '
check "vmx preview shows the source" has 'KB 323402'
check "vmx preview changes nothing" cmp -s "$TMP/u.vmx" "$TMP/u.orig"
check "vmx preview makes no backup" sh -c "! ls '$TMP'/u.vmx.*.bak >/dev/null 2>&1"
check "vmx warns about BIOS firmware" sh -c "grep -qi 'EFI' '$out'"

# --- vmx --write: backup + only the changed/added lines differ -------------
# prefix_is ORIG FILE: FILE starts with ORIG's bytes, its hot-add lines off
prefix_is() { hot_off "$1" >"$1.off"; head -c "$(stat -c %s "$1.off")" "$2" | cmp -s - "$1.off"; }
run "$GPUWIZ" vmx "$TMP/u.vmx" --gpu l40s --write
check "vmx --write exits 0" [ $rc -eq 0 ]
bak=$(ls "$TMP"/u.vmx.*.bak 2>/dev/null | head -n 1)
check "vmx --write keeps a timestamped backup" [ -n "$bak" ]
check "the backup has the original bytes" cmp -s "${bak:-/nonexistent}" "$TMP/u.orig"
check "vmx --write names the backup" has "$bak"
check "original lines are a byte-identical prefix (hot-add off)" prefix_is "$TMP/u.orig" "$TMP/u.vmx"
check "the patched file has the MMIO size" grep -qx 'pciPassthru.64bitMMIOSizeGB = "128"' "$TMP/u.vmx"
memsz=$(sed -n 's/^memsize = "\([0-9]*\)"/\1/p' "$TMP/u.orig")
check "reservation equals memsize ($memsz)" grep -qx "sched.mem.min = \"$memsz\"" "$TMP/u.vmx"
run "$GPUWIZ" vmx "$TMP/u.vmx" --gpu l40s --write
check "re-running is idempotent" has 'Nothing to change'
check "idempotent run makes no second backup" [ "$(ls "$TMP"/u.vmx.*.bak | wc -l)" -eq 1 ]

# --- CRLF + non-UTF-8 file: bytes kept, CRLF used for new lines -----------
sample vmx/ws-centos7-cp949-korean-displayname-crlf.vmx "$TMP/k.vmx"
cp "$TMP/k.vmx" "$TMP/k.orig"
run "$GPUWIZ" vmx "$TMP/k.vmx" --gpu l40s --write
check "CP949 CRLF file written" [ $rc -eq 0 ]
check "CP949 original bytes are an unchanged prefix (hot-add off)" prefix_is "$TMP/k.orig" "$TMP/k.vmx"
check "new lines use CRLF" sh -c "grep -a 'pciPassthru.64bitMMIOSizeGB' '$TMP/k.vmx' | grep -q \"\$(printf '\\r')\$\""

# --- lock: a running VM is refused ----------------------------------------
sample vmx/ws-freebsd-crlf.vmx "$TMP/f.vmx"
cp "$TMP/f.vmx" "$TMP/f.orig"
: >"$TMP/f.vmx.lck"
run "$GPUWIZ" vmx "$TMP/f.vmx" --gpu l40s --write
check "locked VM refused with exit 2" [ $rc -eq 2 ]
check "locked VM: one error line naming the lock" sh -c "[ \$(wc -l <'$err') -eq 1 ] && grep -q 'lck' '$err'"
check "locked VM: file unchanged" cmp -s "$TMP/f.vmx" "$TMP/f.orig"
check "locked VM: no backup" sh -c "! ls '$TMP'/f.vmx.*.bak >/dev/null 2>&1"
run "$GPUWIZ" vmx "$TMP/f.vmx" --gpu l40s --write --force
check "--force overrides the lock" [ $rc -eq 0 ]
rm -f "$TMP/f.vmx.lck"

# --- a plan failure: reported, nothing written, exit 1 ------------------------
printf 'memSize = "8192"\nfirmware = "efi"\nvirtualHW.version = "21"\n' >"$TMP/new.vmx"
cp "$TMP/new.vmx" "$TMP/new.orig"
run "$GPUWIZ" vmx "$TMP/new.vmx" --gpu l40s --esxi 7.0U3 --write
check "hw newer than the host: exit 1" [ $rc -eq 1 ]
check "hw newer than the host: FAIL finding shown" has 'FAIL  The VM has hardware version 21'
check "hw newer than the host: one line on stderr saying not written" sh -c "[ \$(wc -l <'$err') -eq 1 ] && grep -q 'not written' '$err'"
check "hw newer than the host: file unchanged" cmp -s "$TMP/new.vmx" "$TMP/new.orig"
run "$GPUWIZ" vmx "$TMP/new.vmx" --gpu l40s --esxi 8.0U2 --write
check "the same VM on ESXi 8.0U2 is written" sh -c "[ $rc -eq 0 ] && grep -q 64bitMMIOSizeGB '$TMP/new.vmx'"

# existing larger MMIO kept, smaller raised
printf 'memSize = "8192"\nfirmware = "efi"\npciPassthru.64bitMMIOSizeGB = "512"\n' >"$TMP/big.vmx"
run "$GPUWIZ" vmx "$TMP/big.vmx" --gpu l40s --write
check "a larger existing MMIO size is kept" grep -qx 'pciPassthru.64bitMMIOSizeGB = "512"' "$TMP/big.vmx"
check "kept value is reported" has '(kept)'
printf 'memSize = "8192"\nfirmware = "efi"\npciPassthru.64bitMMIOSizeGB = "32"  # too small\n' >"$TMP/small.vmx"
run "$GPUWIZ" vmx "$TMP/small.vmx" --gpu l40s --write
check "a smaller existing MMIO size is raised in place, comment kept" grep -qx 'pciPassthru.64bitMMIOSizeGB = "128"  # too small' "$TMP/small.vmx"
check "raised only once (no duplicate key appended)" [ "$(grep -c 64bitMMIOSizeGB "$TMP/small.vmx")" -eq 1 ]
printf 'memSize = "8192"\npciPassthru.64bitMMIOSizeGB = "64\n' >"$TMP/mal.vmx"
cp "$TMP/mal.vmx" "$TMP/mal.orig"
bad "malformed key to change names the line" "mal.vmx:2" vmx "$TMP/mal.vmx" --gpu l40s --write
check "malformed file unchanged" cmp -s "$TMP/mal.vmx" "$TMP/mal.orig"

# --- device block -----------------------------------------------------------
sample vmx/ws-hw16-win10-efi-windows1252-crlf.vmx "$TMP/w.vmx"
SYSID=5f2d3a1c-8e4b-11ee-a7c1-0cc47a6b1234
run "$GPUWIZ" vmx "$TMP/w.vmx" --gpu l40s --bdf 0000:42:00.0 --system-id $SYSID --write
check "bdf block written" [ $rc -eq 0 ]
check "id in ESXi decimal form" grep -aq 'pciPassthru0.id = "00000:066:00.0"' "$TMP/w.vmx"
check "device id 0x%04x" grep -aq 'pciPassthru0.deviceId = "0x26b9"' "$TMP/w.vmx"
check "vendor id 0x%04x" grep -aq 'pciPassthru0.vendorId = "0x10de"' "$TMP/w.vmx"
check "system id written" grep -aq "pciPassthru0.systemId = \"$SYSID\"" "$TMP/w.vmx"
check "present TRUE" grep -aq 'pciPassthru0.present = "TRUE"' "$TMP/w.vmx"
run "$GPUWIZ" vmx "$TMP/w.vmx" --gpu l40s --bdf 0000:42:00.0 --system-id $SYSID --write
check "same device is not added twice" sh -c "[ \$(grep -ac '00000:066:00.0' '$TMP/w.vmx') -eq 1 ] && ! grep -aq pciPassthru1 '$TMP/w.vmx'"

# --- uvm on every vGPU, the existing ones included ---------------------------
printf 'memSize = "16384"\nfirmware = "efi"\npciPassthru0.present = "TRUE"\npciPassthru0.vgpu = "grid_l40s-24c"\n' >"$TMP/v.vmx"
run "$GPUWIZ" vmx "$TMP/v.vmx" --vgpu grid_l40s-24c=2 --uvm --write
check "uvm run exits 0" [ $rc -eq 0 ]
check "enable_uvm on the existing vGPU" grep -q 'pciPassthru0.cfg.enable_uvm = "1"' "$TMP/v.vmx"
check "enable_uvm on the new vGPU" grep -q 'pciPassthru1.cfg.enable_uvm = "1"' "$TMP/v.vmx"

# --- json -----------------------------------------------------------------
sample vmx/HANDWRITTEN-FRAGMENT-esxi8-tesla-p40-pcipassthru0-block-with-comments.vmx "$TMP/p40.vmx"
run "$GPUWIZ" vmx "$TMP/p40.vmx" --gpu l40s --json
check "vmx --json exits 0" [ $rc -eq 0 ]
check "vmx --json counts the attached P40" python3 -c "
import json
d=json.load(open('$out'))
assert d['total_vram_gb']==72, d['total_vram_gb']
assert d['mmio_size_gb']==256, d['mmio_size_gb']
assert d['written'] is False and d['backup'] is None
assert any(g['existing'] for g in d['gpus'])
"

# --- snippets parse back ------------------------------------------------------
run "$GPUWIZ" snippet --format bosh --gpu l40s=2
check "bosh snippet exits 0" [ $rc -eq 0 ]
check "bosh snippet parses as YAML with integer ids" python3 -c "
import yaml
d=yaml.safe_load(open('$out'))
e=d['vm_extensions'][0]; cp=e['cloud_properties']
assert cp['pci_passthroughs']==[{'vendor_id':4318,'device_id':9913}]*2, cp
assert cp['vmx_options']['pciPassthru.64bitMMIOSizeGB']=='256'
assert cp['vmx_options']['pciPassthru.use64bitMMIO']=='TRUE'
"
run "$GPUWIZ" snippet --format opsman --gpu l40s --name gpu-l40s
check "opsman JSON has decimal ids and the name" python3 -c "
import json
d=json.load(open('$out'))
assert d['name']=='gpu-l40s'
assert d['cloud_properties']['pci_passthroughs'][0]=={'vendor_id':4318,'device_id':9913}
"
run "$GPUWIZ" snippet --format tile --gpu l40s
check "tile fields parse and carry hex ids" python3 -c "
import yaml
d=yaml.safe_load(open('$out'))
s=str(d)
assert '0x10DE' in s and '0x26B9' in s and '128' in s, s
"
for f in vmx bosh opsman tile; do
	run "$GPUWIZ" snippet --format $f --vgpu grid_l40s-48c=2 --uvm
	check "$f snippet ends with a newline" sh -c "[ \"\$(tail -c 1 '$out' | od -An -c | tr -d ' ')\" = '\\n' ]"
done
run "$GPUWIZ" snippet --format vmx --gpu l40s
check "vmx snippet lines" sh -c "grep -qx 'pciPassthru.64bitMMIOSizeGB = \"128\"' '$out' && ! grep -v -e '^#' -e '^\$' -e '^[A-Za-z0-9_.:]* = \".*\"\$' '$out'"

# --- apply --answers ------------------------------------------------------------
mkdir -p "$TMP/class"
sample vmx/ws-win10-efi-windows1251.vmx "$TMP/class/vm.vmx"
cp "$TMP/class/vm.vmx" "$TMP/class/vm.orig"
cat >"$TMP/class/answers.ini" <<EOT
[gpu]
devices = l40s=2
[vm]
vmx = vm.vmx
esxi = 8.0U2
[options]
uvm = no
[output]
dir = out
formats = vmx,bosh,opsman,tile
EOT
run "$GPUWIZ" apply --answers "$TMP/class/answers.ini"
check "apply exits 0" [ $rc -eq 0 ]
for f in gpuwiz.vmx.txt bosh-vm-extension.yml opsman-vm-extension.json tile-vm-type.yml; do
	check "apply wrote $f" [ -s "$TMP/class/out/$f" ]
done
check "apply wrote the NCCL check for 2 GPUs" python3 -m py_compile "$TMP/class/out/nccl_check.py"
check "the NCCL check is the all-reduce" grep -q 'dist.all_reduce' "$TMP/class/out/nccl_check.py"
check "apply names it" has "nccl_check.py"
check "apply patched the .vmx" grep -aq 'pciPassthru.64bitMMIOSizeGB = "256"' "$TMP/class/vm.vmx"
check "apply kept a backup" sh -c "cmp -s \$(ls '$TMP'/class/vm.vmx.*.bak | head -n1) '$TMP/class/vm.orig'"
check "apply output parses" python3 -c "
import json,yaml
json.load(open('$TMP/class/out/opsman-vm-extension.json'))
yaml.safe_load(open('$TMP/class/out/bosh-vm-extension.yml'))
yaml.safe_load(open('$TMP/class/out/tile-vm-type.yml'))
"

mkdir -p "$TMP/one"
printf '[gpu]\ndevices = l40s\n[output]\ndir = out\nformats = bosh\n' >"$TMP/one/a.ini"
run "$GPUWIZ" apply --answers "$TMP/one/a.ini"
check "apply with one GPU: exit 0" [ $rc -eq 0 ]
check "apply with one GPU writes no NCCL check" [ ! -e "$TMP/one/out/nccl_check.py" ]
check "apply with one GPU writes only bosh" [ "$(ls "$TMP/one/out")" = "bosh-vm-extension.yml" ]

# --- bad input: one line, exit 2, nothing changed ---------------------------------
cp "$TMP/u.orig" "$TMP/b.vmx"
mkdir "$TMP/adir"
printf '\000\001\002binary\377\376' >"$TMP/garbage.vmx"
: >"$TMP/empty.vmx"
bad "missing .vmx" "$TMP/none.vmx" vmx "$TMP/none.vmx" --gpu l40s
bad "directory as .vmx" "$TMP/adir" vmx "$TMP/adir" --gpu l40s
bad "binary garbage .vmx" "$TMP/garbage.vmx" vmx "$TMP/garbage.vmx" --gpu l40s --write
bad "empty .vmx" "$TMP/empty.vmx" vmx "$TMP/empty.vmx" --gpu l40s --write
bad "unknown GPU" "nosuchgpu" mmio --gpu nosuchgpu
bad "count 0" "--gpu" mmio --gpu l40s=0
bad "negative vram" "--vram" mmio --vram -5
bad "zero vram" "--vram" mmio --vram 0
bad "absurd vram" "--vram" mmio --vram 99999999
bad "non-numeric vram" "--vram" mmio --vram lots
bad "no GPU" "GPU" mmio
bad "malformed BDF" "--bdf" vmx "$TMP/b.vmx" --gpu l40s --bdf 0000:zz:00.0 --system-id $SYSID --write
bad "malformed system id" "--system-id" vmx "$TMP/b.vmx" --gpu l40s --bdf 0000:42:00.0 --system-id nope --write
bad "unknown flag" "--frobnicate" mmio --gpu l40s --frobnicate
bad "unknown format" "xml" snippet --format xml --gpu l40s
bad "unknown command" "frob" frob
bad "missing table" "/nonexistent/gpus.ini" mmio --table /nonexistent/gpus.ini --gpu l40s
bad "table is a directory" "$TMP/adir" mmio --table "$TMP/adir" --gpu l40s
sample vmx/ws-fully-encrypted-vm-gbk-4337char-line-crlf.vmx "$TMP/enc.vmx"
cp "$TMP/enc.vmx" "$TMP/enc.orig"
bad "encrypted VM is refused" "encryption" vmx "$TMP/enc.vmx" --gpu l40s --write
check "encrypted VM untouched" cmp -s "$TMP/enc.vmx" "$TMP/enc.orig"
check "bad inputs left the .vmx alone" cmp -s "$TMP/b.vmx" "$TMP/u.orig"
check "bad inputs made no backup" sh -c "! ls '$TMP'/b.vmx.*.bak >/dev/null 2>&1"
check "garbage file untouched" sh -c "[ \$(stat -c %s '$TMP/garbage.vmx') -eq 11 ]"

# answers files
mkdir -p "$TMP/ans"
printf '[gpu]\ndevices = l40s\n[output]\ndir = out\nformats = vmx,xml\n' >"$TMP/ans/badfmt.ini"
printf '[gpu]\ndevices = l40s\n[output\ndir = out\n' >"$TMP/ans/syntax.ini"
printf '[gpu]\ndevices = l40s\n[outptu]\ndir = out\n' >"$TMP/ans/section.ini"
printf '[gpu]\ndevices = nosuchgpu\n[output]\ndir = out\nformats = vmx\n' >"$TMP/ans/gpu.ini"
printf '[gpu]\ndevices = l40s\n[options]\nuvm = maybe\n[output]\ndir = out\nformats = vmx\n' >"$TMP/ans/bool.ini"
printf '[gpu]\ndevices = l40s\n[vm]\nvmx = missing.vmx\n[output]\ndir = out\nformats = vmx\n' >"$TMP/ans/novmx.ini"
: >"$TMP/ans/empty.ini"
bad "answers: unknown format" "[output] formats" apply --answers "$TMP/ans/badfmt.ini"
bad "answers: syntax error names the line" "syntax.ini:3" apply --answers "$TMP/ans/syntax.ini"
bad "answers: unknown section" "[outptu]" apply --answers "$TMP/ans/section.ini"
bad "answers: unknown GPU" "[gpu] devices" apply --answers "$TMP/ans/gpu.ini"
bad "answers: bad boolean" "uvm" apply --answers "$TMP/ans/bool.ini"
bad "answers: missing vmx" "missing.vmx" apply --answers "$TMP/ans/novmx.ini"
bad "answers: empty file" "empty.ini" apply --answers "$TMP/ans/empty.ini"
bad "answers: missing file" "nope.ini" apply --answers "$TMP/ans/nope.ini"
# the wizard's keys: checked the same way; a host's file is the wizard's
printf '[wizard]\nactivity = bake\n[gpu]\ndevices = l40s\n[output]\ndir = out\nformats = vmx\n' >"$TMP/ans/act.ini"
printf '[host]\nkind = ssh\naddress = root@h\npassword = x\n[gpu]\ndevices = l40s\n[output]\ndir = out\nformats = vmx\n' >"$TMP/ans/pw.ini"
printf '[host]\nkind = sample\naddress = esxi-l40s\n[vm]\nname = llm-train\n[gpu]\ndevices = l40s\n[output]\nformats = vmx\n' >"$TMP/ans/sample.ini"
bad "answers: unknown activity" "act.ini: [wizard] activity: 'bake'" apply --answers "$TMP/ans/act.ini"
bad "answers: no password" "pw.ini: [host] password" apply --answers "$TMP/ans/pw.ini"
bad "answers: a sample host's file is the wizard's" "sample.ini: [host] kind = sample" apply --answers "$TMP/ans/sample.ini"
check "broken answers created no output directory" [ ! -e "$TMP/ans/out" ]

# a locked VM in an answers run: nothing at all is written
mkdir -p "$TMP/lk"
cp "$TMP/u.orig" "$TMP/lk/vm.vmx"
mkdir "$TMP/lk/vm.vmx.lck" && : >"$TMP/lk/vm.vmx.lck/M12345.lck"
printf '[gpu]\ndevices = l40s\n[vm]\nvmx = vm.vmx\n[output]\ndir = out\nformats = vmx,bosh\n' >"$TMP/lk/a.ini"
bad "answers: locked VM" "vm.vmx" apply --answers "$TMP/lk/a.ini"
check "locked answers run: no output dir" [ ! -e "$TMP/lk/out" ]
check "locked answers run: vmx unchanged" cmp -s "$TMP/lk/vm.vmx" "$TMP/u.orig"


# a file that is not a .vmx: one error line naming it, exit 2, untouched
mkdir -p "$TMP/notvmx"
for f in vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt \
         nvidia-smi/h200-sxm-passthrough-vm.txt; do
	n=$TMP/notvmx/$(basename "$f")
	cp "$FIX/$f" "$n"
	bad "not a .vmx: $(basename "$f")" "$n: not a .vmx file" vmx "$n" --gpu l40s --write
	check "not a .vmx: $(basename "$f") untouched" cmp -s "$n" "$FIX/$f"
	check "not a .vmx: $(basename "$f") no backup" sh -c "! ls '$n'.*.bak >/dev/null 2>&1"
done
: >"$TMP/notvmx/empty.vmx"
bad "not a .vmx: empty file" "empty.vmx: the file is empty" vmx "$TMP/notvmx/empty.vmx" --gpu l40s --write
printf '[gpu]\ndevices = l40s\n[vm]\nvmx = a.vmx\n[options]\nuvm = yes\n' >"$TMP/notvmx/answers.vmx"
bad "not a .vmx: an answers file" "no config.version or virtualHW.version" vmx "$TMP/notvmx/answers.vmx" --gpu l40s
# the same rule for an answers file's [vm] vmx: nothing written at all
cp "$FIX/vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt" "$TMP/notvmx/log.vmx"
printf '[gpu]\ndevices = l40s\n[vm]\nvmx = log.vmx\n[output]\ndir = out\nformats = vmx,bosh\n' >"$TMP/notvmx/a.ini"
bad "answers: [vm] vmx that is not a .vmx" "log.vmx: not a .vmx file" apply --answers "$TMP/notvmx/a.ini"
check "answers with a non-.vmx: no output directory" [ ! -e "$TMP/notvmx/out" ]
# every real .vmx fixture is still taken for one
for f in "$FIX"/vmx/*.vmx; do
	run "$GPUWIZ" vmx "$f" --gpu l40s
	check "a .vmx: $(basename "$f")" sh -c "! grep -q 'not a .vmx file' '$err'"
done

# a pciPassthruN.id written as the hex host address (a wrong guide's
# 0000:3b:00.0): --write rewrites that line in decimal, in place, and
# leaves every other byte as it was
mkdir -p "$TMP/hex"
sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/hex/vm.vmx"
printf 'pciPassthru0.present = "TRUE"\npciPassthru0.id = "0000:3b:00.0"\npciPassthru0.vendorId = "0x10de"\npciPassthru0.deviceId = "0x26b9"\n' >>"$TMP/hex/vm.vmx"
cp "$TMP/hex/vm.vmx" "$TMP/hex/orig"
run "$GPUWIZ" vmx "$TMP/hex/vm.vmx"
check "hex id: a WARN naming the decimal form" sh -c "grep -q 'WARN  pciPassthru0.id = \"0000:3b:00.0\" is the host address in hexadecimal' '$out' && grep -q '+ pciPassthru0.id = \"00000:059:00.0\"' '$out'"
run "$GPUWIZ" vmx "$TMP/hex/vm.vmx" --write
sed 's/^pciPassthru0.id = "0000:3b:00.0"$/pciPassthru0.id = "00000:059:00.0"/' "$TMP/hex/orig" >"$TMP/hex/want.head"
check "hex id: the line rewritten in place" prefix_is "$TMP/hex/want.head" "$TMP/hex/vm.vmx"
check "hex id: the backup is the original" cmp -s "$(ls "$TMP"/hex/vm.vmx.*.bak | head -n 1)" "$TMP/hex/orig"


# ---- VM limits and conflicts (doc/design.md, section 15.3 and 15.5) ----
# the hw 11 Workstation fixture: memsize 2048, mem.hotadd and vcpu.hotadd
# TRUE, no firmware key (BIOS)
mkdir -p "$TMP/lim"
sample vmx/ws-hw11-ubuntu-shebang-utf8.vmx "$TMP/lim/vm.vmx"
cp "$TMP/lim/vm.vmx" "$TMP/lim/orig"
run "$GPUWIZ" vmx "$TMP/lim/vm.vmx" --gpu rtx-4090 --esxi 8.0U3
check "limits: 2048 MB < 24 GB of framebuffer is a WARN" grep -q 'WARN  The VM has 2048 MB of memory, less than the 24 GB of framebuffer' "$out"
check "limits: the memory fix names 24576 MB" grep -q 'raise its memory to at least 24576 MB' "$out"
check "limits: hot-add INFO names both keys" grep -q 'INFO  Hot-add is on (mem.hotadd, vcpu.hotadd = "TRUE")' "$out"
check "limits: hot-add is written off, with its reason and source" sh -c \
	"grep -q '^  - mem.hotadd = \"TRUE\"' '$out' && grep -q '^  + mem.hotadd = \"FALSE\"' '$out' && grep -q '^  + vcpu.hotadd = \"FALSE\"' '$out' && grep -q 'Hot-add is not supported with passthrough devices' '$out' && grep -q 'VMware vSphere Networking, DirectPath I/O; Broadcom KB 309986' '$out'"
check "limits: DirectPath INFO, once" [ "$(grep -c 'INFO  With a DirectPath I/O device the VM has no snapshots' "$out")" = 1 ]
check "limits: RTX 4090 (BAR1 256 MiB): no EFI WARN" sh -c "! grep -q 'WARN  The VM boots with BIOS' '$out'"
check "limits: RTX 4090: the INFO says why" grep -q 'INFO  The VM boots with BIOS firmware; the GPUs. largest BAR is 256 MiB' "$out"
run "$GPUWIZ" vmx "$TMP/lim/vm.vmx" --gpu rtx-4090 --esxi 8.0U3 --json
check "limits: JSON ids" sh -c "grep -q '\"memory-below-vram\"' '$out' && grep -q '\"device-hotadd\"' '$out' && grep -q '\"device-directpath-limits\"' '$out' && grep -q '\"firmware-bios-small-bars\"' '$out'"
run "$GPUWIZ" vmx "$TMP/lim/vm.vmx" --gpu l40s --esxi 8.0U3
check "limits: an L40S (64 GiB BAR1) keeps the EFI WARN" grep -q 'WARN  The VM boots with BIOS firmware (no firmware key): BARs larger than 16 GB need EFI' "$out"
run "$GPUWIZ" vmx "$TMP/lim/vm.vmx" --gpu rtx-4090 --esxi 8.0U3 --write
check "limits: --write keeps the original bytes (hot-add off)" prefix_is "$TMP/lim/orig" "$TMP/lim/vm.vmx"
check "limits: --write adds no firmware" sh -c "! grep -q '^firmware' '$TMP/lim/vm.vmx'"
# enough memory: no memory WARN (memsize = 32768 appended: the last wins)
printf 'memsize = "32768"\n' >>"$TMP/lim/vm.vmx"
run "$GPUWIZ" vmx "$TMP/lim/vm.vmx" --gpu rtx-4090 --esxi 8.0U3
check "limits: memsize 32768 >= 24 GB: no memory WARN" sh -c "! grep -q 'less than the 24 GB' '$out'"
# the answers path: [vm] memory_mb without a .vmx
printf '[gpu]\ndevices = l40s\n[vm]\nmemory_mb = 16384\n[output]\ndir = out\nformats = vmx\n' >"$TMP/lim/a.ini"
(cd "$TMP/lim" && run "$GPUWIZ" apply --answers a.ini)
check "limits: answers memory_mb 16384 < 48 GB is a WARN" grep -q 'WARN  The VM has 16384 MB of memory, less than the 48 GB' "$out"
# 17 devices on hw 19: a FAIL with the upgrade; 16 fit
sample vmx/ws-win10-utf8-chinese-sharedfolder-crlf.vmx "$TMP/lim/hw19.vmx"
run "$GPUWIZ" vmx "$TMP/lim/hw19.vmx" --gpu l4=17 --esxi 8.0U3
check "limits: 17 devices on hw 19: FAIL naming the limit" grep -q 'FAIL  17 passthrough devices in one VM, but hardware version 19 allows 16' "$out"
check "limits: the FAIL names the upgrade" grep -q 'vim-cmd vmsvc/upgrade <vmid> vmx-21' "$out"
run "$GPUWIZ" vmx "$TMP/lim/hw19.vmx" --gpu l4=16 --esxi 8.0U3
check "limits: 16 devices on hw 19: no FAIL" sh -c "! grep -q 'passthrough devices in one VM' '$out'"

finish
