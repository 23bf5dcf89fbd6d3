package plots

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"steadfast/compute/survival"
)

// chopCalibration is the three-gene Cox model's calibration at 5 years on the CHOP
// cohort, by tertile of its risk score.
func chopCalibration(t *testing.T) ([]survival.CalibrationGroup, []string) {
	o, score, x, fit := dlbclRisk(t)
	groups, err := survival.RiskGroups(score, quantileCuts(score, 3))
	if err != nil {
		t.Fatal(err)
	}
	pred, err := fit.Survival(x, 5)
	if err != nil {
		t.Fatal(err)
	}
	cal, err := survival.Calibration(o, pred, groups, 5)
	if err != nil {
		t.Fatal(err)
	}
	return cal, []string{"low risk", "intermediate risk", "high risk"}
}

// The table is the groups; a point a group at (predicted, observed) on the screen;
// square axes; every string inside the figure and over no other at 16 x 10 cm and on
// a 600 x 400 pixel screen; the legend names each group. A group without samples stays
// in the table (its values empty) and out of the plot, a group observed at 0 (no
// interval) is drawn, and a group without a name is called by its label.
func TestSurvivalCalibration(t *testing.T) {
	cal, names := chopCalibration(t)
	odd := append(slices.Clone(cal),
		survival.CalibrationGroup{Group: 3, Predicted: math.NaN(), Observed: math.NaN(), Low: math.NaN(), High: math.NaN()},
		survival.CalibrationGroup{Group: 4, N: 5, Events: 5, Predicted: 0.1, Observed: 0, Low: math.NaN(), High: math.NaN()})
	for _, tc := range []struct {
		name   string
		groups []survival.CalibrationGroup
		drawn  int
	}{{"tertiles", cal, 3}, {"odd", odd, 4}} {
		f := SurvivalCalibration("DLBCL CHOP: calibration at 5 years", tc.groups, names, 5, "years")
		if !slices.Equal(f.Table[0], []string{"group", "n", "at_risk", "events", "predicted", "observed", "low95", "high95"}) || len(f.Table) != len(tc.groups)+1 {
			t.Fatalf("%s: table %v", tc.name, f.Table)
		}
		for i, g := range tc.groups {
			r := f.Table[i+1]
			want := []string{"", strconv.Itoa(g.N), strconv.Itoa(g.AtRisk), strconv.Itoa(g.Events), fmtNum(g.Predicted), fmtNum(g.Observed), fmtNum(g.Low), fmtNum(g.High)}
			if i < len(names) {
				want[0] = names[i]
			} else {
				want[0] = "group " + strconv.Itoa(g.Group+1)
			}
			if !slices.Equal(r, want) {
				t.Errorf("%s: row %v, want %v", tc.name, r, want)
			}
		}
		if len(f.Points) != tc.drawn {
			t.Errorf("%s: %d points, want %d", tc.name, len(f.Points), tc.drawn)
		}
		r, err := Render(f, 600, 400, 96)
		if err != nil {
			t.Fatal(err)
		}
		for i, px := range r.Pixels {
			if !px.In(r.Image.Bounds()) {
				t.Errorf("%s: point %v drawn outside the image at %v", tc.name, f.Points[i], px)
			}
		}
		for _, size := range [][2]vg.Length{{16 * vg.Centimeter, max(10*vg.Centimeter, f.MinHeight)}, {450, 300}} {
			what := tc.name + " at " + strconv.Itoa(int(size[0])) + " pt"
			texts := drawRecorded(t, f, size[0], size[1])
			checkTexts(t, what, texts, size[0], size[1])
			all := ""
			for _, d := range texts {
				all += d.s + " "
			}
			for i := range tc.drawn {
				if i < len(names) && !strings.Contains(all, names[i]+": predicted") {
					t.Errorf("%s: the legend lacks %q", what, names[i])
				}
			}
			p, err := f.Build()
			if err != nil {
				t.Fatal(err)
			}
			area := drawFigure(p, draw.New(vgimg.New(size[0], size[1])))
			if dc := p.DataCanvas(area); math.Abs(float64((dc.Max.X-dc.Min.X)-(dc.Max.Y-dc.Min.Y))) > 0.5 {
				t.Errorf("%s: data area %v, not square", what, dc.Rectangle)
			}
		}
		look(t, f, tc.name)
	}
}
