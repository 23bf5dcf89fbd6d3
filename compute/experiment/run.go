package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/method"
	"steadfast/compute/parallel"
	"steadfast/compute/progress"
)

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
	// scores: classifier -> accuracy k -> each test sample's score of each class, row by
	// row (the decision values a ROC curve ranks by; see Prediction)
	scores map[string][][]float64
	// preds: classifier -> accuracy k -> each test sample's predicted class (beside
	// scores: k-NN breaks a tied vote by the nearest neighbour, which scores cannot show)
	preds map[string][][]int
	// selected: a survival study's ranking up to the largest accuracy k
	selected []int
	secs     float64
	// predSecs is the part of secs spent in the classifiers
	predSecs float64
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
	cfg, err := cfg.ResolvedFor(ds)
	if err != nil {
		return nil, err
	}
	if err := CheckData(cfg, ds); err != nil {
		return nil, err
	}
	d := &design{cfg: cfg, tasks: plan(cfg, ds), maxK: cfg.GridK}
	d.mids = newSharedMIDS(cfg.Methods)
	for _, k := range cfg.Ks {
		d.maxK = max(d.maxK, k)
	}
	d.accKs = cfg.AccuracyKs()
	return d, nil
}

// compute runs the units idx (indices into d.tasks) on cfg.Workers goroutines, in
// runOrder, and stores each one's output at its index in outs. Progress counts the units of idx, and
// is reported again whenever a running unit reports a larger share of it done
// (progress.Share: CGS after each bootstrap); its calls are never concurrent. The first
// unit to fail cancels the others, and its error is returned rather than the
// cancellations it caused.
func (d *design) compute(ctx context.Context, ds, test *dataset.Dataset, idx []int, outs []taskOut, onProgress func(Progress)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		mine     = make([]task, len(idx))
		finished = make([]bool, len(idx))
		partial  = make([]float64, len(idx)) // share done of each running unit
		cost     *costs
		began    time.Time // when the units began (after fitAllSamples)
	)
	report := func() { // under mu: never two calls at once
		pr := Progress{Done: done, Total: len(idx), Stage: "ranking"}
		var elapsed time.Duration
		if !began.IsZero() {
			elapsed = time.Since(began)
		}
		pr.Fraction, pr.Left = cost.progress(mine, finished, partial, elapsed)
		if onProgress != nil {
			onProgress(pr)
		}
	}
	for j, i := range idx {
		mine[j] = d.tasks[i]
	}
	_, p := ds.Dims()
	cost = newCosts(d.cfg, p, mine)
	report() // the time left by the cost models, when every method has one
	if err := d.fitAllSamples(ctx, ds); err != nil {
		return err
	}
	order := runOrder(mine)
	began = time.Now()
	err := parallel.For(ctx, d.cfg.Workers, len(idx), func(o int) error {
		j := order[o]
		i := idx[j]
		unit := progress.WithShare(ctx, func(s float64) {
			mu.Lock()
			defer mu.Unlock()
			if !finished[j] && s > partial[j] {
				partial[j] = s
				report()
			}
		})
		out, err := d.runTask(unit, ds, test, i)
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
		report()
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
		scale(d.cfg, x)
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
	res := &Result{Version: Version, Config: d.cfg, Data: DataInfo{Name: ds.Name, Samples: n, Features: ds.Features, Symbols: ds.Symbols, Classes: ds.Classes, ClassCounts: ds.ClassCounts(),
		Accession: ds.Accession, Platform: ds.Platform, SampleNames: ds.Samples, Labels: ds.Labels, Survival: ds.Survival,
		Intensities: ds.Raw != nil, LeftOut: ds.LeftOut}}
	if d.cfg.PredictionsOnly || d.cfg.AdviceOnly {
		for m := range d.cfg.Methods {
			res.Methods = append(res.Methods, d.predictionsOf(ds, m, outs))
		}
		if d.cfg.AdviceOnly {
			res.Comparisons = compare(d.cfg, d.tasks, outs, d.accKs)
		}
		return res, nil
	}
	sd, err := newSummaryData(ctx, d.cfg, ds)
	if err != nil {
		return nil, err
	}
	for m := range d.cfg.Methods {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Methods = append(res.Methods, d.summarize(ds, m, outs, sd))
	}
	distinctLabels(res.Methods)
	res.Comparisons = compare(d.cfg, d.tasks, outs, d.accKs)
	res.StabilityTests = StabilityComparisons(res)
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
		outer := dataset.Folds(ds.Labels, ds.Groups, cfg.Folds, dataset.Rand(cfg.Seed, 1, 0))
		for o, s := range outer {
			splits = append(splits, task{split: s, label: fmt.Sprintf("outer %d", o+1), group: o, eval: true})
			var groups []string
			if ds.Groups != nil {
				groups = dataset.Pick(ds.Groups, s.Train)
			}
			inner := dataset.Folds(dataset.Labels(ds.Labels, s.Train), groups, cfg.InnerFolds, dataset.Rand(cfg.Seed, 2, uint64(o)))
			for f, in := range inner {
				sp := dataset.Split{Repeat: o, Fold: f, Train: dataset.Subset(s.Train, in.Train)}
				splits = append(splits, task{split: sp, label: fmt.Sprintf("outer %d inner %d", o+1, f+1), group: o, stab: true})
			}
		}
	default:
		for r := 0; r < cfg.Repeats; r++ {
			for f, s := range dataset.Folds(ds.Labels, ds.Groups, cfg.Folds, dataset.Rand(cfg.Seed, 1, uint64(r))) {
				s.Repeat = r
				splits = append(splits, task{split: s, label: fmt.Sprintf("rep %d fold %d", r+1, f+1), group: r, stab: true, eval: true})
			}
		}
	}
	var tasks []task
	for m := range cfg.Methods {
		if !cfg.PredictionsOnly && !(cfg.AdviceOnly && cfg.Mode == Pairwise) {
			tasks = append(tasks, task{method: m, split: dataset.Split{Train: all}, label: "all samples", ref: true})
		}
		for u, t := range splits {
			t.method, t.unit = m, u+1
			tasks = append(tasks, t)
		}
	}
	return tasks
}

