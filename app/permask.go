package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
)

// permAskAbove is the estimated time of a permutation test above which the window asks
// before it starts (a variable for the tests).
var permAskAbove = 2 * time.Minute

// askPermutations reads the number of permutations typed in entry and calls run with
// it: at once when the test's cost, estimated from the study's own timings, is at most
// permAskAbove, else once the user agrees. truth names what the study was fitted on
// ("labels", "outcome") and permuted what each permutation shuffles ("" or " of ...").
func (u *UI) askPermutations(entry *widget.Entry, res *experiment.Result, c signature.Choice, advised bool, truth, permuted string, run func(n int)) {
	n, err := strconv.Atoi(strings.TrimSpace(entry.Text))
	if err != nil || n < 1 || n > study.MaxPermutations {
		u.showError(fmt.Errorf("permutations: %q is not a whole number from 1 to %d", entry.Text, study.MaxPermutations))
		return
	}
	est := time.Duration(study.PermutationCost(res, c, advised, n) * float64(time.Second))
	if est <= permAskAbove {
		run(n)
		return
	}
	what := "the study"
	if advised {
		what = "every method of the study, the advice choosing method and k again each time,"
	}
	dialog.ShowConfirm("Permutation test", fmt.Sprintf("The test refits %s %s: on the true %s, then on %s%s. From the study's own timings that takes about %s on this computer. Progress and Cancel as for a run. Go on?",
		what, text.Count(n+1, "time"), truth, text.Count(n, "permutation"), permuted, text.Duration(est)), func(ok bool) {
		if ok {
			run(n)
		}
	}, u.win)
}
