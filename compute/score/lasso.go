package score

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/parallel"
)

// LogisticPath fits L1-penalised logistic regression of y in {0, 1} on the columns of x
// along a decreasing lambda path, minimising
//
//	-1/n sum_i [y_i eta_i - log(1 + e^eta_i)] + lambda sum_j |beta_j|,  eta = beta_0 + x'beta,
//
// with glmnet's method: per lambda, a working set screened by the sequential strong rule
// (|g_j| >= 2 lambda - lambda_prev, g the gradient at the previous solution), IRLS
// quadratic approximations solved by coordinate descent on the working set, then a KKT
// check of every feature (the gradient X'(w o r)/n as one matrix-vector product); features
// that violate it join and the fit repeats. Warm starts along the path. visit(l, beta)
// sees each solution (beta is reused).
//
// tol ends a coordinate-descent loop when no update changed the quadratic objective by
// more than tol, h_j (delta beta_j)^2 (glmnet's criterion; its default is 1e-7). It
// returns the number of lambdas whose fit stopped at an iteration cap (50 IRLS steps,
// 1000 sweeps, 100 KKT rounds) before meeting the tolerance.
func LogisticPath(ctx context.Context, x *mat.Dense, y []float64, lambdas []float64, tol float64, visit func(l int, beta []float64)) (capped int, err error) {
	n, p := x.Dims()
	beta := make([]float64, p)
	ybar := 0.0
	for _, v := range y {
		ybar += v
	}
	ybar /= float64(n)
	b0 := math.Log(ybar / (1 - ybar))
	w := make([]float64, n)
	r := make([]float64, n)  // working residual z - eta
	wr := make([]float64, n) // w o r
	inSet := make([]bool, p)
	var set []int
	col := make([][]float64, p)
	for j := range col {
		col[j] = mat.Col(nil, j, x)
	}
	grad := make([]float64, p) // X'(w o r)/n at the last solution
	// gradient at the null model, for the first strong-rule screen
	approx := func() {
		for i := 0; i < n; i++ {
			s := b0
			for _, j := range set {
				s += col[j][i] * beta[j]
			}
			pi := 1 / (1 + math.Exp(-s))
			wi := math.Max(pi*(1-pi), 1e-5)
			w[i], r[i] = wi, (y[i]-pi)/wi
		}
	}
	fullGradient := func() {
		for i := range wr {
			wr[i] = w[i] * r[i] / float64(n)
		}
		g := mat.NewVecDense(p, grad)
		g.MulVec(x.T(), mat.NewVecDense(n, wr))
	}
	approx()
	fullGradient()
	prev := 0.0
	if len(lambdas) > 0 {
		prev = lambdas[0]
	}
	for l, lam := range lambdas {
		if ctx.Err() != nil {
			return capped, ctx.Err()
		}
		converged := false
		for j := 0; j < p; j++ { // sequential strong rule
			if !inSet[j] && math.Abs(grad[j]) >= 2*lam-prev {
				inSet[j] = true
				set = append(set, j)
			}
		}
		prev = lam
		for kkt := 0; kkt < 100; kkt++ {
			fitted := false
			for outer := 0; outer < 50; outer++ {
				approx()
				maxChange := 0.0
				swept := false
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
					change = math.Max(change, sw/float64(n)*d0*d0)
					for _, j := range set {
						cj := col[j]
						g, h := 0.0, 0.0
						for i, v := range cj {
							g += w[i] * v * r[i]
							h += w[i] * v * v
						}
						g /= float64(n)
						h /= float64(n)
						old := beta[j]
						// the threshold's 1e-9 allowance keeps rounding from moving a
						// coefficient at lambda_max, where it must stay 0
						nb := softThreshold(g+h*old, lam*(1+1e-9)) / h
						if d := nb - old; d != 0 {
							for i, v := range cj {
								r[i] -= d * v
							}
							beta[j] = nb
							change = math.Max(change, h*d*d)
						}
					}
					maxChange = math.Max(maxChange, change)
					if change < tol {
						swept = true
						break
					}
				}
				if maxChange < 10*tol && swept {
					fitted = true
					break
				}
			}
			// KKT over every feature at the converged fit
			approx()
			fullGradient()
			added := false
			for j := 0; j < p; j++ {
				if !inSet[j] && math.Abs(grad[j]) > lam*(1+1e-9) { // rounding at lambda_max
					inSet[j] = true
					set = append(set, j)
					added = true
				}
			}
			if !added {
				converged = fitted
				break
			}
		}
		if !converged {
			capped++
		}
		visit(l, beta)
	}
	return capped, nil
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
// training set), solved to glmnet's default tolerance 1e-7; score of a feature = max over lambda of the share of subsamples whose
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
	stopped := 0 // (half-sample, lambda) fits that hit an iteration cap
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
		// draw every half-sample first, in order, then fit them on all cores; the counts
		// are sums of 0/1, so the result does not depend on scheduling
		subs := make([][]int, B)
		for b := range subs {
			subs[b] = r.Perm(n)[:n/2]
		}
		count := make([][]float64, L)
		for l := range count {
			count[l] = make([]float64, p)
		}
		var mu sync.Mutex
		err := parallel.For(ctx, 0, B, func(b int) error {
			idx := subs[b]
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
				return nil // a half-sample with one class selects nothing
			}
			local := make([][]int32, L)
			capped, err := LogisticPath(ctx, xb, yb, lambdas, 1e-7, func(l int, beta []float64) {
				for j, v := range beta {
					if v != 0 {
						local[l] = append(local[l], int32(j))
					}
				}
			})
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			stopped += capped
			for l, js := range local {
				for _, j := range js {
					count[l][j]++
				}
			}
			return nil
		})
		if err != nil {
			return Ranking{}, err
		}
		for l := range count {
			for j, c := range count[l] {
				prob[j] = math.Max(prob[j], c/float64(B))
			}
		}
	}
	return Ranking{Order: orderByScore(prob, r), Score: prob, Unconverged: stopped}, nil
}
