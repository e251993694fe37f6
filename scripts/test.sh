#!/usr/bin/env sh
# Runs the checks and the whole test suite, installing Deno and Chromium first when missing.
# Ends with one line "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. scripts/setup.sh
# setup.sh sets -e; from here on a failure is counted, not fatal.
set +e
log="$(mktemp)"
status=0
rc="$(mktemp)"
# sh has no pipefail: the exit code travels beside the pipe, through a file.
# The browser pool engine tests/pool_engine_test.ts runs (Browserless, from npm, once per machine)
# installs while the checks run; the test installs it itself when run alone.
pool_log="$(mktemp)"
deno run --allow-all tests/support/browserless.ts >"$pool_log" 2>&1 &
pool_pid=$!
{ deno task check 2>&1; echo $? >"$rc"; } | tee "$log"
[ "$(cat "$rc")" = "0" ] || status=1
if [ "$status" -ne 0 ]; then
  echo "check failed: run deno task check and fix what it says"
fi
wait "$pool_pid"
cat "$pool_log"
rm -f "$pool_log"
{ deno task test 2>&1; echo $? >"$rc"; } | tee -a "$log"
[ "$(cat "$rc")" = "0" ] || status=1
summary="$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^(ok|FAILED) \| [0-9]+ passed' | tail -n 1)"
passed="$(printf '%s' "$summary" | sed -nE 's/.*\| ([0-9]+) passed.*/\1/p')"
failed="$(printf '%s' "$summary" | sed -nE 's/.*\| ([0-9]+) failed.*/\1/p')"
rm -f "$log" "$rc"
if [ -z "$passed" ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
if [ "$status" -ne 0 ] && [ "${failed:-0}" = "0" ]; then failed=1; fi
echo "${passed} passed, ${failed:-0} failed"
exit "$status"
