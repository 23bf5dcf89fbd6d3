package cli

import (
	"fmt"
	"runtime"

	"steadfast/compute/experiment"
	"steadfast/compute/fastblas"
	"steadfast/compute/geo"
)

// versionCommand prints the version, the Go release and platform, the BLAS in use and
// the GEO cache (with --clear-geo-cache, emptied first).
func versionCommand(c *call) error {
	clear := c.fs.Bool("clear-geo-cache", false, "empty the cache of GEO downloads (they are downloaded again when next opened)")
	if _, err := c.parse(0); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "steadfast %s\n%s %s/%s, %d cores\nmatrix products: %s\n", experiment.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), fastblas.Name())
	dir, err := geo.CacheDir()
	if err != nil {
		return err
	}
	if *clear {
		if err := geo.ClearCache(dir); err != nil {
			return err
		}
	}
	b, n := geo.CacheSize(dir)
	fmt.Fprintf(c.out, "GEO cache: %s (%s)\n", dir, geo.SizeText(b, n))
	return nil
}
