package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/experiment"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
	"steadfast/widgets"
)

// meaningView is the Signature tab's Meaning view: what the signature's genes do, by
// over-representation in gene sets against the genes the platform measured, with each
// term's stability over the resamples (study.Enrich).
type meaningView struct {
	u       *UI
	sets    *widget.Select
	gmt     string // the GMT file chosen, when sets says so
	run     *widget.Button
	summary *widget.Label
	table   *widgets.StringTable
	camera  *widgets.StringTable // camera over the whole ranking (two classes)
	withCam *widget.Check
	symbols *widget.Button // Gene symbols...: adds an annotation to a run without them
	chart   *widgets.Chart
	figure  plots.Figure
	result  *study.Enrichment
	content fyne.CanvasObject
}

// meaningSets are the gene-set choices, with the collection each names.
var meaningSets = []struct{ label, name string }{
	{"GO biological process", "go-bp"}, {"GO molecular function", "go-mf"}, {"GO cellular component", "go-cc"},
	{"all of GO", "go"}, {"a GMT file...", ""}}

func newMeaningView(u *UI) *meaningView {
	m := &meaningView{u: u, summary: widget.NewLabel("After Build signature: test what its genes do (human GO shipped; any GMT file)."),
		table: widgets.NewStringTable(), camera: widgets.NewStringTable(), chart: u.newChart("The terms' dot plot appears here.")}
	m.withCam = widget.NewCheck("also over the whole ranking (camera)", nil)
	m.withCam.Checked = true
	m.summary.Wrapping = fyne.TextWrapWord
	var labels []string
	for _, s := range meaningSets {
		labels = append(labels, s.label)
	}
	m.sets = widget.NewSelect(labels, func(l string) {
		if l == meaningSets[len(meaningSets)-1].label {
			m.chooseGMT()
		}
	})
	m.sets.SetSelectedIndex(0)
	m.run = widget.NewButtonWithIcon("Test the genes", theme.SearchIcon(), m.compute)
	enlarge := widget.NewButtonWithIcon("Own window", theme.ViewFullScreenIcon(), func() { u.openFigureWindow(m.figure) })
	m.symbols = widget.NewButton("Gene symbols...", m.askSymbols)
	m.symbols.Hide()
	top := container.NewVBox(container.NewHBox(widget.NewLabel("gene sets"), container.NewGridWrap(fyne.NewSize(230, m.sets.MinSize().Height), m.sets), m.run, m.symbols, enlarge, u.explain("enrichment")),
		container.NewHBox(m.withCam, u.explain("camera")), m.summary)
	// the default smallest size: the Signature tab holds this view beside its figure, which must keep the pane at 1366 x 768 (Own window, or the export, gives the dot plot its room)
	views := container.NewAppTabs(container.NewTabItem("dot plot", m.chart),
		container.NewTabItem("terms", container.NewBorder(container.NewHScroll(u.tableActions(m.table, -1, "enrichment")), nil, nil, nil, m.table.Table)),
		container.NewTabItem("whole ranking (camera)", container.NewBorder(container.NewHScroll(u.tableActions(m.camera, -1, "camera")), nil, nil, nil, m.camera.Table)))
	m.content = container.NewBorder(top, nil, nil, nil, views)
	return m
}

// chooseGMT asks for a GMT file.
func (m *meaningView) chooseGMT() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		m.gmt = r.URI().Path()
		r.Close()
		m.summary.SetText("Gene sets from " + m.gmt + "; press Test the genes.")
	}, m.u.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".gmt", ".txt"}))
	d.Show()
}

