package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snapshot reads every file under dir, for checking that a refused command changed
// nothing.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			files[p] = b
		}
		return nil
	})
	return files
}

// same reports the first file that differs between two snapshots, "" if none.
func same(before, after map[string][]byte) string {
	if len(before) != len(after) {
		return "the number of files"
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			return p
		}
	}
	return ""
}

// TestOutputNeverReplacesItsInputs: no command writes its output folder where it would
// replace what it reads. signature -o RUN (the study's own folder) and predict -o SIG
// (the folder of the model) had deleted the study and the model; run -o with a saved
// run of that folder as the configuration, merge -o one of its shards, and a folder
// holding the data at any depth are refused too, before any work, naming the input and
// offering a folder beside; the folder offered works.
func TestOutputNeverReplacesItsInputs(t *testing.T) {
	dir := t.TempDir()
	cfg := smallStudy(t, dir)
	run := filepath.Join(dir, "run")
	cmd := func(args ...string) (int, string) {
		code, _, errs := runMain(t, args, 2*time.Minute)
		return code, errs
	}
	if code, errs := cmd("run", cfg, "-o", run); code != 0 {
		t.Fatal(errs)
	}
	refused := func(name, input, offer string, args ...string) {
		t.Helper()
		before := snapshot(t, dir)
		code, errs := cmd(args...)
		if code != 2 || !strings.Contains(errs, input) || !strings.Contains(errs, "-o "+offer) {
			t.Errorf("%s: exit %d (want 2), %s", name, code, errs)
		}
		if f := same(before, snapshot(t, dir)); f != "" {
			t.Errorf("%s: %s changed", name, f)
		}
	}
	result := filepath.Join(run, "result.json")
	refused("signature into its run's folder", result, run+"-signature",
		"signature", result, "--method", "fstat", "--k", "6", "-o", run)
	refused("signature of the folder into itself, with the report", result, run+"-signature",
		"signature", run, "--k", "6", "--report", "-o", run)
	refused("run of a saved run into its folder", result, run+"-run", "run", result, "-o", run)
	sig := run + "-signature"
	if code, errs := cmd("signature", run, "--method", "fstat", "--k", "6", "-o", sig); code != 0 {
		t.Fatalf("the folder offered: %s", errs)
	}
	model := filepath.Join(sig, "model.json")
	data := filepath.Join(dir, "d.csv")
	refused("predict into the model's folder", model, sig+"-cohort", "predict", "--model", model, "--data", data, "-o", sig)
	if code, errs := cmd("predict", "--model", model, "--data", data, "-o", sig+"-cohort"); code != 0 {
		t.Fatalf("the folder offered: %s", errs)
	}
	// a cohort at depth in the folder given
	deep := filepath.Join(dir, "deep", "er", "cohort.csv")
	os.MkdirAll(filepath.Dir(deep), 0o755)
	os.WriteFile(deep, []byte(table(20, 30, nil)), 0o644)
	refused("predict into a folder holding the cohort", deep, filepath.Join(dir, "deep-cohort"), "predict", "--model", model, "--data", deep, "-o", filepath.Join(dir, "deep"))
	// shards: merge into one of them
	s1, s2 := filepath.Join(dir, "s1"), filepath.Join(dir, "s2")
	for i, s := range []string{s1, s2} {
		if code, errs := cmd("run", cfg, "--shard", []string{"1/2", "2/2"}[i], "-o", s); code != 0 {
			t.Fatal(errs)
		}
	}
	refused("merge into a shard", s1, s1+"-merged", "merge", s1, s2, "-o", s1)
	if code, errs := cmd("merge", s1, s2, "-o", s1+"-merged"); code != 0 {
		t.Fatalf("the folder offered: %s", errs)
	}
}

// TestChangedRunIsRefused: one digit of a saved run changed (a damaged copy, a sync
// conflict, an edit) and signature refuses it, saying what to do; it had built another
// ROC from it without a word.
func TestChangedRunIsRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := smallStudy(t, dir)
	run := filepath.Join(dir, "run")
	if code, _, errs := runMain(t, []string{"run", cfg, "-o", run}, 2*time.Minute); code != 0 {
		t.Fatal(errs)
	}
	result := filepath.Join(run, "result.json")
	b, _ := os.ReadFile(result)
	i := bytes.Index(b, []byte(`"scores":`))
	j := i + bytes.IndexAny(b[i:], "23456789")
	b[j] = '1'
	os.WriteFile(result, b, 0o644)
	code, _, errs := runMain(t, []string{"signature", result, "--k", "6", "-o", filepath.Join(dir, "sig")}, 2*time.Minute)
	if code != 2 || !strings.Contains(errs, "changed since Steadfast wrote it") || !strings.Contains(errs, "Open the original") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "sig")); err == nil {
		t.Error("a signature was written from the changed run")
	}
}
