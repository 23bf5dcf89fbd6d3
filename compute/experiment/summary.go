package experiment

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/method"
	"steadfast/compute/stability"
)

// summarize turns the task outputs of method m into its curves and tables.
func (d *design) summarize(ds *dataset.Dataset, m int, outs []taskOut, sd *summaryData) MethodResult {
	spec := d.cfg.Methods[m]
	in, _ := method.Lookup(spec.Name)
	ms := &methodSummary{d: d, m: m, sd: sd, accs: map[string][][]float64{}, fewest: -1,
		mr: MethodResult{Spec: spec, Label: in.Label + method.SettingLabel(spec), Accuracy: map[string][]AccuracyPoint{}}}
	_, ms.p = ds.Dims()
	ms.collect(outs)
	ms.pairUp()
	ms.setStability()
	ms.wholeVectors()
	ms.accuracy()
	ms.mr.Top = topFeatures(ds, d.cfg.GridK, ms.ref, ms.runs, ms.p)
	if ms.fewest >= 0 {
		ms.mr.FewestGroups = &ms.fewest
	}
	return ms.mr
}

// predictionsOf is method m's out-of-fold predictions and accuracies alone (a study
// run with PredictionsOnly), with S_S stability over the pairs for AdviceOnly.
func (d *design) predictionsOf(ds *dataset.Dataset, m int, outs []taskOut) MethodResult {
	spec := d.cfg.Methods[m]
	in, _ := method.Lookup(spec.Name)
	ms := &methodSummary{d: d, m: m, accs: map[string][][]float64{}, fewest: -1,
		mr: MethodResult{Spec: spec, Label: in.Label + method.SettingLabel(spec), Accuracy: map[string][]AccuracyPoint{}}}
	_, ms.p = ds.Dims()
	ms.collect(outs)
	ms.accuracy()
	if d.cfg.AdviceOnly {
		ms.pairUp()
		ks := d.cfg.Ks
		ss := make([][]float64, len(ks))
		for _, pr := range ms.pairs {
			for ki, c := range stability.TopKOverlaps(ms.run(pr.a).order, ms.run(pr.b).order, ks) {
				ss[ki] = append(ss[ki], tanimoto(c, ks[ki]))
			}
		}
		for ki, k := range ks {
			pt := StabilityPoint{K: k}
			pt.SS, pt.SSSD = meanSD(ss[ki])
			ms.mr.Stability = append(ms.mr.Stability, pt)
		}
	}
	return ms.mr
}

// tanimoto is S_S of two top-k lists sharing common genes: common / (2k - common).
func tanimoto(common, k int) float64 {
	return float64(common) / float64(2*k-common)
}

// methodSummary is one method's summary being made: its outputs split into the
// all-sample reference and the runs compared, the pairs compared, and the result.
type methodSummary struct {
	d      *design
	m, p   int
	sd     *summaryData
	ref    taskOut
	runs   []taskOut
	pairs  []pair
	accs   map[string][][]float64 // classifier -> run -> accuracy at each accuracy k
	fewest int                    // the fewest groups a ranking found below the largest k, -1 for none
	mr     MethodResult
}

