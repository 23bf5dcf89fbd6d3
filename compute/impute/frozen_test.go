package impute

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"steadfast/compute/rstat"
)

// split is the Proteus runs A-1..A-5 and B-1..B-5 for training, the others for test.
func split(rows [][]float64, labels []int, samples []string) (tr [][]float64, ytr []int, ntr []string, te [][]float64, nte []string) {
	for i, s := range samples {
		if slices.Contains([]string{"A-6", "A-7", "B-6", "B-7"}, s) {
			te, nte = append(te, rows[i]), append(nte, s)
			continue
		}
		tr, ytr, ntr = append(tr, rows[i]), append(ytr, labels[i]), append(ntr, s)
	}
	return
}

// TestFrozenAppliesAsFitted: every imputation and normalisation fitted on ten Proteus
// runs and frozen for eight proteins (a locked model's genes, written as JSON and read
// back) gives the four test runs the values the fitted preprocessing gives them,
// bit for bit; nothing is left missing but with None.
func TestFrozenAppliesAsFitted(t *testing.T) {
	rows, labels, samples, features := proteus(t)
	tr, ytr, ntr, te, nte := split(rows, labels, samples)
	for _, o := range []Options{
		{Log2: true, Impute: KNN}, {Log2: true, Impute: KNN, Normalize: Quantile}, {Log2: true, Impute: MinProb, Normalize: Median, Seed: 7},
		{Log2: true, Impute: HalfMin, Normalize: Sum}, {Impute: HalfMin}, {Log2: true, Impute: None, Normalize: Quantile},
	} {
		f, err := Fit(tr, ytr, 2, ntr, features, o)
		if err != nil {
			t.Fatal(err)
		}
		// genes: kept and left-out proteins, sparse ones among them
		var genes []int
		for j := 0; len(genes) < 8 && j < len(features); j += 97 {
			genes = append(genes, j)
		}
		b, err := json.Marshal(f.Freeze(genes))
		if err != nil {
			t.Fatal(err)
		}
		var z Frozen
		if err := json.Unmarshal(b, &z); err != nil {
			t.Fatal(err)
		}
		g, at, err := z.Fitted(o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		u := z.Universe()
		index := map[string]int{}
		for j, name := range features {
			index[name] = j
		}
		full, small := make([]float64, len(features)), make([]float64, len(u))
		for i, row := range te {
			f.Apply(row, nte[i], full)
			sub := make([]float64, len(u))
			for k, id := range u {
				sub[k] = row[index[id]]
			}
			g.Apply(sub, nte[i], small)
			for k, j := range genes {
				want, got := full[j], small[at[k]]
				if math.Float64bits(want) != math.Float64bits(got) {
					t.Errorf("%+v: %s, %s: frozen %v, fitted %v", o, nte[i], features[j], got, want)
				}
				if math.IsNaN(got) != (o.Impute == None && math.IsNaN(row[j])) {
					t.Errorf("%+v: %s, %s: %v for %v read", o, nte[i], features[j], got, row[j])
				}
			}
		}
	}
}

// TestNormalisationTargets: after the median normalisation every training run's median
// over the kept proteins is the runs' mean median, and after the sum normalisation
// every run's kept intensities sum to the runs' mean sum (limma's normalizeMedianValues
// on the log scale; the sample-sum normalisation of metabolomics).
func TestNormalisationTargets(t *testing.T) {
	rows, labels, samples, features := proteus(t)
	for _, o := range []Options{{Log2: true, Normalize: Median, Impute: None}, {Normalize: Sum, Impute: None}} {
		f, err := Fit(rows, labels, 2, samples, features, o)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float64, len(features))
		for s := range rows {
			f.Train(s, out)
			v := f.keptValues(out)
			got, want := rstat.Median(v), f.medianTarget
			if o.Normalize == Sum {
				got, want = 0, f.sumTarget
				for _, x := range v {
					got += x
				}
			}
			if math.Abs(got-want) > 1e-9*math.Abs(want) {
				t.Errorf("%s, run %s: %v, target %v", o.Normalize, samples[s], got, want)
			}
		}
	}
}

// TestMinProb: Perseus' imputation draws each run's missing values from a normal 1.8
// SD below the mean of its measured values and 0.3 SD wide: over the 10,916 missing
// cells of the Proteus runs the standardised draws (v - m)/s have mean -1.8 and SD 0.3
// within sampling error; a cell's draw depends on the seed and the names alone, not on
// the proteins' order; another seed draws anew.
func TestMinProb(t *testing.T) {
	rows, labels, samples, features := proteus(t)
	o := Options{Log2: true, Impute: MinProb, MinValid: 0.01, Seed: 3}
	f, err := Fit(rows, labels, 2, samples, features, o)
	if err != nil {
		t.Fatal(err)
	}
	var z []float64
	out := make([]float64, len(features))
	for s, row := range rows {
		f.Train(s, out)
		m, sd := meanSD(f.keptValues(f.centred(f.scaled(row))))
		for j, v := range row {
			if math.IsNaN(v) && f.isKept[j] {
				z = append(z, (out[j]-m)/sd)
			}
		}
	}
	m, sd := meanSD(z)
	if se := 0.3 / math.Sqrt(float64(len(z))); len(z) != 10916 || math.Abs(m+1.8) > 4*se || math.Abs(sd-0.3) > 0.01 {
		t.Errorf("%d draws of mean %.4f, SD %.4f; want 10916 of -1.8 and 0.3", len(z), m, sd)
	}
	// the proteins in reverse order
	perm := make([]int, len(features))
	for j := range perm {
		perm[j] = len(features) - 1 - j
	}
	rev := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for j, p := range perm {
			out[j] = v[p]
		}
		return out
	}
	var rrows [][]float64
	for _, r := range rows {
		rrows = append(rrows, rev(r))
	}
	rf := make([]string, len(features))
	for j, p := range perm {
		rf[j] = features[p]
	}
	g, err := Fit(rrows, labels, 2, samples, rf, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Seed = 4
	h, err := Fit(rows, labels, 2, samples, features, o)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := make([]float64, len(features)), make([]float64, len(features)), make([]float64, len(features))
	f.Train(0, a)
	g.Train(0, b)
	h.Train(0, c)
	same := 0
	for j, p := range perm {
		if a[p] != b[j] {
			t.Fatalf("%s: %v in the file's order, %v in reverse", features[p], a[p], b[j])
		}
		if math.IsNaN(rows[0][p]) && a[p] == c[p] {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seeds 3 and 4 drew %d equal values", same)
	}
}

// TestFilterCounts: 70% of 7 runs is 5, of 10 runs 7 (0.7 x 10 in floating point is
// not above 7), of 3 runs 3; a protein needs them in one class.
func TestFilterCounts(t *testing.T) {
	for _, c := range []struct{ size, want int }{{7, 5}, {10, 7}, {3, 3}, {1, 1}, {20, 14}} {
		if got := Needed(0.7, c.size); got != c.want {
			t.Errorf("Needed(0.7, %d) = %d, want %d", c.size, got, c.want)
		}
	}
	keep := Valid([][]int{{5, 0}, {4, 4}, {0, 7}}, []int{7, 7}, 0.7)
	if !slices.Equal(keep, []bool{true, false, true}) {
		t.Errorf("Valid = %v", keep)
	}
	if r := Reason([]int{4, 4}, []int{7, 7}, []string{"A", "B"}, 0.7); r != "measured in A 4 of 7, B 4 of 7 samples; 5 needed in one class (70%)" {
		t.Errorf("Reason = %q", r)
	}
}
