package plots

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot/vg"

	"steadfast/compute/survival"
)

// coxRows are the hazard ratios of the CHOP cohort's three-gene Cox model, per unit of
// each gene, and of its risk score per standard deviation (a Cox model of the score
// alone), with the cohort's samples and events.
func coxRows(t *testing.T) []HRRow {
	o, score, _, fit := dlbclRisk(t)
	n, ev := len(o.Time), o.Events()
	var rows []HRRow
	for j := range fit.Coef {
		rows = append(rows, HRRow{Name: "gene " + strconv.Itoa(j+1) + " (per unit)", HR: fit.HR[j], Low: fit.HRLow[j], High: fit.HRHigh[j], P: fit.P[j], N: n, Events: ev})
	}
	sd := stat.StdDev(score, nil)
	z := mat.NewDense(n, 1, nil)
	for i, s := range score {
		z.Set(i, 0, s/sd)
	}
	per, err := survival.Cox(o, z, survival.CoxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return append(rows, HRRow{Name: "risk score (per SD)", HR: per.HR[0], Low: per.HRLow[0], High: per.HRHigh[0], P: per.P[0]})
}

// The table is the rows; drawn at 16 x 10 cm and on a 600 x 400 pixel screen, every
// string lies inside the figure and over no other, the names top to bottom in the
// rows' order, each row's "HR (95% CI), p" at the right of its name's height. The axis
// spans every interval of the model's rows; an interval from 0.004 to infinity is cut
// with arrowheads, which the legend explains, and its ends are written out; a row
// without an estimate says so.
func TestHazardForest(t *testing.T) {
	plain := coxRows(t)
	wild := append(slices.Clone(plain),
		HRRow{Name: "a very long covariate name: stage III-IV against I-II at diagnosis", HR: 3.2, Low: 0.004, High: math.Inf(1), P: 0.2},
		HRRow{Name: "separated covariate", HR: math.NaN(), Low: math.NaN(), High: math.NaN(), P: math.NaN()})
	for _, tc := range []struct {
		name    string
		rows    []HRRow
		clipped bool
	}{{"plain", plain, false}, {"wild", wild, true}} {
		f := HazardForest("DLBCL CHOP: hazard ratios", tc.rows)
		if len(f.Table) != len(tc.rows)+1 || !slices.Equal(f.Table[0], []string{"name", "hr", "low95", "high95", "p", "n", "events", "warning"}) {
			t.Fatalf("%s: table %v", tc.name, f.Table)
		}
		for i, r := range tc.rows {
			row := f.Table[i+1]
			if row[0] != r.Name || row[1] != fmtNum(r.HR) || row[2] != fmtNum(r.Low) || row[3] != fmtNum(r.High) || row[4] != fmtNum(r.P) {
				t.Errorf("%s: row %v for %+v", tc.name, row, r)
			}
			if (row[5] != "") != (r.N > 0) {
				t.Errorf("%s: n %q for %+v", tc.name, row[5], r)
			}
		}
		lo, hi := forestRange(tc.rows)
		for _, r := range tc.rows {
			if estimable(r.HR) && (r.HR < lo || r.HR > hi) {
				t.Errorf("%s: HR %v outside the axis %v-%v", tc.name, r.HR, lo, hi)
			}
			if !tc.clipped && (r.Low < lo || r.High > hi) {
				t.Errorf("%s: interval %v-%v cut by the axis %v-%v", tc.name, r.Low, r.High, lo, hi)
			}
		}
		if got := (forestMarks{rows: tc.rows}).clipped(lo, hi); got != tc.clipped || math.IsInf(hi, 0) || lo <= 0 {
			t.Errorf("%s: clipped %v, axis %v-%v", tc.name, got, lo, hi)
		}
		for _, size := range [][2]vg.Length{{16 * vg.Centimeter, max(10*vg.Centimeter, f.MinHeight)}, {450, 300}} {
			what := tc.name + " at " + strconv.Itoa(int(size[0])) + " pt"
			texts := drawRecorded(t, f, size[0], size[1])
			checkTexts(t, what, texts, size[0], size[1])
			all := ""
			for _, d := range texts {
				all += d.s + "\n"
			}
			if strings.Contains(all, "arrowhead") != tc.clipped {
				t.Errorf("%s: the legend on arrowheads: %q", what, all)
			}
			prev := vg.Length(math.Inf(1))
			for _, r := range tc.rows {
				first := strings.Split(forestName(r), "\n")[0]
				name := slices.IndexFunc(texts, func(d drawnText) bool { return d.s == first })
				hr := slices.IndexFunc(texts, func(d drawnText) bool { return d.s == hrText(r) })
				if name < 0 || hr < 0 {
					t.Fatalf("%s: %q or %q not drawn in %q", what, first, hrText(r), all)
				}
				// a name's first line: at its row's height, or above it when it has more
				if y := texts[name].min.Y; y >= prev || texts[hr].min.Y > y+1 || texts[hr].min.X <= texts[name].max.X {
					t.Errorf("%s: %q at %v (the row above at %v), its estimate %q at %v", what, texts[name].s, texts[name].min, prev, texts[hr].s, texts[hr].min)
				}
				prev = texts[name].min.Y
			}
			if tc.clipped && !strings.Contains(all, "3.20 (0.004-∞), p = 0.2") || tc.clipped && !strings.Contains(all, "not estimable") {
				t.Errorf("%s: texts %q", what, all)
			}
		}
		look(t, f, tc.name)
	}
}

// Log ticks: decades when they give three ticks, else 1-2-5, else finer; at most 9
// (every second or third decade over a wide range), 1 among them.
func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{{0.02, 134, "0.1 1 10 100"}, {0.5, 3, "0.5 1 2"}, {0.8, 1.3, "0.8 1 1.2"}, {0.38, 1.39, "0.5 0.7 1"}, {1e-6, 1e6, "1e-06 0.0001 0.01 1 100 10000 1e+06"}} {
		var got []string
		for _, tk := range logTicks(tc.lo, tc.hi) {
			got = append(got, tk.Label)
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("ticks %v-%v: %s, want %s", tc.lo, tc.hi, s, tc.want)
		}
	}
	for v, want := range map[float64]string{0.853: "0.85", 12.34: "12.3", 0.0042: "0.0042", 2500: "2.50e+03", math.Inf(1): "∞", 9.996: "10"} {
		if got := fmtHR(v); got != want {
			t.Errorf("fmtHR(%v) = %q, want %q", v, got, want)
		}
	}
}

