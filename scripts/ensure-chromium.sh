#!/usr/bin/env bash
# Installs Debian's chromium for the hosted pages' browser test
# (e2e/checkout_browser_test.go) when it is missing. Exits non-zero when it
# cannot (not root, no apt-get, no network): the test then skips, saying so.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
	exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "chromium missing and cannot be installed here (needs root and apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium >/dev/null
command -v chromium >/dev/null
