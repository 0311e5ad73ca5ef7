#!/bin/sh
# The browser test drives Debian's Chromium through playwright-core (never a downloaded browser).
# Installs it when it is missing and we may (root with apt-get); otherwise says how, and goes on.
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "a4h: installing chromium from Debian for the browser test" >&2
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq chromium >/dev/null; then exit 0; fi
fi
echo "a4h: /usr/bin/chromium is missing (apt-get install chromium): the browser test will fail" >&2
exit 0
