#!/usr/bin/env bash
# Installs what the tests need (system packages, dockerd, base image, npm packages), builds
# Berth, then runs every check: lint, svelte-check, unit, integration and end-to-end.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
cd "$BERTH_ROOT"
bash scripts/ensure-system.sh
npm ci --no-audit --no-fund
npm run build
step() { echo; echo "=== $1"; shift; "$@"; }
step lint npm run lint
step svelte-check npm run check
step unit npm run test:unit
step integration npm run test:integration
step e2e npm run test:e2e
echo; echo "all checks passed"
