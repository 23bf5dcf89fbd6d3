package app

import (
	"context"
	"fmt"
	"log"
	"path/filepath"
	"slices"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/study"
)

// LoadFile reads path in the background; on success it replaces the data, on failure
// it shows the reason and keeps the data the user had. The Data tab then shows the
// options o it was read with, and a file other than the one open gets the
// preprocessing its values call for (log2 for unlogged intensities).
func (u *UI) LoadFile(path string, o dataset.Options) { u.loadFile(path, o, true) }

// loadFile is LoadFile; advise false keeps the preprocessing on the form (a reopened
// run's).
func (u *UI) loadFile(path string, o dataset.Options, advise bool) {
	if study.IsAccession(path) {
		u.loadGEO(path, o, advise)
		return
	}
	// the progress bar and Cancel belong to runs; a load only writes the status line
	u.progress.Status.SetText("Reading " + filepath.Base(path) + "...")
	u.loads++
	gen := u.loads
	go func() {
		ds, err := dataset.ReadFile(path, o)
		u.do(func() {
			if gen != u.loads {
				return // the user opened other data meanwhile: this load is stale
			}
			if err != nil {
				u.progress.Status.SetText("Could not read " + filepath.Base(path) + "; the previous data are kept.")
				u.showError(err)
				return
			}
			u.useLoaded(ds, path, o, advise)
		})
	}()
}

// useLoaded makes ds, read from path with o, the data (the previous kept when it cannot
// be used), with the preprocessing advised for it when advise is set; the data are
// prepared in the background.
func (u *UI) useLoaded(ds *dataset.Dataset, path string, o dataset.Options, advise bool) {
	restore := u.dataTab.snapshot(u.readOpt)
	if advise && path != u.path {
		u.dataTab.advise(ds)
	}
	u.dataTab.adopt(o)
	u.prepare(ds, func(data *dataset.Dataset, dropped []string, err error) {
		if err != nil {
			u.showError(err)
			restore()
			u.progress.Status.SetText("Could not use " + filepath.Base(path) + "; the previous data are kept.")
			return
		}
		u.usePrepared(ds, data, dropped, path, o)
	})
}

// usePrepared makes ds, read from path with o and prepared as data, the data, and says
// so on the status line.
func (u *UI) usePrepared(ds, data *dataset.Dataset, dropped []string, path string, o dataset.Options) {
	previous := u.path
	u.adopt(ds, data, dropped, path, o)
	st := fmt.Sprintf("Read %s.", ds.Name)
	if path != previous {
		if undone := u.protocol.undoFoldsFix(); undone != "" {
			u.checkFit()
			st += " " + undone
		}
	}
	if u.protocol.fit.Visible() {
		st += " The protocol does not suit these data: the Protocol tab offers a fix."
	}
	u.progress.Status.SetText(st)
	u.remember(path)
	log.Printf("loaded %s", path)
}

// setData makes ds the current data, prepared at once (the built-in example: small),
// and shows its summary; data that preprocessing leaves empty are refused (false) and
// the previous data kept.
func (u *UI) setData(ds *dataset.Dataset, path string, o dataset.Options) bool {
	data, dropped, err := study.Prepare(ds, u.dataTab.prep())
	if err != nil {
		u.showError(err)
		return false
	}
	u.preps++ // a preparation still running is stale now
	u.endPreparation()
	u.adopt(ds, data, dropped, path, o)
	return true
}

// adopt makes ds (read from path with o, data once prepared) the current data and
// shows its summary.
func (u *UI) adopt(ds, data *dataset.Dataset, dropped []string, path string, o dataset.Options) {
	u.loads++ // a load still running is stale now
	u.raw, u.path, u.readOpt = ds, path, o
	u.data, u.dropped = data, dropped
	u.dataTab.setClassChoices(ds.ClassChoices)
	u.dataTab.showOutcome(ds)
	u.methods.setOutcome(ds.Survival != nil)
	u.protocol.setOutcome(ds.Survival != nil)
	u.showSummary()
	u.markStale()
	u.checkFit()
}

// prepare preprocesses raw as the Data tab says on a background goroutine (edgeR's
// normalisation of a 60,000-gene table takes seconds), saying so on the status line,
// and then calls done on the UI goroutine, unless another preparation has begun since.
func (u *UI) prepare(raw *dataset.Dataset, done func(data *dataset.Dataset, dropped []string, err error)) {
	u.preps++
	gen, prep := u.preps, u.dataTab.prep()
	u.endPreparation() // its result would be dropped: stop its work too
	ctx, stop := context.WithCancel(context.Background())
	u.stopPrep = stop
	u.progress.Status.SetText("Preparing " + raw.Name + " (" + prepSteps(prep) + ")...")
	go func() {
		data, dropped, err := study.PrepareContext(ctx, raw, prep)
		u.do(func() {
			if gen != u.preps {
				return
			}
			u.endPreparation()
			done(data, dropped, err)
		})
	}()
}

