package experiment

import (
	"fmt"
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
	_, p := ds.Dims()
	cfg, err := cfg.Resolved(p)
	if err != nil {
		return 0, nil, err
	}
	count := make([]int, len(cfg.Methods))
	secs := make([]float64, len(cfg.Methods))
	for _, t := range plan(cfg, ds) {
		spec := cfg.Methods[t.method]
		count[t.method]++
		secs[t.method] += rankingSeconds(spec.Name, spec.Params, len(t.split.Train), p)
	}
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

// costs keeps the measured seconds of the finished rankings of each method, to weigh
// the progress of a study by what its units cost rather than by their number.
type costs struct {
	prior   []float64 // per method, from rankingSeconds (0: none)
	sum     []float64
	done    []int
	workers int
}

func newCosts(cfg Config, ds *dataset.Dataset) *costs {
	n, p := ds.Dims()
	c := &costs{prior: make([]float64, len(cfg.Methods)), sum: make([]float64, len(cfg.Methods)),
		done: make([]int, len(cfg.Methods)), workers: max(cfg.Workers, 1)}
	for m, spec := range cfg.Methods {
		c.prior[m] = rankingSeconds(spec.Name, spec.Params, n, p)
	}
	return c
}

// add records a finished ranking of method m that took secs.
func (c *costs) add(m int, secs float64) {
	c.sum[m] += secs
	c.done[m]++
}

// of is the expected cost of one ranking of method m: its measured mean, else its
// prior, else the mean of all measured rankings, else 1.
func (c *costs) of(m int) float64 {
	if c.done[m] > 0 {
		return c.sum[m] / float64(c.done[m])
	}
	if c.prior[m] > 0 {
		return c.prior[m]
	}
	all, k := 0.0, 0
	for i := range c.sum {
		all += c.sum[i]
		k += c.done[i]
	}
	if k > 0 {
		return all / float64(k)
	}
	return 1
}

// progress returns the share of the work done and the time left, given which tasks
// have finished; the time left is 0 until some ranking has been measured.
func (c *costs) progress(tasks []task, finished []bool) (float64, time.Duration) {
	done, left := 0.0, 0.0
	for i, t := range tasks {
		if finished[i] {
			done += c.of(t.method)
		} else {
			left += c.of(t.method)
		}
	}
	measured := false
	for _, d := range c.done {
		measured = measured || d > 0
	}
	if !measured || done+left == 0 {
		return 0, 0
	}
	return done / (done + left), time.Duration(left / float64(c.workers) * float64(time.Second))
}
