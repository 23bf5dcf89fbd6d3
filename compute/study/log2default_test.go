package study

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"steadfast/compute/dataset"
)

// TestRunConfigLog2Default: a configuration that says nothing of log2 leaves it to the
// data (a MaxQuant table's unlogged intensities are logged, as on the command line and
// in the window); one that says "log2": false keeps the values as they are, and a saved
// run, whose configuration always says it, is read as it was run.
func TestRunConfigLog2Default(t *testing.T) {
	dir := t.TempDir()
	mq, design := sharedData(t, "proteus_proteinGroups.txt.gz"), sharedData(t, "proteus_metadata.txt")
	for _, c := range []struct {
		json                     string
		unsaid, logged, noteLog2 bool
	}{
		{`{"folds": 3}`, true, true, true},
		{`{"folds": 3, "prep": {"impute": "knn"}}`, true, true, true},
		{`{"folds": 3, "prep": {"log2": false, "impute": "knn"}}`, false, false, false},
		{`{"folds": 3, "prep": {"log2": true}}`, false, true, false},
	} {
		p := filepath.Join(dir, "c.json")
		os.WriteFile(p, []byte(c.json), 0o644)
		cfg, err := LoadConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Prep.Log2Unsaid != c.unsaid {
			t.Errorf("%s: log2 unsaid %v, want %v", c.json, cfg.Prep.Log2Unsaid, c.unsaid)
		}
		ds, prep, err := OpenPrep(context.Background(), mq, dataset.Options{DesignPath: design}, cfg.Prep, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		if prep.Log2 != c.logged || prep.Log2Unsaid || strings.Contains(strings.Join(ds.Notes, "\n"), "log2 taken") != c.noteLog2 {
			t.Errorf("%s: log2 %v (want %v), notes %v", c.json, prep.Log2, c.logged, ds.Notes)
		}
	}
}
