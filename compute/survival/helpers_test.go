package survival

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sharedData holds the real survival sets (../shared/data at the repository's root).
const sharedData = "../../../shared/data/"

// survSet is a survival table: sample, time, event, then one column per gene.
type survSet struct {
	samples, genes []string
	o              Outcome
	x              *mat.Dense
}

var (
	setsMu sync.Mutex
	sets   = map[string]*survSet{}
)

// readSet reads one of ../shared/data's survival tables, failing (never skipping)
// when it is missing; sets are read once per test binary.
func readSet(tb testing.TB, name string) *survSet {
	tb.Helper()
	setsMu.Lock()
	defer setsMu.Unlock()
	if s, ok := sets[name]; ok {
		return s
	}
	f, err := os.Open(sharedData + name)
	if err != nil {
		tb.Fatalf("real data missing (../shared/data): %v", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = false
	rec, err := r.ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	head := rec[0]
	if head[0] != "sample" || head[1] != "time" || head[2] != "event" {
		tb.Fatalf("%s: header %v, want sample,time,event,...", name, head[:3])
	}
	s := &survSet{genes: head[3:]}
	n, p := len(rec)-1, len(head)-3
	s.x = mat.NewDense(n, p, nil)
	s.o = Outcome{Time: make([]float64, n), Event: make([]bool, n)}
	for i, row := range rec[1:] {
		s.samples = append(s.samples, row[0])
		s.o.Time[i] = parseF(tb, row[1])
		s.o.Event[i] = row[2] == "1"
		xr := s.x.RawRowView(i)
		for j := range xr {
			xr[j] = parseF(tb, row[3+j])
		}
	}
	sets[name] = s
	return s
}

func parseF(tb testing.TB, v string) float64 {
	tb.Helper()
	if v == "NA" {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		tb.Fatalf("parse %q: %v", v, err)
	}
	return f
}

// columns is the n x len(cols) matrix of x's columns cols.
func columns(x *mat.Dense, cols []int) *mat.Dense {
	n, _ := x.Dims()
	out := mat.NewDense(n, len(cols), nil)
	for j, c := range cols {
		for i := 0; i < n; i++ {
			out.Set(i, j, x.At(i, c))
		}
	}
	return out
}

// geneIndex maps gene names to columns.
func (s *survSet) geneIndex(tb testing.TB, names []string) []int {
	tb.Helper()
	idx := map[string]int{}
	for j, g := range s.genes {
		idx[g] = j
	}
	out := make([]int, len(names))
	for k, g := range names {
		j, ok := idx[g]
		if !ok {
			tb.Fatalf("gene %q not in the set", g)
		}
		out[k] = j
	}
	return out
}

// readCSV reads a reference table written by the R scripts: a header, then rows.
func readCSV(tb testing.TB, path string) (head []string, rows [][]string) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatalf("reference missing: %v", err)
	}
	defer f.Close()
	rec, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return rec[0], rec[1:]
}

// num is a JSON number that R may have written as null (NA).
type num float64

func (v *num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" || string(b) == `"NA"` || string(b) == `"NaN"` {
		*v = num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*v = num(f)
	return nil
}

func numFloats(v []num) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// readJSON decodes a reference file written by the R scripts.
func readJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("reference missing: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

// relDiff is |a - b| / max(|b|, floor): a relative difference that becomes absolute
// near zero. NaN against NaN is 0.
func relDiff(a, b, floor float64) float64 {
	if math.IsNaN(a) && math.IsNaN(b) {
		return 0
	}
	if math.IsInf(a, 0) && a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(b), floor)
}

// tracker keeps the largest difference seen in a comparison, for the log.
type tracker struct {
	tb   testing.TB
	name string
	tol  float64
	max  float64
	n    int
}

func newTracker(tb testing.TB, name string, tol float64) *tracker {
	return &tracker{tb: tb, name: name, tol: tol}
}

// check compares got with want (relative, absolute below floor) and fails past tol.
func (t *tracker) check(what string, got, want, floor float64) {
	t.tb.Helper()
	d := relDiff(got, want, floor)
	if math.IsNaN(d) {
		t.tb.Errorf("%s %s: got %v, want %v", t.name, what, got, want)
		return
	}
	t.n++
	if d > t.max {
		t.max = d
	}
	if d > t.tol {
		t.tb.Errorf("%s %s: got %.15g, want %.15g (relative difference %.3g > %.3g)", t.name, what, got, want, d, t.tol)
	}
}

func (t *tracker) log() {
	t.tb.Helper()
	t.tb.Logf("%s: %d values, largest relative difference %.3g (tolerance %.0e)", t.name, t.n, t.max, t.tol)
}

// jsonRaw is an undecoded part of a reference file.
type jsonRaw = json.RawMessage

func decode(tb testing.TB, raw jsonRaw, v any) {
	tb.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		tb.Fatalf("reference.json: %v", err)
	}
}
