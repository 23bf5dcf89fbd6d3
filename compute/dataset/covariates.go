package dataset

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"steadfast/internal/text"
)

// Covariate is a clinical covariate (age, sex, grade, stage, tumour size, nodes, ER
// status, IPI...): a sample annotation kept beside the features, never one of them.
// A numeric covariate has Values; a categorical one Levels and Codes, to be coded as
// one dummy per level but the first, the reference.
type Covariate struct {
	Name string
	// Values are a numeric covariate's values per sample, NaN where missing; nil for a
	// categorical covariate.
	Values []float64
	// Levels are a categorical covariate's levels, the first the reference; Codes are
	// each sample's level (an index into Levels), -1 where missing.
	Levels []string
	Codes  []int
	// Named is true when the user named the column (Options.Covariates), false when it
	// was found by its name (IsCovariateName).
	Named bool
}

// Categorical reports whether c has levels rather than numbers.
func (c *Covariate) Categorical() bool { return c.Levels != nil }

// Missing reports whether sample i has no value of c.
func (c *Covariate) Missing(i int) bool {
	if c.Categorical() {
		return c.Codes[i] < 0
	}
	return math.IsNaN(c.Values[i])
}

// MissingCount is the number of samples without a value of c.
func (c *Covariate) MissingCount() int {
	n := 0
	for i := range c.Len() {
		if c.Missing(i) {
			n++
		}
	}
	return n
}

// Len is the number of samples.
func (c *Covariate) Len() int {
	if c.Categorical() {
		return len(c.Codes)
	}
	return len(c.Values)
}

// Describe is how a note names c: `"Age" (numeric)`, `"Grade" (3 levels: 1
// (reference), 2, 3)`.
func (c *Covariate) Describe() string {
	s := fmt.Sprintf("%q (numeric", c.Name)
	if c.Categorical() {
		lv := slices.Clone(c.Levels)
		lv[0] += " (reference)"
		s = fmt.Sprintf("%q (%s: %s", c.Name, text.Count(len(c.Levels), "level"), listNames(lv, 6))
	}
	if m := c.MissingCount(); m > 0 {
		s += fmt.Sprintf("; missing in %s", text.Count(m, "sample"))
	}
	return s + ")"
}

// pick is c restricted to the samples idx.
func (c Covariate) pick(idx []int) Covariate {
	out := Covariate{Name: c.Name, Levels: c.Levels, Named: c.Named}
	if c.Categorical() {
		out.Codes = make([]int, len(idx))
		for k, i := range idx {
			out.Codes[k] = c.Codes[i]
		}
		return out
	}
	out.Values = make([]float64, len(idx))
	for k, i := range idx {
		out.Values[k] = c.Values[i]
	}
	return out
}

// PickCovariates are the covariates cs restricted to the samples idx (nil for none).
func PickCovariates(cs []Covariate, idx []int) []Covariate {
	if cs == nil {
		return nil
	}
	out := make([]Covariate, len(cs))
	for k, c := range cs {
		out[k] = c.pick(idx)
	}
	return out
}

// FindCovariate is d's covariate named name (compared without case), or nil.
func (d *Dataset) FindCovariate(name string) *Covariate {
	for k := range d.Covariates {
		if strings.EqualFold(d.Covariates[k].Name, strings.TrimSpace(name)) {
			return &d.Covariates[k]
		}
	}
	return nil
}

// CovariateNames are the names of d's covariates.
func (d *Dataset) CovariateNames() []string {
	out := make([]string, len(d.Covariates))
	for k, c := range d.Covariates {
		out[k] = c.Name
	}
	return out
}

