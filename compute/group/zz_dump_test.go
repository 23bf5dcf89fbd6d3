package group

import (
	"context"
	"encoding/gob"
	"os"
	"testing"
	"time"

	"steadfast/compute/dataset"
)

func TestZZDumpRuns(t *testing.T) {
	f := os.Getenv("ZZFILE")
	if f == "" {
		t.Skip()
	}
	ds := realZ(t, f)
	x := ds.X
	n, _ := x.Dims()
	r := dataset.Rand(1, 100)
	var runs [][][]int
	idx := make([]int, n)
	for b := 0; b < 10; b++ {
		for i := range idx {
			idx[i] = r.IntN(n)
		}
		xb, _ := dataset.SelectSamples(x, ds.Labels, idx)
		dataset.Standardize(xb)
		t0 := time.Now()
		res, err := DGF(context.Background(), xb, DGFParams{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("run %d: %d groups %v", b, len(res.Groups), time.Since(t0))
		var gs [][]int
		for _, g := range res.Groups {
			gs = append(gs, g.Members)
		}
		runs = append(runs, gs)
	}
	w, _ := os.Create("/tmp/cgsx/" + f + ".gob")
	gob.NewEncoder(w).Encode(runs)
	w.Close()
}