// The forest plot and the calibration plot are written in every format with their CSV.
func TestSurvivalFiguresExport(t *testing.T) {
	cal, names := chopCalibration(t)
	for _, f := range []Figure{HazardForest("forest", coxRows(t)), SurvivalCalibration("calibration", cal, names, 5, "years")} {
		dir := t.TempDir()
		paths, err := Export(f, dir, Formats, ExportOptions{Width: 16 * vg.Centimeter, Height: 10 * vg.Centimeter, DPI: 100})
		if err != nil || len(paths) != 5 {
			t.Fatalf("%s: %v, wrote %v", f.Name, err, paths)
		}
		b, _ := os.ReadFile(filepath.Join(dir, f.Name+".csv"))
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil || !slices.EqualFunc(rows, f.Table, slices.Equal) {
			t.Errorf("%s: the CSV differs from the table (%v)", f.Name, err)
		}
		for _, format := range []string{"pdf", "eps"} {
			ghostscript(t, filepath.Join(dir, f.Name+"."+format), 30)
		}
		if words := pdfWords(t, filepath.Join(dir, f.Name+".pdf")); len(words) < 10 {
			t.Errorf("%s: the PDF's text layer has %d words", f.Name, len(words))
		}
	}
}

// A figure that needs more height than asked (a forest plot of 20 rows: MinHeight 110
// + 20 x 18 = 470 pt = 16.6 cm, worked from HazardForest's rule) is exported taller
// and SizeFor says so, naming both sizes; at a height it fits nothing is said.
func TestSizeForSaysWhatChanged(t *testing.T) {
	rows := make([]HRRow, 20)
	for i := range rows {
		rows[i] = HRRow{Name: "gene " + strconv.Itoa(i), HR: 1.5, Low: 1.1, High: 2, P: 0.01}
	}
	f := HazardForest("twenty", rows)
	o, note := f.SizeFor(ExportOptions{Width: 16 * vg.Centimeter, Height: 10 * vg.Centimeter, DPI: 300})
	if o.Height != vg.Points(470) || note != "signature-forest: exported 16 x 16.6 cm, not the 16 x 10 cm asked: its labels need that height to stay readable" {
		t.Errorf("%v: %q", o.Height, note)
	}
	if _, note := f.SizeFor(ExportOptions{Width: 16 * vg.Centimeter, Height: 20 * vg.Centimeter}); note != "" {
		t.Error(note)
	}
}
