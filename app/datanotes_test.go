package app

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"steadfast/compute/dataset"
)

// TestDataTabNotesOfTables: the Data tab says what the reader assumed of three real
// tables: leukemia.gct with the 7 cells compute/dataset/testdata/knn/leukemia_knn.csv
// names written NA is prepared (not refused for minprob) with knn, Missing values
// showing auto; the DLBCL CHOP table with its events written TRUE/FALSE names TRUE as
// the event; a table named as breastCancerNKI names its columns (from R's
// survival::rotterdam) lists node among the clinical covariates.
func TestDataTabNotesOfTables(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Open(filepath.Join("..", "compute", "dataset", "testdata", "knn", "leukemia_knn.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	blank := map[[2]string]bool{}
	for _, r := range recs[1:] {
		blank[[2]string{r[0], r[1]}] = true
	}
	gct, err := os.ReadFile(filepath.Join(sharedData, "leukemia.gct"))
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	lines := strings.Split(string(gct), "\n")
	head := strings.Split(lines[2], "\t")
	for i := 3; i < len(lines); i++ {
		cells := strings.Split(lines[i], "\t")
		for j := 2; j < len(cells) && j < len(head); j++ {
			if blank[[2]string{cells[0], strings.TrimSpace(head[j])}] {
				cells[j] = "NA"
			}
		}
		lines[i] = strings.Join(cells, "\t")
	}
	cls, err := os.ReadFile(filepath.Join(sharedData, "leukemia.cls"))
	if err != nil {
		t.Fatal(err)
	}
	leukemia := filepath.Join(dir, "leukemia.gct")
	if os.WriteFile(leukemia, []byte(strings.Join(lines, "\n")), 0o644) != nil || os.WriteFile(filepath.Join(dir, "leukemia.cls"), cls, 0o644) != nil {
		t.Fatal("cannot write the copy")
	}
	dlbcl, err := os.ReadFile(filepath.Join(sharedData, "dlbcl_chop_survival.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimRight(string(dlbcl), "\n"), "\n")
	for i := 1; i < len(rows); i++ {
		cells := strings.SplitN(rows[i], ",", 4)
		cells[2] = map[string]string{"1": "TRUE", "0": "FALSE"}[cells[2]]
		rows[i] = strings.Join(cells, ",")
	}
	logical := filepath.Join(dir, "dlbcl.csv")
	if err := os.WriteFile(logical, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u, _ := newTestUI(t)
	for _, c := range []struct {
		path string
		o    dataset.Options
		want string
	}{
		{leukemia, dataset.Options{}, "imputation of the 7 missing values: no method chosen, so knn (impute.knn"},
		{logical, dataset.Options{}, `Survival outcome: time "time", event "event" (TRUE read as the event, FALSE as censored); 105 events`},
		{filepath.Join("..", "compute", "dataset", "testdata", "clinical", "nki.csv"), dataset.Options{Outcome: dataset.Outcome{Time: "t.os", Event: "e.os"}}, `taken as clinical covariates (sample annotations, not features): "age" (numeric), "er" (numeric), "grade"`},
	} {
		serialized(func() { u.LoadFile(c.path, c.o) })
		waitFor(t, filepath.Base(c.path)+" read and prepared", time.Minute, func() bool {
			return onUI(func() bool {
				return u.data != nil && !u.preparing() && strings.Contains(u.dataTab.summary.Text, filepath.Base(c.path)+":")
			})
		})
		summary := onUI(func() string { return u.dataTab.summary.Text })
		if !strings.Contains(summary, c.want) {
			t.Errorf("the Data tab lacks %q:\n%s", c.want, summary)
		}
		if strings.HasSuffix(c.path, "nki.csv") && !strings.Contains(summary, `"node" (numeric)`) {
			t.Errorf("node is not a covariate:\n%s", summary)
		}
	}
	if got := onUI(func() string { return u.dataTab.intens.impute.Selected }); !strings.HasPrefix(got, "auto") {
		t.Errorf("Missing values shows %q, want auto", got)
	}
}
