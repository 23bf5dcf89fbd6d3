package app

import (
	"net/url"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/docs/guide"
)

// guideSection is one section of a page of the guide: the page (its index in
// guide.Pages), its heading block (-1 for the text before the first heading), the
// heading and the section's text, for the search.
type guideSection struct {
	page, block int
	heading     string
	text        string
}

// guideSections cuts every page's blocks at its headings.
func guideSections(pages []guide.Page, blocks [][]docBlock) []guideSection {
	var out []guideSection
	for p, bs := range blocks {
		cur := guideSection{page: p, block: -1, heading: pages[p].Title}
		for i, b := range bs {
			if b.kind == blockHeading {
				if strings.TrimSpace(cur.text) != "" || cur.block >= 0 {
					out = append(out, cur)
				}
				cur = guideSection{page: p, block: i, heading: runsText(b.runs)}
				continue
			}
			cur.text += b.plain() + "\n"
		}
		out = append(out, cur)
	}
	return out
}

// searchSections are the sections whose heading or text mention query (case aside).
func searchSections(secs []guideSection, query string) []guideSection {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil
	}
	var out []guideSection
	for _, s := range secs {
		if strings.Contains(strings.ToLower(s.heading+"\n"+s.text), q) {
			out = append(out, s)
		}
	}
	return out
}

// anchor is GitHub's anchor of a heading: lower case, spaces as dashes, other
// punctuation left out.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// guideWindow is the open Help window's state.
type guideWindow struct {
	pages    []guide.Page
	blocks   [][]docBlock
	docs     []*guideDoc
	sections []guideSection
	list     *widget.List
	scroll   *container.Scroll
	shown    int // the page shown, -1 for the glossary
}

// showGuide opens Help in a window of its own beside the main one, which stays open
// while the user works (a second call brings it to the front): on the left the
// glossary and the user guide's pages (docs/guide, embedded); on the right a search of
// the glossary and the pages (a page's hit opens it at the section), or the page chosen.
func (u *UI) showGuide() {
	if u.guide != nil {
		u.guide.RequestFocus()
		return
	}
	w := u.app.NewWindow("Steadfast: how to read it")
	g := &guideWindow{pages: guide.Pages(), shown: -1}
	for _, p := range g.pages {
		title := docBlock{kind: blockHeading, level: 1, runs: []run{{text: p.Title, style: fyne.TextStyle{Bold: true}}}}
		g.blocks = append(g.blocks, append([]docBlock{title}, parseGuide(p.Markdown)...))
	}
	g.docs = make([]*guideDoc, len(g.pages))
	g.sections = guideSections(g.pages, g.blocks)

	// the glossary is laid out as the pages are: a Label of its 15,000 characters took
	// minutes to wrap at the width the window has before it is shown
	body := newGuideDoc(glossaryBlocks(""), nil)
	hits := container.NewVBox()
	glossaryScroll := container.NewVScroll(container.NewVBox(hits, body))
	body.relayout = glossaryScroll.Refresh
	search := widget.NewEntry()
	search.SetPlaceHolder("search the guide: AUC, concordance, nested, stability...")
	glossaryPane := container.NewBorder(search, nil, nil, nil, glossaryScroll)
	g.scroll = container.NewVScroll(widget.NewLabel(""))
	titles := []string{"Glossary and the tabs"}
	for _, p := range g.pages {
		titles = append(titles, p.Title)
	}
	right := container.NewStack(glossaryPane, g.scroll)
	g.scroll.Hide()
	g.list = widget.NewList(func() int { return len(titles) },
		func() fyne.CanvasObject { l := widget.NewLabel(""); l.Truncation = fyne.TextTruncateEllipsis; return l },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(titles[i]) })
	g.list.OnSelected = func(i widget.ListItemID) {
		if i == 0 {
			g.shown = -1
			g.scroll.Hide()
			glossaryPane.Show()
			w.Canvas().Focus(search)
			return
		}
		g.showPage(i-1, -1)
		glossaryPane.Hide()
		g.scroll.Show()
	}
	search.OnChanged = func(q string) {
		found := searchSections(g.sections, q)
		hits.RemoveAll()
		if len(found) > 0 {
			hits.Add(widget.NewLabelWithStyle("In the guide's pages:", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		}
		for _, s := range found {
			label := g.pages[s.page].Title
			if s.heading != label {
				label += " › " + s.heading
			}
			b := widget.NewButton(label, func() { g.open(s.page, s.block) })
			b.Alignment = widget.ButtonAlignLeading
			b.Importance = widget.LowImportance
			hits.Add(b)
		}
		blocks := glossaryBlocks(q)
		if len(found) > 0 && strings.HasPrefix(guideText(q), "Nothing in the guide mentions") {
			blocks = []docBlock{{kind: blockPara, runs: []run{{text: "No entry of the glossary mentions \"" + q + "\"."}}}}
		} else if len(found) > 0 {
			blocks = append([]docBlock{{kind: blockPara, runs: []run{{text: "In the glossary:", style: fyne.TextStyle{Bold: true}}}}}, blocks...)
		}
		body.setBlocks(blocks)
		glossaryScroll.Refresh()
		glossaryScroll.ScrollToTop()
	}
	split := container.NewHSplit(g.list, right)
	split.Offset = 0.28
	w.SetContent(split)
	w.Resize(fyne.NewSize(900, 640))
	w.SetOnClosed(func() { u.guide, u.guideWin = nil, nil })
	u.guide, u.guideSearch, u.guidePages, u.guideWin = w, search, g.list, g
	g.list.Select(0)
	w.Show()
	w.Canvas().Focus(search)
}

// open shows page p at its heading block (-1: its top), selecting it in the list.
func (g *guideWindow) open(p, block int) {
	if g.shown != p {
		g.list.Select(p + 1) // shows the page at its top
	}
	g.showPage(p, block)
}

// showPage shows page p scrolled to its heading block (-1: its top).
func (g *guideWindow) showPage(p, block int) {
	if g.docs[p] == nil {
		g.docs[p] = newGuideDoc(g.blocks[p], func(target string) { g.follow(p, target) })
		g.docs[p].relayout = g.scroll.Refresh
	}
	d := g.docs[p]
	if g.scroll.Content != d {
		g.scroll.Content = d
	}
	g.shown = p
	g.scroll.Refresh()
	if w := g.scroll.Size().Width; w > 0 {
		d.Resize(fyne.NewSize(w, d.MinSize().Height))
		g.scroll.Refresh()
	}
	off := d.sectionTop(block)
	if block > 0 { // a little above the heading, which is then whole
		off = max(0, off-d.Theme().Size(theme.SizeNamePadding))
	}
	g.scroll.Offset = fyne.NewPos(0, off)
	g.scroll.Refresh()
}

// follow opens a link's target tapped on page p: a section of this page (#name),
// another page (file.md, file.md#name) or a web address.
func (g *guideWindow) follow(p int, target string) {
	if strings.HasPrefix(target, "http") {
		if u, err := url.Parse(target); err == nil {
			_ = fyne.CurrentApp().OpenURL(u)
		}
		return
	}
	name, frag, _ := strings.Cut(target, "#")
	if name != "" {
		p = -1
		for i, pg := range g.pages {
			if pg.Name == name {
				p = i
			}
		}
		if p < 0 {
			return
		}
	}
	block := -1
	for i, b := range g.blocks[p] {
		if b.kind == blockHeading && frag != "" && anchor(runsText(b.runs)) == frag {
			block = i
			break
		}
	}
	g.open(p, block)
}
