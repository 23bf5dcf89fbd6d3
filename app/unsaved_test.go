package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/signature"
	"steadfast/compute/study"
)

// dialogButtons are the texts of the top dialog's labels and its buttons by text.
func dialogButtons(w fyne.Window) (string, map[string]*widget.Button) {
	top := w.Canvas().Overlays().Top()
	buttons := map[string]*widget.Button{}
	var texts []string
	if top == nil {
		return "", buttons
	}
	walk(top, func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Label:
			texts = append(texts, v.Text)
		case *widget.Button:
			buttons[v.Text] = v
		}
	})
	return strings.Join(texts, " "), buttons
}

// Opening a run or other data over unsaved results and a signature built from them
// asks first (they had been dropped without a word, a signature of 5.5 minutes among
// them): Cancel keeps everything, Discard them opens; saved results open at once.
func TestOpeningAsksBeforeUnsavedResultsGo(t *testing.T) {
	u, w := newTestUI(t)
	ds, res := smallRun(t)
	sig, err := study.BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 6, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	os.WriteFile(data, []byte("g1,g2,g3,class\n1,2,3,A\n2,3,1,B\n3,1,2,A\n4,4,4,B\n"), 0o644)
	serialized(func() {
		u.setData(ds, "", dataset.Options{})
		u.setResult(res)
		u.sigView.result = res
		u.sigView.setSignature(sig, nil)
		u.unsaved = true
		u.Open(data)
	})
	var said string
	var buttons map[string]*widget.Button
	serialized(func() { said, buttons = dialogButtons(w) })
	if !strings.Contains(said, "signature built from them are not saved") || buttons["Save run first"] == nil || buttons["Discard them"] == nil || buttons["Cancel"] == nil {
		t.Fatalf("the question: %q, buttons %v", said, buttons)
	}
	serialized(func() { test.Tap(buttons["Cancel"]) })
	if onUI(func() bool { return u.path == data || u.sigView.sig != sig }) {
		t.Fatal("Cancel opened the data or dropped the signature")
	}
	serialized(func() { u.Open(data) })
	serialized(func() { _, buttons = dialogButtons(w) })
	serialized(func() { test.Tap(buttons["Discard them"]) })
	waitFor(t, "the data", 5*time.Second, func() bool { return onUI(func() bool { return u.path == data }) })
	serialized(func() { u.unsaved = false; u.path = "" })
	serialized(func() { u.Open(data) })
	waitFor(t, "the saved results' data", 5*time.Second, func() bool { return onUI(func() bool { return u.path == data }) })
	if top := onUI(func() fyne.CanvasObject { return w.Canvas().Overlays().Top() }); top != nil {
		t.Error("saved results: a question all the same")
	}
}

// File > Open model... shows the model's own choice (method, k, classifier), read-only
// with Build signature off, and the Signature tab from its top; it had left the pane
// scrolled down over the run's choices, which no longer applied. A run shown again
// offers its choices.
func TestOpenModelShowsItsChoiceFromTheTop(t *testing.T) {
	u, _ := newTestUI(t)
	ds, res := smallRun(t)
	sig, err := study.BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 6, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "model.json")
	b, _ := sig.Model.Encode()
	os.WriteFile(model, b, 0o644)
	serialized(func() {
		u.setData(ds, "", dataset.Options{})
		u.setResult(res)
		u.tabs.SelectIndex(tabSignature)
		u.tabs.Items[tabSignature].Content.(*container.Scroll).ScrollToBottom()
		u.sigView.openModel(model)
	})
	v := u.sigView
	if off := onUI(func() float32 { return u.tabs.Items[tabSignature].Content.(*container.Scroll).Offset.Y }); off != 0 {
		t.Errorf("the Signature tab scrolled to %v after Open model", off)
	}
	if got := onUI(func() []string { return []string{v.method.Selected, v.k.Selected, v.classifier.Selected} }); got[0] != "F-statistic" || got[1] != "6" || got[2] != "linear SVM" {
		t.Errorf("the choice shown: %q", got)
	}
	if onUI(func() bool { return !v.method.Disabled() || !v.k.Disabled() || !v.build.Disabled() }) {
		t.Error("the model's choice can be changed, or Build signature pressed")
	}
	serialized(func() { u.setBusy(true); u.setBusy(false) })
	if onUI(func() bool { return !v.build.Disabled() }) {
		t.Error("a task's end enabled Build signature under an opened model")
	}
	serialized(func() { u.setResult(res) })
	if onUI(func() bool { return v.method.Disabled() || v.build.Disabled() || len(v.k.Options) < 2 }) {
		t.Error("the run's choices are not offered again")
	}
}
