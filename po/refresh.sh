#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Maintainers: bring po/zh_CN.po up to date with the sources, drop obsolete
# entries, and list what still needs a translation.
set -e
cd "$(dirname "$0")/.."
xgettext --keyword=_ --keyword=N_ --keyword=P_:1,2 --add-comments=TRANSLATORS: --from-code=UTF-8 \
	--language=C --package-name=gpuwiz \
	--msgid-bugs-address=https://example.invalid/gpuwiz/issues \
	-o po/gpuwiz.pot $(cat po/POTFILES.in)
msgmerge --quiet --update --no-fuzzy-matching --backup=off po/zh_CN.po po/gpuwiz.pot
msgattrib --no-obsolete -o po/zh_CN.po po/zh_CN.po
msgattrib --untranslated --no-obsolete po/zh_CN.po | grep -c '^msgid' | sed 's/^/entries without a translation (incl. header): /'
msgfmt -c --statistics -o /dev/null po/zh_CN.po
