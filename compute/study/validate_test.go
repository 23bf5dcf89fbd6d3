package study

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
)

// colonSplit is Colon split into two halves: every other sample of each class (the
// 1st, 3rd, ... in file order) trains a signature (F-statistic, DRAGS 2008, k = 10,
// linear SVM, log2), the others are the cohort. raw is Colon as read, train the
// training half's preprocessed data.
type colonSplit struct {
	raw    *dataset.Dataset
	cohort []int // raw samples of the cohort
	train  *dataset.Dataset
	model  *signature.Model
}

func newColonSplit(t *testing.T, symbols bool) *colonSplit {
	return newColonSplitWith(t, symbols, "svm")
}

// newColonSplitWith is newColonSplit with the classifier cl locked.
func newColonSplitWith(t *testing.T, symbols bool, cl string) *colonSplit {
	t.Helper()
	raw, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	raw.Samples = nil
	for i := range raw.Labels {
		raw.Samples = append(raw.Samples, "colon"+strconv.Itoa(i+1))
	}
	if symbols { // every probe annotated SYM_<id>: a made-up gene symbol a probe
		raw.Symbols = nil
		for _, f := range raw.Features {
			raw.Symbols = append(raw.Symbols, "SYM_"+f)
		}
	}
	s := &colonSplit{raw: raw}
	train, cohort := everyOther(raw.Labels)
	s.cohort = cohort
	half := &dataset.Dataset{Name: "colon-train", Features: raw.Features, Symbols: raw.Symbols, Classes: raw.Classes}
	half.X, half.Labels = dataset.SelectSamples(raw.X, raw.Labels, train)
	for _, i := range train {
		half.Samples = append(half.Samples, raw.Samples[i])
	}
	prep := dataset.Prep{Log2: true, DropConstant: true}
	s.train, _, err = Prepare(half, prep)
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers, cfg.Prep = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{cl}, prep
	res, err := Run(context.Background(), cfg, s.train, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, s.train, signature.Choice{Method: 0, K: 10, Classifier: cl}, "tumor")
	if err != nil {
		t.Fatal(err)
	}
	// through the file, as a user's model comes
	b, err := sig.Model.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if s.model, err = signature.DecodeModel("model.json", b); err != nil {
		t.Fatal(err)
	}
	return s
}

// everyOther splits the samples of each class, in file order, into the 1st, 3rd, ...
// (train) and the 2nd, 4th, ... (cohort).
func everyOther(labels []int) (train, cohort []int) {
	seen := map[int]int{}
	for i, l := range labels {
		if seen[l]%2 == 0 {
			train = append(train, i)
		} else {
			cohort = append(cohort, i)
		}
		seen[l]++
	}
	return train, cohort
}

// cohortFile describes a cohort file to write from raw Colon.
type cohortFile struct {
	samples   []int                        // raw samples, in this order
	features  []int                        // raw features, in this order (nil: all, in order)
	id        func(j int) string           // feature j's id in the file (nil: its own)
	class     func(i int) string           // sample i's class (nil: its own)
	value     func(i, j int) string        // a cell's text (nil: the value exactly)
	noClass   bool                         // no class column
	asColumns bool                         // samples as columns
	extra     func(i int) (string, string) // an extra probe: its id and value (nil: none)
	name      func(i int) string           // sample i's name (nil: its own)
}

