package experiment

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/group"
	"steadfast/compute/method"
	"steadfast/compute/parallel"
	"steadfast/compute/stability"
)

// Version of the result format and of the program that wrote it.
const Version = "0.1.0"

// Result is what a run produced; with its Config it is saved as one JSON file.
type Result struct {
	Version string         `json:"version"`
	Config  Config         `json:"config"`
	Data    DataInfo       `json:"data"`
	Methods []MethodResult `json:"methods"`
	// Comparisons are McNemar's tests between every two methods, per classifier and k.
	Comparisons []Comparison `json:"comparisons,omitempty"`
	Seconds     float64      `json:"seconds"`
}

// DataInfo identifies the data a run used.
type DataInfo struct {
	Name        string   `json:"name"`
	Samples     int      `json:"samples"`
	Features    []string `json:"features"`
	Symbols     []string `json:"symbols,omitempty"` // gene symbol of each feature, "" unknown
	Classes     []string `json:"classes"`
	ClassCounts []int    `json:"classCounts"`
	Dropped     []string `json:"dropped,omitempty"`
}

// Label is feature j's name with its gene symbol when known: "1007_s_at (DDR1)".
func (d DataInfo) Label(j int) string {
	if j < len(d.Symbols) && d.Symbols[j] != "" && d.Symbols[j] != d.Features[j] {
		return d.Features[j] + " (" + d.Symbols[j] + ")"
	}
	return d.Features[j]
}

// RepeatedGenes names the genes that several of the features hold probes of, with
// their counts, most first: "DDR1 ×3, TP53 ×2"; "" when symbols are unknown or no gene
// repeats.
func (d DataInfo) RepeatedGenes(features []int) string {
	if d.Symbols == nil {
		return ""
	}
	count := map[string]int{}
	for _, j := range features {
		if j < len(d.Symbols) && d.Symbols[j] != "" {
			count[d.Symbols[j]]++
		}
	}
	var genes []string
	for g, c := range count {
		if c > 1 {
			genes = append(genes, g)
		}
	}
	sort.Slice(genes, func(a, b int) bool {
		if count[genes[a]] != count[genes[b]] {
			return count[genes[a]] > count[genes[b]]
		}
		return genes[a] < genes[b]
	})
	parts := make([]string, len(genes))
	for i, g := range genes {
		parts[i] = fmt.Sprintf("%s ×%d", g, count[g])
	}
	return strings.Join(parts, ", ")
}

// Selection is one ranking's head: the best features of one resample.
type Selection struct {
	Label  string  `json:"label"`            // e.g. "rep 3 fold 7"
	Group  int     `json:"group"`            // repetition (or outer fold) whose runs are compared pairwise
	Order  []int   `json:"order"`            // feature indices, best first, max(Ks) long
	Groups [][]int `json:"groups,omitempty"` // group methods: members of the group of Order[i]
	// Relevance of each group; kept for the all-sample selection only.
	Relevance []float64 `json:"relevance,omitempty"`
}

// StabilityPoint is the stability of the top-k selections.
type StabilityPoint struct {
	K       int     `json:"k"`
	SimID   float64 `json:"simID"`
	SimIDSD float64 `json:"simIDsd"`
	SS      float64 `json:"ss"`
	SSSD    float64 `json:"ssSD"`
	SimVM   float64 `json:"simVM,omitempty"`  // Sim_V^M of the selected groups' centres; k <= 50
	SimIDM  float64 `json:"simIDM,omitempty"` // Sim_ID^M of the selected groups; k <= 50
	// Phi is Nogueira et al.'s (2018) stability of all the resampled top-k selections,
	// with its 95% confidence interval.
	Phi     float64 `json:"phi"`
	PhiLow  float64 `json:"phiLow"`
	PhiHigh float64 `json:"phiHigh"`
	PhiVar  float64 `json:"phiVar,omitempty"` // the estimate's variance, for Nogueira's test
	// Measures holds every measure of the catalogue (stability.SetMeasures) by name,
	// pairwise ones over the protocol's pairs, global ones over all resampled selections.
	Measures map[string]float64 `json:"measures,omitempty"`
}

