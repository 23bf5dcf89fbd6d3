//go:build !unix && !windows

package geo

// diskFree is unknown here.
func diskFree(string) (uint64, bool) { return 0, false }
