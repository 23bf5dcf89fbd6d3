package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dlbclWithEvents writes the real DLBCL CHOP table with its event column (the third)
// rewritten by code (the cell as read, 1 or 0, and the row's index among the samples)
// into dir, and returns its path.
func dlbclWithEvents(t *testing.T, dir string, code func(cell string, i int) string) string {
	t.Helper()
	b, err := os.ReadFile(shared(t, "dlbcl_chop_survival.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "sample,time,event,") {
		t.Fatalf("dlbcl_chop_survival.csv's header: %.40s", lines[0])
	}
	for i := 1; i < len(lines); i++ {
		cells := strings.SplitN(lines[i], ",", 4)
		cells[2] = code(cells[2], i-1)
		lines[i] = strings.Join(cells, ",")
	}
	path := filepath.Join(dir, "dlbcl.csv")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEventCodings: the real DLBCL CHOP table's event column written TRUE/FALSE or
// Dead/Alive (TCGA's vital_status) is read with the same events as its 1/0, the note
// saying which value is the event; one NA is refused as missing, naming the line, the
// column and the value as written; R's 2/1 coding and other words are refused with the
// coding to write.
func TestEventCodings(t *testing.T) {
	dir := t.TempDir()
	plain, err := ReadFile(shared(t, "dlbcl_chop_survival.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	words := func(ev, ce string) func(string, int) string {
		return func(c string, _ int) string {
			if c == "1" {
				return ev
			}
			return ce
		}
	}
	for _, c := range []struct{ ev, ce, note string }{
		{"TRUE", "FALSE", `event "event" (TRUE read as the event, FALSE as censored)`},
		{"Dead", "Alive", `event "event" (Dead read as the event, Alive as censored)`},
		{"deceased", "living", `(deceased read as the event, living as censored)`},
		{"died", "censored", `(died read as the event, censored as censored)`},
	} {
		ds, err := ReadFile(dlbclWithEvents(t, dir, words(c.ev, c.ce)), Options{})
		if err != nil {
			t.Errorf("%s/%s: %v", c.ev, c.ce, err)
			continue
		}
		if notes := strings.Join(ds.Notes, "\n"); !strings.Contains(notes, c.note) {
			t.Errorf("%s/%s: the notes lack %q:\n%s", c.ev, c.ce, c.note, notes)
		}
		for i, e := range ds.Survival.Event {
			if e != plain.Survival.Event[i] {
				t.Fatalf("%s/%s: sample %s's event %v, the 1/0 file's %v", c.ev, c.ce, ds.Samples[i], e, plain.Survival.Event[i])
			}
		}
	}
	if !strings.Contains(strings.Join(plain.Notes, "\n"), `event "event" (1 event, 0 censored)`) {
		t.Errorf("the 1/0 file's notes: %v", plain.Notes)
	}
	for _, c := range []struct {
		code func(string, int) string
		want []string
	}{
		{func(c string, i int) string { // the fifth sample (line 6, after the header) NA, as R writes a missing value
			if i == 4 {
				return "NA"
			}
			return c
		}, []string{"line 6, column 3", `the event is missing ("NA")`, "give 1 if the event happened, 0 if"}},
		{func(c string, i int) string { // the value as written, not lower-cased
			if i == 0 {
				return "N/A"
			}
			return c
		}, []string{"line 2, column 3", `("N/A")`}},
		{words("2", "1"), []string{"R's survival coding (2 the event, 1 censored)", "recode 2 as 1 and 1 as 0"}},
		{words("Yes", "No"), []string{`is not 1 (the event happened) or 0`, "write 1 where the event happened (dead, relapsed) and 0 where", "dead/alive"}},
	} {
		_, err := ReadFile(dlbclWithEvents(t, dir, c.code), Options{})
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) {
			t.Errorf("read: %v; want a ParseError", err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("the message lacks %q: %v", w, err)
			}
		}
	}
}
