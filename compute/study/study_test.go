package study

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
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

// TestLoadRunRefusesDamagedRuns: a saved run whose content is inconsistent (written so
// by another program, its digest set to match) or cut short is refused with a reason,
// never opened to crash a figure later.
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
		out, err := seal(s)
		if err != nil {
			t.Fatal(err)
		}
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
		{"group without members", "has no members", edit(func(s *Saved) {
			s.Result.Methods[0].Reference.Groups = [][]int{{1}, {}}
		})},
		{"relevances for other groups", "relevances for", edit(func(s *Saved) {
			s.Result.Methods[0].Reference.Groups = [][]int{{1}, {2}}
			s.Result.Methods[0].Reference.Relevance = []float64{1}
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

// TestWriteFolderIsAllOrNothing: a failed or cancelled write leaves the earlier output
// untouched and no temporary folder; a folder of the user's own files is never replaced.
func TestWriteFolderIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	ctx := context.Background()
	write := func(name string) func(string) error {
		return func(tmp string) error { return os.WriteFile(filepath.Join(tmp, name), []byte(name), 0o644) }
	}
	if err := WriteFolder(ctx, Output{Dir: out}, write("first.csv")); err != nil {
		t.Fatal(err)
	}
	failing := func(tmp string) error {
		os.WriteFile(filepath.Join(tmp, "half.csv"), nil, 0o644)
		return errors.New("disk full")
	}
	if err := WriteFolder(ctx, Output{Dir: out}, failing); err == nil || err.Error() != "disk full" {
		t.Fatalf("failing write: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := WriteFolder(cancelled, Output{Dir: out}, write("late.csv")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled write: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "first.csv")); err != nil {
		t.Error("the earlier output is gone after a failed write")
	}
	if err := WriteFolder(ctx, Output{Dir: out}, write("second.csv")); err != nil {
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
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	mine := filepath.Join(dir, "mine")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "thesis.docx"), []byte("x"), 0o644)
	if err := WriteFolder(ctx, Output{Dir: mine}, write("a.csv")); err == nil {
		t.Error("a folder of the user's files was replaced")
	}
	if _, err := os.Stat(filepath.Join(mine, "thesis.docx")); err != nil {
		t.Error("the user's file is gone")
	}
}

// TestWriteFolderKeepsWhatTheUserAdded: an earlier output to which the user added a
// file, or in which they changed one, is not replaced (it had been, whole, when it held
// result.json), and the refusal names the file.
func TestWriteFolderKeepsWhatTheUserAdded(t *testing.T) {
	ctx := context.Background()
	write := func(tmp string) error {
		os.Mkdir(filepath.Join(tmp, "sub"), 0o755)
		os.WriteFile(filepath.Join(tmp, "sub", "b.csv"), []byte("b"), 0o644)
		return os.WriteFile(filepath.Join(tmp, "result.json"), []byte("{}"), 0o644)
	}
	for name, touch := range map[string]func(out string){
		"a note added":          func(out string) { os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644) },
		"a note in a subfolder": func(out string) { os.WriteFile(filepath.Join(out, "sub", "notes.txt"), []byte("mine"), 0o644) },
		"a folder added":        func(out string) { os.Mkdir(filepath.Join(out, "data"), 0o755) },
		"result.json edited":    func(out string) { os.WriteFile(filepath.Join(out, "result.json"), []byte(`{"mine":1}`), 0o644) },
		"no marker":             func(out string) { os.Remove(filepath.Join(out, marker)) },
		"an earlier version's marker": func(out string) {
			os.WriteFile(filepath.Join(out, marker), []byte("Written by Steadfast 0.0.9. Steadfast replaces this folder as a whole.\n"), 0o644)
		},
	} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if err := WriteFolder(ctx, Output{Dir: out}, write); err != nil {
				t.Fatal(err)
			}
			if err := WriteFolder(ctx, Output{Dir: out}, write); err != nil {
				t.Fatalf("an untouched earlier output is not replaced: %v", err)
			}
			touch(out)
			before, _ := scanFolder(out, nil)
			err := WriteFolder(ctx, Output{Dir: out}, write)
			if err == nil || !strings.Contains(err.Error(), "choose a new or empty") {
				t.Fatalf("replaced: %v", err)
			}
			after, _ := scanFolder(out, nil)
			if len(before) != len(after) {
				t.Errorf("the folder changed: %v -> %v", before, after)
			}
			for p, sum := range before {
				if after[p] != sum {
					t.Errorf("%s changed", p)
				}
			}
		})
	}
}

// TestWriteFolderTakesLongNames: a folder name of 250 characters (the temporary name
// had added 13 and failed).
func TestWriteFolderTakesLongNames(t *testing.T) {
	out := filepath.Join(t.TempDir(), strings.Repeat("a", 250))
	write := func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "a.csv"), nil, 0o644) }
	for i := 0; i < 2; i++ {
		if err := WriteFolder(context.Background(), Output{Dir: out}, write); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWriteFilesLeavesOtherWorkAlone: files written again replace only themselves; what
// lies in the kept folders stays.
func TestWriteFilesLeavesOtherWorkAlone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "job")
	files := map[string][]byte{"a.sh": []byte("a")}
	if err := WriteFiles(dir, files, []string{"logs"}, []string{"logs", "shards"}, nil); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "shards", "1"), 0o755)
	os.WriteFile(filepath.Join(dir, "shards", "1", "shard.gob.gz"), []byte("s"), 0o644)
	os.WriteFile(filepath.Join(dir, "logs", "shard-1.log"), []byte("l"), 0o644)
	files["a.sh"] = []byte("a2")
	if err := WriteFiles(dir, files, []string{"logs"}, []string{"logs", "shards"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"shards/1/shard.gob.gz", "logs/shard-1.log"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s is gone", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.sh")); string(b) != "a2" {
		t.Errorf("a.sh holds %q", b)
	}
	os.WriteFile(filepath.Join(dir, "a.sh"), []byte("edited"), 0o644)
	if err := WriteFiles(dir, files, nil, []string{"logs", "shards"}, nil); err == nil {
		t.Error("a script the user edited was replaced")
	}
}

