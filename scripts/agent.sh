#!/usr/bin/env sh
# Runs browser-agent, installing Deno and Chromium first when they are missing.
#   echo "find the price of …" | scripts/agent.sh
#   scripts/agent.sh --max-steps 10 "find the price of …"
set -eu
cd "$(dirname "$0")/.."
. scripts/setup.sh
exec deno run --allow-all main.ts "$@"
