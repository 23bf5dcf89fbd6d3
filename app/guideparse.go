package app

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// run is a stretch of a guide page's text in one style; link is its target, if any.
type run struct {
	text  string
	style fyne.TextStyle
	link  string
}

// blockKind is what a block of a guide page is.
type blockKind int

const (
	blockPara blockKind = iota
	blockHeading
	blockItem
	blockCode
	blockTable
	blockImage
	blockRule
)

// docBlock is one block of a guide page: a paragraph, heading (level), list item
// (depth, bullet), code, table (rows of cells), image (its file) or rule.
type docBlock struct {
	kind   blockKind
	level  int
	bullet string
	runs   []run
	rows   [][][]run
	code   string
	image  string
}

// plain is the block's text without styles.
func (b docBlock) plain() string {
	var s strings.Builder
	add := func(rs []run) {
		for _, r := range rs {
			s.WriteString(r.text)
		}
	}
	add(b.runs)
	for _, row := range b.rows {
		for _, c := range row {
			add(c)
			s.WriteString(" ")
		}
	}
	s.WriteString(b.code)
	return s.String()
}

// parseGuide reads a guide page's Markdown (tables included) into blocks.
func parseGuide(md string) []docBlock {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser().Parse(text.NewReader(src))
	p := &guideParser{src: src}
	p.blocks(doc, 0)
	return p.out
}

type guideParser struct {
	src []byte
	out []docBlock
}

func (p *guideParser) blocks(n ast.Node, depth int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		p.block(c, depth)
	}
}

// block adds the node c, at list depth depth.
func (p *guideParser) block(c ast.Node, depth int) {
	{
		switch t := c.(type) {
		case *ast.Heading:
			p.out = append(p.out, docBlock{kind: blockHeading, level: t.Level, runs: p.inlines(t, fyne.TextStyle{Bold: true}, "")})
		case *ast.Paragraph, *ast.TextBlock:
			p.para(c, docBlock{kind: blockPara, level: depth})
		case *ast.List:
			i := t.Start
			for it := t.FirstChild(); it != nil; it = it.NextSibling() {
				bullet := "•"
				if t.IsOrdered() {
					bullet = strconv.Itoa(i) + "."
					i++
				}
				first := true
				for c := it.FirstChild(); c != nil; c = c.NextSibling() {
					switch c.(type) {
					case *ast.Paragraph, *ast.TextBlock:
						b := docBlock{kind: blockPara, level: depth + 1}
						if first {
							b.kind, b.bullet = blockItem, bullet
						}
						p.para(c, b)
					default:
						p.block(c, depth+1)
					}
					first = false
				}
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			var s strings.Builder
			for i := 0; i < c.Lines().Len(); i++ {
				l := c.Lines().At(i)
				s.Write(l.Value(p.src))
			}
			p.out = append(p.out, docBlock{kind: blockCode, level: depth, code: strings.TrimRight(s.String(), "\n")})
		case *ast.Blockquote:
			p.blocks(c, depth+1)
		case *ast.ThematicBreak:
			p.out = append(p.out, docBlock{kind: blockRule})
		case *east.Table:
			b := docBlock{kind: blockTable, level: depth}
			for r := c.FirstChild(); r != nil; r = r.NextSibling() {
				_, header := r.(*east.TableHeader)
				var row [][]run
				for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
					row = append(row, p.inlines(cell, fyne.TextStyle{Bold: header}, ""))
				}
				b.rows = append(b.rows, row)
			}
			p.out = append(p.out, b)
		default:
			if c.HasChildren() {
				p.blocks(c, depth)
			}
		}
	}
}

// para adds a paragraph's text as b, and each image in it as a block of its own.
func (p *guideParser) para(n ast.Node, b docBlock) {
	b.runs = p.inlines(n, fyne.TextStyle{}, "")
	var imgs []string
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if im, ok := c.(*ast.Image); ok && entering {
			imgs = append(imgs, string(im.Destination))
		}
		return ast.WalkContinue, nil
	})
	if strings.TrimSpace(runsText(b.runs)) != "" || b.bullet != "" {
		p.out = append(p.out, b)
	}
	for _, im := range imgs {
		p.out = append(p.out, docBlock{kind: blockImage, image: im})
	}
}

// inlines are n's inline children as runs in style (links to link).
func (p *guideParser) inlines(n ast.Node, style fyne.TextStyle, link string) []run {
	var out []run
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			seg := t.Segment
			s := string(seg.Value(p.src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				s += " "
			}
			out = append(out, run{s, style, link})
		case *ast.String:
			out = append(out, run{string(t.Value), style, link})
		case *ast.CodeSpan:
			var s strings.Builder
			for g := t.FirstChild(); g != nil; g = g.NextSibling() {
				if tx, ok := g.(*ast.Text); ok {
					seg := tx.Segment
					s.Write(seg.Value(p.src))
				}
			}
			st := style
			st.Monospace = true
			// a code span across a line break has the break as a space (CommonMark)
			out = append(out, run{strings.ReplaceAll(s.String(), "\n", " "), st, link})
		case *ast.Emphasis:
			st := style
			if t.Level == 2 {
				st.Bold = true
			} else {
				st.Italic = true
			}
			out = append(out, p.inlines(t, st, link)...)
		case *ast.Link:
			out = append(out, p.inlines(t, style, string(t.Destination))...)
		case *ast.AutoLink:
			u := string(t.URL(p.src))
			out = append(out, run{u, style, u})
		case *ast.Image:
		default:
			out = append(out, p.inlines(c, style, link)...)
		}
	}
	return out
}

func runsText(rs []run) string {
	var s strings.Builder
	for _, r := range rs {
		s.WriteString(r.text)
	}
	return s.String()
}
