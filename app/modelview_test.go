package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/plots"
)

// File > Open model... shows a locked model without its study (its genes, classes,
// training data and digests) and validates a cohort with it: the predictions, the
// cohort's figures and metrics appear as for a built signature, nothing offers a
// permutation test, and no export may replace the model file.
func TestOpenModelValidates(t *testing.T) {
	ds, res := smallRun(t)
	sig, err := study.BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 6, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model, cohort := filepath.Join(dir, "model.json"), filepath.Join(dir, "cohort.csv")
	b, err := sig.Model.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(cohort)
	if err != nil {
		t.Fatal(err)
	}
	if err := dataset.WriteCSV(f, ds); err != nil {
		t.Fatal(err)
	}
	f.Close()

	u, _ := newTestUI(t)
	v := u.sigView
	serialized(func() { v.openModel(model) })
	if m := onUI(func() string { return v.metricsText() }); !strings.Contains(m, "Model model.json: 6 genes of F-statistic") || !strings.Contains(m, sig.Model.SHA256[:12]) {
		t.Errorf("the opened model is said as %q", m)
	}
	if rows := onUI(v.table.Rows); len(rows) != 6 || rows[0][0] != sig.Genes[0].ID {
		t.Errorf("the gene table %q", rows)
	}
	if onUI(v.permBtn.Disabled) == false || onUI(v.needSig[1].Disabled) {
		t.Error("an opened model offers a permutation test, or no validation")
	}
	if err := u.checkWrite(model); err == nil {
		t.Error("an export may replace the opened model file")
	}
	serialized(func() { v.validate(cohort, study.CohortOptions{}) })
	waitFor(t, "the validation", 60*time.Second, func() bool { return onUI(func() bool { return v.sig.Validation != nil && u.cancel == nil }) })
	if m := onUI(func() string { return v.metricsText() }); !strings.Contains(m, "6 of 6 signature genes found") || !strings.Contains(m, "AUC") {
		t.Errorf("after the validation the metrics say %q", m)
	}
	if shows := onUI(func() []string { return v.show.Options }); len(shows) == 0 || !slices.ContainsFunc(shows, func(s string) bool { return strings.Contains(s, "cohort") }) {
		t.Errorf("figures offered %q", shows)
	}
	if rows := onUI(v.cohortTable.Rows); len(rows) != len(ds.Samples) {
		t.Errorf("%d predictions for %d samples", len(rows), len(ds.Samples))
	}
}

// A cohort lacking a signature gene is refused with the genes named, and the window
// offers to predict anyway: accepted, the validation runs on the genes found and says
// which was missing.
func TestValidateOffersToPredictAnyway(t *testing.T) {
	ds, res := smallRun(t)
	sig, err := study.BuildSignature(context.Background(), res, ds, signature.Choice{Method: 0, K: 6, Classifier: "svm"}, "")
	if err != nil {
		t.Fatal(err)
	}
	var keep []int
	for j := range ds.Features {
		if j != sig.Genes[0].Feature {
			keep = append(keep, j)
		}
	}
	less := *ds
	less.X = dataset.SelectFeatures(ds.X, keep)
	less.Features = nil
	for _, j := range keep {
		less.Features = append(less.Features, ds.Features[j])
	}
	cohort := filepath.Join(t.TempDir(), "cohort.csv")
	f, err := os.Create(cohort)
	if err != nil {
		t.Fatal(err)
	}
	if err := dataset.WriteCSV(f, &less); err != nil {
		t.Fatal(err)
	}
	f.Close()
	u, _ := newTestUI(t)
	v := u.sigView
	serialized(func() {
		u.setData(ds, "", dataset.Options{})
		u.setResult(res)
		v.setSignature(sig, nil)
		v.validate(cohort, study.CohortOptions{})
	})
	var anyway *widget.Button
	waitFor(t, "the offer to predict anyway", 60*time.Second, func() bool {
		return onUI(func() bool {
			said := false
			walkVisible(u.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
				if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, sig.Genes[0].ID) && strings.Contains(l.Text, "Predict with the genes found?") && !strings.Contains(l.Text, "--accept-missing") {
					said = true
				}
				if b, ok := o.(*widget.Button); ok && b.Text == "Predict anyway" {
					anyway = b
				}
			})
			return said && anyway != nil && u.cancel == nil
		})
	})
	serialized(func() { test.Tap(anyway) })
	waitFor(t, "the validation", 60*time.Second, func() bool { return onUI(func() bool { return v.sig.Validation != nil && u.cancel == nil }) })
	if m := onUI(func() string { return v.metricsText() }); !strings.Contains(m, "5 of 6 signature genes found") || !strings.Contains(m, "as accepted") {
		t.Errorf("after predicting anyway the metrics say %q", m)
	}
}

