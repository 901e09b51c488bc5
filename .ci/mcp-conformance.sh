#!/usr/bin/env bash
# Runs the official MCP clients of the command line against the MCP endpoint of `heatsource serve` over the
# demo bundle: MCP Inspector's CLI in both protocol eras (2026-07-28 `modern`, 2025 `legacy`, and `auto`), then
# the official conformance suite, failing on any failure not listed (with its reason) in
# test/mcp/conformance-expected-failures.yaml, or on a listed one that passes.
#
# The suite and Inspector need Node 22+, whatever Node runs the project here: Node 24 is installed from the
# npm registry (the `node` package) into a temporary prefix, next to them, and runs them only.
# The suite sends no Authorization header, so the server runs without keys, which is allowed on loopback only.
#
# Environment:
#   HEATSOURCE_CONFORMANCE_TOOLS  folder to install (or reuse) node@24 and the suite in; a fresh temporary
#                                 folder when unset
#   HEATSOURCE_CONFORMANCE_KEEP=1 keep the working folder (server log, suite results) and print its path
#   HEATSOURCE_CONFORMANCE_BUILD=0 use dist/ as it is (the caller has just built the project)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SUITE_PACKAGE='@modelcontextprotocol/conformance'
SUITE_VERSION='0.1.16'
INSPECTOR_PACKAGE='@modelcontextprotocol/inspector'
INSPECTOR_VERSION='2.12.0'
NODE_PACKAGE='node@24'
EXPECTED="$ROOT/test/mcp/conformance-expected-failures.yaml"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/heatsource-mcp-conformance.XXXXXX")"
TOOLS="${HEATSOURCE_CONFORMANCE_TOOLS:-$WORK/tools}"
SERVER_PID=''

log() { printf '[mcp-conformance] %s\n' "$*" >&2; }

stop_server() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=''
}

