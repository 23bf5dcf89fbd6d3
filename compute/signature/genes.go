package signature

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"steadfast/compute/counts"
	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/internal/text"
)

// Choice is what a signature is made of: a study's method (its index), the number of
// genes k, the classifier, and whether the genes are the k selected most often over the
// resamples (Frequent) rather than the method's selection on all samples.
type Choice struct {
	Method     int
	K          int
	Classifier string
	Frequent   bool
	// Cut is how a survival signature's risk groups are cut (the median when empty).
	Cut CutRule
}

// Gene is one signature gene with what a biologist asks of it first. The statistics
// are descriptive: computed on all samples after the selection, they do not test the
// signature.
type Gene struct {
	Feature   int      // index into the data's features
	ID        string   // the feature's name (probe id)
	Symbol    string   // gene symbol, "" unknown
	Members   []string // for a group method, the group it represents
	Frequency float64  // share of the resamples with it in their top k
	MeanRank  float64  // mean rank over the resamples where it is in the kept head; NaN if never
	Weight    float64  // the locked linear SVM's weight toward the positive class (NaN for k-NN or more classes)
	Higher    string   // the class of the highest mean
	Against   string   // the class the fold change is against: the reference of two, else the lowest mean
	Log2FC    float64  // see FoldChange: of the positive class against the reference (two classes), else of Higher against Against
	G         float64  // Hedges' g of the same two classes (HedgesG)
	P, FDR    float64  // Welch's t-test (ANOVA F for more classes) and its BH adjustment over all genes
	// ModT, ModP and ModFDR are limma's moderated t (two classes; of the positive class
	// against the other), its p (the moderated F's for more classes) and BH FDR, for
	// intensities (proteomics, as DEP reports them; see limmaStats); NaN otherwise.
	ModT, ModP, ModFDR float64
}

// Advice is the Errors tab's choice for classifier cl: at the k of least error (of
// experiment.ErrorKs; the first of equals), the method of the top group (TopGroup) with
// the largest S_S stability at that k, ties to the lesser error, then the first; ok
// is false when no method has an accuracy for cl.
func Advice(res *experiment.Result, cl string) (m, k int, ok bool) {
	best := math.Inf(1)
	for _, kk := range experiment.ErrorKs(res, cl) {
		errs, _, _ := experiment.TopGroup(res, cl, kk)
		for _, e := range errs {
			if e < best {
				best, k = e, kk
			}
		}
	}
	if k == 0 {
		return 0, 0, false
	}
	errs, top, _ := experiment.TopGroup(res, cl, k)
	m, bestSS := -1, math.Inf(-1)
	for i, mr := range res.Methods {
		if !top[i] {
			continue
		}
		ss := math.Inf(-1)
		for _, s := range mr.Stability {
			if s.K == k {
				ss = s.SS
			}
		}
		if m < 0 || ss > bestSS || ss == bestSS && errs[i] < errs[m] {
			m, bestSS = i, ss
		}
	}
	return m, k, m >= 0
}

// AdviceReason says Advice's choice for classifier cl in a sentence with its reason:
// the k of least error, the methods in the top group there, the one of largest S_S
// (of a run of one method, the k alone). "" when there is no advice.
func AdviceReason(res *experiment.Result, cl string) string {
	m, k, ok := Advice(res, cl)
	if !ok {
		return ""
	}
	errs, top, _ := experiment.TopGroup(res, cl, k)
	var group []string
	surv := res.Data.Survival != nil
	for i, in := range top {
		switch {
		case in && surv:
			group = append(group, fmt.Sprintf("%s (Harrell's C %.3f)", res.Methods[i].Label, 1-errs[i]))
		case in:
			group = append(group, fmt.Sprintf("%s (error %.1f%%)", res.Methods[i].Label, 100*errs[i]))
		}
	}
	ss := math.NaN()
	for _, s := range res.Methods[m].Stability {
		if s.K == k {
			ss = s.SS
		}
	}
	least, test := "the least error", "McNemar's test"
	if surv {
		least, test = "the largest Harrell's C", "the corrected resampled t-test"
	}
	if len(res.Methods) == 1 { // nothing to test against: k alone is chosen
		v := fmt.Sprintf("error %.1f%%", 100*errs[m])
		if surv {
			v = fmt.Sprintf("Harrell's C %.3f", 1-errs[m])
		}
		return fmt.Sprintf("%s at k = %d with %s: of the ks measured, k = %d has %s (%s); %s is the run's one method, so only k was chosen.",
			res.Methods[m].Label, k, experiment.ClassifierLabel(cl), k, least, v, res.Methods[m].Label)
	}
	return fmt.Sprintf("%s at k = %d with %s: k = %d has %s, %s %s not worse there by %s, and %s is the most stable of them (S_S %.2f).",
		res.Methods[m].Label, k, experiment.ClassifierLabel(cl), k, least, strings.Join(group, ", "), text.Plural(len(group), "is|are"), test, res.Methods[m].Label, ss)
}

