package app

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// ShowOpen asks for a data file: a path typed in (Enter opens it) or chosen with Browse.
func (u *UI) ShowOpen() {
	u.askPath("Open data", "CSV/TSV with samples as rows or columns, GenePattern GCT (with its CLS beside it), Excel .xlsx,\nWEKA ARFF, a GEO series matrix or GEO DataSet (GDS .soft), MaxQuant's proteinGroups.txt; gzipped or not.",
		"/path/to/data.csv, .tsv, .gct, .xlsx, .arff or GSE..._series_matrix.txt (.gz too)", dataExtensions, u.path, func(p string) {
			if p == u.path { // the same data read again: nothing on screen is replaced
				u.LoadFile(p, u.openOptions(p))
				return
			}
			u.unlessUnsaved("Opening "+filepath.Base(p), func() { u.LoadFile(p, u.openOptions(p)) })
		})
}

// askPath is the one way the window asks for a file to open: a dialog titled title
// saying what, with a path to type (Enter opens it; it starts at initial, else at the
// last folder a file was opened from) or to choose with Browse (starting there too);
// open gets the path, and its folder is remembered for the next time.
func (u *UI) askPath(title, what, placeholder string, exts []string, initial string, open func(path string)) {
	path := widget.NewEntry()
	path.SetPlaceHolder(placeholder)
	switch {
	case initial != "":
		path.SetText(initial)
	case u.rememberedFolder() != "":
		path.SetText(u.rememberedFolder() + string(filepath.Separator))
	}
	var d dialog.Dialog
	do := func() {
		p := strings.TrimSpace(path.Text)
		if p == "" {
			return
		}
		d.Hide()
		u.app.Preferences().SetString("openFolder", filepath.Dir(p))
		open(p)
	}
	path.OnSubmitted = func(string) { do() }
	content := container.NewVBox(widget.NewLabel(what), container.NewBorder(nil, nil, nil, u.browseButton(path, exts), path))
	d = u.showConfirm(title, "Open", content, fyne.NewSize(640, 200), path, do)
}

// rememberedFolder is the folder a file was last opened from in the window ("" before
// the first).
func (u *UI) rememberedFolder() string {
	return u.app.Preferences().String("openFolder")
}

// rereadOptions are the Data tab's reading options for the data open now, with what the
// form does not show (the CLS file, a GEO series' platform).
func (u *UI) rereadOptions() dataset.Options {
	o := u.dataTab.readOptions(u.readOpt.CLSPath)
	o.Platform = u.readOpt.Platform
	return o
}

// openOptions are the reading options to open path with: the Data tab's for the file
// open now, none for another (the last file's class, sheet and symbols are not its own).
func (u *UI) openOptions(path string) dataset.Options {
	if path == u.path {
		return u.rereadOptions()
	}
	return dataset.Options{}
}

// ShowExport asks where and how to export the figure on the current result tab.
func (u *UI) ShowExport() {
	tab := u.selectedTab()
	fig := u.currentFigure(tab)
	if fig.Build == nil && fig.Table == nil {
		u.showError(fmt.Errorf("nothing to export on this tab yet: press Run, or the tab's Compute button, first"))
		return
	}
	dir := widget.NewEntry()
	dir.SetText(u.app.Preferences().StringWithFallback("exportDir", exportDir()))
	name := widget.NewEntry()
	name.SetText(fig.Name)
	checks := map[string]*widget.Check{}
	fbox := container.NewHBox()
	for _, f := range plots.Formats {
		c := widget.NewCheck(strings.ToUpper(f), nil)
		c.Checked = fig.Build != nil
		checks[f] = c
		fbox.Add(c)
	}
	width := widget.NewEntry()
	width.SetText(u.app.Preferences().StringWithFallback("exportWidth", "16"))
	height := widget.NewEntry()
	height.SetText(u.app.Preferences().StringWithFallback("exportHeight", "10"))
	unit := widget.NewSelect([]string{"cm", "in"}, nil)
	unit.SetSelected(u.app.Preferences().StringWithFallback("exportUnit", "cm"))
	dpi := widget.NewEntry()
	dpi.SetText(u.app.Preferences().StringWithFallback("exportDPI", "300"))
	var d dialog.Dialog
	do := func() {
		formats := map[string]bool{}
		for f, c := range checks {
			formats[f] = c.Checked
		}
		write := func() {
			if err := u.exportFormats(fig, dir.Text, name.Text, formats, width.Text, height.Text, unit.Selected, dpi.Text); err != nil {
				u.showError(err)
				return
			}
			d.Hide()
		}
		folder := strings.TrimSpace(dir.Text)
		u.confirmReplace(folder, existing(exportPaths(folder, strings.TrimSpace(name.Text), formats)), write)
	}
	dir.OnSubmitted = func(string) { do() }
	name.OnSubmitted = func(string) { do() }
	items := []*widget.FormItem{
		{Text: "Folder", Widget: dir},
		{Text: "File name", Widget: name, HintText: "without extension; a .csv of the numbers is written beside"},
		{Text: "Formats", Widget: fbox},
		{Text: "Width", Widget: width},
		{Text: "Height", Widget: height},
		{Text: "Unit", Widget: unit},
		{Text: "PNG resolution (dpi)", Widget: dpi},
	}
	d = u.showConfirm("Export "+fig.Title, "Export", widget.NewForm(items...), fyne.NewSize(620, 420), dir, do)
}

