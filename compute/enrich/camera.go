package enrich

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"

	"steadfast/compute/rstat"
	"steadfast/compute/signature"
)

// CameraCorrelation is camera's fixed inter-gene correlation (limma's default).
const CameraCorrelation = 0.01

// CameraSet is one set's competitive test: its genes in the data, the direction of its
// mean statistic, the two-sided P and its BH adjustment over the sets.
type CameraSet struct {
	Index     int // into the sets given
	NGenes    int
	Direction string // "Up" in class 1, or "Down"
	P, FDR    float64
}

// Camera is limma's camera (Wu and Smyth 2012, limma 3.54 camera.default with design
// ~ class, inter.gene.cor = 0.01): each gene's moderated t of class 1 against class 0
// (residual variances squeezed by squeezeVar), turned into z-scores by Hill's
// approximation, and for each set the two-sample t of its genes' mean z against the
// others', its variance inflated by 1 + (m - 1) 0.01 for the correlation between genes,
// on G - 2 degrees of freedom. x is samples x genes (rows of the data), labels 0 or 1,
// index the genes (columns) of each set.
func Camera(x *mat.Dense, labels []int, index [][]int) ([]CameraSet, error) {
	n, G := x.Dims()
	if G < 3 {
		return nil, fmt.Errorf("camera needs 3 genes at least, not %d", G)
	}
	var n1 float64
	for _, l := range labels {
		n1 += float64(l)
	}
	n0 := float64(n) - n1
	df := float64(n - 2)
	if n0 < 1 || n1 < 1 || df < 1 {
		return nil, fmt.Errorf("camera needs samples of both classes and a residual degree of freedom (%g and %g samples)", n0, n1)
	}
	unscaled, sigma2 := make([]float64, G), make([]float64, G)
	for g := 0; g < G; g++ {
		var s0, s1 float64
		for i := 0; i < n; i++ {
			if labels[i] == 1 {
				s1 += x.At(i, g)
			} else {
				s0 += x.At(i, g)
			}
		}
		m0, m1 := s0/n0, s1/n1
		ss := 0.0
		for i := 0; i < n; i++ {
			m := m0
			if labels[i] == 1 {
				m = m1
			}
			d := x.At(i, g) - m
			ss += d * d
		}
		unscaled[g] = (m1 - m0) * math.Sqrt(n0*n1/float64(n))
		sigma2[g] = ss / df
	}
	post, df2, _ := rstat.SqueezeVar(sigma2, df)
	dfTotal := math.Min(df+df2, float64(G)*df)
	stat := make([]float64, G)
	for g := range stat {
		stat[g] = zscoreTHill(unscaled[g]/math.Sqrt(post[g]), math.Min(dfTotal, 1e100))
	}
	meanStat, varStat := 0.0, 0.0
	for _, s := range stat {
		meanStat += s / float64(G)
	}
	for _, s := range stat {
		varStat += (s - meanStat) * (s - meanStat) / float64(G-1)
	}
	fg := float64(G)
	var out []CameraSet
	var ps []float64
	for si, set := range index {
		m := float64(len(set))
		if m == 0 || m == fg {
			continue
		}
		m2 := fg - m
		in := 0.0
		for _, g := range set {
			in += stat[g] / m
		}
		vif := math.Max(1, 1+(m-1)*CameraCorrelation)
		delta := fg / m2 * (in - meanStat)
		pooled := ((fg-1)*varStat - delta*delta*m*m2/fg) / (fg - 2)
		t := delta / math.Sqrt(pooled*(vif/m+1/m2))
		down, up := studentT(t, fg-2)
		c := CameraSet{Index: si, NGenes: len(set), Direction: "Up", P: 2 * math.Min(down, up)}
		if down < up {
			c.Direction = "Down"
		}
		out = append(out, c)
		ps = append(ps, c.P)
	}
	for i, q := range signature.BH(ps) {
		out[i].FDR = q
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].P < out[b].P })
	return out, nil
}

// studentT is P(T <= t) and P(T > t) on nu degrees of freedom, each from the
// regularised incomplete beta function (accurate in the far tail).
func studentT(t, nu float64) (lower, upper float64) {
	tail := 0.5 * mathext.RegIncBeta(nu/2, 0.5, nu/(nu+t*t)) // P(T > |t|)
	if t > 0 {
		return 1 - tail, tail
	}
	return tail, 1 - tail
}

// zscoreTHill is limma's .zscoreTHill: Hill's (1970) approximation of the standard
// normal quantile of a t statistic x on df degrees of freedom.
func zscoreTHill(x, df float64) float64 {
	A := df - 0.5
	B := 48 * A * A
	z := A * math.Log1p(x/df*x)
	z = (((((-0.4*z-3.3)*z-24)*z-85.5)/(0.8*z*z+100+B)+z+3)/B + 1) * math.Sqrt(z)
	if x < 0 {
		return -z
	}
	if x == 0 {
		return 0
	}
	return z
}
