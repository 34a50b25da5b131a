#!/usr/bin/env bash
# CI of the Beam module: vet, tests on the in-process Prism runner, and the
# command's build. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")"
go vet ./...
go test -count=1 -timeout 10m ./...
go build -o /dev/null ./cmd/credlab-beam
