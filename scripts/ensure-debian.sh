#!/bin/sh
# Real programs from Debian the tests and examples use (never a download): chromium for the browser
# tests (driven by playwright-core), haproxy for the gateway example's replicas, openssl for the
# certificates of the mutual-TLS tests. Installs the missing ones among those named (default: all)
# when we may (root with apt-get); otherwise says how, and goes on (what needs them then fails, saying so).
#   sh scripts/ensure-debian.sh [chromium] [haproxy] [openssl]
[ $# -eq 0 ] && set -- chromium haproxy openssl
missing=""
for package in "$@"; do
  case "$package" in
    chromium) [ -x /usr/bin/chromium ] || missing="$missing chromium" ;;
    haproxy) [ -x /usr/sbin/haproxy ] || missing="$missing haproxy" ;;
    openssl) command -v openssl >/dev/null 2>&1 || missing="$missing openssl" ;;
    *) echo "ensure-debian: unknown package $package" >&2; exit 2 ;;
  esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "a4h: installing$missing from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq $missing >/dev/null; then exit 0; fi
fi
echo "a4h: missing$missing (apt-get install$missing): what needs it will fail" >&2
exit 0