// prepare copies the training and test samples (test's, when given, for a split with
// test samples), z-scored (or Pareto-scaled) with the training statistics when asked.
// Counts (ds.Counts) are normalised first by edgeR's pipeline fitted on the training
// samples (normaliseCounts), intensities (ds.Raw) by the filter, normalisation and
// imputation fitted on them (imputeSplit); keep then holds the features the filter
// kept, order them first.
func prepare(ctx context.Context, cfg Config, ds, test *dataset.Dataset, s dataset.Split) (xtr *mat.Dense, ytr []int, xte *mat.Dense, yte []int, order, keep []int, err error) {
	xtr, ytr = dataset.SelectSamples(ds.X, ds.Labels, s.Train)
	switch {
	case len(s.Test) > 0 && test != nil:
		xte, yte = mat.DenseCopyOf(test.X), test.Labels
	case len(s.Test) > 0:
		xte, yte = dataset.SelectSamples(ds.X, ds.Labels, s.Test)
	}
	var kept []int
	switch {
	case ds.Counts != nil:
		if kept, err = normaliseCounts(ctx, ds, test, s, ytr, xtr, xte); err != nil {
			return
		}
	case ds.Raw != nil:
		if kept, err = imputeSplit(ctx, cfg, ds, test, s, ytr, xtr, xte); err != nil {
			return
		}
	}
	if cfg.TopVariance > 0 || kept != nil { // chosen on the training samples, before z-scoring
		order = keptFirst(varianceOrder(xtr, ds.Features), kept)
		if keep = kept; len(kept) == len(order) {
			keep = nil
		}
		if n := cfg.TopVariance; n > 0 {
			if kept != nil {
				n = min(n, len(kept))
			}
			keep = mostVariable(order, n)
		}
	}
	scale(cfg, xtr, xte)
	return
}

// scale z-scores train's columns and applies the training statistics to others when
// cfg says so (Config.ZScore), with Pareto's scaling when its Prep.Scaling is "pareto"
// (dataset.ParetoScale).
func scale(cfg Config, train *mat.Dense, others ...*mat.Dense) {
	switch {
	case !cfg.ZScore:
	case cfg.Prep.Scaling == "pareto":
		dataset.ParetoScale(train, others...)
	default:
		dataset.Standardize(train, others...)
	}
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
	xtr, ytr, xte, yte, order, keep, err := prepare(ctx, cfg, ds, test, t.split)
	if err != nil {
		return taskOut{}, fmt.Errorf("%s: %w", t.label, err)
	}
	x := filterColumns(xtr, keep)
	if v := d.fitted[t.method]; v != nil {
		ranker = method.WithFitted(ranker, v)
	} else if set, err := d.mids.of(ctx, t, cfg.Methods[t.method], x); err != nil {
		return taskOut{}, err
	} else if set != nil {
		ranker = method.WithMIDSSet(ranker, set)
	}
	rk, err := rank(ctx, ranker, x, ytr, ds, t.split.Train, r)
	if err != nil {
		return taskOut{}, err
	}
	if keep != nil {
		rk = widen(rk, keep, order)
	}
	out := taskOut{order: rk.Order, score: rk.Score, groups: rk.Groups, relevance: rk.Relevance, unconverged: rk.Unconverged}
	if t.eval && xte != nil && ds.Survival != nil {
		predStart := time.Now()
		cs, risks, err := evalSurvival(ctx, cfg, ds, t.split, xtr, xte, rk.Order, accKs)
		if err != nil {
			return taskOut{}, fmt.Errorf("%s: %w", t.label, err)
		}
		out.acc, out.scores = map[string][]float64{"cox": cs}, map[string][][]float64{"cox": risks}
		out.selected = slices.Clone(rk.Order[:slices.Max(accKs)])
		out.predSecs = time.Since(predStart).Seconds()
	} else if t.eval && xte != nil {
		out.acc, out.correct = map[string][]float64{}, map[string][][]bool{}
		if test == nil { // the study's own samples: their scores make its ROC curves
			out.scores, out.preds = map[string][][]float64{}, map[string][][]int{}
		}
		predStart := time.Now()
		raw, err := rawValues(ctx, cfg, ds, test, t.split, xtr, xte)
		if err != nil {
			return taskOut{}, fmt.Errorf("%s: %w", t.label, err)
		}
		for _, cl := range cfg.Classifiers {
			accs := make([]float64, len(accKs))
			right := make([][]bool, len(accKs))
			scores := make([][]float64, len(accKs))
			preds := make([][]int, len(accKs))
			for ki, k := range accKs {
				a, b := xtr, xte
				if cl == "ktsp" { // compares genes within a sample: the values as read
					a, b = raw[0], raw[1]
				}
				pred, sc, err := predict(ctx, cl, cfg, a, ytr, b, rk.Order[:k], len(ds.Classes), r)
				if err != nil {
					return taskOut{}, err
				}
				right[ki] = make([]bool, len(yte))
				for i, c := range pred {
					right[ki][i] = c == yte[i]
				}
				accs[ki] = classify.Accuracy(pred, yte)
				preds[ki] = pred
				for _, row := range sc {
					scores[ki] = append(scores[ki], row...)
				}
			}
			out.acc[cl], out.correct[cl] = accs, right
			if out.scores != nil {
				out.scores[cl], out.preds[cl] = scores, preds
			}
		}
		out.predSecs = time.Since(predStart).Seconds()
	}
	out.secs = time.Since(start).Seconds()
	return out, nil
}

