#!/usr/bin/env bash
# The production path under several Node versions: for each, test/production.e2e.test.ts (a built
# dist/, `npm ci --omit=dev` in a clean copy — better-sqlite3's addon built for that Node — then
# `node dist/main.js` ready, a signed command answered, `npm run outbox|doctor` from dist/).
#
#   scripts/node-matrix.sh              # this machine's node, then Node 22 and 24
#   scripts/node-matrix.sh current 22   # any list: `current` or a major version
#
# Other Node versions come from the npm registry (the node-linux-<arch> packages, with their headers,
# which node-gyp needs), fetched once into $NODE_MATRIX_CACHE (default: a temp dir). Not part of
# `npm test`: CI runs one Node; run this by hand before raising `engines`.
set -uo pipefail
cd "$(dirname "$0")/.."
cache="${NODE_MATRIX_CACHE:-${TMPDIR:-/tmp}/confdesk-node-matrix}"
mkdir -p "$cache"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-matrix: no node-linux package for $(uname -m)" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- current 22 24

results=()
failed=0
for wanted in "$@"; do
  if [ "$wanted" = current ]; then
    bin="$(dirname "$(command -v node)")"
    headers=""
  else
    dir="$cache/node-$wanted"
    if [ ! -x "$dir/package/bin/node" ]; then
      echo "node-matrix: fetching node-linux-$arch@$wanted from the npm registry…"
      tgz="$(cd "$cache" && npm pack "node-linux-$arch@$wanted" --silent | tail -1)" &&
        mkdir -p "$dir" && tar -xzf "$cache/$tgz" -C "$dir" && rm -f "$cache/$tgz" ||
        { results+=("$wanted  not available"); failed=1; continue; }
    fi
    bin="$dir/package/bin"
    headers="$dir/package"
  fi
  version="$("$bin/node" --version)"
  log="$cache/production-$version.log"
  echo "node-matrix: $version: the production path (log: $log)…"
  started=$(date +%s)
  # npm, node-gyp and vitest all run on this Node; node-gyp builds against its own headers.
  if PATH="$bin:$PATH" env ${headers:+npm_config_nodedir="$headers"} \
    npx vitest run test/production.e2e.test.ts >"$log" 2>&1; then
    verdict=pass
  else
    verdict=FAIL
    failed=1
  fi
  install="$(grep -o 'npm ci --omit=dev took [0-9]* s, node_modules [0-9]* MB' "$log" | head -1)"
  results+=("$version  $verdict  $(($(date +%s) - started)) s in all${install:+  ($install)}")
done

echo
echo "Node      result  time"
printf '%s\n' "${results[@]}"
exit "$failed"
