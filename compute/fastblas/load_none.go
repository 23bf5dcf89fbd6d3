//go:build !((linux || darwin || freebsd || windows) && !static)

package fastblas

// canLoad says whether this build can load a library at run time.
const canLoad = false

// load finds no library: in static builds (-tags static) and on other systems gonum's Go BLAS
// does the products.
func load(want string) (*library, string) {
	if want != "" && want != "go" && want != "gonum" {
		return nil, "this build cannot load a BLAS library"
	}
	return nil, ""
}