// Select returns the signature's features: the first k of the method's selection on all
// samples, or with frequent the k most often in the resamples' top k (ties by mean
// rank, then by feature order of the all-sample selection).
func Select(res *experiment.Result, c Choice) ([]int, error) {
	if c.Method < 0 || c.Method >= len(res.Methods) {
		return nil, fmt.Errorf("method %d: the run has %d", c.Method+1, len(res.Methods))
	}
	mr := res.Methods[c.Method]
	maxK := len(mr.Reference.Order)
	if c.K < 1 || c.K > maxK {
		return nil, fmt.Errorf("k = %d: the study kept the first %d features of each ranking; choose k from 1 to %d", c.K, maxK, maxK)
	}
	if !c.Frequent {
		return append([]int(nil), mr.Reference.Order[:c.K]...), nil
	}
	freq, rank := frequencies(mr, c.K)
	ref := map[int]int{}
	for r, j := range mr.Reference.Order {
		ref[j] = r
	}
	var feats []int
	for j := range freq {
		feats = append(feats, j)
	}
	sort.Slice(feats, func(a, b int) bool {
		fa, fb := freq[feats[a]], freq[feats[b]]
		if fa != fb {
			return fa > fb
		}
		if rank[feats[a]] != rank[feats[b]] {
			return rank[feats[a]] < rank[feats[b]]
		}
		return order(ref, feats[a]) < order(ref, feats[b])
	})
	if len(feats) < c.K {
		return nil, fmt.Errorf("only %d features were ever in the resamples' top %d", len(feats), c.K)
	}
	return feats[:c.K], nil
}

func order(ref map[int]int, j int) int {
	if r, ok := ref[j]; ok {
		return r
	}
	return math.MaxInt32 + j
}

// frequencies counts, over the resamples, the share with each feature in their top k
// and its mean rank (1 = best) over the resamples whose kept head holds it.
func frequencies(mr experiment.MethodResult, k int) (freq, rank map[int]float64) {
	freq, rank = map[int]float64{}, map[int]float64{}
	seen, in := map[int]int{}, map[int]int{}
	for _, run := range mr.Runs {
		for r, j := range run.Order {
			if r < k {
				in[j]++
			}
			rank[j] += float64(r + 1)
			seen[j]++
		}
	}
	for j, n := range in {
		freq[j] = float64(n) / float64(len(mr.Runs))
	}
	for j := range rank {
		rank[j] /= float64(seen[j])
	}
	return freq, rank
}

