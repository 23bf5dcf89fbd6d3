package counts

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gse63310 reads the nine samples the RNAseq123 workflow uses from GEO's GSE63310_RAW.tar
// (their Count column; the genes in the files' shared order) with the workflow's groups
// numbered as R's factor levels: Basal 0, LP 1, ML 2.
func gse63310(t *testing.T) (Counts, []string, []int) {
	t.Helper()
	use := []string{"GSM1545535_10_6_5_11", "GSM1545536_9_6_5_11", "GSM1545538_purep53", "GSM1545539_JMS8-2", "GSM1545540_JMS8-3",
		"GSM1545541_JMS8-4", "GSM1545542_JMS8-5", "GSM1545544_JMS9-P7c", "GSM1545545_JMS9-P8c"}
	group := []int{1, 2, 0, 0, 2, 1, 0, 2, 1}
	fh, err := os.Open(filepath.Join("..", "study", "testdata", "gse63310", "GSE63310_RAW.tar"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	byName := map[string][]float64{}
	var genes []string
	tr := tar.NewReader(fh)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(h.Name, ".txt.gz")
		zr, err := gzip.NewReader(tr)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(zr)
		sc.Scan() // EntrezID GeneLength Count
		var ids []string
		var v []float64
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			x, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				t.Fatal(err)
			}
			ids, v = append(ids, f[0]), append(v, x)
		}
		if genes == nil {
			genes = ids
		} else if strings.Join(ids, " ") != strings.Join(genes, " ") {
			t.Fatalf("%s lists other genes", name)
		}
		byName[name] = v
	}
	c := make(Counts, len(use))
	for s, name := range use {
		if c[s] = byName[name]; c[s] == nil {
			t.Fatalf("%s not in the archive", name)
		}
	}
	return c, genes, group
}

// Voom with three groups equals limma 3.54's voom, lmFit, eBayes and topTable(coef =
// 2:3) on GSE63310 (testdata/voom3_ref.R): the prior to 1e-9, and at every 10th kept
// gene the moderated F and its p to 1e-8 relative and the groups' fitted log-CPM to
// 1e-9.
func TestVoomOfThreeGroupsEqualsLimma(t *testing.T) {
	c, genes, group := gse63310(t)
	norm, err := Fit(c, group)
	if err != nil {
		t.Fatal(err)
	}
	kept := make(Counts, len(c))
	lib := make([]float64, len(c))
	for s := range c {
		l, f := norm.Factor(c[s])
		kept[s], lib[s] = norm.Pick(c[s]), l*f
	}
	m, err := Voom(kept, lib, group)
	if err != nil {
		t.Fatal(err)
	}
	if m.T != nil || m.F == nil {
		t.Fatal("three groups: want F, not t")
	}
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }
	pb, _ := os.ReadFile(filepath.Join("testdata", "voom3_prior.txt"))
	var d0, s0 float64
	fmt.Sscan(string(pb), &d0, &s0)
	if rel(m.DFPrior, d0) > 1e-9 || rel(m.S2Prior, s0) > 1e-9 {
		t.Errorf("prior df %.12g s2 %.12g, limma %.12g %.12g", m.DFPrior, m.S2Prior, d0, s0)
	}
	at := map[string]int{}
	for k, j := range norm.Kept {
		at[genes[j]] = k
	}
	ref := readCSV(t, "voom3.csv")[1:]
	for _, r := range ref {
		k, ok := at[r[0]]
		if !ok {
			t.Fatalf("gene %s: limma keeps it, filterByExpr here does not", r[0])
		}
		num := func(s string) float64 { v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64); return v }
		if rel(m.F[k], num(r[1])) > 1e-8 || rel(m.P[k], num(r[2])) > 1e-8 {
			t.Errorf("gene %s: F %.12g p %.12g, limma %s %s", r[0], m.F[k], m.P[k], r[1], r[2])
		}
		for g := range 3 {
			if math.Abs(m.Means[k][g]-num(r[4+g])) > 1e-9 {
				t.Errorf("gene %s group %d: fitted %.12g, limma %s", r[0], g, m.Means[k][g], r[4+g])
			}
		}
	}
	if len(ref) < 1600 {
		t.Errorf("only %d reference genes", len(ref))
	}
}

// FitContext stops with the context's error when it has ended (a run cancelled while a
// training set's TMM factors are being computed), and fits as Fit does when it has not.
func TestFitContextStops(t *testing.T) {
	c, _, group := gse63310(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitContext(ctx, c, group); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	a, err := FitContext(context.Background(), c, group)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Fit(c, group)
	if a.Scale != b.Scale || a.RefSample != b.RefSample || len(a.Kept) != len(b.Kept) {
		t.Errorf("FitContext %v %d %d, Fit %v %d %d", a.Scale, a.RefSample, len(a.Kept), b.Scale, b.RefSample, len(b.Kept))
	}
}
