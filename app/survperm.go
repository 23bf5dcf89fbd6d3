package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// permRow is the survival tab's permutation test row: how many permutations and the
// button that asks, with the cost, and runs the test (as the class tab's).
func (v *survivalView) permRow() fyne.CanvasObject {
	v.perms = widget.NewEntry()
	v.perms.SetText("100")
	v.permBtn = widget.NewButton("Permutation test...", v.permute)
	v.permBtn.Disable()
	return container.NewHBox(widget.NewLabel("permutations"), container.NewGridWrap(fyne.NewSize(70, 36), v.perms), v.permBtn)
}

// nestSurvival sets sig's nested C when the advice chose its method and k (the advice
// made again inside each outer training set, as the class tab's nested AUC); only
// cancelling is an error: without the nested C the headline says it is optimistic.
func nestSurvival(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, sig *study.SurvivalSignature, saved *study.SignatureRecord, report func(experiment.Progress)) error {
	if sig.Restore(saved) && (sig.Nested != nil || !sig.Advised) {
		return nil // the reopened run's nested C and permutation test, not recomputed
	}
	if !sig.Advised {
		return nil
	}
	report(experiment.Progress{Total: 1, Stage: "nested C (the advice's choice made again in each training set)"})
	err := sig.Nest(ctx, res, ds, func(done, total int) {
		report(experiment.Progress{Done: done, Total: total, Stage: "nested C (the advice's choice made again in each training set)"})
	})
	if err != nil && ctx.Err() != nil {
		return err
	}
	return nil
}

// permHead is the headline's tail when the permutation test of C was run.
func permHead(sig *study.SurvivalSignature) string {
	if sig.Perm == nil {
		return ""
	}
	return fmt.Sprintf(" Permutation test of C: p = %.3g (%s).", sig.Perm.P, text.Count(len(sig.Perm.AUCs), "permutation"))
}

// permute asks, with its estimated cost from the study's own timings when it is over
// permAskAbove, then runs the permutation test of the signature's C.
func (v *survivalView) permute() {
	if v.sig == nil || v.result == nil {
		v.u.showError(fmt.Errorf("build the signature first (Build signature)"))
		return
	}
	v.u.askPermutations(v.perms, v.result, v.sig.Choice, v.sig.Advised, "outcome", " of the patients' (time, event) pairs", v.runPermutations)
}

// runPermutations runs the permutation test of n permutations as a task (Cancel stops
// it within a study's resample).
func (v *survivalView) runPermutations(n int) {
	res, ds, sig := v.result, v.u.data, v.sig
	v.u.startTask("Permutation test", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		stage := "permuted studies (the first on the true outcome)"
		report(experiment.Progress{Total: n + 1, Stage: stage})
		perm, err := study.PermuteSurvival(ctx, res, ds, sig, n, res.Config.Seed, func(done, total int) {
			report(experiment.Progress{Done: done, Total: total, Stage: stage})
		})
		if err != nil {
			return nil, err
		}
		fig := plots.PermutationFigure(res.Data.Name, perm)
		return func() {
			if v.sig != sig {
				return // another signature was built meanwhile
			}
			sig.Perm = perm
			figs := append(slices.DeleteFunc(slices.Clone(v.figs), func(f plots.Figure) bool { return f.Name == fig.Name }), fig)
			val, valFigs := v.val, v.valFigs
			v.setSignature(sig, figs)
			if val != nil {
				v.setValidation(val, valFigs)
			}
			v.show.SetSelected(survivalShows[fig.Name])
		}, nil
	})
}

// setSaved offers the choice of the survival signature a reopened run kept (r, nil for
// none) and says that Build signature restores its nested C and permutation test.
func (v *survivalView) setSaved(r *study.SignatureRecord) {
	v.saved = r
	if r == nil || r.Choice.Classifier != "cox" || r.Choice.Method < 0 || r.Choice.Method >= len(v.method.Options) {
		return
	}
	v.method.SetSelected(v.method.Options[r.Choice.Method])
	v.k.SetSelected(strconv.Itoa(r.Choice.K))
	if r.Choice.Cut.Kind == "tertiles" {
		v.groups.SetSelectedIndex(1)
	} else {
		v.groups.SetSelectedIndex(0)
	}
	var kept []string
	if r.SurvivalNested != nil {
		c := r.SurvivalNested.C
		kept = append(kept, fmt.Sprintf("its nested C %.3f (95%% CI %.3f-%.3f)", c.Mean, c.Low, c.High))
	}
	if r.Perm != nil {
		kept = append(kept, fmt.Sprintf("its permutation test of C (p = %.3g)", r.Perm.P))
	}
	what := "its choice"
	if len(kept) > 0 {
		what += " and " + strings.Join(kept, " and ")
	}
	v.metrics.SetText("This run was saved with a survival signature: " + what + ". Press Build signature to rebuild it from the data; what took long is restored, not recomputed.")
}
