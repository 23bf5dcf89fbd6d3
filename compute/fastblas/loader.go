//go:build (linux || darwin || freebsd || windows) && !static

package fastblas

import (
	"fmt"
	"os"
	"strings"

	"github.com/ebitengine/purego"
)

// canLoad says whether this build can load a library at run time.
const canLoad = true

// load opens the library named by want ("" searches the candidates, "go" opens none)
// and returns it, or nil and why not.
func load(want string) (*library, string) {
	if strings.EqualFold(want, "go") || strings.EqualFold(want, "gonum") {
		return nil, "STEADFAST_BLAS=" + strings.ToLower(want)
	}
	paths := candidates()
	if want != "" {
		paths = []string{want}
	}
	if _, set := os.LookupEnv("OPENBLAS_NUM_THREADS"); !set {
		// read when the library loads: no pool of threads that would spin beside ours
		os.Setenv("OPENBLAS_NUM_THREADS", "1")
	}
	for _, path := range paths {
		h, err := openLibrary(path)
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
func open(h uintptr, path string) (*library, error) {
	lib := &library{name: libraryName(path)}
	for _, f := range []struct {
		name string
		fn   any
	}{{"cblas_dgemm", &lib.dgemm}, {"cblas_sgemm", &lib.sgemm}} {
		sym, err := symbol(h, f.name)
		if err != nil {
			return nil, fmt.Errorf("%s has no CBLAS products (%s: %v)", path, f.name, err)
		}
		purego.RegisterFunc(f.fn, sym)
	}
	if sym, err := symbol(h, "openblas_set_num_threads"); err == nil {
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
