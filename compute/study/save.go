package study

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// Saved is the JSON file of a run: its configuration and, once run, its result.
type Saved struct {
	Config experiment.Config  `json:"config"`
	Result *experiment.Result `json:"result,omitempty"`
	Tools  *Tools             `json:"tools,omitempty"` // the window's tool results
}

// MaxRunFile is the largest configuration or saved run read (256 MB).
const MaxRunFile = 256 << 20

// LoadConfig reads a configuration file; a saved run's file works too (its
// configuration is taken). Unknown fields are refused, so a misspelt setting is not
// silently left at its default.
func LoadConfig(path string) (experiment.Config, error) {
	b, err := dataset.ReadLimited(path, MaxRunFile)
	if err != nil {
		return experiment.Config{}, err
	}
	name := filepath.Base(path)
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return experiment.Config{}, fmt.Errorf("%s: not a Steadfast configuration (%v)", name, jsonError(b, err))
	}
	cfg := experiment.DefaultConfig()
	raw := b
	if c, ok := probe["config"]; ok {
		raw = c
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("%s: %v", name, err)
	}
	return cfg, nil
}

// jsonError adds the line of a JSON syntax error.
func jsonError(b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset <= int64(len(b)) {
		return fmt.Errorf("line %d: %v", bytes.Count(b[:se.Offset], []byte("\n"))+1, err)
	}
	return err
}

// SaveRun writes a run (configuration, result and any tool results) as one JSON file,
// replacing path only once the whole file is written.
func SaveRun(path string, res *experiment.Result, tools *Tools) error {
	b, err := json.Marshal(Saved{Config: res.Config, Result: res, Tools: tools})
	if err != nil {
		return err
	}
	return WriteFile(path, b)
}

// LoadRun reads a saved run and checks that its figures and tables can be drawn.
func LoadRun(path string) (*Saved, error) {
	b, err := dataset.ReadLimited(path, MaxRunFile)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	var s Saved
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: not a saved Steadfast run (%v)", name, jsonError(b, err))
	}
	if s.Result == nil {
		return nil, fmt.Errorf("%s: holds a configuration but no results; run it first", name)
	}
	if err := s.Result.Check(); err != nil {
		return nil, fmt.Errorf("%s: damaged or edited saved run: %v", name, err)
	}
	if !s.Tools.check() {
		return nil, fmt.Errorf("%s: damaged or edited saved run: its tool results disagree in length", name)
	}
	return &s, nil
}

// WriteFile writes b to a new file beside path and renames it over path, so path holds
// either its earlier contents or all of b.
func WriteFile(path string, b []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %v", filepath.Base(path), err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// marker names the file that marks a folder as Steadfast's output.
const marker = ".steadfast"

// WriteFolder fills a new folder by write and puts it in dir's place only when write
// succeeds: dir holds either its earlier contents or the whole new output, never a mix.
// A dir that exists must be empty or an earlier Steadfast output (marked by a
// .steadfast file, or holding result.json), so a folder of other files is never replaced.
func WriteFolder(dir string, write func(tmp string) error) error {
	dir = filepath.Clean(dir)
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := checkOutputFolder(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".new-")
	if err != nil {
		return fmt.Errorf("cannot write beside %s: %v", dir, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := write(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	stamp := fmt.Sprintf("Written by Steadfast %s at %s. Steadfast replaces this folder as a whole when a new run is written to it.\n", experiment.Version, time.Now().Format(time.RFC3339))
	if err := os.WriteFile(filepath.Join(tmp, marker), []byte(stamp), 0o644); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return swapIn(tmp, dir)
}

// checkOutputFolder refuses a dir that is a file, or a folder holding files other than
// a Steadfast output.
func checkOutputFolder(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is a file, not a folder; choose a folder for the output", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	for _, name := range []string{marker, "result.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%s holds other files and is not an earlier Steadfast output; choose a new or empty folder so nothing of yours is replaced", dir)
}

// swapIn puts the folder tmp in dir's place, removing dir's earlier contents.
func swapIn(tmp, dir string) error {
	old := ""
	if _, err := os.Stat(dir); err == nil {
		o, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".old-")
		if err != nil {
			os.RemoveAll(tmp)
			return err
		}
		os.Remove(o)
		if err := os.Rename(dir, o); err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("cannot replace %s: %v", dir, err)
		}
		old = o
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		os.RemoveAll(tmp)
		return fmt.Errorf("cannot write %s (another run writing to it at the same time?): %v", dir, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}
