package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// menuItem finds the item named name in the window's main menu.
func menuItem(t *testing.T, w fyne.Window, name string) *fyne.MenuItem {
	t.Helper()
	for _, m := range w.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == name {
				return it
			}
		}
	}
	t.Fatalf("no menu item %q", name)
	return nil
}

// TestMenuChoiceDoesNotClickTheButtonBeneath: the click choosing Help > How to read
// Steadfast, arriving also at the Export figure button beneath the menu (issue 59),
// opens no export dialog; a tap on the button later does (synthetic events: the menu
// item's action, then a tap on the button; the time since the choice set by hand).
func TestMenuChoiceDoesNotClickTheButtonBeneath(t *testing.T) {
	u, w := newTestUI(t)
	w.SetMainMenu(u.mainMenu())
	item := menuItem(t, w, "How to read Steadfast")
	serialized(func() {
		item.Action()
		test.Tap(u.exportBtn)
	})
	if onUI(func() bool { return u.guide == nil }) {
		t.Fatal("the menu item did not open the guide")
	}
	if top := onUI(func() fyne.CanvasObject { return w.Canvas().Overlays().Top() }); top != nil {
		t.Error("the click choosing the menu item also opened a dialog from the button beneath")
	}
	serialized(func() {
		u.menuChosen = time.Now().Add(-2 * menuGuard) // the user's next click, later
		test.Tap(u.exportBtn)
	})
	if top := onUI(func() fyne.CanvasObject { return w.Canvas().Overlays().Top() }); top == nil {
		t.Error("a tap on Export figure well after the menu opened nothing")
	}
	serialized(func() { u.guide.Close() })
}

// TestSaveStartsInTheLastFolderUsed: Save run starts in the data file's folder before
// anything is written, then in the folder last written to (issue 59: it opened in the
// data folder, not the last one used); its Browse starts in the folder typed.
func TestSaveStartsInTheLastFolderUsed(t *testing.T) {
	u, w := newTestUI(t)
	if got, want := onUI(u.saveStart), onUI(u.startFolder); got != want {
		t.Fatalf("before any save: starts in %q, want %q", got, want)
	}
	out := t.TempDir()
	var saved string
	save := func(p string) error { saved = p; return os.WriteFile(p, []byte("{}"), 0o644) }
	folderEntry := func() *widget.Entry {
		var e *widget.Entry
		walk(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
			if x, ok := o.(*widget.Entry); ok && e == nil {
				e = x
			}
		})
		if e == nil {
			t.Fatal("the save dialog has no folder field")
		}
		return e
	}
	serialized(func() { u.saveAs("run.json", []string{".json"}, save) })
	serialized(func() {
		folderEntry().SetText(out)
		_, b := dialogButtons(w)
		test.Tap(b["Save"])
	})
	if want := filepath.Join(out, "run.json"); saved != want {
		t.Fatalf("saved %q, want %q", saved, want)
	}
	serialized(func() { u.saveAs("run.json", []string{".json"}, save) })
	if got := onUI(func() string { return folderEntry().Text }); got != out {
		t.Errorf("the next save starts in %q, want the folder last used %q", got, out)
	}
	if l := browseStart(out); l == nil || !strings.HasSuffix(l.Path(), filepath.Base(out)) {
		t.Errorf("Browse starts at %v, want %s", l, out)
	}
	if l := browseStart(filepath.Join(out, "missing")); l != nil {
		t.Errorf("Browse on a missing folder starts at %v, want the usual folder", l)
	}
}
