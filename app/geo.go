package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/geo"
	"steadfast/compute/study"
)

// ShowOpenGEO asks for a GEO accession (and, for a series on several platforms, the
// platform), shows the cache's size with a way to clear it, then downloads and opens.
func (u *UI) ShowOpenGEO() {
	acc := widget.NewEntry()
	acc.SetPlaceHolder("GSE2034, GDS507, ...")
	if a, ok := geo.Parse(u.path); ok {
		acc.SetText(a)
	}
	platform := widget.NewEntry()
	platform.SetPlaceHolder("only for a series on several platforms: GPL96, ...")
	cache := widget.NewLabel(cacheText())
	cache.Wrapping = fyne.TextWrapWord
	clear := widget.NewButton("Clear GEO cache...", func() { u.clearGEOCache(cache) })
	server := "GEO's file server (" + geo.DefaultBase + ")"
	if b, err := geo.Base(); err == nil && b.String() != geo.DefaultBase {
		server = "the GEO mirror " + b.String() + " (" + geo.BaseEnv + ")"
	} else if err != nil {
		server = err.Error()
	}
	note := widget.NewLabel("The series matrix (or the DataSet) is downloaded from " + server + " with its platform's annotation for gene symbols (for an RNA-seq series, its read counts: GEO's own, the submitter's table or the per-sample files of its RAW.tar), kept in the cache and read from there next time, also offline.")
	note.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	open := func() {
		a := strings.TrimSpace(acc.Text)
		if a == "" {
			return
		}
		if _, ok := geo.Parse(a); !ok {
			u.showError(fmt.Errorf("%q is not a GEO accession: GSE or GDS and its number (GSE2034, GDS507)", a))
			return
		}
		d.Hide()
		u.unlessUnsaved("Opening "+a, func() { u.loadGEO(a, dataset.Options{Platform: strings.TrimSpace(platform.Text)}, true) })
	}
	acc.OnSubmitted = func(string) { open() }
	form := widget.NewForm(widget.NewFormItem("Accession", acc), widget.NewFormItem("Platform", platform))
	content := container.NewVBox(note, form, container.NewBorder(nil, nil, nil, clear, cache))
	d = u.showConfirm("Open GEO accession", "Open", content, fyne.NewSize(640, 320), acc, open)
}

// cacheText says where the GEO cache is and how much it holds.
func cacheText() string {
	dir, err := geo.CacheDir()
	if err != nil {
		return err.Error()
	}
	b, n := geo.CacheSize(dir)
	return fmt.Sprintf("GEO cache: %s (%s)", dir, geo.SizeText(b, n))
}

// clearGEOCache asks, then empties the GEO cache and updates label.
func (u *UI) clearGEOCache(label *widget.Label) {
	dir, err := geo.CacheDir()
	if err != nil {
		u.showError(err)
		return
	}
	b, n := geo.CacheSize(dir)
	if n == 0 {
		label.SetText(cacheText())
		return
	}
	dialog.ShowConfirm("Clear GEO cache", fmt.Sprintf("Remove the %s of GEO downloads in %s? Data opened from them stay open; opening them again downloads them again.", geo.SizeText(b, n), dir), func(ok bool) {
		if !ok {
			return
		}
		if err := geo.ClearCache(dir); err != nil {
			u.showError(err)
		}
		label.SetText(cacheText())
	}, u.win)
}

// loadGEO fetches the accession acc (from the cache, else GEO) behind the progress bar,
// with Cancel, and opens it; a series on several platforms asks which.
func (u *UI) loadGEO(acc string, o dataset.Options, advise bool) {
	acc, _ = geo.Parse(acc)
	if u.cancel != nil {
		u.showError(fmt.Errorf("%s is still running: wait for it to finish, or Cancel it, then open %s", strings.ToLower(u.task[:1])+u.task[1:], acc))
		return
	}
	u.loads++ // a file load still running is stale now
	u.startTask("Opening "+acc, func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		report(experiment.Progress{Total: 1, Stage: "GEO " + acc})
		ds, err := study.ReadData(ctx, acc, o, downloadReporter(report))
		var pe *geo.PlatformsError
		if errors.As(err, &pe) {
			return func() { u.choosePlatform(pe, o, advise) }, nil
		}
		if err != nil {
			return nil, err
		}
		return func() { u.useLoaded(ds, acc, o, advise) }, nil
	})
}

// downloadReporter turns a download's bytes into the progress bar's share and time left.
func downloadReporter(report func(experiment.Progress)) geo.Progress {
	var file string
	var start time.Time
	return func(what string, done, total int64) {
		if what != file {
			file, start = what, time.Now()
		}
		pr := experiment.Progress{Stage: fmt.Sprintf("downloading %s (%.1f MB)", what, float64(done)/1e6), Done: int(done >> 10), Total: int(max(total, done+1) >> 10)}
		if total > 0 {
			pr.Stage = fmt.Sprintf("downloading %s (%.1f of %.1f MB)", what, float64(done)/1e6, float64(total)/1e6)
			pr.Fraction = float64(done) / float64(total)
			if el := time.Since(start); done > 0 && el > time.Second {
				pr.Left = time.Duration(float64(el) * float64(total-done) / float64(done))
			}
		}
		report(pr)
	}
}

// choosePlatform asks which of a series' platforms to open.
func (u *UI) choosePlatform(pe *geo.PlatformsError, o dataset.Options, advise bool) {
	choice := widget.NewRadioGroup(pe.Platforms, nil)
	choice.SetSelected(pe.Platforms[0])
	msg := widget.NewLabel(fmt.Sprintf("%s was measured on %d platforms, each with its own series matrix. Which one?", pe.Accession, len(pe.Platforms)))
	msg.Wrapping = fyne.TextWrapWord
	u.showConfirm("Choose the platform", "Open", container.NewVBox(msg, choice), fyne.NewSize(480, 240), nil, func() {
		o.Platform = choice.Selected
		u.loadGEO(pe.Accession, o, advise)
	})
}
