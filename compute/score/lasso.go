package score

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// LogisticPath fits L1-penalised logistic regression of y in {0, 1} on the columns of x
// along a decreasing lambda path, minimising
//
//	-1/n sum_i [y_i eta_i - log(1 + e^eta_i)] + lambda sum_j |beta_j|,  eta = beta_0 + x'beta,
//
// with glmnet's method: a weighted least-squares (IRLS) approximation per lambda solved
// by coordinate descent over an active set, grown while the KKT conditions fail, warm
// started from the previous lambda. visit(l, beta) sees each solution (beta is reused).
func LogisticPath(ctx context.Context, x *mat.Dense, y []float64, lambdas []float64, visit func(l int, beta []float64)) error {
	n, p := x.Dims()
	beta := make([]float64, p)
	ybar := 0.0
	for _, v := range y {
		ybar += v
	}
	ybar /= float64(n)
	b0 := math.Log(ybar / (1 - ybar))
	eta := make([]float64, n)
	w := make([]float64, n)
	r := make([]float64, n) // working residual z - eta
	active := make([]bool, p)
	var act []int
	col := make([][]float64, p)
	for j := range col {
		col[j] = mat.Col(nil, j, x)
	}
	for l, lam := range lambdas {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for outer := 0; outer < 50; outer++ {
			// quadratic approximation at the current fit
			for i := range eta {
				s := b0
				for _, j := range act {
					s += col[j][i] * beta[j]
				}
				eta[i] = s
				pi := 1 / (1 + math.Exp(-s))
				wi := math.Max(pi*(1-pi), 1e-5)
				w[i] = wi
				r[i] = (y[i] - pi) / wi
			}
			maxChange := 0.0
			for kkt := 0; kkt < 100; kkt++ {
				// coordinate descent on the active set (and the intercept)
				for sweep := 0; sweep < 1000; sweep++ {
					change := 0.0
					sw, swr := 0.0, 0.0
					for i := range r {
						sw += w[i]
						swr += w[i] * r[i]
					}
					d0 := swr / sw
					b0 += d0
					for i := range r {
						r[i] -= d0
					}
					change = math.Max(change, math.Abs(d0))
					for _, j := range act {
						cj := col[j]
						g, h := 0.0, 0.0
						for i, v := range cj {
							g += w[i] * v * r[i]
							h += w[i] * v * v
						}
						g /= float64(n)
						h /= float64(n)
						old := beta[j]
						nb := softThreshold(g+h*old, lam) / h
						if d := nb - old; d != 0 {
							for i, v := range cj {
								r[i] -= d * v
							}
							beta[j] = nb
							change = math.Max(change, math.Abs(d)*math.Sqrt(h))
						}
					}
					maxChange = math.Max(maxChange, change)
					if change < 1e-7 {
						break
					}
				}
				// KKT: an inactive feature with |gradient| > lambda joins
				added := false
				for j := 0; j < p; j++ {
					if active[j] {
						continue
					}
					g := 0.0
					for i, v := range col[j] {
						g += w[i] * v * r[i]
					}
					if math.Abs(g/float64(n)) > lam*(1+1e-9) { // rounding at lambda_max
						active[j] = true
						act = append(act, j)
						added = true
					}
				}
				if !added {
					break
				}
			}
			if maxChange < 1e-6 {
				break
			}
		}
		visit(l, beta)
	}
	return nil
}

func softThreshold(z, g float64) float64 {
	switch {
	case z > g:
		return z - g
	case z < -g:
		return z + g
	}
	return 0
}

// LambdaPath returns nl values from lambda_max = max_j |x_j'(y - ybar)|/n (the smallest
// lambda with all coefficients zero) down to ratio * lambda_max, evenly on a log scale.
func LambdaPath(x *mat.Dense, y []float64, nl int, ratio float64) []float64 {
	n, p := x.Dims()
	ybar := 0.0
	for _, v := range y {
		ybar += v
	}
	ybar /= float64(n)
	lmax := 0.0
	for j := 0; j < p; j++ {
		g := 0.0
		for i := 0; i < n; i++ {
			g += x.At(i, j) * (y[i] - ybar)
		}
		lmax = math.Max(lmax, math.Abs(g)/float64(n))
	}
	out := make([]float64, nl)
	for l := range out {
		out[l] = lmax * math.Pow(ratio, float64(l)/float64(max(nl-1, 1)))
	}
	return out
}

// StabilitySelection (Meinshausen and Buhlmann 2010): B subsamples of half the training
// samples (without replacement, drawn from r); on each, the L1-logistic path over
// Lambdas values from lambda_max down to Ratio * lambda_max (lambda_max of the whole
// training set); score of a feature = max over lambda of the share of subsamples whose
// fit selects it. Multi-class: one-vs-rest, the largest probability over the classes.
type StabilitySelection struct {
	B       int
	Lambdas int
	Ratio   float64
}

// Rank implements Ranker.
func (s StabilitySelection) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (Ranking, error) {
	n, p := x.Dims()
	B, L := max(s.B, 1), max(s.Lambdas, 2)
	ratio := s.Ratio
	if ratio <= 0 {
		ratio = 0.05
	}
	prob := make([]float64, p)
	tasks := 1
	if classes > 2 {
		tasks = classes
	}
	for t := 0; t < tasks; t++ {
		yt := make([]float64, n)
		for i, l := range y {
			if (classes == 2 && l == 1) || (classes > 2 && l == t) {
				yt[i] = 1
			}
		}
		lambdas := LambdaPath(x, yt, L, ratio)
		count := make([][]float64, L)
		for l := range count {
			count[l] = make([]float64, p)
		}
		for b := 0; b < B; b++ {
			idx := r.Perm(n)[:n/2]
			xb, _ := dataset.SelectSamples(x, y, idx)
			yb := make([]float64, len(idx))
			for i, k := range idx {
				yb[i] = yt[k]
			}
			one := false
			for _, v := range yb {
				one = one || v != yb[0]
			}
			if !one {
				continue // a half-sample with one class selects nothing
			}
			err := LogisticPath(ctx, xb, yb, lambdas, func(l int, beta []float64) {
				for j, v := range beta {
					if v != 0 {
						count[l][j]++
					}
				}
			})
			if err != nil {
				return Ranking{}, err
			}
		}
		for l := range count {
			for j, c := range count[l] {
				prob[j] = math.Max(prob[j], c/float64(B))
			}
		}
	}
	return Ranking{Order: orderByScore(prob), Score: prob}, nil
}