cleanup() {
  local status=$?
  stop_server
  if [[ "${HEATSOURCE_CONFORMANCE_KEEP:-}" == '1' ]]; then
    log "kept $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- 1. the suite, Inspector and Node 24, in a prefix of their own -------------------------------------
SUITE_DIR="$TOOLS/node_modules/$SUITE_PACKAGE"
INSPECTOR_DIR="$TOOLS/node_modules/$INSPECTOR_PACKAGE"
NODE24="$TOOLS/node_modules/node/bin/node"
installed_version() { node -p "require('$1/package.json').version" 2>/dev/null || true; }
if [[ "$(installed_version "$SUITE_DIR")" != "$SUITE_VERSION" || ! -x "$NODE24" ||
  "$(installed_version "$INSPECTOR_DIR")" != "$INSPECTOR_VERSION" ]]; then
  log "installing $SUITE_PACKAGE@$SUITE_VERSION, $INSPECTOR_PACKAGE@$INSPECTOR_VERSION and $NODE_PACKAGE into $TOOLS"
  mkdir -p "$TOOLS"
  # The `node` package installs its binary from a preinstall script: approve it, so that an npm that skips
  # unapproved install scripts still installs it.
  [[ -f "$TOOLS/package.json" ]] || printf '{ "private": true, "allowScripts": { "node": true } }\n' >"$TOOLS/package.json"
  npm install --prefix "$TOOLS" --no-audit --no-fund --loglevel=error \
    "$SUITE_PACKAGE@$SUITE_VERSION" "$INSPECTOR_PACKAGE@$INSPECTOR_VERSION" "$NODE_PACKAGE" >&2
fi
[[ -x "$NODE24" ]] || { log "no node binary at $NODE24"; exit 2; }
NODE24_MAJOR="$("$NODE24" -p 'process.versions.node.split(".")[0]')"
if ((NODE24_MAJOR < 22)); then
  log "the suite needs Node 22+, got $("$NODE24" --version)"
  exit 2
fi
log "suite $(installed_version "$SUITE_DIR"), inspector $(installed_version "$INSPECTOR_DIR") on node $("$NODE24" --version); server on node $(node --version)"

# --- 2. the project, built (type errors elsewhere still emit JavaScript; the typecheck runs on its own) ---
if [[ "${HEATSOURCE_CONFORMANCE_BUILD:-1}" != '0' ]]; then
  log 'building the project'
  (cd "$ROOT" && npx tsc -p tsconfig.build.json >"$WORK/build.log" 2>&1) || true
else
  : >"$WORK/build.log"
fi
for built in dist/src/serve/app.js dist/src/mcp/index.js dist/pipeline/ingest/demo.js dist/commands/serve.js; do
  [[ -f "$ROOT/$built" ]] || { log "build did not produce $built (see below)"; cat "$WORK/build.log" >&2; exit 2; }
done

# --- 3. the demo bundle -----------------------------------------------------------------------------------
BUNDLE="$WORK/demo.bundle"
CACHED="${TMPDIR:-/tmp}/heatsource-mcp-tests/demo.bundle"
# A bundle left by the test suite is reused when its stamp still matches the demo sources.
[[ -f "$CACHED" ]] && cp "$CACHED" "$BUNDLE"
log 'building the demo bundle'
(cd "$ROOT" && node --input-type=module -e "
  const { ensureDemoBundle } = await import('./dist/pipeline/ingest/demo.js');
  await ensureDemoBundle({ bundle: process.argv[1], jobs: 2 });
" "$BUNDLE") >&2

# --- 4. a server without keys on a loopback port ----------------------------------------------------------
SERVER_LOG="$WORK/server.log"

# Waits for the server to print its URL; sets URL.
wait_for_url() {
  URL=''
  for _ in $(seq 1 600); do
    URL="$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$SERVER_LOG" | head -n 1 || true)"
    [[ -n "$URL" ]] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# The HTTP status of a ping to the MCP endpoint at $1 (000 when nothing answers).
mcp_status() {
  node -e "
    fetch(process.argv[1], {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    }).then((r) => console.log(r.status), () => console.log('000'));
  " "$1"
}

log 'starting `heatsource serve --no-auth` on 127.0.0.1'
node "$ROOT/bin/run.js" serve --no-auth --host 127.0.0.1 --port 0 --bundle "$BUNDLE" \
  --state "$WORK/state.sqlite" --log-level warn >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
if ! wait_for_url || [[ "$(mcp_status "$URL/mcp")" != '200' ]]; then
  log 'serve did not start with its MCP endpoint:'
  cat "$SERVER_LOG" >&2
  exit 2
fi
log "MCP endpoint at $URL/mcp (pid $SERVER_PID)"

# --- 5. MCP Inspector's CLI, in each protocol era -----------------------------------------------------
# Lists the tools and calls one; a line per era and method: INSPECTOR <era> <method> OK|FAILED.
INSPECTOR_FAILED=0
inspector() {
  "$NODE24" "$INSPECTOR_DIR/clients/launcher/build/index.js" --cli "$URL/mcp" --transport http \
    --format json --quiet "$@"
}
for era in modern auto legacy; do
  out="$WORK/inspector-$era-tools-list.json"
  if inspector --protocol-era "$era" --method tools/list >"$out" 2>"$out.err" &&
    grep -q '"name": *"diagnose"' "$out"; then
    echo "INSPECTOR    $era tools/list OK"
  else
    echo "INSPECTOR    $era tools/list FAILED: $(head -c 600 "$out.err") $(head -c 600 "$out")"
    INSPECTOR_FAILED=1
  fi
  out="$WORK/inspector-$era-tools-call.json"
  if inspector --protocol-era "$era" --method tools/call --tool-name get_registry \
    --tool-args-json '{"limit":1}' >"$out" 2>"$out.err" && grep -q '"structuredContent"' "$out"; then
    echo "INSPECTOR    $era tools/call OK"
  else
    echo "INSPECTOR    $era tools/call FAILED: $(head -c 600 "$out.err") $(head -c 600 "$out")"
    INSPECTOR_FAILED=1
  fi
done

# --- 6. the suite -----------------------------------------------------------------------------------------
# The baseline as the suite reads it (a list of names), from ours (names with reasons).
BASELINE="$WORK/expected-failures.yaml"
(cd "$ROOT" && node --input-type=module -e "
  import fs from 'node:fs';
  import { parse } from 'yaml';
  const doc = parse(fs.readFileSync(process.argv[1], 'utf8'));
  const server = doc?.server ?? {};
  const bad = Object.entries(server).filter(([, reason]) => typeof reason !== 'string' || !reason.trim());
  if (bad.length) { console.error('entries without a reason: ' + bad.map(([n]) => n).join(', ')); process.exit(2); }
  fs.writeFileSync(process.argv[2], 'server:\n' + Object.keys(server).map((n) => '  - ' + n + '\n').join(''));
" "$EXPECTED" "$BASELINE")

log "running $SUITE_PACKAGE@$SUITE_VERSION (suite: all)"
set +e
(cd "$WORK" && "$NODE24" "$SUITE_DIR/dist/index.js" server --url "$URL/mcp" --suite all \
  --expected-failures "$BASELINE" -o "$WORK/results") >"$WORK/suite.log" 2>&1
SUITE_STATUS=$?
set -e
stop_server

# --- 7. verdict: one line per scenario, from the suite's own check results --------------------------------
set +e
(cd "$ROOT" && node --input-type=module -e "
  import fs from 'node:fs';
  import path from 'node:path';
  import { parse } from 'yaml';
  const [expectedFile, resultsDir, suiteStatus] = process.argv.slice(1);
  const expected = parse(fs.readFileSync(expectedFile, 'utf8'))?.server ?? {};
  const scenarios = new Map();
  for (const dir of fs.existsSync(resultsDir) ? fs.readdirSync(resultsDir) : []) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir);
    const file = path.join(resultsDir, dir, 'checks.json');
    if (!m || !fs.existsSync(file)) continue;
    const checks = JSON.parse(fs.readFileSync(file, 'utf8'));
    // As the suite's own baseline check does, a warning counts as a failure.
    const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    scenarios.set(m[1], failed);
  }
  let unexpected = 0;
  let stale = 0;
  let passed = 0;
  let expectedFailed = 0;
  const describe = (checks) =>
    checks.map((c) => c.status + ' ' + c.id + (c.errorMessage ? ': ' + c.errorMessage : '')).join('; ');
  for (const [name, failed] of [...scenarios].sort(([a], [b]) => a.localeCompare(b))) {
    const reason = expected[name];
    if (failed.length === 0 && reason) {
      stale++;
      console.log('STALE        ' + name + ': passes but is listed as an expected failure; remove it');
    } else if (failed.length === 0) {
      passed++;
      console.log('PASS         ' + name);
    } else if (reason) {
      expectedFailed++;
      console.log('EXPECTED     ' + name + ': ' + reason);
    } else {
      unexpected++;
      console.log('UNEXPECTED   ' + name + ': ' + describe(failed));
    }
  }
  const missing = Object.keys(expected).filter((n) => !scenarios.has(n));
  for (const name of missing) console.log('NOT RUN      ' + name + ' (listed as an expected failure)');
  console.log('scenarios: ' + scenarios.size + ', passed: ' + passed + ', expected failures: ' + expectedFailed +
    ', unexpected failures: ' + unexpected + ', stale entries: ' + stale + ', suite exit status: ' + suiteStatus);
  process.exit(scenarios.size === 0 || unexpected > 0 || stale > 0 || Number(suiteStatus) !== 0 ? 1 : 0);
" "$EXPECTED" "$WORK/results" "$SUITE_STATUS")
VERDICT=$?
set -e
if ((VERDICT != 0 || INSPECTOR_FAILED != 0)); then
  log 'FAILED; the suite said:'
  cat "$WORK/suite.log" >&2
  exit 1
fi
log 'OK'
