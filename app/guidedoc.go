package app

import (
	"bytes"
	"image"
	_ "image/png" // the guide's figures
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/docs/guide"
)

// guideDoc shows one page of the guide, wrapped by its own code at the width it is
// given: Fyne's RichText wraps a paragraph of mixed styles and links badly (after an
// overlong word or a link near the margin the rest fell to one character per line).
// Words too long for a line break at a slash, underscore, dot or dash; images are the
// embedded files; tables are laid out in columns.
type guideDoc struct {
	widget.BaseWidget
	blocks   []docBlock
	open     func(target string) // a link was tapped
	relayout func()              // the height changed with the width

	width, height float32
	objs          []fyne.CanvasObject
	tops          []float32 // each block's top
	stats         []blockStat
	images        map[int]*canvas.Image
}

// blockStat is how a block was laid out: its rows, its text's width on one line, and
// the width it had (for the test that nothing collapses).
type blockStat struct {
	rows         int
	textW, avail float32
	runes        int
}

func newGuideDoc(blocks []docBlock, open func(string)) *guideDoc {
	d := &guideDoc{blocks: blocks, open: open, images: map[int]*canvas.Image{}}
	d.ExtendBaseWidget(d)
	return d
}

// CreateRenderer shows the laid-out objects.
func (d *guideDoc) CreateRenderer() fyne.WidgetRenderer { return &guideDocRenderer{d} }

// Resize lays the page out again when the width changes.
func (d *guideDoc) Resize(s fyne.Size) {
	if s.Width > 0 && s.Width != d.width {
		old := d.height
		d.flow(s.Width)
		d.BaseWidget.Resize(s)
		d.Refresh()
		if d.height != old && d.relayout != nil {
			d.relayout()
		}
		return
	}
	d.BaseWidget.Resize(s)
}

// setBlocks shows blocks instead, laid out at the current width.
func (d *guideDoc) setBlocks(blocks []docBlock) {
	d.blocks, d.images = blocks, map[int]*canvas.Image{}
	w := d.width
	d.width = 0
	if w > 0 {
		d.Resize(fyne.NewSize(w, d.Size().Height))
	}
}

// sectionTop is the top of the heading block i (0 before the page is laid out).
func (d *guideDoc) sectionTop(i int) float32 {
	if i < 0 || i >= len(d.tops) {
		return 0
	}
	return d.tops[i]
}

type guideDocRenderer struct{ d *guideDoc }

func (r *guideDocRenderer) Layout(fyne.Size) {}
func (r *guideDocRenderer) MinSize() fyne.Size {
	if r.d.width == 0 {
		r.d.flow(600)
	}
	return fyne.NewSize(160, r.d.height)
}
func (r *guideDocRenderer) Refresh()                     { canvas.Refresh(r.d) }
func (r *guideDocRenderer) Objects() []fyne.CanvasObject { return r.d.objs }
func (r *guideDocRenderer) Destroy()                     {}

// flowState is one layout pass: the theme's sizes and the objects placed so far.
type flowState struct {
	d                      *guideDoc
	th                     fyne.Theme
	pad, lineGap, textSize float32
	objs                   []fyne.CanvasObject
}