// compute tests the signature's genes as a task.
func (m *meaningView) compute() {
	v := m.u.sigView
	if v.sig == nil {
		m.u.showError(fmt.Errorf("build the signature first (Build signature): its method's top k genes are what is tested"))
		return
	}
	if v.sig == nil || v.sig.CV == nil {
		m.u.showError(fmt.Errorf("an opened model has no study to test over: open its run and build the signature"))
		return
	}
	name := meaningSets[max(m.sets.SelectedIndex(), 0)].name
	if m.sets.SelectedIndex() == len(meaningSets)-1 {
		if m.gmt == "" {
			m.u.showError(fmt.Errorf("choose a GMT file first (gene sets: a GMT file...)"))
			return
		}
		name = m.gmt
	}
	run, sig, ds, cam := m.u.result, v.sig, m.u.data, m.withCam.Checked && len(v.sig.Classes) == 2
	m.u.startTask("Gene-set enrichment", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		report(experiment.Progress{Total: 1, Stage: "gene sets"})
		c, err := study.Collection(name)
		if err != nil {
			return nil, err
		}
		e, err := study.Enrich(run, sig.Choice.Method, sig.Choice.K, sig.Choice.Frequent, c)
		if err != nil {
			return nil, err
		}
		fig := plots.EnrichmentFigure(run.Data.Name, e)
		var terms []study.CameraTerm
		if cam {
			if terms, err = study.CameraSets(ds, sig.Positive, c); err != nil {
				return nil, err
			}
		}
		return func() {
			if v.sig == sig {
				if cam {
					e.Camera, e.CameraPositive = terms, sig.Classes[sig.Positive]
				}
				sig.Enrichment = e // for the report
				m.show(e, fig)
				if cam {
					m.showCamera(terms, sig.Classes[sig.Positive])
				}
			}
		}, nil
	})
}

// show shows an enrichment: its sentence, its dot plot and its terms.
func (m *meaningView) show(e *study.Enrichment, fig plots.Figure) {
	m.result, m.figure = e, fig
	m.summary.SetText(e.Says())
	m.chart.SetRender(renderer(fig))
	head := []string{"term", "ontology", "name", "in universe", "selected", "q (BH)", "stability", "genes"}
	var rows [][]string
	for _, t := range e.Terms {
		rows = append(rows, []string{t.Set.ID, t.Set.Ontology, t.Set.Name, fmt.Sprint(t.M), fmt.Sprint(t.X), text.PValue(t.Q), text.Sig3(t.Stability), joinGenes(t.Genes)})
	}
	m.table.SetRows(head, rows, 100, 60, 260, 80, 70, 70, 70, 240)
}

// showCamera shows camera's sets, most significant first.
func (m *meaningView) showCamera(terms []study.CameraTerm, positive string) {
	t := study.CameraTable(terms, positive)
	var rows [][]string
	for _, r := range t[1:] {
		p, _ := strconv.ParseFloat(r[5], 64)
		q, _ := strconv.ParseFloat(r[6], 64)
		rows = append(rows, []string{r[0], r[1], r[2], r[3], r[4], text.PValue(p), text.PValue(q)})
	}
	m.camera.SetRows([]string{"term", "ontology", "name", "genes", "direction in " + positive, "p", "FDR"}, rows, 100, 60, 260, 60, 110, 70, 70)
}

func joinGenes(g []string) string {
	s := ""
	for i, x := range g {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

// clear forgets the enrichment shown (a new signature or run) and says at once when
// the run's data carry no gene symbols, with the way to add them.
func (m *meaningView) clear() {
	m.result, m.figure = nil, plots.Figure{}
	m.chart.SetRender(nil)
	m.table.SetRows([]string{"term"}, nil, 100)
	m.camera.SetRows([]string{"term"}, nil, 100)
	m.summary.SetText("After Build signature: test what its genes do (human GO shipped; any GMT file).")
	m.symbols.Hide()
	if res := m.u.result; res != nil && res.Data.Symbols == nil {
		m.summary.SetText(fmt.Sprintf("%s carries no gene symbols, which gene sets are matched by: add the platform's annotation with Gene symbols... (a probe-to-symbol table, or a GEO platform's annotation); the study need not run again.", res.Data.Name))
		m.symbols.Show()
	}
}

// askSymbols asks for a probe-to-symbol annotation and gives the run, its data and the
// signature built from them its symbols (Save run keeps them).
func (m *meaningView) askSymbols() {
	m.u.askPath("Gene symbols", "The platform's annotation: a table with the probe ids and a symbol column (a GEO platform's .annot or SOFT table, or two columns: id and symbol); gzipped or not.",
		"/path/to/GPL96.annot.gz or symbols.tsv", nil, "", func(path string) {
			res := m.u.result
			if res == nil {
				return
			}
			n, err := study.AddSymbols(res, m.u.data, path)
			if err != nil {
				m.u.showError(err)
				return
			}
			if sig := m.u.sigView.sig; sig != nil {
				sig.TakeSymbols(res.Data.Symbols)
				m.u.sigView.setSignature(sig, m.u.sigView.figs)
			}
			m.u.unsaved = true
			m.clear()
			m.summary.SetText(fmt.Sprintf("Gene symbols for %d of %d features from %s: press Test the genes. Save run keeps them.", n, len(res.Data.Features), filepath.Base(path)))
		})
}
