package impute

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"steadfast/compute/rstat"
)

// Fitted is a preprocessing fitted on training samples and frozen, so that any other
// sample (a test fold's, a cohort's) is preprocessed against it alone. A sample's values
// x (unlogged, NaN missing) of the proteins of the training data become, in order:
//
//   - Sum: x S / s, s the sample's sum over the kept proteins it has, S the training
//     samples' mean s;
//   - Log2: log2(max(x, Floor));
//   - Median: x - m + M, m the sample's median over the kept proteins it has, M the
//     training samples' mean m (limma's normalizeMedianValues on the log scale);
//     Quantile: the kept proteins' values mapped to the training target (QuantileTarget,
//     UseTarget), the others' linear between the sample's kept values (stretch);
//   - a missing value: KNN, the mean of the sample's values of the protein's k nearest
//     proteins in the training samples (impute.knn's neighbours) that it has, else, and
//     for a protein missing in more than trunc(rowmax n) training samples, the sample's
//     mean over the retained proteins (impute.knn's column mean); MinProb, m - Shift s +
//     Width s z, m and s the mean and n-1 SD of the sample's values of the kept
//     proteins, z a standard normal drawn from Seed and the sample's and the protein's
//     names; HalfMin, the protein's smallest training value h less 1 on the log2 scale
//     (h / 2 unlogged), the kept proteins' least for a protein never measured; None,
//     missing.
//
// On the training samples this is what R gives for the same steps: impute.knn(x, k,
// rowmax, colmax, maxp = nrow(x)) of the normalised kept proteins, and
// normalize.quantiles.
type Fitted struct {
	opt          Options
	features     []string // the universe's names
	kept         []int    // universe indices the filter keeps, ascending
	isKept       []bool
	sumTarget    float64
	medianTarget float64
	target       []float64
	over         []bool // KNN: imputed by the sample's mean
	retained     []int  // KNN: the kept proteins not over, ascending
	nn           *knn   // KNN on the training samples; nil when frozen
	nbs          map[int][]int
	halfMin      []float64
	only         []bool // the proteins imputed (nil: all)
	trainRaw     [][]float64
	trainNames   []string
}

// Fit fits the preprocessing o on the training samples rows (samples x proteins of
// the universe features, unlogged, NaN missing; shared, not changed) of the classes
// labels (0..classes-1) named samples.
func Fit(rows [][]float64, labels []int, classes int, samples, features []string, o Options) (*Fitted, error) {
	return FitContext(context.Background(), rows, labels, classes, samples, features, o)
}

