package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestStructure checks the house rules of ../shared/DESIGN.md on the source itself:
// every file of code (tests aside) under 600 lines; compute imports nothing above it
// (no Fyne, plots, widgets, app or cli); widgets knows nothing of compute; plots no
// Fyne; and the two front ends (app, cli) reach the algorithms only through the study
// core and the result types, never an algorithm's own package (cli had imported
// compute/synth).
func TestStructure(t *testing.T) {
	algorithms := []string{"synth", "score", "group", "classify", "stability", "counts", "impute", "harmonize", "rstat", "parallel", "memlimit"}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata" || path == filepath.Join("internal", "clocale")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := strings.Count(string(b), "\n"); n > 600 {
			t.Errorf("%s: %d lines; split it by responsibility (600 at most)", path, n)
		}
		f, err := parser.ParseFile(fset, path, b, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		top := strings.SplitN(dir, "/", 2)[0]
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			bad := ""
			switch {
			case top == "compute" && (strings.HasPrefix(p, "fyne.io/") || strings.HasPrefix(p, "gonum.org/v1/plot") || p == "steadfast/plots" || p == "steadfast/widgets" || p == "steadfast/app" || p == "steadfast/cli"):
				bad = "compute imports nothing above it"
			case top == "widgets" && strings.HasPrefix(p, "steadfast/compute"):
				bad = "widgets know nothing of compute"
			case top == "plots" && strings.HasPrefix(p, "fyne.io/"):
				bad = "plots import no Fyne"
			case top == "app" || top == "cli":
				for _, a := range algorithms {
					if p == "steadfast/compute/"+a {
						bad = "the front ends go through compute/study"
					}
				}
			}
			if bad != "" {
				t.Errorf("%s imports %s: %s", path, p, bad)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDocsLinks: every relative link of the README and the user guide (docs/guide)
// points to a file that exists, and the README stays a newcomer's page (what it is,
// the two commands, a tour, where to go next), the rest in the guide.
func TestDocsLinks(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("docs", "guide", "*.md"))
	files = append(files, "README.md")
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := filepath.Join(filepath.Dir(f), m[1])
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links to %s, which does not exist", f, m[1])
			}
		}
		if f == "README.md" {
			if n := strings.Count(string(b), "\n"); n > 150 {
				t.Errorf("README.md has %d lines: keep it to a newcomer's page and move the rest to docs/guide", n)
			}
		}
	}
}