// covariateBases are the usual clinical covariates' names (normalised: lower case
// without spaces, dots, dashes and underscores), none of them a gene symbol or a
// probe id (TestNoSymbolIsACovariateName checks them against real platforms'
// symbols): those of breast, lymphoma and colon cohorts, GEO characteristics
// ("lymph node status", "node"), TCGA's clinical tables (pathologic_stage,
// age_at_initial_pathologic_diagnosis) and the survival data of R's survival package
// (colon, lung, veteran, rotterdam, gbsg, ovarian, pbc). Rotterdam's pgr is not one:
// PGR is the progesterone receptor's gene symbol (name it with --covariates pgr). The
// words of tnmWords and ambiguousWords are kept apart; the outcome columns
// (vital_status, days_to_death) are never covariates.
var covariateBases = []string{
	"age", "sex", "gender", "race", "ethnicity", "bmi",
	"grade", "stage", "ipi", "aaipi", "ecog", "kps", "karnofsky", "karno", "performancestatus", "ldh", "ldhratio",
	"extranodal", "extranodalsites", "bsymptoms",
	"size", "diam", "diameter", "nodes", "node", "node4", "lymphnode", "lymphnodes", "positivenodes", "nodalstatus", "nodestatus", "lnstatus",
	"er", "pr", "her2", "pgrstatus",
	"menopause", "menopausal", "meno", "smoking", "smoker", "histology", "histotype", "histologicaltype", "histologictype", "celltype",
	"chemo", "chemotherapy", "radiotherapy", "radiationtherapy", "hormon", "hormonal", "hormonetherapy", "hormonaltherapy", "endocrinetherapy", "tamoxifen", "treatment",
	// R's colon (differ, extent, surg, obstruct, perfor, adhere), lung (ph.ecog,
	// ph.karno, pat.karno, meal.cal, wt.loss), veteran (diagtime, prior), ovarian
	// (resid.ds, ecog.ps) and pbc (the liver tests, ascites, edema...)
	"differ", "differentiation", "extent", "surg", "surgery", "obstruct", "obstruction", "perfor", "perforation", "adhere", "adherence",
	"phecog", "phkarno", "patkarno", "mealcal", "wtloss", "weightloss", "diagtime", "prior", "priortherapy",
	"residds", "residualdisease", "residualtumor", "ecogps",
	"ascites", "hepato", "hepatomegaly", "spiders", "edema", "bili", "bilirubin", "chol", "cholesterol", "albumin", "copper", "alkphos", "trig", "triglycerides", "platelet", "platelets", "protime",
	"brcamutation",
}

// tnmWords are TNM's T, N and M: single letters, taken only with few distinct values
// (a gene could be called T), and with the prefixes p, c and yp (pT, cN) or TCGA's
// pathologic (pathologic_T).
var tnmWords = []string{"t", "n", "m"}

// ambiguousWords are short names, taken alone (PRX and CRX are genes), that are taken
// as covariates only when the column holds few distinct values: performance status as PS, treatment as rx or trt (R's
// colon, ovarian, veteran and pbc).
var ambiguousWords = []string{"ps", "rx", "trt"}

// covariatePrefixes and covariateSuffixes may qualify a base word: tumour_size,
// Age.years, ER_status, histological_grade; up to two prefixes (TCGA's
// neoplasm_histologic_grade, ajcc_pathologic_stage).
var (
	covariatePrefixes = []string{"tumor", "tumour", "histological", "histologic", "hist", "clinical", "clin", "pathological", "pathologic", "path", "ajcc", "tnm", "figo", "nuclear", "annarbor", "patient", "neoplasm"}
	covariateSuffixes = []string{"status", "years", "yrs", "atdiagnosis", "atdx", "atsurgery", "atentry", "atinitialpathologicdiagnosis", "category", "cat", "group", "level", "score", "cm", "mm"}
	tnmPrefixes       = []string{"", "p", "c", "yp", "pathologic", "clinical"}
	tnmSuffixes       = []string{"", "stage", "status", "category", "cat"}
	// prefixPairs are "", each prefix, and each two different ones in a row.
	prefixPairs = func() []string {
		out := []string{""}
		for _, p := range covariatePrefixes {
			out = append(out, p)
			for _, q := range covariatePrefixes {
				if q != p {
					out = append(out, p+q)
				}
			}
		}
		return out
	}()
)

// fewLevels is the most distinct values a column named like TNM's T, N or M (or an
// ambiguous word) may hold to be taken as a covariate.
const fewLevels = 10

