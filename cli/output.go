package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	"steadfast/compute/study"
	"steadfast/plots"
)

// writeOutputs writes files and every figure (each format with its CSV) into a fresh
// folder that takes dest's place when all is written, extra (when not nil) adding more
// files and returning their names, then lists what it wrote, sorted, on standard output.
func writeOutputs(ctx context.Context, c *call, dest study.Output, files map[string][]byte, figs []plots.Figure, size plots.ExportOptions, extra func(tmp string) ([]string, error)) error {
	var written []string // relative to the folder
	dir := dest.Dir
	err := study.WriteFolder(ctx, dest, func(tmp string) error {
		for name, b := range files {
			if err := study.WriteFile(filepath.Join(tmp, name), b); err != nil {
				return err
			}
			written = append(written, name)
		}
		if extra != nil {
			names, err := extra(tmp)
			if err != nil {
				return err
			}
			written = append(written, names...)
		}
		for _, f := range figs {
			if err := ctx.Err(); err != nil {
				return err
			}
			paths, err := plots.Export(f, tmp, plots.Formats, size)
			if err != nil {
				return err
			}
			for _, p := range paths {
				written = append(written, filepath.Base(p))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(written)
	for _, n := range written {
		fmt.Fprintln(c.out, filepath.Join(dir, n))
	}
	return nil
}
