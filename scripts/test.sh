#!/usr/bin/env bash
# The whole test suite, as CI runs it: go vet, staticcheck, the race detector on the
# Fyne-free packages (the study core, the numerics, the command line), then the window,
# widget and plot tests (run it under an X server: xvfb-run, as the README shows).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== .ci/run installs the README's packages"
# the apt-get list of the README's test command and the list .ci/run installs must agree
readme=$(grep -m1 -o 'apt-get install -y [^&]*xvfb[^&]*' README.md | sed 's/apt-get install -y //' | tr ' ' '\n' | grep . | sort)
ci=$(grep -m1 -o 'for p in [^;]*' .ci/run | sed 's/for p in //' | tr ' ' '\n' | grep . | sort)
if [ "$readme" != "$ci" ]; then
  echo "README's test command installs: $readme"; echo ".ci/run installs: $ci"; exit 1
fi
# timeouts sized for a loaded 2-core machine (the default 10 minutes is not): a hang
# guard, not a speed test
timeout=45m
echo "== go.mod is tidy"
go mod tidy -diff
echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files "*.go" 2>/dev/null || find . -name "*.go"))
if [ -n "$unformatted" ]; then echo "not gofmt-formatted: $unformatted"; exit 1; fi
echo "== go vet"
go vet ./...
echo "== staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
echo "== go test -race (compute, cli, internal)"
# on Debian the README's command installs Slurm, Xvfb and xdotool, so their end-to-end
# tests must not skip
if command -v dpkg >/dev/null; then export STEADFAST_REQUIRE_SLURM=1 STEADFAST_REQUIRE_X=1; fi
go test -race -timeout "$timeout" ./compute/... ./cli/... ./internal/...
(cd internal/clocale && go vet ./... && go test -race ./...) # a module of its own (see its doc)
echo "== go test (compute) with the Go kernels instead of OpenBLAS (what a machine without OpenBLAS runs)"
STEADFAST_BLAS=go go test -timeout "$timeout" ./compute/...
echo "== headless builds without cgo (no GL, no X): linux (static and BLAS-loading), windows, macOS; the same groups with OpenBLAS, with the Go kernel and with gonum's Go BLAS alone"
tmp=$(mktemp -d)
CGO_ENABLED=0 go build -tags headless,static -o "$tmp/static" .
CGO_ENABLED=0 go build -tags headless -o "$tmp/headless" .
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -tags headless -o "$tmp/steadfast.exe" .
CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 go build -tags headless -o "$tmp/steadfast-mac" .
# the Windows console attach and its tests compile (they run under Wine: see the README)
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go vet -tags headless .
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go test -c -tags headless -ldflags=-H=windowsgui -o "$tmp/console.test.exe" .
(ldd "$tmp/static" 2>&1 || true) | grep -q "not a dynamic executable"
# (the output is read whole first: grep -q stops reading at its match, and the writer would die of SIGPIPE)
grep -qE "AVX2 kernel|native Go BLAS" <<<"$("$tmp/static" version)"
CGO_ENABLED=0 go build -tags headless,static,noasm -o "$tmp/noasm" .
grep -q "native Go BLAS" <<<"$("$tmp/noasm" version)"
grep -q "OpenBLAS" <<<"$("$tmp/headless" version)"
for f in colon.csv leukemia.gct; do
  "$tmp/static" groups --data "../shared/data/$f" --method dgf 2>/dev/null > "$tmp/native.tsv"
  STEADFAST_BLAS=go "$tmp/headless" groups --data "../shared/data/$f" --method dgf 2>/dev/null > "$tmp/native2.tsv"
  STEADFAST_BLAS=gonum "$tmp/headless" groups --data "../shared/data/$f" --method dgf 2>/dev/null > "$tmp/gonum.tsv"
  "$tmp/noasm" groups --data "../shared/data/$f" --method dgf 2>/dev/null > "$tmp/noasm.tsv"
  "$tmp/headless" groups --data "../shared/data/$f" --method dgf 2>/dev/null > "$tmp/blas.tsv"
  for v in native native2 gonum noasm; do cmp "$tmp/$v.tsv" "$tmp/blas.tsv"; done
done
rm -rf "$tmp"
echo "== go test -race (window, widgets, plots)"
go test -race -timeout "$timeout" . ./app/... ./widgets/... ./plots/...
