package survival

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// coxnetSet is a survival table of ../shared/data: time, event and the genes.
type coxnetSet struct {
	time  []float64
	event []bool
	x     *mat.Dense
	genes []string
}

var coxnetSets sync.Map // file -> *coxnetSet

// coxnetRead reads a survival CSV of ../shared/data (sample,time,event, then genes),
// failing the test when it is missing.
func coxnetRead(t testing.TB, file string) *coxnetSet {
	t.Helper()
	if d, ok := coxnetSets.Load(file); ok {
		return d.(*coxnetSet)
	}
	f, err := os.Open(filepath.Join("..", "..", "..", "shared", "data", file))
	if err != nil {
		t.Fatalf("real data missing (../shared/data): %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	if len(head) < 4 || head[1] != "time" || head[2] != "event" {
		t.Fatalf("%s: header %v, want sample,time,event,...", file, head[:min(4, len(head))])
	}
	d := &coxnetSet{genes: head[3:]}
	n, p := len(rows)-1, len(head)-3
	d.x = mat.NewDense(n, p, nil)
	for i, r := range rows[1:] {
		tm, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		d.time = append(d.time, tm)
		d.event = append(d.event, r[2] == "1")
		for j, s := range r[3:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%s row %d: %v", file, i+2, err)
			}
			d.x.Set(i, j, v)
		}
	}
	coxnetSets.Store(file, d)
	return d
}

// coxnetRef is one reference file written by testdata/coxnet_ref.R.
type coxnetRef struct {
	vals  map[string][]float64          // lambda, devratio, cvm, ...: numbers by key
	pairs map[string]map[string]float64 // entry, interp, cvcoef_min, ...: name:value by key
	coef  map[string]map[int]map[string]float64
}

func coxnetReadRef(t testing.TB, name string) *coxnetRef {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := &coxnetRef{vals: map[string][]float64{}, pairs: map[string]map[string]float64{}, coef: map[string]map[int]map[string]float64{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		key, rest := fs[0], fs[1:]
		num := func(s string) float64 {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, key, err)
			}
			return v
		}
		pairs := func(fs []string) map[string]float64 {
			m := map[string]float64{}
			for _, kv := range fs {
				i := strings.LastIndexByte(kv, ':')
				if i <= 0 {
					t.Fatalf("%s: %s: %q is not name:value", name, key, kv)
				}
				m[kv[:i]] = num(kv[i+1:])
			}
			return m
		}
		switch {
		case strings.HasSuffix(key, "coef"):
			if r.coef[key] == nil {
				r.coef[key] = map[int]map[string]float64{}
			}
			r.coef[key][int(num(rest[0]))] = pairs(rest[1:])
		case strings.HasSuffix(key, "entry") || strings.HasPrefix(key, "cvcoef"):
			r.pairs[key] = pairs(rest)
		case key == "interp":
			r.vals[key] = []float64{num(rest[0])}
			r.pairs[key] = pairs(rest[1:])
		default:
			for _, s := range rest {
				r.vals[key] = append(r.vals[key], num(s))
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

// ints returns the reference's 1-based numbers under key as 0-based ints.
func (r *coxnetRef) ints(key string) []int {
	out := make([]int, len(r.vals[key]))
	for i, v := range r.vals[key] {
		out[i] = int(v) - 1
	}
	return out
}

var coxnetPaths sync.Map // "file alpha" -> *CoxNetPath

// coxnetPathOf is CoxNet{Alpha: alpha}'s path on a file of ../shared/data, fitted once
// for all the tests.
func coxnetPathOf(t testing.TB, file string, alpha float64) (*coxnetSet, *CoxNetPath) {
	t.Helper()
	d := coxnetRead(t, file)
	key := fmt.Sprint(file, " ", alpha)
	if p, ok := coxnetPaths.Load(key); ok {
		return d, p.(*CoxNetPath)
	}
	p, err := CoxNet{Alpha: alpha}.Path(context.Background(), d.time, d.event, d.x)
	if err != nil {
		t.Fatal(err)
	}
	coxnetPaths.Store(key, p)
	return d, p
}
