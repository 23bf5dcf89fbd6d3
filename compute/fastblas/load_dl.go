//go:build (linux || darwin || freebsd) && !static

package fastblas

import (
	"runtime"

	"github.com/ebitengine/purego"
)

// candidates are the libraries searched for, in order: OpenBLAS as Debian, Fedora,
// Homebrew and conda install it, then macOS's Accelerate.
func candidates() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{"libopenblas.dylib", "/opt/homebrew/opt/openblas/lib/libopenblas.dylib",
			"/usr/local/opt/openblas/lib/libopenblas.dylib",
			"/System/Library/Frameworks/Accelerate.framework/Accelerate"}
	default:
		return []string{"libopenblas.so.0", "libopenblas.so", "libopenblasp.so.0", "libopenblaso.so.0"}
	}
}

func openLibrary(path string) (uintptr, error) {
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
}

func symbol(h uintptr, name string) (uintptr, error) { return purego.Dlsym(h, name) }