// write writes the cohort as CSV into dir and returns its path.
func (s *colonSplit) write(t *testing.T, dir, name string, c cohortFile) string {
	t.Helper()
	feats := c.features
	if feats == nil {
		for j := range s.raw.Features {
			feats = append(feats, j)
		}
	}
	head := []string{"id"}
	for _, j := range feats {
		if c.id != nil {
			head = append(head, c.id(j))
		} else {
			head = append(head, s.raw.Features[j])
		}
	}
	if c.extra != nil {
		id, _ := c.extra(0)
		head = append(head, id)
	}
	if !c.noClass {
		head = append(head, "class")
	}
	rows := [][]string{head}
	for _, i := range c.samples {
		row := []string{s.raw.Samples[i]}
		if c.name != nil {
			row[0] = c.name(i)
		}
		for _, j := range feats {
			if c.value != nil {
				row = append(row, c.value(i, j))
			} else {
				row = append(row, strconv.FormatFloat(s.raw.X.At(i, j), 'g', -1, 64))
			}
		}
		if c.extra != nil {
			_, v := c.extra(i)
			row = append(row, v)
		}
		if !c.noClass {
			cl := s.raw.Classes[s.raw.Labels[i]]
			if c.class != nil {
				cl = c.class(i)
			}
			row = append(row, cl)
		}
		rows = append(rows, row)
	}
	if c.asColumns {
		tr := make([][]string, len(rows[0]))
		for j := range tr {
			for _, r := range rows {
				tr[j] = append(tr[j], r[j])
			}
		}
		rows = tr
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.WriteAll(rows)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func (s *colonSplit) validate(t *testing.T, path string, o CohortOptions) *signature.Validation {
	t.Helper()
	v, err := Validate(context.Background(), s.model, path, o)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// scoresBySample maps each predicted sample to its scores.
func scoresBySample(v *signature.Validation) map[string][]float64 {
	out := map[string][]float64{}
	for i, s := range v.Samples {
		out[s] = v.Scores[i]
	}
	return out
}

// sameScores fails unless a and b predict the same samples with scores within tol
// (relative to 1).
func sameScores(t *testing.T, what string, a, b map[string][]float64, tol float64) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d samples predicted, against %d", what, len(b), len(a))
	}
	for s, sa := range a {
		sb, ok := b[s]
		if !ok {
			t.Fatalf("%s: sample %s not predicted", what, s)
		}
		for c := range sa {
			if math.Abs(sa[c]-sb[c]) > tol*math.Max(1, math.Abs(sa[c])) {
				t.Fatalf("%s: sample %s class %d: %.17g, against %.17g", what, s, c, sb[c], sa[c])
			}
		}
	}
}

// Predictions join by sample name and gene id, so they do not change when the
// cohort's samples are shuffled, its genes reordered and the table turned to samples
// as columns: the same scores bit for bit with the model's scaling (each gene scaled
// alone, the decision summed in the model's gene order), and to 1e-12 under every
// harmonisation (the cohort's means and sds summed in another order).
func TestPredictionsIgnoreOrder(t *testing.T) {
	s := newColonSplit(t, false)
	dir := t.TempDir()
	a := s.write(t, dir, "a.csv", cohortFile{samples: s.cohort})
	r := rand.New(rand.NewPCG(3, 4))
	samples, feats := slices.Clone(s.cohort), r.Perm(len(s.raw.Features))
	r.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
	b := s.write(t, dir, "b.csv", cohortFile{samples: samples, features: feats, asColumns: true})
	for _, h := range signature.Harmonizations {
		o := CohortOptions{Apply: signature.ApplyOptions{Harmonize: h}}
		va, vb := s.validate(t, a, o), s.validate(t, b, o)
		tol := 0.0
		if h != "none" {
			tol = 1e-12
		}
		sameScores(t, "shuffled", scoresBySample(va), scoresBySample(vb), tol)
		if va.Metrics.Accuracy != vb.Metrics.Accuracy || va.Metrics.AUC.AUC != vb.Metrics.AUC.AUC {
			t.Errorf("%s: accuracy %v and AUC %v, shuffled %v and %v", h, va.Metrics.Accuracy, va.Metrics.AUC.AUC, vb.Metrics.Accuracy, vb.Metrics.AUC.AUC)
		}
		if va.Found() != 10 || len(va.Samples) != len(s.cohort) || va.Metrics.N != len(s.cohort) {
			t.Errorf("%d genes found, %d samples predicted, %d in the metrics; want 10, %d, %d", va.Found(), len(va.Samples), va.Metrics.N, len(s.cohort), len(s.cohort))
		}
	}
}

// A cohort of another platform (other probe ids) matched by gene symbol through its
// annotation gives the predictions of the same values matched by id; a gene measured by
// two probes with the same values gives the same value averaged, and the note says the
// probes were averaged.
func TestSymbolMatchingEqualsIDMatching(t *testing.T) {
	s := newColonSplit(t, true)
	if s.model.Genes[0].Symbol != "SYM_"+s.model.Genes[0].ID {
		t.Fatalf("the model's first gene %+v has no symbol", s.model.Genes[0])
	}
	dir := t.TempDir()
	byID := s.validate(t, s.write(t, dir, "a.csv", cohortFile{samples: s.cohort}), CohortOptions{})
	// the other platform: ids P<j>, an annotation P<j> -> SYM_<id>
	ann := "ID\tGene Symbol\n"
	for j, f := range s.raw.Features {
		ann += "P" + strconv.Itoa(j) + "\tSYM_" + f + "\n"
	}
	first := slices.Index(s.raw.Features, s.model.Genes[0].ID)
	ann += "Q0\tSYM_" + s.model.Genes[0].ID + "\n" // a second probe of the first gene
	annPath := filepath.Join(dir, "GPLX.annot")
	if err := os.WriteFile(annPath, []byte(ann), 0o644); err != nil {
		t.Fatal(err)
	}
	other := s.write(t, dir, "b.csv", cohortFile{samples: s.cohort, id: func(j int) string { return "P" + strconv.Itoa(j) },
		extra: func(i int) (string, string) { return "Q0", strconv.FormatFloat(s.raw.X.At(i, first), 'g', -1, 64) }})
	bySym := s.validate(t, other, CohortOptions{Read: dataset.Options{SymbolsPath: annPath}})
	for _, m := range bySym.Matches {
		if m.By != "symbol" {
			t.Fatalf("gene %s matched by %q, want by symbol", m.ID, m.By)
		}
	}
	if got := bySym.Matches[0].Probes; !slices.Equal(got, []string{"P" + strconv.Itoa(first), "Q0"}) {
		t.Errorf("the first gene's probes %v, want P%d and Q0", got, first)
	}
	if !slices.ContainsFunc(bySym.Notes, func(n string) bool { return strings.Contains(n, "mean of those probes") }) {
		t.Errorf("no note of the averaged probes: %q", bySym.Notes)
	}
	sameScores(t, "by symbol", scoresBySample(byID), scoresBySample(bySym), 1e-15)
}

// Each bad input is refused with what to do, or predicted as far as it can be and
// said: a planted mistake in each case makes its check fail.
func TestValidationBadInput(t *testing.T) {
	s := newColonSplit(t, false)
	dir := t.TempDir()
	good := s.validate(t, s.write(t, dir, "good.csv", cohortFile{samples: s.cohort}), CohortOptions{})
	gene := slices.Index(s.raw.Features, s.model.Genes[3].ID)
	t.Run("damaged model", func(t *testing.T) {
		b, err := s.model.Encode()
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(b), `"b": [`)
		i += strings.IndexAny(string(b[i:]), "123456789")
		bad := slices.Clone(b)
		bad[i] = "2345678912"[b[i]-'1'] // another digit of the bias
		if _, err := signature.DecodeModel("model.json", bad); err == nil || !strings.Contains(err.Error(), "SHA-256") {
			t.Errorf("an edited bias: %v", err)
		}
		if _, err := signature.DecodeModel("model.json", b[:len(b)/2]); err == nil || !strings.Contains(err.Error(), "not a Steadfast model file") {
			t.Errorf("half a file: %v", err)
		}
	})
	t.Run("no signature gene", func(t *testing.T) {
		p := s.write(t, dir, "none.csv", cohortFile{samples: s.cohort, id: func(j int) string { return "X" + strconv.Itoa(j) }})
		if _, err := Validate(context.Background(), s.model, p, CohortOptions{}); err == nil || !strings.Contains(err.Error(), "none of the signature's 10 genes") {
			t.Errorf("no gene: %v", err)
		}
	})
	t.Run("duplicated sample", func(t *testing.T) {
		p := s.write(t, dir, "dup.csv", cohortFile{samples: append(slices.Clone(s.cohort), s.cohort[2])})
		if _, err := Validate(context.Background(), s.model, p, CohortOptions{}); err == nil || !strings.Contains(err.Error(), s.raw.Samples[s.cohort[2]]) {
			t.Errorf("a sample twice: %v", err)
		}
	})
	t.Run("missing values", func(t *testing.T) {
		hole := s.cohort[5]
		p := s.write(t, dir, "na.csv", cohortFile{samples: s.cohort, value: func(i, j int) string {
			if i == hole && j == gene {
				return "NA"
			}
			return strconv.FormatFloat(s.raw.X.At(i, j), 'g', -1, 64)
		}})
		v := s.validate(t, p, CohortOptions{})
		if len(v.Skipped) != 1 || !strings.Contains(v.Skipped[0], s.raw.Samples[hole]) || !strings.Contains(v.Skipped[0], s.model.Genes[3].ID) {
			t.Errorf("skipped %q, want %s for %s", v.Skipped, s.raw.Samples[hole], s.model.Genes[3].ID)
		}
		want := scoresBySample(good)
		delete(want, s.raw.Samples[hole])
		sameScores(t, "the others", want, scoresBySample(v), 0)
	})
	t.Run("one class", func(t *testing.T) {
		var tumours []int
		for _, i := range s.cohort {
			if s.raw.Classes[s.raw.Labels[i]] == "tumor" {
				tumours = append(tumours, i)
			}
		}
		v := s.validate(t, s.write(t, dir, "one.csv", cohortFile{samples: tumours}), CohortOptions{})
		mt := v.Metrics
		if mt == nil || mt.N != len(tumours) || math.IsNaN(mt.Accuracy) || !math.IsNaN(mt.AUC.AUC) || mt.NoAUCNote == "" || !math.IsNaN(mt.Specificity) {
			t.Errorf("one class: %+v", mt)
		}
		if n := len(plotsFree(v)); n != 0 {
			t.Errorf("one class: %d ROC curves", n)
		}
	})
	t.Run("the training data", func(t *testing.T) {
		var train []int
		for i := range s.raw.Labels {
			if !slices.Contains(s.cohort, i) {
				train = append(train, i)
			}
		}
		v := s.validate(t, s.write(t, dir, "train.csv", cohortFile{samples: train}), CohortOptions{})
		if !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, "training data itself") }) {
			t.Errorf("the training data as cohort, notes %q", v.Notes)
		}
		// the figures' titles and the report say what the cohort is (they had called the
		// training data "an independent cohort" under a note saying it was not)
		if k := v.CohortKind(); k != "the model's own training data" {
			t.Errorf("the training data called %q", k)
		}
		some := append(slices.Clone(s.cohort[:20]), train[:3]...)
		v = s.validate(t, s.write(t, dir, "some.csv", cohortFile{samples: some, features: reversed(len(s.raw.Features))}), CohortOptions{})
		if !slices.ContainsFunc(v.Notes, func(n string) bool {
			return strings.Contains(n, "3 of the cohort's 23 samples have the values of a training sample on the 10 signature genes")
		}) {
			t.Errorf("three training samples in the cohort, notes %q", v.Notes)
		}
		if k := v.CohortKind(); k != "a cohort holding 3 of its training samples" {
			t.Errorf("three training samples in the cohort called %q", k)
		}
		if k := s.validate(t, s.write(t, dir, "plain.csv", cohortFile{samples: s.cohort}), CohortOptions{}).CohortKind(); k != "an independent cohort" {
			t.Errorf("the held-out half called %q", k)
		}
		// colon.csv has no sample names: a reader names them sample1, sample2, ...; the
		// training half given so, or renamed, is still known by its values
		for _, rename := range []func(i int) string{
			func(i int) string { return "sample" + strconv.Itoa(i+1) },
			func(i int) string { return "patient-" + strconv.Itoa(1000-i) },
		} {
			v = s.validate(t, s.write(t, dir, "renamed.csv", cohortFile{samples: train, name: rename, features: reversed(len(s.raw.Features))}), CohortOptions{})
			if !slices.ContainsFunc(v.Notes, func(n string) bool {
				return strings.Contains(n, "every one of the cohort's 31 samples has the values of a training sample")
			}) {
				t.Errorf("the training half renamed (%s...), notes %q", rename(0), v.Notes)
			}
		}
		v = s.validate(t, s.write(t, dir, "names.csv", cohortFile{samples: some[:21], name: func(i int) string { return s.raw.Samples[train[0]] + "x" + strconv.Itoa(i) }}), CohortOptions{})
		if !slices.ContainsFunc(v.Notes, func(n string) bool {
			return strings.Contains(n, "1 of the cohort's 21 samples has the values of a training sample")
		}) {
			t.Errorf("one training sample in the cohort, notes %q", v.Notes)
		}
		// a model of an earlier version, without fingerprints: the names still tell
		old := *s.model
		old.Prints = nil
		oldSplit := *s
		oldSplit.model = &old
		v = oldSplit.validate(t, s.write(t, dir, "some.csv", cohortFile{samples: some}), CohortOptions{})
		if !slices.ContainsFunc(v.Notes, func(n string) bool {
			return strings.Contains(n, "3 of the cohort's 23 samples have the names of samples the model was trained on")
		}) {
			t.Errorf("three training samples in the cohort, a model without fingerprints, notes %q", v.Notes)
		}
		if slices.ContainsFunc(good.Notes, func(n string) bool { return strings.Contains(n, "warning") }) {
			t.Errorf("an independent cohort warned: %q", good.Notes)
		}
	})
	t.Run("missing gene", func(t *testing.T) {
		var feats []int
		for j := range s.raw.Features {
			if j != gene {
				feats = append(feats, j)
			}
		}
		p := s.write(t, dir, "lack.csv", cohortFile{samples: s.cohort, features: feats})
		if _, err := Validate(context.Background(), s.model, p, CohortOptions{}); err == nil || !strings.Contains(err.Error(), s.model.Genes[3].ID) || !strings.Contains(err.Error(), "training mean") {
			t.Errorf("a gene missing: %v", err)
		}
		v := s.validate(t, p, CohortOptions{Apply: signature.ApplyOptions{AcceptMissing: true}})
		// the same as the gene present at its training mean (2^mean before log2)
		at := s.validate(t, s.write(t, dir, "atmean.csv", cohortFile{samples: s.cohort, value: func(i, j int) string {
			if j == gene {
				return strconv.FormatFloat(math.Exp2(s.model.Mean[3]), 'g', -1, 64)
			}
			return strconv.FormatFloat(s.raw.X.At(i, j), 'g', -1, 64)
		}}), CohortOptions{})
		sameScores(t, "missing at the mean", scoresBySample(at), scoresBySample(v), 1e-9)
		if v.Found() != 9 || v.Matches[3].By != "" {
			t.Errorf("found %d, gene 4 matched by %q", v.Found(), v.Matches[3].By)
		}
	})
	t.Run("classes", func(t *testing.T) {
		odd := map[int]bool{s.cohort[0]: true, s.cohort[1]: true, s.cohort[2]: true}
		p := s.write(t, dir, "cls.csv", cohortFile{samples: s.cohort, class: func(i int) string {
			if odd[i] {
				return "adenoma"
			}
			return map[string]string{"tumor": " Tumor ", "normal": "NORMAL"}[s.raw.Classes[s.raw.Labels[i]]]
		}})
		v := s.validate(t, p, CohortOptions{})
		if v.Metrics.N != len(s.cohort)-3 || !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, `"adenoma" (3 samples)`) }) {
			t.Errorf("an unknown class: %d in the metrics, notes %q", v.Metrics.N, v.Notes)
		}
		v = s.validate(t, p, CohortOptions{Apply: signature.ApplyOptions{Map: map[string]string{"Adenoma": "tumor"}}})
		if v.Metrics.N != len(s.cohort) {
			t.Errorf("mapped: %d in the metrics, want %d", v.Metrics.N, len(s.cohort))
		}
		if _, err := Validate(context.Background(), s.model, p, CohortOptions{Apply: signature.ApplyOptions{Map: map[string]string{"adenoma": "polyp"}}}); err == nil || !strings.Contains(err.Error(), "polyp") {
			t.Errorf("a map to a class the model lacks: %v", err)
		}
	})
	t.Run("unlabelled", func(t *testing.T) {
		v := s.validate(t, s.write(t, dir, "nolabel.csv", cohortFile{samples: s.cohort, noClass: true}), CohortOptions{})
		if v.Metrics != nil || len(v.Samples) != len(s.cohort) {
			t.Errorf("no classes: metrics %+v, %d predicted", v.Metrics, len(v.Samples))
		}
		sameScores(t, "unlabelled", scoresBySample(good), scoresBySample(v), 0)
	})
	t.Run("unlogged for a logged model", func(t *testing.T) {
		// the model logs; a cohort given already logged is warned of with its range
		p := s.write(t, dir, "logged.csv", cohortFile{samples: s.cohort, value: func(i, j int) string {
			return strconv.FormatFloat(math.Log2(math.Max(1, s.raw.X.At(i, j))), 'g', -1, 64)
		}})
		v := s.validate(t, p, CohortOptions{})
		if !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, "as if already logged") }) {
			t.Errorf("a logged cohort for a model that logs: notes %q", v.Notes)
		}
		if slices.ContainsFunc(good.Notes, func(n string) bool { return strings.Contains(n, "logged") }) {
			t.Errorf("the raw cohort warned: %q", good.Notes)
		}
	})
}

