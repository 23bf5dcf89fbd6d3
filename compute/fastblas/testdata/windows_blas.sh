#!/usr/bin/env bash
# Checks, on Linux, that Steadfast's Windows build loads a BLAS DLL at run time and passes
# every argument right. naiveblas.c is built as libopenblas.dll with mingw-w64 and put
# beside the Windows binaries (where Windows looks first); under wine:
#   1. the fastblas tests (load check, 200 random products against gonum's);
#   2. `steadfast.exe version` names the DLL;
#   3. DGF's groups on Colon from steadfast.exe equal the Linux binary's, byte for byte,
#      with the DLL and with the Go kernels (STEADFAST_BLAS=go).
# Needs gcc-mingw-w64-x86-64 and wine (Debian); run from anywhere:
#   bash compute/fastblas/testdata/windows_blas.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export WINEDEBUG=-all WINEPREFIX="$tmp/wine"
cd "$root"
x86_64-w64-mingw32-gcc -O2 -shared -o "$tmp/libopenblas.dll" compute/fastblas/testdata/naiveblas.c
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -o "$tmp/fastblas.test.exe" ./compute/fastblas
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -tags headless -o "$tmp/steadfast.exe" .
CGO_ENABLED=0 go build -tags headless -o "$tmp/steadfast-linux" .
cp "$root/../shared/data/colon.csv" "$tmp/colon.csv"
cd "$tmp"
wineboot --init >/dev/null 2>&1 || true
# wine 8 lacks bcryptprimitives.dll, which Go's Windows runtime loads from system32
x86_64-w64-mingw32-gcc -O2 -shared -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  "$root/compute/fastblas/testdata/bcryptprimitives.c" -lbcrypt
echo "== fastblas tests under wine"
wine fastblas.test.exe -test.v 2>&1 | tr -d '\r' | grep -E '^(=== RUN|--- |PASS|FAIL|ok)' | tee tests.txt
grep -qx PASS tests.txt || { echo "FAIL: the fastblas tests failed under wine"; exit 1; }
echo "== steadfast.exe version"
wine steadfast.exe version 2>&1 | tr -d '\r' | grep -i "matrix products"
grep -q "libopenblas.dll" <<<"$(wine steadfast.exe version 2>&1)" || { echo "FAIL: the DLL was not loaded"; exit 1; }
echo "== DGF on Colon: Windows binary with the DLL against the Linux binary"
wine steadfast.exe groups --data colon.csv --method dgf 2>/dev/null | tr -d '\r' > windows.txt
./steadfast-linux groups --data colon.csv --method dgf 2>/dev/null > linux.txt
if cmp -s windows.txt linux.txt; then
  echo "same groups ($(wc -l < linux.txt) lines)"
else
  echo "FAIL: the groups differ"; diff windows.txt linux.txt | head; exit 1
fi
echo "== DGF on Colon: Windows binary without a DLL (the Go kernels) against the Linux binary"
wine cmd /c "set STEADFAST_BLAS=go&& steadfast.exe version" 2>&1 | tr -d '\r' | grep -i "matrix products" | tee version.txt
grep -q "AVX2 kernels" version.txt || { echo "FAIL: the kernels are not in use"; exit 1; }
wine cmd /c "set STEADFAST_BLAS=go&& steadfast.exe groups --data colon.csv --method dgf" 2>/dev/null | tr -d '\r' > windows-go.txt
if cmp -s windows-go.txt linux.txt; then
  echo "same groups ($(wc -l < linux.txt) lines)"
else
  echo "FAIL: the groups differ"; diff windows-go.txt linux.txt | head; exit 1
fi