// Describe lists the signature genes feats of the data ds (the study's, preprocessed as
// it was) with their statistics: fold changes on scale s, of the positive class of two
// against the other (positive < 0 with more classes: of the highest class mean
// against the lowest).
func Describe(res *experiment.Result, ds *dataset.Dataset, c Choice, feats []int, s Scale, positive int) []Gene {
	mr := res.Methods[c.Method]
	freq, rank := frequencies(mr, c.K)
	var p, q []float64
	var means [][]float64
	if s.Moderated {
		p, q, means = voomStats(ds)
	}
	if p == nil {
		p = allPValues(ds)
		q = BH(p)
	}
	mt, mp, mq := limmaStats(ds, positive)
	groupOf := map[int][]int{}
	for r, j := range mr.Reference.Order {
		if r < len(mr.Reference.Groups) {
			groupOf[j] = mr.Reference.Groups[r]
		}
	}
	out := make([]Gene, len(feats))
	for i, j := range feats {
		g := Gene{Feature: j, ID: ds.Features[j], Frequency: freq[j], MeanRank: math.NaN(), Weight: math.NaN(), P: p[j], FDR: q[j], ModT: math.NaN(), ModP: math.NaN(), ModFDR: math.NaN()}
		if mp != nil {
			g.ModT, g.ModP, g.ModFDR = mt[j], mp[j], mq[j]
		}
		if r, ok := rank[j]; ok {
			g.MeanRank = r
		}
		if ds.Symbols != nil {
			g.Symbol = ds.Symbols[j]
		}
		for _, m := range groupOf[j] {
			g.Members = append(g.Members, res.Data.Label(m))
		}
		groups := byClass(ds, j)
		hi, lo := extremes(groups)
		a, b := hi, lo
		if positive >= 0 && len(groups) == 2 {
			a, b = positive, 1-positive
		}
		if hi >= 0 {
			against := lo // the class of lowest mean; of two classes, the other one (equal means too)
			if len(groups) == 2 {
				against = 1 - hi
			}
			g.Higher, g.Against = ds.Classes[hi], ds.Classes[against]
			g.Log2FC, g.G = s.FoldChange(groups[a], groups[b]), HedgesG(groups[a], groups[b])
			if means != nil { // voom's fitted log-CPM; NaN for a gene edgeR's filter drops
				g.Log2FC = math.NaN()
				if means[j] != nil {
					g.Log2FC = means[j][a] - means[j][b]
				}
			}
		} else {
			g.Log2FC, g.G = math.NaN(), math.NaN()
		}
		out[i] = g
	}
	return out
}

// Scale is how fold changes are taken. On a log scale (Logged: the study logged the
// values, or they were logged before reading) the log2 fold change of a against b is
// the difference of their mean log2 values; on a linear scale it is log2 of the ratio
// of their means, each value first raised to Floor (values near or below zero, as
// MAS4/MAS5 give, would make the ratio meaningless). Why says which, for the outputs.
type Scale struct {
	Logged bool
	Floor  float64
	Why    string
	// Moderated is set for read counts: the fold change, p and FDR are then limma-voom's
	// (counts.Voom on all samples, normalised as the study's values): the moderated t's p
	// for two classes, the moderated F's for more.
	Moderated bool
}

// VoomScale is the Scale of a study of read counts.
func VoomScale() Scale {
	return Scale{Logged: true, Moderated: true, Why: "limma-voom's log2 fold change (voom precision weights, design ~ class, on the TMM-normalised counts)"}
}

// LinearFloor is the floor of linear values for fold changes: 20, as MAS5 users floor
// their intensities.
const LinearFloor = 20

// LogLooking is the largest value a data set's values reach when they look logged:
// log2 intensities stay below it (2^100), unlogged intensities pass it.
const LogLooking = 100

// ChooseScale says how ds's fold changes are taken: on a log scale when the study
// logged the values (studyLogged) or none exceeds LogLooking (logged before reading,
// as GEO series matrices of RMA values are), else linear with LinearFloor.
func ChooseScale(ds *dataset.Dataset, studyLogged bool) Scale {
	if studyLogged {
		return Scale{Logged: true, Why: "difference of mean log2 values (the study log-transformed the data)"}
	}
	hi := math.Inf(-1)
	n, p := ds.Dims()
	for i := 0; i < n; i++ {
		for _, v := range ds.X.RawRowView(i)[:p] {
			if !math.IsNaN(v) {
				hi = math.Max(hi, v)
			}
		}
	}
	if hi <= LogLooking {
		return Scale{Logged: true, Why: fmt.Sprintf("difference of mean values, taken as log2 values: none exceeds %d (largest %.3g), so the data look logged before reading (as RMA series matrices are)", LogLooking, hi)}
	}
	return Scale{Floor: LinearFloor, Why: fmt.Sprintf("log2 of the ratio of mean values, each value below %d raised to %d first (the data are unlogged intensities: some exceed %d)", LinearFloor, LinearFloor, LogLooking)}
}

// FoldChange is the log2 fold change of the values a against b on scale s: mean(a) -
// mean(b) on a log scale, else log2(mean(max(a, Floor)) / mean(max(b, Floor))). NaN
// when a group is empty, or on a linear scale without a floor when a mean is not
// positive.
func (s Scale) FoldChange(a, b []float64) float64 {
	if s.Logged {
		ma, _ := meanVar(a)
		mb, _ := meanVar(b)
		return ma - mb
	}
	floored := func(x []float64) float64 {
		sum := 0.0
		for _, v := range x {
			sum += math.Max(v, s.Floor)
		}
		return sum / float64(len(x))
	}
	ma, mb := floored(a), floored(b)
	if len(a) == 0 || len(b) == 0 || ma <= 0 || mb <= 0 {
		return math.NaN()
	}
	return math.Log2(ma / mb)
}

