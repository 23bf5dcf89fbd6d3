#!/usr/bin/env bash
# Builds the installable app with the fyne tool pinned in tools/go.mod, its name, icon,
# version and app ID taken from FyneApp.toml, into dist/:
#   scripts/package.sh linux     dist/Steadfast.tar.xz (binary, .desktop, icon; make install)
#   scripts/package.sh windows   dist/Steadfast.exe (cross-built here with mingw-w64)
#   scripts/package.sh darwin    dist/Steadfast.app (on a Mac, with Xcode's command-line tools)
# and the headless binaries for a cluster or a script (no cgo, no GL, no X):
#   scripts/package.sh headless  dist/steadfast-headless-{linux-amd64,darwin-arm64,windows-amd64.exe}
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-linux}
bin=$(mktemp -d)
# fyne package --release raises FyneApp.toml's Build; a release takes the number written
# there (raise it by hand and commit), so the file is put back as it was
cp FyneApp.toml "$bin/FyneApp.toml"
trap 'cp "$bin/FyneApp.toml" FyneApp.toml; rm -rf "$bin"' EXIT
go build -modfile=tools/go.mod -o "$bin/fyne" fyne.io/tools/cmd/fyne # for this machine, whatever GOOS says
fyne() { "$bin/fyne" "$@"; }
mkdir -p dist
case "$target" in
linux)
  fyne package --os linux --release
  mv -f Steadfast.tar.xz dist/
  ;;
windows)
  CC=${CC:-x86_64-w64-mingw32-gcc} CGO_ENABLED=1 GOOS=windows GOARCH=amd64 fyne package --os windows --release
  mv -f Steadfast.exe dist/
  ;;
darwin)
  fyne package --os darwin --release
  rm -rf dist/Steadfast.app
  mv -f Steadfast.app dist/
  ;;
headless)
  CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -tags headless -o dist/steadfast-headless-linux-amd64 .
  CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 go build -trimpath -tags headless -o dist/steadfast-headless-darwin-arm64 .
  CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -trimpath -tags headless -o dist/steadfast-headless-windows-amd64.exe .
  ;;
*)
  echo "usage: scripts/package.sh linux|windows|darwin|headless" >&2
  exit 2
  ;;
esac
ls -l dist
