package experiment

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/group"
	"steadfast/compute/stability"
)

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
	var err error
	sd.expected, err = stability.Expected(ctx, cfg.Workers, len(sd.profiles), sd.adjKs, expectedDraws, dataset.Rand(cfg.Seed, 300), sd.absR)
	if err != nil {
		return nil, err
	}
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
