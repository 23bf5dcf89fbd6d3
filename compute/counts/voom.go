package counts

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"

	"steadfast/compute/rstat"
)

// Moderated are limma's moderated statistics of the groups, one value a gene: Means
// the groups' weighted mean log-CPM (the fitted values of design ~ group), the average
// log-CPM, and the prior the empirical Bayes step estimated. With two groups, LogFC is
// group 1's against group 0, T the moderated t and P its two-sided p; with more, F is
// the moderated F of the groups (limma's topTable over coefficients 2 to K) and P its p.
type Moderated struct {
	Means                [][]float64
	LogFC, AveExpr, T, F []float64
	P                    []float64
	DFPrior, S2Prior     float64
	DFTotal              float64
}

// Voom is limma's voom, lmFit and eBayes (Law et al. 2014; Smyth 2004) for the design
// ~ group of K groups (group[s] in 0..K-1, treatment coding, group 0 the reference), on
// the counts c (samples as rows, the kept genes) with effective library sizes lib
// (lib.size x norm.factors):
//
//   - y = log2((x + 0.5) / (lib + 1) 10^6); an unweighted fit of each gene gives its
//     residual SD s and average A;
//   - the trend lowess(A + mean log2(lib + 1) - log2 10^6, sqrt s, f = 0.5) (R's
//     lowess, genes of no read left out), linear between its points and flat beyond;
//   - weights 1 / trend(log2 fitted count)^4, the fitted count 2^(fitted y) (lib + 1)/10^6;
//   - a weighted fit of each gene: its groups' weighted means m_k (coefficient k is m_k -
//     m_0, its unscaled SD sqrt(1/W_0 + 1/W_k), W_k the group's sum of weights) and s^2
//     on n - K degrees of freedom;
//   - eBayes: s~^2 = (d s^2 + d0 s0^2) / (d + d0) (rstat.SqueezeVar), t_k = coef_k /
//     (unscaled SD s~), on min(d + d0, the pooled d) degrees of freedom;
//   - with K > 2, F = t' R^-1 t / (K - 1), R the correlation of the coefficients of the
//     unweighted design (limma's cov.coefficients: R_kl = (1/n_0) / sqrt((1/n_0 + 1/n_k)
//     (1/n_0 + 1/n_l))), on K - 1 and the t's degrees of freedom.
func Voom(c Counts, lib []float64, group []int) (*Moderated, error) {
	n := len(c)
	if n < 3 || len(lib) != n || len(group) != n {
		return nil, fmt.Errorf("voom needs at least 3 samples with a library size and a group each")
	}
	g := len(c[0])
	if g < 2 {
		return nil, fmt.Errorf("voom needs at least two genes to fit a mean-variance trend")
	}
	k := 0
	for _, v := range group {
		if v < 0 {
			return nil, fmt.Errorf("voom: group %d is not a group number", v)
		}
		k = max(k, v+1)
	}
	size := make([]float64, k)
	for _, v := range group {
		size[v]++
	}
	if k < 2 || slices.Contains(size, 0) {
		return nil, fmt.Errorf("voom compares two groups or more; one is empty")
	}
	if n <= k {
		return nil, fmt.Errorf("voom needs more samples (%d) than groups (%d) to estimate a variance", n, k)
	}
	y := make([][]float64, g) // genes x samples
	logLib := 0.0
	for s := range lib {
		logLib += math.Log2(lib[s]+1) / float64(n)
	}
	ones := make([]float64, n)
	for s := range ones {
		ones[s] = 1
	}
	var sx, sy []float64
	fitted := make([][]float64, g)
	for j := range g {
		y[j] = make([]float64, n)
		total := 0.0
		for s := range n {
			y[j][s] = math.Log2((c[s][j] + 0.5) / (lib[s] + 1) * 1e6)
			total += c[s][j]
		}
		var s2 float64
		fitted[j], s2, _ = groupFit(y[j], group, k, ones)
		if total > 0 {
			mean := 0.0
			for _, v := range y[j] {
				mean += v / float64(n)
			}
			sx = append(sx, mean+logLib-math.Log2(1e6))
			sy = append(sy, math.Sqrt(math.Sqrt(s2)))
		}
	}
	trend := approx(Lowess(sx, sy, 0.5, 3))
	w := make([][]float64, g)
	for j := range g {
		w[j] = make([]float64, n)
		for s := range n {
			count := math.Pow(2, fitted[j][group[s]]) * (lib[s] + 1) / 1e6
			w[j][s] = 1 / math.Pow(trend(math.Log2(count)), 4)
		}
	}
	return moderate(y, w, group, size), nil
}

