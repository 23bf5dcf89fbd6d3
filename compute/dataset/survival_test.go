package dataset

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The survival tables of ../shared/data are read as survival outcomes by their column
// names (time, event), every probe a feature and neither outcome column one. The
// counts are PROVENANCE.md's (from bujar's and suffpcr's data): CHOP 181 patients, 105
// deaths, 76 censored, 3,833 probes; R-CHOP 233, 60 and 173; AML 116, 67 and 49, 6,283
// clones.
func TestSurvivalTablesOfSharedData(t *testing.T) {
	for _, tc := range []struct {
		file                 string
		n, events, p         int
		firstTime, lastTime  float64
		firstEvent, lastSamp string
	}{
		{"dlbcl_chop_survival.csv", 181, 105, 3833, 2.68, 0, "CHOP_V2", ""},
		{"dlbcl_rchop_survival.csv", 233, 60, 3833, 0, 0, "", ""},
		{"aml_survival.csv", 116, 67, 6283, 0, 0, "", ""},
	} {
		path := filepath.Join("..", "..", "..", "shared", "data", tc.file)
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("real data missing (../shared/data): %v", err)
		}
		ds, err := ReadFile(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		s := ds.Survival
		if s == nil {
			t.Fatalf("%s: no survival outcome", tc.file)
		}
		n, p := ds.Dims()
		if n != tc.n || len(s.Time) != n || s.Events() != tc.events || p != tc.p {
			t.Errorf("%s: %d samples (%d times), %d events, %d features; want %d, %d, %d", tc.file, n, len(s.Time), s.Events(), p, tc.n, tc.events, tc.p)
		}
		if slices.Contains(ds.Features, "time") || slices.Contains(ds.Features, "event") || s.TimeName != "time" || s.EventName != "event" {
			t.Errorf("%s: outcome columns %q, %q; features begin %v", tc.file, s.TimeName, s.EventName, ds.Features[:3])
		}
		if tc.firstEvent != "" && (ds.Samples[0] != tc.firstEvent || s.Time[0] != tc.firstTime || !s.Event[0]) {
			t.Errorf("%s: first sample %s, time %v, event %v; the file's first line is CHOP_V2,2.68,1", tc.file, ds.Samples[0], s.Time[0], s.Event[0])
		}
		if len(ds.Classes) != 2 || ds.Classes[1] != "event" || ds.ClassCounts()[1] != tc.events {
			t.Errorf("%s: resampling strata %v %v", tc.file, ds.Classes, ds.ClassCounts())
		}
		if !slices.ContainsFunc(ds.Notes, func(n string) bool {
			return strings.Contains(n, `survival outcome (found by their names): time "time", event "event"`)
		}) {
			t.Errorf("%s: notes %q", tc.file, ds.Notes)
		}
	}
}

// Outcome columns named by the user or by the usual pairs (OS and OS.time, DMFS_months
// and DMFS_event), with samples as rows or as columns; a class-like column beside them
// is left out of the features; TRUE/FALSE events are read.
func TestSurvivalColumnsByName(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		name, body  string
		o           Options
		time, event string
		times       []float64
		events      []bool
		features    []string
	}{
		{"os.csv", "id,OS.time,OS,g1,g2\na,5,1,1,2\nb,7.5,0,2,3\nc,3,1,3,1\n", Options{}, "OS.time", "OS", []float64{5, 7.5, 3}, []bool{true, false, true}, []string{"g1", "g2"}},
		{"dmfs.tsv", "id\tg1\tDMFS_months\tDMFS_event\tg2\na\t1\t12\tTRUE\t2\nb\t2\t30\tFALSE\t3\n", Options{}, "DMFS_months", "DMFS_event", []float64{12, 30}, []bool{true, false}, []string{"g1", "g2"}},
		{"named.csv", "id,fu_years,relapse,class,g1\na,1.5,1,x,2\nb,2,0,y,3\n", Options{Outcome: Outcome{Time: "fu_years", Event: "relapse"}}, "fu_years", "relapse", []float64{1.5, 2}, []bool{true, false}, []string{"g1"}},
		{"columns.csv", "gene,a,b,c\ntime,1,2,3\nevent,0,1,1\ng1,5,6,7\ng2,1,1,2\n", Options{}, "time", "event", []float64{1, 2, 3}, []bool{false, true, true}, []string{"g1", "g2"}},
	} {
		ds, err := ReadFile(write(tc.name, tc.body), tc.o)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		s := ds.Survival
		if s == nil || s.TimeName != tc.time || s.EventName != tc.event || !slices.Equal(s.Time, tc.times) || !slices.Equal(s.Event, tc.events) || !slices.Equal(ds.Features, tc.features) {
			t.Errorf("%s: outcome %+v, features %v", tc.name, s, ds.Features)
		}
	}
	// a class column wins when nothing names the outcome
	ds, err := ReadFile(write("both.csv", "id,time,event,class,g1\na,1,1,x,2\nb,2,0,y,3\nc,2,0,x,3\n"), Options{})
	if err != nil || ds.Survival != nil || ds.Classes[0] != "x" {
		t.Errorf("class and survival columns, none named: %v, %+v", err, ds)
	}
}

// Bad outcomes are refused with the file's line and column, the sample, what is wrong
// and what to do.
func TestSurvivalRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, body string
		o          Options
		want       []string
	}{
		{"negative.csv", "id,time,event,g1\na,1,1,2\nb,-2,0,3\n", Options{}, []string{"line 3, column 2", `sample "b"`, "negative", "start date"}},
		{"missing.csv", "id,time,event,g1\na,1,1,2\nb,NA,0,3\n", Options{}, []string{"line 3, column 2", "no time", "remove the sample"}},
		{"text.csv", "id,time,event,g1\na,1,1,2\nb,soon,0,3\n", Options{}, []string{"line 3, column 2", `"soon" is not a number`}},
		{"coded.csv", "id,time,event,g1\na,1,2,2\nb,2,1,3\n", Options{}, []string{"line 2, column 3", `"2" is not 1`, "recode"}},
		{"censored.csv", "id,time,event,g1\na,1,0,2\nb,2,0,3\n", Options{}, []string{"no sample has the event", "is 1 the event"}},
		{"absent.csv", "id,OS.time,OS,g1\na,1,1,2\nb,2,0,3\n", Options{Outcome: Outcome{Time: "os_days", Event: "OS"}}, []string{`no column is named "os_days"`, `"OS.time" and "OS" look like a time and an event`}},
		{"half.csv", "id,time,event,g1\na,1,1,2\n", Options{Outcome: Outcome{Time: "time"}}, []string{"needs two columns"}},
		{"twice.csv", "id,time,event,class,g1\na,1,1,x,2\n", Options{ClassName: "class", Outcome: Outcome{Time: "time", Event: "event"}}, []string{"both a class", "one or the other"}},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path, tc.o)
		if err == nil {
			t.Errorf("%s: read", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", tc.name, err, w)
			}
		}
	}
}
