package experiment

import (
	"context"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/method"
)

// sharedMIDS computes each training set's MIDS once for all the MIDS variants of a study
// that use it ("SVM-RFE + MIDS" and "F-statistic + MIDS" at one epsilon, say). The set
// depends only on the training samples the ranker sees and epsilon, so the results are
// those of computing it in every unit; the correlation graph and its MIDS, the costly
// part of a MIDS variant, are made once instead of once per method. An entry is dropped
// when its last user has it.
type sharedMIDS struct {
	users    map[float64]int // MIDS variants by epsilon
	mu       sync.Mutex
	entries  map[midsKey]*midsEntry
	computed atomic.Int64 // sets computed, for the tests
}

// midsKey names one training set (by its unit number, the same for every method) and
// epsilon.
type midsKey struct {
	unit    int
	epsilon float64
}

type midsEntry struct {
	once sync.Once
	set  []int
	err  error
	left int // users still to take it
}

// newSharedMIDS counts the study's MIDS variants fitted per training set, by epsilon.
func newSharedMIDS(specs []method.Spec) *sharedMIDS {
	s := &sharedMIDS{users: map[float64]int{}, entries: map[midsKey]*midsEntry{}}
	for _, spec := range specs {
		if eps, ok := method.MIDSEpsilon(spec); ok {
			s.users[eps]++
		}
	}
	return s
}

// of returns the MIDS of x, unit t's training data, when t's method is a MIDS variant
// whose epsilon another variant of the study shares; else nil (the ranker finds its
// own).
func (s *sharedMIDS) of(ctx context.Context, t task, spec method.Spec, x *mat.Dense) ([]int, error) {
	eps, ok := method.MIDSEpsilon(spec)
	if !ok || s.users[eps] < 2 {
		return nil, nil
	}
	key := midsKey{t.unit, eps}
	s.mu.Lock()
	e := s.entries[key]
	if e == nil {
		e = &midsEntry{left: s.users[eps]}
		s.entries[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() {
		e.set, e.err = method.MIDSSet(ctx, x, eps)
		s.computed.Add(1)
	})
	s.mu.Lock()
	if e.left--; e.left == 0 {
		delete(s.entries, key)
	}
	s.mu.Unlock()
	return e.set, e.err
}
