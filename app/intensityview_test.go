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
	// the left-out groups counted once each, under their first mark: R, over the file
	// (read.delim, check.names = TRUE): sum(rev) = 68, sum(con & !rev) = 11,
	// sum(site & !rev & !con) = 77, sum(rev + con + site >= 2) = 36, 13 without LFQ
	// intensity (testdata/rwritten/make.R counts the same over all marked groups)
	for _, w := range []string{"Missing values: 10916 cells in 1431 features", "every training set filters, normalises and imputes its own",
		"3,883 protein groups, 169 left out (68 reverse hit (decoy), 11 potential contaminant, 77 only identified by a modification site, 13 without any LFQ intensity; each group counted once, under its first mark in this order (36 carry two marks or more)",
		"68 reverse hit (decoy)", "11 potential contaminant,", "77 only identified by a modification site,", "13 no LFQ intensity in any sample,", "786 ranked last by the valid-value filter on all samples; each counted once, under its first reason (36 have several)",
		"classes from the design table proteus_metadata.txt"} {
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

// TestDataTabRWrittenAndLog2: the LFQ-only copy of Proteus' table that R's write.csv
// wrote (compute/dataset/testdata/rwritten/make.R) opens in the window as MaxQuant, the
// Data tab saying what the command line says (R's names, 169 of 369 groups left out,
// log2 ticked); chowdary.csv's values below 1 are counted on the Data tab as on the
// command line: 116 zeros and 175,762 between 0 and 1 of 2,317,432 values (R:
// d <- read.csv("chowdary.csv"); x <- as.matrix(d[sapply(d, is.numeric)]);
// sum(x == 0); sum(x > 0 & x < 1); length(x)).
func TestDataTabRWrittenAndLog2(t *testing.T) {
	data := filepath.Join("..", "..", "shared", "data")
	u, _ := newTestUI(t)
	serialized(func() {
		u.LoadFile(filepath.Join("..", "compute", "dataset", "testdata", "rwritten", "lfq_rnames.csv.gz"), u.dataTab.readOptions(""))
	})
	waitFor(t, "the R-written table prepared", time.Minute, func() bool {
		return onUI(func() bool { return u.data != nil && u.data.Raw != nil && !u.preparing() })
	})
	summary := onUI(func() string { return u.dataTab.summary.Text })
	for _, w := range []string{"named as R names them", "369 protein groups, 169 left out", "log2 is ticked"} {
		if !strings.Contains(summary, w) {
			t.Errorf("the summary lacks %q:\n%s", w, summary)
		}
	}
	ch := filepath.Join(data, "chowdary.csv")
	if _, err := os.Stat(ch); err != nil {
		t.Fatalf("chowdary.csv is needed: %v", err)
	}
	serialized(func() { u.LoadFile(ch, u.dataTab.readOptions("")) })
	waitFor(t, "chowdary prepared", 2*time.Minute, func() bool {
		return onUI(func() bool { return u.data != nil && strings.HasPrefix(u.data.Name, "chowdary") && !u.preparing() })
	})
	summary = onUI(func() string { return u.dataTab.summary.Text })
	if w := "log2: 175,878 of 2,317,432 values (7.6%) are below 1 (116 zero, 175,762 between 0 and 1) and were raised to 1 before log2"; !strings.Contains(summary, w) {
		t.Errorf("the summary lacks %q:\n%s", w, summary)
	}
}
