package study

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
)

// Saved is the JSON file of a run: its configuration and, once run, its result.
// SHA256, written first, is the SHA-256 of the file's bytes with its 64 hex digits
// written as zeros (see SaveRun), so any change to the file is found when it is read.
type Saved struct {
	SHA256 string             `json:"sha256,omitempty"`
	Config experiment.Config  `json:"config"`
	Result *experiment.Result `json:"result,omitempty"`
	Tools  *Tools             `json:"tools,omitempty"` // the window's tool results
	// Note says what reading assumed: a run saved before runs carried a digest.
	Note string `json:"-"`
}

// digestHead is how a saved run's file begins: its digest's 64 hex digits follow.
const digestHead = `{"sha256":"`

// zeroDigest stands for the digest while it is computed.
var zeroDigest = []byte(strings.Repeat("0", 2*sha256.Size))

// runDigest is the SHA-256 (hex) of b with the 64 digits after digestHead as zeros.
func runDigest(b []byte) string {
	h := sha256.New()
	h.Write(b[:len(digestHead)])
	h.Write(zeroDigest)
	h.Write(b[len(digestHead)+len(zeroDigest):])
	return hex.EncodeToString(h.Sum(nil))
}

// checkDigest verifies a saved run's bytes b against the digest they carry (s.SHA256,
// as decoded). A run without one, saved before Steadfast wrote digests, passes with a
// note; a digest that does not match, or is not where Steadfast writes it, fails.
func checkDigest(name string, b []byte, s *Saved) (note string, err error) {
	changed := fmt.Errorf("%s changed since Steadfast wrote it: its content no longer matches the SHA-256 it was saved with (a damaged copy, a sync conflict or an edit), so its numbers cannot be trusted. Open the original file, or run the study again (steadfast run %s -o NEWDIR runs its configuration anew)", name, name)
	end := len(digestHead) + len(zeroDigest)
	if !bytes.HasPrefix(b, []byte(digestHead)) || len(b) <= end || b[end] != '"' {
		if s.SHA256 != "" {
			return "", changed
		}
		return fmt.Sprintf("%s was saved by a Steadfast before saved runs carried a SHA-256 of their content, so it is read without the check that it is unchanged since it was written", name), nil
	}
	if string(b[len(digestHead):end]) != s.SHA256 || runDigest(b) != s.SHA256 {
		return "", changed
	}
	return "", nil
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
			if key != "config" && key != "result" && key != "tools" && key != "sha256" {
				return cfg, fmt.Errorf("%s: a saved run holds \"config\", \"result\" and \"tools\", not %q: move that setting into \"config\" (it would have been ignored)", name, key)
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("%s: %v", name, err)
	}
	if r, ok := probe["result"]; ok {
		keepFeatures(&cfg.Read, savedFeatures(r))
	}
	// methods and classifiers it does not name take the defaults of the data's outcome
	// (experiment.Config.ResolvedFor)
	var given map[string]json.RawMessage
	if json.Unmarshal(raw, &given) == nil {
		if _, ok := given["methods"]; !ok {
			cfg.Methods = nil
		}
		if _, ok := given["classifiers"]; !ok {
			cfg.Classifiers = nil
		}
		// log2 unsaid is decided by the data (dataset.DefaultLog2: a MaxQuant table's
		// unlogged intensities are logged)
		var prep map[string]json.RawMessage
		_, hasLog2 := given["prep"]
		if hasLog2 && json.Unmarshal(given["prep"], &prep) == nil {
			_, hasLog2 = prep["log2"]
			_, cpm := prep["logCPM"]
			hasLog2 = hasLog2 || cpm
		}
		cfg.Prep.Log2Unsaid = !hasLog2
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
// replacing path only once the whole file is written. The file carries its SHA-256:
// that of its bytes with the digest's 64 digits as zeros.
func SaveRun(path string, res *experiment.Result, tools *Tools) error {
	b, err := EncodeRun(res, tools)
	if err != nil {
		return err
	}
	return WriteFile(path, b)
}

// EncodeRun returns the bytes of a saved run's file, its digest set.
func EncodeRun(res *experiment.Result, tools *Tools) ([]byte, error) {
	return seal(Saved{Config: res.Config, Result: res, Tools: tools})
}

// seal returns s as a saved run's file, its digest set.
func seal(s Saved) ([]byte, error) {
	s.SHA256 = string(zeroDigest)
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, []byte(digestHead+string(zeroDigest)+`"`)) {
		panic("study: the saved run's digest is not written first")
	}
	copy(b[len(digestHead):], runDigest(b))
	return b, nil
}

// LoadRun reads a saved run and checks that its figures and tables can be drawn.
func LoadRun(path string) (*Saved, error) {
	b, err := dataset.ReadLimited(path, MaxRunFile)
	if err != nil {
		return nil, err
	}
	raw := b
	b = dataset.Text(b)
	name := filepath.Base(path)
	var s Saved
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: not a saved Steadfast run (%v)", name, jsonError(b, err))
	}
	if s.Result == nil {
		return nil, fmt.Errorf("%s: holds a configuration but no results; run it first", name)
	}
	if s.Note, err = checkDigest(name, raw, &s); err != nil {
		return nil, err
	}
	if err := s.Result.Check(); err != nil {
		return nil, fmt.Errorf("%s: damaged or edited saved run: %v", name, err)
	}
	if !s.Tools.check() {
		return nil, fmt.Errorf("%s: damaged or edited saved run: its tool results disagree in length", name)
	}
	keepRunFeatures(&s)
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
	defer begin(f.Name())()
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
