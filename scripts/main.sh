#!/usr/bin/env bash
# main.sh is the project's main job: it runs the example programs.
#
# Usage: bash scripts/main.sh   (from any directory)
#
# While the soacgen generator is in progress, the examples run their specs
# on the reference runtime (runtime/soac). Once cmd/soacgen exists, one line
#     go generate ./examples/...
# goes before the run below.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== go run ./examples/quickstart"
go run ./examples/quickstart