// plotsFree is the cohort's ROC curves (none without two classes).
func plotsFree(v *signature.Validation) [][]signature.ROCPoint {
	if v.Metrics == nil || v.Metrics.Curve == nil {
		return nil
	}
	return [][]signature.ROCPoint{v.Metrics.Curve}
}

// The cohort's AUC, DeLong variance and 95% interval equal pROC 1.18.0's on the same
// decision values (testdata/cohort_proc.R on testdata/cohort_colon_scores.csv, which
// holds the decision values this validation gave when it was recorded; they are checked
// too, so a change in the model shows as such).
func TestCohortAUCEqualsPROC(t *testing.T) {
	s := newColonSplit(t, false)
	v := s.validate(t, s.write(t, t.TempDir(), "cohort.csv", cohortFile{samples: s.cohort}), CohortOptions{})
	if os.Getenv("STEADFAST_WRITE_COHORT_SCORES") != "" {
		rows := [][]string{{"sample", "class", "decision"}}
		for i, smp := range v.Samples {
			rows = append(rows, []string{smp, v.Given[i], strconv.FormatFloat(v.Scores[i][v.Positive()], 'g', -1, 64)})
		}
		if err := os.WriteFile(filepath.Join("testdata", "cohort_colon_scores.csv"), csvOf(rows), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recorded := readCSV(t, filepath.Join("testdata", "cohort_colon_scores.csv"))
	if len(recorded)-1 != len(v.Samples) {
		t.Fatalf("%d samples recorded, %d predicted", len(recorded)-1, len(v.Samples))
	}
	for i, r := range recorded[1:] {
		want, _ := strconv.ParseFloat(r[2], 64)
		if got := v.Scores[i][v.Positive()]; r[0] != v.Samples[i] || math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Fatalf("sample %s: decision %.17g, recorded %s %s", v.Samples[i], got, r[0], r[2])
		}
	}
	ref := readCSV(t, filepath.Join("testdata", "cohort_colon_proc.csv"))
	a := v.Metrics.AUC
	for k, got := range []float64{a.AUC, a.Var, a.Low, a.High} {
		want, _ := strconv.ParseFloat(ref[1][k], 64)
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: %.17g, pROC %.17g", ref[0][k], got, want)
		}
	}
	// each sample's probability is the model's Platt map of its decision value, by
	// hand; their calibration is Calibrate's (checked against rms in signature)
	pl := v.Model.Platt
	if pl == nil || len(v.Probs) != len(v.Samples) {
		t.Fatalf("Platt map %v, %d probabilities for %d samples", pl, len(v.Probs), len(v.Samples))
	}
	var pos []bool
	for i, p := range v.Probs {
		if want := 1 / (1 + math.Exp(pl.A*v.Scores[i][v.Positive()]+pl.B)); math.Abs(p-want) > 1e-15 {
			t.Fatalf("sample %s: probability %g, by hand %g", v.Samples[i], p, want)
		}
		pos = append(pos, v.Truth[i] == v.Positive())
	}
	if c := v.Metrics.Calibration; c == nil || *c != signature.Calibrate(v.Probs, pos) {
		t.Errorf("the cohort's calibration %+v", c)
	}
	// the class predicted and the probability agree through the rule's threshold, the
	// Platt map at w'z + b = 0 (by hand); where it is not 1/2 and some probabilities fall
	// between, a note says so, and predictions.csv gives the threshold beside each
	// probability (81 of 1,425 cohort predictions had a probability on the other side of
	// 0.5 from their class, unexplained)
	if want := 1 / (1 + math.Exp(pl.B)); math.Abs(v.RuleProb-want) > 1e-15 {
		t.Errorf("the rule's probability %g, by hand %g", v.RuleProb, want)
	}
	odd := 0
	for i, p := range v.Probs {
		if (v.Pred[i] == v.Positive()) != (p > v.RuleProb) {
			t.Errorf("sample %s: predicted %s with probability %g against the rule's %g", v.Samples[i], v.Model.Classes[v.Pred[i]], p, v.RuleProb)
		}
		if (v.Pred[i] == v.Positive()) != (p > 0.5) {
			odd++
		}
	}
	noted := slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, "not 0.5") })
	if noted != (odd > 0) {
		t.Errorf("%d samples across 0.5 from their class; noted %v: %q", odd, noted, v.Notes)
	}
	table := PredictionTable(v)
	pos0 := v.Model.Classes[v.Positive()]
	if h := table[0]; h[3] != "decision_value_higher_means_"+pos0 || h[len(h)-4] != "rule_calls_"+pos0+"_above_probability" {
		t.Errorf("predictions.csv's header %q", h)
	}
	t.Logf("cohort of %d: AUC %.4f (DeLong 95%% CI %.4f-%.4f), accuracy %.3f, calibration %+v", v.Metrics.N, a.AUC, a.Low, a.High, v.Metrics.Accuracy, *v.Metrics.Calibration)
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A k-NN model with a signature gene missing measures distances on the genes present:
// its neighbour shares equal classify.KNN's fitted on the training samples' scaled
// values without that gene, predicting the cohort's scaled values without it.
func TestKNNWithAMissingGene(t *testing.T) {
	s := newColonSplitWith(t, false, "3nn")
	gene := slices.Index(s.raw.Features, s.model.Genes[2].ID)
	var feats []int
	for j := range s.raw.Features {
		if j != gene {
			feats = append(feats, j)
		}
	}
	dir := t.TempDir()
	v := s.validate(t, s.write(t, dir, "lack.csv", cohortFile{samples: s.cohort, features: feats}), CohortOptions{Apply: signature.ApplyOptions{AcceptMissing: true}})
	if !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, "distances are measured on the other genes") }) {
		t.Errorf("notes %q", v.Notes)
	}
	// by hand: the cohort's log2 values z-scored with the training means and sds
	keep := []int{0, 1, 3, 4, 5, 6, 7, 8, 9}
	m := s.model
	train := mat.NewDense(len(m.TrainX), len(keep), nil)
	for i, r := range m.TrainX {
		for jj, j := range keep {
			train.Set(i, jj, r[j])
		}
	}
	test := mat.NewDense(len(s.cohort), len(keep), nil)
	for r, i := range s.cohort {
		for jj, g := range keep {
			x := math.Log2(math.Max(1, s.raw.X.At(i, slices.Index(s.raw.Features, m.Genes[g].ID))))
			test.Set(r, jj, (x-m.Mean[g])*(1/m.SD[g]))
		}
	}
	k := classify.KNN{K: 3}
	k.Fit(train, m.TrainY, 2)
	_, want := k.PredictScores(test)
	for r := range s.cohort {
		if !slices.Equal(want[r], v.Scores[r]) {
			t.Fatalf("sample %s: shares %v, by hand %v", v.Samples[r], v.Scores[r], want[r])
		}
	}
}

