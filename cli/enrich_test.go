package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// steadfast enrich on a finished GDS507 run (F-statistic under DRAGS 2008, log2): the
// top 50 genes against the platform's GO-annotated genes, every GO BP term with a
// universe gene in enrichment.csv with its q and stability, the dot plot, and a line
// saying what was tested against what; a GMT file's sets work alike; a run whose data
// have no gene symbols is refused with what to do.
func TestEnrichCommand(t *testing.T) {
	dir := t.TempDir()
	gds := filepath.Join("..", "compute", "dataset", "testdata", "geo", "GDS507.soft.gz")
	cfg := filepath.Join(dir, "cfg.json")
	os.WriteFile(cfg, []byte(`{"dataPath": "`+gds+`", "protocol": "drags2008", "methods": [{"name": "fstat"}], "zscore": true,
		"prep": {"log2": true, "dropConstant": true}, "classifiers": ["svm"], "seed": 1}`), 0o644)
	run := filepath.Join(dir, "run")
	if code, _, errw := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatalf("run: %s", errw)
	}
	out := filepath.Join(dir, "enr")
	code, _, errw := cmd("enrich", filepath.Join(run, "result.json"), "-o", out, "--method", "fstat", "--k", "50", "--collection", "go-bp")
	if code != 0 || !strings.Contains(errw, "the universe: the 5840 genes the platform measured that have an annotation in GO BP") || !strings.Contains(errw, "CC BY 4.0") || !strings.Contains(errw, "stability: the share of the 30 resamples") {
		t.Fatalf("enrich: exit %d, %s", code, errw)
	}
	rows := readCSV(t, filepath.Join(out, "enrichment.csv"))
	if len(rows) < 1000 || rows[0][8] != "q_bh" || rows[0][9] != "stability" || rows[1][9] == "" {
		t.Errorf("enrichment.csv: %d rows, header %q, first %q", len(rows), rows[0], rows[1])
	}
	if st, err := os.Stat(filepath.Join(out, "enrichment-dotplot.png")); err != nil || st.Size() < 1000 {
		t.Errorf("the dot plot: %v", err)
	}
	// --frequent: the 50 genes selected most often, as a signature --frequent takes them,
	// and said so
	freq := filepath.Join(dir, "freq")
	code, _, errw = cmd("enrich", filepath.Join(run, "result.json"), "-o", freq, "--method", "fstat", "--k", "50", "--collection", "go-bp", "--frequent")
	if code != 0 || !strings.Contains(errw, "the 50 genes F-statistic selected most often over the resamples") {
		t.Fatalf("enrich --frequent: exit %d, %s", code, errw)
	}
	// --camera: every GO BP set over the whole ranking, directions of RCC
	cam := filepath.Join(dir, "cam")
	if code, _, errw := cmd("enrich", filepath.Join(run, "result.json"), "-o", cam, "--method", "fstat", "--k", "50", "--collection", "go-bp", "--camera"); code != 0 || !strings.Contains(errw, "camera (limma's, inter-gene correlation 0.01) over all") {
		t.Fatalf("enrich --camera: exit %d, %s", code, errw)
	}
	if rows := readCSV(t, filepath.Join(cam, "camera.csv")); len(rows) < 1000 || rows[0][4] != "direction_in_RCC" {
		t.Errorf("camera.csv: %d rows, header %q", len(rows), rows[0])
	}
	gmt := filepath.Join(dir, "sets.gmt")
	os.WriteFile(gmt, []byte("TRANSPORT\tmy set\t"+strings.Join([]string{"KCNE1", "SCNN1G", "KCNJ10", "SLC13A3", "SLC26A7", "SLC38A1", "SLC4A9", "ALB", "APOA1", "TTR", "UMOD"}, "\t")+"\n"), 0o644)
	if code, _, errw := cmd("enrich", filepath.Join(run, "result.json"), "-o", filepath.Join(dir, "gmt"), "--method", "fstat", "--k", "50", "--collection", gmt); code != 0 || !strings.Contains(errw, "sets.gmt") {
		t.Errorf("enrich with a GMT file: exit %d, %s", code, errw)
	}
	os.WriteFile(gmt, []byte("EMPTY\tno genes\n"), 0o644)
	if code, _, errw := cmd("enrich", filepath.Join(run, "result.json"), "-o", filepath.Join(dir, "bad"), "--collection", gmt); code != 2 || !strings.Contains(errw, "line 1") {
		t.Errorf("a GMT line without genes: exit %d, %s", code, errw)
	}
}
