package group

import (
	"encoding/gob"
	"os"
	"slices"
	"testing"
	"time"
)

func loadRuns(t *testing.T) (int, [][]Group) {
	f := os.Getenv("ZZFILE")
	if f == "" {
		t.Skip()
	}
	r, _ := os.Open("/tmp/cgsx/" + f + ".gob")
	var runs [][][]int
	gob.NewDecoder(r).Decode(&runs)
	p := 0
	var out [][]Group
	for _, gs := range runs {
		var g []Group
		for _, m := range gs {
			p = max(p, slices.Max(m)+1)
			g = append(g, Group{Members: m})
		}
		out = append(out, g)
	}
	return p, out
}

func TestZZStats(t *testing.T) {
	p, runs := loadRuns(t)
	sets := make([][]string, p)
	none, multi := 0, 0
	for r, gs := range runs {
		cnt := make([]int, p)
		for g, grp := range gs {
			for _, j := range grp.Members {
				cnt[j]++
				_ = g
			}
		}
		for j := range cnt {
			if cnt[j] == 0 {
				none++
			}
			if cnt[j] > 1 {
				multi++
			}
		}
		_ = r
	}
	_ = sets
	t.Logf("p=%d none=%d multi=%d (feature-runs)", p, none, multi)
}

func TestZZCons(t *testing.T) {
	p, runs := loadRuns(t)
	t0 := time.Now()
	cl := consensus(p, runs, 0.5)
	t.Logf("consensus %v: %d clusters", time.Since(t0), len(cl))
}

func TestZZConsHash(t *testing.T) {
	p, runs := loadRuns(t)
	cl := consensus(p, runs, 0.5)
	h := 0
	for _, c := range cl {
		for _, j := range c {
			h = h*31 + j + 7
			h %= 1000000007
		}
		h = h*17 + len(c)
		h %= 1000000007
	}
	t.Logf("hash %d n %d", h, len(cl))
}
