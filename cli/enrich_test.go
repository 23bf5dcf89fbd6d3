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
	if code, _, errw := cmd("enrich", filepath.Join(run, "result.json"), "-o", cam, "--method", "fstat", "--k", "50", "--collection", "go-bp", "--camera"); code != 0 || !strings.Contains(errw, "Camera (limma's competitive test, inter-gene correlation 0.01) over all the genes measured, RCC against") {
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

// A run whose data had no gene symbols (Colon's Hsa ids) is refused with the remedy,
// and enrich --symbols gives the finished run the annotation's symbols without running
// the study again (it had told the user to run the study again).
func TestEnrichAddsSymbolsToAFinishedRun(t *testing.T) {
	dir := t.TempDir()
	colon, _ := filepath.Abs(filepath.Join(sharedData, "colon.csv"))
	if _, err := os.Stat(colon); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := filepath.Join(dir, "cfg.json")
	os.WriteFile(cfg, []byte(`{"dataPath": "`+colon+`", "protocol": "drags2008", "methods": [{"name": "fstat"}], "prep": {"log2": true, "dropConstant": true}, "classifiers": ["svm"]}`), 0o644)
	run := filepath.Join(dir, "run")
	if code, _, errw := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatalf("run: %s", errw)
	}
	code, _, errw := cmd("enrich", run, "-o", filepath.Join(dir, "e0"), "--method", "fstat", "--k", "20")
	if code != 2 || !strings.Contains(errw, "no gene symbols") || !strings.Contains(errw, "enrich --symbols FILE") || strings.Contains(errw, "run the study again") {
		t.Fatalf("without symbols: exit %d, %s", code, errw)
	}
	// the run's top 20 named by common human symbols (an annotation of this platform
	// as far as enrich can tell: it names features of it)
	top := strings.Split(strings.TrimSpace(string(mustRead(t, filepath.Join(run, "top-features-f-statistic.csv")))), "\n")
	genes := []string{"TP53", "MYC", "EGFR", "KRAS", "APC", "CTNNB1", "SMAD4", "PIK3CA", "BRAF", "MLH1", "MSH2", "CDX2", "VIL1", "KRT20", "CEACAM5", "MUC2", "LGR5", "AXIN2", "TGFBR2", "BAX"}
	var ann strings.Builder
	ann.WriteString("ID\tGene Symbol\n")
	for i, line := range top[1:min(len(top), 21)] {
		ann.WriteString(strings.Split(line, ",")[0] + "\t" + genes[i%len(genes)] + "\n")
	}
	symbols := filepath.Join(dir, "symbols.tsv")
	os.WriteFile(symbols, []byte(ann.String()), 0o644)
	code, _, errw = cmd("enrich", run, "-o", filepath.Join(dir, "e1"), "--method", "fstat", "--k", "20", "--symbols", symbols)
	if code != 0 || !strings.Contains(errw, "gene symbols for 20 of 2000 features from symbols.tsv") {
		t.Fatalf("with --symbols: exit %d, %s", code, errw)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
