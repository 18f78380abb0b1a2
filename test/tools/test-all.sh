#!/usr/bin/env bash
# `npm test`: the type-check and lint beside the test run, not before it. Both are single-threaded
# and the suite leaves about a quarter of this machine's two cores idle (its files wait on
# servers, browsers and timers): run one after the other they added ~25 s to a ~5.5 min run.
# Their output is held back and printed after the tests, so it is not cut into Vitest's.
# On a clean clone they have no caches (tsc's build info, ESLint's and Prettier's caches live in
# node_modules/.cache): measured one at a time, 2026-11-29, load 17-27 on the two cores, tsc 65
# CPU-s (three quarters of it checking), ESLint 75, Prettier 32, knip 6: ~180 CPU-s, about a
# minute and a half of the run's wall time; the same check run again with its caches took 26.
# Again without caches, 2026-11-29, load 3 (a worktree's first `npm run check`: tsc beside ESLint,
# Prettier and knip, as `check` runs them): 151 user + 7 sys CPU-s, 116 s wall.
# Exits non-zero when either fails.
set -u
cd "$(dirname "$0")/../.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
npm run --silent check >"$log" 2>&1 &
check=$!
npx vitest run "$@"
tests=$?
wait "$check"
checked=$?
if [ "$checked" -ne 0 ]; then
  cat "$log"
  echo "Type-check, lint or knip failed (npm run check): see above."
  exit 1
fi
echo "Type-check, lint and knip: clean."
exit "$tests"
