package study

import (
	"fmt"
	"os"
	"path/filepath"

	"steadfast/compute/dataset"
)

// Input is a file (or folder) an action reads: its data, configuration, saved run,
// shard, model, cohort or annotation. What says which, for the messages: "data file".
type Input struct {
	What, Path string
}

// Output is the folder an action writes, replaced as a whole (see WriteFolder), and
// the files the action reads: the folder must not be one of them, nor hold one at any
// depth, or writing it would delete what the action was given.
type Output struct {
	Dir   string
	Reads []Input
	// Beside is the suffix of the folder offered instead when Dir is refused: with
	// "signature", RUN-signature beside RUN.
	Beside string
}

// Check refuses o before any work starts: when Dir is or holds an input, or holds
// anything Steadfast did not write there (Replaceable).
func (o Output) Check() error {
	if in, ok := o.holds(); ok {
		return fmt.Errorf("%s holds %s, the %s this command reads, and the output replaces that folder as a whole: it would be lost. Write the output beside it instead, for example -o %s",
			o.Dir, in.Path, in.What, o.offer())
	}
	return Replaceable(filepath.Clean(o.Dir), nil)
}

// holds returns the first input that is Dir or lies under it, following links.
func (o Output) holds() (Input, bool) {
	st, err := os.Stat(o.Dir)
	if err != nil {
		return Input{}, false // nothing there yet: it holds no input
	}
	for _, in := range o.Reads {
		if under(in.Path, st) {
			return in, true
		}
	}
	return Input{}, false
}

// under reports whether path, or the file a link on its way points to, is the folder
// st or lies under it at any depth.
func under(path string, st os.FileInfo) bool {
	if path == "" || IsAccession(path) {
		return false
	}
	paths := []string{path}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		paths = append(paths, real)
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		for q := abs; ; q = filepath.Dir(q) {
			if qs, err := os.Stat(q); err == nil && os.SameFile(qs, st) {
				return true
			}
			if filepath.Dir(q) == q {
				break
			}
		}
	}
	return false
}

// offer is a folder beside Dir that Check would accept: Dir-Beside, else with a number.
func (o Output) offer() string {
	dir, beside := filepath.Clean(o.Dir), o.Beside
	if beside == "" {
		beside = "new"
	}
	base := dir + "-" + beside
	if filepath.Dir(dir) == dir { // a root: a folder in it
		base = filepath.Join(dir, "steadfast-"+beside)
	}
	for i := 1; i < 100; i++ {
		cand := base
		if i > 1 {
			cand = fmt.Sprintf("%s-%d", base, i)
		}
		c := Output{Dir: cand, Reads: o.Reads}
		if _, ok := c.holds(); !ok && Replaceable(cand, nil) == nil {
			return cand
		}
	}
	return base
}

// CheckFile refuses to write path when it is one of the files reads: a window action
// writes single files (a saved run, a figure and its CSV, a report, a table, a model),
// and none may take the place of what the window read.
func CheckFile(path string, reads []Input) error {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return nil // a new file replaces nothing; a folder is refused by the writer
	}
	for _, in := range reads {
		if in.Path == "" || IsAccession(in.Path) {
			continue
		}
		if is, err := os.Stat(in.Path); err == nil && os.SameFile(is, st) {
			return fmt.Errorf("%s is the %s Steadfast read for this window, and writing there would replace it; choose another name or folder", path, in.What)
		}
	}
	return nil
}

// DataInputs are the files that reading path with o reads: the data file (none for a
// GEO accession), its CLS and its annotation.
func DataInputs(path string, o dataset.Options) []Input {
	return []Input{{"data file", path}, {"class file", o.CLSPath}, {"annotation file", o.SymbolsPath}, {"design table", o.DesignPath}}
}
