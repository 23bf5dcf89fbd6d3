package signature

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/internal/text"
)

// Cohort is an independent data set to apply a model to: its samples' values of every
// feature, already preprocessed as the model's Prep says (log2 or log-CPM), the class
// each sample is given ("" for none), and the feature ids and symbols to match the
// model's genes by.
type Cohort struct {
	Name     string
	SHA256   string     // of the file read
	X        *mat.Dense // samples as rows
	Samples  []string
	Classes  []string // per sample, as the cohort spells it; "" unknown
	Features []string
	Symbols  []string // per feature, or nil
	// Time and Event are each sample's survival outcome (nil when the cohort has none),
	// for a survival signature.
	Time  []float64
	Event []bool
}

// ApplyOptions are the choices made when a model is applied to a cohort.
type ApplyOptions struct {
	// Harmonize puts the cohort on the training scale first, one of Harmonizations:
	// "standardize" scales each gene within the cohort and puts it on the training
	// scale, x' = mean_t + sd_t (x - mean_c)/sd_c, mean_c and sd_c (n-1) over the
	// cohort's samples (x' = mean_t when sd_c is 0); "combat..." is ComBat with the
	// training data as the reference batch; "" or "none" leaves the values as they are.
	// The cohort's classes are never used.
	Harmonize string
	// AcceptMissing predicts although some signature genes are not in the cohort: a
	// linear model takes their terms at the training mean, k-NN measures distances on
	// the genes present.
	AcceptMissing bool
	// Map maps cohort class names to the model's (compared without case or spacing).
	Map map[string]string
	// Positive names the positive class of two; "" is the model's.
	Positive string
}

// Validation is a model applied to a cohort: the genes matched, each predicted sample's
// scores and predicted class, and, for the samples whose class the model knows, the
// metrics.
type Validation struct {
	Model          *Model
	Cohort, SHA256 string // the cohort's name and file digest
	Options        ApplyOptions
	Matches        []Match
	Samples        []string    // the samples predicted, in the cohort's order
	Given          []string    // their classes as the cohort gives them ("" none)
	Truth          []int       // the model's class of each, or -1 (none, or one it never saw)
	Pred           []int       // the predicted class
	Scores         [][]float64 // each class's score (see Model.Scores)
	// Probs is each predicted sample's probability of the positive class (Positive) by
	// the model's Platt map; nil for a model without one. RuleProb is that probability
	// at the rule's threshold (Model.RuleScore): the rule calls the positive class when
	// a sample's probability exceeds it, which need not be 1/2.
	Probs    []float64
	RuleProb float64
	Skipped  []string // samples not predicted and why
	Notes    []string // what was assumed or noticed
	Metrics  *Metrics // nil when no sample has a class the model knows
	// Shift is the cohort's values against the training data's, before any
	// harmonisation (nil for a model file without training values).
	Shift *Shift
	// Values[g][i] is found gene g's value (as scored, before scaling) in predicted
	// sample i, for the heatmap; GeneLabels name those genes.
	Values     [][]float64
	GeneLabels []string
	// Overlap names a cohort that is not independent of the training data, for titles
	// ("the model's own training data", "a cohort holding 3 of its training samples");
	// "" when it is, as far as values and names tell.
	Overlap  string
	positive int
	// Survival holds a survival signature's measures on a cohort with its outcome (nil
	// otherwise); Time and Event are the predicted samples' outcome.
	Survival *SurvivalMetrics
	Time     []float64
	Event    []bool
	kept     []int // the predicted samples' indices among the cohort's
}

// CohortKind is what the cohort is to the model, for titles and paragraphs: "an
// independent cohort", or its Overlap.
func (v *Validation) CohortKind() string {
	if v.Overlap != "" {
		return v.Overlap
	}
	return "an independent cohort"
}

// Positive is the positive class of two (an index into Model.Classes), or -1.
func (v *Validation) Positive() int { return v.positive }

// MissingGenesError is Apply's refusal of a cohort lacking some signature genes: what
// is missing and what predicting anyway would mean (Said), and how they might be found
// (Advice). Error says how to accept it on the command line or in the dialog.
type MissingGenesError struct{ Said, Advice string }

func (e *MissingGenesError) Error() string {
	return e.Said + "; accept that (--accept-missing, or the Validate dialog's check box)" + e.Advice
}

