package stability

import (
	"math"
	"testing"
)

// sechidisDense is stabm's Sechidis computed as written there, with dense matrices:
// Z the M x p selection matrix, S = cov(Z) (M - 1 denominator), Sigma0 from k and k^2,
// and 1 - tr(C S) / tr(C Sigma0).
func sechidisDense(sets [][]int, p int, c [][]float64) float64 {
	m := float64(len(sets))
	z := make([][]float64, len(sets))
	kbar, k2bar := 0.0, 0.0
	for i, s := range sets {
		z[i] = make([]float64, p)
		for _, f := range s {
			z[i][f] = 1
		}
		kbar += float64(len(s)) / m
		k2bar += float64(len(s)*len(s)) / m
	}
	mean := make([]float64, p)
	for _, row := range z {
		for f, v := range row {
			mean[f] += v / m
		}
	}
	pf := float64(p)
	num, den := 0.0, 0.0
	for f := 0; f < p; f++ {
		for g := 0; g < p; g++ {
			s := 0.0
			for _, row := range z {
				s += (row[f] - mean[f]) * (row[g] - mean[g])
			}
			s /= m - 1
			sigma0 := (k2bar-kbar)/(pf*pf-pf) - kbar*kbar/(pf*pf)
			if f == g {
				sigma0 = kbar / pf * (1 - kbar/pf)
			}
			num += c[f][g] * s // tr(C S) = sum_fg C_fg S_gf, S symmetric
			den += c[f][g] * sigma0
		}
	}
	return 1 - num/den
}

func TestSechidisMatchesTheDenseFormula(t *testing.T) {
	const p = 8
	orders := [][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {7, 6, 5, 4, 3, 2, 1, 0}, {0, 2, 4, 6, 1, 3, 5, 7}}
	// 0 ~ 4 (0.95), 2 ~ 7 (0.91); everything else below the threshold
	c := make([][]float64, p)
	for f := range c {
		c[f] = make([]float64, p)
		c[f][f] = 1
	}
	c[0][4], c[4][0], c[2][7], c[7][2] = 0.95, 0.95, 0.91, 0.91
	sumC := 0.0
	for _, row := range c {
		for _, v := range row {
			sumC += v
		}
	}
	ks := []int{1, 2, 3, 5}
	got := Sechidis(orders, p, ks, func(f, g int) float64 { return c[f][g] }, sumC)
	for ki, k := range ks {
		sets := make([][]int, len(orders))
		for i, o := range orders {
			sets[i] = o[:k]
		}
		if want := sechidisDense(sets, p, c); math.Abs(got[ki]-want) > 1e-12 {
			t.Errorf("k = %d: %v, dense formula %v", k, got[ki], want)
		}
	}
	// without similar features it is Nogueira's Phi
	none := Sechidis(orders, p, ks, func(f, g int) float64 { return 0 }, p)
	for ki, e := range NogueiraCurve(orders, p, ks) {
		if math.Abs(none[ki]-e.Phi) > 1e-12 {
			t.Errorf("k = %d: %v without similarities, Nogueira %v", ks[ki], none[ki], e.Phi)
		}
	}
}
