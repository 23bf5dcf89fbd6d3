package app

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// clippedHints are the text fields shown under root whose hint (placeholder) is wider
// than the field: "hint (needs N px, has M px)".
func clippedHints(root fyne.CanvasObject) map[string]string {
	out := map[string]string{}
	walkVisible(root, func(o fyne.CanvasObject) {
		e, ok := o.(*widget.Entry)
		if s, isSelect := o.(*widget.SelectEntry); isSelect { // a field with a drop-down
			e, ok = &s.Entry, true
		}
		if !ok || e.PlaceHolder == "" || e.Size().Width <= 0 || e.MultiLine {
			return
		}
		need := fyne.MeasureText(e.PlaceHolder, theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding() + 2*theme.InputBorderSize()
		if e.ActionItem != nil {
			need += e.ActionItem.MinSize().Width + theme.Padding()
		}
		if need > e.Size().Width {
			out[e.PlaceHolder] = fmt.Sprintf("needs %.0f px, has %.0f px", need, e.Size().Width)
		}
	})
	return out
}

// eachTab calls f with every tab of every AppTabs under root selected in turn (nested
// tabs too), then puts the first tab back.
func eachTab(root fyne.CanvasObject, f func()) {
	var tabs []*container.AppTabs
	walkVisible(root, func(o fyne.CanvasObject) {
		if t, ok := o.(*container.AppTabs); ok {
			tabs = append(tabs, t)
		}
	})
	f()
	for _, t := range tabs {
		for i := range t.Items {
			t.SelectIndex(i)
			eachTab(t.Items[i].Content, f)
		}
		t.SelectIndex(0)
	}
}

// TestHintsFitTheirFields: at 1366 x 768 (the window maximised on a laptop screen,
// less the title bar and the menu) no text field's hint is cut (issue 59: "none: a
// table naming each" was clipped), on every tab of the window.
func TestHintsFitTheirFields(t *testing.T) {
	u, w := newTestUI(t)
	serialized(func() { w.Resize(fyne.NewSize(1366, 710)) })
	clipped := map[string]string{}
	add := func(root fyne.CanvasObject) {
		for k, v := range clippedHints(root) {
			clipped[k] = v
		}
	}
	serialized(func() {
		u.dataTab.survivalRow.Show() // a survival outcome's fields
		w.Content().Refresh()
		eachTab(w.Content(), func() { add(w.Content()) })
	})
	// the dialogs asking for a GEO accession and for a file
	for _, open := range []func(){u.ShowOpenGEO, u.ShowOpenModel, u.ShowOpen} {
		serialized(func() {
			open()
			if top := w.Canvas().Overlays().Top(); top != nil {
				add(top)
				w.Canvas().Overlays().Remove(top)
			}
		})
	}
	for hint, why := range clipped {
		t.Errorf("hint %q is cut: %s", hint, why)
	}
}
