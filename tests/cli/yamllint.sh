# SPDX-License-Identifier: GPL-3.0-or-later
# yamllint.sh: yamllint with gpuwiz's config for a test (sourced after
# lib.sh, with SRC set).
#   lint NAME FILE   ok when FILE passes `yamllint -s -c tests/yamllint.yml`
#                    (warnings too); a skipped ok without yamllint
lint() {
	if ! command -v yamllint >/dev/null 2>&1; then
		echo "ok - $1 # SKIP yamllint not installed"
		return
	fi
	if yamllint -s -c "$SRC/tests/yamllint.yml" "$2" >"$TMP/lint" 2>&1; then
		ok "$1"
	else nok "$1" "$(cat "$TMP/lint")"; fi
}
