package experiment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"steadfast/compute/dataset"
	"steadfast/internal/text"
)

// Shard is the raw output of one share of a study's units (shard I of N): every
// ranking, score vector, group list and test prediction that the summary needs. The
// shards of one study merge into the Result a single run gives (Merge).
type Shard struct {
	Version    string  `json:"version"`
	I          int     `json:"i"` // 1..N
	N          int     `json:"n"`
	Config     Config  `json:"config"` // resolved
	ConfigHash string  `json:"configHash"`
	DataHash   string  `json:"dataHash"`
	Units      int     `json:"units"` // of the whole study
	Results    []Unit  `json:"-"`     // in task order
	Seconds    float64 `json:"seconds"`
}

// Unit is one unit's output: its index among the study's units and what it produced.
type Unit struct {
	Task        int
	Order       []int
	Score       []float64
	Groups      [][]int
	Relevance   []float64
	Acc         map[string][]float64
	Correct     map[string][][]bool
	Scores      map[string][][]float64 // nil from shards written before they were kept
	Pred        map[string][][]int     // the classes predicted; nil from earlier shards
	PredSecs    float64                // the part of Secs in the classifiers
	Secs        float64
	Unconverged int
}

// ShardTasks returns the units of shard i of n among total: i-1, i-1+n, i-1+2n, ...
// Units are listed method by method, so every shard gets its share of each method.
func ShardTasks(total, i, n int) []int {
	var out []int
	for t := i - 1; t < total; t += n {
		out = append(out, t)
	}
	return out
}

// Units is the number of units (rankings) of the study of cfg on ds, 0 when cfg does
// not resolve for ds.
func Units(cfg Config, ds *dataset.Dataset) int {
	cfg, err := cfg.ResolvedFor(ds)
	if err != nil {
		return 0
	}
	return len(plan(cfg, ds))
}