// HedgesG is the standardised mean difference of a against b with the small-sample
// correction: g = J (mean(a) - mean(b)) / s_p, s_p^2 = ((n_a-1) var(a) + (n_b-1)
// var(b)) / (n_a + n_b - 2), J = 1 - 3 / (4 (n_a + n_b) - 9) (Hedges and Olkin 1985).
// NaN with fewer than two values in a group or no spread.
func HedgesG(a, b []float64) float64 {
	na, nb := float64(len(a)), float64(len(b))
	if na < 2 || nb < 2 {
		return math.NaN()
	}
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	sp := math.Sqrt(((na-1)*va + (nb-1)*vb) / (na + nb - 2))
	if sp == 0 {
		return math.NaN()
	}
	return (1 - 3/(4*(na+nb)-9)) * (ma - mb) / sp
}

// extremes are the classes of the highest and the lowest mean (-1, -1 when no class
// has values; the first of equals).
func extremes(groups [][]float64) (hi, lo int) {
	hi, lo = -1, -1
	means := make([]float64, len(groups))
	for c, g := range groups {
		if len(g) == 0 {
			continue
		}
		means[c], _ = meanVar(g)
		if hi < 0 || means[c] > means[hi] {
			hi = c
		}
		if lo < 0 || means[c] < means[lo] {
			lo = c
		}
	}
	return hi, lo
}

// voomStats are limma-voom's p (the moderated t's for two classes, the moderated F's
// for more), BH FDR (over the genes edgeR's filter keeps) and each class's fitted
// log-CPM (voom's weighted means, indexed as ds.Classes) for every feature of a data set
// of counts (ds.Counts), normalised on all samples as its values were; NaN p and nil
// means for a gene the filter drops. The classes are numbered as R's factor levels (by
// name), so that the reference class, and the F with it, are limma's. Nil when it cannot
// be computed (then Welch's test or the ANOVA stands).
func voomStats(ds *dataset.Dataset) (p, q []float64, means [][]float64) {
	if ds.Counts == nil || len(ds.Classes) < 2 {
		return nil, nil, nil
	}
	n, g := ds.Counts.Dims()
	rows := counts.Rows(ds.Counts, nil)
	norm, err := counts.Fit(rows, ds.Labels)
	if err != nil {
		return nil, nil, nil
	}
	_, level := rLevels(ds.Classes)
	kept := make(counts.Counts, n)
	lib := make([]float64, n)
	group := make([]int, n)
	for i, row := range rows {
		kept[i] = norm.Pick(row)
		l, f := norm.TrainFactor(i) // Fit's: no second TMM pass
		lib[i], group[i] = l*f, level[ds.Labels[i]]
	}
	m, err := counts.Voom(kept, lib, group)
	if err != nil {
		return nil, nil, nil
	}
	p, q, means = make([]float64, g), make([]float64, g), make([][]float64, g)
	for j := range p {
		p[j], q[j] = math.NaN(), math.NaN()
	}
	bh := BH(m.P)
	for k, j := range norm.Kept {
		p[j], q[j] = m.P[k], bh[k]
		means[j] = make([]float64, len(ds.Classes))
		for c := range means[j] {
			means[j][c] = m.Means[k][level[c]]
		}
	}
	return p, q, means
}

// allPValues is every feature's p-value between the classes: Welch's t-test for two,
// the one-way ANOVA for more.
func allPValues(ds *dataset.Dataset) []float64 {
	_, p := ds.Dims()
	out := make([]float64, p)
	for j := range out {
		groups := byClass(ds, j)
		if len(groups) == 2 {
			_, _, out[j] = Welch(groups[0], groups[1])
		} else {
			_, out[j] = ANOVA(groups)
		}
	}
	return out
}

// byClass is feature j's values grouped by class.
func byClass(ds *dataset.Dataset, j int) [][]float64 {
	groups := make([][]float64, len(ds.Classes))
	n, _ := ds.Dims()
	for i := 0; i < n; i++ {
		groups[ds.Labels[i]] = append(groups[ds.Labels[i]], ds.X.At(i, j))
	}
	return groups
}
