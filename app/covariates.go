package app

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// covariatesShown is how many of the matching columns the covariates dialog lists at
// once (a gene file has thousands; the filter finds the others).
const covariatesShown = 200

// splitNames is a comma-separated list of names, each trimmed, empty ones left out.
func splitNames(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// covariateColumns are the columns of the data open that can be read as clinical
// covariates: those read as covariates, then the features, in the file's order.
func (u *UI) covariateColumns() []string {
	if u.raw == nil {
		return nil
	}
	return append(u.raw.CovariateNames(), u.raw.Features...)
}

// covariatesButton is a "Choose..." button whose dialog ticks the data's columns to read
// as clinical covariates (as --covariates names them): the ticked names go into entry
// and the file is read again with them.
func (u *UI) covariatesButton(entry *widget.Entry) *widget.Button {
	entry.OnSubmitted = func(string) { u.rereadData() }
	return widget.NewButton("Choose...", func() { u.showCovariates(entry) })
}

// rereadData reads the data file open again with the Data tab's options.
func (u *UI) rereadData() {
	if u.path != "" {
		u.LoadFile(u.path, u.rereadOptions())
	}
}

// showCovariates is the covariates dialog: a filter and a checklist of the data's
// columns, those named in entry ticked; OK writes the ticked ones into entry and reads
// the file again.
func (u *UI) showCovariates(entry *widget.Entry) {
	cols := u.covariateColumns()
	if len(cols) == 0 {
		u.showError(fmt.Errorf("open a data file first: its columns are what can be read as clinical covariates"))
		return
	}
	chosen := splitNames(entry.Text)
	list := widget.NewCheckGroup(nil, nil)
	filter := widget.NewEntry()
	filter.SetPlaceHolder("filter the columns: part of a name (age, IPI, 1552)")
	count := widget.NewLabel("")
	fill := func() {
		f := strings.ToLower(strings.TrimSpace(filter.Text))
		opts := slices.Clone(chosen) // the ticked first, always listed
		matched := 0
		for _, c := range cols {
			if slices.ContainsFunc(chosen, func(s string) bool { return strings.EqualFold(s, c) }) || !strings.Contains(strings.ToLower(c), f) {
				continue
			}
			matched++
			if matched <= covariatesShown {
				opts = append(opts, c)
			}
		}
		list.OnChanged = nil
		list.Options, list.Selected = opts, slices.Clone(chosen)
		list.Refresh()
		list.OnChanged = func(sel []string) { chosen = slices.Clone(sel) }
		count.SetText(fmt.Sprintf("%d of %d columns match", matched, len(cols)))
		if matched > covariatesShown {
			count.SetText(fmt.Sprintf("%d of %d columns match; the first %d are listed: type more of a name", matched, len(cols), covariatesShown))
		}
	}
	filter.OnChanged = func(string) { fill() }
	fill()
	what := widget.NewLabel("Tick the columns to read as clinical covariates: sample annotations kept beside the genes, never ranked or used by the classifiers, and offered for a survival signature's added value. Columns named like age, sex, stage, grade or IPI are read so without being ticked.")
	what.Wrapping = fyne.TextWrapWord
	content := container.NewBorder(container.NewVBox(what, filter, count), nil, nil, nil, container.NewVScroll(list))
	u.showConfirm("Clinical covariates", "Read with these", content, fyne.NewSize(620, 520), filter, func() {
		entry.SetText(strings.Join(chosen, ", "))
		u.rereadData()
	})
}
