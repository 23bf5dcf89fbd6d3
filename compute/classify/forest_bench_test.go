package classify

import (
	"context"
	"math/rand/v2"
	"testing"

	"steadfast/compute/dataset"
)

// BenchmarkForestChowdary grows ranger's default forest (500 trees, mtry =
// floor(sqrt(22283)) = 149, min node size 1) on Chowdary's 104 arrays x 22,283 genes
// on all cores, with and without the importances.
func BenchmarkForestChowdary(b *testing.B) {
	ds := realSet(b, "chowdary.csv", false)
	for _, imp := range []bool{false, true} {
		name := "plain"
		if imp {
			name = "importance"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f := Forest{Seed: uint64(i), Importance: imp}
				if err := f.Fit(context.Background(), ds.X, ds.Labels, len(ds.Classes)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStudyFit is one fit of a study's resample at k = 50: Colon's first 50 genes
// (log2, z-scored), its first 56 samples; logistic regression with lambda chosen by
// 10-fold cross-validation (11 glmnet paths), and a forest of 500 trees on one
// goroutine, as the study runs them.
func BenchmarkStudyFit(b *testing.B) {
	ds := realSet(b, "colon.csv", true)
	x := firstGenes(ds, 50)
	dataset.Standardize(x)
	train := make([]int, 56)
	for i := range train {
		train[i] = i
	}
	xt, yt := dataset.SelectSamples(x, ds.Labels, train)
	b.Run("logit", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			l := Logit{}
			if err := l.Fit(context.Background(), xt, yt, 2, rand.New(rand.NewPCG(1, uint64(i)))); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rf", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			f := Forest{Seed: uint64(i), Workers: 1}
			if err := f.Fit(context.Background(), xt, yt, 2); err != nil {
				b.Fatal(err)
			}
		}
	})
}
