package group

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/floats"
)

// hubReach is how far from its centre a hub serves trajectories, in units of h.
const hubReach = 0.25

// hub serves the rebuilds of the trajectories within reach r of its centre c. With
// a = h - wmax - r and R = h + wmax + r (wmax the widest shell), a feature within a of c
// (the hub's core, summed once) is within h - w of every such y, and a feature within
// h + w of y is within R of c: a rebuild near a hub screens only its ring, the features
// that may lie between a and R from c.
type hub struct {
	c     []float64
	sum   []float64 // of the core, exact
	count int
	ring  []int32
}

// newHub builds the hub at y from screened distances to every feature.
func (ms *shifter) newHub(sc screener) *hub {
	p, n := ms.sp.pt.Dims()
	r := hubReach * ms.h
	wmax := shellShare * ms.h
	a, R := ms.h-wmax-r, ms.h+wmax+r
	hb := &hub{c: sc.y, sum: make([]float64, n)}
	for k := 0; k < p; k++ {
		est, err := sc.bounds(k)
		switch {
		case est+err < a*a:
			hb.count++
			floats.Add(hb.sum, ms.sp.pt.RawRowView(k))
		case est-err <= R*R:
			hb.ring = append(hb.ring, int32(k))
		}
	}
	return hb
}

// serves reports whether hb may rebuild a trajectory at y.
func (ms *shifter) serves(hb *hub, y []float64) bool {
	return hb != nil && math.Sqrt(dist2(y, hb.c))+1e-9*ms.h <= hubReach*ms.h
}

// hubJob is one block of trajectories rebuilt at one hub.
type hubJob struct {
	hb   *hub
	rows []int
}

// rebuildAtHubs rebuilds each job's trajectories from their distances to the hub's ring,
// one float32 matrix product per job.
func (ms *shifter) rebuildAtHubs(ctx context.Context, jobs []hubJob) error {
	_, n := ms.sp.pt.Dims()
	return forAll(ctx, len(jobs), func(j int) {
		job := jobs[j]
		m := len(job.hb.ring)
		ring := make([]float32, m*n)
		for i, k := range job.hb.ring {
			copy(ring[i*n:(i+1)*n], ms.sp.x32[int(k)*n:int(k+1)*n])
		}
		yb := make([]float32, len(job.rows)*n)
		for i, s := range job.rows {
			for d, v := range ms.tr[s].y {
				yb[i*n+d] = float32(v)
			}
		}
		c := make([]float32, len(job.rows)*m)
		if m > 0 {
			blas32.Gemm(blas.NoTrans, blas.Trans, 1,
				blas32.General{Rows: len(job.rows), Cols: n, Stride: n, Data: yb},
				blas32.General{Rows: m, Cols: n, Stride: n, Data: ring}, 0,
				blas32.General{Rows: len(job.rows), Cols: m, Stride: m, Data: c})
		}
		for i, s := range job.rows {
			ms.rebuild(s, ms.sp.screener(ms.tr[s].y, c[i*m:(i+1)*m]), job.hb.ring, job.hb)
			ms.tr[s].hub = job.hb
		}
	})
}
