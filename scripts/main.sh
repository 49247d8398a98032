#!/usr/bin/env bash
# main.sh is the project's main job: it regenerates the fused code of every
# example with soacgen (go generate), checks that nothing drifted, and runs
# the quick-start example program.
#
# Usage: bash scripts/main.sh   (from any directory; needs only Go)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== go generate ./examples/..."
go generate ./examples/...

echo "== go run ./cmd/soacgen -check ./examples/...   (exit 1 if a generated file is stale)"
go run ./cmd/soacgen -check ./examples/...

echo "== go run ./cmd/soacgen -stats ./examples/normalize2"
go run ./cmd/soacgen -stats ./examples/normalize2 2>&1

echo "== go run ./examples/quickstart"
go run ./examples/quickstart
