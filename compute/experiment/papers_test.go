package experiment

import (
	"context"
	"path/filepath"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/method"
)

// paperRow is one row of a paper's table: mean and standard deviation (%) at each k.
type paperRow struct {
	ks       []int
	mean, sd []float64
}

// dragsTable2 holds the DRAGS rows of Yu, Ding and Loscalzo 2008, Table 2 (average
// accuracy over the 30 folds of 10 x 3-fold CV, %, with its standard deviation), for the
// sets in ../shared/data, by classifier (Weka's SMO and IBk in the paper).
var dragsTable2 = map[string]map[string]paperRow{
	"colon.csv": {
		"wekasvm": {[]int{4, 6, 8, 10, 20, 30, 40, 50}, []float64{80.5, 82.4, 83.5, 83.8, 84.9, 86.3, 87.3, 87.1}, []float64{9.6, 9.6, 9.5, 9.2, 6.9, 6.8, 4.9, 5.6}},
		"weka1nn": {[]int{4, 6, 8, 10, 20, 30, 40, 50}, []float64{74.1, 77, 75.1, 74.4, 74.6, 75.2, 77.3, 77.9}, []float64{10.7, 8.9, 8.1, 9.3, 7.4, 7.8, 7.5, 7.3}},
	},
	"leukemia.gct": {
		"wekasvm": {[]int{4, 6, 8, 10, 20, 30, 40, 50}, []float64{92.8, 92.2, 92.9, 93.2, 95, 96.2, 96.7, 97.1}, []float64{3.8, 3.6, 4, 4.2, 3.5, 3, 3.4, 3.5}},
	},
	"srbct.csv": {
		"wekasvm": {[]int{4, 6, 8, 10, 20, 30, 40, 50}, []float64{86.3, 94.1, 96.5, 97, 99.5, 99.2, 99.2, 99.4}, []float64{10.2, 5.3, 3.9, 3.6, 1.9, 1.8, 1.8, 1.6}},
	},
	"lymphoma.csv": {
		"wekasvm": {[]int{4, 6, 8, 10, 20, 30, 40, 50}, []float64{82.4, 86, 94.3, 94.8, 99.2, 98.3, 97.5, 98.6}, []float64{8.5, 11.3, 10.7, 10.3, 1.8, 3.9, 4.8, 4.5}},
	},
}

// readShared reads a set of ../shared/data, failing (never skipping) when it is missing.
func readShared(t testing.TB, name string) *dataset.Dataset {
	t.Helper()
	ds, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", name), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	return ds
}

// TestDRAGSTable2Colon: DRAGS in the paper's setting (its bandwidth, Weka's classifiers)
// under the paper's protocol on Colon gives at every k an accuracy within the paper's
// mean +- one standard deviation (Table 2). Measured: SVM 77.7-85.3 (average 82.8 against
// the paper's 84.5), 1-NN 74.8-79.7 (77.3 against 75.7). It fails without the paper's
// bandwidth (Weka's SVM at k = 40 and 50: 81.6 and 80.0, below 82.4 and 81.5) and with
// Steadfast's own SVM (average 76.8; 74.4 at k = 20 against 78.0).
func TestDRAGSTable2Colon(t *testing.T) {
	ds := readShared(t, "colon.csv")
	cfg := DefaultConfig()
	cfg.Protocol, cfg.Ks, cfg.Classifiers = DRAGS2008, dragsTable2["colon.csv"]["wekasvm"].ks, []string{"wekasvm", "weka1nn"}
	cfg.Methods = []method.Spec{{Name: "drags", Params: map[string]float64{"paper": 1}}}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	for cl, row := range dragsTable2["colon.csv"] {
		for i, pt := range res.Methods[0].Accuracy[cl] {
			if pt.K != row.ks[i] {
				t.Fatalf("%s: k = %d where the table has %d", cl, pt.K, row.ks[i])
			}
			if got := 100 * pt.Mean; got < row.mean[i]-row.sd[i] || got > row.mean[i]+row.sd[i] {
				t.Errorf("%s, k = %d: %.1f%%, the paper %.1f +- %.1f", cl, pt.K, got, row.mean[i], row.sd[i])
			}
		}
	}
}

// TestDRAGSStabilityFromAllSamples: DRAGS with its groups found on all samples (the one
// reading that reaches the paper's Figs. 2-3) is far more stable on Colon than DRAGS in
// each training set: Sim_ID^M 0.73-0.90 and Sim_V^M 0.82-0.95 at k = 4..50 (measured;
// the paper's Fig. 3 shows Colon near 0.8 and 0.9), against 0.35-0.54 for Sim_ID^M
// fitted in each training set.
func TestDRAGSStabilityFromAllSamples(t *testing.T) {
	ds := readShared(t, "colon.csv")
	cfg := DefaultConfig()
	cfg.Protocol, cfg.Ks, cfg.Classifiers = DRAGS2008, []int{4, 10, 20, 50}, []string{"1nn"}
	cfg.Methods = []method.Spec{{Name: "drags", Params: map[string]float64{"allSamples": 1}}, {Name: "drags"}}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range res.Methods[0].Stability {
		own := res.Methods[1].Stability[i]
		if s.SimIDM < 0.7 || s.SimIDM > 0.92 || s.SimVM < 0.8 || s.SimVM > 0.97 {
			t.Errorf("k = %d: groups from all samples Sim_ID^M %.2f, Sim_V^M %.2f", s.K, s.SimIDM, s.SimVM)
		}
		if own.SimIDM > 0.6 || own.SimIDM >= s.SimIDM {
			t.Errorf("k = %d: DRAGS in each training set Sim_ID^M %.2f", s.K, own.SimIDM)
		}
	}
}

// TestDRAGSTable2SVMRows: as TestDRAGSTable2Colon, the SVM rows of Leukemia (7,129
// genes), SRBCT and Lymphoma, every k within the paper's spread. Measured averages
// (paper's): Leukemia 93.4 (94.5), SRBCT 94.1 (96.4), Lymphoma 95.5 (93.9); without the
// paper's bandwidth Leukemia falls to 83.4 and SRBCT to 85.8, outside at most ks. Under
// the race detector (ten times slower) they run in the suite's other pass, without it.
func TestDRAGSTable2SVMRows(t *testing.T) {
	if raceDetector {
		t.Skip("runs in scripts/test.sh's pass without the race detector")
	}
	for _, set := range []string{"leukemia.gct", "srbct.csv", "lymphoma.csv"} {
		t.Run(set, func(t *testing.T) {
			ds := readShared(t, set)
			row := dragsTable2[set]["wekasvm"]
			cfg := DefaultConfig()
			cfg.Protocol, cfg.Ks, cfg.Classifiers = DRAGS2008, row.ks, []string{"wekasvm"}
			cfg.Methods = []method.Spec{{Name: "drags", Params: map[string]float64{"paper": 1}}}
			res, err := Run(context.Background(), cfg, ds, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, pt := range res.Methods[0].Accuracy["wekasvm"] {
				if got := 100 * pt.Mean; pt.K != row.ks[i] || got < row.mean[i]-row.sd[i] || got > row.mean[i]+row.sd[i] {
					t.Errorf("k = %d: %.1f%%, the paper %.1f +- %.1f at k = %d", pt.K, got, row.mean[i], row.sd[i], row.ks[i])
				}
			}
		})
	}
}
