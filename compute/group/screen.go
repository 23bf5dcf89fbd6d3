package group

import (
	"context"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"
)

// space holds the features as points in sample space in the two forms the distance work
// needs: float64 (the arithmetic every decision is made in) and float32 (for screening
// matrix products, twice the speed of float64 ones).
//
// The points are the z-scored values rounded to multiples of a power of two, unit, small
// enough to change no decision (about 3e-11 for microarray sizes) and large enough that
// every sum of features is exact in float64 (p * max|x| < 2^53 units): a mean of a set of
// features is then a function of the set alone, whatever the order of addition.
type space struct {
	points
	x32    []float32 // p*n, row j = feature j
	maxLen float64   // max_j ||x_j||
	half   []float64 // ||x_j||^2 / 2
	gamma  float64   // float32 screening error factor, see screener.bounds
}

func newSpace(x *mat.Dense) *space {
	n, p := x.Dims()
	big := 1e-300
	for i := 0; i < n; i++ {
		for _, v := range x.RawRowView(i) {
			big = math.Max(big, math.Abs(v))
		}
	}
	unit := math.Exp2(math.Ceil(math.Log2(float64(p)*big)) - 52)
	sp := &space{
		x32:  make([]float32, p*n),
		half: make([]float64, p),
	}
	pt := mat.NewDense(p, n, nil)
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			v = math.Round(v/unit) * unit
			pt.Set(j, i, v)
			sp.x32[j*n+i] = float32(v)
		}
	}
	sp.points = points{pt: pt, norm: make([]float64, p)}
	for j := range sp.norm {
		r := pt.RawRowView(j)
		sp.norm[j] = dot(r, r)
		sp.maxLen = math.Max(sp.maxLen, math.Sqrt(sp.norm[j]))
		sp.half[j] = sp.norm[j] / 2
	}
	// |fl32(y'x) - y'x| <= ((1+u)^2 (1+g_n) - 1) sum|y_i x_i| <= gamma ||y|| ||x|| for
	// any summation order (Higham, Accuracy and Stability, eq. 3.5), u = 2^-24, with a
	// little room for the float64 work around it
	u := math.Exp2(-24)
	gn := float64(n+2) * u / (1 - float64(n+2)*u)
	sp.gamma = 1.01 * (gn + 3*u)
	return sp
}

// screenBlock is one block of points screened against a set of features: c holds
// float32 inner products, row i for point i.
type screenBlock struct {
	y32  []float32
	c    []float32
	cols int
}

// screenBlockRows is how many points share one screening product: few enough that the
// products (screenBlockRows * p float32s) stay in cache while they are read.
const screenBlockRows = 32

var screenPool sync.Pool

// screenRows visits, for each of the points ys[rows[i]], an estimate of its squared
// distance to every feature, computed in float32 blocks of screenBlockRows points (one matrix
// product each). visit gets the point's index s and a screener to classify distances
// with; it may run on several goroutines, never twice for one s.
func (sp *space) screenRows(ctx context.Context, ys [][]float64, rows []int, visit func(s int, sc screener)) error {
	p, n := sp.pt.Dims()
	blocks := (len(rows) + screenBlockRows - 1) / screenBlockRows
	return forAll(ctx, blocks, func(b int) {
		part := rows[b*screenBlockRows : min((b+1)*screenBlockRows, len(rows))]
		buf, _ := screenPool.Get().(*screenBlock)
		if buf == nil || buf.cols != p || len(buf.y32) < screenBlockRows*n {
			buf = &screenBlock{y32: make([]float32, screenBlockRows*n), c: make([]float32, screenBlockRows*p), cols: p}
		}
		defer screenPool.Put(buf)
		yb, c := buf.y32[:len(part)*n], buf.c[:len(part)*p]
		for i, s := range part {
			for k, v := range ys[s] {
				yb[i*n+k] = float32(v)
			}
		}
		blas32.Gemm(blas.NoTrans, blas.Trans, 1,
			blas32.General{Rows: len(part), Cols: n, Stride: n, Data: yb},
			blas32.General{Rows: p, Cols: n, Stride: n, Data: sp.x32}, 0,
			blas32.General{Rows: len(part), Cols: p, Stride: p, Data: c})
		for i, s := range part {
			visit(s, sp.screener(ys[s], c[i*p:(i+1)*p]))
		}
	})
}

