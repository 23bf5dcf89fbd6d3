package cli

import (
	"fmt"
	"runtime"

	"steadfast/compute/experiment"
	"steadfast/compute/fastblas"
)

// versionCommand prints the version, the Go release and platform, and the BLAS in use.
func versionCommand(c *call) error {
	if _, err := c.parse(0); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "steadfast %s\n%s %s/%s, %d cores\nmatrix products: %s\n", experiment.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), fastblas.Name())
	return nil
}
