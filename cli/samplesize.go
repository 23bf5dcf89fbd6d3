package cli

import (
	"fmt"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/study"
	"steadfast/plots"
	"strings"
)

// sampleSizeCommand runs the synthetic sample-size study and prints
// method, n, precision, Sim_ID, accuracy; with -o, its three figures.
func sampleSizeCommand(c *call) error {
	preset := c.fs.String("preset", "d1k", "d1k or d5k")
	sizeList := c.fs.String("sizes", "100,200,500,1000", "training sizes, comma-separated")
	k := c.fs.Int("k", 10, "features selected")
	testSize := c.fs.Int("test", 500, "samples in the independent test set")
	methodList := c.fs.String("methods", "svmrfe,cgs", "methods, comma-separated: "+method.Names())
	seed := c.fs.Uint64("seed", 1, "random seed")
	dir := c.fs.String("o", "", "folder for the figures and their CSVs")
	if _, err := c.parse(0); err != nil {
		return err
	}
	p, ok := study.SyntheticPreset(*preset)
	if !ok {
		return fmt.Errorf("--preset: %q is not d1k or d5k", *preset)
	}
	sizes, err := study.ParseTrainingSizes(*sizeList)
	if err != nil {
		return fmt.Errorf("--sizes: %w", err)
	}
	var specs []method.Spec
	for _, name := range strings.Split(*methodList, ",") {
		spec := method.Spec{Name: strings.TrimSpace(name)}
		if _, err := method.New(spec); err != nil {
			return fmt.Errorf("--methods: %v", err)
		}
		specs = append(specs, spec)
	}
	st := experiment.SyntheticStudy{Preset: p, Sizes: sizes, TestSize: *testSize, K: *k, Methods: specs, Seed: *seed}
	if err := st.Check(); err != nil {
		return fmt.Errorf("--k, --test, --sizes: %v", err)
	}
	dest := study.Output{Dir: *dir, Beside: "samplesize"}
	if *dir != "" {
		if err := dest.Check(); err != nil { // before the work, not after
			return err
		}
	}
	ctx := c.ctx
	last := -1
	th := study.NewThrottle(func(pr experiment.Progress) {
		if pct := 100 * pr.Done / max(pr.Total, 1); last < 0 || pct/10 != last/10 {
			fmt.Fprintf(c.errw, "%3d%% (%s)\n", pct, pr.Stage)
			last = pct
		}
	}, 0)
	res, err := st.Run(ctx, th.Report)
	if err != nil {
		return err
	}
	w := newTSV(c.out)
	fmt.Fprintln(w, "method\tn\tprecision\tsim_id\taccuracy")
	for m, label := range res.Labels {
		for si, n := range sizes {
			fmt.Fprintf(w, "%s\t%d\t%.4f\t%.4f\t%.4f\n", label, n, res.Precision[m][si], res.SimID[m][si], res.Accuracy[m][si])
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if *dir != "" {
		var figs []plots.Figure
		for i := range plots.SyntheticMeasures {
			figs = append(figs, plots.SampleSize(res, i))
		}
		return exportFigures(ctx, c, dest, figs...)
	}
	return nil
}
