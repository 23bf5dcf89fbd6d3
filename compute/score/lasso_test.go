package score

import (
	"bufio"
	"context"
	"math"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
)

// TestLogisticPathMatchesGlmnet compares the L1-logistic coefficients on z-scored Colon at
// 8 lambdas with R's glmnet (testdata/make_glmnet_reference.R has the command).
func TestLogisticPathMatchesGlmnet(t *testing.T) {
	ds := colon(t)
	fh, err := os.Open("testdata/colon_glmnet.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var lambdas []float64
	var want []map[string]float64
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		l, _ := strconv.ParseFloat(f[1], 64)
		lambdas = append(lambdas, l)
		sc.Scan()
		coefs := map[string]float64{}
		for _, kv := range strings.Fields(sc.Text()) {
			i := strings.LastIndexByte(kv, ':')
			v, _ := strconv.ParseFloat(kv[i+1:], 64)
			coefs[kv[:i]] = v
		}
		want = append(want, coefs)
	}
	y := make([]float64, len(ds.Labels))
	for i, l := range ds.Labels {
		y[i] = float64(l)
	}
	got := LambdaPath(ds.X, y, 8, 0.05)
	for l := range got {
		if math.Abs(got[l]-lambdas[l]) > 1e-9*lambdas[l] {
			t.Fatalf("lambda %d = %v, glmnet's path %v", l, got[l], lambdas[l])
		}
	}
	// the reference used thresh = 1e-14: solve as tightly
	var capped int
	capped, err = LogisticPath(context.Background(), ds.X, y, lambdas, 1e-14, func(l int, beta []float64) {
		nz := 0
		for j, b := range beta {
			w := want[l][ds.Features[j]]
			if math.Abs(b-w) > 2e-4*math.Max(1, math.Abs(w)) {
				t.Errorf("lambda %d, %s: %.6f, glmnet %.6f", l, ds.Features[j], b, w)
			}
			if b != 0 {
				nz++
			}
		}
		if nz != len(want[l]) {
			t.Errorf("lambda %d: %d non-zero coefficients, glmnet %d", l, nz, len(want[l]))
		}
	})
	if capped != 0 {
		t.Errorf("%d of %d lambdas stopped at an iteration cap; glmnet converged on all", capped, len(lambdas))
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestStabilitySelectionFindsTheSignal(t *testing.T) {
	ds := colon(t)
	rank := func(procs int) Ranking {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		rk, err := StabilitySelection{B: 20, Lambdas: 10, Ratio: 0.1}.Rank(context.Background(), ds.X, ds.Labels, 2, dataset.Rand(3))
		if err != nil {
			t.Fatal(err)
		}
		return rk
	}
	rk := rank(1)
	if !reflect.DeepEqual(rk, rank(3)) {
		t.Error("stability selection depends on the number of threads")
	}
	for _, v := range rk.Score {
		if v < 0 || v > 1 {
			t.Fatalf("probability %v", v)
		}
	}
	// glmnet's first genes on the path (testdata): Hsa.8147, Hsa.692_dup2, Hsa.36689
	top := map[string]bool{}
	for _, j := range rk.Order[:10] {
		top[ds.Features[j]] = true
	}
	if !top["Hsa.8147"] && !top["Hsa.692_dup2"] && !top["Hsa.36689"] {
		t.Errorf("none of glmnet's first genes in the top 10")
	}
}

// TestLogisticPathCountsCappedFits: on separable classes with a vanishing penalty the
// coefficients grow without bound, so the fits reach their iteration caps, and say so.
func TestLogisticPathCountsCappedFits(t *testing.T) {
	x := mat.NewDense(6, 2, []float64{-3, 1, -2, 0, -1, 1, 1, 0, 2, 1, 3, 0})
	y := []float64{0, 0, 0, 1, 1, 1}
	capped, err := LogisticPath(context.Background(), x, y, []float64{1e-3, 1e-9, 1e-15}, 1e-30, func(int, []float64) {})
	if err != nil {
		t.Fatal(err)
	}
	if capped == 0 {
		t.Error("no fit reported stopping at a cap on separable data with no penalty")
	}
}