// IsCovariateName reports whether a column named h is a usual clinical covariate by
// its name: one of covariateBases, alone or with a prefix (tumour, histological,
// clinical, ...) or a suffix (status, years, at diagnosis, cm, ...), compared in lower
// case without spaces, dots, dashes and underscores ("Age", "tumour_size", "ER.status",
// "Histological grade", "pathologic_stage"; a GEO characteristic's key as GEOquery's
// pData names it, "age:ch1"); or TNM's T, N or M, with p, c, yp or
// pathologic before and stage after (pT, N_stage; one of 4 letters or fewer, as pT or
// Mcat, ambiguous: MCAT is a gene). A gene-like name is never one:
// AGE1, ERBB2, NODAL, PGR, T-cell probes. ambiguous is set for the single letters and
// the short words (ps, rx, trt) that are taken only when the column holds few distinct
// values.
func IsCovariateName(h string) (ok, ambiguous bool) {
	w := normName(characteristicKey(h))
	if w == "" {
		return false, false
	}
	if slices.Contains(ambiguousWords, w) {
		return true, true
	}
	for _, p := range tnmPrefixes {
		for _, s := range tnmSuffixes {
			for _, b := range tnmWords {
				if w == p+b+s {
					return true, len(w) <= 4 // as short as a gene symbol: pT, Mcat (MCAT)
				}
			}
		}
	}
	for _, b := range covariateBases {
		if !strings.Contains(w, b) {
			continue
		}
		for _, p := range prefixPairs {
			for _, s := range append([]string{""}, covariateSuffixes...) {
				if w == p+b+s {
					return true, false
				}
			}
		}
	}
	return false, false
}

// characteristicKey is h without what GEO and GEOquery add to a characteristic's key:
// the channel of pData's columns ("age:ch1", "er status.ch1" as write.csv writes it)
// and a trailing colon ("grade:").
func characteristicKey(h string) string {
	k := strings.TrimSpace(h)
	for _, ch := range []string{"ch1", "ch2"} {
		for _, sep := range []string{":", ".", "_"} {
			if len(k) > len(sep+ch) && strings.HasSuffix(strings.ToLower(k), sep+ch) {
				k = k[:len(k)-len(sep+ch)]
			}
		}
	}
	return strings.TrimSuffix(strings.TrimSpace(k), ":")
}

// categoricalBases are the covariates whose whole-number codes are categories, not
// amounts: grade 1/2/3, stage 1-4, T, N and M.
var categoricalBases = []string{"grade", "stage", "t", "n", "m"}

// codedCategories reports whether a numeric covariate named h with whole-number values
// vals is a category code (a grade or stage) with at most 6 distinct values.
func codedCategories(h string, vals []float64) bool {
	w := normName(h)
	named := false
	for _, b := range categoricalBases {
		if strings.HasSuffix(w, b) && (len(b) > 1 || len(w) <= 3) || strings.HasPrefix(w, b) && len(b) > 1 {
			named = true
		}
	}
	if !named {
		return false
	}
	seen := map[float64]bool{}
	for _, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		if v != math.Trunc(v) {
			return false
		}
		seen[v] = true
	}
	return len(seen) <= 6
}

// missingCovariate are codes of a missing clinical value besides isMissingCell's.
var missingCovariate = []string{"unknown", "unk", "not available", "not reported", "missing", "-", "."}

// parseCovariate reads column cells as a covariate named name: numeric when every
// value present is a number (a grade or stage coded 1, 2, 3 is categorical: see
// codedCategories), categorical otherwise, its levels ordered by orderLevels.
func parseCovariate(name string, cells []string, decimalComma bool) Covariate {
	c := Covariate{Name: name}
	vals := make([]float64, len(cells))
	numeric := true
	for i, cell := range cells {
		cell = strings.TrimSpace(cell)
		if isMissingCell(cell) || oneOf(cell, missingCovariate) {
			vals[i] = math.NaN()
			continue
		}
		v, ok := parseCell(cell, decimalComma)
		if !ok || math.IsInf(v, 0) {
			numeric = false
			break
		}
		vals[i] = v
	}
	if numeric && !codedCategories(name, vals) {
		c.Values = vals
		return c
	}
	labels := make([]string, len(cells))
	var levels []string
	for i, cell := range cells {
		cell = strings.TrimSpace(cell)
		switch {
		case isMissingCell(cell) || oneOf(cell, missingCovariate):
			continue
		case numeric:
			cell = strconv.FormatFloat(vals[i], 'g', -1, 64)
		}
		labels[i] = cell
		if !slices.Contains(levels, cell) {
			levels = append(levels, cell)
		}
	}
	c.Levels = orderLevels(levels)
	if c.Levels == nil {
		c.Levels = []string{}
	}
	c.Codes = make([]int, len(cells))
	for i, l := range labels {
		c.Codes[i] = -1
		if l != "" {
			c.Codes[i] = slices.Index(c.Levels, l)
		}
	}
	return c
}

