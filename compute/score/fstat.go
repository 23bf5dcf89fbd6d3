package score

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// FStat ranks by the one-way ANOVA F statistic
//
//	F = [sum_c n_c (m_c - m)^2 / (K-1)] / [sum_c sum_{i in c} (x_i - m_c)^2 / (n-K)].
//
// A feature constant within every class but not across them scores math.MaxFloat64;
// a constant feature scores 0.
type FStat struct{}

// Rank implements Ranker.
func (FStat) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	f := FScores(x, y, classes)
	return Ranking{Order: orderByScore(f, r), Score: f}, ctx.Err()
}

// FScores returns the F statistic of every column of x.
func FScores(x *mat.Dense, y []int, classes int) []float64 {
	n, p := x.Dims()
	raw := x.RawMatrix()
	sum := make([]float64, classes*p) // per class sums, then means
	cnt := make([]float64, classes)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		s := sum[y[i]*p : (y[i]+1)*p]
		for j, v := range row {
			s[j] += v
		}
		cnt[y[i]]++
	}
	mean := make([]float64, p)
	for c := 0; c < classes; c++ {
		s := sum[c*p : (c+1)*p]
		for j := range s {
			mean[j] += s[j]
			if cnt[c] > 0 {
				s[j] /= cnt[c]
			}
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	within := make([]float64, p)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		m := sum[y[i]*p : (y[i]+1)*p]
		for j, v := range row {
			d := v - m[j]
			within[j] += d * d
		}
	}
	f := make([]float64, p)
	k := 0
	for _, c := range cnt {
		if c > 0 {
			k++
		}
	}
	for j := range f {
		between := 0.0
		for c := 0; c < classes; c++ {
			d := sum[c*p+j] - mean[j]
			between += cnt[c] * d * d
		}
		switch {
		case between <= 1e-12*math.Max(1, mean[j]*mean[j]):
			f[j] = 0
		case within[j] == 0:
			f[j] = math.MaxFloat64
		default:
			f[j] = (between / float64(k-1)) / (within[j] / float64(n-k))
		}
	}
	return f
}
