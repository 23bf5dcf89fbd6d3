package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/experiment"
	"steadfast/compute/group"
	"steadfast/compute/method"
	"steadfast/plots"
	"steadfast/widgets"
)

// groupsView lists the groups a group method chose on all samples, searchable by gene,
// and shows the chosen group's correlation heat map and its values by class.
type groupsView struct {
	u       *UI
	content fyne.CanvasObject
	method  *widget.Select
	search  *widget.Entry
	table   *widgets.StringTable
	heat    *widgets.Chart
	byClass *widgets.Chart
	rows    []int        // table row -> group index in the reference selection
	methods []int        // select index -> method index in the result
	shown   plots.Figure // the heat map on screen, for export
}

func newGroupsView(u *UI) *groupsView {
	g := &groupsView{u: u, table: widgets.NewStringTable(),
		heat:    widgets.NewChart("Choose a group to see how its members correlate."),
		byClass: widgets.NewChart("Choose a group to see its values by class.")}
	g.method = widget.NewSelect(nil, func(string) { g.refresh() })
	g.search = widget.NewEntry()
	g.search.SetPlaceHolder("find a gene")
	g.search.OnChanged = func(string) { g.refresh() }
	g.table.Table.OnSelected = func(id widget.TableCellID) { g.show(id.Row) }
	charts := container.NewVSplit(g.heat, g.byClass)
	split := container.NewHSplit(g.table.Table, charts)
	split.Offset = 0.45
	g.content = container.NewBorder(
		container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Method"), g.method), nil, g.search),
		nil, nil, nil, split)
	return g
}

// setResult lists the result's group methods.
func (g *groupsView) setResult(res *experiment.Result) {
	g.methods, g.method.Options = nil, nil
	for i, m := range res.Methods {
		if in, ok := method.Lookup(m.Spec.Name); ok && in.Group {
			g.methods = append(g.methods, i)
			g.method.Options = append(g.method.Options, m.Label)
		}
	}
	g.method.Selected = ""
	if len(g.methods) > 0 {
		g.method.Selected = g.method.Options[0]
	}
	g.method.Refresh()
	g.refresh()
}

func (g *groupsView) current() (experiment.MethodResult, bool) {
	i := g.method.SelectedIndex()
	if g.u.result == nil || i < 0 || i >= len(g.methods) {
		return experiment.MethodResult{}, false
	}
	return g.u.result.Methods[g.methods[i]], true
}

// refresh fills the table with the groups whose members match the search.
func (g *groupsView) refresh() {
	mr, ok := g.current()
	g.rows = nil
	if !ok {
		g.table.SetRows([]string{"no group method in this run (choose DRAGS, CGS or K-means groups)"}, nil, 500)
		return
	}
	names := g.u.result.Data.Features
	q := strings.ToLower(strings.TrimSpace(g.search.Text))
	var rows [][]string
	for i, members := range mr.Reference.Groups {
		var ms []string
		hit := q == ""
		for _, j := range members {
			ms = append(ms, names[j])
			hit = hit || strings.Contains(strings.ToLower(names[j]), q)
		}
		if !hit {
			continue
		}
		g.rows = append(g.rows, i)
		rel := ""
		if i < len(mr.Reference.Relevance) {
			rel = strconv.FormatFloat(mr.Reference.Relevance[i], 'g', 4, 64)
		}
		rows = append(rows, []string{strconv.Itoa(i + 1), names[mr.Reference.Order[i]], strconv.Itoa(len(members)), rel, strings.Join(ms, ", ")})
	}
	g.table.SetRows([]string{"rank", "representative", "size", "relevance", "members"}, rows, 50, 130, 50, 80, 600)
}

// show draws group row's heat map and values by class from the data on screen, when
// they are the data of the run.
func (g *groupsView) show(row int) {
	mr, ok := g.current()
	if !ok || row < 0 || row >= len(g.rows) {
		return
	}
	res, ds := g.u.result, g.u.data
	if _, p := ds.Dims(); p != len(res.Data.Features) || ds.Features[0] != res.Data.Features[0] {
		g.u.showError(fmt.Errorf("the data on screen are not this run's (%s); open them to see the members' values", res.Data.Name))
		return
	}
	gi := g.rows[row]
	members := mr.Reference.Groups[gi]
	x := zscored(ds)
	n, _ := x.Dims()
	names := make([]string, len(members))
	profiles := make([][]float64, len(members))
	for m, j := range members {
		names[m] = ds.Features[j]
		profiles[m] = make([]float64, n)
		for i := 0; i < n; i++ {
			profiles[m][i] = x.At(i, j)
		}
	}
	title := fmt.Sprintf("%s group %d (representative %s)", mr.Label, gi+1, names[indexOf(members, mr.Reference.Order[gi])])
	g.shown = plots.GroupCorrelation(title+": correlations", names, profiles)
	g.heat.SetRender(renderer(g.shown))
	g.byClass.SetRender(renderer(plots.GroupByClass(title+": values by class", ds.Classes, ds.Labels, profiles)))
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return 0
}

