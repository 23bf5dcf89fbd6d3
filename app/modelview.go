package app

import (
	"fmt"
	"path/filepath"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/plots"
)

// openModel shows the locked model at path in the tab, for validation on cohorts
// without its study.
func (v *signatureView) openModel(path string) {
	m, err := signature.ReadModel(path)
	if err != nil {
		v.u.showError(err)
		return
	}
	v.figure = plots.Figure{}
	v.chart.SetRender(nil)
	v.showModelChoice(m)
	v.setSignature(study.ModelSignature(m, path), nil)
	v.showChoice(true) // the model's choice, read-only, and its actions
	v.u.tabs.SelectIndex(tabSignature)
	v.u.scrollToTop(tabSignature)
	v.u.progress.Status.SetText("Opened model " + filepath.Base(path) + ": Validate... applies it")
}

// showModelChoice shows the choice the model m was locked with (method, k, classifier,
// positive class), read-only: Build signature builds from a run, not from a model file.
// setResult offers a run's choices again.
func (v *signatureView) showModelChoice(m *signature.Model) {
	v.modelOnly = true
	label := experiment.ClassifierLabel(m.Classifier)
	v.method.Options, v.method.Selected = []string{m.Method}, m.Method
	k := strconv.Itoa(len(m.Genes))
	v.k.Options, v.k.Selected = []string{k}, k
	v.classifier.Options, v.classifier.Selected = []string{label}, label
	v.positive.Options, v.positive.Selected = nil, ""
	if m.Positive >= 0 && m.Positive < len(m.Classes) {
		v.positive.Options, v.positive.Selected = []string{m.Classes[m.Positive]}, m.Classes[m.Positive]
	}
	v.frequent.SetChecked(m.Frequent)
	for _, w := range []fyne.Disableable{v.method, v.k, v.classifier, v.positive, v.frequent, v.build} {
		w.Disable()
	}
	for _, s := range []*widget.Select{v.method, v.k, v.classifier, v.positive} {
		s.Refresh()
	}
}

// saveModel writes the locked model where the user chooses.
func (v *signatureView) saveModel() {
	if v.sig == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature)"))
		return
	}
	v.u.saveAs("model.json", []string{".json"}, v.writeModel)
}

// writeModel writes the locked model to path (a new file renamed over it) and says so.
func (v *signatureView) writeModel(path string) error {
	b, err := v.sig.Model.Encode()
	if err != nil {
		return err
	}
	if err := study.WriteFile(path, b); err != nil {
		return err
	}
	v.u.progress.Status.SetText("Saved the model to " + path)
	return nil
}