// Limma is limma's lmFit(y, design ~ group) and eBayes(fit) without weights (as DEP
// tests log2 intensities, Zhang et al. 2018): x[s][j] is gene j's log value in sample
// s (samples as rows, no value missing), group[s] its group in 0..K-1 (treatment
// coding, group 0 the reference); the statistics are Voom's with every weight 1.
func Limma(x [][]float64, group []int) (*Moderated, error) {
	n := len(x)
	if n < 3 || len(group) != n {
		return nil, fmt.Errorf("limma needs at least 3 samples with a group each")
	}
	g := len(x[0])
	k := 0
	for _, v := range group {
		if v < 0 {
			return nil, fmt.Errorf("limma: group %d is not a group number", v)
		}
		k = max(k, v+1)
	}
	size := make([]float64, k)
	for _, v := range group {
		size[v]++
	}
	if k < 2 || slices.Contains(size, 0) || n <= k || g < 1 {
		return nil, fmt.Errorf("limma compares two groups or more, none empty, with more samples (%d) than groups (%d)", n, k)
	}
	y := make([][]float64, g)
	w := make([][]float64, g)
	ones := make([]float64, n)
	for s := range ones {
		ones[s] = 1
	}
	for j := range g {
		y[j], w[j] = make([]float64, n), ones
		for s := range n {
			if v := x[s][j]; math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("limma: sample %d, gene %d has no value", s+1, j+1)
			}
			y[j][s] = x[s][j]
		}
	}
	return moderate(y, w, group, size), nil
}

// moderate is lmFit with weights w (a gene's a sample's) and eBayes on y (genes x
// samples) for the groups of the given sizes (see Voom).
func moderate(y, w [][]float64, group []int, size []float64) *Moderated {
	g, n, k := len(y), len(group), len(size)
	m := &Moderated{Means: make([][]float64, g), AveExpr: make([]float64, g), P: make([]float64, g)}
	s2 := make([]float64, g)
	sumW := make([][]float64, g)
	for j := range g {
		m.Means[j], s2[j], sumW[j] = groupFit(y[j], group, k, w[j])
		for _, v := range y[j] {
			m.AveExpr[j] += v / float64(n)
		}
	}
	d := float64(n - k)
	var post []float64
	post, m.DFPrior, m.S2Prior = rstat.SqueezeVar(s2, d)
	m.DFTotal = math.Min(d+m.DFPrior, d*float64(g))
	tk := make([][]float64, g) // the moderated t of coefficients 1..K-1
	for j := range g {
		tk[j] = make([]float64, k-1)
		for c := 1; c < k; c++ {
			unscaled := math.Sqrt(1/sumW[j][0] + 1/sumW[j][c])
			tk[j][c-1] = (m.Means[j][c] - m.Means[j][0]) / unscaled / math.Sqrt(post[j])
		}
	}
	if k == 2 {
		m.LogFC, m.T = make([]float64, g), make([]float64, g)
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: m.DFTotal}
		for j := range g {
			m.LogFC[j], m.T[j] = m.Means[j][1]-m.Means[j][0], tk[j][0]
			m.P[j] = 2 * t.CDF(-math.Abs(m.T[j]))
		}
		return m
	}
	inv := coefCorrelationInverse(size)
	m.F = make([]float64, g)
	d1 := float64(k - 1)
	for j := range g {
		q := 0.0
		for a := range k - 1 {
			for b := range k - 1 {
				q += tk[j][a] * inv.At(a, b) * tk[j][b]
			}
		}
		m.F[j] = q / d1
		m.P[j] = mathext.RegIncBeta(m.DFTotal/2, d1/2, m.DFTotal/(m.DFTotal+d1*m.F[j])) // P(F > f), as R's pf(lower = FALSE)
	}
	return m
}

