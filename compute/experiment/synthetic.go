package experiment

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"steadfast/compute/memlimit"
	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// SyntheticStudy is the sample-size study of CGS 2009 (Fig. 3) and MIDS 2013 (Fig. 2):
// for each training size n, a training set of n samples and an independent test set of
// TestSize samples from the same population (Preset, Seed); 10 x 10-fold CV on the
// training set; for the top K features of every fold's ranking, their precision (the
// share in truly relevant groups), Sim_ID between the folds of a repetition, and the
// linear SVM's accuracy on the test set.
type SyntheticStudy struct {
	Preset   synth.Preset
	Sizes    []int // training sizes, e.g. 100, 200, 500, 1000
	TestSize int   // 500 in the papers
	K        int   // features selected, 10 in the papers
	Methods  []method.Spec
	Seed     uint64
	Workers  int
}

// SyntheticResult holds, per method and training size, the means over the 100 folds.
type SyntheticResult struct {
	Study     SyntheticStudy `json:"study"`
	Labels    []string       `json:"labels"`    // method labels
	Precision [][]float64    `json:"precision"` // [method][size]
	SimID     [][]float64    `json:"simID"`
	Accuracy  [][]float64    `json:"accuracy"`
}

// Bounds of a synthetic study's settings (one owner for both front ends).
const (
	MaxSyntheticK    = 100
	MaxSyntheticTest = 100_000
)

// Check refuses settings outside the study's bounds: no sizes or methods, k outside
// 1..min(100, the preset's features), a test set outside 2..100,000 samples, and sizes
// whose data would not fit in memory.
func (s SyntheticStudy) Check() error {
	if len(s.Sizes) == 0 || len(s.Methods) == 0 {
		return fmt.Errorf("a synthetic study needs training sizes and methods")
	}
	if maxK := min(MaxSyntheticK, s.Preset.Features); s.K < 1 || s.K > maxK {
		return fmt.Errorf("top k = %d: give a whole number from 1 to %d", s.K, maxK)
	}
	if s.TestSize < 2 || s.TestSize > MaxSyntheticTest {
		return fmt.Errorf("the test set of %d samples: give 2 to %d", s.TestSize, MaxSyntheticTest)
	}
	largest := slices.Max(s.Sizes)
	// the test set, the largest training set and, on every core, a z-scored copy of a
	// training set and its test set (8 bytes a value)
	copies := float64(largest+s.TestSize) * float64(1+2*runtime.GOMAXPROCS(0))
	return memlimit.Check(fmt.Sprintf("a sample-size study up to %d training and %d test samples of %d features", largest, s.TestSize, s.Preset.Features), 8*copies*float64(s.Preset.Features))
}

// Run computes the study; progress reports rankings done over all sizes. When it is
// cancelled after one size or more have finished, it returns those sizes' results (the
// study's Sizes cut to them) with the context's error.
func (s SyntheticStudy) Run(ctx context.Context, progress func(Progress)) (*SyntheticResult, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	out := &SyntheticResult{Study: s}
	for range s.Methods {
		out.Precision = append(out.Precision, make([]float64, len(s.Sizes)))
		out.SimID = append(out.SimID, make([]float64, len(s.Sizes)))
		out.Accuracy = append(out.Accuracy, make([]float64, len(s.Sizes)))
	}
	perSize := len(s.Methods) * 101 // every method: all samples + 10 x 10 folds
	test, _ := synth.Generate(s.Preset, s.TestSize, s.Seed, 1)
	for si, n := range s.Sizes {
		train, truth := synth.Generate(s.Preset, n, s.Seed, 0)
		cfg := DefaultConfig()
		cfg.Methods, cfg.Ks, cfg.Classifiers = s.Methods, []int{s.K}, []string{"svm"}
		cfg.Seed, cfg.Workers = s.Seed, s.Workers
		res, err := run(ctx, cfg, train, test, func(p Progress) {
			if progress != nil {
				progress(Progress{Done: si*perSize + p.Done, Total: len(s.Sizes) * perSize, Stage: fmt.Sprintf("n = %d", n)})
			}
		})
		if err != nil {
			if si > 0 && ctx.Err() != nil {
				return out.upTo(si), err
			}
			return nil, err
		}
		for m, mr := range res.Methods {
			if si == 0 {
				out.Labels = append(out.Labels, mr.Label)
			}
			prec := 0.0
			for _, r := range mr.Runs {
				hits := 0
				for _, j := range r.Order[:s.K] {
					if truth.Relevant[j] {
						hits++
					}
				}
				prec += float64(hits) / float64(s.K)
			}
			out.Precision[m][si] = prec / float64(len(mr.Runs))
			out.SimID[m][si] = mr.Stability[0].SimID
			out.Accuracy[m][si] = mr.Accuracy["svm"][0].Mean
		}
	}
	return out, nil
}

// upTo is r cut to its first n sizes.
func (r *SyntheticResult) upTo(n int) *SyntheticResult {
	r.Study.Sizes = r.Study.Sizes[:n]
	for m := range r.Precision {
		r.Precision[m], r.SimID[m], r.Accuracy[m] = r.Precision[m][:n], r.SimID[m][:n], r.Accuracy[m][:n]
	}
	return r
}