func TestLoadShardTakesFolderOrFile(t *testing.T) {
	dir := t.TempDir()
	sh := &experiment.Shard{Version: experiment.Version, I: 1, N: 1, Units: 0}
	if err := SaveShard(context.Background(), Output{Dir: filepath.Join(dir, "s")}, sh); err != nil {
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

// The share done passed on never goes back within a stage: the command-line
// study showed 48% at 98/202, then 37% at 106/202 when SVM-RFE's first measured ranking
// replaced its prior. The held share is passed on until the estimate passes it; a new
// stage starts again from its own share.
func TestThrottleShareNeverGoesBack(t *testing.T) {
	var got []float64
	th := NewThrottle(func(p experiment.Progress) { got = append(got, p.Fraction) }, 0)
	for _, p := range []experiment.Progress{
		{Done: 90, Total: 202, Stage: "Ranking", Fraction: 0.45},
		{Done: 98, Total: 202, Stage: "Ranking", Fraction: 0.48},
		{Done: 106, Total: 202, Stage: "Ranking", Fraction: 0.37},
		{Done: 150, Total: 202, Stage: "Ranking", Fraction: 0.52},
		{Done: 1, Total: 4, Stage: "Summary"},
		{Done: 4, Total: 4, Stage: "Summary"},
	} {
		th.Report(p)
	}
	want := []float64{0.45, 0.48, 0.48, 0.52, 0.25, 1}
	if !slices.Equal(got, want) {
		t.Errorf("shares passed on %v, want %v", got, want)
	}
}

// TestSavedRunDigest: a saved run carries the SHA-256 of its bytes (with the digest's
// digits as zeros, checked here with crypto/sha256 directly); one digit changed in a
// decision value, an edit that keeps the JSON valid, or a digest moved or damaged, is
// refused as changed since Steadfast wrote it; a run saved before digests is read with a
// note.
func TestSavedRunDigest(t *testing.T) {
	res := smallRun(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "result.json")
	if err := SaveRun(good, res, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(good)
	if !bytes.HasPrefix(b, []byte(`{"sha256":"`)) {
		t.Fatalf("the digest is not first: %.80s", b)
	}
	zeroed := slices.Clone(b)
	copy(zeroed[11:75], strings.Repeat("0", 64))
	if sum := sha256.Sum256(zeroed); hex.EncodeToString(sum[:]) != string(b[11:75]) {
		t.Errorf("digest %s, sha256 of the zeroed file %x", b[11:75], sum)
	}
	s, err := LoadRun(good)
	if err != nil || s.Note != "" {
		t.Fatalf("the run as saved: %v, note %q", err, s.Note)
	}
	// one digit of a decision value (a score of the first classifier's first unit)
	i := bytes.Index(b, []byte(`"scores":`))
	if i < 0 {
		t.Fatal("no scores in the saved run")
	}
	j := i + bytes.IndexAny(b[i:], "123456789")
	digit := b[j]
	other := byte('1')
	if digit == '1' {
		other = '2'
	}
	changes := map[string][]byte{
		"a decision value's digit": append(append(slices.Clone(b[:j]), other), b[j+1:]...),
		"a setting edited":         bytes.Replace(b, []byte(`"seed":`), []byte(`"seed":1`), 1),
		"the digest damaged":       append([]byte(`{"sha256":"`+otherHex(b[11])), b[12:]...),
		"the digest moved":         append([]byte(`{"config":{},`), bytes.Replace(b[1:], []byte(`,"config"`), []byte(`,"cfg"`), 1)...),
		"pretty-printed":           indent(t, b),
	}
	for name, changed := range changes {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		os.WriteFile(path, changed, 0o644)
		_, err := LoadRun(path)
		if err == nil || !strings.Contains(err.Error(), "changed since Steadfast wrote it") || !strings.Contains(err.Error(), "run the study again") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// before digests: the same run without its digest
	var old map[string]json.RawMessage
	json.Unmarshal(b, &old)
	delete(old, "sha256")
	ob, _ := json.Marshal(old)
	path := filepath.Join(dir, "old.json")
	os.WriteFile(path, ob, 0o644)
	s, err = LoadRun(path)
	if err != nil || !strings.Contains(s.Note, "before saved runs carried a SHA-256") {
		t.Errorf("a run saved before digests: %v, note %q", err, s.Note)
	}
	// its configuration is still read for run CONFIG
	if _, err := LoadConfig(good); err != nil {
		t.Errorf("a saved run's configuration: %v", err)
	}
}

// otherHex is a hex digit other than c (a digest's digit changed whatever it was; "f"
// alone had left a digest starting with f as it was).
func otherHex(c byte) string {
	if c == 'f' {
		return "0"
	}
	return "f"
}

// indent is b pretty-printed: the same JSON, other bytes.
func indent(t *testing.T, b []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