// FitContext is Fit; once ctx ends, KNN's neighbour searches (a protein's over every
// other: the slow part with many proteins) stop and the values are not to be used.
func FitContext(ctx context.Context, rows [][]float64, labels []int, classes int, samples, features []string, o Options) (*Fitted, error) {
	o, err := o.Resolved()
	if err != nil {
		return nil, err
	}
	if len(rows) < 2 || len(labels) != len(rows) || len(samples) != len(rows) {
		return nil, fmt.Errorf("a preprocessing needs at least two training samples with a class and a name each")
	}
	p := len(features)
	sizes := make([]int, classes)
	for _, l := range labels {
		sizes[l]++
	}
	f := &Fitted{opt: o, features: features, isKept: Valid(ValidCounts(rows, labels, classes), sizes, o.MinValid), trainRaw: rows, trainNames: samples}
	for j, k := range f.isKept {
		if k {
			f.kept = append(f.kept, j)
		}
	}
	if len(f.kept) < 2 {
		return nil, fmt.Errorf("%d of the %d proteins are measured in %.0f%% of the training samples of a class (the valid-value filter); lower minValid, or check that the file holds intensities", len(f.kept), p, 100*o.MinValid)
	}
	if o.Normalize == Sum {
		for s, row := range rows {
			sum := f.keptSum(row)
			if !(sum > 0) {
				return nil, fmt.Errorf("sample %q: its kept proteins sum to %g; normalising to the sample sum needs positive, unlogged intensities", samples[s], sum)
			}
			f.sumTarget += sum / float64(len(rows))
		}
	}
	scaled := make([][]float64, len(rows))
	for s, row := range rows {
		scaled[s] = f.scaled(row)
		if n := f.keptMeasured(scaled[s]); n < 2 {
			return nil, fmt.Errorf("sample %q has %d values among the %d proteins kept; a sample needs two at least", samples[s], n, len(f.kept))
		}
	}
	switch o.Normalize {
	case Median:
		for _, row := range scaled {
			f.medianTarget += rstat.Median(f.keptValues(row)) / float64(len(rows))
		}
	case Quantile:
		cols := make([][]float64, len(rows))
		for s, row := range scaled {
			cols[s] = f.pick(row)
		}
		f.target = QuantileTarget(cols, len(f.kept))
	}
	norm := make([][]float64, len(rows))
	for s, row := range scaled {
		norm[s] = f.centred(row)
	}
	switch o.Impute {
	case KNN:
		if f.nn, f.over, err = newKNN(norm, f.kept, p, o, samples); err != nil {
			return nil, err
		}
		f.nn.ctx = ctx
		f.retained = f.nn.retained
	case HalfMin:
		if f.halfMin, err = halfMins(norm, f.kept, p, o.Log2); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// halfMins is each protein's HalfMin value on the training samples' values norm.
func halfMins(norm [][]float64, kept []int, p int, logged bool) ([]float64, error) {
	lo := make([]float64, p)
	for j := range lo {
		lo[j] = math.Inf(1)
	}
	for _, row := range norm {
		for j, v := range row {
			if !missing(v) {
				lo[j] = math.Min(lo[j], v)
			}
		}
	}
	least := math.Inf(1)
	for _, j := range kept {
		least = math.Min(least, lo[j])
	}
	out := make([]float64, p)
	for j, v := range lo {
		if math.IsInf(v, 1) {
			v = least
		}
		if logged {
			out[j] = v - 1
			continue
		}
		if v <= 0 {
			return nil, fmt.Errorf("half the minimum needs positive intensities, but a protein's least training value is %g; choose log2 (its half is the log less 1), or another imputation", v)
		}
		out[j] = v / 2
	}
	return out, nil
}

// Kept are the universe indices of the proteins the valid-value filter keeps, ascending.
func (f *Fitted) Kept() []int { return f.kept }

// Options are the choices f was fitted with, defaults filled.
func (f *Fitted) Options() Options { return f.opt }

// Train writes training sample s's preprocessed values into out (every protein of the
// universe).
func (f *Fitted) Train(s int, out []float64) { f.Apply(f.trainRaw[s], f.trainNames[s], out) }

// Apply writes into out the preprocessed values of a sample named name with the
// unlogged values row (NaN missing) of the universe's proteins.
func (f *Fitted) Apply(row []float64, name string, out []float64) {
	norm := f.centred(f.scaled(row))
	copy(out, norm)
	var fill func(j int) float64
	switch f.opt.Impute {
	case KNN:
		mean := sampleMean(norm, f.retained)
		fill = func(j int) float64 {
			if f.over[j] {
				return mean
			}
			if v := average(norm, f.neighbours(j)); !missing(v) {
				return v
			}
			return mean
		}
	case MinProb:
		m, sd := meanSD(f.keptValues(norm))
		sample := hash(name)
		fill = func(j int) float64 {
			z := rand.New(rand.NewPCG(f.opt.Seed, sample^(hash(f.features[j])*0x9e3779b97f4a7c15))).NormFloat64()
			return m - f.opt.Shift*sd + f.opt.Width*sd*z
		}
	case HalfMin:
		fill = func(j int) float64 { return f.halfMin[j] }
	default:
		return
	}
	for j, v := range out {
		if missing(v) && (f.only == nil || f.only[j]) {
			out[j] = fill(j)
		}
	}
}

func (f *Fitted) neighbours(j int) []int {
	if f.nn != nil {
		return f.nn.neighbours(j)
	}
	return f.nbs[j]
}

// scaled is row after the sum normalisation and log2.
func (f *Fitted) scaled(row []float64) []float64 {
	out := make([]float64, len(row))
	factor := 1.0
	if f.opt.Normalize == Sum {
		factor = f.sumTarget / f.keptSum(row)
	}
	for j, v := range row {
		switch {
		case missing(v):
			out[j] = math.NaN()
		case f.opt.Log2:
			out[j] = math.Log2(math.Max(v*factor, f.opt.Floor))
		default:
			out[j] = v * factor
		}
	}
	return out
}

// centred is a scaled row after the median or quantile normalisation.
func (f *Fitted) centred(row []float64) []float64 {
	switch f.opt.Normalize {
	case Median:
		shift := f.medianTarget - rstat.Median(f.keptValues(row))
		for j, v := range row {
			row[j] = v + shift
		}
	case Quantile:
		col := f.pick(row)
		norm := make([]float64, len(col))
		UseTarget(col, f.target, norm)
		st := newStretch(col, norm)
		for j, v := range row {
			if !f.isKept[j] {
				row[j] = st.at(v)
			}
		}
		for k, j := range f.kept {
			row[j] = norm[k]
		}
	}
	return row
}

// pick is row's values of the kept proteins, NaN kept.
func (f *Fitted) pick(row []float64) []float64 {
	out := make([]float64, len(f.kept))
	for k, j := range f.kept {
		out[k] = row[j]
	}
	return out
}

// keptValues are row's measured values of the kept proteins.
func (f *Fitted) keptValues(row []float64) []float64 {
	out := make([]float64, 0, len(f.kept))
	for _, j := range f.kept {
		if !missing(row[j]) {
			out = append(out, row[j])
		}
	}
	return out
}

func (f *Fitted) keptMeasured(row []float64) int { return len(f.keptValues(row)) }

// keptSum is the sum of row's measured values of the kept proteins, ascending (so
// that it does not depend on the proteins' order).
func (f *Fitted) keptSum(row []float64) float64 {
	sum := 0.0
	v := f.keptValues(row)
	slices.Sort(v)
	for _, v := range v {
		sum += v
	}
	return sum
}

// meanSD is the mean and n-1 SD of v (SD 0 for fewer than two values), summed in
// ascending order (so that it does not depend on the proteins' order; v is sorted).
func meanSD(v []float64) (float64, float64) {
	slices.Sort(v)
	m := 0.0
	for _, x := range v {
		m += x / float64(len(v))
	}
	if len(v) < 2 {
		return m, 0
	}
	ss := 0.0
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return m, math.Sqrt(ss / float64(len(v)-1))
}

func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
