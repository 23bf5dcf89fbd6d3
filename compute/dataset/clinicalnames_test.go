package dataset

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRClinicalTablesCovariates: clinical tables of R's survival package written by
// write.csv (testdata/clinical/clinical_ref.R) are read with their clinical columns
// as covariates, found by their names: Rotterdam's age, meno, size, grade, nodes, er,
// hormon and chemo (pgr, the progesterone receptor, is PGR's gene symbol and stays a
// feature unless named); colon's rx, sex, age, obstruct, perfor, adhere, nodes, differ,
// extent, surg and node4; and a table named as breastCancerNKI names its columns, whose
// node (nodal status) is a covariate like nodes. The expected lists are the columns
// ?rotterdam, ?colon and breastCancerNKI's documentation call clinical.
func TestRClinicalTablesCovariates(t *testing.T) {
	for _, c := range []struct {
		file, time, event string
		covs, feats       []string
	}{
		{"rotterdam.csv", "dtime", "death", []string{"age", "meno", "size", "grade", "nodes", "er", "hormon", "chemo"}, []string{"pid", "year", "pgr", "rtime", "recur"}},
		{"colon.csv", "time", "status", []string{"rx", "sex", "age", "obstruct", "perfor", "adhere", "nodes", "differ", "extent", "surg", "node4"}, []string{"study", "etype"}},
		{"nki.csv", "t.os", "e.os", []string{"age", "er", "grade", "size", "node"}, []string{"pgr"}},
	} {
		ds, err := ReadFile(filepath.Join("testdata", "clinical", c.file), Options{Outcome: Outcome{Time: c.time, Event: c.event}})
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if got := ds.CovariateNames(); !slices.Equal(got, c.covs) {
			t.Errorf("%s: covariates %v, want %v\nnotes: %s", c.file, got, c.covs, strings.Join(ds.Notes, "\n"))
		}
		for _, f := range c.feats {
			if !slices.Contains(ds.Features, f) {
				t.Errorf("%s: %q is not a feature (features %v)", c.file, f, ds.Features)
			}
		}
	}
}

// TestNoSymbolIsACovariateName: no gene symbol of real platforms' annotations (the
// shared data's aml_symbols.tsv and dlbcl_symbols.tsv; GEO's GPL97.annot and GPL96's
// platform table in the geo fixtures, 30,000 symbols of HG-U133A and B) and no
// feature name of the shared data sets (colon, chowdary, leukemia, srbct, lymphoma,
// DLBCL, AML, Proteus) is a covariate's name; a name taken only with few distinct values
// (TNM's T, a gene symbol in old annotations) is allowed, as a gene's values are many.
func TestNoSymbolIsACovariateName(t *testing.T) {
	names := map[string]string{} // name -> where from
	for _, p := range []string{shared(t, "aml_symbols.tsv"), shared(t, "dlbcl_symbols.tsv"), filepath.Join("testdata", "geo", "GPL97.annot.gz"), filepath.Join("..", "geo", "testdata", "GPL96_family.soft.gz")} {
		sym, _, err := ReadSymbols(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(sym) < 2000 {
			t.Fatalf("%s: %d symbols read", p, len(sym))
		}
		for _, s := range sym {
			for _, one := range strings.Split(s, " /// ") {
				names[strings.TrimSpace(one)] = filepath.Base(p)
			}
		}
	}
	symbols := len(names)
	for _, f := range []string{"colon.csv", "chowdary.csv", "srbct.csv", "lymphoma.csv", "dlbcl_chop_survival.csv", "aml_survival.csv", "proteus_proteomics.csv", "leukemia.gct"} {
		ds, err := ReadFile(shared(t, f), Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, n := range append(ds.Features, ds.CovariateNames()...) {
			names[n] = f
		}
		if len(ds.Covariates) > 0 {
			t.Errorf("%s: covariates %v found in a table of genes", f, ds.CovariateNames())
		}
	}
	t.Logf("%d symbols and %d feature names checked", symbols, len(names)-symbols)
	for n, from := range names {
		if ok, ambiguous := IsCovariateName(n); ok && !ambiguous {
			t.Errorf("%q (%s) is a covariate's name", n, from)
		}
	}
}

// TestClinicalNamesOfCohorts: names of TCGA's clinical tables, GEO characteristics (as
// GEOquery's pData names them, age:ch1) and
// R's survival data sets are covariates' names; genes alike are not (PRX, CRX: p or c
// before rx; MCAT: M and cat), and short TNM names are taken only with few values.
func TestClinicalNamesOfCohorts(t *testing.T) {
	for _, h := range []string{"node", "Node", "lymph node status", "node4", "pathologic_stage", "ajcc_pathologic_stage", "age_at_initial_pathologic_diagnosis",
		"neoplasm_histologic_grade", "histological_type", "pathologic_T", "pathologic_N", "tumor_stage", "gender", "race", "er status", "her2 status", "pgr status", "tumor size",
		"meno", "hormon", "chemo", "differ", "extent", "surg", "obstruct", "perfor", "adhere", "ph.ecog", "ph.karno", "pat.karno", "meal.cal", "wt.loss",
		"celltype", "karno", "diagtime", "prior", "resid.ds", "ecog.ps", "bili", "alk.phos", "protime", "brca.mutation",
		"age:ch1", "er status:ch1", "grade.ch1", "node:ch1", "lymph node status:ch2", "age:"} {
		if ok, amb := IsCovariateName(h); !ok || amb {
			t.Errorf("%q: ok %v, ambiguous %v; want a covariate's name", h, ok, amb)
		}
	}
	for _, h := range []string{"rx", "trt", "Mcat", "pT", "cN"} {
		if ok, amb := IsCovariateName(h); !ok || !amb {
			t.Errorf("%q: ok %v, ambiguous %v; want both", h, ok, amb)
		}
	}
	for _, h := range []string{"PRX", "CRX", "MCAT", "PGR", "vital_status", "days_to_death", "days_to_last_follow_up", "t.os", "e.os", "NODAL", "ERBB2", "PRX:ch1", "characteristics_ch1", "ch1"} {
		if ok, amb := IsCovariateName(h); ok && !amb {
			t.Errorf("%q is taken as a covariate's name", h)
		}
	}
}
