package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileName is an output folder name a shell, sbatch or Snakemake would misread if
// any generated script left it unquoted: quotes, a command substitution, an apostrophe,
// a Slurm pattern character and blanks.
const hostileName = `study "v2" $(touch PWNED) it's 50%a`

// smallStudy writes a 20-sample table and an F-statistic configuration into dir and
// returns the configuration's path.
func smallStudy(t *testing.T, dir string) string {
	t.Helper()
	os.WriteFile(filepath.Join(dir, "d.csv"), []byte(table(20, 30, nil)), 0o644)
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(strings.ReplaceAll(cfgHead+"}", "{dir}", dir)), 0o644)
	return cfg
}

// TestRunKeepsFilesTheUserAdded: a file the user put into an earlier output folder
// (notes, the data) makes a new run refuse that folder, before computing, and the file
// stays; the earlier run had deleted it with the folder.
func TestRunKeepsFilesTheUserAdded(t *testing.T) {
	dir := t.TempDir()
	cfg := smallStudy(t, dir)
	out := filepath.Join(dir, "out")
	if code, _, errs := runMain(t, []string{"run", cfg, "-o", out}, time.Minute); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runMain(t, []string{"run", cfg, "-o", out}, time.Minute); code != 0 {
		t.Fatalf("an untouched earlier output is not replaced: %s", errs)
	}
	notes := filepath.Join(out, "notes.txt")
	os.WriteFile(notes, []byte("my notes"), 0o644)
	code, _, errs := runMain(t, []string{"run", cfg, "-o", out}, time.Minute)
	if code != 2 || !strings.Contains(errs, "notes.txt") || strings.Contains(errs, "%") {
		t.Errorf("exit %d (want 2, refused before computing): %s", code, errs)
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "my notes" {
		t.Errorf("the user's notes: %q, %v", b, err)
	}
}

// TestSignalWhileWritingFiguresStops: SIGTERM (or Ctrl-C) while the figures are being
// written stops the run with exit 130, writes no output folder and leaves no temporary
// folder behind (the run had gone on for up to 50 s and exited 0).
func TestSignalWhileWritingFiguresStops(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cfg := smallStudy(t, dir)
			figures := 0
			beforeFigure = func() {
				if figures++; figures == 2 {
					syscall.Kill(os.Getpid(), sig)
					time.Sleep(200 * time.Millisecond) // the signal is delivered
				}
			}
			defer func() { beforeFigure = func() {} }()
			code, _, errs := runMain(t, []string{"run", cfg, "-o", filepath.Join(dir, "out")}, time.Minute)
			if code != 130 || !strings.Contains(errs, "interrupted; nothing was written") {
				t.Errorf("exit %d: %s", code, errs)
			}
			if figures != 2 {
				t.Errorf("%d figures begun after the signal at the second", figures-2)
			}
			left, _ := os.ReadDir(dir)
			for _, e := range left {
				if e.Name() != "d.csv" && e.Name() != "c.json" {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// TestSynthKeepsAnExistingFile: synth -o FILE refuses a file that exists (it had
// replaced it without asking).
func TestSynthKeepsAnExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.csv")
	os.WriteFile(path, []byte("my data"), 0o644)
	code, _, errs := runMain(t, []string{"synth", "--samples", "20", "-o", path}, time.Minute)
	if code != 2 || !strings.Contains(errs, "exists") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(path); string(b) != "my data" {
		t.Error("the file was replaced")
	}
}

// TestSizesBeyondMemoryAreRefused: sizes that would exhaust memory are refused with
// the estimate, before anything is allocated (synth 1e6 x 1e6, a sample-size study of
// 100,000 samples of the d5k preset, a poster at 2400 dpi).
func TestSizesBeyondMemoryAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"synth", "--features", "1000000", "--samples", "1000000", "-o", filepath.Join(dir, "s.csv")}, "would need about"},
		{[]string{"samplesize", "--preset", "d5k", "--sizes", "100000", "--methods", "fstat"}, "would need about"},
		{[]string{"run", smallStudy(t, dir), "-o", filepath.Join(dir, "o"), "--width", "200", "--height", "200", "--dpi", "2400"}, "million pixels"},
	} {
		code, _, errs := runMain(t, tc.args, time.Minute)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d: %s", tc.args[0], code, errs)
		}
	}
}