// preparing reports whether data are being prepared in the background.
func (u *UI) preparing() bool { return u.stopPrep != nil }

// endPreparation stops the preparation running, if any.
func (u *UI) endPreparation() {
	if u.stopPrep != nil {
		u.stopPrep()
		u.stopPrep = nil
	}
}

// prepSteps says what prep does, for the status line.
func prepSteps(p dataset.Prep) string {
	var steps []string
	switch {
	case p.LogCPM && p.TMM:
		steps = append(steps, "TMM and log-CPM")
	case p.LogCPM:
		steps = append(steps, "log-CPM")
	case p.Log2:
		steps = append(steps, "log2")
	}
	if p.DropConstant {
		steps = append(steps, "constant features dropped")
	}
	if p.DropMissing {
		steps = append(steps, "incomplete features dropped")
	}
	if p.Normalize != "" && p.Normalize != "none" {
		steps = append(steps, p.Normalize+" normalisation")
	}
	if len(steps) == 0 {
		return "as read"
	}
	return strings.Join(steps, ", ")
}

// checkFit shows on the Protocol tab, before Run, when the data are too small for the
// protocol, naming the smallest class, with the fixes in one click.
func (u *UI) checkFit() {
	if u.data == nil || u.protocol == nil {
		return
	}
	cfg := experiment.DefaultConfig()
	if err := u.protocol.fill(&cfg); err != nil {
		u.protocol.showFit("", 0, false) // the field's own error is shown at Run
		return
	}
	problem, most := study.Fit(cfg, u.data)
	if st := u.progress.Status.Text; problem == "" { // the status said it did not: say it does now
		switch {
		case strings.Contains(st, "The protocol does not suit these data"):
			u.progress.Status.SetText(strings.TrimSpace(st[:strings.Index(st, "The protocol does not suit")]) + " The protocol now suits the data.")
		case strings.HasPrefix(st, "Not started:") && strings.Contains(st, "Protocol tab offers a fix"):
			u.progress.Status.SetText("The protocol now suits the data: press Run.")
		}
	}
	drags := cfg
	drags.Protocol, drags.Folds, drags.InnerFolds = experiment.DRAGS2008, 0, 0
	dragsProblem, _ := study.Fit(drags, u.data)
	u.protocol.showFit(problem, most, dragsProblem == "" && cfg.Protocol != experiment.DRAGS2008)
}

// markStale shows, above the results, when they are of other data than those open.
func (u *UI) markStale() {
	defer u.right.Refresh() // lay the tabs out again: a hidden mark leaves no gap
	if u.result == nil || sameData(u.result.Data, u.data) {
		u.stale.Hide()
		return
	}
	u.groups.clear()
	u.stale.SetText(fmt.Sprintf("The results shown are of %s (%d samples, %d features), not of the data now open (%s). Run again to analyse these; the Groups tab shows no heat map meanwhile.",
		u.result.Data.Name, u.result.Data.Samples, len(u.result.Data.Features), u.data.Name))
	u.stale.Show()
}

// sameData reports whether the data d are those a run described by info used.
func sameData(info experiment.DataInfo, d *dataset.Dataset) bool {
	n, _ := d.Dims()
	return info.Name == d.Name && info.Samples == n && slices.Equal(info.Features, d.Features)
}

// applyPrep preprocesses the data read again (the options changed); options that leave
// no feature are refused and the previous data kept.
func (u *UI) applyPrep() {
	if u.raw == nil {
		return
	}
	raw := u.raw
	u.prepare(raw, func(data *dataset.Dataset, dropped []string, err error) {
		if raw != u.raw {
			return // other data were opened meanwhile
		}
		if err != nil {
			u.showError(err)
			u.progress.Status.SetText("The data are kept as they were prepared before.")
			return
		}
		u.data, u.dropped = data, dropped
		u.showSummary()
		u.checkFit()
		u.progress.Status.SetText("Prepared " + raw.Name + " (" + prepSteps(u.dataTab.prep()) + ").")
	})
}

// showSummary shows what the user should know of the data.
func (u *UI) showSummary() {
	u.dataTab.show(u.raw, u.data, u.dropped)
	u.win.SetTitle("Steadfast")
}
