package plots

import (
	"context"
	"path/filepath"
	"sort"

	"steadfast/compute/study"
)

// WriteFolder writes files and every figure (each format in Formats with its CSV, at
// size) into a fresh folder that takes dest's place when all is written (study.
// WriteFolder), extra (when not nil) adding more files and returning their names. It
// returns the names written, relative to the folder, sorted.
func WriteFolder(ctx context.Context, dest study.Output, files map[string][]byte, figs []Figure, size ExportOptions, extra func(tmp string) ([]string, error)) ([]string, error) {
	var written []string
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
			paths, err := Export(f, tmp, Formats, size)
			if err != nil {
				return err
			}
			for _, p := range paths {
				written = append(written, filepath.Base(p))
			}
		}
		return nil
	})
	sort.Strings(written)
	return written, err
}
