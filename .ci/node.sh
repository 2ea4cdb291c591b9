# Sourced by .ci/run: puts Node.js 22 first on PATH when the machine's own node is older (Debian bookworm's is
# 20, out of support since April 2026; package.json's engines ask for 22.12+ or 24, and some dependencies
# warn EBADENGINE below 22). The binary is the official build the Node.js project publishes to the npm
# registry as node-<platform>-<arch> (CI reaches that registry and not nodejs.org), pinned, and kept in
# .ci/.node (gitignored) so a later run on the same checkout does not fetch it again.
CI_NODE_VERSION=22.23.3

ci_node_setup() {
  local major
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -ge 22 ]; then
    return 0
  fi
  local platform arch
  platform=$(uname -s | tr '[:upper:]' '[:lower:]')
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      echo "No Node.js $CI_NODE_VERSION build for $(uname -m) on the npm registry: install Node.js 22 or 24." >&2
      return 1
      ;;
  esac
  local package="node-$platform-$arch"
  local prefix="$PWD/.ci/.node"
  local bin="$prefix/node_modules/$package/bin"
  if [ "$("$bin/node" --version 2>/dev/null)" != "v$CI_NODE_VERSION" ]; then
    echo "Node.js $(node --version 2>/dev/null || echo none) here: installing $package@$CI_NODE_VERSION into .ci/.node"
    npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "$package@$CI_NODE_VERSION"
  fi
  export PATH="$bin:$PATH"
  hash -r
  echo "Using Node.js $(node --version) from .ci/.node"
}
