package dataset

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// Names of usual clinical covariates are found, qualified or not; gene symbols and
// probe ids that look alike are not (AGE1, AGER, ERBB2, NODAL, BMI1, TBX...).
func TestIsCovariateName(t *testing.T) {
	for _, h := range []string{"Age", "AGE", "age_at_diagnosis", "Age.years", "Sex", "gender", "Grade", "histological grade", "Tumour_Grade",
		"Stage", "AJCC stage", "IPI", "tumor size", "Size_cm", "Diam", "diameter", "Nodes", "lymph-nodes", "ER", "ER_status", "PR", "HER2",
		"ECOG", "LDH", "pT", "N_stage", "treatment", "Menopausal status", "BMI"} {
		if ok, _ := IsCovariateName(h); !ok {
			t.Errorf("%q is not taken as a covariate's name", h)
		}
	}
	for _, h := range []string{"AGE1", "AGER", "ERBB2", "NODAL", "BMI1", "PGR", "ESR1", "TBX21", "ERG", "STAG1", "1007_s_at", "Contig63649_RC", "SIZN1", "MT", "NT5E", "time", "event", "class"} {
		if ok, _ := IsCovariateName(h); ok {
			t.Errorf("%q is taken as a covariate's name; it looks like a gene", h)
		}
	}
	for _, h := range []string{"T", "N", "M", "PS"} {
		if ok, amb := IsCovariateName(h); !ok || !amb {
			t.Errorf("%q: ok %v, ambiguous %v; want both", h, ok, amb)
		}
	}
}

// A classes table with clinical columns: Age (numeric, one missing) and Grade 1/2/3
// become covariates, AGE1 stays a gene; the note names them and how to keep one as a
// feature. Grade is coded as categories with 1 the reference; the levels of a text
// column follow ordinal words. A column "T" of many values (a gene) stays a feature.
func TestCovariatesOfAClassesTable(t *testing.T) {
	text := "id,Age,Grade,AGE1,T,g2,Diff,class\n" +
		"s1,50,1,0.1,0.11,2,Poorly diff,A\n" +
		"s2,NA,3,0.2,0.52,4,Well diff,B\n" +
		"s3,61,2,0.3,0.33,6,Intermediate,A\n" +
		"s4,44,3,0.4,0.94,8,Well diff,B\n" +
		"s5,38,2,0.5,0.75,1,Poorly diff,A\n" +
		"s6,70,1,0.6,0.16,3,Intermediate,B\n" +
		"s7,55,1,0.7,0.27,5,Well diff,A\n" +
		"s8,49,2,0.8,0.58,7,Poorly diff,B\n" +
		"s9,53,3,0.9,0.89,9,Intermediate,A\n" +
		"s10,66,2,1.0,0.41,2,Well diff,B\n" +
		"s11,59,1,1.1,0.62,3,Well diff,A\n" +
		"s12,47,3,1.2,0.93,4,Poorly diff,B\n"
	ds := mustRead(t, "clin.csv", text, Options{Covariates: []string{"diff"}})
	if !slices.Equal(ds.Features, []string{"AGE1", "T", "g2"}) {
		t.Fatalf("features %v, want AGE1, T, g2", ds.Features)
	}
	if got := ds.CovariateNames(); !slices.Equal(got, []string{"Age", "Grade", "Diff"}) {
		t.Fatalf("covariates %v", got)
	}
	age, grade, diff := ds.FindCovariate("age"), ds.FindCovariate("Grade"), ds.FindCovariate("DIFF")
	if age.Categorical() || !math.IsNaN(age.Values[1]) || age.Values[2] != 61 || age.MissingCount() != 1 || age.Named {
		t.Errorf("Age: %+v", age)
	}
	if !slices.Equal(grade.Levels, []string{"1", "2", "3"}) || !slices.Equal(grade.Codes[:4], []int{0, 2, 1, 2}) {
		t.Errorf("Grade: levels %v codes %v; want 1, 2, 3 with 1 the reference", grade.Levels, grade.Codes)
	}
	if !slices.Equal(diff.Levels, []string{"Well diff", "Intermediate", "Poorly diff"}) || !diff.Named {
		t.Errorf("Diff: levels %v, named %v", diff.Levels, diff.Named)
	}
	joined := strings.Join(ds.Notes, "\n")
	for _, want := range []string{`"Age" (numeric; missing in 1 sample)`, `"Grade" (3 levels: 1 (reference), 2, 3)`, "--as-feature NAME", `clinical covariates as named`} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
	// the same file with Age kept as a feature
	ds = mustRead(t, "clin.csv", text, Options{AsFeatures: []string{"AGE"}})
	if !slices.Contains(ds.Features, "Age") || ds.FindCovariate("Age") != nil || ds.FindCovariate("Grade") == nil {
		t.Errorf("--as-feature Age: features %v, covariates %v", ds.Features, ds.CovariateNames())
	}
}

