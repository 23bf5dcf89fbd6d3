package counts

import (
	"context"
	"fmt"
	"math"

	"steadfast/compute/rstat"
)

// PriorCount is the prior count of the log-CPM values, edgeR's cpm default.
const PriorCount = 2

// Norm is edgeR's normalisation fitted on training samples and frozen, so that any other
// sample (a test fold's, a new patient's) is normalised against the same reference
// alone: the genes kept by filterByExpr on the training samples, TMM's reference
// library, the scale that gave the training factors a geometric mean of 1, and the
// training samples' mean effective library size (the log-CPM prior's scale). It is what
// edgeR's
//
//	y <- DGEList(counts, group = group); keep <- filterByExpr(y)
//	y <- calcNormFactors(y[keep, , keep.lib.sizes = FALSE]); cpm(y, log = TRUE, prior.count = 2)
//
// gives for the training samples, and for another sample s with library size L_s over
// the kept genes: f_s = TMM(s against the reference) / Scale, then
// log2((x + p_s) / (L_s f_s + 2 p_s) 10^6) with p_s = 2 L_s f_s / MeanEff.
type Norm struct {
	Keep    []bool    `json:"-"`       // per gene of the training data: kept by filterByExpr
	Kept    []int     `json:"-"`       // the indices of the kept genes, ascending
	Ref     []float64 `json:"ref"`     // the reference library's counts on the kept genes
	RefLib  float64   `json:"refLib"`  // its library size over the kept genes
	Scale   float64   `json:"scale"`   // geometric mean of the training samples' raw TMM factors
	MeanEff float64   `json:"meanEff"` // mean of the training samples' L f
	// RefSample is the training sample chosen as TMM's reference (its index among them).
	RefSample int `json:"refSample"`
	// trainLib and trainF are the training samples' library sizes and factors (Fit's).
	trainLib, trainF []float64
	logRef           []float64 // log2(Ref / RefLib), as R computes it, shared by every factor
}

// Fit fits Norm on the training counts c (samples as rows) of the classes group.
func Fit(c Counts, group []int) (*Norm, error) { return FitContext(context.Background(), c, group) }

// FitContext is Fit, stopped with ctx's error when ctx ends first (TMM over a thousand
// samples takes seconds).
func FitContext(ctx context.Context, c Counts, group []int) (*Norm, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	n := &Norm{Keep: c.FilterByExpr(c.LibSizes(), group)}
	for g, k := range n.Keep {
		if k {
			n.Kept = append(n.Kept, g)
		}
	}
	if len(n.Kept) == 0 {
		return nil, fmt.Errorf("no gene has enough reads to keep (edgeR's filterByExpr: at least 10 reads in the smallest class's number of samples)")
	}
	lib := make([]float64, len(c))
	for s, row := range c {
		for _, g := range n.Kept {
			lib[s] += row[g]
		}
		if lib[s] <= 0 {
			return nil, fmt.Errorf("training sample %d has no read in the %d kept genes", s+1, len(n.Kept))
		}
	}
	// every kept gene has reads (filterByExpr asks 15 at least), so TMM's genes are they
	f, ref, err := tmm(ctx, len(c), func(s int) []float64 { return n.Pick(c[s]) }, lib)
	if err != nil {
		return nil, err
	}
	n.Ref, n.RefLib, n.RefSample = n.Pick(c[ref]), lib[ref], ref
	n.prepare()
	// TMM's factors are raw / (geometric mean of raw): recover the scale from one sample
	n.Scale = tmmFactor(n.Ref, n.Ref, lib[ref], n.RefLib, n.logRef) / f[ref]
	for s := range lib {
		n.MeanEff += lib[s] * f[s] / float64(len(lib))
	}
	n.trainLib, n.trainF = lib, f
	return n, nil
}

// prepare computes what every factor against the reference shares.
func (n *Norm) prepare() {
	n.logRef = make([]float64, len(n.Ref))
	for i, v := range n.Ref {
		n.logRef[i] = rstat.Log2(v / n.RefLib)
	}
}

