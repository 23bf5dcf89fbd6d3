package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRankArrayWithMissingCellsTakesKNN: rank on the real leukemia.gct with the 7 cells
// compute/dataset/testdata/knn/leukemia_knn.csv names written NA goes on (it was
// refused for minprob, which the user never chose) and notes that knn filled the 7
// missing values.
func TestRankArrayWithMissingCellsTakesKNN(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "compute", "dataset", "testdata", "knn", "leukemia_knn.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	blank := map[[2]string]bool{}
	for _, r := range recs[1:] {
		blank[[2]string{r[0], r[1]}] = true
	}
	b, err := os.ReadFile(filepath.Join(sharedData, "leukemia.gct"))
	if err != nil {
		t.Fatalf("the real data are needed: %v", err)
	}
	lines := strings.Split(string(b), "\n")
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
	dir := t.TempDir()
	cls, err := os.ReadFile(filepath.Join(sharedData, "leukemia.cls"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "leukemia.gct")
	if os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644) != nil || os.WriteFile(filepath.Join(dir, "leukemia.cls"), cls, 0o644) != nil {
		t.Fatal("cannot write the copy")
	}
	code, out, errs := runMain(t, []string{"rank", "--data", path, "--method", "fstat"}, 2*time.Minute)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "imputation of the 7 missing values: no method chosen, so knn (impute.knn") || strings.Contains(errs, "minprob draws") {
		t.Errorf("the notes do not say knn filled the 7 missing values:\n%s", errs)
	}
	if n := strings.Count(out, "\n"); n != 7129 {
		t.Errorf("%d genes ranked, want the 7,129 of leukemia.gct", n)
	}
}

// TestPrepNodeIsACovariate: prep on a table named as breastCancerNKI names its clinical
// columns (compute/dataset/testdata/clinical/nki.csv, from R's survival::rotterdam)
// notes node among the covariates found by their names, beside age, er, grade and size.
func TestPrepNodeIsACovariate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "nki.csv")
	code, _, errs := runMain(t, []string{"prep", "--data", filepath.Join("..", "compute", "dataset", "testdata", "clinical", "nki.csv"), "--time", "t.os", "--event", "e.os", "-o", out}, time.Minute)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, `5 columns found by their names and taken as clinical covariates`) || !strings.Contains(errs, `"node" (numeric)`) {
		t.Errorf("the notes do not name node as a covariate:\n%s", errs)
	}
}

// TestRankEventCodings: rank on the real DLBCL CHOP table with its events written
// TRUE/FALSE notes that TRUE is the event; with Dead/Alive that Dead is; with one NA
// it stops (exit 2) naming the line, the column and the value as written.
func TestRankEventCodings(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(sharedData, "dlbcl_chop_survival.csv"))
	if err != nil {
		t.Fatalf("the real data are needed: %v", err)
	}
	write := func(code func(cell string, i int) string) string {
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		for i := 1; i < len(lines); i++ {
			cells := strings.SplitN(lines[i], ",", 4)
			cells[2] = code(cells[2], i-1)
			lines[i] = strings.Join(cells, ",")
		}
		path := filepath.Join(t.TempDir(), "dlbcl.csv")
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	words := func(ev, ce string) func(string, int) string {
		return func(c string, _ int) string {
			if c == "1" {
				return ev
			}
			return ce
		}
	}
	for _, c := range []struct {
		path string
		code int
		want string
	}{
		{write(words("TRUE", "FALSE")), 0, `event "event" (TRUE read as the event, FALSE as censored)`},
		{write(words("Dead", "Alive")), 0, `event "event" (Dead read as the event, Alive as censored)`},
		{write(func(c string, i int) string {
			if i == 2 {
				return "NA"
			}
			return c
		}), 2, `line 4, column 3: sample "CHOP_V4": the event is missing ("NA")`},
	} {
		code, _, errs := runMain(t, []string{"rank", "--data", c.path, "--method", "cox"}, 2*time.Minute)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("exit %d (want %d), the messages lack %q:\n%s", code, c.code, c.want, trunc(errs))
		}
	}
}