// ordinalRank ranks the words that order clinical levels: well < moderately <
// poorly (differentiated), low < intermediate < high, negative < positive, no < yes.
var ordinalRank = map[string]int{
	"well": 0, "low": 0, "negative": 0, "neg": 0, "no": 0, "absent": 0,
	"moderate": 1, "moderately": 1, "intermediate": 1, "medium": 1,
	"poor": 2, "poorly": 2, "high": 2, "positive": 2, "pos": 2, "yes": 2, "present": 2,
}

// orderLevels orders a categorical covariate's levels, the first the reference: by
// the ordinal words of ordinalRank when every level starts with a distinct one (Well
// diff, Intermediate, Poorly diff), else in natural order (numbers by value, then text
// without case: 1-3 < >=4, I < II < III < IV, female < male).
func orderLevels(levels []string) []string {
	out := slices.Clone(levels)
	rank := map[string]int{}
	seen := map[int]bool{}
	for _, l := range out {
		first := strings.FieldsFunc(strings.ToLower(l), func(r rune) bool { return !unicode.IsLetter(r) })
		if len(first) == 0 {
			break
		}
		r, ok := ordinalRank[first[0]]
		if !ok || seen[r] {
			break
		}
		rank[l], seen[r] = r, true
	}
	if len(rank) == len(out) {
		slices.SortFunc(out, func(a, b string) int { return rank[a] - rank[b] })
		return out
	}
	slices.SortFunc(out, naturalCompare)
	return out
}

// naturalCompare compares a and b as numbers when both are, else chunk by chunk,
// digit runs by value and text without case.
func naturalCompare(a, b string) int {
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	if ea == nil && eb == nil && fa != fb {
		if fa < fb {
			return -1
		}
		return 1
	}
	ca, cb := chunks(strings.ToLower(a)), chunks(strings.ToLower(b))
	for k := 0; k < len(ca) && k < len(cb); k++ {
		x, y := ca[k], cb[k]
		nx, errx := strconv.Atoi(x)
		ny, erry := strconv.Atoi(y)
		switch {
		case errx == nil && erry == nil && nx != ny:
			if nx < ny {
				return -1
			}
			return 1
		case x != y:
			return strings.Compare(x, y)
		}
	}
	if c := len(ca) - len(cb); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// chunks cuts s into runs of digits and runs of other characters.
func chunks(s string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(s); i++ {
		if i == len(s) || unicode.IsDigit(rune(s[i])) != unicode.IsDigit(rune(s[i-1])) {
			out = append(out, s[start:i])
			start = i
		}
	}
	return out
}

// distinctValues counts the distinct non-missing cells, stopping past limit.
func distinctValues(cells []string, limit int) int {
	seen := map[string]bool{}
	for _, c := range cells {
		if isMissingCell(c) {
			continue
		}
		seen[strings.TrimSpace(c)] = true
		if len(seen) > limit {
			break
		}
	}
	return len(seen)
}

// findColumn is the index of the column of header named name (without case), or -1.
func findColumn(header []string, name string) int {
	return slices.IndexFunc(header, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(name)) })
}

