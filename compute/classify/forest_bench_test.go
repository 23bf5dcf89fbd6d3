package classify

import (
	"context"
	"testing"
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
