package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
	"steadfast/widgets"
)

// The tools are result tabs that compute on the data on screen rather than on a run:
// the K chooser, the wrapper's AUC sweep and the MIDS sizes. Each runs as a task
// (progress, Cancel) and keeps its figure for export.

// kChooserView computes and shows DRAGS Fig. 1 for the data on screen.
type kChooserView struct {
	u       *UI
	content fyne.CanvasObject
	chart   *widgets.Chart
	button  *widget.Button
	self    *widget.Check
	figure  plots.Figure
	result  *study.KChooserResult
}

func newKChooserView(u *UI) *kChooserView {
	k := &kChooserView{u: u, chart: u.newChart("Press Compute to see, for each K, how correlated every feature is with its K nearest features (DRAGS Fig. 1). A K whose box has spread but stays high is a good bandwidth; the papers use K = 5.")}
	k.button = widget.NewButton("Compute for these data", k.compute)
	k.self = widget.NewCheck("Feature is its own first neighbour (DRAGS paper)", nil)
	k.content = container.NewBorder(container.NewHBox(k.button, k.self), nil, nil, nil, k.chart)
	return k
}

func (k *kChooserView) compute() {
	ds, ok := k.u.readyData()
	if !ok {
		return
	}
	self := k.self.Checked
	k.u.startTask("K chooser", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		report(experiment.Progress{Total: 1, Stage: "nearest-neighbour correlations"})
		r, err := study.KChooser(ctx, ds, self)
		if err != nil {
			return nil, err
		}
		return func() { k.show(r) }, nil
	})
}

// show shows a K chooser result (nil clears it).
func (k *kChooserView) show(r *study.KChooserResult) {
	k.result, k.figure = r, plots.Figure{}
	if r == nil {
		k.chart.SetRender(nil)
		return
	}
	k.figure = plots.KChooser(r.Data, r.Ks, r.Values)
	k.chart.SetRender(renderer(k.figure))
}

// wrapperView computes and shows the bootstrap wrapper's learning-curve AUC against Na
// (Diaz-Diaz et al. Fig. 4) for the data on screen.
type wrapperView struct {
	u       *UI
	content fyne.CanvasObject
	chart   *widgets.Chart
	nas     *widget.Entry
	ne      *widget.Select
	k2      *widget.Check
	button  *widget.Button
	figure  plots.Figure
	result  *study.WrapperResult
}

func newWrapperView(u *UI) *wrapperView {
	v := &wrapperView{u: u, chart: u.newChart("Press Compute: for each Na, the bootstrap wrapper ranks the genes and the area under its learning curve (3-NN, 5-fold CV, top 100 genes) is drawn, with the exhaustive K = 1 baseline.")}
	v.nas = widget.NewEntry()
	v.nas.SetText("0.2, 0.4, 0.6, 0.8, 1")
	v.ne = widget.NewSelect([]string{"1 x p", "2 x p", "3 x p"}, nil)
	v.ne.SetSelectedIndex(0)
	v.k2 = widget.NewCheck("K = 2 baseline (every pair)", nil)
	v.button = widget.NewButton("Compute", v.compute)
	v.content = container.NewBorder(container.NewVBox(
		container.NewHBox(widget.NewLabel("Na, in % of genes (0.4 = 0.4%)"), container.NewGridWrap(fyne.NewSize(200, 36), v.nas), u.explain("Na"), widget.NewLabel("subsets"), v.ne),
		container.NewHBox(v.k2, v.button)), nil, nil, nil, v.chart)
	return v
}

// compute parses the settings; with the K = 2 baseline ticked it first states its cost
// and asks.
func (v *wrapperView) compute() {
	if _, ok := v.u.readyData(); !ok {
		return
	}
	nas, err := study.ParsePercentages(v.nas.Text)
	if err != nil {
		v.u.showError(fmt.Errorf("the Na list: %w", err))
		return
	}
	sweep := experiment.WrapperSweep{NAs: nas, Ne: float64(v.ne.SelectedIndex() + 1), Nae: 100, Seed: 1}
	if !v.k2.Checked {
		v.start(sweep)
		return
	}
	ds := v.u.data
	_, p := ds.Dims()
	pairs, cost := study.WrapperPairs(ds)
	msg := widget.NewLabel(fmt.Sprintf("The K = 2 baseline evaluates every pair of the %s genes: %s pairs, each by 5-fold CV of 3-NN.\nOn this computer that takes about %s, on top of the rest. You can cancel it while it runs.",
		text.Thousands(p), text.Thousands(pairs), text.Duration(cost)))
	dialog.ShowCustomConfirm("K = 2 baseline", "Start with K = 2", "Cancel", msg, func(ok bool) {
		if ok {
			sweep.K2 = true
			v.start(sweep)
		}
	}, v.u.win)
}