// readCovariates takes the covariate columns of a table with samples as rows: those o
// names (refused when absent, or when one is the class, the ids or the outcome) and
// those named like clinical covariates (IsCovariateName) but those o.AsFeatures names;
// it marks them in skip and returns them with a note. role names the columns other
// parts took (class, ids, time, event) by index.
func readCovariates(file string, g grid, header []string, o Options, role map[int]string, skip map[int]bool, decimalComma bool, orient Orientation) ([]Covariate, []string, error) {
	if err := o.checkCovariates(); err != nil {
		return nil, nil, &ParseError{File: file, Msg: err.Error()}
	}
	what := "column"
	if orient == SamplesAsColumns {
		what = "row"
	}
	var cols []int
	named := map[int]bool{}
	for _, lst := range []struct {
		names []string
		use   string
	}{{o.Covariates, "a covariate"}, {o.AsFeatures, "a feature"}} {
		for _, name := range lst.names {
			j := findColumn(header, name)
			if j < 0 {
				return nil, nil, &ParseError{File: file, Msg: fmt.Sprintf("no %s is named %q to take as %s; the file's %ss are %s", what, name, lst.use, what, quotedList(header, 12))}
			}
			if r, ok := role[j]; ok {
				return nil, nil, &ParseError{File: file, Msg: fmt.Sprintf("the %s %q is the %s; it cannot also be %s", what, header[j], r, lst.use)}
			}
			if lst.use == "a covariate" {
				cols, named[j] = append(cols, j), true
			}
		}
	}
	for j, h := range header {
		if _, taken := role[j]; taken || named[j] || findColumnIn(o.AsFeatures, h) {
			continue
		}
		ok, ambiguous := IsCovariateName(h)
		if !ok || ambiguous && distinctValues(g.column(j, 1), fewLevels) > fewLevels {
			continue
		}
		cols = append(cols, j)
	}
	slices.Sort(cols)
	var covs []Covariate
	var found, given []string
	for _, j := range cols {
		c := parseCovariate(strings.TrimSpace(header[j]), g.column(j, 1), decimalComma)
		c.Named = named[j]
		skip[j] = true
		covs = append(covs, c)
		if c.Named {
			given = append(given, c.Describe())
		} else {
			found = append(found, c.Describe())
		}
	}
	var notes []string
	if len(given) > 0 {
		notes = append(notes, fmt.Sprintf("clinical covariates as named (sample annotations, not features): %s", strings.Join(given, ", ")))
	}
	if len(found) > 0 {
		how := "their names"
		if len(found) == 1 {
			how = "its name"
		}
		notes = append(notes, fmt.Sprintf("%s found by %s and taken as clinical covariates (sample annotations, not features): %s; to analyse one as a feature instead, name it with --as-feature NAME (a configuration's read.asFeatures)",
			text.Count(len(found), what), how, strings.Join(found, ", ")))
	}
	return covs, notes, nil
}

// findColumnIn reports whether names holds h (without case).
func findColumnIn(names []string, h string) bool { return findColumn(names, h) >= 0 }

// quotedList is up to max names quoted, then how many more.
func quotedList(names []string, max int) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = strconv.Quote(strings.TrimSpace(s))
	}
	return listNames(q, max)
}

// checkCovariateOptions refuses a column named both a covariate and a feature, or a
// covariate that is the class or the survival outcome.
func (o Options) checkCovariates() error {
	for _, c := range o.Covariates {
		if strings.TrimSpace(c) == "" {
			return fmt.Errorf("a covariate's name is empty")
		}
		if findColumnIn(o.AsFeatures, c) {
			return fmt.Errorf("%q is named both a covariate and a feature: it is one or the other", c)
		}
		for _, other := range []struct{ name, role string }{{o.ClassName, "class"}, {o.Outcome.Time, "survival time"}, {o.Outcome.Event, "event"}} {
			if other.name != "" && strings.EqualFold(strings.TrimSpace(other.name), strings.TrimSpace(c)) {
				return fmt.Errorf("%q is the %s; it cannot also be a covariate", c, other.role)
			}
		}
	}
	return nil
}

// covariatesRead refuses covariates o names that the reader of ds did not take (a
// GCT, ARFF or GEO file: covariates come from the columns of a table).
func covariatesRead(file string, ds *Dataset, o Options) error {
	for _, c := range o.Covariates {
		if ds.FindCovariate(c) == nil {
			return &ParseError{File: file, Msg: fmt.Sprintf("no covariate %q in this kind of file: clinical covariates come from the columns of a CSV, TSV or workbook (or its rows, samples being columns)", c)}
		}
	}
	return nil
}
