package widgets

import (
	"image"
	"image/color"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

func TestParamFormValidates(t *testing.T) {
	test.NewTempApp(t)
	f := NewParamForm([]Param{
		{Key: "C", Label: "C", Default: 1, Min: 0.001, Max: 100},
		{Key: "n", Label: "Rounds", Default: 5, Min: 1, Max: 10, Integer: true},
		{Key: "on", Label: "Switch", Default: 1, Min: 0, Max: 1, Integer: true},
	})
	v, err := f.Values()
	if err != nil || v["C"] != 1 || v["n"] != 5 || v["on"] != 1 || f.Check("on") == nil {
		t.Fatalf("defaults: %v %v", v, err)
	}
	f.Check("on").SetChecked(false)
	if v, _ := f.Values(); v["on"] != 0 {
		t.Errorf("switch off gives %v", v["on"])
	}
	for _, tc := range []struct{ key, text, want string }{
		{"C", "abc", "not a number"},
		{"C", "1000", "between 0.001 and 100"},
		{"n", "2.5", "whole number"},
	} {
		f.Entry(tc.key).SetText(tc.text)
		if _, err := f.Values(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s = %q: %v", tc.key, tc.text, err)
		}
		f.Set(map[string]float64{"C": 1, "n": 5})
	}
}

func TestProgressText(t *testing.T) {
	test.NewTempApp(t)
	cancelled := false
	p := NewProgress(func() { cancelled = true })
	if !p.Cancel.Disabled() {
		t.Error("Cancel enabled before a start")
	}
	p.Start("Running")
	p.start = time.Now().Add(-10 * time.Second) // 10 s for a quarter: 30 s left
	p.since = p.start
	p.Update(25, 100, "ranking", 0, 0)
	if got := p.Status.Text; got != "ranking 25% (25/100), about 30 s left" {
		t.Errorf("status %q", got)
	}
	// a second stage has its own clock: 4 s for 1 of 3 units, 8 s left
	p.Update(0, 3, "pairs", 0, 0)
	p.since = time.Now().Add(-4 * time.Second)
	p.Update(1, 3, "pairs", 0, 0)
	if got := p.Status.Text; got != "pairs 33% (1/3), about 8 s left" {
		t.Errorf("second stage: status %q", got)
	}
	// a share done inside the first units, before any has finished, and no time left
	// from the caller: extrapolated (10 s for a fifth: 40 s left)
	p.Update(0, 10, "fits", 0, 0)
	p.since = time.Now().Add(-10 * time.Second)
	p.Update(0, 10, "fits", 0.2, 0)
	if got := p.Status.Text; p.Bar.Value != 0.2 || got != "fits 20% (0/10), about 40 s left" {
		t.Errorf("inside units: bar %v, status %q", p.Bar.Value, got)
	}
	// a weighed share and a time left from the caller are shown as given
	p.Update(5, 10, "ranking", 0.1, 90*time.Second)
	if got := p.Status.Text; p.Bar.Value != 0.1 || got != "ranking 10% (5/10), about 1 min 30 s left" {
		t.Errorf("weighed: bar %v, status %q", p.Bar.Value, got)
	}
	// every unit done: the summaries follow, no time left to guess
	p.Update(10, 10, "ranking", 1, 0)
	if got := p.Status.Text; got != "ranking 100% (10/10), putting the results together" {
		t.Errorf("all done: status %q", got)
	}
	test.Tap(p.Cancel)
	if !cancelled {
		t.Error("Cancel did not call back")
	}
	p.Finish("done", true)
	if p.Bar.Value != 1 || !p.Cancel.Disabled() {
		t.Error("Finish")
	}
}

func TestChartRendersAndNamesPoints(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("chart")
	c := NewChart("nothing yet")
	w.SetContent(c)
	w.Resize(fyne.NewSize(400, 300))
	var asked image.Point
	c.SetRender(func(wpx, hpx int) (image.Image, []image.Point, []string, error) {
		asked = image.Pt(wpx, hpx)
		img := image.NewRGBA(image.Rect(0, 0, wpx, hpx))
		img.Set(50, 60, color.Black)
		return img, []image.Point{{50, 60}}, []string{"k = 3: 0.9"}, nil
	})
	deadline := time.Now().Add(2 * time.Minute) // a hang guard, not a time limit
	for c.Image() == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if c.Image() == nil {
		t.Fatal("no image rendered")
	}
	if asked.X < 300 || asked.Y < 200 {
		t.Errorf("rendered at %v for a 400 x 300 window", asked)
	}
	pos, _ := c.PointPosition(0)
	c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos.Add(fyne.NewPos(3, 3))}})
	if c.Tooltip() != "k = 3: 0.9" {
		t.Errorf("tooltip %q", c.Tooltip())
	}
	c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos.Add(fyne.NewPos(80, 80))}})
	if c.Tooltip() != "" {
		t.Errorf("tooltip far away: %q", c.Tooltip())
	}
}