// With more than two classes (SRBCT's four tumours, every other sample of each class
// training an F-statistic signature at k = 10 with the linear SVM), each class gets its
// one-vs-rest AUC and curve, their mean is the mean of those AUCs, the confusion matrix
// counts every cohort sample once, and the ROC figure draws a curve a class.
func TestValidationOfFourClasses(t *testing.T) {
	raw, err := dataset.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "srbct.csv"), dataset.Options{})
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	s := &colonSplit{raw: raw}
	raw.Samples = nil
	for i := range raw.Labels {
		raw.Samples = append(raw.Samples, "srbct"+strconv.Itoa(i+1))
	}
	train, cohort := everyOther(raw.Labels)
	s.cohort = cohort
	half := &dataset.Dataset{Name: "srbct-train", Features: raw.Features, Classes: raw.Classes}
	half.X, half.Labels = dataset.SelectSamples(raw.X, raw.Labels, train)
	ds, _, err := Prepare(half, dataset.Prep{DropConstant: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Ks, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []int{10}, []string{"svm"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 10, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	s.model = sig.Model
	v := s.validate(t, s.write(t, t.TempDir(), "cohort.csv", cohortFile{samples: s.cohort}), CohortOptions{})
	mt := v.Metrics
	if v.Positive() != -1 || len(mt.PerClass) != 4 || len(mt.Curves) != 4 {
		t.Fatalf("positive %d, %d per-class AUCs, %d curves", v.Positive(), len(mt.PerClass), len(mt.Curves))
	}
	mean, n := 0.0, 0
	for _, a := range mt.PerClass {
		mean += a.AUC / 4
	}
	for _, row := range mt.Confusion {
		for _, k := range row {
			n += k
		}
	}
	if math.Abs(mean-mt.MeanAUC) > 1e-15 || n != len(s.cohort) || mt.N != len(s.cohort) {
		t.Errorf("mean AUC %v of %v; %d in the confusion matrix, %d in the metrics, %d samples", mt.MeanAUC, mt.PerClass, n, mt.N, len(s.cohort))
	}
	t.Logf("SRBCT cohort of %d: accuracy %.3f, mean one-vs-rest AUC %.3f", mt.N, mt.Accuracy, mt.MeanAUC)
}

// reversed is 0..p-1 backwards: a cohort file with its features in another order.
func reversed(p int) []int {
	out := make([]int, p)
	for j := range out {
		out[j] = p - 1 - j
	}
	return out
}

// A cohort on another platform (each Colon value x written as 4 x^1.3: in log2, 2 + 1.3
// log2 x, another level and spread for every gene) is said to be off the training scale
// (the same cohort unshifted is not), and harmonising it with ComBat against the
// training data brings back the unshifted cohort's accuracy where the model's own
// scaling loses it. The cohort's classes never enter: shuffled, the scores are the
// same. A cohort of one class harmonised is warned of (Nygaard et al. 2016).
func TestShiftAndHarmonisation(t *testing.T) {
	s := newColonSplit(t, false)
	dir := t.TempDir()
	plain := s.write(t, dir, "plain.csv", cohortFile{samples: s.cohort})
	shift := func(i, j int) string { return strconv.FormatFloat(4*math.Pow(s.raw.X.At(i, j), 1.3), 'g', -1, 64) }
	shifted := s.write(t, dir, "shifted.csv", cohortFile{samples: s.cohort, value: shift})
	base := s.validate(t, plain, CohortOptions{})
	if base.Shift == nil || base.Shift.OffScale {
		t.Fatalf("the unshifted cohort: %+v", base.Shift)
	}
	none := s.validate(t, shifted, CohortOptions{})
	if !none.Shift.OffScale || !strings.Contains(none.Measures(), "off the training scale") || !strings.Contains(none.Measures(), "harmonise it") {
		t.Errorf("the shifted cohort is not said to be off the scale: %+v; %s", none.Shift, none.Measures())
	}
	t.Logf("unshifted: accuracy %.3f AUC %.3f, median |SMD| %.2f; shifted, model's scaling: accuracy %.3f AUC %.3f, median |SMD| %.2f",
		base.Metrics.Accuracy, base.Metrics.AUC.AUC, base.Shift.MedianAbsSMD, none.Metrics.Accuracy, none.Metrics.AUC.AUC, none.Shift.MedianAbsSMD)
	for _, h := range signature.Harmonizations[1:] {
		v := s.validate(t, shifted, CohortOptions{Apply: signature.ApplyOptions{Harmonize: h}})
		t.Logf("%s: accuracy %.3f AUC %.3f", h, v.Metrics.Accuracy, v.Metrics.AUC.AUC)
		if v.Metrics.Accuracy < base.Metrics.Accuracy-0.1 || v.Metrics.Accuracy <= none.Metrics.Accuracy {
			t.Errorf("%s: accuracy %.3f; unshifted %.3f, the model's scaling %.3f", h, v.Metrics.Accuracy, base.Metrics.Accuracy, none.Metrics.Accuracy)
		}
	}
	relabelled := s.write(t, dir, "relabelled.csv", cohortFile{samples: s.cohort, value: shift, class: func(i int) string { return s.raw.Classes[(s.raw.Labels[i]+i)%2] }})
	a := s.validate(t, shifted, CohortOptions{Apply: signature.ApplyOptions{Harmonize: "combat"}})
	b := s.validate(t, relabelled, CohortOptions{Apply: signature.ApplyOptions{Harmonize: "combat"}})
	sameScores(t, "relabelled", scoresBySample(a), scoresBySample(b), 0)
	var tumours []int
	for _, i := range s.cohort {
		if s.raw.Classes[s.raw.Labels[i]] == "tumor" {
			tumours = append(tumours, i)
		}
	}
	one := s.write(t, dir, "tumours.csv", cohortFile{samples: tumours, value: shift})
	if v := s.validate(t, one, CohortOptions{Apply: signature.ApplyOptions{Harmonize: "combat"}}); !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, "Nygaard") }) {
		t.Errorf("a one-class cohort harmonised without a warning: %q", v.Notes)
	}
}

