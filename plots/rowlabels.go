package plots

import (
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// rowLabelled are the plots whose ticks name one row (y) or column (x) each, a unit
// apart (a heat map's genes and samples): their labels' size is fitted to the room a
// row has where the plot is drawn (fitRowLabels), marked by rowLabels when built.
var rowLabelled sync.Map

// rowAxes says which axes of a plot name its rows and columns, and what they are.
type rowAxes struct {
	x, y         bool
	xWhat, yWhat string // "samples", "genes"
}

// rowLabels marks p's x and/or y ticks as naming a row (column) each.
func rowLabels(p *plot.Plot, a rowAxes) *plot.Plot {
	rowLabelled.Store(p, a)
	return p
}

// Row labels are at most maxRowLabel and, to stay legible, at least minRowLabel points;
// a label takes at most rowFill of its row's height, so neighbours never touch.
const (
	maxRowLabel = 8.0
	minRowLabel = 4.0
	rowFill     = 0.85
)

// fitRowLabels sizes the marked tick labels of p to the rows they name when drawn in
// area: rowFill of a row's height, at most maxRowLabel points; rows thinner than a
// minRowLabel label are not named, and the axis says so (the names are in the CSV). The
// sizes are settled over a few passes (the x labels' size moves the data area's height,
// the y labels' its width) before any labels are dropped.
func fitRowLabels(p *plot.Plot, area draw.Canvas) {
	v, ok := rowLabelled.LoadAndDelete(p)
	if !ok {
		return
	}
	a := v.(rowAxes)
	sx, sy := maxRowLabel, maxRowLabel
	for range 3 {
		p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = vg.Points(max(sx, 1)), vg.Points(max(sy, 1))
		dc := p.DataCanvas(area)
		sx = min(maxRowLabel, rowFill*float64(dc.Max.X-dc.Min.X)/(p.X.Max-p.X.Min))
		sy = min(maxRowLabel, rowFill*float64(dc.Max.Y-dc.Min.Y)/(p.Y.Max-p.Y.Min))
	}
	if a.x {
		nameAxis(&p.X, sx, a.xWhat)
	}
	if a.y {
		nameAxis(&p.Y, sy, a.yWhat)
	}
}

// nameAxis gives ax's tick labels the size points, or drops them when it is below
// minRowLabel and says so on the axis when it has no label of its own.
func nameAxis(ax *plot.Axis, size float64, what string) {
	if size >= minRowLabel {
		ax.Tick.Label.Font.Size = vg.Points(size)
		return
	}
	ticks := ax.Tick.Marker.Ticks(ax.Min, ax.Max)
	for i := range ticks {
		ticks[i].Label = ""
	}
	ax.Tick.Marker = plot.ConstantTicks(ticks)
	if what != "" && ax.Label.Text == "" {
		ax.Label.Text = what + ": too many to name at this size (see the CSV)"
		ax.Label.TextStyle.Font.Size = vg.Points(8)
	}
}