// rawValues are the split's training and test values before z-scoring (xtr and xte
// themselves without it), for k-TSP; nil when the study has no k-TSP. Intensities
// (ds.Raw) are those the split's own filter, normalisation and imputation give, not
// ds.X's, which are fitted on all samples.
func rawValues(ctx context.Context, cfg Config, ds, test *dataset.Dataset, s dataset.Split, xtr, xte *mat.Dense) ([2]*mat.Dense, error) {
	if !slices.Contains(cfg.Classifiers, "ktsp") {
		return [2]*mat.Dense{}, nil
	}
	if !cfg.ZScore {
		return [2]*mat.Dense{xtr, xte}, nil
	}
	if ds.Raw != nil {
		plain := cfg
		plain.ZScore = false
		a, _, b, _, _, _, err := prepare(ctx, plain, ds, test, s)
		return [2]*mat.Dense{a, b}, err
	}
	a, _ := dataset.SelectSamples(ds.X, ds.Labels, s.Train)
	b := xte
	switch {
	case len(s.Test) > 0 && test != nil:
		b = mat.DenseCopyOf(test.X)
	case len(s.Test) > 0:
		b, _ = dataset.SelectSamples(ds.X, ds.Labels, s.Test)
	}
	return [2]*mat.Dense{a, b}, nil
}

// predict trains classifier cl (with cfg's parameters) on the features sel of the
// training samples and returns its classes for the test samples and their scores of
// each class (the SVM's decision values, k-NN's shares of neighbours, k-TSP's shares of
// votes with cfg.KTSPPairs pairs, 0 choosing them by cross-validation in the training
// samples, logistic regression's probabilities, the forest's shares of trees' votes; see
// classify).
func predict(ctx context.Context, cl string, cfg Config, xtr *mat.Dense, ytr []int, xte *mat.Dense, sel []int, classes int, r *rand.Rand) ([]int, [][]float64, error) {
	a := dataset.SelectFeatures(xtr, sel)
	b := dataset.SelectFeatures(xte, sel)
	if strings.HasPrefix(cl, "weka") {
		classify.MinMaxScale(a, b)
	}
	switch cl {
	case "logit":
		m := LogitOf(cfg.ClassifierValues(cl))
		if err := m.Fit(ctx, a, ytr, classes, r); err != nil {
			return nil, nil, err
		}
		pred, sc := m.PredictScores(b)
		return pred, sc, nil
	case "rf":
		// one goroutine: the study runs its resamples in parallel already
		m := ForestOf(cfg.ClassifierValues(cl), r.Uint64(), 1)
		m.Mtry = min(m.Mtry, len(sel))
		if err := m.Fit(ctx, a, ytr, classes); err != nil {
			return nil, nil, err
		}
		pred, sc := m.PredictScores(b)
		return pred, sc, nil
	case "ktsp":
		m := classify.KTSP{K: cfg.KTSPPairs}
		if err := m.Fit(a, ytr, classes); err != nil {
			return nil, nil, err
		}
		pred, sc := m.PredictScores(b)
		return pred, sc, nil
	case "svm", "wekasvm":
		m := classify.LinearSVM{Exact: true}
		if cl == "wekasvm" {
			m.Params = classify.SVMParams{C: 1, Loss: classify.Hinge}
		}
		if err := m.Fit(ctx, a, ytr, classes, r); err != nil {
			return nil, nil, err
		}
		pred, sc := m.PredictScores(b)
		return pred, sc, nil
	default:
		k := 1
		if cl == "3nn" {
			k = 3
		}
		m := classify.KNN{K: k}
		m.Fit(a, ytr, classes)
		pred, sc := m.PredictScores(b)
		return pred, sc, nil
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
