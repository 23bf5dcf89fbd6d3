package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/internal/text"
)

// The survival Signature tab leads with the nested C when the advice chose method and
// k, and offers the permutation test of C as the class tab does: it asks with the cost
// from the study's own timings (here always: the threshold set to 0), runs with
// progress, shows p in the headline and the histogram among the figures, and Cancel
// stops a longer test, keeping the signature (DLBCL CHOP, ../shared/data).
func TestSurvivalPermutationInTheWindow(t *testing.T) {
	path := filepath.Join(sharedData, "dlbcl_chop_survival.csv")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	u, _ := newTestUI(t)
	serialized(func() { u.LoadFile(path, dataset.Options{}) })
	waitFor(t, "the survival data", 20*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(u.dataTab.summary.Text, "dlbcl_chop_survival.csv: 181 samples") })
	})
	serialized(func() {
		u.protocol.ks.SetText("10,20")
		u.protocol.folds.SetText("4")
		test.Tap(u.runBtn)
	})
	waitFor(t, "the survival run", 120*time.Second, func() bool { return onUI(func() bool { return u.result != nil && u.cancel == nil }) })
	sv := u.survView
	if onUI(func() bool { return !sv.permBtn.Disabled() }) {
		t.Error("the permutation test is offered before a signature is built")
	}
	serialized(func() { test.Tap(sv.build) })
	waitFor(t, "the survival signature", 120*time.Second, func() bool { return onUI(func() bool { return sv.sig != nil && u.cancel == nil }) })
	if m := onUI(func() string { return sv.metrics.Text }); !strings.Contains(m, "Headline: the nested cross-validated Harrell's C") || onUI(func() bool { return sv.sig.Nested == nil }) {
		t.Errorf("the advice's signature leads with %q", m)
	}
	checkSurvivalTables(t, sv)
	permAskAbove = 0
	defer func() { permAskAbove = 2 * time.Minute }()
	answer := func(n string) {
		t.Helper()
		serialized(func() { sv.perms.SetText(n); test.Tap(sv.permBtn) })
		var goOn *widget.Button
		waitFor(t, "the permutation test's question", 30*time.Second, func() bool {
			return onUI(func() bool {
				said := false
				walkVisible(u.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
					if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "permutations of the patients' (time, event) pairs. From the study's own timings that takes about") {
						said = true
					}
					if b, ok := o.(*widget.Button); ok && b.Text == "Yes" {
						goOn = b
					}
				})
				return said && goOn != nil && u.cancel == nil // nothing runs before the answer
			})
		})
		serialized(func() { test.Tap(goOn) })
	}
	answer("3")
	waitFor(t, "the permutation test", 120*time.Second, func() bool {
		return onUI(func() bool { return strings.Contains(sv.metrics.Text, "Permutation test of C: p =") && u.cancel == nil })
	})
	if p := onUI(func() float64 { return sv.sig.Perm.P }); p < 0.25 || p > 1 { // 1/4 at least with 3 permutations
		t.Errorf("p = %g", p)
	}
	if shows := onUI(func() []string { return sv.show.Options }); !slices.Contains(shows, "permutation test") || onUI(func() string { return sv.figure.Name }) != "signature-permutations" {
		t.Errorf("figures offered %q, shown %q", shows, onUI(func() string { return sv.figure.Name }))
	}
	if m := onUI(func() string { return sv.more.Text }); !strings.Contains(m, "(time, event) pairs") {
		t.Errorf("More does not say what the test permuted: %q", m)
	}
	// a longer test, cancelled once it runs: the signature and its first test are kept
	perm := onUI(func() float64 { return sv.sig.Perm.P })
	answer("200")
	waitFor(t, "the longer test to start", 30*time.Second, func() bool { return onUI(func() bool { return u.cancel != nil }) })
	serialized(func() { u.cancel() })
	waitFor(t, "the cancel", 30*time.Second, func() bool { return onUI(func() bool { return u.cancel == nil }) })
	if got := onUI(func() float64 { return sv.sig.Perm.P }); got != perm || !strings.Contains(onUI(func() string { return u.progress.Status.Text }), "cancelled") {
		t.Errorf("after Cancel: p %g (was %g), status %q", got, perm, onUI(func() string { return u.progress.Status.Text }))
	}
}

// checkSurvivalTables checks that the survival tab shows the files' values under their
// names: each measure's metrics.csv key and value as metrics.csv has them (three
// significant digits), Uno's C in the text as in metrics.csv, the genes in words, and
// the inner choices as counts adding up to the outer training sets.
func checkSurvivalTables(t *testing.T, sv *survivalView) {
	t.Helper()
	head, rows, metrics, genes, choices, more, n := onUI(func() []string { return sv.measures.Header() }), onUI(func() [][]string { return sv.measures.Rows() }),
		onUI(func() [][]string { return sv.sig.MetricsTable() }), onUI(func() []string { return sv.genes.Header() }), onUI(func() [][]string { return sv.choices.Rows() }),
		onUI(func() string { return sv.more.Text }), onUI(func() int { return len(sv.sig.Nested.Choices) })
	if len(head) != 4 || head[3] != "metrics.csv" || len(rows) < 10 {
		t.Fatalf("the measures table: %v, %d rows", head, len(rows))
	}
	byKey := map[string]string{}
	for _, r := range metrics[1:] {
		byKey[r[0]] = r[1]
	}
	for _, r := range rows {
		v, err := strconv.ParseFloat(byKey[r[3]], 64)
		if err != nil || !strings.HasPrefix(r[1], "<") && r[1] != text.Sig3(v) && r[1] != text.PValue(v) {
			t.Errorf("the window's %q (%s) shows %s, metrics.csv %q", r[0], r[3], r[1], byKey[r[3]])
		}
		if strings.HasPrefix(r[3], "uno_c_tau_") {
			if u, _ := strconv.ParseFloat(byKey[r[3]], 64); !strings.Contains(more, "Uno's C truncated at "+strings.TrimSuffix(strings.TrimPrefix(r[3], "uno_c_tau_"), "_pooled_mean_range_over_repetitions")) || !strings.Contains(more, fmt.Sprintf(" %.3f (range", u)) {
				t.Errorf("Uno's C: metrics.csv %s, the text %s", byKey[r[3]], more)
			}
		}
	}
	if !slices.Contains(genes, "hazard ratio per SD (95% CI)") || slices.Contains(genes, "cox_coefficient_per_sd") {
		t.Errorf("the gene table's header %v", genes)
	}
	total := 0
	for _, c := range choices {
		k, _ := strconv.Atoi(c[2])
		total += k
	}
	if total != n {
		t.Errorf("the inner choices count %d of %d outer training sets: %v", total, n, choices)
	}
}
