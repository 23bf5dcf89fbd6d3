package experiment

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"steadfast/compute/dataset"
	"steadfast/compute/method"
)

// dgfSeconds is the time of one DGF run on n samples and p genes on a two-core laptop,
// 0.1 + 1.3e-10 p^2 n seconds: fitted to BenchmarkDGFReal on the real sets (Colon 0.07 s,
// Leukemia 0.59 s, Chowdary 6.9 s) and to a 10 x 10 CV CGS study on Leukemia (0.48 s per
// DGF run), each within a factor of two. Dense blobs of correlated probes cost more than
// scattered genes, so it is a guide, not a promise.
func dgfSeconds(n, p int) float64 {
	return 0.1 + 1.3e-10*float64(p)*float64(p)*float64(n)
}

// gaussianDGFSeconds is dgfSeconds with Gaussian weights, 0.2 + 8e-14 p^3 n seconds:
// every step scans every feature and weighs each member, and the members grow with p
// (BenchmarkDGFGaussianReal: Colon 0.31 s, Leukemia 2.1 s, Chowdary 93 s).
func gaussianDGFSeconds(n, p int) float64 {
	fp := float64(p)
	return 0.2 + 8e-14*fp*fp*fp*float64(n)
}

// kmeansSeconds is the time of one K-means grouping (restarts k-means++ starts, Lloyd to
// convergence) of p genes on n samples into K clusters on a two-core laptop, as a share
// of a study running two at once: 1.8e-9 restarts K p n seconds, fitted to DRAGS 2008
// studies with K-means (K = 100, 50 restarts): 15.0 s a ranking on a Lung-sized set
// (181 x 12,000 from Chowdary), 3.1 s on Leukemia, 0.38 s on Colon (in cache: the model
// gives twice that).
func kmeansSeconds(n, p, K, restarts int) float64 {
	return 1.8e-9 * float64(restarts) * float64(min(K, p)) * float64(p) * float64(n)
}

// rankingSeconds estimates one ranking of a group method on n training samples, its
// parameters as given (the catalogue's defaults for the others), and 0 for the methods
// without a cost model (the single-gene rankers, seconds at most).
func rankingSeconds(name string, params map[string]float64, n, p int) float64 {
	in, ok := method.Lookup(name)
	if !ok {
		return 0
	}
	prm, err := method.Resolve(in, params)
	if err != nil {
		return 0
	}
	one := dgfSeconds(n, p)
	if prm["gaussian"] == 1 {
		one = gaussianDGFSeconds(n, p)
	}
	switch strings.TrimSuffix(name, "+mids") {
	case "drags", "dgf":
		return one
	case "cgs":
		return prm["t"] * one
	case "kmeans":
		return kmeansSeconds(n, p, int(prm["clusters"]), int(prm["restarts"]))
	}
	return 0
}

// Estimate is the expected wall time of the study's group methods (DRAGS, DGF, CGS,
// K-means) on ds: rankingSeconds at each ranking's own training size, summed, and a
// line per method saying how many rankings and how long each takes on average. The
// other methods are not counted.
func Estimate(cfg Config, ds *dataset.Dataset) (time.Duration, []string, error) {
	cfg, err := cfg.ResolvedFor(ds)
	_, p := ds.Dims()
	if err != nil {
		return 0, nil, err
	}
	secs, count := methodSeconds(cfg, p, plan(cfg, ds))
	total := 0.0
	var lines []string
	for m, spec := range cfg.Methods {
		if secs[m] == 0 {
			continue
		}
		total += secs[m]
		lines = append(lines, fmt.Sprintf("%s: %d rankings of about %.1f s each", spec.Name, count[m], secs[m]/float64(count[m])))
	}
	return time.Duration(total * float64(time.Second)), lines, nil
}

// methodSeconds sums, per method of cfg, rankingSeconds of its tasks at their own
// training sizes, and counts its tasks.
func methodSeconds(cfg Config, p int, tasks []task) (secs []float64, count []int) {
	secs, count = make([]float64, len(cfg.Methods)), make([]int, len(cfg.Methods))
	for _, t := range tasks {
		spec := cfg.Methods[t.method]
		secs[t.method] += rankingSeconds(spec.Name, spec.Params, len(t.split.Train), p)
		count[t.method]++
	}
	return secs, count
}

