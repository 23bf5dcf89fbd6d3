package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDataTabProteomics: MaxQuant's proteinGroups.txt of the Proteus example opens from
// the Data tab with its design table: log2 is ticked for its unlogged intensities, the
// summary says how many values are missing and that every training set filters,
// normalises and imputes its own, names what was left out, the left-out list can be
// saved and the figure of each run's missing share and distributions is shown;
// choosing knn and quantile normalisation prepares the data again with them.
func TestDataTabProteomics(t *testing.T) {
	data := filepath.Join("..", "..", "shared", "data")
	mq := filepath.Join(data, "proteus_proteinGroups.txt.gz")
	if _, err := os.Stat(mq); err != nil {
		t.Fatalf("the Proteus example is needed: %v", err)
	}
	u, _ := newTestUI(t)
	serialized(func() {
		u.dataTab.intens.design.SetText(filepath.Join(data, "proteus_metadata.txt"))
		u.LoadFile(mq, u.dataTab.readOptions(""))
	})
	waitFor(t, "the Proteus runs prepared", time.Minute, func() bool {
		return onUI(func() bool { return u.data != nil && u.data.Raw != nil && !u.preparing() })
	})
	summary := onUI(func() string { return u.dataTab.summary.Text })
	for _, w := range []string{"Missing values: 10916 cells in 1431 features", "every training set filters, normalises and imputes its own", "13 potential contaminant", "786 ranked last by the valid-value filter", "classes from the design table proteus_metadata.txt"} {
		if !strings.Contains(summary, w) {
			t.Errorf("the summary lacks %q:\n%s", w, summary)
		}
	}
	if !onUI(func() bool {
		return u.dataTab.log2Check.Checked && u.dataTab.intens.chartBox.Visible() && u.dataTab.intens.leftOut.Visible() && strings.Contains(u.dataTab.intens.leftOut.Text, "(955)")
	}) {
		t.Error("log2 not ticked, or the figure or the left-out list not offered")
	}
	serialized(func() {
		u.dataTab.intens.normalize.SetSelectedIndex(2)
		u.dataTab.intens.impute.SetSelectedIndex(2) // knn
	})
	waitFor(t, "the runs prepared with knn", time.Minute, func() bool {
		return onUI(func() bool {
			return !u.preparing() && strings.Contains(strings.Join(u.data.Notes, " "), "10 nearest proteins") && strings.Contains(strings.Join(u.data.Notes, " "), "quantile")
		})
	})
}
