package cli

import (
	"errors"
	"fmt"

	"steadfast/compute/study"
)

// midsCommand prints the size of the MIDS of the correlation graph at epsilon, then its
// features one per line; the sizes of the graph and of the greedy set go to stderr.
func midsCommand(c *call) error {
	data := c.dataFlags()
	eps := c.fs.Float64("epsilon", 0.6, "edge when |r| > epsilon")
	if _, err := c.parse(0); err != nil {
		return err
	}
	if !(*eps > 0 && *eps < 1) { // NaN fails too; checked before the data are read
		return errors.New("--epsilon must lie between 0 and 1")
	}
	ds, _, err := data.load(c, true)
	if err != nil {
		return err
	}
	ctx := c.ctx
	g, set, greedy, err := study.MIDSAt(ctx, ds, *eps)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.errw, "%d features, %d edges at |r| > %g; MIDS %d, greedy maximal independent set %d\n", len(g.Adj), g.Edges(), *eps, len(set), len(greedy))
	w := newTSV(c.out)
	fmt.Fprintln(w, len(set))
	for _, j := range set {
		fmt.Fprintln(w, ds.Features[j]+symbolColumn(ds, j))
	}
	return w.Flush()
}
