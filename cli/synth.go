package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"steadfast/compute/dataset"
	"steadfast/compute/memlimit"
	"steadfast/compute/study"
	"steadfast/compute/synth"
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
	p, ok := synth.Presets[*preset]
	if !ok {
		return fmt.Errorf("unknown preset %q (d1k or d5k)", *preset)
	}
	if *features != 0 {
		if *features < synth.Relevant*2 || *features > 1_000_000 {
			return fmt.Errorf("--features must be between %d and 1000000", synth.Relevant*2)
		}
		p = synth.Sized(*features)
	}
	if *n < 2 || *n > 1_000_000 {
		return fmt.Errorf("--samples must be between 2 and 1000000, not %d", *n)
	}
	if *path == "" {
		return errors.New("synth needs -o FILE.csv")
	}
	if _, err := os.Lstat(*path); err == nil {
		return fmt.Errorf("%s exists; Steadfast does not replace it: choose another name or remove it first", *path)
	}
	// the values (8 bytes) and their CSV text (about 9 bytes) at once
	if err := memlimit.Check(fmt.Sprintf("a synthetic set of %d samples x %d features", *n, p.Features), 17*float64(*n)*float64(p.Features)); err != nil {
		return err
	}
	ds, _ := synth.Generate(p, *n, *seed, *part)
	var b bytes.Buffer
	if err := dataset.WriteCSV(&b, ds); err != nil {
		return err
	}
	return study.WriteFile(*path, b.Bytes())
}