// exportFormats writes fig in the formats ticked, with the size and resolution typed.
func (u *UI) exportFormats(fig plots.Figure, dir, name string, ticked map[string]bool, w, h, unit, dpiText string) error {
	wv, err1 := strconv.ParseFloat(strings.TrimSpace(w), 64)
	hv, err2 := strconv.ParseFloat(strings.TrimSpace(h), 64)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("width and height must be numbers (in %s)", unit)
	}
	dpi, err := strconv.Atoi(strings.TrimSpace(dpiText))
	if err != nil {
		return fmt.Errorf("PNG resolution must be a whole number of dpi")
	}
	opts, err := plots.NewExportOptions(wv, hv, unit, dpi)
	if err != nil {
		return err
	}
	var formats []string
	for _, f := range plots.Formats {
		if ticked[f] {
			formats = append(formats, f)
		}
	}
	name = strings.TrimSpace(name)
	if err := checkFileName(name); err != nil {
		return err
	}
	fig.Name = name
	dir = strings.TrimSpace(dir)
	if err := u.checkWrite(exportPaths(dir, name, ticked)...); err != nil {
		return err
	}
	paths, err := plots.Export(fig, dir, formats, opts)
	if err != nil {
		return err
	}
	p := u.app.Preferences()
	p.SetString("exportDir", dir)
	u.wroteTo(dir)
	p.SetString("exportWidth", w)
	p.SetString("exportHeight", h)
	p.SetString("exportUnit", unit)
	p.SetString("exportDPI", dpiText)
	for _, path := range paths {
		log.Printf("exported %s", path)
	}
	msg := fmt.Sprintf("Exported %s to %s.", text.Count(len(paths), "file"), dir)
	if _, n := fig.SizeFor(opts); n != "" {
		msg += " Note: " + n + "."
	}
	u.progress.Status.SetText(msg)
	return nil
}

// saveAs asks for a folder and a file name (starting with name; a name without one of
// the extensions exts gets the first) and calls save with the path, showing its error.
// It refuses a path that is a file the window read (checkWrite) and asks before
// replacing another file. (Fyne's save dialog is not used: it empties the file chosen
// before the program sees the name, so a slip onto the data file would lose it.)
func (u *UI) saveAs(name string, exts []string, save func(path string) error) {
	dir := widget.NewEntry()
	dir.SetText(u.saveStart())
	file := widget.NewEntry()
	file.SetText(name)
	var d dialog.Dialog
	do := func() {
		folder := strings.TrimSpace(dir.Text)
		path, err := u.savePath(folder, file.Text, exts)
		if err != nil {
			u.showError(err)
			return
		}
		u.confirmReplace(folder, existing([]string{path}), func() {
			if err := os.MkdirAll(folder, 0o755); err != nil {
				u.showError(err)
				return
			}
			if err := save(path); err != nil {
				u.showError(err)
				return
			}
			u.wroteTo(folder)
			log.Printf("wrote %s", path)
			d.Hide()
		})
	}
	dir.OnSubmitted = func(string) { do() }
	file.OnSubmitted = func(string) { do() }
	items := []*widget.FormItem{
		{Text: "Folder", Widget: container.NewBorder(nil, nil, nil, u.folderButton(dir), dir)},
		{Text: "File name", Widget: file},
	}
	d = u.showConfirm("Save "+name, "Save", widget.NewForm(items...), fyne.NewSize(620, 200), file, do)
}

// savePath is the file a save writes: name in folder, with the first of exts unless it
// ends in one; refused when name holds a folder or the file is one the window read.
func (u *UI) savePath(folder, name string, exts []string) (string, error) {
	name = strings.TrimSpace(name)
	if err := checkFileName(name); err != nil {
		return "", err
	}
	if len(exts) > 0 && !slices.ContainsFunc(exts, func(e string) bool { return strings.EqualFold(filepath.Ext(name), e) }) {
		name += exts[0]
	}
	path := filepath.Join(folder, name)
	return path, u.checkWrite(path)
}

// wroteTo remembers folder as the last one written to (a save, an export, a report):
// the next save starts there.
func (u *UI) wroteTo(folder string) {
	if abs, err := filepath.Abs(folder); err == nil {
		folder = abs
	}
	u.app.Preferences().SetString("usedFolder", folder)
}

// saveStart is where a save starts: the folder last written to, else startFolder.
func (u *UI) saveStart() string {
	return u.app.Preferences().StringWithFallback("usedFolder", u.startFolder())
}

