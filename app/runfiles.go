package app

import (
	"fmt"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/study"
)

// ShowSaveRun saves the configuration, results and tool results as one JSON file.
func (u *UI) ShowSaveRun() { u.saveRunThen(nil) }

// saveRunThen is ShowSaveRun, calling after (when not nil) once the run is saved.
func (u *UI) saveRunThen(after func()) {
	if u.result == nil {
		u.showError(fmt.Errorf("nothing to save yet: press Run first"))
		return
	}
	res, tools := u.result, u.tools()
	u.saveAs("steadfast-run.json", nil, func(path string) error {
		if err := study.SaveRun(path, res, tools); err != nil {
			return err
		}
		if res == u.result {
			u.unsaved = false
		}
		u.progress.Status.SetText("Saved " + filepath.Base(path))
		if after != nil {
			after()
		}
		return nil
	})
}

// unlessUnsaved calls do at once when the results on screen are saved (or there are
// none); else it asks first, naming what would be lost (a signature's nested estimate
// and permutation test take minutes): Save run first (then do), do anyway, or Cancel.
// action says what do does ("Opening colon.csv").
func (u *UI) unlessUnsaved(action string, do func()) {
	if !u.unsaved || u.result == nil {
		do()
		return
	}
	what := "The results on screen are not saved"
	if sig, _ := u.survView.of(u.result); sig != nil || u.sigView.of(u.result) != nil {
		what = "The results on screen and the signature built from them are not saved"
	}
	msg := widget.NewLabel(what + ". " + action + " leaves them behind: a run opened replaces them, other data make the next Run replace them.\nSave run... keeps them in one file, the signature's choice, nested estimate and permutation test with them.")
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomWithoutButtons("Unsaved results", msg, u.win)
	d.SetButtons([]fyne.CanvasObject{
		widget.NewButton("Cancel", func() { d.Hide() }),
		widget.NewButton("Discard them", func() { d.Hide(); do() }),
		&widget.Button{Text: "Save run first", Importance: widget.HighImportance, OnTapped: func() { d.Hide(); u.saveRunThen(do) }},
	})
	d.Resize(fyne.NewSize(620, 220))
	d.Show()
}

// ShowOpenRun reopens a saved run: its results and its settings.
func (u *UI) ShowOpenRun() {
	u.askPath("Open run", "A saved run (Save run..., or the result.json of steadfast run); its folder opens too.",
		"/path/to/steadfast-run.json or a run's folder", []string{".json"}, "", u.Open)
}

// OpenRun shows a saved run and its settings; its data file is reloaded when it exists.
func (u *UI) OpenRun(path string) {
	s, err := study.LoadRun(path)
	if err != nil {
		u.showError(err)
		return
	}
	u.methods.set(s.Config.Methods)
	u.protocol.set(s.Config)
	u.dataTab.set(s.Config)
	u.setResult(s.Result)
	u.setTools(s.Tools)
	u.unsaved = false
	u.runPath = path
	if s.Config.DataPath != "" {
		if _, err := os.Stat(s.Config.DataPath); err == nil || study.IsAccession(s.Config.DataPath) {
			u.loadFile(s.Config.DataPath, s.Config.ReadOptions(), false)
		}
	}
	u.progress.Status.SetText("Opened run " + filepath.Base(path))
	if s.Note != "" {
		u.progress.Status.SetText("Opened run " + filepath.Base(path) + ". Note: " + s.Note)
	}
}
