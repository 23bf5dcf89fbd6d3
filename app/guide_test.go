package app

import (
	"log"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// Every page of the guide reads at the Help window's default 900 x 640 and at a
// laptop's 1366 x 768: no paragraph falls to a character per line (Fyne's RichText
// had eight of fourteen pages end that way after an overlong word or a link), no text
// runs past the right edge, and every figure is shown from the embedded files with no
// "Failed to load image" in the log (543 of them when they were read from the folder
// the app started in).
func TestGuidePagesReadAtTwoWidths(t *testing.T) {
	logs := &syncBuffer{}
	log.SetOutput(logs)
	defer log.SetOutput(os.Stderr)
	u, _ := newTestUI(t)
	serialized(u.showGuide)
	defer serialized(func() { u.guide.Close() })
	g := u.guideWin
	images := 0
	for _, size := range []fyne.Size{{Width: 900, Height: 640}, {Width: 1366, Height: 768}} {
		serialized(func() { u.guide.Resize(size) })
		for p, page := range g.pages {
			serialized(func() { g.open(p, -1) })
			d := g.docs[p]
			width := onUI(func() float32 { return g.scroll.Size().Width })
			// the page is as wide as its pane: the split gives the pages 72% of the window
			if d.width != width || width < 0.6*size.Width {
				t.Errorf("%s at %v: laid out %v wide in a pane %v wide", page.Name, size, d.width, width)
			}
			for i, st := range d.stats {
				b := d.blocks[i]
				if b.kind != blockPara && b.kind != blockItem && b.kind != blockHeading || st.runes < 2 {
					continue
				}
				// a wrapped paragraph takes about its one-line width over the width it
				// has; 1.5 times that plus two rows allows for words moved whole
				if limit := int(st.textW/st.avail*1.5) + 2; st.rows > limit {
					t.Errorf("%s at %v: %q... takes %d rows, at most %d expected", page.Name, size, firstWords(b.plain()), st.rows, limit)
				}
			}
			shown := 0
			for _, o := range d.objs {
				switch v := o.(type) {
				case *canvas.Text, *guideLink:
					if right := o.Position().X + o.Size().Width; right > d.width+0.5 {
						t.Errorf("%s at %v: %q ends at %v, past the page's %v", page.Name, size, textOf(o), right, d.width)
					}
				case *canvas.Image:
					if v.Resource == nil || v.Size().Width < 200 || v.Size().Height < 100 {
						t.Errorf("%s at %v: a figure without its file or too small (%v)", page.Name, size, v.Size())
					}
					shown++
				}
			}
			want := 0
			for _, b := range d.blocks {
				if b.kind == blockImage {
					want++
				}
			}
			if shown != want {
				t.Errorf("%s at %v: %d figures shown of %d", page.Name, size, shown, want)
			}
			images += shown
		}
	}
	// signature.md has three figures, validation.md one (docs/guide, grep '!\[')
	if images != 2*4 {
		t.Errorf("%d figures shown over the two widths, want 8", images)
	}
	if l := logs.String(); strings.Contains(l, "Failed to load image") || strings.Contains(l, "Fyne error") {
		t.Errorf("the guide logged errors:\n%s", l)
	}
}

func firstWords(s string) string {
	if len(s) > 60 {
		return s[:60]
	}
	return s
}

func textOf(o fyne.CanvasObject) string {
	if l, ok := o.(*guideLink); ok {
		return l.text.Text
	}
	return o.(*canvas.Text).Text
}

// The search finds the guide's pages as well as the glossary: "concordance" (in no
// glossary entry's name) leads to the survival page's section, and its hit opens the
// page scrolled to that section's heading.
func TestGuideSearchOpensThePageSection(t *testing.T) {
	u, _ := newTestUI(t)
	serialized(u.showGuide)
	defer serialized(func() { u.guide.Close() })
	g := u.guideWin
	serialized(func() { u.guideSearch.SetText("concordance") })
	var hit *widget.Button
	serialized(func() {
		walkVisible(u.guide.Content(), func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok && hit == nil && strings.HasPrefix(b.Text, "Prognostic signatures: survival outcomes › ") {
				hit = b
			}
		})
	})
	if hit == nil {
		t.Fatal("searching concordance lists no section of the survival page")
	}
	// survival.md's "## The study" says "as survival::concordance" (its first mention)
	if hit.Text != "Prognostic signatures: survival outcomes › The study" {
		t.Errorf("first hit %q, want the survival page's study section", hit.Text)
	}
	serialized(func() { test.Tap(hit) })
	p := -1
	for i, pg := range g.pages {
		if pg.Name == "survival.md" {
			p = i
		}
	}
	if onUI(func() int { return g.shown }) != p || !onUI(func() bool { return g.scroll.Visible() }) {
		t.Fatalf("the hit shows page %d, want survival.md (%d)", g.shown, p)
	}
	block := -1
	for i, b := range g.blocks[p] {
		if b.kind == blockHeading && runsText(b.runs) == "The study" {
			block = i
		}
	}
	top := g.docs[p].sectionTop(block)
	// the page is scrolled to just above the heading (a padding, 4 in Fyne's theme)
	if off := onUI(func() float32 { return g.scroll.Offset.Y }); block < 0 || top <= 0 || off > top || off < top-8 {
		t.Errorf("the page is scrolled to %v, the section's heading is at %v", off, top)
	}
	// a link to another page opens it
	serialized(func() { g.follow(p, "models.md") })
	if onUI(func() int { return g.shown }) == p {
		t.Error("a link to models.md left the survival page shown")
	}
}