// startFolder is where a save starts before anything was written: the data file's
// folder, else Steadfast's.
func (u *UI) startFolder() string {
	if u.path != "" && !study.IsAccession(u.path) {
		return filepath.Dir(u.path)
	}
	return exportDir()
}

// folderButton is a "Browse..." button whose folder dialog starts in the folder entry
// names (else lastFolder) and writes the folder chosen into entry.
func (u *UI) folderButton(entry *widget.Entry) *widget.Button {
	return widget.NewButton("Browse...", func() {
		fd := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
			if err == nil && l != nil {
				entry.SetText(l.Path())
			}
		}, u.win)
		if l := browseStart(entry.Text); l != nil {
			fd.SetLocation(l)
		} else if l := u.lastFolder(); l != nil {
			fd.SetLocation(l)
		}
		fd.Show()
	})
}

// browseStart is the folder dir as a dialog location, nil when it is not a folder.
func browseStart(dir string) fyne.ListableURI {
	dir = strings.TrimSpace(dir)
	if st, err := os.Stat(dir); dir == "" || err != nil || !st.IsDir() {
		return nil
	}
	l, err := storage.ListerForURI(storage.NewFileURI(dir))
	if err != nil {
		return nil
	}
	return l
}

// reads are the files the window read and still shows: the data file with its class
// file and annotation, the saved run opened, and the validation's cohort with its
// annotation.
func (u *UI) reads() []study.Input {
	in := []study.Input{{What: "saved run", Path: u.runPath}}
	if u.path != "" {
		in = append(in, study.DataInputs(u.path, u.readOpt)...)
	}
	if sig := u.sigView.sig; sig != nil && sig.Opened != "" {
		in = append(in, study.Input{What: "model file", Path: sig.Opened})
	}
	return append(in, u.sigView.cohortReads...)
}

// checkWrite refuses to write path when it is a file the window read (reads).
func (u *UI) checkWrite(paths ...string) error {
	for _, p := range paths {
		if err := study.CheckFile(p, u.reads()); err != nil {
			return err
		}
	}
	return nil
}

// ShowOpenModel asks for a locked model (model.json) and shows it in the Signature tab.
func (u *UI) ShowOpenModel() {
	u.askPath("Open model", "A locked model a signature wrote (model.json): validate it on a cohort without its study.",
		"/path/to/model.json", []string{".json"}, "", u.sigView.openModel)
}

// showConfirm shows a dialog of content with confirm and Cancel buttons, sized size,
// with focus in focus; confirm calls do.
func (u *UI) showConfirm(title, confirm string, content fyne.CanvasObject, size fyne.Size, focus fyne.Focusable, do func()) dialog.Dialog {
	d := dialog.NewCustomConfirm(title, confirm, "Cancel", content, func(ok bool) {
		if ok {
			do()
		}
	}, u.win)
	d.Resize(size)
	d.Show()
	u.win.Canvas().Focus(focus)
	return d
}

// confirmReplace calls write at once when old (files in folder that writing would
// replace) is empty, else after the user agrees to replace them.
func (u *UI) confirmReplace(folder string, old []string, write func()) {
	if len(old) == 0 {
		write()
		return
	}
	dialog.ShowConfirm("Replace files?", fmt.Sprintf("%s already holds %s. Replace them?", folder, strings.Join(old, ", ")), func(ok bool) {
		if ok {
			write()
		}
	}, u.win)
}

// checkFileName refuses an empty file name or one holding a folder.
func checkFileName(name string) error {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("file name %q: give a name without folders", name)
	}
	return nil
}

// exportPaths are the files an export of name in the ticked formats writes in dir: one
// a format, in plots.Formats' order, and its CSV.
func exportPaths(dir, name string, ticked map[string]bool) []string {
	var out []string
	for _, f := range append(slices.Clone(plots.Formats), "csv") {
		if f == "csv" || ticked[f] {
			out = append(out, filepath.Join(dir, name+"."+f))
		}
	}
	return out
}

// existing are the names of the paths that exist: the files a write would replace.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, filepath.Base(p))
		}
	}
	return out
}

// dataExtensions are the file names the Browse dialogs list: data and annotation files,
// gzipped or not.
var dataExtensions = []string{".csv", ".tsv", ".txt", ".tab", ".gct", ".arff", ".xlsx", ".soft", ".annot", ".gz"}

// browseButton is a "Browse..." button whose file dialog writes the chosen path into
// entry, starting in the folder last opened.
func (u *UI) browseButton(entry *widget.Entry, exts []string) *widget.Button {
	return widget.NewButton("Browse...", func() {
		fd := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			r.Close()
			entry.SetText(r.URI().Path())
		}, u.win)
		fd.SetFilter(storage.NewExtensionFileFilter(exts))
		if l := u.lastFolder(); l != nil {
			fd.SetLocation(l)
		}
		fd.Show()
	})
}
