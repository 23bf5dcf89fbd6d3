#!/usr/bin/env bash
# The whole test suite, as CI runs it: go vet, staticcheck, the race detector on the
# Fyne-free packages (the study core, the numerics, the command line), then the window,
# widget and plot tests (run it under an X server: xvfb-run, as the README shows).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== go vet"
go vet ./...
echo "== staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
echo "== go test -race (compute, cli, internal)"
go test -race ./compute/... ./cli/... ./internal/...
echo "== go test (window, widgets, plots)"
go test . ./app/... ./widgets/... ./plots/...
