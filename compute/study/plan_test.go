package study

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
)

// colonGrouped writes Colon (../shared/data) with a patient column: patient(i, class)
// names sample i's patient.
func colonGrouped(t *testing.T, patient func(i int, class string) string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "data", "colon.csv"))
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows[0] = append(rows[0], "patient")
	for i, r := range rows[1:] {
		rows[i+1] = append(r, patient(i, r[len(r)-1]))
	}
	path := filepath.Join(t.TempDir(), "colon-patients.csv")
	out, _ := os.Create(path)
	w := csv.NewWriter(out)
	w.WriteAll(rows)
	out.Close()
	return path
}

// Grouped resampling where one patient holds every normal sample of Colon is refused
// before the run, naming the patient, the class and the training sets affected, under
// each protocol (the study had run and reported an accuracy of 0.8404 at every k, from
// training sets without a normal sample). Patients of two samples each, both classes
// spread over many, are planned as before.
func TestPlanRefusesATrainingSetWithoutAClass(t *testing.T) {
	one := colonGrouped(t, func(i int, class string) string {
		if class == "normal" {
			return "P-normal"
		}
		return fmt.Sprintf("T%d", i)
	})
	ds, err := Open(one, dataset.Options{GroupName: "patient"}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []experiment.Protocol{experiment.CV10x10, experiment.DRAGS2008, experiment.Kalousis} {
		cfg := experiment.DefaultConfig()
		cfg.Protocol, cfg.Read.GroupName = p, "patient"
		cfg.Methods = []method.Spec{{Name: "fstat"}}
		_, err := Plan(cfg, ds)
		if err == nil {
			t.Errorf("%s: planned with every normal sample in one group", p)
			continue
		}
		for _, want := range []string{`grouped by "patient"`, `group "P-normal" holds all 22 samples of class "normal"`, "training sets lack a class", "drop the grouping"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", p, err, want)
			}
		}
	}
	pairs := colonGrouped(t, func(i int, class string) string { return fmt.Sprintf("P%d", i/2) })
	ds, err = Open(pairs, dataset.Options{GroupName: "patient"}, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Read.GroupName = "patient"
	cfg.Methods = []method.Spec{{Name: "fstat"}}
	if _, err := Plan(cfg, ds); err != nil {
		t.Errorf("patients of two samples: %v", err)
	}
}
