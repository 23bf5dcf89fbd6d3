package cli

import (
	"errors"
	"fmt"

	"steadfast/compute/experiment"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// wrapperCommand evaluates the bootstrap wrapper as Diaz-Diaz et al. do: for each Na, the
// ranking on all samples and the normalised AUC of its learning curve (3-NN, 5-fold CV,
// top 1..nae features); the exhaustive baselines beside; Fig. 4 and its CSV in -o DIR.
func wrapperCommand(c *call) error {
	data := c.dataFlags()
	ne := c.fs.Float64("ne", 1, "subsets as a multiple of the number of features (1, 2 or 3)")
	naList := c.fs.String("na", "0.2,0.4,0.6,0.8,1", "largest subset sizes, in % of the features, comma-separated")
	nae := c.fs.Int("nae", 100, "features on the learning curve")
	k2 := c.fs.Bool("k2", false, "also the exhaustive K = 2 baseline (every pair: slow)")
	seed := c.fs.Uint64("seed", 1, "random seed")
	dir := c.fs.String("o", "", "folder for the AUC-vs-Na figure")
	if _, err := c.parse(0); err != nil {
		return err
	}
	nas, err := study.ParsePercentages(*naList)
	if err != nil {
		return fmt.Errorf("--na: %w", err)
	}
	if !(*ne > 0 && *ne <= 10) || *nae < 2 {
		return errors.New("--ne must lie in (0, 10] (the paper uses 1 to 3) and --nae be at least 2")
	}
	ds, x, err := data.load(c, true)
	if err != nil {
		return err
	}
	dest := study.Output{Dir: *dir, Reads: data.inputs(), Beside: "wrapper"}
	if *dir != "" {
		if err := dest.Check(); err != nil { // before the work, not after
			return err
		}
	}
	_, p := x.Dims()
	if *nae > p {
		c.note("--nae %d is more than the %d features; the learning curve stops at %d", *nae, p, p)
		*nae = p
	}
	ctx := c.ctx
	pairs, cost := study.WrapperPairs(ds)
	if *k2 {
		fmt.Fprintf(c.errw, "K = 2 evaluates %s pairs, each by 5-fold CV: about %s\n", text.Thousands(pairs), text.Duration(cost))
	} else {
		fmt.Fprintf(c.errw, "K = 2 baseline skipped: it evaluates %s pairs (about %s); add --k2 to run it\n", text.Thousands(pairs), text.Duration(cost))
	}
	r, err := study.Wrapper(ctx, ds, experiment.WrapperSweep{NAs: nas, Ne: *ne, Nae: *nae, K2: *k2, Seed: *seed})
	if err != nil {
		return err
	}
	aucs, base := r.AUCs, r.Baselines
	tw := newTSV(c.out)
	fmt.Fprintln(tw, "na_percent\tsubsets\tauc")
	for i, na := range nas {
		fmt.Fprintf(tw, "%g\t%d\t%.4f\n", na, max(1, int(*ne*float64(p))), aucs[i])
	}
	fmt.Fprintf(tw, "K=1\t%d\t%.4f\n", p, base["exhaustive K = 1"])
	if v, ok := base["exhaustive K = 2"]; ok {
		fmt.Fprintf(tw, "K=2\t%d\t%.4f\n", pairs, v)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if *dir != "" {
		return exportFigures(ctx, c, dest, plots.AUCvsNa(ds.Name, nas, aucs, base))
	}
	return nil
}