// flow lays every block out at width w.
func (d *guideDoc) flow(w float32) {
	th := d.Theme()
	f := &flowState{d: d, th: th, pad: th.Size(theme.SizeNamePadding), lineGap: th.Size(theme.SizeNameLineSpacing), textSize: th.Size(theme.SizeNameText)}
	x0, x1 := f.pad, w-f.pad
	y := f.pad
	d.tops = make([]float32, len(d.blocks))
	d.stats = make([]blockStat, len(d.blocks))
	indent := 2 * f.textSize
	for i, b := range d.blocks {
		switch b.kind {
		case blockHeading:
			if i > 0 {
				y += 2 * f.pad
			}
		case blockPara, blockItem, blockTable, blockCode, blockImage:
			switch {
			case i > 0 && b.kind == blockItem && d.blocks[i-1].kind == blockItem:
				y += f.pad
			case i > 0:
				y += 2 * f.pad
			}
		}
		d.tops[i] = y
		left := x0 + float32(b.level)*indent
		switch b.kind {
		case blockHeading:
			size := f.textSize
			switch b.level {
			case 1:
				size = th.Size(theme.SizeNameHeadingText)
			case 2:
				size = th.Size(theme.SizeNameSubHeadingText)
			}
			var rows int
			y, rows = f.runs(b.runs, x0, x1, y, size)
			d.stats[i] = blockStat{rows, f.oneLine(b.runs, size), x1 - x0, utf8.RuneCountInString(runsText(b.runs))}
		case blockPara, blockItem:
			if b.kind == blockItem {
				f.text(b.bullet, fyne.TextStyle{}, "", left-indent*0.6, y, f.textSize)
			}
			var rows int
			y, rows = f.runs(b.runs, left, x1, y, f.textSize)
			d.stats[i] = blockStat{rows, f.oneLine(b.runs, f.textSize), x1 - left, utf8.RuneCountInString(runsText(b.runs))}
		case blockCode:
			top := y
			bg := canvas.NewRectangle(th.Color(theme.ColorNameInputBackground, fyne.CurrentApp().Settings().ThemeVariant()))
			f.objs = append(f.objs, bg)
			rows := 0
			y += f.pad
			for _, l := range strings.Split(b.code, "\n") {
				var n int
				y, n = f.runs([]run{{text: l, style: fyne.TextStyle{Monospace: true}}}, left+f.pad, x1-f.pad, y, f.textSize)
				rows += n
			}
			y += f.pad
			bg.Move(fyne.NewPos(left, top))
			bg.Resize(fyne.NewSize(x1-left, y-top))
			d.stats[i] = blockStat{rows: rows}
		case blockTable:
			y = f.table(b.rows, left, x1, y)
		case blockImage:
			y = f.image(i, b.image, left, x1, y) + f.pad
		case blockRule:
			y += f.pad
			l := canvas.NewLine(th.Color(theme.ColorNameSeparator, fyne.CurrentApp().Settings().ThemeVariant()))
			l.Position1, l.Position2 = fyne.NewPos(x0, y), fyne.NewPos(x1, y)
			f.objs = append(f.objs, l)
			y += f.pad
		}
	}
	d.width, d.height, d.objs = w, y+f.pad, f.objs
}

// token is a word of a run (or a piece of one), and whether a space comes before it.
type token struct {
	run
	space bool
}

// tokens are rs split into words.
func tokens(rs []run) []token {
	var out []token
	space := false
	for _, r := range rs {
		words := strings.Split(r.text, " ")
		for j, wd := range words {
			if j > 0 {
				space = true
			}
			if wd == "" {
				continue
			}
			out = append(out, token{run{wd, r.style, r.link}, space})
			space = false
		}
	}
	return out
}

func (f *flowState) measure(s string, style fyne.TextStyle, size float32) float32 {
	return fyne.MeasureText(s, size, style).Width
}

// oneLine is the width of rs set on one line.
func (f *flowState) oneLine(rs []run, size float32) float32 {
	return f.measure(runsText(rs), fyne.TextStyle{}, size)
}

