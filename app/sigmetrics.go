package app

// The Signature tab's metrics: the headline in a line or two, the rest under More,
// and the whole account under Details.

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// showMetrics says the signature's headline in a line or two (its genes, the headline
// AUC, a cohort's AUC), the rest (the estimate in full, the permutation test, the
// validation) under the more toggle, so the figure keeps the pane.
func (v *signatureView) showMetrics() {
	sig := v.sig
	if sig.CV == nil {
		head := sig.ModelText()
		if sig.Validation != nil {
			head += validationHeadline(sig.Validation)
		}
		v.setMetrics(head, "")
		if sig.Validation != nil {
			v.setMetrics(head, strings.TrimSpace(validationText(sig.Validation)))
		}
		return
	}
	head := text.Count(len(sig.Genes), "gene") + ". " + capitalize(sig.Headline().Text()) + "."
	if v.offerNested(sig) {
		head += " Method and k as chosen here: " + signature.GivenWarning + ". Nested estimate... gives the honest one."
	}
	rest := sig.Brief()
	if sig.Perm != nil {
		head += fmt.Sprintf(" Permutation test: p = %.3g.", sig.Perm.P)
		rest += fmt.Sprintf(" Permutation test: p = %.3g (the smallest attainable with %s: %.3g; Details... says what it tests).", sig.Perm.P, text.Count(len(sig.Perm.AUCs), "permutation"), sig.Perm.Smallest())
	}
	if sig.Validation != nil {
		head += validationHeadline(sig.Validation)
		rest += validationText(sig.Validation)
	}
	v.setMetrics(head, rest)
}

// setMetrics shows head, and rest under the more toggle (hidden, with the toggle, when
// empty).
func (v *signatureView) setMetrics(head, rest string) {
	v.metrics.SetText(head)
	v.more.SetText(rest)
	if rest == "" {
		v.moreBtn.Hide()
		v.more.Hide()
		return
	}
	v.moreBtn.Show()
	if v.moreBtn.Text == "Less" {
		v.more.Show()
	}
}

// metricsText is everything the metrics say, shown or folded.
func (v *signatureView) metricsText() string {
	if v.more.Text == "" {
		return v.metrics.Text
	}
	return v.metrics.Text + " " + v.more.Text
}

// toggleMore shows or folds the metrics beyond the headline.
func (v *signatureView) toggleMore() {
	if v.more.Visible() {
		v.more.Hide()
		v.moreBtn.SetText("More")
	} else {
		v.more.Show()
		v.moreBtn.SetText("Less")
	}
}

// capitalize is s with its first letter upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// details is the whole account of the signature's estimate: every number named, how
// the choice and the positive class were made, the fold changes' scale.
func (v *signatureView) details() string {
	sig := v.sig
	if sig.CV == nil {
		return sig.ModelText()
	}
	s := text.Count(len(sig.Genes), "gene") + ". " + sig.Performance()
	if sig.Positive >= 0 {
		s += " " + sig.Classes[sig.Positive] + " is the positive class: " + sig.PositiveWhy + "."
	}
	return s + " Fold changes: " + sig.Scale.Why + ". The p-values are descriptive: computed after the selection, on all samples, they do not test the signature."
}

// showDetails shows details in a dialog whose text can be selected and copied.
func (v *signatureView) showDetails() {
	if v.sig == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature)"))
		return
	}
	e := widget.NewMultiLineEntry()
	e.Wrapping = fyne.TextWrapWord
	e.SetText(v.details())
	d := dialog.NewCustom("The signature's estimate in full", "Close", e, v.u.win)
	d.Resize(fyne.NewSize(760, 460))
	d.Show()
}
