package study

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/synth"
)

// smallRun runs the F-statistic under DRAGS 2008 on 40 synthetic samples.
func smallRun(t *testing.T) *experiment.Result {
	t.Helper()
	ds, _ := synth.Generate(synth.D1k, 40, 1, 0)
	cfg := experiment.DefaultConfig()
	cfg.Methods = []method.Spec{{Name: "fstat"}}
	cfg.Protocol = experiment.DRAGS2008
	cfg.Classifiers = []string{"svm"}
	res, err := Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestLoadRunRefusesDamagedRuns: a saved run edited by hand or cut short is refused with
// a reason, never opened to crash a figure later.
func TestLoadRunRefusesDamagedRuns(t *testing.T) {
	res := smallRun(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := SaveRun(good, res, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRun(good); err != nil {
		t.Fatalf("the run as saved: %v", err)
	}
	b, _ := os.ReadFile(good)
	edit := func(change func(s *Saved)) []byte {
		var s Saved
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		change(&s)
		out, _ := json.Marshal(s)
		return out
	}
	p := len(res.Data.Features)
	for _, tc := range []struct {
		name, want string
		file       []byte
	}{
		{"feature out of range", "outside 1..", edit(func(s *Saved) { s.Result.Methods[0].Reference.Order[0] = p + 5 })},
		{"negative feature", "outside 1..", edit(func(s *Saved) { s.Result.Methods[0].Runs[2].Order[1] = -1 })},
		{"no methods", "no methods", edit(func(s *Saved) { s.Result.Methods = nil })},
		{"empty feature list", "empty feature list", edit(func(s *Saved) { s.Result.Methods[0].Reference.Order = nil })},
		{"feature twice", "listed twice", edit(func(s *Saved) { o := s.Result.Methods[0].Reference.Order; o[1] = o[0] })},
		{"no features", "no features", edit(func(s *Saved) { s.Result.Data.Features = nil })},
		{"methods disagree", "names 2 methods", edit(func(s *Saved) {
			s.Result.Config.Methods = append(s.Result.Config.Methods, method.Spec{Name: "relieff"})
		})},
		{"top feature out of range", "top feature", edit(func(s *Saved) { s.Result.Methods[0].Top[0].Feature = p })},
		{"no result", "no results", []byte(`{"config":{"methods":[{"name":"fstat"}]}}`)},
		{"cut short", "not a saved Steadfast run", b[:len(b)/2]},
		{"not JSON", "line 1", []byte("this is not json")},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
		os.WriteFile(path, tc.file, 0o644)
		if _, err := LoadRun(path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestThrottleNeverConcurrent: reports from many goroutines reach the callback one at a
// time, and the report of the work done always arrives.
func TestThrottleNeverConcurrent(t *testing.T) {
	var inside, calls atomic.Int32
	var last experiment.Progress
	th := NewThrottle(func(p experiment.Progress) {
		if inside.Add(1) != 1 {
			t.Error("two progress calls at once")
		}
		time.Sleep(50 * time.Microsecond)
		last = p
		calls.Add(1)
		inside.Add(-1)
	}, time.Millisecond)
	var wg sync.WaitGroup
	var done atomic.Int32
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				th.Report(experiment.Progress{Done: int(done.Add(1)), Total: 4000})
			}
		}()
	}
	wg.Wait()
	th.Flush()
	if last.Done != 4000 {
		t.Errorf("last report %d/4000", last.Done)
	}
	if n := calls.Load(); n >= 4000 {
		t.Errorf("%d calls for 4000 reports: not throttled", n)
	}
}

// TestWriteFolderIsAllOrNothing: a failed write leaves the earlier output untouched and
// no temporary folder; a folder of the user's own files is never replaced.
func TestWriteFolderIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	write := func(name string) func(string) error {
		return func(tmp string) error { return os.WriteFile(filepath.Join(tmp, name), []byte(name), 0o644) }
	}
	if err := WriteFolder(out, write("first.csv")); err != nil {
		t.Fatal(err)
	}
	failing := func(tmp string) error {
		os.WriteFile(filepath.Join(tmp, "half.csv"), nil, 0o644)
		return errors.New("disk full")
	}
	if err := WriteFolder(out, failing); err == nil || err.Error() != "disk full" {
		t.Fatalf("failing write: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "first.csv")); err != nil {
		t.Error("the earlier output is gone after a failed write")
	}
	if err := WriteFolder(out, write("second.csv")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != ".steadfast second.csv" {
		t.Errorf("after the second write: %v", names)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".out.*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	mine := filepath.Join(dir, "mine")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "thesis.docx"), []byte("x"), 0o644)
	if err := WriteFolder(mine, write("a.csv")); err == nil {
		t.Error("a folder of the user's files was replaced")
	}
	if _, err := os.Stat(filepath.Join(mine, "thesis.docx")); err != nil {
		t.Error("the user's file is gone")
	}
}

func TestLoadShardTakesFolderOrFile(t *testing.T) {
	dir := t.TempDir()
	sh := &experiment.Shard{Version: experiment.Version, I: 1, N: 1, Units: 0}
	if err := SaveShard(filepath.Join(dir, "s"), sh); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "s"), filepath.Join(dir, "s", ShardFile)} {
		if got, err := LoadShard(p); err != nil || got.I != 1 {
			t.Errorf("%s: %v, %v", p, got, err)
		}
	}
	other := filepath.Join(dir, "notes.txt")
	os.WriteFile(other, []byte("x"), 0o644)
	if _, err := LoadShard(other); err == nil || !strings.Contains(err.Error(), "is a file, not a shard's folder") {
		t.Errorf("a text file: %v", err)
	}
	if _, err := LoadShard(dir); err == nil || !strings.Contains(err.Error(), "holds no shard") {
		t.Errorf("a folder without a shard: %v", err)
	}
}
