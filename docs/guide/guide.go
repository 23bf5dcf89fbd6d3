// Package guide embeds the user guide's pages (this folder's Markdown files), so the
// app shows them in Help as the repository shows them on the web.
package guide

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.md *.png
var files embed.FS

// Page is one page of the guide: its file name, title (its first heading) and text.
type Page struct {
	Name, Title, Markdown string
}

// order is the guide's reading order; index.md, the table of contents, is left out.
var order = []string{"data-and-study.md", "proteomics.md", "signature.md", "models.md", "survival.md", "meaning.md", "validation.md", "command-line.md", "cluster.md", "install.md", "papers.md", "speed.md", "development.md"}

// Pages are the guide's pages in reading order, each with its navigation line (links
// to the README and the index, which mean nothing inside the app) left out.
func Pages() []Page {
	var out []Page
	for _, name := range order {
		b, err := files.ReadFile(name)
		if err != nil {
			continue
		}
		text := string(b)
		title, rest, _ := strings.Cut(text, "\n")
		var kept []string
		for _, l := range strings.Split(rest, "\n") {
			if !strings.HasPrefix(l, "[Back to the README]") {
				kept = append(kept, l)
			}
		}
		out = append(out, Page{Name: name, Title: strings.TrimSpace(strings.TrimPrefix(title, "# ")), Markdown: strings.TrimSpace(strings.Join(kept, "\n"))})
	}
	return out
}

// Names are every Markdown file of the guide, sorted (for a test that each is listed).
func Names() []string {
	entries, _ := files.ReadDir(".")
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// Image is the embedded image the guide's pages name (a file of this folder, as the
// Markdown links it), so the app shows it wherever it was started from.
func Image(name string) ([]byte, bool) {
	if !strings.HasSuffix(name, ".png") || strings.Contains(name, "/") {
		return nil, false
	}
	b, err := files.ReadFile(name)
	return b, err == nil
}