// A cohort too small for its harmonisation is refused with the number it needs and the
// remedies: standardize and ComBat of location and scale below 3 samples (on 1 sample
// every value had become the training mean, so the prediction did not depend on the
// sample; on 2 every z is +-1/sqrt(2)), ComBat of location only below 2. At those
// numbers each runs, and the notes count samples in words ("1 cohort sample").
func TestHarmonisationRefusesTooFewSamples(t *testing.T) {
	s := newColonSplit(t, false)
	dir := t.TempDir()
	for _, h := range signature.Harmonizations[1:] {
		need := signature.HarmonizeMin(h)
		few := s.write(t, dir, h+"-few.csv", cohortFile{samples: s.cohort[:need-1]})
		_, err := Validate(context.Background(), s.model, few, CohortOptions{Apply: signature.ApplyOptions{Harmonize: h}})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("needs %d cohort samples", need)) || !strings.Contains(err.Error(), "--harmonize none") || !strings.Contains(err.Error(), "k-TSP") {
			t.Errorf("%s on %d samples: %v", h, need-1, err)
		}
		enough := s.write(t, dir, h+"-enough.csv", cohortFile{samples: s.cohort[:need]})
		v := s.validate(t, enough, CohortOptions{Apply: signature.ApplyOptions{Harmonize: h}})
		if len(v.Samples) != need {
			t.Errorf("%s on %d samples predicted %d", h, need, len(v.Samples))
		}
		for _, n := range v.Notes {
			if strings.Contains(n, " 1 cohort samples") || strings.Contains(n, "gives no classes") {
				t.Errorf("%s: %s", h, n)
			}
		}
	}
	if signature.HarmonizeMin("none") != 0 {
		t.Error("no harmonisation needs no samples")
	}
	one := s.write(t, dir, "one.csv", cohortFile{samples: s.cohort[:1]})
	if v := s.validate(t, one, CohortOptions{}); len(v.Samples) != 1 {
		t.Errorf("one sample without harmonisation: %d predicted", len(v.Samples))
	}
}