// kChooserView computes and shows DRAGS Fig. 1 for the data on screen.
type kChooserView struct {
	u       *UI
	content fyne.CanvasObject
	chart   *widgets.Chart
	button  *widget.Button
	figure  plots.Figure
}

func newKChooserView(u *UI) *kChooserView {
	k := &kChooserView{u: u, chart: widgets.NewChart("Press Compute to see, for each K, how correlated every feature is with its K nearest features (DRAGS Fig. 1). A K whose box has spread but stays high is a good bandwidth; the papers use K = 5.")}
	k.chart.OnError = u.showError
	k.button = widget.NewButton("Compute for these data", k.compute)
	k.content = container.NewBorder(container.NewHBox(k.button), nil, nil, nil, k.chart)
	return k
}

func (k *kChooserView) compute() {
	ds := k.u.data
	k.button.Disable()
	k.u.progress.Status.SetText("Computing nearest-neighbour correlations...")
	go func() {
		x := zscored(ds)
		vals, err := group.KNNCorrelations(context.Background(), x, group.ChooserKs)
		k.u.do(func() {
			k.button.Enable()
			if err != nil {
				k.u.showError(err)
				return
			}
			k.figure = plots.KChooser(ds.Name, group.ChooserKs, vals)
			k.chart.SetRender(renderer(k.figure))
			k.u.progress.Status.SetText("K chooser ready.")
		})
	}()
}

// wrapperView computes and shows the bootstrap wrapper's learning-curve AUC against Na
// (Diaz-Diaz et al. Fig. 4) for the data on screen.
type wrapperView struct {
	u       *UI
	content fyne.CanvasObject
	chart   *widgets.Chart
	nas     *widget.Entry
	ne      *widget.Select
	button  *widget.Button
	figure  plots.Figure
}

func newWrapperView(u *UI) *wrapperView {
	v := &wrapperView{u: u, chart: widgets.NewChart("Press Compute: for each Na, the bootstrap wrapper ranks the genes and the area under its learning curve (3-NN, 5-fold CV, top 100 genes) is drawn, with the exhaustive K = 1 baseline.")}
	v.chart.OnError = u.showError
	v.nas = widget.NewEntry()
	v.nas.SetText("0.2, 0.4, 0.6, 0.8, 1")
	v.ne = widget.NewSelect([]string{"1 x p", "2 x p", "3 x p"}, nil)
	v.ne.SetSelectedIndex(0)
	v.button = widget.NewButton("Compute", v.compute)
	v.content = container.NewBorder(container.NewHBox(widget.NewLabel("Na (% of genes)"), container.NewGridWrap(fyne.NewSize(220, 36), v.nas),
		widget.NewLabel("subsets"), v.ne, v.button), nil, nil, nil, v.chart)
	return v
}

func (v *wrapperView) compute() {
	var nas []float64
	for _, s := range strings.Split(v.nas.Text, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || f <= 0 || f > 100 {
			v.u.showError(fmt.Errorf("Na: %q is not a percentage in (0, 100]", s))
			return
		}
		nas = append(nas, f)
	}
	ne := float64(v.ne.SelectedIndex() + 1)
	ds := v.u.data
	v.button.Disable()
	v.u.progress.Status.SetText("Computing the wrapper's learning curves...")
	go func() {
		aucs, base, err := experiment.WrapperSweep(context.Background(), zscored(ds), ds.X, ds.Labels, len(ds.Classes), nas, ne, 100, false, 1)
		v.u.do(func() {
			v.button.Enable()
			if err != nil {
				v.u.showError(err)
				return
			}
			v.figure = plots.AUCvsNa(ds.Name, nas, aucs, base)
			v.chart.SetRender(renderer(v.figure))
			v.u.progress.Status.SetText("Wrapper AUCs ready.")
		})
	}()
}
