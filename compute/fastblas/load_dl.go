//go:build (linux || darwin || freebsd) && !static

package fastblas

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/ebitengine/purego"
)

// canLoad says whether this build can load a library at run time.
const canLoad = true

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

// load opens the library named by want ("" searches the candidates, "go" opens none)
// and returns it, or nil and why not.
func load(want string) (*library, string) {
	if strings.EqualFold(want, "go") {
		return nil, "STEADFAST_BLAS=go"
	}
	paths := candidates()
	if want != "" {
		paths = []string{want}
	}
	for _, path := range paths {
		h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err != nil {
			continue
		}
		lib, err := open(h, path)
		if err != nil {
			return nil, err.Error()
		}
		return lib, ""
	}
	if want != "" {
		return nil, fmt.Sprintf("STEADFAST_BLAS=%s could not be opened", want)
	}
	return nil, "no OpenBLAS found"
}

// open registers the products of the opened library h and sets OpenBLAS to one thread.
func open(h uintptr, path string) (lib *library, err error) {
	defer func() { // RegisterLibFunc panics when a symbol is missing
		if r := recover(); r != nil {
			lib, err = nil, fmt.Errorf("%s has no CBLAS products: %v", path, r)
		}
	}()
	lib = &library{name: libraryName(path)}
	purego.RegisterLibFunc(&lib.dgemm, h, "cblas_dgemm")
	purego.RegisterLibFunc(&lib.sgemm, h, "cblas_sgemm")
	if sym, err := purego.Dlsym(h, "openblas_set_num_threads"); err == nil {
		var threads func(int32)
		purego.RegisterFunc(&threads, sym)
		threads(1)
	}
	return lib, nil
}

// libraryName is how Name reports a library: "OpenBLAS (libopenblas.so.0)".
func libraryName(path string) string {
	if strings.Contains(path, "Accelerate") {
		return "Apple Accelerate"
	}
	return fmt.Sprintf("OpenBLAS (%s, loaded at run time)", path)
}