func (v *wrapperView) start(sweep experiment.WrapperSweep) {
	ds := v.u.data
	v.u.startTask("Wrapper", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		sweep.Progress = func(stage string, done, total int) {
			report(experiment.Progress{Done: done, Total: total, Stage: stage})
		}
		r, err := study.Wrapper(ctx, ds, sweep)
		if err != nil {
			return nil, err
		}
		return func() { v.show(r) }, nil
	})
}

// show shows a wrapper result (nil clears it).
func (v *wrapperView) show(r *study.WrapperResult) {
	v.result, v.figure = r, plots.Figure{}
	if r == nil {
		v.chart.SetRender(nil)
		return
	}
	v.figure = plots.AUCvsNa(r.Data, r.NAs, r.AUCs, r.Baselines)
	v.chart.SetRender(renderer(v.figure))
}

// midsView shows the MIDS of the data on screen: its size and the greedy set's against
// epsilon, and at the chosen epsilon each MIDS gene with the genes it stands for.
type midsView struct {
	u       *UI
	content fyne.CanvasObject
	epsilon *widget.Select
	button  *widget.Button
	summary *widget.Label
	table   *widgets.StringTable
	chart   *widgets.Chart
	figure  plots.Figure
	result  *study.MIDSResult
}

func newMIDSView(u *UI) *midsView {
	v := &midsView{u: u, summary: widget.NewLabel("Press Compute: Steadfast links genes whose |correlation| exceeds epsilon and keeps a smallest set of genes that are not linked to each other but to which every other gene is linked (Shu, Ma and Latecki 2013)."),
		table: widgets.NewStringTable(),
		chart: u.newChart("The MIDS size for each epsilon from 0.5 to 0.8 appears here.")}
	v.summary.Wrapping = fyne.TextWrapWord
	var opts []string
	for _, e := range study.MIDSEpsilons {
		opts = append(opts, strconv.FormatFloat(e, 'g', 3, 64))
	}
	v.epsilon = widget.NewSelect(opts, nil)
	v.epsilon.SetSelected("0.6")
	v.button = widget.NewButton("Compute", v.compute)
	split := container.NewVSplit(v.chart, v.table.Table)
	split.Offset = 0.45
	v.content = container.NewBorder(
		container.NewVBox(container.NewHBox(widget.NewLabel("epsilon"), v.epsilon, u.explain("epsilon"), v.button, u.tableActions(v.table, 0, "mids")), v.summary),
		nil, nil, nil, split)
	return v
}

func (v *midsView) compute() {
	ds, ok := v.u.readyData()
	if !ok {
		return
	}
	chosen := max(v.epsilon.SelectedIndex(), 0)
	v.u.startTask("MIDS", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		r, err := study.MIDSSweep(ctx, ds, study.MIDSEpsilons, chosen, report)
		if err != nil {
			return nil, err
		}
		return func() { v.show(r) }, nil
	})
}

// show shows a MIDS result (nil clears it).
func (v *midsView) show(r *study.MIDSResult) {
	v.result, v.figure = r, plots.Figure{}
	if r == nil {
		v.chart.SetRender(nil)
		v.table.SetRows(nil, nil)
		return
	}
	v.figure = plots.MIDSSizes(r.Data, r.Features, r.Epsilons, r.MIDS, r.Greedy, r.Edges)
	v.chart.SetRender(renderer(v.figure))
	v.table.SetRows(r.Header, r.Rows, 150, 110, 70, 600)
	v.summary.SetText(r.Summary)
}

// sampleSizeView runs the synthetic sample-size study (CGS 2009 Fig. 3, MIDS 2013
// Fig. 2) with the methods ticked on the Methods tab.
type sampleSizeView struct {
	u       *UI
	content fyne.CanvasObject
	preset  *widget.Select
	sizes   *widget.Entry
	k       *widget.Entry
	measure *widget.Select
	button  *widget.Button
	chart   *widgets.Chart
	result  *experiment.SyntheticResult
	figure  plots.Figure
}