// costs keeps the measured seconds of the finished rankings of each method, to weigh
// the progress of a study by what its units cost rather than by their number.
type costs struct {
	prior   []float64 // per method, from rankingSeconds (0: none)
	sum     []float64
	done    []int
	workers int
}

// newCosts starts the costs of the tasks of a study of cfg on p features, each method's
// prior the mean of rankingSeconds over its tasks at their own training sizes (as
// Estimate counts them).
func newCosts(cfg Config, p int, tasks []task) *costs {
	secs, count := methodSeconds(cfg, p, tasks)
	c := &costs{prior: secs, sum: make([]float64, len(cfg.Methods)),
		done: make([]int, len(cfg.Methods)), workers: max(cfg.Workers, 1)}
	for m := range c.prior {
		c.prior[m] /= float64(max(count[m], 1))
	}
	return c
}

// add records a finished ranking of method m that took secs.
func (c *costs) add(m int, secs float64) {
	c.sum[m] += secs
	c.done[m]++
}

// of is the expected cost of one ranking of method m, in seconds of a ranking running
// beside workers-1 others: its measured mean, else its prior (a share of a study's time,
// so workers times it), else the mean of all measured rankings, else 1; and whether it
// is known (measured or prior).
func (c *costs) of(m int) (float64, bool) {
	if c.done[m] > 0 {
		return c.sum[m] / float64(c.done[m]), true
	}
	if c.prior[m] > 0 {
		return c.prior[m] * float64(c.workers), true
	}
	all, k := 0.0, 0
	for i := range c.sum {
		all += c.sum[i]
		k += c.done[i]
	}
	if k > 0 {
		return all / float64(k), false
	}
	return 1, false
}

// progress returns the share of the work done and the time left, given which tasks
// have finished, what share of each running one is done (see progress.Share) and the
// time since the units began (elapsed; 0 when unknown). Until some ranking has been
// measured, or while a method left has no prior, the share weighs every unit the same
// and the time left is 0 (unknown). Once a ranking is measured and time has passed, the
// time left is the elapsed time at the rate so far (elapsed (1 - share) / share): it
// takes in how many units truly ran at once and what else the machine was doing, which
// the units' own times divided by the workers do not; else it is the cost left over
// the workers.
func (c *costs) progress(tasks []task, finished []bool, partial []float64, elapsed time.Duration) (float64, time.Duration) {
	done, left := 0.0, 0.0
	known := false
	for _, d := range c.done {
		known = known || d > 0
	}
	priors := true
	for i, t := range tasks {
		cost, ok := c.of(t.method)
		switch {
		case finished[i]:
			done += cost
		default:
			priors = priors && ok
			done += partial[i] * cost
			left += (1 - partial[i]) * cost
		}
	}
	if !(known || priors) { // no costs yet: every unit weighs the same, time left unknown
		units := 0.0
		for i := range tasks {
			if finished[i] {
				units++
			} else {
				units += partial[i]
			}
		}
		return units / float64(max(len(tasks), 1)), 0
	}
	if done+left == 0 {
		return 0, 0
	}
	f := done / (done + left)
	if known && elapsed > 0 && f > 0 {
		return f, time.Duration(float64(elapsed) * (1 - f) / f)
	}
	return f, time.Duration(left / float64(c.workers) * float64(time.Second))
}

// runOrder is the order in which to run tasks (indices into tasks): the methods' units
// dealt in proportion (unit r of a method of n units at (r+0.5)/n of the run, ties in
// method order), each method's in its own order. Every method is then measured from the
// start, so the cost-weighted share done and the time left hold after a few units,
// whereas in the plan's order (method by method) a slow method met last was priced,
// until reached, at the cost of the fast ones before it. Outputs are stored by index:
// the order never changes a result.
func runOrder(tasks []task) []int {
	count := map[int]int{}
	rank := make([]int, len(tasks))
	for i, t := range tasks {
		rank[i] = count[t.method]
		count[t.method]++
	}
	at := func(i int) float64 { return (float64(rank[i]) + 0.5) / float64(count[tasks[i].method]) }
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ia, ib := order[a], order[b]
		if at(ia) != at(ib) {
			return at(ia) < at(ib)
		}
		return tasks[ia].method < tasks[ib].method
	})
	return order
}