// runs sets rs word by word between x0 and x1 from y, a word too long for a line
// broken (breakWord); it returns the y below them and the rows used.
func (f *flowState) runs(rs []run, x0, x1, y float32, size float32) (float32, int) {
	lineH := fyne.MeasureText("Mg", size, fyne.TextStyle{}).Height
	space := f.measure(" ", fyne.TextStyle{}, size)
	x, rows := x0, 1
	// words of one style and link on a line are set as one text, so that their
	// spaces are the font's
	var pend token
	pendX := float32(0)
	flush := func() {
		if pend.text != "" {
			f.text(pend.text, pend.style, pend.link, pendX, y, size)
		}
		pend.text = ""
	}
	newline := func() {
		flush()
		y += lineH + f.lineGap
		x = x0
		rows++
	}
	toks := tokens(rs)
	for i, t := range toks {
		w := f.measure(t.text, t.style, size)
		sp := float32(0)
		if t.space && x > x0 {
			sp = space
		}
		// a word glued to the next ("(" and a code span) moves to the next line
		// with it
		glued := w
		if i == 0 || t.space {
			for j := i + 1; j < len(toks) && !toks[j].space; j++ {
				glued += f.measure(toks[j].text, toks[j].style, size)
			}
		}
		if x+sp+glued > x1 && x > x0 && (glued <= x1-x0 || x+sp+w > x1) {
			newline()
			sp = 0
		}
		if w > x1-x0 {
			flush()
			rest := t.text
			for rest != "" {
				piece := breakWord(rest, func(s string) bool { return x+f.measure(s, t.style, size) <= x1 })
				x += f.text(piece, t.style, t.link, x, y, size)
				rest = rest[len(piece):]
				if rest != "" {
					newline()
				}
			}
			continue
		}
		if pend.text != "" && pend.style == t.style && pend.link == t.link {
			joined := pend.text + t.text
			if sp > 0 {
				joined = pend.text + " " + t.text
			}
			// set together the words can measure a little wider than apart
			if jw := f.measure(joined, t.style, size); pendX+jw <= x1 {
				pend.text, x = joined, pendX+jw
				continue
			}
			newline()
			sp = 0
		}
		flush()
		x += sp
		pend, pendX = t, x
		x += w
	}
	flush()
	return y + lineH, rows
}

// breakWord is the longest start of s that fits, cut after a slash, underscore, dot,
// comma, dash, equals or colon when one is in its second half, else anywhere; at
// least one character.
func breakWord(s string, fits func(string) bool) string {
	rs := []rune(s)
	n := 1
	for n < len(rs) && fits(string(rs[:n+1])) {
		n++
	}
	if n == len(rs) {
		return s
	}
	for i := n - 1; i >= n/2 && i > 0; i-- {
		if strings.ContainsRune("/_.,-=:;|", rs[i]) {
			return string(rs[:i+1])
		}
	}
	return string(rs[:n])
}

// text places s at (x, y) in style, a link when link is set; it returns its width.
func (f *flowState) text(s string, style fyne.TextStyle, link string, x, y, size float32) float32 {
	v := f.th.Color(theme.ColorNameForeground, fyne.CurrentApp().Settings().ThemeVariant())
	target := f.d.linkTarget(link)
	if target != "" {
		v = f.th.Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant())
	}
	t := canvas.NewText(s, v)
	t.TextStyle, t.TextSize = style, size
	m := t.MinSize()
	if style != (fyne.TextStyle{}) { // on the regular text's baseline (code sat 2 px high)
		drv := fyne.CurrentApp().Driver()
		_, base := drv.RenderedTextSize("Mg", size, fyne.TextStyle{}, nil)
		_, own := drv.RenderedTextSize("Mg", size, style, nil)
		y += base - own
	}
	var o fyne.CanvasObject = t
	if target != "" {
		l := &guideLink{text: t, tap: func() { f.d.open(target) }}
		l.ExtendBaseWidget(l)
		o = l
	}
	o.Move(fyne.NewPos(x, y))
	o.Resize(m)
	f.objs = append(f.objs, o)
	return m.Width
}

// linkTarget is what a link of the page opens in the app: another page of the guide
// (file.md or file.md#section) or a web address; "" for the README's folder links,
// which mean nothing inside the app.
func (d *guideDoc) linkTarget(link string) string {
	switch {
	case link == "" || d.open == nil:
		return ""
	case strings.HasPrefix(link, "http://"), strings.HasPrefix(link, "https://"):
		return link
	case strings.HasPrefix(link, "#"):
		return link
	}
	page, _, _ := strings.Cut(link, "#")
	if strings.Contains(page, "/") || !strings.HasSuffix(page, ".md") {
		return ""
	}
	return link
}

