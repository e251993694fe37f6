#!/usr/bin/env sh
# Runs browser-agent in the caller's folder (its .env, relative --out, --tasks, upload paths and
# ./downloads), installing Deno and Chromium first when they are missing.
#   echo "find the price of …" | scripts/agent.sh
#   scripts/agent.sh --max-steps 10 "find the price of …"
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/setup.sh"
exec deno run --allow-all --config "$root/deno.json" "$root/main.ts" "$@"
