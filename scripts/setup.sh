#!/usr/bin/env sh
# Installs what browser-agent needs when it is missing: Deno (npm package "deno") and Chromium
# (Debian/Ubuntu package "chromium" when run as root; otherwise prints the command to run).
# Sourced by scripts/agent.sh and scripts/test.sh; safe to run again.
set -eu

say() { printf '%s\n' "setup: $*" >&2; }

if ! command -v deno >/dev/null 2>&1; then
  if ! command -v npm >/dev/null 2>&1; then
    say "Deno is missing and so is npm: install Node.js (with npm), or Deno from deno.com"
    exit 2
  fi
  say "installing Deno with: npm install -g deno"
  npm install -g deno >&2 || { say "npm install -g deno failed: run it with sudo, or install Deno from deno.com"; exit 2; }
  hash -r 2>/dev/null || true
  if ! command -v deno >/dev/null 2>&1; then
    PATH="$(npm prefix -g)/bin:$PATH"
    export PATH
  fi
fi

have_chrome() {
  [ -n "${CHROME_PATH:-}" ] && [ -x "$CHROME_PATH" ] && return 0
  [ -n "${BROWSER_AGENT_CDP_URL:-}" ] && return 0
  for c in chromium chromium-browser google-chrome google-chrome-stable; do
    command -v "$c" >/dev/null 2>&1 && return 0
  done
  for p in "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" \
    "/Applications/Chromium.app/Contents/MacOS/Chromium"; do
    [ -x "$p" ] && return 0
  done
  return 1
}

if ! have_chrome; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Chromium with: apt-get install -y chromium"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2 ||
      { say "apt-get install chromium failed: install Chromium or Chrome, or set CHROME_PATH"; exit 2; }
  elif command -v apt-get >/dev/null 2>&1; then
    say "Chromium is missing: run  sudo apt-get install -y chromium  (or set CHROME_PATH)"
    exit 2
  else
    say "Chrome/Chromium is missing: install it (macOS: brew install --cask chromium), or set CHROME_PATH"
    exit 2
  fi
fi
