package app

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"

	"steadfast/compute/dataset"
	"steadfast/compute/enrich"
	"steadfast/compute/experiment"
	"steadfast/compute/fastblas"
	"steadfast/compute/genes"
	"steadfast/compute/study"
)

// maxRecent is how many data files File > Open recent lists.
const maxRecent = 8

// recent returns the data files opened last, newest first.
func (u *UI) recent() []string {
	return u.app.Preferences().StringListWithFallback("recentData", nil)
}

// remember puts path first among the recent data files.
func (u *UI) remember(path string) {
	if abs, err := filepath.Abs(path); err == nil && !study.IsAccession(path) {
		path = abs
	}
	list := slices.DeleteFunc(u.recent(), func(p string) bool { return p == path })
	list = append([]string{path}, list...)
	u.app.Preferences().SetStringList("recentData", list[:min(len(list), maxRecent)])
	if u.win.MainMenu() != nil {
		u.win.SetMainMenu(u.mainMenu())
	}
}

// mainMenu is the window's menu: File and Help.
func (u *UI) mainMenu() *fyne.MainMenu {
	short := func(item *fyne.MenuItem, key fyne.KeyName, mod fyne.KeyModifier) *fyne.MenuItem {
		// a menu shortcut works while a text field has the focus, unlike a canvas one
		item.Shortcut = &desktop.CustomShortcut{KeyName: key, Modifier: mod}
		return item
	}
	ctrl := fyne.KeyModifierShortcutDefault
	open := short(fyne.NewMenuItem("Open data...", u.ShowOpen), fyne.KeyO, ctrl)
	openGEO := fyne.NewMenuItem("Open GEO accession...", u.ShowOpenGEO)
	recent := fyne.NewMenuItem("Open recent", nil)
	var items []*fyne.MenuItem
	for _, p := range u.recent() {
		items = append(items, fyne.NewMenuItem(p, func() {
			u.unlessUnsaved("Opening "+filepath.Base(p), func() { u.LoadFile(p, dataset.Options{}) })
		}))
	}
	if len(items) > 0 {
		recent.ChildMenu = fyne.NewMenu("", items...)
	} else {
		recent.Disabled = true
	}
	quit := short(fyne.NewMenuItem("Quit", u.Quit), fyne.KeyQ, ctrl)
	quit.IsQuit = true
	file := fyne.NewMenu("File", open, openGEO, recent, fyne.NewMenuItem("Example data", u.openExample),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Open run...", u.ShowOpenRun), fyne.NewMenuItem("Open model...", u.ShowOpenModel), short(fyne.NewMenuItem("Save run...", u.ShowSaveRun), fyne.KeyS, ctrl),
		fyne.NewMenuItemSeparator(),
		short(fyne.NewMenuItem("Export figure...", u.ShowExport), fyne.KeyE, ctrl), short(fyne.NewMenuItem("Report...", u.ShowReport), fyne.KeyR, ctrl|fyne.KeyModifierShift),
		fyne.NewMenuItemSeparator(), quit)
	study := fyne.NewMenu("Study", short(fyne.NewMenuItem("Run", u.Run), fyne.KeyR, ctrl),
		short(fyne.NewMenuItem("Copy the genes of this tab", u.copyTabGenes), fyne.KeyC, ctrl|fyne.KeyModifierShift),
		fyne.NewMenuItem("Open this tab's figure in its own window", func() { u.openFigureWindow(u.currentFigure(u.selectedTab())) }))
	help := fyne.NewMenu("Help", fyne.NewMenuItem("How to read Steadfast", u.showGuide), fyne.NewMenuItem("About Steadfast", u.showAbout))
	m := fyne.NewMainMenu(file, study, help)
	for _, menu := range m.Items {
		u.markMenuChoices(menu.Items)
	}
	return m
}

// menuGuard is how long after a menu item is chosen a tap on a toolbar button is taken
// for the same click falling through the closing menu, and ignored.
const menuGuard = 400 * time.Millisecond

// markMenuChoices makes every item of items (and of their submenus) note when it was
// chosen, for unlessMenuClick.
func (u *UI) markMenuChoices(items []*fyne.MenuItem) {
	for _, it := range items {
		if it.ChildMenu != nil {
			u.markMenuChoices(it.ChildMenu.Items)
		}
		if act := it.Action; act != nil {
			it.Action = func() {
				u.menuChosen = time.Now()
				act()
				u.menuChosen = time.Now() // the action may take long (the guide renders)
			}
		}
	}
}

// unlessMenuClick is f, except within menuGuard of a menu item being chosen: a menu
// drops down over the toolbar, and the click choosing an item (Help > How to read
// Steadfast) also reached the button beneath it (Export figure...).
func (u *UI) unlessMenuClick(f func()) func() {
	return func() {
		if !u.menuChosen.IsZero() && time.Since(u.menuChosen) < menuGuard {
			return
		}
		f()
	}
}

// openExample opens the built-in example data.
func (u *UI) openExample() { u.unlessUnsaved("Opening the example", u.useExample) }

// useExample makes the built-in example the data.
func (u *UI) useExample() {
	ex := study.Example()
	u.dataTab.advise(ex)
	u.dataTab.adopt(dataset.Options{})
	u.setData(ex, "", dataset.Options{})
}

// showAbout says what Steadfast is, its version and what it runs on.
func (u *UI) showAbout() {
	dialog.ShowInformation("About Steadfast", fmt.Sprintf(
		"Steadfast %s: stable biomarker discovery.\n\n"+
			"Ranks features with several methods under a resampling protocol and shows how stable "+
			"and how accurate each selection is (DRAGS, CGS, MIDS, the bootstrap wrapper, the Kalousis "+
			"measures and Nogueira's Phi). Report... writes a methods paragraph with the references.\n\n"+
			"Gene sets shipped: %s.\nGene symbols across vintages: %s.\n\n"+
			"Go %s on %s/%s, %d cores; matrix products: %s.",
		experiment.Version, enrich.GO().Source, genes.Human().Source, strings.TrimPrefix(runtime.Version(), "go"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), fastblas.Name()), u.win)
}

// onDrop opens a file dropped on the window: a saved run (.json) or data.
func (u *UI) onDrop(_ fyne.Position, uris []fyne.URI) {
	if len(uris) == 0 {
		return
	}
	u.Open(uris[0].Path())
}

// Open opens path as a saved run when it is a .json file or a folder holding a
// result.json (what steadfast run and merge write), else as a data file.
func (u *UI) Open(path string) {
	u.unlessUnsaved("Opening "+filepath.Base(path), func() { u.open(path) })
}

// open is Open without the question.
func (u *UI) open(path string) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "result.json")); err == nil {
			path = filepath.Join(path, "result.json")
		}
	}
	if strings.EqualFold(filepath.Ext(path), ".json") {
		u.OpenRun(path)
		return
	}
	u.LoadFile(path, dataset.Options{})
}

// lastFolder is the folder of the data file open, for file dialogs to start in.
func (u *UI) lastFolder() fyne.ListableURI {
	dir := u.rememberedFolder()
	if dir == "" && u.path != "" {
		dir = filepath.Dir(u.path)
	} else if r := u.recent(); dir == "" && len(r) > 0 {
		dir = filepath.Dir(r[0])
	}
	if dir == "" {
		return nil
	}
	l, err := storage.ListerForURI(storage.NewFileURI(dir))
	if err != nil {
		return nil
	}
	return l
}
