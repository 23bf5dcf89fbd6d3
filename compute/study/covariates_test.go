package study

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
)

// clinicalTable is a classes table of 40 samples whose Age separates the classes
// perfectly and whose 20 genes are noise, with a Grade column.
func clinicalTable(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,Age,Grade")
	for j := range 20 {
		fmt.Fprintf(&b, ",g%d", j+1)
	}
	b.WriteString(",class\n")
	for i := range 40 {
		class := []string{"A", "B"}[i%2]
		fmt.Fprintf(&b, "s%d,%d,%d", i+1, 40+20*(i%2)+i%7, 1+i%3)
		for j := range 20 {
			fmt.Fprintf(&b, ",%.4f", math.Sin(float64(i*31+j*17)))
		}
		fmt.Fprintf(&b, ",%s\n", class)
	}
	path := filepath.Join(t.TempDir(), "clinical.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A classes study of a table with an Age column no longer ranks Age: it is a
// covariate, not a feature, however well it separates the classes. Read with
// --as-feature Age it is ranked first. A run saved so (its features holding Age),
// loaded by a Steadfast that reads Age as a covariate, reads its data as it did.
func TestClassesStudyDoesNotRankAge(t *testing.T) {
	path := clinicalTable(t)
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Classifiers = []method.Spec{{Name: "fstat"}}, []string{"1nn"}
	cfg.Repeats, cfg.Folds, cfg.Ks = 1, 5, []int{1, 3}
	run := func(read dataset.Options) *experiment.Result {
		t.Helper()
		ds, err := Open(path, read, cfg.Prep)
		if err != nil {
			t.Fatal(err)
		}
		c := cfg
		c.DataPath, c.Read = path, read
		res, err := Run(context.Background(), c, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run(dataset.Options{})
	if slices.Contains(res.Data.Features, "Age") || slices.Contains(res.Data.Features, "Grade") || len(res.Data.Features) != 20 {
		t.Fatalf("features %v", res.Data.Features)
	}
	old := run(dataset.Options{AsFeatures: []string{"Age"}})
	if top := old.Data.Features[old.Methods[0].Reference.Order[0]]; top != "Age" {
		t.Fatalf("with --as-feature Age the first gene is %s", top)
	}
	// a run saved before covariates: its configuration does not say asFeatures
	old.Config.Read.AsFeatures = nil
	saved := filepath.Join(t.TempDir(), "run.json")
	if err := SaveRun(saved, old, nil); err != nil {
		t.Fatal(err)
	}
	cfgBack, err := LoadConfig(saved)
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadRun(saved)
	if err != nil {
		t.Fatal(err)
	}
	for _, read := range []dataset.Options{cfgBack.Read, s.Config.Read, s.Result.Config.Read} {
		if !slices.Equal(read.AsFeatures, []string{"Age"}) {
			t.Fatalf("the old run's read options %+v", read)
		}
	}
	ds, err := Open(path, cfgBack.ReadOptions(), cfgBack.Prep)
	if err != nil {
		t.Fatal(err)
	}
	if err := DataMatches(old, ds); err != nil {
		t.Error(err)
	}
}