// TestStringTableSorts: tapping a header sorts by that column, numbers as numbers, and
// a second tap reverses it.
func TestStringTableSorts(t *testing.T) {
	test.NewTempApp(t)
	tb := NewStringTable()
	tb.SetRows([]string{"gene", "selected"}, [][]string{{"b", "10/30"}, {"a", "9/30"}, {"c", "30/30"}})
	tb.SortBy(1)
	if got := tb.Column(0); got != "a\nb\nc\n" {
		t.Errorf("ascending by selected: %q", got)
	}
	tb.SortBy(1)
	if got := tb.Column(0); got != "c\nb\na\n" {
		t.Errorf("descending by selected: %q", got)
	}
	tb.SortBy(0)
	if got := tb.Column(0); got != "a\nb\nc\n" {
		t.Errorf("by gene: %q", got)
	}
}

// A chart says "Drawing..." while its render runs (a large group's heat map left a
// blank pane for about 15 s), and not once the image is shown; it is never drawn below
// its readable minimum, which a heat map of many genes raises.
func TestChartSaysDrawingAndKeepsItsMinimum(t *testing.T) {
	a := test.NewTempApp(t)
	w := a.NewWindow("chart")
	c := NewChart("nothing yet")
	// the test stands in for the UI goroutine: the chart's handoffs and its calls take
	// one lock in turn (the test driver runs fyne.Do inline)
	var ui sync.Mutex
	onUI := func(f func()) { ui.Lock(); defer ui.Unlock(); f() }
	c.Do = onUI
	onUI(func() {
		w.SetContent(c)
		w.Resize(fyne.NewSize(600, 400))
	})
	release := make(chan struct{})
	onUI(func() {
		c.SetRender(func(wpx, hpx int) (image.Image, []image.Point, []string, error) {
			<-release
			return image.NewRGBA(image.Rect(0, 0, wpx, hpx)), nil, nil, nil
		})
	})
	if !c.Busy() {
		t.Error("no \"Drawing...\" while the render runs")
	}
	close(release)
	deadline := time.Now().Add(2 * time.Minute) // a hang guard, not a time limit
	for c.Image() == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if c.Image() == nil || c.Busy() {
		t.Errorf("after the render: image %v, still drawing %v", c.Image() != nil, c.Busy())
	}
	if m := c.MinSize(); m.Width < DefaultChartMin.Width || m.Height < DefaultChartMin.Height {
		t.Errorf("minimum %v", m)
	}
	onUI(func() { c.SetMinSize(fyne.NewSize(2000, 2000)) })
	if m := c.MinSize(); m != fyne.NewSize(2000, 2000) {
		t.Errorf("minimum after SetMinSize: %v", m)
	}
}

// A table's columns are never narrower than their widest value when it is a number
// (camera's FDR 2.6e-11 had shown as "2.6e-1"), however narrow the width asked; a
// column empty in every row (no gene symbols) is left out; the first column stays in
// view when the table scrolls sideways.
func TestStringTableFitsNumbersAndDropsEmptyColumns(t *testing.T) {
	test.NewTempApp(t)
	tb := NewStringTable()
	tb.SetRows([]string{"gene", "gene symbol", "FDR", "note"},
		[][]string{{"Hsa.1139", "", "2.6e-11", "a short note"}, {"Hsa.11096_dup1", "", "0.5", strings.Repeat("long words ", 200)}}, 40, 40, 30, 40)
	if h := tb.Header(); strings.Join(h, ",") != "gene,FDR,note" {
		t.Fatalf("header %q: the empty gene-symbol column stays", h)
	}
	if r := tb.Rows(); r[0][1] != "2.6e-11" || r[1][0] != "Hsa.11096_dup1" {
		t.Errorf("rows %q", r)
	}
	need := fyne.MeasureText("2.6e-11", 14, fyne.TextStyle{}).Width
	if got := valueWidth(tb.Rows(), 1); got < need {
		t.Errorf("the FDR column gets %v, the value needs %v", got, need)
	}
	if got := valueWidth(tb.Rows(), 2); got > maxTextColumn {
		t.Errorf("a text column grows to %v", got)
	}
	if tb.Table.StickyColumnCount != 1 {
		t.Errorf("sticky columns %d", tb.Table.StickyColumnCount)
	}
}
