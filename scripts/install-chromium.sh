#!/usr/bin/env bash
# Installs Debian's Chromium for the explorer's browser test, when the machine can:
# the test skips with a message naming this script where Chromium is absent.
set -uo pipefail
if command -v chromium > /dev/null 2>&1; then exit 0; fi
if ! command -v apt-get > /dev/null 2>&1; then
  echo "install-chromium: no apt-get here; the browser test will skip" >&2; exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo > /dev/null 2>&1; then sudo="sudo -n"; else
    echo "install-chromium: not root and no sudo; the browser test will skip" >&2; exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -q chromium > /dev/null 2>&1 \
  || { $sudo apt-get update -q > /dev/null 2>&1 && $sudo apt-get install -y -q chromium > /dev/null 2>&1; } \
  || echo "install-chromium: apt-get could not install chromium; the browser test will skip" >&2
exit 0