// Samples as columns: the rows Age and N (few values) are covariates, following the
// samples when some are left out for a missing class.
func TestCovariatesFollowSamples(t *testing.T) {
	text := "gene,s1,s2,s3,s4,s5\nAge,50,60,70,80,90\nN,0,1,NA,1,0\ng1,1,2,3,4,5\ng2,5,4,3,2,1\nclass,A,B,NA,A,B\n"
	ds := mustRead(t, "cols.csv", text, Options{})
	if n, p := ds.Dims(); n != 4 || p != 2 {
		t.Fatalf("dims %d x %d", n, p)
	}
	age, nodes := ds.FindCovariate("Age"), ds.FindCovariate("N")
	if age == nil || nodes == nil {
		t.Fatalf("covariates %v", ds.CovariateNames())
	}
	if !slices.Equal(age.Values, []float64{50, 60, 80, 90}) || !slices.Equal(nodes.Codes, []int{0, 1, 1, 0}) || !slices.Equal(nodes.Levels, []string{"0", "1"}) {
		t.Errorf("after leaving s3 out: Age %v, N %v %v", age.Values, nodes.Levels, nodes.Codes)
	}
	pre, _ := Preprocess(ds, Prep{DropConstant: true})
	if len(pre.Covariates) != 2 || pre.Covariates[0].Len() != 4 {
		t.Errorf("preprocessing lost the covariates: %v", pre.CovariateNames())
	}
}

// Survival tables keep the outcome apart from the covariates; a named covariate that
// is not a column is refused naming the columns that are, one that is the outcome or
// named a feature too is refused.
func TestCovariateRefusals(t *testing.T) {
	text := "sample,time,event,Age,g1,g2\na,1,1,50,1,2\nb,2,0,60,2,1\nc,3,1,70,3,3\nd,4,0,40,1,1\n"
	ds := mustRead(t, "s.csv", text, Options{})
	if ds.Survival == nil || ds.FindCovariate("Age") == nil || slices.Contains(ds.Features, "Age") {
		t.Fatalf("survival %v, covariates %v, features %v", ds.Survival != nil, ds.CovariateNames(), ds.Features)
	}
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Covariates: []string{"Stage"}}, `no column is named "Stage" to take as a covariate; the file's columns are "sample", "time", "event", "Age", "g1", "g2"`},
		{Options{Covariates: []string{"time"}}, `the column "time" is the survival time; it cannot also be a covariate`},
		{Options{Covariates: []string{"g1"}, AsFeatures: []string{"G1"}}, `"g1" is named both a covariate and a feature`},
		{Options{Covariates: []string{"event"}, Outcome: Outcome{Time: "time", Event: "event"}}, `"event" is the event; it cannot also be a covariate`},
	} {
		_, err := ReadDelimited("s.csv", []byte(text), tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v; want %q", tc.o, err, tc.want)
		}
	}
	if _, err := readFile("x.gct", Options{Covariates: []string{"Age"}}, nil); err == nil {
		t.Error("a GCT file without its covariate was read")
	}
	// a gene column may be named a covariate: numeric
	ds = mustRead(t, "s.csv", text, Options{Covariates: []string{"g2"}})
	if c := ds.FindCovariate("g2"); c == nil || c.Categorical() || !c.Named || slices.Contains(ds.Features, "g2") {
		t.Errorf("g2 as a covariate: %+v, features %v", c, ds.Features)
	}
}

// Levels: numbers by value, text in natural order, ordinal words by rank.
func TestOrderLevels(t *testing.T) {
	for _, tc := range [][2][]string{
		{{">=4", "1-3"}, {"1-3", ">=4"}},
		{{"IV", "II", "I", "III"}, {"I", "II", "III", "IV"}},
		{{"G10", "G2", "G1"}, {"G1", "G2", "G10"}},
		{{"high", "low", "intermediate"}, {"low", "intermediate", "high"}},
		{{"Positive", "Negative"}, {"Negative", "Positive"}},
		{{"male", "Female"}, {"Female", "male"}},
		{{"10", "9", "2.5"}, {"2.5", "9", "10"}},
	} {
		if got := orderLevels(tc[0]); !slices.Equal(got, tc[1]) {
			t.Errorf("orderLevels(%v) = %v, want %v", tc[0], got, tc[1])
		}
	}
}
