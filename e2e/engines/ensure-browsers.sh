#!/usr/bin/env bash
# Finds the browsers the tests drive; installs missing ones from Debian's packages when it can (as root), else says in one line what is missing and how to install it.
# Chromium always (Playwright); Firefox ESR and WebKitGTK for the engines named in CUTPOINT_ENGINES
# (default "firefox,webkit"; "none" skips them). Used by .ci/run and first thing by `npm test`.
set -uo pipefail

engines=",${CUTPOINT_ENGINES:-firefox,webkit},"
# path:package for each program the tests start.
need=("${CHROMIUM_PATH:-/usr/bin/chromium}:chromium")
case "$engines" in *,firefox,*) need+=("${FIREFOX_PATH:-/usr/bin/firefox-esr}:firefox-esr") ;; esac
case "$engines" in
  *,webkit,*)
    need+=(
      "${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}:webkit2gtk-driver"
      "${MINIBROWSER_PATH:-/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser}:libwebkit2gtk-4.1-0"
      "/usr/bin/xvfb-run:xvfb"
      "/usr/bin/xauth:xauth"
    )
    ;;
esac

missing() {
  local item
  for item in "${need[@]}"; do
    [ -x "${item%%:*}" ] || echo "${item##*:}:${item%%:*}"
  done
}

gone="$(missing)"
if [ -n "$gone" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  pkgs="$(echo "$gone" | cut -d: -f1 | tr '\n' ' ')"
  echo "== installing ${pkgs% } from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086 # one word per package
  { apt-get update -qq && apt-get install -y -qq $pkgs; } >/dev/null 2>&1
  gone="$(missing)"
fi
if [ -n "$gone" ]; then
  pkgs="$(echo "$gone" | cut -d: -f1 | tr '\n' ' ')"
  paths="$(echo "$gone" | cut -d: -f2 | tr '\n' ' ')"
  echo "Missing browsers for the tests: ${paths% } (Debian packages ${pkgs% }); install them with: sudo apt-get install -y ${pkgs% }   (or test in Chromium only with CUTPOINT_ENGINES=none)" >&2
  exit 1
fi