// TrainFactor is Fit's training sample s's library size over the kept genes and its
// factor, as Factor gives them, without computing TMM again.
func (n *Norm) TrainFactor(s int) (lib, f float64) { return n.trainLib[s], n.trainF[s] }

// TrainLogCPM is LogCPM of Fit's training sample s (row its counts), from the factor
// Fit computed.
func (n *Norm) TrainLogCPM(s int, row, out []float64) {
	n.LogCPMWith(row, out, n.trainLib[s]*n.trainF[s])
}

// Pick is row's counts on the kept genes.
func (n *Norm) Pick(row []float64) []float64 {
	out := make([]float64, len(n.Kept))
	for i, g := range n.Kept {
		out[i] = row[g]
	}
	return out
}

// Factor is a sample's library size over the kept genes and its normalisation factor
// against the frozen reference (row holds every gene of the training data's order).
func (n *Norm) Factor(row []float64) (lib, f float64) {
	kept := n.Pick(row)
	for _, v := range kept {
		lib += v
	}
	if lib <= 0 {
		return 0, math.NaN()
	}
	if n.logRef == nil {
		n.prepare()
	}
	return lib, tmmFactor(kept, n.Ref, lib, n.RefLib, n.logRef) / n.Scale
}

// Effective is a sample's effective library size L f and its prior count p = 2 L f /
// MeanEff (row as Factor's): its log-CPM of a count x is log2((x + p) / (L f + 2 p) 10^6).
func (n *Norm) Effective(row []float64) (eff, prior float64) {
	lib, f := n.Factor(row)
	eff = lib * f
	return eff, PriorCount * eff / n.MeanEff
}

// LogCPM writes row's log-CPM values (every gene) into out; NaN when the sample has no
// read in the kept genes.
func (n *Norm) LogCPM(row, out []float64) {
	eff, _ := n.Effective(row)
	n.LogCPMWith(row, out, eff)
}

// LogCPMWith writes the log-CPM values of the counts row (any genes) into out for a
// sample of effective library size eff (Effective's): log2((x + p) / (eff + 2 p) 10^6),
// p = 2 eff / MeanEff.
func (n *Norm) LogCPMWith(row, out []float64, eff float64) {
	p := PriorCount * eff / n.MeanEff
	for g, v := range row {
		out[g] = math.Log2((v + p) / (eff + 2*p) * 1e6)
	}
}

// Frozen is n as a locked model keeps it: rows are then vectors over the reference's
// genes alone (Kept all of them, in order).
func (n *Norm) Frozen() *Norm {
	out := *n
	out.trainLib, out.trainF = nil, nil
	out.Keep, out.Kept = nil, make([]int, len(n.Ref))
	for i := range out.Kept {
		out.Kept[i] = i
	}
	return &out
}

// Restricted is a frozen n cut to the reference genes present (present[i] for Ref[i]),
// for a cohort that lacks some: the reference library and its size over those genes,
// the training scale and mean effective library kept.
func (n *Norm) Restricted(present []bool) *Norm {
	out := *n
	out.Ref, out.RefLib, out.Kept, out.logRef, out.trainLib, out.trainF = nil, 0, nil, nil, nil, nil
	for i, ok := range present {
		if ok {
			out.Ref = append(out.Ref, n.Ref[i])
			out.RefLib += n.Ref[i]
			out.Kept = append(out.Kept, i)
		}
	}
	return &out
}

// Check reports a frozen reference that cannot be used: empty, of counts negative or
// not finite, of no reads, or a scale or mean library not positive and finite.
func (n *Norm) Check() error {
	if len(n.Ref) == 0 {
		return fmt.Errorf("an empty reference library")
	}
	sum := 0.0
	for _, v := range n.Ref {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("a reference count of %v", v)
		}
		sum += v
	}
	ok := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	if !ok(sum) || math.Abs(sum-n.RefLib) > 1e-9*sum || !ok(n.Scale) || !ok(n.MeanEff) {
		return fmt.Errorf("a reference of %v reads (library %v), scale %v, mean effective library %v", sum, n.RefLib, n.Scale, n.MeanEff)
	}
	return nil
}
