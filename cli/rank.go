package cli

import (
	"fmt"
	"strconv"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
)

// rankCommand ranks the features on all samples: rank, feature, score a line.
func rankCommand(c *call) error {
	data := c.dataFlags()
	name := c.fs.String("method", "", "method (default fstat, or cox for a survival outcome): "+method.Names())
	seed := c.fs.Uint64("seed", 1, "random seed")
	noZ := c.fs.Bool("no-zscore", false, "do not z-score the features")
	params := paramFlag{}
	c.fs.Var(params, "param", "a method parameter as key=value (repeatable), e.g. --param C=0.5")
	if _, err := c.parse(0); err != nil {
		return err
	}
	spec := method.Spec{Name: *name, Params: params}
	if *name != "" {
		if _, err := method.New(spec); err != nil {
			return err
		}
	}
	ds, _, err := data.load(c, false)
	if err != nil {
		return err
	}
	if spec.Name == "" {
		spec.Name = "fstat"
		if ds.Survival != nil {
			spec.Name = "cox"
		}
	}
	// as a study's ranking on all samples: counts normalised on them (the genes edgeR's
	// filter drops ranked last), z-scored unless --no-zscore
	cfg := experiment.Config{ZScore: !*noZ}
	rk, err := experiment.RankAll(c.ctx, cfg, ds, spec, dataset.Rand(*seed, 100))
	if err != nil {
		return err
	}
	w := newTSV(c.out)
	for pos, j := range rk.Order {
		fmt.Fprintf(w, "%d\t%s\t%.10g%s\n", pos+1, ds.Features[j], rk.Score[j], symbolColumn(ds, j))
	}
	return w.Flush()
}

// paramFlag collects repeated --param key=value flags.
type paramFlag map[string]float64

func (p paramFlag) String() string { return fmt.Sprint(map[string]float64(p)) }

func (p paramFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if !ok || err != nil {
		return fmt.Errorf("--param %q: want key=number", s)
	}
	p[strings.TrimSpace(k)] = f
	return nil
}

// symbolColumn is "\tSYMBOL" for feature j when the data have gene symbols, else "".
func symbolColumn(ds *dataset.Dataset, j int) string {
	if ds.Symbols == nil {
		return ""
	}
	return "\t" + ds.Symbols[j]
}
