package app

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/internal/text"
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
	methods []int        // select index -> method index in the result
	shown   plots.Figure // the heat map on screen, for export
}

func newGroupsView(u *UI) *groupsView {
	g := &groupsView{u: u, table: widgets.NewStringTable(),
		heat:    u.newChart("Choose a group to see how its members correlate."),
		byClass: u.newChart("Choose a group to see its values by class.")}
	g.method = widget.NewSelect(nil, func(string) { g.refresh() })
	g.search = widget.NewEntry()
	g.search.SetPlaceHolder("find a gene")
	g.search.OnChanged = func(string) { g.refresh() }
	g.table.OnSelected = g.show
	actions := u.tableActions(g.table, 1, "groups")
	members := widget.NewButtonWithIcon("Copy members", theme.ContentCopyIcon(), g.copyMembers)
	charts := container.NewVSplit(container.NewScroll(g.heat), g.byClass) // a large group's heat map scrolls
	split := container.NewHSplit(g.table.Table, charts)
	split.Offset = 0.45
	g.content = container.NewBorder(
		container.NewVBox(
			container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Method"), g.method), nil, g.search),
			container.NewHBox(members, actions)),
		nil, nil, nil, split)
	return g
}

// copyMembers copies the selected group's members, one gene a line.
func (g *groupsView) copyMembers() {
	row := g.table.Selected()
	if row == nil {
		g.u.progress.Status.SetText("Select a group first (click its row), then copy its members.")
		return
	}
	ms := strings.Split(row[len(row)-1], ", ")
	g.u.copyText(strings.Join(ms, "\n")+"\n", fmt.Sprintf("the %s of group %s", text.Count(len(ms), "member"), row[0]))
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
	g.clear()
	if !ok {
		g.table.SetRows([]string{"no group method in this run (choose DRAGS, CGS or K-means groups)"}, nil, 500)
		return
	}
	q := strings.ToLower(strings.TrimSpace(g.search.Text))
	var rows [][]string
	for i, members := range mr.Reference.Groups {
		var ms []string
		hit := q == ""
		for _, j := range members {
			label := g.u.result.Data.Label(j)
			ms = append(ms, label)
			hit = hit || strings.Contains(strings.ToLower(label), q)
		}
		if !hit {
			continue
		}
		rel := ""
		if i < len(mr.Reference.Relevance) {
			rel = strconv.FormatFloat(mr.Reference.Relevance[i], 'g', 4, 64)
		}
		rows = append(rows, []string{strconv.Itoa(i + 1), g.u.result.Data.Label(mr.Reference.Order[i]), strconv.Itoa(len(members)), rel,
			g.u.result.Data.RepeatedGenes(members), strings.Join(ms, ", ")})
	}
	g.table.SetRows([]string{"rank", "representative", "size", "relevance", "genes with several probes", "members"}, rows, 50, 130, 50, 80, 160, 600)
}

// show draws group row's heat map and values by class from the data on screen, when
// they are the data of the run.
func (g *groupsView) show(row int) {
	mr, ok := g.current()
	rows := g.table.Rows()
	if !ok || row < 0 || row >= len(rows) {
		return
	}
	// the table may be sorted: the row names its group by rank (group index + 1)
	gi, err := strconv.Atoi(rows[row][0])
	if err != nil || gi < 1 || gi > len(mr.Reference.Groups) {
		return
	}
	gi--
	res, ds := g.u.result, g.u.data
	if !sameData(res.Data, ds) {
		g.clear()
		g.u.showError(fmt.Errorf("the data open are not this run's (%s); open them again to see the members' values", res.Data.Name))
		return
	}
	members := mr.Reference.Groups[gi]
	x := dataset.ZScored(ds.X)
	n, _ := x.Dims()
	names := make([]string, len(members))
	profiles := make([][]float64, len(members))
	for m, j := range members {
		names[m] = ds.Label(j)
		profiles[m] = make([]float64, n)
		for i := 0; i < n; i++ {
			profiles[m][i] = x.At(i, j)
		}
	}
	title := fmt.Sprintf("%s group %d (representative %s)", mr.Label, gi+1, names[indexOf(members, mr.Reference.Order[gi])])
	g.shown = plots.GroupCorrelation(title+": correlations", names, profiles)
	g.heat.SetMinSize(heatMinSize(len(members)))
	g.heat.SetRender(renderer(g.shown))
	g.byClass.SetRender(renderer(plots.GroupByClass(title+": values by class", ds.Classes, ds.Labels, profiles)))
}

// heatMinSize is the smallest size a heat map of m genes is readable at: about 10
// points a gene beside 220 for the labels and colour bar, at least the chart's default,
// at most 4000 (a 357-member group was an unreadable strip in the pane).
func heatMinSize(m int) fyne.Size {
	side := float32(min(max(10*m+220, 0), 4000))
	return fyne.NewSize(max(side, widgets.DefaultChartMin.Width), max(side, widgets.DefaultChartMin.Height))
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return 0
}

// clear empties the charts, so no earlier group's heat map is shown or exported.
func (g *groupsView) clear() {
	g.heat.SetRender(nil)
	g.byClass.SetRender(nil)
	g.shown = plots.Figure{}
}
