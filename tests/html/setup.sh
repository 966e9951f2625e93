#!/usr/bin/env bash
# setup.sh - what the HTML page test needs: Debian's chromium (installed by
# scripts/install-deps.sh) and playwright-core from npm, installed once
# into a cache folder outside the tree.  Prints the folder holding
# node_modules/playwright-core, or says on stderr why it cannot and
# exits 77 (the test then skips).
set -u
cache=${IOREC_TEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/iorec-tests}/node
[ -x /usr/bin/chromium ] || { echo "no /usr/bin/chromium (scripts/install-deps.sh installs the chromium package)" >&2; exit 77; }
command -v node >/dev/null && command -v npm >/dev/null ||
	{ echo "no node/npm (scripts/install-deps.sh installs nodejs and npm)" >&2; exit 77; }
if [ ! -f "$cache/node_modules/playwright-core/package.json" ]; then
	mkdir -p "$cache" || exit 77
	(cd "$cache" && npm install --no-audit --no-fund --silent playwright-core@1 >&2) ||
		{ echo "npm install playwright-core failed (no registry?)" >&2; exit 77; }
fi
echo "$cache"