// The Data tab's "Samples grouped by" offers the file's annotations; chosen and the
// file read again, the samples carry their groups, the run keeps the choice in its
// configuration and its titles say so.
func TestDataTabGroupsSamples(t *testing.T) {
	u, _ := newTestUI(t)
	gds := filepath.Join("..", "compute", "dataset", "testdata", "geo", "GDS507.soft.gz")
	serialized(func() { u.LoadFile(gds, dataset.Options{}) })
	waitFor(t, "GDS507", 20*time.Second, func() bool { return onUI(func() bool { return u.path == gds && u.data != nil }) })
	if opts := onUI(func() []string { return u.dataTab.groupKeys }); !slices.Contains(opts, "individual") {
		t.Fatalf("groups offered %q", opts)
	}
	serialized(func() { u.dataTab.groupEntry.SetText("individual"); u.LoadFile(u.path, u.rereadOptions()) })
	waitFor(t, "GDS507 grouped", 20*time.Second, func() bool {
		return onUI(func() bool { return u.data != nil && len(u.data.Groups) == len(u.data.Samples) && u.cancel == nil })
	})
	if g := onUI(func() string { return u.readOpt.GroupName }); g != "individual" {
		t.Errorf("the reading options group by %q", g)
	}
}

// The Meaning view tests the built signature's genes against GO over the platform's
// measured genes (GDS507, which carries gene symbols): the sentence names the universe
// and GO's licence, the table lists the terms with their stability, the dot plot draws.
func TestMeaningView(t *testing.T) {
	u, _ := newTestUI(t)
	gds := filepath.Join("..", "compute", "dataset", "testdata", "geo", "GDS507.soft.gz")
	raw, err := dataset.ReadFile(gds, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds, _, err := study.Prepare(raw, dataset.Prep{Log2: true, DropConstant: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := experiment.DefaultConfig()
	cfg.Methods, cfg.Protocol, cfg.Classifiers, cfg.Prep = []method.Spec{{Name: "fstat"}}, experiment.DRAGS2008, []string{"svm"}, dataset.Prep{Log2: true, DropConstant: true}
	res, err := study.Run(context.Background(), cfg, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := u.sigView
	serialized(func() {
		u.setData(ds, gds, dataset.Options{})
		u.setResult(res)
		v.k.SetSelected("50")
		test.Tap(v.build)
	})
	waitFor(t, "the signature", 60*time.Second, func() bool { return onUI(func() bool { return v.sig != nil && u.cancel == nil }) })
	serialized(func() { v.views.SelectIndex(2); test.Tap(v.meaning.run) })
	waitFor(t, "the enrichment", 60*time.Second, func() bool { return onUI(func() bool { return v.meaning.result != nil && u.cancel == nil }) })
	if s := onUI(func() string { return v.meaning.summary.Text }); !strings.Contains(s, "genes the platform measured that have an annotation in GO BP") || !strings.Contains(s, "CC BY 4.0") {
		t.Errorf("the Meaning view says %q", s)
	}
	if rows := onUI(v.meaning.table.Rows); len(rows) < 1000 || rows[0][6] == "" {
		t.Errorf("%d terms; first %q", len(rows), rows[0])
	}
	waitFor(t, "the dot plot", 30*time.Second, func() bool { return onUI(v.meaning.chart.Image) != nil })
	if rows := onUI(v.meaning.camera.Rows); len(rows) < 1000 || (rows[0][4] != "Up" && rows[0][4] != "Down") {
		t.Errorf("camera: %d sets; first %q", len(rows), rows[0])
	}
	var report bytes.Buffer
	size, _ := plots.NewExportOptions(16, 10, "cm", 96)
	if err := plots.ReportWith(context.Background(), &report, res, onUI(func() *study.Signature { return v.sig }), size); err != nil || !strings.Contains(report.String(), "<h2>What the genes mean</h2>") {
		t.Errorf("the report: %v; a Meaning section: %v", err, strings.Contains(report.String(), "<h2>What the genes mean</h2>"))
	}
}