// TestSlurmAgainKeepsShardsAndResult: slurm -o DIR run again (another --time) rewrites
// its scripts and keeps the finished shards, the logs and the merged result; a folder
// holding another study's shards is refused.
func TestSlurmAgainKeepsShardsAndResult(t *testing.T) {
	dir := t.TempDir()
	cfg := smallStudy(t, dir)
	job := filepath.Join(dir, "job")
	mustRun(t, "slurm", cfg, "-o", job, "--tasks", "2", "--binary", "/opt/steadfast")
	mustRun(t, "run", filepath.Join(job, "config.json"), "--shard", "1/2", "-o", filepath.Join(job, "shards", "1"))
	mustRun(t, "run", filepath.Join(job, "config.json"), "--shard", "2/2", "-o", filepath.Join(job, "shards", "2"))
	mustRun(t, "merge", filepath.Join(job, "shards", "1"), filepath.Join(job, "shards", "2"), "-o", filepath.Join(job, "result"))
	os.WriteFile(filepath.Join(job, "logs", "shard-1.log"), []byte("log"), 0o644)
	mustRun(t, "slurm", cfg, "-o", job, "--tasks", "2", "--binary", "/opt/steadfast", "--time", "9:00:00")
	for _, p := range []string{"shards/1/shard.gob.gz", "shards/2/shard.gob.gz", "result/result.json", "logs/shard-1.log"} {
		if _, err := os.Stat(filepath.Join(job, p)); err != nil {
			t.Errorf("%s is gone", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(job, "shards.sbatch")); !strings.Contains(string(b), `--time="9:00:00"`) {
		t.Error("the scripts were not rewritten")
	}
	other := strings.Replace(strings.ReplaceAll(cfgHead+"}", "{dir}", dir), `"seed":1`, `"seed":2`, 1)
	os.WriteFile(filepath.Join(dir, "other.json"), []byte(other), 0o644)
	code, _, errs := runMain(t, []string{"slurm", filepath.Join(dir, "other.json"), "-o", job, "--tasks", "2"}, time.Minute)
	if code != 2 || !strings.Contains(errs, "finished shards of another configuration") {
		t.Errorf("another study into the job folder: exit %d: %s", code, errs)
	}
}

// TestSlurmScriptsQuoteHostileNames: with an output folder named hostileName, submit.sh
// runs no command from the name and hands sbatch the right paths (checked with a
// stand-in sbatch that records its arguments), every script is valid shell, and the
// #SBATCH lines read back (as sbatch splits them) give the folder's paths.
func TestSlurmScriptsQuoteHostileNames(t *testing.T) {
	dir := t.TempDir()
	cfg := smallStudy(t, dir)
	job := filepath.Join(dir, hostileName)
	mustRun(t, "slurm", cfg, "-o", job, "--tasks", "2", "--binary", filepath.Join(dir, "bin it's", "steadfast"))
	bin := filepath.Join(dir, "fakebin")
	os.Mkdir(bin, 0o755)
	record := filepath.Join(dir, "sbatch-args")
	os.WriteFile(filepath.Join(bin, "sbatch"), []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> \""+record+"\"; done\necho 42\n"), 0o755)
	cmd := exec.Command("sh", filepath.Join(job, "submit.sh"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("submit.sh: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Fatal("submit.sh ran the command in the folder's name")
	}
	args, _ := os.ReadFile(record)
	for _, want := range []string{filepath.Join(job, "shards.sbatch"), filepath.Join(job, "merge.sbatch")} {
		if !strings.Contains(string(args), "\n"+want+"\n") && !strings.HasPrefix(string(args), want+"\n") {
			t.Errorf("sbatch was not given %q:\n%s", want, args)
		}
	}
	if !strings.Contains(string(out), "result in "+filepath.Join(job, "result")) {
		t.Errorf("submit.sh says %q", out)
	}
	for _, s := range []string{"shards.sbatch", "merge.sbatch", "submit.sh"} {
		if msg, err := exec.Command("bash", "-n", filepath.Join(job, s)).CombinedOutput(); err != nil {
			t.Errorf("%s is not valid shell: %s", s, msg)
		}
	}
	b, _ := os.ReadFile(filepath.Join(job, "shards.sbatch"))
	got := sbatchOption(string(b), "--output")
	if want := strings.ReplaceAll(filepath.Join(job, "logs"), "%", "%%") + "/shard-%a.log"; got != want {
		t.Errorf("#SBATCH --output reads back as %q, want %q", got, want)
	}
}

// sbatchOption reads the value of an #SBATCH option as sbatch's parser
// (_get_argument in Slurm's src/sbatch/opt.c) does: it stops at a blank unless within
// quotes, even after a backslash; otherwise a backslash escapes the next character,
// quotes group and an unquoted # ends the line.
func sbatchOption(script, name string) string {
	for _, l := range strings.Split(script, "\n") {
		rest, ok := strings.CutPrefix(l, "#SBATCH "+name+"=")
		if !ok {
			continue
		}
		var b strings.Builder
		var quote rune
		escaped := false
		for _, r := range rest {
			if quote == 0 && (r == ' ' || r == '\t') {
				break
			}
			switch {
			case escaped:
				escaped = false
			case r == '\\':
				escaped = true
				continue
			case quote != 0 && r == quote:
				quote = 0
				continue
			case quote != 0:
			case r == '"' || r == '\'':
				quote = r
				continue
			case r == '#':
				return b.String()
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	return ""
}