// AccuracyPoint is the mean and standard deviation of test accuracy over the resamples.
type AccuracyPoint struct {
	K    int     `json:"k"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// FeatureStat summarises one feature over the resamples.
type FeatureStat struct {
	Feature   int     `json:"feature"`
	Name      string  `json:"name"`
	Frequency float64 `json:"frequency"` // share of resamples with it in the top GridK
	MeanRank  float64 `json:"meanRank"`  // mean rank over resamples (1 = best)
	Score     float64 `json:"score"`     // score on all samples
	RefRank   int     `json:"refRank"`   // rank on all samples
}

// MethodResult is everything one method produced.
type MethodResult struct {
	Spec      method.Spec                `json:"spec"`
	Label     string                     `json:"label"`
	Reference Selection                  `json:"reference"` // on all samples
	Runs      []Selection                `json:"runs"`      // the resamples compared for stability
	Stability []StabilityPoint           `json:"stability"`
	SW        *float64                   `json:"sw"` // Kalousis S_W over whole weight vectors; null where the scores are not weights
	SR        float64                    `json:"sr"` // Kalousis S_R over whole rankings
	Accuracy  map[string][]AccuracyPoint `json:"accuracy"`
	// AUC of each accuracy curve with k scaled to [0, 1] (Diaz-Diaz's normalised area),
	// when the curve's ks are 1, 2, 3, ... without gaps.
	AUC map[string]float64 `json:"auc,omitempty"`
	Top []FeatureStat      `json:"top"`
	// Unconverged counts the model fits, over all rankings, that stopped at their
	// iteration cap before meeting the tolerance (linear SVMs, stability selection's
	// L1-logistic paths).
	Unconverged int `json:"unconverged,omitempty"`
	// FewestGroups is, for a group method, the fewest groups any of its rankings found
	// when that is below the largest k: beyond it a selection is filled with single
	// features by F (nil when every ranking found enough groups).
	FewestGroups *int    `json:"fewestGroups,omitempty"`
	Seconds      float64 `json:"seconds"`
}

// FewGroupsNote says that a group method found fewer groups than some k and what
// filled the selection; "" when it found enough.
func (m *MethodResult) FewGroupsNote() string {
	if m.FewestGroups == nil {
		return ""
	}
	g := *m.FewestGroups
	return fmt.Sprintf("%s found as few as %d groups in some rankings: beyond k = %d its selections are filled with single features by F", m.Label, g, g)
}

// Progress reports finished units of work out of the total.
type Progress struct {
	Done, Total int
	Stage       string
	// Fraction is the share of the work done, weighed by what each unit costs (0 while
	// unknown), and Left the time left at that cost (0 while unknown).
	Fraction float64
	Left     time.Duration
}

// task is one unit: rank the training samples of one split with one method, and
// (when the split has test samples and Eval is set) measure accuracy over the k grid.
type task struct {
	method int
	split  dataset.Split
	label  string
	group  int
	unit   int  // the unit's place among its method's: 0 all samples, then the splits
	stab   bool // counts for stability
	eval   bool // counts for accuracy
	ref    bool // the all-sample ranking
}

type taskOut struct {
	order     []int
	score     []float64
	groups    [][]int
	relevance []float64
	acc       map[string][]float64 // classifier -> accuracy at each accuracy k
	correct   map[string][][]bool  // classifier -> accuracy k -> test sample predicted right
	secs      float64
	// unconverged counts the ranking's model fits that stopped at their iteration cap
	unconverged int
}

// Run performs the study of cfg on ds. It returns ctx's error when cancelled; results
// do not depend on cfg.Workers.
func Run(ctx context.Context, cfg Config, ds *dataset.Dataset, progress func(Progress)) (*Result, error) {
	return run(ctx, cfg, ds, nil, progress)
}

// run is Run; with test set, every split's accuracy is measured on test instead of on
// its held-out samples (the synthetic studies' independent test set).
func run(ctx context.Context, cfg Config, ds, test *dataset.Dataset, progress func(Progress)) (*Result, error) {
	start := time.Now()
	d, err := newDesign(cfg, ds)
	if err != nil {
		return nil, err
	}
	outs := make([]taskOut, len(d.tasks))
	all := make([]int, len(d.tasks))
	for i := range all {
		all[i] = i
	}
	if err := d.compute(ctx, ds, test, all, outs, progress); err != nil {
		return nil, err
	}
	res, err := d.result(ctx, ds, outs)
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// MinFeatures is the fewest features a study runs on.
const MinFeatures = 3

// design is a planned study: the resolved configuration, its units of work, the
// largest k kept of every ranking and the ks at which accuracy is measured.
type design struct {
	cfg   Config
	tasks []task
	maxK  int
	accKs []int
	// fitted holds, for each method with a part fitted once on all samples (the MIDS
	// paper setting, DRAGS's groups from all samples), that part (method.FitAllSamples).
	fitted map[int]any
	mids   *sharedMIDS
}

// newDesign resolves cfg for ds, checks ds against the protocol and plans the units.
func newDesign(cfg Config, ds *dataset.Dataset) (*design, error) {
	_, p := ds.Dims()
	cfg, err := cfg.Resolved(p)
	if err != nil {
		return nil, err
	}
	if err := dataset.Validate(ds, cfg.MinClassSize()); err != nil {
		return nil, err
	}
	d := &design{cfg: cfg, tasks: plan(cfg, ds), maxK: cfg.GridK}
	d.mids = newSharedMIDS(cfg.Methods)
	for _, k := range cfg.Ks {
		d.maxK = max(d.maxK, k)
		if k <= cfg.AccuracyMax {
			d.accKs = append(d.accKs, k)
		}
	}
	return d, nil
}

// compute runs the units idx (indices into d.tasks) on cfg.Workers goroutines and
// stores each one's output at its index in outs. Progress counts the units of idx; its
// calls are never concurrent. The first unit to fail cancels the others, and its error
// is returned rather than the cancellations it caused.
func (d *design) compute(ctx context.Context, ds, test *dataset.Dataset, idx []int, outs []taskOut, progress func(Progress)) error {
	if progress != nil {
		progress(Progress{Total: len(idx), Stage: "ranking"})
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		mine     = make([]task, len(idx))
		finished = make([]bool, len(idx))
		cost     = newCosts(d.cfg, ds)
	)
	for j, i := range idx {
		mine[j] = d.tasks[i]
	}
	if err := d.fitAllSamples(ctx, ds); err != nil {
		return err
	}
	err := parallel.For(ctx, d.cfg.Workers, len(idx), func(j int) error {
		i := idx[j]
		out, err := d.runTask(ctx, ds, test, i)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if firstErr == nil && ctx.Err() == nil {
				firstErr = err
				cancel()
			}
			return err
		}
		outs[i] = out
		done++
		finished[j] = true
		cost.add(d.tasks[i].method, out.secs)
		pr := Progress{Done: done, Total: len(idx), Stage: "ranking"}
		pr.Fraction, pr.Left = cost.progress(mine, finished)
		if progress != nil {
			progress(pr) // under the lock: never two calls at once
		}
		return nil
	})
	if firstErr != nil {
		return firstErr
	}
	return err
}

// fitAllSamples fits, for each method that asks for it (method.FitsAllSamples), its
// part fitted on all samples (z-scored when the study z-scores), once for every split.
func (d *design) fitAllSamples(ctx context.Context, ds *dataset.Dataset) error {
	for m, spec := range d.cfg.Methods {
		if !method.FitsAllSamples(spec) || d.fitted[m] != nil {
			continue
		}
		x := mat.DenseCopyOf(ds.X)
		if d.cfg.ZScore {
			dataset.Standardize(x)
		}
		v, err := method.FitAllSamples(ctx, spec, x)
		if err != nil {
			return err
		}
		if d.fitted == nil {
			d.fitted = map[int]any{}
		}
		d.fitted[m] = v
	}
	return nil
}

// result summarises the outputs of every unit into curves, tables and comparisons. It
// returns ctx's error when cancelled (between methods, and within the all-pairs pass of
// the similarity-adjusted measures).
func (d *design) result(ctx context.Context, ds *dataset.Dataset, outs []taskOut) (*Result, error) {
	n, _ := ds.Dims()
	res := &Result{Version: Version, Config: d.cfg, Data: DataInfo{Name: ds.Name, Samples: n, Features: ds.Features, Symbols: ds.Symbols, Classes: ds.Classes, ClassCounts: ds.ClassCounts()}}
	sd, err := newSummaryData(ctx, d.cfg, ds)
	if err != nil {
		return nil, err
	}
	for m, spec := range d.cfg.Methods {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Methods = append(res.Methods, summarize(d.cfg, ds, m, spec, d.tasks, outs, d.maxK, d.accKs, sd))
	}
	distinctLabels(res.Methods)
	res.Comparisons = compare(d.cfg, d.tasks, outs, d.accKs)
	return res, nil
}

// plan lists the tasks of cfg: per method, the all-sample ranking and the protocol's splits.
func plan(cfg Config, ds *dataset.Dataset) []task {
	n, _ := ds.Dims()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	var splits []task
	switch cfg.Protocol {
	case Kalousis:
		outer := dataset.StratifiedFolds(ds.Labels, cfg.Folds, dataset.Rand(cfg.Seed, 1, 0))
		for o, s := range outer {
			splits = append(splits, task{split: s, label: fmt.Sprintf("outer %d", o+1), group: o, eval: true})
			inner := dataset.StratifiedFolds(dataset.Labels(ds.Labels, s.Train), cfg.InnerFolds, dataset.Rand(cfg.Seed, 2, uint64(o)))
			for f, in := range inner {
				sp := dataset.Split{Repeat: o, Fold: f, Train: dataset.Subset(s.Train, in.Train)}
				splits = append(splits, task{split: sp, label: fmt.Sprintf("outer %d inner %d", o+1, f+1), group: o, stab: true})
			}
		}
	default:
		for r := 0; r < cfg.Repeats; r++ {
			for f, s := range dataset.StratifiedFolds(ds.Labels, cfg.Folds, dataset.Rand(cfg.Seed, 1, uint64(r))) {
				s.Repeat = r
				splits = append(splits, task{split: s, label: fmt.Sprintf("rep %d fold %d", r+1, f+1), group: r, stab: true, eval: true})
			}
		}
	}
	var tasks []task
	for m := range cfg.Methods {
		tasks = append(tasks, task{method: m, split: dataset.Split{Train: all}, label: "all samples", ref: true})
		for u, t := range splits {
			t.method, t.unit = m, u+1
			tasks = append(tasks, t)
		}
	}
	return tasks
}

// prepare copies the training and test samples (test's, when given, for a split with
// test samples), z-scored with the training statistics when asked.
func prepare(cfg Config, ds, test *dataset.Dataset, s dataset.Split) (xtr *mat.Dense, ytr []int, xte *mat.Dense, yte []int, order, keep []int) {
	xtr, ytr = dataset.SelectSamples(ds.X, ds.Labels, s.Train)
	if cfg.TopVariance > 0 { // chosen on the training samples, before z-scoring
		order = varianceOrder(xtr, ds.Features)
		keep = mostVariable(order, cfg.TopVariance)
	}
	switch {
	case len(s.Test) > 0 && test != nil:
		xte, yte = mat.DenseCopyOf(test.X), test.Labels
	case len(s.Test) > 0:
		xte, yte = dataset.SelectSamples(ds.X, ds.Labels, s.Test)
	}
	if cfg.ZScore {
		dataset.Standardize(xtr, xte)
	}
	return
}

// runTask ranks and evaluates unit index. A MIDS variant ranks within the MIDS on all
// samples in the paper setting, else within its training set's MIDS, shared with the
// other MIDS variants of the study (see sharedMIDS).
func (d *design) runTask(ctx context.Context, ds, test *dataset.Dataset, index int) (taskOut, error) {
	cfg, t, accKs := d.cfg, d.tasks[index], d.accKs
	start := time.Now()
	r := dataset.Rand(cfg.Seed, 100, uint64(index))
	ranker, err := method.New(cfg.Methods[t.method])
	if err != nil {
		return taskOut{}, err
	}
	xtr, ytr, xte, yte, order, keep := prepare(cfg, ds, test, t.split)
	x := filterColumns(xtr, keep)
	if v := d.fitted[t.method]; v != nil {
		ranker = method.WithFitted(ranker, v)
	} else if set, err := d.mids.of(ctx, t, cfg.Methods[t.method], x); err != nil {
		return taskOut{}, err
	} else if set != nil {
		ranker = method.WithMIDSSet(ranker, set)
	}
	rk, err := ranker.Rank(ctx, x, ytr, len(ds.Classes), r)
	if err != nil {
		return taskOut{}, err
	}
	if keep != nil {
		rk = widen(rk, keep, order)
	}
	out := taskOut{order: rk.Order, score: rk.Score, groups: rk.Groups, relevance: rk.Relevance, unconverged: rk.Unconverged}
	if t.eval && xte != nil {
		out.acc, out.correct = map[string][]float64{}, map[string][][]bool{}
		for _, cl := range cfg.Classifiers {
			accs := make([]float64, len(accKs))
			right := make([][]bool, len(accKs))
			for ki, k := range accKs {
				pred, err := predict(ctx, cl, xtr, ytr, xte, rk.Order[:k], len(ds.Classes), r)
				if err != nil {
					return taskOut{}, err
				}
				right[ki] = make([]bool, len(yte))
				for i, c := range pred {
					right[ki][i] = c == yte[i]
				}
				accs[ki] = classify.Accuracy(pred, yte)
			}
			out.acc[cl], out.correct[cl] = accs, right
		}
	}
	out.secs = time.Since(start).Seconds()
	return out, nil
}

// predict trains classifier cl on the features sel of the training samples and
// returns its classes for the test samples.
func predict(ctx context.Context, cl string, xtr *mat.Dense, ytr []int, xte *mat.Dense, sel []int, classes int, r *rand.Rand) ([]int, error) {
	a := dataset.SelectFeatures(xtr, sel)
	b := dataset.SelectFeatures(xte, sel)
	if strings.HasPrefix(cl, "weka") {
		classify.MinMaxScale(a, b)
	}
	switch cl {
	case "svm", "wekasvm":
		m := classify.LinearSVM{}
		if cl == "wekasvm" {
			m.Params = classify.SVMParams{C: 1, Loss: classify.Hinge}
		}
		if err := m.Fit(ctx, a, ytr, classes, r); err != nil {
			return nil, err
		}
		return m.Predict(b), nil
	default:
		k := 1
		if cl == "3nn" {
			k = 3
		}
		m := classify.KNN{K: k}
		m.Fit(a, ytr, classes)
		return m.Predict(b), nil
	}
}

// meanSD is the mean and n-1 standard deviation of v; 0, 0 for no values (JSON has no NaN).
func meanSD(v []float64) (float64, float64) {
	if len(v) == 0 {
		return 0, 0
	}
	if len(v) == 1 {
		return v[0], 0
	}
	return stat.MeanStdDev(v, nil)
}

// summarize turns one method's task outputs into curves and tables.
func summarize(cfg Config, ds *dataset.Dataset, m int, spec method.Spec, tasks []task, outs []taskOut, maxK int, accKs []int, sd *summaryData) MethodResult {
	in, _ := method.Lookup(spec.Name)
	mr := MethodResult{Spec: spec, Label: in.Label, Accuracy: map[string][]AccuracyPoint{}}
	mr.Label += method.SettingLabel(spec)
	_, p := ds.Dims()
	var ref taskOut
	var runs []taskOut
	accs := map[string][][]float64{}
	fewest := -1
	for i, t := range tasks {
		if t.method != m {
			continue
		}
		o := outs[i]
		mr.Seconds += o.secs
		mr.Unconverged += o.unconverged
		if o.groups != nil && len(o.groups) < cfg.Ks[len(cfg.Ks)-1] && (fewest < 0 || len(o.groups) < fewest) {
			fewest = len(o.groups)
		}
		head := append([]int(nil), o.order[:min(maxK, len(o.order))]...)
		var groups [][]int
		if o.groups != nil {
			groups = o.groups[:min(maxK, len(o.groups))]
		}
		switch {
		case t.ref:
			ref = o
			mr.Reference = Selection{Label: t.label, Order: head, Groups: groups}
			if o.relevance != nil {
				mr.Reference.Relevance = o.relevance[:len(groups)]
			}
		case t.stab:
			runs = append(runs, o)
			mr.Runs = append(mr.Runs, Selection{Label: t.label, Group: t.group, Order: head, Groups: groups})
		}
		if t.eval && o.acc != nil {
			for cl, a := range o.acc {
				accs[cl] = append(accs[cl], a)
			}
		}
	}
	// pairs of runs compared for stability: index -1 is the reference
	var pairs []pair
	if cfg.Mode == Reference {
		for i := range runs {
			pairs = append(pairs, pair{-1, i})
		}
	} else {
		for i := range runs {
			for j := i + 1; j < len(runs); j++ {
				if mr.Runs[i].Group == mr.Runs[j].Group {
					pairs = append(pairs, pair{i, j})
				}
			}
		}
	}
	orderOf := func(i int) taskOut {
		if i < 0 {
			return ref
		}
		return runs[i]
	}
	var adjusted map[string][]float64
	mr.Stability, adjusted = stabilityCurves(cfg.Ks, pairs, orderOf, sd)
	orders := make([][]int, len(runs))
	for i, r := range runs {
		orders[i] = r.order
	}
	for ki, e := range stability.NogueiraCurve(orders, p, cfg.Ks) {
		lo, hi := e.Interval(0.05)
		mr.Stability[ki].Phi, mr.Stability[ki].PhiLow, mr.Stability[ki].PhiHigh, mr.Stability[ki].PhiVar = e.Phi, lo, hi, e.Var
	}
	setPairs := make([][2]int, len(pairs))
	for i, pr := range pairs {
		setPairs[i] = [2]int{pr.a, pr.b}
	}
	catalogue := stability.SetCurves(orders, ref.order, setPairs, p, cfg.Ks)
	for name, v := range sd.sechidis(orders) {
		adjusted[name] = v
	}
	for ki, pt := range mr.Stability {
		mr.Stability[ki].Measures = make(map[string]float64, len(catalogue)+len(adjusted))
		for name, v := range catalogue {
			mr.Stability[ki].Measures[name] = v[ki]
		}
		if ai := slices.Index(sd.adjKs, pt.K); ai >= 0 {
			for name, v := range adjusted {
				if !math.IsNaN(v[ai]) {
					mr.Stability[ki].Measures[name] = v[ai]
				}
			}
		}
	}
	// S_W and S_R over whole vectors
	var sw, sr []float64
	rr := dataset.Rand(cfg.Seed, 200, uint64(m))
	ranks := make(map[int][]float64)
	rankOf := func(i int) []float64 {
		if r, ok := ranks[i]; ok {
			return r
		}
		s := ref.score
		if i >= 0 {
			s = runs[i].score
		}
		ranks[i] = stability.Ranks(s, rr)
		return ranks[i]
	}
	scoreOf := func(i int) []float64 {
		if i < 0 {
			return ref.score
		}
		return runs[i].score
	}
	for _, pr := range pairs {
		sw = append(sw, stability.Pearson(clampScores(scoreOf(pr.a)), clampScores(scoreOf(pr.b))))
		sr = append(sr, stability.Spearman(rankOf(pr.a), rankOf(pr.b)))
	}
	if method.Weighted(spec.Name) {
		v, _ := meanSD(sw)
		mr.SW = &v
	}
	mr.SR, _ = meanSD(sr)
	for cl, per := range accs {
		var pts []AccuracyPoint
		for ki, k := range accKs {
			v := make([]float64, len(per))
			for r := range per {
				v[r] = per[r][ki]
			}
			mean, sd := meanSD(v)
			pts = append(pts, AccuracyPoint{K: k, Mean: mean, SD: sd})
		}
		mr.Accuracy[cl] = pts
		if contiguous(accKs) {
			if mr.AUC == nil {
				mr.AUC = map[string]float64{}
			}
			means := make([]float64, len(pts))
			for i, pt := range pts {
				means[i] = pt.Mean
			}
			mr.AUC[cl] = NormalizedAUC(means)
		}
	}
	mr.Top = topFeatures(ds, cfg.GridK, ref, runs, p)
	if fewest >= 0 {
		mr.FewestGroups = &fewest
	}
	return mr
}

// pair names two runs compared for stability; -1 is the all-sample reference.
type pair struct{ a, b int }

// MaxMatchedK is the largest k for which the costly pairwise measures are computed: the
// matched measures Sim_V^M and Sim_ID^M (a k x k assignment per pair of selections) and
// the similarity-adjusted catalogue measures (k x k similarities per pair). Figures
// draw them up to it (plots).
const MaxMatchedK = 50

// groupOf returns the members of the i-th selected group of a run: its group for group
// methods, else the single feature.
func groupOf(o taskOut, i int) []int {
	if i < len(o.groups) {
		return o.groups[i]
	}
	return o.order[i : i+1]
}

// centre is the mean profile of a group's members.
func centre(profiles [][]float64, members []int) []float64 {
	if len(members) == 1 {
		return profiles[members[0]]
	}
	c := make([]float64, len(profiles[members[0]]))
	for _, j := range members {
		for i, v := range profiles[j] {
			c[i] += v
		}
	}
	for i := range c {
		c[i] /= float64(len(members))
	}
	return c
}

// diceSorted is Sim_ID of two ascending member lists.
func diceSorted(a, b []int) float64 {
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}

// stabilityCurves averages Sim_ID, S_S, Sim_V^M and Sim_ID^M over the pairs at every k
// of ks. Sim_ID and S_S compare the top-k representatives, with the overlaps for all k
// from one pass per pair. The matched measures compare the top-k groups (a single
// feature is a group of one); each pair's weight matrices are computed once, and their
// leading k x k blocks matched for each k.
func stabilityCurves(ks []int, pairs []pair, runOf func(int) taskOut, sd *summaryData) ([]StabilityPoint, map[string][]float64) {
	profiles := sd.profiles
	adjusted := stability.NewAdjustedCurves(sd.adjKs)
	id := make([][]float64, len(ks))
	ss := make([][]float64, len(ks))
	vm := make([][]float64, len(ks))
	idm := make([][]float64, len(ks))
	for _, pr := range pairs {
		a, b := runOf(pr.a), runOf(pr.b)
		if len(sd.adjKs) > 0 {
			adjusted.Add(a.order, b.order, sd.similarity(a.order, b.order))
		}
		common := stability.TopKOverlaps(a.order, b.order, ks)
		var rv, rd [][]float64
		for ki, k := range ks {
			c := float64(common[ki])
			id[ki] = append(id[ki], 2*c/float64(2*k))
			ss[ki] = append(ss[ki], c/float64(2*k-common[ki]))
			if k > MaxMatchedK {
				continue
			}
			if rv == nil {
				m := min(MaxMatchedK, len(a.order), len(b.order))
				ca, cb := make([][]float64, m), make([][]float64, m)
				for i := 0; i < m; i++ {
					ca[i], cb[i] = centre(profiles, groupOf(a, i)), centre(profiles, groupOf(b, i))
				}
				rv, rd = make([][]float64, m), make([][]float64, m)
				for i := 0; i < m; i++ {
					rv[i], rd[i] = make([]float64, m), make([]float64, m)
					for j := 0; j < m; j++ {
						rv[i][j] = math.Abs(stability.Pearson(ca[i], cb[j]))
						rd[i][j] = diceSorted(groupOf(a, i), groupOf(b, j))
					}
				}
			}
			vm[ki] = append(vm[ki], stability.SimM(k, k, func(i, j int) float64 { return rv[i][j] }))
			idm[ki] = append(idm[ki], stability.SimM(k, k, func(i, j int) float64 { return rd[i][j] }))
		}
	}
	out := make([]StabilityPoint, len(ks))
	for ki, k := range ks {
		pt := StabilityPoint{K: k}
		pt.SimID, pt.SimIDSD = meanSD(id[ki])
		pt.SS, pt.SSSD = meanSD(ss[ki])
		if k <= MaxMatchedK {
			pt.SimVM, _ = meanSD(vm[ki])
			pt.SimIDM, _ = meanSD(idm[ki])
		}
		out[ki] = pt
	}
	return out, adjusted.Values(sd.expected)
}

// distinctLabels tells apart methods that share a label (one method with two settings):
// each gets its settings that differ from the defaults, "DRAGS (densest 50)", or its
// place when the settings are the same, so no figure, table or file mixes them up.
func distinctLabels(ms []MethodResult) {
	count := map[string]int{}
	for _, m := range ms {
		count[m.Label]++
	}
	for i := range ms {
		if count[ms[i].Label] < 2 {
			continue
		}
		if s := method.Settings(ms[i].Spec); s != "" {
			ms[i].Label += " (" + s + ")"
		}
	}
	seen := map[string]int{}
	for i := range ms {
		seen[ms[i].Label]++
		if seen[ms[i].Label] > 1 {
			ms[i].Label += fmt.Sprintf(" #%d", seen[ms[i].Label])
		}
	}
}

// summaryData is what every method's summary shares: each feature's profile over all
// samples (z-scored when the study z-scores), and for the similarity-adjusted measures
// their ks (those up to MaxMatchedK) and expectations for random selections.
type summaryData struct {
	profiles [][]float64
	unit     [][]float64 // each profile centred and scaled to length 1: r = unit_f . unit_g
	adjKs    []int
	expected [][]float64
	sumC     float64 // sum of the similarity matrix C of Sechidis's measure
}

// expectedDraws is the number of random pairs of selections behind each expectation of
// the similarity-adjusted measures (stabm's default is 10,000; the estimate's standard
// error at 1,000 is below 0.01 of k on the real sets).
const expectedDraws = 1000

func newSummaryData(ctx context.Context, cfg Config, ds *dataset.Dataset) (*summaryData, error) {
	z := mat.DenseCopyOf(ds.X)
	dataset.Standardize(z)
	sd := &summaryData{profiles: columns(ds.X)}
	if cfg.ZScore {
		sd.profiles = columns(z)
	}
	sd.unit = make([][]float64, len(sd.profiles))
	for f, v := range sd.profiles {
		u := make([]float64, len(v))
		mean := floats.Sum(v) / float64(len(v))
		for i, x := range v {
			u[i] = x - mean
		}
		if norm := floats.Norm(u, 2); norm > 0 {
			floats.Scale(1/norm, u)
		}
		sd.unit[f] = u
	}
	for _, k := range cfg.Ks {
		if k <= MaxMatchedK {
			sd.adjKs = append(sd.adjKs, k)
		}
	}
	sd.expected = stability.Expected(len(sd.profiles), sd.adjKs, expectedDraws, dataset.Rand(cfg.Seed, 300), sd.absR)
	if len(sd.adjKs) > 0 {
		sum, err := group.SimilaritySum(ctx, z, stability.AdjustedThreshold)
		if err != nil {
			return nil, err
		}
		sd.sumC = float64(len(sd.profiles)) + 2*sum
	}
	return sd, ctx.Err()
}

// absR is |r| of features f and g over all samples (0 for a constant feature).
func (sd *summaryData) absR(f, g int) float64 {
	return math.Abs(floats.Dot(sd.unit[f], sd.unit[g]))
}

// sechidis is Sechidis's measure of the runs' orders at the adjusted ks, by name.
func (sd *summaryData) sechidis(orders [][]int) map[string][]float64 {
	if len(sd.adjKs) == 0 {
		return nil
	}
	sim := func(f, g int) float64 {
		if r := sd.absR(f, g); r > stability.AdjustedThreshold {
			return r
		}
		return 0
	}
	return map[string][]float64{"sechidis": stability.Sechidis(orders, len(sd.profiles), sd.adjKs, sim, sd.sumC)}
}

// similarity returns |r| of a[i] and b[j] for i, j below the largest adjusted k, each
// computed once.
func (sd *summaryData) similarity(a, b []int) func(i, j int) float64 {
	m := min(len(a), len(b), sd.adjKs[len(sd.adjKs)-1])
	s := make([]float64, m*m)
	for i := range s {
		s[i] = math.NaN()
	}
	return func(i, j int) float64 {
		v := s[i*m+j]
		if math.IsNaN(v) {
			v = sd.absR(a[i], b[j])
			s[i*m+j] = v
		}
		return v
	}
}

// contiguous says whether ks are 1, 2, 3, ... (at least two of them).
func contiguous(ks []int) bool {
	for i, k := range ks {
		if k != i+1 {
			return false
		}
	}
	return len(ks) > 1
}

// topFeatures lists the features ever in a resample's top k, by frequency then mean rank.
func topFeatures(ds *dataset.Dataset, k int, ref taskOut, runs []taskOut, p int) []FeatureStat {
	freq := make([]float64, p)
	rankSum := make([]float64, p)
	for _, r := range runs {
		for pos, j := range r.order {
			rankSum[j] += float64(pos + 1)
			if pos < k {
				freq[j]++
			}
		}
	}
	refRank := make([]int, p)
	for pos, j := range ref.order {
		refRank[j] = pos + 1
	}
	var out []FeatureStat
	for j := 0; j < p; j++ {
		if freq[j] == 0 && refRank[j] > k {
			continue
		}
		fs := FeatureStat{Feature: j, Name: ds.Features[j], RefRank: refRank[j], Score: clamp(ref.score[j])}
		if len(runs) > 0 {
			fs.Frequency = freq[j] / float64(len(runs))
			fs.MeanRank = rankSum[j] / float64(len(runs))
		}
		out = append(out, fs)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Frequency != out[b].Frequency {
			return out[a].Frequency > out[b].Frequency
		}
		if out[a].MeanRank != out[b].MeanRank {
			return out[a].MeanRank < out[b].MeanRank
		}
		return out[a].Feature < out[b].Feature
	})
	return out
}

// clamp keeps scores JSON-safe and finite for correlations (an F of a feature that
// separates the classes perfectly is math.MaxFloat64).
func clamp(v float64) float64 { return math.Max(-1e15, math.Min(1e15, v)) }

func clampScores(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = clamp(v)
	}
	return out
}

// columns returns each column of x as a slice: a feature's values over the samples.
func columns(x *mat.Dense) [][]float64 {
	n, p := x.Dims()
	out := make([][]float64, p)
	for j := range out {
		out[j] = make([]float64, n)
		mat.Col(out[j], j, x)
	}
	return out
}
