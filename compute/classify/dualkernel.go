package classify

import (
	"context"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// kernelMaxRows bounds the samples of a problem solved through its Gram matrix (n x n
// float64: 32 MB at 2,000).
const kernelMaxRows = 2000

// UseKernel reports whether dual coordinate descent on n samples of d features runs on
// the Gram matrix: when there are fewer samples than features (a gene-expression
// study), each step then costs O(n) where it cost O(d).
func UseKernel(n, d int) bool { return n < d && n <= kernelMaxRows }

// Gram is Q = X X' + 1 of a problem's n samples (the 1 is the bias feature's), the
// inner products dual coordinate descent needs, kept up to date as features leave
// (Drop), as SVM-RFE drops them.
type Gram struct {
	n   int
	q   []float64 // row-major n x n
	buf []float64 // the dropped columns' values, sample by sample (Drop)
}

// NewGram computes Q of the rows of x: Q_ij = x_i'x_j + 1, each product a floats.Dot.
func NewGram(ctx context.Context, x *mat.Dense) (*Gram, error) {
	n, d := x.Dims()
	raw := x.RawMatrix()
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+d] }
	g := &Gram{n: n, q: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ri := row(i)
		for j := i; j < n; j++ {
			v := floats.Dot(ri, row(j)) + 1
			g.q[i*n+j], g.q[j*n+i] = v, v
		}
	}
	return g, nil
}

// Drop removes the features cols (columns of x, whose rows are Q's samples) from Q:
// Q_ij -= sum over c in cols of x_ic x_jc, the sum a floats.Dot over cols in the order
// given. O(n^2 len(cols)): SVM-RFE pays n^2 d / 2 over all its rounds where computing
// Q again each round cost about ten times that.
func (g *Gram) Drop(x *mat.Dense, cols []int) {
	n, m := g.n, len(cols)
	if cap(g.buf) < n*m {
		g.buf = make([]float64, n*m)
	}
	d := g.buf[:n*m]
	for i := 0; i < n; i++ {
		row, di := x.RawRowView(i), d[i*m:(i+1)*m]
		for k, c := range cols {
			di[k] = row[c]
		}
	}
	for i := 0; i < n; i++ {
		di := d[i*m : (i+1)*m]
		for j := i; j < n; j++ {
			v := g.q[i*n+j] - floats.Dot(di, d[j*m:(j+1)*m])
			g.q[i*n+j], g.q[j*n+i] = v, v
		}
	}
}

// FitGram fits LinearSVM's one-vs-rest models on the samples of g with classes y
// (LinearSVM.Fit's labels, weights and parameters; r orders the passes as there) and
// returns each model's alpha_i y_i: its weights are w = sum_i alpha_i y_i x_i over
// whatever features Q holds, and its bias sum_i alpha_i y_i. converged is false when a
// model stopped at its pass limit.
func FitGram(ctx context.Context, g *Gram, y []int, classes int, weight []float64, p SVMParams, r *rand.Rand) (ay [][]float64, converged bool, err error) {
	p = p.withDefaults()
	models := classes
	if classes == 2 {
		models = 1
	}
	converged = true
	sy := make([]float64, len(y))
	for m := 0; m < models; m++ {
		pos := m
		if classes == 2 {
			pos = 1
		}
		for i, l := range y {
			sy[i] = -1
			if l == pos {
				sy[i] = 1
			}
		}
		a, _, ok, err := dualGram(ctx, g, sy, weight, p, r)
		if err != nil {
			return nil, false, err
		}
		ay = append(ay, a)
		converged = converged && ok
	}
	return ay, converged, nil
}

// dualCDKernel is dualCD through the Gram matrix of x (dualGram), then w = sum_i
// alpha_i y_i x_i and b = sum_i alpha_i y_i.
func dualCDKernel(ctx context.Context, x *mat.Dense, y, weight []float64, p SVMParams, r *rand.Rand) (w []float64, b float64, iter int, converged bool, err error) {
	g, err := NewGram(ctx, x)
	if err != nil {
		return nil, 0, 0, false, err
	}
	ay, iter, converged, err := dualGram(ctx, g, y, weight, p, r)
	if err != nil {
		return nil, 0, iter, false, err
	}
	n, d := x.Dims()
	raw := x.RawMatrix()
	w = make([]float64, d)
	for i := 0; i < n; i++ {
		if ay[i] != 0 {
			floats.AddScaled(w, ay[i], raw.Data[i*raw.Stride:i*raw.Stride+d])
			b += ay[i]
		}
	}
	return w, b, iter, converged, nil
}

// dualGram is dualCD's coordinate descent on Q (labels y in {-1, 1}): each step's
// margin sum_j Q_ij alpha_j y_j from Q's row i, an O(n) product where dualCD's w'x_i
// cost O(d); the same coordinates in the same order (r), the same shrinking and
// stopping rule (descend), so the same solution to the solver's tolerance. It returns
// alpha_i y_i.
func dualGram(ctx context.Context, g *Gram, y, weight []float64, p SVMParams, r *rand.Rand) (ay []float64, iter int, converged bool, err error) {
	n, q := g.n, g.q
	ay = make([]float64, n)
	sq := make([]float64, n)
	for i := range sq {
		sq[i] = q[i*n+i]
	}
	iter, converged, err = descend(ctx, y, weight, p, r, sq,
		func(i int) float64 { return floats.Dot(q[i*n:(i+1)*n], ay) },
		func(i int, step float64) { ay[i] += step })
	if err != nil {
		return nil, iter, false, err
	}
	return ay, iter, converged, nil
}
