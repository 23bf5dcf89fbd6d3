package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"steadfast/compute/method"
	"steadfast/compute/study"
)

// groupsCommand prints the groups of one method on all samples, best first:
// rank, representative, size, relevance, members (comma-separated).
func groupsCommand(c *call) error {
	data := c.dataFlags()
	name := c.fs.String("method", "drags", "dgf, drags, cgs or kmeans")
	K := c.fs.Int("K", 5, "neighbours for the DGF bandwidth (2..25)")
	gaussian := c.fs.Bool("gaussian", false, "DGF with Gaussian weights (sigma = h/2) on the features within h instead of the paper's flat kernel")
	t := c.fs.Int("t", 10, "CGS bootstraps")
	clusters := c.fs.Int("clusters", 50, "k-means clusters")
	paper := c.fs.Bool("paper", false, "the DRAGS paper's bandwidth: a feature is its own first neighbour")
	seed := c.fs.Uint64("seed", 1, "random seed")
	if _, err := c.parse(0); err != nil {
		return err
	}
	if !slices.Contains([]string{"dgf", "drags", "cgs", "kmeans"}, *name) {
		return fmt.Errorf("unknown group method %q (dgf, drags, cgs or kmeans)", *name)
	}
	if err := checkGroupFlags(*name, *K, *t, *clusters); err != nil {
		return err
	}
	ds, x, err := data.load(c, true)
	if err != nil {
		return err
	}
	if _, p := x.Dims(); *name == "kmeans" && *clusters > p {
		return fmt.Errorf("--clusters %d is more than the %d features", *clusters, p)
	}
	ctx := c.ctx
	start := time.Now()
	groups, err := study.Groups(ctx, ds, x, study.GroupsParams{Method: *name, K: *K, Gaussian: *gaussian, Paper: *paper, Bootstraps: *t, Clusters: *clusters, Seed: *seed})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.errw, "%d groups computed in %.2f s (after reading the file)\n", len(groups), time.Since(start).Seconds())
	w := newTSV(c.out)
	for i, g := range groups {
		names := make([]string, len(g.Members))
		for m, j := range g.Members {
			names[m] = ds.Label(j)
		}
		fmt.Fprintf(w, "%d\t%s\t%d\t%.6g\t%s\n", i+1, ds.Label(g.Representative), len(g.Members), g.Relevance, strings.Join(names, ","))
	}
	return w.Flush()
}

// checkGroupFlags checks the flags against the method catalogue's bounds (one owner for
// each limit), naming the flag.
func checkGroupFlags(name string, K, t, clusters int) error {
	catalogue := map[string]string{"dgf": "drags", "drags": "drags", "cgs": "cgs", "kmeans": "kmeans"}[name]
	in, _ := method.Lookup(catalogue)
	given := map[string]float64{"K": float64(K), "t": float64(t), "clusters": float64(clusters)}
	for _, flag := range []string{"K", "t", "clusters"} {
		for _, d := range in.Params {
			if d.Key == flag && !(given[flag] >= d.Min && given[flag] <= d.Max) {
				return fmt.Errorf("--%s %d: give %s from %g to %g", flag, int(given[flag]), strings.ToLower(d.Label), d.Min, d.Max)
			}
		}
	}
	return nil
}
