package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"steadfast/compute/study"
	"steadfast/plots"
)

// writeOutputs writes files and every figure into a fresh folder that takes dest's
// place when all is written (plots.WriteFolder), then lists what it wrote, sorted, on
// standard output.
func writeOutputs(ctx context.Context, c *call, dest study.Output, files map[string][]byte, figs []plots.Figure, size plots.ExportOptions, extra func(tmp string) ([]string, error)) error {
	written, err := plots.WriteFolder(ctx, dest, files, figs, size, extra)
	if err != nil {
		return err
	}
	for _, n := range plots.SizeNotes(figs, size) {
		c.note("%s", n)
	}
	for _, n := range written {
		fmt.Fprintln(c.out, filepath.Join(dest.Dir, n))
	}
	return nil
}