// collect sorts the method's outputs into the reference, the runs and the accuracies,
// keeping the head (largest k) of each ranking.
func (ms *methodSummary) collect(outs []taskOut) {
	cfg, maxK := ms.d.cfg, ms.d.maxK
	for i, t := range ms.d.tasks {
		if t.method != ms.m {
			continue
		}
		o := outs[i]
		ms.mr.Seconds += o.secs
		ms.mr.PredictSeconds += o.predSecs
		ms.mr.Unconverged += o.unconverged
		if o.groups != nil && len(o.groups) < cfg.Ks[len(cfg.Ks)-1] && (ms.fewest < 0 || len(o.groups) < ms.fewest) {
			ms.fewest = len(o.groups)
		}
		head := append([]int(nil), o.order[:min(maxK, len(o.order))]...)
		var groups [][]int
		if o.groups != nil {
			groups = o.groups[:min(maxK, len(o.groups))]
		}
		switch {
		case t.ref:
			ms.ref = o
			ms.mr.Reference = Selection{Label: t.label, Order: head, Groups: groups}
			if o.relevance != nil {
				ms.mr.Reference.Relevance = o.relevance[:len(groups)]
			}
		case t.stab:
			ms.runs = append(ms.runs, o)
			ms.mr.Runs = append(ms.mr.Runs, Selection{Label: t.label, Group: t.group, Order: head, Groups: groups})
		}
		if t.eval && o.acc != nil {
			for cl, a := range o.acc {
				ms.accs[cl] = append(ms.accs[cl], a)
			}
			if len(o.scores) > 0 {
				ms.mr.Predictions = append(ms.mr.Predictions, Prediction{Repeat: t.split.Repeat, Test: t.split.Test, Scores: o.scores, Pred: o.preds, Selected: o.selected})
			}
		}
	}
}

// pairUp lists the pairs of runs compared for stability: each run against the
// reference (index -1), or every two runs of one repetition.
func (ms *methodSummary) pairUp() {
	if ms.d.cfg.Mode == Reference {
		for i := range ms.runs {
			ms.pairs = append(ms.pairs, pair{-1, i})
		}
		return
	}
	for i := range ms.runs {
		for j := i + 1; j < len(ms.runs); j++ {
			if ms.mr.Runs[i].Group == ms.mr.Runs[j].Group {
				ms.pairs = append(ms.pairs, pair{i, j})
			}
		}
	}
}

// run returns run i, the reference for -1.
func (ms *methodSummary) run(i int) taskOut {
	if i < 0 {
		return ms.ref
	}
	return ms.runs[i]
}

// setStability computes the stability curves over the k grid: Sim_ID, S_S and the
// matched measures over the pairs, Nogueira's Phi over all runs, and the catalogue.
func (ms *methodSummary) setStability() {
	cfg, p := ms.d.cfg, ms.p
	var adjusted map[string][]float64
	ms.mr.Stability, adjusted = stabilityCurves(cfg.Ks, ms.pairs, ms.run, ms.sd)
	orders := make([][]int, len(ms.runs))
	for i, r := range ms.runs {
		orders[i] = r.order
	}
	for ki, e := range stability.NogueiraCurve(orders, p, cfg.Ks) {
		lo, hi := e.Interval(0.05)
		st := &ms.mr.Stability[ki]
		st.Phi, st.PhiLow, st.PhiHigh, st.PhiVar = e.Phi, lo, hi, e.Var
	}
	setPairs := make([][2]int, len(ms.pairs))
	for i, pr := range ms.pairs {
		setPairs[i] = [2]int{pr.a, pr.b}
	}
	catalogue := stability.SetCurves(orders, ms.ref.order, setPairs, p, cfg.Ks)
	for name, v := range ms.sd.sechidis(orders) {
		adjusted[name] = v
	}
	for ki, pt := range ms.mr.Stability {
		ms.mr.Stability[ki].Measures = make(map[string]float64, len(catalogue)+len(adjusted))
		for name, v := range catalogue {
			ms.mr.Stability[ki].Measures[name] = v[ki]
		}
		if ai := slices.Index(ms.sd.adjKs, pt.K); ai >= 0 {
			for name, v := range adjusted {
				if !math.IsNaN(v[ai]) {
					ms.mr.Stability[ki].Measures[name] = v[ai]
				}
			}
		}
	}
}