func newSampleSizeView(u *UI) *sampleSizeView {
	v := &sampleSizeView{u: u, chart: u.newChart("Press Compute: for each training size, synthetic data with 10 known relevant groups of correlated genes (as in the CGS and MIDS papers), 10 x 10-fold CV with the methods ticked on the Methods tab, and the precision, Sim_ID and test accuracy of their top k. Larger sizes take much longer.")}
	v.preset = widget.NewSelect([]string{"d1k", "d5k"}, nil)
	v.preset.SetSelected("d1k")
	v.sizes = widget.NewEntry()
	v.sizes.SetText("100, 200, 500, 1000")
	v.k = widget.NewEntry()
	v.k.SetText("10")
	var measures []string
	for _, m := range plots.SyntheticMeasures {
		measures = append(measures, m.Key)
	}
	v.measure = widget.NewSelect(measures, func(string) { v.show() })
	v.measure.SetSelectedIndex(0)
	v.button = widget.NewButton("Compute", v.compute)
	v.content = container.NewBorder(container.NewVBox(
		container.NewHBox(widget.NewLabel("data"), v.preset, widget.NewLabel("training sizes"), container.NewGridWrap(fyne.NewSize(180, 36), v.sizes),
			widget.NewLabel("top k"), container.NewGridWrap(fyne.NewSize(60, 36), v.k)),
		container.NewHBox(v.button, widget.NewLabel("show"), v.measure)),
		nil, nil, nil, v.chart)
	return v
}

func (v *sampleSizeView) compute() {
	sizes, err := study.ParseTrainingSizes(v.sizes.Text)
	if err != nil {
		v.u.showError(fmt.Errorf("training sizes: %w", err))
		return
	}
	k, err := strconv.Atoi(strings.TrimSpace(v.k.Text))
	if err != nil {
		v.u.showError(fmt.Errorf("top k: %q is not a whole number", v.k.Text))
		return
	}
	specs, err := v.u.methods.specs()
	if err != nil {
		v.u.showError(err)
		return
	}
	preset, _ := study.SyntheticPreset(v.preset.Selected)
	st := experiment.SyntheticStudy{Preset: preset, Sizes: sizes, TestSize: 500, K: k, Methods: specs, Seed: 1}
	if err := st.Check(); err != nil {
		v.u.showError(err)
		return
	}
	v.u.startTask("Sample-size study", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		res, err := st.Run(ctx, report)
		if res == nil {
			return nil, err
		}
		return func() { // all sizes, or those finished before Cancel
			v.result = res
			v.show()
		}, err
	})
}

func (v *sampleSizeView) show() {
	if v.result == nil {
		v.figure = plots.Figure{}
		v.chart.SetRender(nil)
		return
	}
	v.figure = plots.SampleSize(v.result, max(v.measure.SelectedIndex(), 0))
	v.chart.SetRender(renderer(v.figure))
}

// readyData returns the data on screen when they can be analysed on all samples (no
// missing values, two classes, more samples than classes), else shows why.
func (u *UI) readyData() (*dataset.Dataset, bool) {
	if err := study.Ready(u.data); err != nil {
		u.showError(err)
		return nil, false
	}
	return u.data, true
}

// tools returns the tools' results, for saving with the run.
func (u *UI) tools() *study.Tools {
	t := &study.Tools{KChooser: u.kchooser.result, Wrapper: u.wrapper.result, MIDS: u.mids.result, SampleSize: u.samples.result}
	if sig := u.sigView.of(u.result); sig != nil {
		t.Signature = sig.Record()
	} else if sig, _ := u.survView.of(u.result); sig != nil {
		t.Signature = sig.Record()
	}
	if *t == (study.Tools{}) {
		return nil
	}
	return t
}

// setTools shows saved tool results (nil clears every tool).
func (u *UI) setTools(t *study.Tools) {
	if t == nil {
		t = &study.Tools{}
	}
	u.kchooser.show(t.KChooser)
	u.wrapper.show(t.Wrapper)
	u.mids.show(t.MIDS)
	u.samples.result = t.SampleSize
	u.samples.show()
	if r := t.Signature; r != nil && r.Choice.Classifier == "cox" { // a survival signature's
		u.survView.setSaved(r)
	} else {
		u.sigView.setSaved(r)
	}
}
