package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"steadfast/compute/dataset"
	"steadfast/compute/study"
)

// synthCommand writes a synthetic data set (a preset, or p features in groups) as CSV.
func synthCommand(c *call) error {
	preset := c.fs.String("preset", "d1k", "d1k or d5k")
	features := c.fs.Int("features", 0, "instead of a preset: this many features in groups of about 20 (e.g. 12533 for a Lung-sized set)")
	n := c.fs.Int("samples", 100, "number of samples")
	seed := c.fs.Uint64("seed", 1, "random seed")
	part := c.fs.Int("part", 0, "0 for a training set; 1, 2, ... for independent sets of the same population")
	path := c.fs.String("o", "", "output CSV")
	if _, err := c.parse(0); err != nil {
		return err
	}
	if *path == "" {
		return errors.New("synth needs -o FILE.csv")
	}
	if _, err := os.Lstat(*path); err == nil {
		return fmt.Errorf("%s exists; Steadfast does not replace it: choose another name or remove it first", *path)
	}
	ds, err := study.Synthetic(*preset, *features, *n, *seed, *part)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := dataset.WriteCSV(&b, ds); err != nil {
		return err
	}
	return study.WriteFile(*path, b.Bytes())
}