// screener classifies the distances from one point y to the features from float32 inner
// products g (g[k] ~ y'x_k) with a guaranteed error bound; exact float64 distances are
// computed only where the estimate cannot decide.
type screener struct {
	sp   *space
	y    []float64
	yy   float64
	err  float64 // bound on the error of every estimate (the largest ||x_k|| taken)
	g    []float32
	half []float64 // the space's ||x_k||^2/2
}

func (sp *space) screener(y []float64, g []float32) screener {
	yy := dot(y, y)
	err := 2*sp.gamma*math.Sqrt(yy)*sp.maxLen + 1e-12*(yy+sp.maxLen*sp.maxLen)
	return screener{sp: sp, y: y, yy: yy, err: err, g: g, half: sp.half}
}

// cutoff is the radius test ||y - x_k||^2 <= r2 for one screened point, turned into a test
// on v = g_k - ||x_k||^2/2 (the estimate is yy - 2v, give or take err): v > in means
// certainly within the radius, v < out certainly beyond it, anything between needs exact.
// (Three fields: the compiler keeps a struct of up to four in registers.)
type cutoff struct{ r2, in, out float64 }

func (sc *screener) cut(r2 float64) cutoff {
	return cutoff{r2: r2, in: (sc.yy + sc.err - r2) / 2, out: (sc.yy - sc.err - r2) / 2}
}

// inside reports whether ||y - x_k||^2 <= c.r2, v being g_k - ||x_k||^2/2 from the float32
// g_k ~ y'x_k (see value): by the estimate where it decides, else exactly.
func (sc *screener) inside(k int, v float64, c cutoff) bool {
	return v > c.in || (v >= c.out && sc.exact(k) <= c.r2)
}

// band returns the undecided values [out, in] as one comparison, |v - mid| <= wide: wide
// is a little more than half the band, so that the rounding of v - mid never leaves an
// undecided v outside (a few decided ones inside only cost an exact distance).
func (c cutoff) band() (mid, wide float64) {
	return (c.in + c.out) / 2, (c.in-c.out)/2 + 1e-12*(math.Abs(c.in)+math.Abs(c.out))
}

// estimate is inside by the estimate alone, given c's band: in, and whether that is
// sure. It has no branch on in: in a loop over a ring, about half of whose features are
// inside, mispredicted branches had been most of inside's cost.
func (c cutoff) estimate(v, mid, wide float64) (in, sure bool) {
	return v > c.in, math.Abs(v-mid) > wide
}

// value is g - ||x_k||^2/2, the quantity the cutoffs test.
func (sc *screener) value(k int, g float32) float64 { return float64(g) - sc.half[k] }

// exact is the squared distance the algorithm decides by (float64). Not inlined, so
// that inside, which seldom calls it, is.
//
//go:noinline
func (sc *screener) exact(k int) float64 { return sc.sp.dist2(sc.y, sc.yy, k) }

// within reports whether ||y - x_k||^2 <= r2, deciding by the estimate where it can.
func (sc *screener) within(k int, r2 float64) bool {
	return sc.inside(k, sc.value(k, sc.g[k]), sc.cut(r2))
}

// scratch hands out slices for work within one call, reused across calls (their values
// are left over from earlier use): get one of length n, put it back when done.
type scratch[T any] struct{ pool sync.Pool }

func (s *scratch[T]) get(n int) *[]T {
	b, _ := s.pool.Get().(*[]T)
	if b == nil || cap(*b) < n {
		b = new([]T)
		*b = make([]T, n)
	}
	*b = (*b)[:n]
	return b
}

func (s *scratch[T]) put(bs ...*[]T) {
	for _, b := range bs {
		s.pool.Put(b)
	}
}

var (
	scratch32  scratch[float32]
	scratchIdx scratch[int32]
	scratchIn  scratch[bool]
)

// sdot is the float32 inner product a'b.
func sdot(a, b []float32) float32 {
	return gonum.Implementation{}.Sdot(len(a), a, 1, b, 1) // pure Go: a cgo call costs more than the product
}