// wholeVectors computes Kalousis's S_W (Pearson of the scores, for methods whose scores
// are weights) and S_R (Spearman of the ranks) over the pairs.
func (ms *methodSummary) wholeVectors() {
	var sw, sr []float64
	rr := dataset.Rand(ms.d.cfg.Seed, 200, uint64(ms.m))
	ranks := make(map[int][]float64)
	rankOf := func(i int) []float64 {
		if r, ok := ranks[i]; ok {
			return r
		}
		ranks[i] = stability.Ranks(ms.run(i).score, rr)
		return ranks[i]
	}
	for _, pr := range ms.pairs {
		sw = append(sw, stability.Pearson(clampScores(ms.run(pr.a).score), clampScores(ms.run(pr.b).score)))
		sr = append(sr, stability.Spearman(rankOf(pr.a), rankOf(pr.b)))
	}
	if method.Weighted(ms.mr.Spec.Name) {
		v, _ := meanSD(sw)
		ms.mr.SW = &v
	}
	ms.mr.SR, _ = meanSD(sr)
}

// accuracy computes each classifier's mean and SD accuracy at each accuracy k, and the
// normalised area under the curve when the ks are 1, 2, 3, ...
func (ms *methodSummary) accuracy() {
	accKs := ms.d.accKs
	for cl, per := range ms.accs {
		var pts []AccuracyPoint
		for ki, k := range accKs {
			v := make([]float64, 0, len(per))
			for r := range per {
				if !math.IsNaN(per[r][ki]) { // a survival test fold without a comparable pair
					v = append(v, per[r][ki])
				}
			}
			mean, sd := meanSD(v)
			pts = append(pts, AccuracyPoint{K: k, Mean: mean, SD: sd})
		}
		ms.mr.Accuracy[cl] = pts
		if contiguous(accKs) {
			if ms.mr.AUC == nil {
				ms.mr.AUC = map[string]float64{}
			}
			means := make([]float64, len(pts))
			for i, pt := range pts {
				means[i] = pt.Mean
			}
			ms.mr.AUC[cl] = NormalizedAUC(means)
		}
	}
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
// feature is a group of one) for k up to MaxMatchedK; each pair's weight matrices are
// computed once, and their leading k x k blocks matched by one growing Hungarian run
// (stability.NestedSimM).
func stabilityCurves(ks []int, pairs []pair, runOf func(int) taskOut, sd *summaryData) ([]StabilityPoint, map[string][]float64) {
	profiles := sd.profiles
	adjusted := stability.NewAdjustedCurves(sd.adjKs)
	id := make([][]float64, len(ks))
	ss := make([][]float64, len(ks))
	vm := make([][]float64, len(ks))
	idm := make([][]float64, len(ks))
	matched := matchedKs(ks)
	for _, pr := range pairs {
		a, b := runOf(pr.a), runOf(pr.b)
		if len(sd.adjKs) > 0 {
			adjusted.Add(a.order, b.order, sd.similarity(a.order, b.order))
		}
		common := stability.TopKOverlaps(a.order, b.order, ks)
		for ki, k := range ks {
			c := float64(common[ki])
			id[ki] = append(id[ki], 2*c/float64(2*k))
			ss[ki] = append(ss[ki], tanimoto(common[ki], k))
		}
		if len(matched) == 0 {
			continue
		}
		rv, rd := matchWeights(profiles, a, b, matched[len(matched)-1])
		for ki, v := range stability.NestedSimM(rv, matched) {
			vm[ki] = append(vm[ki], v)
		}
		for ki, v := range stability.NestedSimM(rd, matched) {
			idm[ki] = append(idm[ki], v)
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

// matchedKs is the leading ks at most MaxMatchedK: those the matched measures are
// computed for.
func matchedKs(ks []int) []int {
	n := 0
	for n < len(ks) && ks[n] <= MaxMatchedK {
		n++
	}
	return ks[:n]
}

// matchWeights is the weights of the matched measures between the first m groups of
// runs a and b: |Pearson r| between their centres (Sim_V^M) and the Dice similarity of
// their members (Sim_ID^M). m is at most the length of either order.
func matchWeights(profiles [][]float64, a, b taskOut, m int) (rv, rd [][]float64) {
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
	return rv, rd
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
