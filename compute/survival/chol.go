package survival

import "math"

// The generalised Cholesky decomposition of survival's cholesky2.c, chsolve2.c and
// chinv2.c, on a k x k row-major matrix: A = F D F', F unit lower triangular, D
// diagonal; a pivot below toler times the largest diagonal (or not finite) marks its
// column redundant, and it is set to 0 in the solution and the inverse.

// cholTol is coxph.control's toler.chol, .Machine$double.eps^0.75.
var cholTol = math.Pow(2.220446049250313e-16, 0.75)

// cholesky2 factors m (k x k, its upper triangle read) in place into its lower
// triangle and returns the rank.
func cholesky2(m []float64, k int, toler float64) int {
	eps := 0.0
	for i := 0; i < k; i++ {
		if m[i*k+i] > eps {
			eps = m[i*k+i]
		}
		for j := i + 1; j < k; j++ {
			m[j*k+i] = m[i*k+j]
		}
	}
	if eps == 0 {
		eps = toler
	} else {
		eps *= toler
	}
	rank := 0
	for i := 0; i < k; i++ {
		pivot := m[i*k+i]
		if math.IsNaN(pivot) || math.IsInf(pivot, 0) || pivot < eps {
			m[i*k+i] = 0
			continue
		}
		rank++
		for j := i + 1; j < k; j++ {
			t := m[j*k+i] / pivot
			m[j*k+i] = t
			m[j*k+j] -= t * t * pivot
			for l := j + 1; l < k; l++ {
				m[l*k+j] -= t * m[l*k+i]
			}
		}
	}
	return rank
}

// chsolve2 overwrites y with the solution of A b = y, m holding cholesky2's factors.
func chsolve2(m []float64, k int, y []float64) {
	for i := 0; i < k; i++ {
		t := y[i]
		for j := 0; j < i; j++ {
			t -= y[j] * m[i*k+j]
		}
		y[i] = t
	}
	for i := k - 1; i >= 0; i-- {
		if m[i*k+i] == 0 {
			y[i] = 0
			continue
		}
		t := y[i] / m[i*k+i]
		for j := i + 1; j < k; j++ {
			t -= y[j] * m[j*k+i]
		}
		y[i] = t
	}
}

// chinv2 turns cholesky2's factors in m into the full symmetric inverse of A, with
// zero rows and columns for redundant columns.
func chinv2(m []float64, k int) {
	for i := 0; i < k; i++ {
		if m[i*k+i] > 0 {
			m[i*k+i] = 1 / m[i*k+i]
			for j := i + 1; j < k; j++ {
				m[j*k+i] = -m[j*k+i]
				for l := 0; l < i; l++ {
					m[j*k+l] += m[j*k+i] * m[i*k+l]
				}
			}
		}
	}
	for i := 0; i < k; i++ {
		if m[i*k+i] == 0 {
			for j := 0; j < i; j++ {
				m[j*k+i] = 0
			}
			for j := i; j < k; j++ {
				m[i*k+j] = 0
			}
			continue
		}
		for j := i + 1; j < k; j++ {
			t := m[j*k+i] * m[j*k+j]
			m[i*k+j] = t
			for l := i; l < j; l++ {
				m[i*k+l] += t * m[j*k+l]
			}
		}
	}
	for i := 0; i < k; i++ { // mirror the upper triangle
		for j := i + 1; j < k; j++ {
			m[j*k+i] = m[i*k+j]
		}
	}
}