// coefCorrelationInverse is R^-1, R the correlation matrix of the coefficients 2..K of
// the unweighted design ~ group (treatment coding) of groups of the given sizes:
// cov(b_k, b_l) = 1/n_0 + [k = l]/n_k.
func coefCorrelationInverse(size []float64) *mat.Dense {
	r := len(size) - 1
	cov := mat.NewSymDense(r, nil)
	for a := range r {
		for b := a; b < r; b++ {
			v := 1 / size[0]
			if a == b {
				v += 1 / size[a+1]
			}
			cov.SetSym(a, b, v)
		}
	}
	corr := mat.NewDense(r, r, nil)
	for a := range r {
		for b := range r {
			corr.Set(a, b, cov.At(a, b)/math.Sqrt(cov.At(a, a)*cov.At(b, b)))
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(corr); err != nil { // a correlation of independent-group contrasts is positive definite
		panic(err)
	}
	return &inv
}

// groupFit is the weighted least-squares fit of y on the groups (design ~ group): each
// group's weighted mean, the residual variance sum w r^2 / (n - K), and each group's sum
// of weights.
func groupFit(y []float64, group []int, k int, w []float64) (means []float64, s2 float64, sumW []float64) {
	means, sumW = make([]float64, k), make([]float64, k)
	for s, v := range y {
		sumW[group[s]] += w[s]
		means[group[s]] += w[s] * v
	}
	for c := range means {
		means[c] /= sumW[c]
	}
	for s, v := range y {
		r := v - means[group[s]]
		s2 += w[s] * r * r
	}
	return means, s2 / float64(len(y)-k), sumW
}

// Lowess is R's lowess(x, y, f, iter) (Cleveland 1979, R's clowess with delta =
// 0.01 range(x)): the points sorted by x (ties in their order), each fitted by a
// tricube-weighted local line through the f n nearest, iter robustness passes with
// bisquare weights of 6 MAD; it returns the sorted x and the fitted values.
func Lowess(x, y []float64, f float64, iter int) (xs, ys []float64) {
	n := len(x)
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	sort.SliceStable(o, func(a, b int) bool { return x[o[a]] < x[o[b]] })
	xs, yv := make([]float64, n), make([]float64, n)
	for i, k := range o {
		xs[i], yv[i] = x[k], y[k]
	}
	ys = make([]float64, n)
	if n < 2 {
		copy(ys, yv)
		return xs, ys
	}
	delta := 0.01 * (xs[n-1] - xs[0])
	ns := max(2, min(n, int(f*float64(n)+1e-7)))
	rw, res := make([]float64, n), make([]float64, n)
	for it := 1; it <= iter+1; it++ {
		nleft, nright, last, i := 0, ns-1, -1, 0
		for {
			if nright < n-1 {
				if d1, d2 := xs[i]-xs[nleft], xs[nright+1]-xs[i]; d1 > d2 {
					nleft++
					nright++
					continue
				}
			}
			v, ok := lowest(xs, yv, xs[i], nleft, nright, res, it > 1, rw)
			ys[i] = v
			if !ok {
				ys[i] = yv[i]
			}
			if last < i-1 {
				denom := xs[i] - xs[last]
				for j := last + 1; j < i; j++ {
					alpha := (xs[j] - xs[last]) / denom
					ys[j] = alpha*ys[i] + (1-alpha)*ys[last]
				}
			}
			last = i
			cut := xs[last] + delta
			for i = last + 1; i < n; i++ {
				if xs[i] > cut {
					break
				}
				if xs[i] == xs[last] {
					ys[i] = ys[last]
					last = i
				}
			}
			i = max(last+1, i-1)
			if last >= n-1 {
				break
			}
		}
		sc := 0.0
		for j := range n {
			res[j] = yv[j] - ys[j]
			sc += math.Abs(res[j]) / float64(n)
		}
		if it > iter {
			break
		}
		for j := range n {
			rw[j] = math.Abs(res[j])
		}
		sorted := append([]float64(nil), rw...)
		sort.Float64s(sorted)
		m1 := n / 2
		var cmad float64
		if n%2 == 0 {
			cmad = 3 * (sorted[m1] + sorted[n-m1-1])
		} else {
			cmad = 6 * sorted[m1]
		}
		if cmad < 1e-7*sc {
			break
		}
		c9, c1 := 0.999*cmad, 0.001*cmad
		for j := range n {
			r := math.Abs(res[j])
			switch {
			case r <= c1:
				rw[j] = 1
			case r <= c9:
				u := r / cmad
				rw[j] = (1 - u*u) * (1 - u*u)
			default:
				rw[j] = 0
			}
		}
	}
	return xs, ys
}

// lowest is clowess's local fit at xv from the points nleft..nright (and ties beyond),
// w the workspace of weights, rw the robustness weights when userw.
func lowest(x, y []float64, xv float64, nleft, nright int, w []float64, userw bool, rw []float64) (float64, bool) {
	n := len(x)
	rng := x[n-1] - x[0]
	h := math.Max(xv-x[nleft], x[nright]-xv)
	h9, h1 := 0.999*h, 0.001*h
	a := 0.0
	j := nleft
	for j < n {
		w[j] = 0
		r := math.Abs(x[j] - xv)
		if r <= h9 {
			if r <= h1 {
				w[j] = 1
			} else {
				q := r / h
				q = 1 - q*q*q
				w[j] = q * q * q
			}
			if userw {
				w[j] *= rw[j]
			}
			a += w[j]
		} else if x[j] > xv {
			break
		}
		j++
	}
	nrt := j - 1
	if a <= 0 {
		return 0, false
	}
	for j := nleft; j <= nrt; j++ {
		w[j] /= a
	}
	if h > 0 {
		a = 0
		for j := nleft; j <= nrt; j++ {
			a += w[j] * x[j]
		}
		b := xv - a
		c := 0.0
		for j := nleft; j <= nrt; j++ {
			c += w[j] * (x[j] - a) * (x[j] - a)
		}
		if math.Sqrt(c) > 0.001*rng {
			b /= c
			for j := nleft; j <= nrt; j++ {
				w[j] *= b*(x[j]-a) + 1
			}
		}
	}
	ys := 0.0
	for j := nleft; j <= nrt; j++ {
		ys += w[j] * y[j]
	}
	return ys, true
}

// approx is R's approxfun(x, y, rule = 2, ties = list("ordered", mean)) for x sorted:
// the y of tied x averaged, linear between the points, the end values beyond them.
func approx(x, y []float64) func(float64) float64 {
	var ux, uy []float64
	for i := 0; i < len(x); {
		j, sum := i, 0.0
		for ; j < len(x) && x[j] == x[i]; j++ {
			sum += y[j]
		}
		ux, uy = append(ux, x[i]), append(uy, sum/float64(j-i))
		i = j
	}
	return func(v float64) float64 {
		switch {
		case v <= ux[0]:
			return uy[0]
		case v >= ux[len(ux)-1]:
			return uy[len(uy)-1]
		}
		k := sort.SearchFloat64s(ux, v) // ux[k-1] < v <= ux[k]
		if ux[k] == v {
			return uy[k]
		}
		t := (v - ux[k-1]) / (ux[k] - ux[k-1])
		return uy[k-1] + t*(uy[k]-uy[k-1])
	}
}
