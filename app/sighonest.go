package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// The headline stays honest on every click: a choice that came from the study (its
// advice, or the value preselected from it, whatever the classifier) is estimated
// nested; a method or k the user chose is said to be optimistic if chosen after seeing
// the results, with the nested estimate offered; and results that no longer match the
// choice shown are marked stale until built again.

// staleText says the signature shown is of choice was, not of the choice now shown.
func staleText(res *experiment.Result, was signature.Choice, classifier bool) string {
	with := ""
	if classifier {
		with = " with " + experiment.ClassifierLabel(was.Classifier)
	}
	return fmt.Sprintf("Stale: the results below are of %s at k = %d%s, not of the choice now above. Press Build signature to rebuild them.",
		res.Methods[was.Method].Label, was.K, with)
}

// markStale shows the stale mark when the signature shown is not of the method, k,
// classifier, positive class or gene rule now chosen; hides it otherwise.
func (v *signatureView) markStale() {
	sig := v.sig
	if sig == nil || sig.CV == nil || v.modelOnly || v.result == nil {
		v.stale.Hide()
		return
	}
	c, err := v.choice()
	same := err == nil && c == sig.Choice && (sig.Positive < 0 || v.positive.Selected == sig.Classes[sig.Positive])
	if same {
		v.stale.Hide()
		return
	}
	v.stale.SetText(staleText(v.result, sig.Choice, true))
	v.stale.Show()
}

// offerNested says whether sig's method and k were given by the user, among choices
// the study offered: its plain estimate is then optimistic if they were chosen after
// seeing the results, and the nested estimate is offered.
func (v *signatureView) offerNested(sig *study.Signature) bool {
	return sig != nil && sig.CV != nil && !sig.Advised && !sig.Choice.Frequent && v.result != nil && study.Choosable(v.result, sig.Choice.Classifier)
}

// askNested asks, with its cost, whether to compute the nested estimate of the
// signature shown (its method and k taken as chosen after seeing the results).
func (v *signatureView) askNested() {
	sig, res := v.sig, v.result
	if sig == nil || res == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature)"))
		return
	}
	msg := nestedQuestion(res, experiment.ClassifierLabel(sig.Choice.Classifier))
	d := dialog.NewCustomConfirm("Nested estimate", "Compute", "Cancel", wrapped(msg), func(ok bool) {
		if ok {
			v.runNested(sig, res)
		}
	}, v.u.win)
	d.Resize(fyne.NewSize(520, 260)) // a readable line, not a column of words
	d.Show()
}

// nestedQuestion is the nested estimate's offer with its cost: the advice made again
// with the classifier named inside each outer training set.
func nestedQuestion(res *experiment.Result, classifier string) string {
	cost := "under a second"
	if secs := study.NestedCost(res); secs >= 1 {
		cost = "about " + text.Duration(time.Duration(secs*float64(time.Second)))
	}
	return fmt.Sprintf("Chosen after seeing this study's results? Then the plain estimate is optimistic. The nested estimate makes the advice's choice of method and k again with %s inside each of the first %d repetitions' training sets, and judges it on samples the choice never saw; it becomes the headline. It takes %s here.",
		classifier, study.NestedRepeats, cost)
}

// runNested computes sig's nested estimate as a task and shows it as the headline.
func (v *signatureView) runNested(sig *study.Signature, res *experiment.Result) {
	ds := v.u.data
	v.u.startTask("Nested estimate", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		// sig is on screen: the estimate is computed here and set on the UI goroutine
		n, err := study.NestedEstimate(ctx, res, ds, sig.Choice.Classifier, sig.Positive, func(done, total int) {
			report(experiment.Progress{Done: done, Total: total, Stage: "nested estimate (the advice's choice made again in each training set)"})
		})
		if err != nil {
			return nil, err
		}
		return func() {
			sig.SetNested(n)
			figs := plots.SignatureFigures(res, sig)
			if v.sig == sig {
				val := v.valFigs
				v.setSignature(sig, figs)
				v.valFigs = val
				v.showOptions()
			}
		}, nil
	})
}

// formKey is what of the survival form the signature depends on: method, k, risk
// groups, horizons and time unit.
func (v *survivalView) formKey() string {
	return fmt.Sprintf("%d|%s|%d|%s|%s", v.method.SelectedIndex(), v.k.Selected, v.groups.SelectedIndex(), strings.TrimSpace(v.horizons.Text), strings.TrimSpace(v.unit.Text))
}

// markStale shows the stale mark when the survival signature shown was built from
// another method, k, risk groups or horizons than the form's; hides it otherwise.
func (v *survivalView) markStale() {
	sig := v.sig
	if sig == nil || v.result == nil || v.formKey() == v.built {
		v.stale.Hide()
		return
	}
	v.stale.SetText(staleText(v.result, sig.Choice, false))
	v.stale.Show()
}

// offerNested says whether sig's method and k were given by the user among choices the
// study offered (see the class tab's).
func (v *survivalView) offerNested(sig *study.SurvivalSignature) bool {
	return sig != nil && sig.CV != nil && !sig.Advised && !sig.Choice.Frequent && v.result != nil && study.Choosable(v.result, "cox")
}

// askNested asks, with its cost, whether to compute the nested C of the signature
// shown (its method and k taken as chosen after seeing the results).
func (v *survivalView) askNested() {
	sig, res := v.sig, v.result
	if sig == nil || res == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature)"))
		return
	}
	d := dialog.NewCustomConfirm("Nested C", "Compute", "Cancel", wrapped(nestedQuestion(res, "the Cox model")), func(ok bool) {
		if ok {
			v.runNested(sig, res)
		}
	}, v.u.win)
	d.Resize(fyne.NewSize(520, 260))
	d.Show()
}

// runNested computes sig's nested C as a task and shows it as the headline.
func (v *survivalView) runNested(sig *study.SurvivalSignature, res *experiment.Result) {
	ds := v.u.data
	v.u.startTask("Nested C", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		// sig is on screen: the nested C is computed here and set on the UI goroutine
		n, err := study.SurvivalNestedEstimate(ctx, res, ds, func(done, total int) {
			report(experiment.Progress{Done: done, Total: total, Stage: "nested C (the advice's choice made again in each training set)"})
		})
		if err != nil {
			return nil, err
		}
		return func() {
			sig.SetNested(n)
			figs := plots.SurvivalSignatureFigures(res, sig)
			if sig.Added != nil {
				figs = append(figs, plots.AddedValueForest(res.Data.Name, sig.Added))
			}
			if v.sig == sig {
				val, valFigs := v.val, v.valFigs
				v.setSignature(sig, figs)
				if val != nil {
					v.setValidation(val, valFigs)
				}
			}
		}, nil
	})
}
