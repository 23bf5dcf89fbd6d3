package group

import "gonum.org/v1/gonum/floats"

// dots4 sets out[k] = floats.Dot(b[k], a), bit for bit, for the four rows b[k] (each as
// long as a). On AVX2 the four come from one pass over a with gonum's amd64 order: sums
// by lanes i mod 4 over the full steps of four, the rest added to lane 0 in order, then
// (s0 + s2) + (s1 + s3).
func dots4(a []float64, b *[4][]float64, out *[4]float64) {
	if !haveAVX2 || len(a) < 4 {
		for k := range out {
			out[k] = floats.Dot(b[k], a)
		}
		return
	}
	for _, bk := range b {
		_ = bk[len(a)-1] // the kernel reads len(a) values of each row
	}
	steps := len(a) / 4
	var s [16]float64
	dot4x(&a[0], steps, &b[0][0], &b[1][0], &b[2][0], &b[3][0], &s)
	for k := range out {
		bk := b[k][:len(a)]
		for i := 4 * steps; i < len(a); i++ {
			s[4*k] += bk[i] * a[i]
		}
		out[k] = (s[4*k] + s[4*k+2]) + (s[4*k+1] + s[4*k+3])
	}
}
