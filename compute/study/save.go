package study

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

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
	b = dataset.Text(b)
	name := filepath.Base(path)
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return experiment.Config{}, fmt.Errorf("%s: not a Steadfast configuration (%v)", name, jsonError(b, err))
	}
	cfg := experiment.DefaultConfig()
	raw := b
	if c, ok := probe["config"]; ok {
		raw = c
		for key := range probe {
			if key != "config" && key != "result" && key != "tools" {
				return cfg, fmt.Errorf("%s: a saved run holds \"config\", \"result\" and \"tools\", not %q: move that setting into \"config\" (it would have been ignored)", name, key)
			}
		}
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
	b = dataset.Text(b)
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