// Apply predicts the cohort c's samples with the model m: each model gene matched by
// id, else by symbol; values of a gene found by several probes averaged; values
// standardised within the cohort when o says; samples with a missing value in a gene
// found left out (and named). It refuses a cohort with no signature gene, with
// duplicated sample names, with missing genes unless o.AcceptMissing, and a class map
// naming a class the model lacks.
func Apply(m *Model, c *Cohort, o ApplyOptions) (*Validation, error) {
	if dup := duplicated(c.Samples); dup != "" {
		return nil, fmt.Errorf("%s: the sample %q appears more than once; predictions are joined to samples by name, so give every sample its own name", c.Name, dup)
	}
	v := &Validation{Model: m, Cohort: c.Name, SHA256: c.SHA256, Options: o, positive: m.Positive}
	if err := v.setPositive(o.Positive); err != nil {
		return nil, err
	}
	v.Matches = MatchGenes(m, c.Features, c.Symbols)
	v.aliasNotes()
	missing := v.missing()
	g := len(m.Genes)
	if v.Found() == 0 {
		return nil, fmt.Errorf("%s: none of the signature's %d genes is in the cohort, by id or by gene symbol; give the cohort's annotation (--symbols FILE, or Gene symbols when opening it) so genes can be matched by symbol", c.Name, g)
	}
	if len(missing) > 0 {
		what := "their terms are taken at the training mean"
		switch {
		case m.Cox != nil:
			what = "their terms of the risk score are taken at the training mean"
		case m.Classifier == "rf":
			what = "their values are taken at the training mean (every tree still splits on them)"
		case m.W == nil:
			what = "distances are measured on the other genes"
		}
		if m.Classifier == "ktsp" {
			what = "the pairs with a gene missing do not vote"
			var found []int
			for j, mt := range v.Matches {
				if mt.By != "" {
					found = append(found, j)
				}
			}
			intact := len(m.intactPairs(found).Pairs)
			if intact == 0 {
				return nil, fmt.Errorf("%s: every k-TSP pair of the signature lacks a gene in the cohort (%s missing), so no pair can vote", c.Name, listSome(missing, 8))
			}
			what = fmt.Sprintf("the pairs with a gene missing do not vote: %d of the %d pairs vote", intact, len(m.Pairs))
		}
		if !o.AcceptMissing {
			return nil, &MissingGenesError{Said: fmt.Sprintf("%s: %d of the signature's %s %s not in the cohort (%s); the prediction would use the other %d (%s)",
				c.Name, len(missing), text.Count(g, "gene"), text.Plural(len(missing), "is|are"), listSome(missing, 8), v.Found(), what), Advice: v.bySymbolAdvice(c.Symbols != nil)}
		}
		v.Notes = append(v.Notes, fmt.Sprintf("%d of %d signature genes not in the cohort (%s): %s, as accepted", len(missing), g, listSome(missing, 8), what))
	}
	if !slices.Contains(Harmonizations, o.Harmonize) && o.Harmonize != "" {
		return nil, fmt.Errorf("harmonisation %q: give one of %s", o.Harmonize, strings.Join(Harmonizations, ", "))
	}
	x := v.values(c)
	v.Shift = v.shiftOf(x)
	if err := v.harmonizeValues(x); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	if err := v.classes(c, o.Map); err != nil {
		return nil, err
	}
	v.predict(x, c.Samples)
	v.scoreShift()
	if m.Cox != nil {
		if c.Time != nil && len(v.kept) > 0 {
			var err error
			if v.Survival, err = v.measureSurvival(c.Time, c.Event); err != nil {
				return nil, err
			}
		}
		return v, nil
	}
	if w := v.unbalanced(); w != "" {
		v.Notes = append(v.Notes, w)
	}
	v.Metrics = v.measure()
	return v, nil
}

// setPositive takes the positive class by name ("" keeps the model's).
func (v *Validation) setPositive(name string) error {
	m := v.Model
	if name == "" {
		return nil
	}
	if len(m.Classes) != 2 {
		return fmt.Errorf("a positive class is for two classes; the model has %d", len(m.Classes))
	}
	i := slices.IndexFunc(m.Classes, func(c string) bool { return classKey(c) == classKey(name) })
	if i < 0 {
		return fmt.Errorf("the positive class %q is not one of the model's (%s)", name, strings.Join(m.Classes, ", "))
	}
	v.positive = i
	return nil
}

// classKey is a class name compared without case or spacing ("Tumour  A" = "tumour_a").
func classKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.NewReplacer("_", " ", "-", " ").Replace(s))), " ")
}

// classes sets every sample's given class and, through the map and by name, the
// model's class (-1 for none or one the model never saw, which is noted).
func (v *Validation) classes(c *Cohort, mapping map[string]string) error {
	m := v.Model
	model := map[string]int{}
	for i, cl := range m.Classes {
		model[classKey(cl)] = i
	}
	mapped := map[string]int{}
	for from, to := range mapping {
		i, ok := model[classKey(to)]
		if !ok {
			return fmt.Errorf("the class map %s=%s: %q is not one of the model's classes (%s)", from, to, to, strings.Join(m.Classes, ", "))
		}
		mapped[classKey(from)] = i
	}
	unseen := map[string]int{}
	v.Given, v.Truth = make([]string, len(c.Samples)), make([]int, len(c.Samples))
	for i, cl := range c.Classes {
		v.Given[i], v.Truth[i] = cl, -1
		if cl == "" {
			continue
		}
		if t, ok := mapped[classKey(cl)]; ok {
			v.Truth[i] = t
		} else if t, ok := model[classKey(cl)]; ok {
			v.Truth[i] = t
		} else {
			unseen[cl]++
		}
	}
	var names []string
	for cl, k := range unseen {
		names = append(names, fmt.Sprintf("%q (%d samples)", cl, k))
	}
	sort.Strings(names)
	if len(names) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("the cohort's class %s is not one the model knows (%s): its samples are predicted but left out of the metrics; if it is one of them, map it (--map \"%s=%s\", or Class map in the Validate dialog)",
			strings.Join(names, ", "), strings.Join(m.Classes, ", "), firstKey(unseen), m.Classes[0]))
	}
	return nil
}

func firstKey(m map[string]int) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys[0]
}

// duplicated returns a name given twice, or "" (a reader's renamed repeat, name_dupN,
// counts as one).
func duplicated(names []string) string {
	seen := make(map[string]bool, len(names))
	for _, s := range names {
		if seen[s] {
			return s
		}
		seen[s] = true
	}
	for _, s := range names {
		if i := strings.LastIndex(s, "_dup"); i > 0 && seen[s[:i]] && strings.Trim(s[i+4:], "0123456789") == "" && len(s) > i+4 {
			return s[:i]
		}
	}
	return ""
}

// listSome is up to max of names, then how many more.
func listSome(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
}