// table lays rows out in columns: each column as wide as its widest cell when they
// fit, else in proportion, its cells wrapped.
func (f *flowState) table(rows [][][]run, x0, x1, y float32) float32 {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	if n == 0 {
		return y
	}
	gap := 2 * f.pad
	natural := make([]float32, n) // a column's widest cell on one line
	least := make([]float32, n)   // its widest word
	for _, r := range rows {
		for j, c := range r {
			style := fyne.TextStyle{}
			if len(c) > 0 {
				style = c[0].style
			}
			natural[j] = max(natural[j], f.measure(runsText(c), style, f.textSize)+f.pad)
			for _, t := range tokens(c) {
				least[j] = max(least[j], f.measure(t.text, t.style, f.textSize)+f.pad)
			}
		}
	}
	var sum, sumLeast float32
	for j := range natural {
		sum += natural[j]
		sumLeast += least[j]
	}
	avail := x1 - x0 - gap*float32(n-1)
	widths := natural
	switch {
	case sum <= avail:
	case sumLeast <= avail && sum > sumLeast:
		// every word whole, the room left shared in proportion to what each
		// column lacks
		widths = make([]float32, n)
		for j := range natural {
			widths[j] = least[j] + (avail-sumLeast)*(natural[j]-least[j])/(sum-sumLeast)
		}
	default:
		widths = make([]float32, n)
		for j := range natural {
			widths[j] = avail * natural[j] / sum
		}
	}
	sep := f.th.Color(theme.ColorNameSeparator, fyne.CurrentApp().Settings().ThemeVariant())
	for i, r := range rows {
		x, bottom := x0, y
		for j, c := range r {
			end, _ := f.runs(c, x, x+widths[j], y, f.textSize)
			bottom = max(bottom, end)
			x += widths[j] + gap
		}
		y = bottom + f.pad
		if i == 0 {
			l := canvas.NewLine(sep)
			l.Position1, l.Position2 = fyne.NewPos(x0, y-f.pad/2), fyne.NewPos(x-gap, y-f.pad/2)
			f.objs = append(f.objs, l)
		}
	}
	return y
}

// image places the embedded figure name, at most 720 wide, keeping its shape.
func (f *flowState) image(i int, name string, x0, x1, y float32) float32 {
	img, ok := f.d.images[i]
	if !ok {
		data, found := guide.Image(name)
		if !found {
			f.text("(figure "+name+" is missing)", fyne.TextStyle{Italic: true}, "", x0, y, f.textSize)
			return y + fyne.MeasureText("Mg", f.textSize, fyne.TextStyle{}).Height
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width == 0 {
			f.text("(figure "+name+" cannot be read)", fyne.TextStyle{Italic: true}, "", x0, y, f.textSize)
			return y + fyne.MeasureText("Mg", f.textSize, fyne.TextStyle{}).Height
		}
		img = canvas.NewImageFromResource(fyne.NewStaticResource(name, data))
		img.FillMode = canvas.ImageFillContain
		img.SetMinSize(fyne.NewSize(float32(cfg.Width), float32(cfg.Height)))
		f.d.images[i] = img
	}
	orig := img.MinSize()
	w := min(x1-x0, 720)
	h := w * orig.Height / orig.Width
	img.Move(fyne.NewPos(x0, y))
	img.Resize(fyne.NewSize(w, h))
	f.objs = append(f.objs, img)
	return y + h
}

// guideLink is a word of a link: tapping it opens the link's target.
type guideLink struct {
	widget.BaseWidget
	text *canvas.Text
	tap  func()
}

func (l *guideLink) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(l.text) }

// Tapped opens the link.
func (l *guideLink) Tapped(*fyne.PointEvent) { l.tap() }

// Cursor is a hand over a link.
func (l *guideLink) Cursor() desktop.Cursor { return desktop.PointerCursor }
