package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"steadfast/compute/study"
)

// colonStudy writes a configuration of a 2 x 10-fold CV study on the real Colon set
// with the methods given (JSON), ranking the 300 most variable genes of each training
// set, and returns its path.
func colonStudy(t *testing.T, dir, methods string) string {
	t.Helper()
	data, err := filepath.Abs(filepath.Join(sharedData, "colon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(data); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	cfg := fmt.Sprintf(`{"dataPath": %q, "methods": [%s], "topVariance": 300,
		"protocol": "cv10x10", "repeats": 2, "ks": [1, 2, 5, 10, 20], "classifiers": ["svm", "1nn"], "seed": 7}`, data, methods)
	path := filepath.Join(dir, "colon.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runNumbers is a written run's result.json with its timings zeroed.
func runNumbers(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	delete(v, "sha256") // of the bytes, timings included
	res := v["result"].(map[string]any)
	res["seconds"] = 0
	for _, c := range []any{v["config"], res["config"]} {
		c.(map[string]any)["workers"] = 0
	}
	for _, m := range res["methods"].([]any) {
		m.(map[string]any)["seconds"] = 0
		m.(map[string]any)["predictSeconds"] = 0
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	var out, errw bytes.Buffer
	if code := Main(args, &out, &errw); code != 0 {
		t.Fatalf("steadfast %s: exit %d: %s", strings.Join(args, " "), code, errw.String())
	}
	return out.String()
}

func TestShardAndMergeEqualOneRunOnColon(t *testing.T) {
	dir := t.TempDir()
	// a single-gene ranker, an SVM ranker and a group method: every kind of output
	cfg := colonStudy(t, dir, `{"name": "fstat"}, {"name": "svmrfe"}, {"name": "drags"}`)
	single := filepath.Join(dir, "single")
	mustRun(t, "run", cfg, "-o", single, "--dpi", "30") // small PNGs: the numbers are what is compared
	want := runNumbers(t, single)
	for _, n := range []int{1, 3, 7} {
		var shards []string
		for k := 0; k < n; k++ {
			i := (k*3)%n + 1 // shards run out of order
			if n == 3 {
				i = n - k
			}
			sd := filepath.Join(dir, fmt.Sprintf("n%d-shard%d", n, i))
			mustRun(t, "run", cfg, "--shard", fmt.Sprintf("%d/%d", i, n), "-o", sd)
			shards = append(shards, sd)
		}
		merged := filepath.Join(dir, fmt.Sprintf("merged%d", n))
		mustRun(t, append(append([]string{"merge"}, shards...), "-o", merged, "--dpi", "30")...)
		if got := runNumbers(t, merged); got != want {
			t.Errorf("%d shards: merged result.json differs from the single run's", n)
		}
		csvs, _ := filepath.Glob(filepath.Join(single, "*.csv"))
		if len(csvs) < 10 {
			t.Fatalf("the single run wrote %d CSV files", len(csvs))
		}
		for _, f := range csvs {
			a, _ := os.ReadFile(f)
			b, err := os.ReadFile(filepath.Join(merged, filepath.Base(f)))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%d shards: %s differs (%v)", n, filepath.Base(f), err)
			}
		}
		if _, err := study.LoadRun(filepath.Join(merged, "result.json")); err != nil {
			t.Errorf("the window cannot open the merged run: %v", err)
		}
	}
}

func TestMergeCommandRefusesIncompleteShards(t *testing.T) {
	dir := t.TempDir()
	cfg := colonStudy(t, dir, `{"name": "fstat"}`)
	for i := 1; i <= 2; i++ {
		mustRun(t, "run", cfg, "--shard", fmt.Sprintf("%d/3", i), "-o", filepath.Join(dir, fmt.Sprint(i)))
	}
	one, two := filepath.Join(dir, "1"), filepath.Join(dir, "2")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", one, two, "-o", filepath.Join(dir, "out")}, "1 of the 3 shards is missing (3)"},
		{[]string{"merge", one, two, one, "-o", filepath.Join(dir, "out")}, "shard 1/3 is given twice: " + one + " and " + one},
		{[]string{"merge", dir, "-o", filepath.Join(dir, "out")}, "holds no shard"},
		{[]string{"merge", one, two, "--data", filepath.Join(sharedData, "srbct.csv"), "-o", filepath.Join(dir, "out")}, "other data"},
		{[]string{"run", cfg, "--shard", "4/3", "-o", filepath.Join(dir, "x")}, "1 <= I <= N"},
		{[]string{"run", cfg, "--shard", "1/5000", "-o", filepath.Join(dir, "x")}, "only 21 units"},
	} {
		var out, errw bytes.Buffer
		code := Main(tc.args, &out, &errw)
		if code != 2 || !strings.Contains(errw.String(), tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errw.String(), tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("a refused merge wrote its output folder")
	}
}

func TestSlurmCommandWritesRunnableScripts(t *testing.T) {
	dir := t.TempDir()
	cfg := colonStudy(t, dir, `{"name": "fstat"}, {"name": "svmrfe"}, {"name": "drags"}`)
	job := filepath.Join(dir, "job with space")
	out := mustRun(t, "slurm", cfg, "-o", job, "--tasks", "4", "--partition", "short", "--mem", "2G", "--cpus", "3", "--binary", "/opt/steadfast-headless")
	if !strings.Contains(out, "shards.sbatch") {
		t.Errorf("output %q does not list the scripts", out)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(job, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	shards, merge := read("shards.sbatch"), read("merge.sbatch")
	for _, want := range []string{"#SBATCH --array=1-4", `#SBATCH --partition="short"`, `#SBATCH --mem="2G"`, "#SBATCH --cpus-per-task=3",
		`'/opt/steadfast-headless' run '` + job + `/config.json' --shard "${SLURM_ARRAY_TASK_ID}/4"`} {
		if !strings.Contains(shards, want) {
			t.Errorf("shards.sbatch lacks %q:\n%s", want, shards)
		}
	}
	if !strings.Contains(merge, "merge '"+job+"/shards/1' '"+job+"/shards/2' '"+job+"/shards/3' '"+job+"/shards/4' -o '"+job+"/result'") {
		t.Errorf("merge.sbatch does not merge the four shards:\n%s", merge)
	}
	if !strings.Contains(read("submit.sh"), "--dependency=afterok:") {
		t.Error("submit.sh does not make the merge wait for the shards")
	}
	for _, s := range []string{"shards.sbatch", "merge.sbatch", "submit.sh"} {
		if msg, err := exec.Command("bash", "-n", filepath.Join(job, s)).CombinedOutput(); err != nil {
			t.Errorf("%s is not valid shell: %s", s, msg)
		}
	}
	saved, err := study.LoadConfig(filepath.Join(job, "config.json"))
	if err != nil || saved.Workers != 3 || !filepath.IsAbs(saved.DataPath) {
		t.Errorf("config.json: %+v, %v; want 3 workers and an absolute data path", saved, err)
	}
	var stdout, errw bytes.Buffer
	if code := Main([]string{"slurm", cfg, "-o", filepath.Join(dir, "j2"), "--tasks", "64"}, &stdout, &errw); code != 2 || !strings.Contains(errw.String(), "only 63 units") {
		t.Errorf("64 tasks for 63 units: exit %d, %q", code, errw.String())
	}
}

func TestSlurmTimeAndMemory(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int // minutes, 0 refused
	}{{"90", 90}, {"1:30", 2}, {"2:00:00", 120}, {"1-12", 2160}, {"1-0:30", 1470}, {"0:30:01", 31}, {"two hours", 0}, {"", 0}, {"1:2:3:4", 0}} {
		got, err := parseSlurmTime(tc.in)
		if got != tc.want || (err != nil) != (tc.want == 0) {
			t.Errorf("--time %q: %d minutes, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want int // MB, 0 refused
	}{{"4G", 4096}, {"4000M", 4000}, {"4000", 4000}, {"1t", 1048576}, {"512K", 1}, {"4GB", 0}, {"-1G", 0}, {"", 0}} {
		got, err := parseMemory(tc.in)
		if got != tc.want || (err != nil) != (tc.want == 0) {
			t.Errorf("--mem %q: %d MB, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}
