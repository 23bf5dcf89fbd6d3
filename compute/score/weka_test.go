package score

import (
	"bufio"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"steadfast/compute/dataset"
)

// wekaRanking reads the "Ranked attributes" block of a WEKA attribute-selection run:
// merit, 1-based index, name.
func wekaRanking(t *testing.T, path string) map[string]float64 {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(fh)
	in := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "Ranked attributes:" {
			in = true
			continue
		}
		f := strings.Fields(line)
		if !in || len(f) != 3 {
			if in && len(out) > 0 {
				break
			}
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		out[f[2]] = v
	}
	return out
}

// TestInfoGainMatchesWEKA compares every feature's information gain on Colon with WEKA
// 3.6's InfoGainAttributeEval (printed to 3 decimals; testdata/make_weka_reference.sh).
func TestInfoGainMatchesWEKA(t *testing.T) {
	ds := colon(t)
	ref := wekaRanking(t, "testdata/colon_weka_infogain.txt")
	rk, err := InfoGain{}.Rank(context.Background(), ds.X, ds.Labels, len(ds.Classes), dataset.Rand(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(ref) != len(ds.Features) {
		t.Fatalf("WEKA ranked %d features, data have %d", len(ref), len(ds.Features))
	}
	bad := 0
	for j, name := range ds.Features {
		if math.Abs(rk.Score[j]-ref[name]) > 0.0005+1e-9 {
			bad++
			if bad <= 5 {
				t.Errorf("IG(%s) = %.5f, WEKA %.3f", name, rk.Score[j], ref[name])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d features differ from WEKA", bad, len(ds.Features))
	}
	if ds.Features[rk.Order[0]] != "Hsa.627" { // WEKA's best: Hsa.627, 0.435
		t.Errorf("best %s", ds.Features[rk.Order[0]])
	}
}

// TestReliefFMatchesWEKA compares every feature's ReliefF weight (K = 10, all samples as
// probes) with WEKA 3.6's ReliefFAttributeEval (testdata/make_weka_reference.sh).
func TestReliefFMatchesWEKA(t *testing.T) {
	ds := colon(t)
	ref := wekaRanking(t, "testdata/colon_weka_relieff.txt")
	rk, err := ReliefF{K: 10}.Rank(context.Background(), ds.X, ds.Labels, len(ds.Classes), nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for j, name := range ds.Features {
		if math.Abs(rk.Score[j]-ref[name]) > 1e-7 {
			bad++
			if bad <= 5 {
				t.Errorf("ReliefF(%s) = %.8f, WEKA %.8f", name, rk.Score[j], ref[name])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d features differ from WEKA", bad, len(ds.Features))
	}
}