// ConfigHash is the SHA-256 (hex) of what in cfg decides the numbers: everything but
// the paths of the data files and the GEO files' record (the data are hashed
// themselves, so a cluster node may read them from elsewhere) and the number of workers
// (which never changes results).
func ConfigHash(cfg Config) string {
	cfg.DataPath, cfg.Read.CLSPath, cfg.Read.SymbolsPath, cfg.Workers, cfg.Source = "", "", "", 0, nil
	b, _ := json.Marshal(cfg)
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// RunShard runs shard i of n (1 <= i <= n) of the study of cfg on ds. Progress counts
// the shard's units.
func RunShard(ctx context.Context, cfg Config, ds *dataset.Dataset, i, n int, progress func(Progress)) (*Shard, error) {
	start := time.Now()
	d, err := newDesign(cfg, ds)
	if err != nil {
		return nil, err
	}
	if n < 1 || i < 1 || i > n {
		return nil, fmt.Errorf("shard %d/%d: the shard number must lie in 1..%d", i, n, max(n, 1))
	}
	if n > len(d.tasks) {
		return nil, fmt.Errorf("%d shards asked for but the study has only %d units (rankings); use at most %d", n, len(d.tasks), len(d.tasks))
	}
	idx := ShardTasks(len(d.tasks), i, n)
	outs := make([]taskOut, len(d.tasks))
	if err := d.compute(ctx, ds, nil, idx, outs, progress); err != nil {
		return nil, err
	}
	sh := &Shard{Version: Version, I: i, N: n, Config: d.cfg, ConfigHash: ConfigHash(d.cfg), DataHash: ds.Hash(), Units: len(d.tasks)}
	for _, t := range idx {
		sh.Results = append(sh.Results, toUnit(t, outs[t]))
	}
	sh.Seconds = time.Since(start).Seconds()
	return sh, nil
}

// Merge checks that shards are every shard of one study on ds, each once, and returns
// the study's Result: the same as Run's but for the seconds, which are the longest
// shard's plus the merge's (the wall time when the shards run side by side). It returns
// ctx's error when cancelled.
func Merge(ctx context.Context, shards []*Shard, ds *dataset.Dataset) (*Result, error) {
	start := time.Now()
	if err := checkShards(shards, ds.Hash()); err != nil {
		return nil, err
	}
	first := shards[0]
	d, err := newDesign(first.Config, ds)
	if err != nil {
		return nil, err
	}
	if len(d.tasks) != first.Units {
		return nil, fmt.Errorf("the shards hold a study of %d units but this configuration on these data plans %d; was the shard written by another version?", first.Units, len(d.tasks))
	}
	_, p := ds.Dims()
	outs := make([]taskOut, len(d.tasks))
	longest := 0.0
	for _, sh := range shards {
		want := ShardTasks(first.Units, sh.I, sh.N)
		if len(sh.Results) != len(want) {
			return nil, fmt.Errorf("shard %d/%d holds %d units, not its %d: the file is damaged; run the shard again", sh.I, sh.N, len(sh.Results), len(want))
		}
		for k, u := range sh.Results {
			if u.Task != want[k] {
				return nil, fmt.Errorf("shard %d/%d holds unit %d where unit %d belongs: the file is damaged; run the shard again", sh.I, sh.N, u.Task+1, want[k]+1)
			}
			if err := d.checkUnit(u, p, len(ds.Classes)); err != nil {
				return nil, fmt.Errorf("shard %d/%d, unit %d: %v: the file is damaged; run the shard again", sh.I, sh.N, u.Task+1, err)
			}
			outs[u.Task] = u.out()
		}
		longest = max(longest, sh.Seconds)
	}
	res, err := d.result(ctx, ds, outs)
	if err != nil {
		return nil, err
	}
	res.Seconds = longest + time.Since(start).Seconds()
	return res, nil
}

// maxUnits bounds the units a shard may claim its study has (a study of 100 methods
// under the largest protocol has far fewer), so no count read from a file sizes a loop.
const maxUnits = 1 << 24

// checkShards checks that the shards come from one version, configuration and data
// (dataHash), and that each of 1..N is there once.
func checkShards(shards []*Shard, dataHash string) error {
	if len(shards) == 0 {
		return fmt.Errorf("no shards to merge")
	}
	first := shards[0]
	seen := map[int]bool{}
	for _, sh := range shards {
		switch {
		case sh.N < 1 || sh.N > sh.Units || sh.Units > maxUnits || sh.I < 1 || sh.I > sh.N:
			return fmt.Errorf("shard %d/%d of %d units: the file is damaged; run the shard again", sh.I, sh.N, sh.Units)
		case sh.Version != Version:
			return fmt.Errorf("shard %d/%d was written by Steadfast %s, this is %s: run every shard with one version", sh.I, sh.N, sh.Version, Version)
		case sh.N != first.N:
			return fmt.Errorf("shard %d/%d and shard %d/%d split the study differently: merge the shards of one split", first.I, first.N, sh.I, sh.N)
		case sh.Units != first.Units:
			return fmt.Errorf("shard %d/%d and shard %d/%d count the study's units differently (%d and %d): merge the shards of one study", first.I, first.N, sh.I, sh.N, first.Units, sh.Units)
		case sh.ConfigHash != first.ConfigHash || ConfigHash(sh.Config) != sh.ConfigHash:
			return fmt.Errorf("shard %d/%d was run with another configuration than shard %d/%d: merge the shards of one study", sh.I, sh.N, first.I, first.N)
		case sh.DataHash != first.DataHash:
			return fmt.Errorf("shard %d/%d was run on other data than shard %d/%d: merge the shards of one study", sh.I, sh.N, first.I, first.N)
		case sh.DataHash != dataHash:
			return fmt.Errorf("the shards were run on other data than the file given to merge (its values, names or classes differ): give the data file the shards used (--data)")
		case seen[sh.I]:
			return fmt.Errorf("shard %d/%d is given twice", sh.I, sh.N)
		}
		seen[sh.I] = true
	}
	var missing []int
	for i := 1; i <= first.N; i++ {
		if !seen[i] {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%d of the %d shards %s missing (%s): run them (steadfast run CONFIG --shard I/%d -o DIR) and give every shard's folder", len(missing), first.N, text.Plural(len(missing), "is|are"), listInts(missing, 10), first.N)
	}
	return nil
}

// listInts lists up to max numbers, then how many more.
func listInts(v []int, max int) string {
	s := fmt.Sprint(v[:min(len(v), max)])
	s = s[1 : len(s)-1]
	if len(v) > max {
		s += fmt.Sprintf(" and %d more", len(v)-max)
	}
	return s
}

func toUnit(t int, o taskOut) Unit {
	return Unit{Task: t, Order: o.order, Score: o.score, Groups: o.groups, Relevance: o.relevance,
		Acc: o.acc, Correct: o.correct, Scores: o.scores, Pred: o.preds, Secs: o.secs, PredSecs: o.predSecs, Unconverged: o.unconverged}
}

func (u Unit) out() taskOut {
	return taskOut{order: u.Order, score: u.Score, groups: u.Groups, relevance: u.Relevance,
		acc: u.Acc, correct: u.Correct, scores: u.Scores, preds: u.Pred, secs: u.Secs, predSecs: u.PredSecs, unconverged: u.Unconverged}
}

// checkUnit reports a unit whose output does not fit its task in d: a ranking that is
// not a permutation of the p features, groups or relevances out of place, or accuracies
// that are not one per classifier and accuracy k, with one verdict per test sample.
// A shard passes its checksum before this, so this guards against crafted files and
// other versions: nothing the merge indexes is used unchecked.
func (d *design) checkUnit(u Unit, p, classes int) error {
	if err := u.check(p); err != nil {
		return err
	}
	if u.Relevance != nil && len(u.Relevance) != len(u.Groups) {
		return fmt.Errorf("%d relevances for %d groups", len(u.Relevance), len(u.Groups))
	}
	if !(u.Secs >= 0 && u.Secs < 1e9) || !(u.PredSecs >= 0 && u.PredSecs <= u.Secs) || u.Unconverged < 0 {
		return fmt.Errorf("a time of %g s or %d unconverged fits", u.Secs, u.Unconverged)
	}
	t := d.tasks[u.Task]
	if !t.eval || len(t.split.Test) == 0 {
		if u.Acc != nil || u.Correct != nil {
			return fmt.Errorf("accuracies for a unit that tests nothing")
		}
		return nil
	}
	if len(u.Acc) != len(d.cfg.Classifiers) || len(u.Correct) != len(d.cfg.Classifiers) {
		return fmt.Errorf("accuracies of %d classifiers, not %d", len(u.Acc), len(d.cfg.Classifiers))
	}
	for _, cl := range d.cfg.Classifiers {
		acc, right := u.Acc[cl], u.Correct[cl]
		if len(acc) != len(d.accKs) || len(right) != len(d.accKs) {
			return fmt.Errorf("%s: accuracies at %d ks, not %d", cl, len(acc), len(d.accKs))
		}
		for ki := range acc {
			if !(acc[ki] >= 0 && acc[ki] <= 1) || len(right[ki]) != len(t.split.Test) {
				return fmt.Errorf("%s: an accuracy of %g or %d verdicts for %d test samples", cl, acc[ki], len(right[ki]), len(t.split.Test))
			}
		}
	}
	if u.Scores != nil {
		if err := checkScores(u.Scores, d.cfg.Classifiers, len(d.accKs), len(t.split.Test), classes); err != nil {
			return err
		}
	}
	return checkPreds(u.Pred, d.cfg.Classifiers, len(d.accKs), len(t.split.Test), classes)
}

// checkPreds reports predicted classes that are not, for each of the classifiers, one
// list per accuracy k of a class index per test sample; nil (kept since) passes.
func checkPreds(preds map[string][][]int, classifiers []string, ks, tests, classes int) error {
	if preds == nil {
		return nil
	}
	if len(preds) != len(classifiers) {
		return fmt.Errorf("predicted classes of %d classifiers, not %d", len(preds), len(classifiers))
	}
	for _, cl := range classifiers {
		if len(preds[cl]) != ks {
			return fmt.Errorf("%s: predicted classes at %d ks, not %d", cl, len(preds[cl]), ks)
		}
		for _, v := range preds[cl] {
			if len(v) != tests {
				return fmt.Errorf("%s: %d predicted classes for %d test samples", cl, len(v), tests)
			}
			for _, c := range v {
				if c < 0 || c >= classes {
					return fmt.Errorf("%s: a predicted class %d of %d classes", cl, c, classes)
				}
			}
		}
	}
	return nil
}

// checkScores reports scores that are not, for each of the classifiers, one list per
// accuracy k of tests x classes finite numbers.
func checkScores(scores map[string][][]float64, classifiers []string, ks, tests, classes int) error {
	if len(scores) != len(classifiers) {
		return fmt.Errorf("scores of %d classifiers, not %d", len(scores), len(classifiers))
	}
	for _, cl := range classifiers {
		sc := scores[cl]
		if len(sc) != ks {
			return fmt.Errorf("%s: scores at %d ks, not %d", cl, len(sc), ks)
		}
		for _, v := range sc {
			if len(v) != tests*classes {
				return fmt.Errorf("%s: %d scores for %d test samples of %d classes", cl, len(v), tests, classes)
			}
			for _, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return fmt.Errorf("%s: a score of %g", cl, x)
				}
			}
		}
	}
	return nil
}

// check reports a unit whose ranking is not a permutation of p features with p scores.
func (u Unit) check(p int) error {
	if len(u.Order) != p || len(u.Score) != p {
		return fmt.Errorf("a ranking of %d features with %d scores, for %d features", len(u.Order), len(u.Score), p)
	}
	seen := make([]bool, p)
	for _, j := range u.Order {
		if j < 0 || j >= p || seen[j] {
			return fmt.Errorf("its ranking is not an order of the %d features", p)
		}
		seen[j] = true
	}
	for _, g := range u.Groups {
		if len(g) == 0 {
			return fmt.Errorf("a group without members")
		}
		if slices.ContainsFunc(g, func(j int) bool { return j < 0 || j >= p }) {
			return fmt.Errorf("a group member outside the %d features", p)
		}
	}
	return nil
}
