#!/usr/bin/env bash
# Installs Berth's dependencies, builds it and starts it with its embedded defaults:
# SQLite at ./data/berth.db, the local engine if one answers, http://127.0.0.1:18789.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
cd "$BERTH_ROOT"
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
[ -f build/handler.js ] && [ -z "$(find src drizzle -newer build/handler.js -print -quit)" ] || npm run build
# shellcheck disable=SC2046 # the flags are words on purpose
exec node $(cat scripts/server-node-flags) server.js
