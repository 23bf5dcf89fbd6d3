package signature

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/genes"
	"steadfast/compute/rstat"
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

// Match is how one model gene was found in the cohort: By "id" (the same feature id),
// "symbol" (the cohort's features of its gene symbol, Probes of them averaged) or ""
// (not found).
type Match struct {
	ID, Symbol string
	By         string // "id", "symbol", "alias" (through the current symbol), "" missing
	Probes     []string
	// Current is the current symbol the gene was matched through (By "alias");
	// Ambiguous the current symbols its own symbol may mean, when it was not matched
	// because of that.
	Current   string
	Ambiguous []string
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
	// the model's Platt map; nil for a model without one.
	Probs   []float64
	Skipped []string // samples not predicted and why
	Notes   []string // what was assumed or noticed
	Metrics *Metrics // nil when no sample has a class the model knows
	// Shift is the cohort's values against the training data's, before any
	// harmonisation (nil for a model file without training values).
	Shift *Shift
	// Values[g][i] is found gene g's value (as scored, before scaling) in predicted
	// sample i, for the heatmap; GeneLabels name those genes.
	Values     [][]float64
	GeneLabels []string
	positive   int
}

// Positive is the positive class of two (an index into Model.Classes), or -1.
func (v *Validation) Positive() int { return v.positive }

// Found is the number of signature genes found in the cohort.
func (v *Validation) Found() int { return len(v.Matches) - len(v.missing()) }

// missing are the model genes not found in the cohort, named.
// bySymbolAdvice says how the missing genes could still be found: by the cohort's
// annotation when it has none, else why symbols do not find them (the genes have no
// symbol in the training annotation, or the cohort has none of their symbols).
func (v *Validation) bySymbolAdvice(cohortSymbols bool) string {
	var noSymbol, absent int
	for _, mt := range v.Matches {
		switch {
		case mt.By != "":
		case mt.Symbol == "":
			noSymbol++
		default:
			absent++
		}
	}
	switch {
	case !cohortSymbols && absent > 0:
		return ", or give the cohort's annotation (--symbols FILE, or Gene symbols in the dialog) to match them by gene symbol"
	case !cohortSymbols:
		return "; matching by symbol cannot help: the training annotation gives " + text.Plural(noSymbol, "this gene|these genes") + " no symbol"
	case noSymbol == 0:
		return "; the cohort's annotation was used, and none of its probes carries " + text.Plural(absent, "this gene's symbol|these genes' symbols")
	}
	return fmt.Sprintf("; the cohort's annotation was used: %d of the missing genes %s no symbol in the training annotation, and the cohort's probes carry none of the others' symbols", noSymbol, text.Plural(noSymbol, "has|have"))
}

func (v *Validation) missing() []string {
	var out []string
	for _, mt := range v.Matches {
		if mt.By == "" {
			out = append(out, geneName(mt))
		}
	}
	return out
}

// Metrics are a cohort's predictions against its classes: N samples of classes the
// model knows; accuracy = correct/N; balanced accuracy = the mean recall over the classes
// present; sensitivity and specificity = the recall of the positive and of the other
// class (two classes; NaN otherwise or when absent); Confusion[t][p] counts samples of
// class t predicted p; AUC, Curve are the positive class's (two classes) and PerClass,
// Curves each class's one-vs-rest (more), NaN and nil when a class is absent.
type Metrics struct {
	N                        int
	Accuracy, Balanced       float64
	Sensitivity, Specificity float64
	// SensCI and SpecCI are their 95% Wilson intervals (the model fixed, the cohort's
	// samples independent); Calibration that of Validation.Probs (nil without).
	SensCI, SpecCI            [2]float64
	Calibration               *Calibration
	Confusion                 [][]int
	AUC                       AUC
	Curve                     []ROCPoint
	PerClass                  []AUC
	Curves                    [][]ROCPoint
	MeanAUC                   float64 // two classes: AUC.AUC; more: the mean over PerClass present
	ClassesPresent, NoAUCNote string
}

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
		if m.W == nil {
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

// MatchGenes matches each of m's genes to the cohort's features: by id, else by gene
// symbol (every cohort feature one of whose symbols is the gene's first symbol).
func MatchGenes(m *Model, ids, symbols []string) []Match {
	byID := make(map[string]int, len(ids))
	for j, id := range ids {
		byID[id] = j
	}
	bySym := map[string][]int{}
	for j, s := range symbols {
		for _, t := range symbolTokens(s) {
			bySym[t] = append(bySym[t], j)
		}
	}
	out := make([]Match, len(m.Genes))
	var byCur map[string][]int // current symbol -> cohort features, made when needed
	for g, gene := range m.Genes {
		mt := Match{ID: gene.ID, Symbol: gene.Symbol}
		if j, ok := byID[gene.ID]; ok {
			mt.By, mt.Probes = "id", []string{ids[j]}
		} else if t := symbolTokens(gene.Symbol); len(t) > 0 && len(bySym[t[0]]) > 0 {
			mt.By = "symbol"
			for _, j := range bySym[t[0]] {
				mt.Probes = append(mt.Probes, ids[j])
			}
			sort.Strings(mt.Probes) // the cohort's feature order does not matter
		} else if len(t) > 0 {
			byAlias(&mt, t[0], ids, symbols, &byCur)
		}
		out[g] = mt
	}
	return out
}

// aliasNotes says which genes were found through the alias table, and which were not
// because their symbol is an ambiguous alias.
func (v *Validation) aliasNotes() {
	var via, amb []string
	for _, mt := range v.Matches {
		switch {
		case mt.By == "alias":
			via = append(via, mt.Symbol+" = "+mt.Current)
		case mt.By == "" && len(mt.Ambiguous) > 0:
			amb = append(amb, fmt.Sprintf("%s (%s)", mt.Symbol, strings.Join(mt.Ambiguous, " or ")))
		}
	}
	if len(via) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s matched by current symbol through the alias table (%s): %s", text.Count(len(via), "gene"), genes.Human().Source, listSome(via, 8)))
	}
	if len(amb) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s not matched: an alias of several current genes, not guessed: %s", text.Count(len(amb), "symbol"), listSome(amb, 8)))
	}
}

// byAlias matches a gene by its current symbol (genes.Human): the cohort's symbols
// turned into current ones too, once (byCur), so SEPT7 finds SEPTIN7 and the reverse.
// An alias naming several current genes is not guessed: mt keeps the candidates.
func byAlias(mt *Match, sym string, ids, symbols []string, byCur *map[string][]int) {
	h := genes.Human()
	cur, amb, ok := h.Current(sym)
	if !ok {
		mt.Ambiguous = amb
		return
	}
	if *byCur == nil {
		*byCur = map[string][]int{}
		for j, s := range symbols {
			for _, t := range symbolTokens(s) {
				if c, _, ok := h.Current(t); ok {
					(*byCur)[c] = append((*byCur)[c], j)
				}
			}
		}
	}
	if js := (*byCur)[cur]; len(js) > 0 {
		mt.By, mt.Current = "alias", cur
		for _, j := range js {
			mt.Probes = append(mt.Probes, ids[j])
		}
		sort.Strings(mt.Probes)
	}
}

// symbolTokens are a symbol cell's symbols ("DDR1 /// MIR4640"), upper-cased.
func symbolTokens(s string) []string {
	var out []string
	for _, t := range strings.Split(s, "///") {
		if t = strings.ToUpper(strings.TrimSpace(t)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// values returns the cohort's values of the model genes (n x genes; NaN for a gene not
// found), probes of one gene averaged over those with a value, standardised within the
// cohort when asked.
func (v *Validation) values(c *Cohort) *mat.Dense {
	n, _ := c.X.Dims()
	col := make(map[string]int, len(c.Features))
	for j, f := range c.Features {
		col[f] = j
	}
	x := mat.NewDense(n, len(v.Matches), nil)
	averaged := 0
	for g, mt := range v.Matches {
		if len(mt.Probes) > 1 {
			averaged++
		}
		for i := 0; i < n; i++ {
			sum, k := 0.0, 0
			for _, p := range mt.Probes {
				if val := c.X.At(i, col[p]); !math.IsNaN(val) && !math.IsInf(val, 0) {
					sum, k = sum+val, k+1
				}
			}
			val := math.NaN()
			if k > 0 {
				val = sum / float64(k)
			}
			x.Set(i, g, val)
		}
	}
	if averaged > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d signature genes matched by symbol to several probes of the cohort: each sample's value is the mean of those probes (after the model's preprocessing)", averaged))
	}
	return x
}

// present are column j's values that are not missing.
func present(x *mat.Dense, j int) []float64 {
	n, _ := x.Dims()
	var vals []float64
	for i := 0; i < n; i++ {
		if val := x.At(i, j); !math.IsNaN(val) {
			vals = append(vals, val)
		}
	}
	return vals
}

// standardize puts each gene found on the training scale: x' = mean_t + sd_t (x -
// mean_c)/sd_c over the cohort's values (NaN left out).
func (v *Validation) standardize(x *mat.Dense) {
	n, g := x.Dims()
	for j := 0; j < g; j++ {
		if v.Matches[j].By == "" {
			continue
		}
		mean, variance := meanVar(present(x, j))
		sd := math.Sqrt(variance)
		for i := 0; i < n; i++ {
			val := x.At(i, j)
			if math.IsNaN(val) {
				continue
			}
			z := 0.0
			if sd > 1e-12*math.Max(1, math.Abs(mean)) {
				z = (val - mean) / sd
			}
			x.Set(i, j, v.Model.Mean[j]+v.Model.SD[j]*z)
		}
	}
	v.Notes = append(v.Notes, "each gene standardised within the cohort and put on the training scale (mean_t + sd_t z): for another platform or batch; the cohort's own level of each gene is not used")
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

// predict scores the samples (named samples) with a value in every gene found; the
// others are skipped and named with the genes they lack.
func (v *Validation) predict(x *mat.Dense, samples []string) {
	n, g := x.Dims()
	var keep, present []int
	for j := 0; j < g; j++ {
		if v.Matches[j].By != "" {
			present = append(present, j)
		}
	}
	var given []string
	var truth []int
	for i := 0; i < n; i++ {
		var lack []string
		for _, j := range present {
			if math.IsNaN(x.At(i, j)) {
				lack = append(lack, geneName(v.Matches[j]))
			}
		}
		if len(lack) > 0 {
			v.Skipped = append(v.Skipped, fmt.Sprintf("%s (no value of %s)", samples[i], listSome(lack, 4)))
			continue
		}
		keep = append(keep, i)
	}
	rows := mat.NewDense(max(len(keep), 1), g, nil)
	for r, i := range keep {
		for j := 0; j < g; j++ {
			val := x.At(i, j)
			if v.Matches[j].By == "" {
				val = v.Model.Mean[j] // a linear model's term at the training mean; k-NN drops it
			}
			rows.Set(r, j, val)
		}
		v.Samples = append(v.Samples, samples[i])
		given, truth = append(given, v.Given[i]), append(truth, v.Truth[i])
	}
	v.Given, v.Truth = given, truth
	if len(keep) == 0 {
		return
	}
	for _, j := range present {
		v.Values = append(v.Values, mat.Col(nil, j, rows)[:len(keep)])
		v.GeneLabels = append(v.GeneLabels, geneName(v.Matches[j]))
	}
	if len(present) < g && v.Model.Classifier == "ktsp" {
		k := v.Model.intactPairs(present)
		v.Pred, v.Scores = k.PredictScores(rows)
	} else if len(present) < g && v.Model.W == nil {
		v.Scores, v.Pred = v.Model.scoresOn(rows, present)
	} else {
		v.Scores, v.Pred, _ = v.Model.Scores(rows)
	}
	if pl := v.Model.Platt; pl != nil && len(v.Model.Classes) == 2 {
		for _, sc := range v.Scores {
			p := pl.Prob(sc[v.Model.Positive])
			if v.positive != v.Model.Positive {
				p = 1 - p
			}
			v.Probs = append(v.Probs, p)
		}
	}
	if len(v.Skipped) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%s not predicted, having a missing value in a signature gene: %s", text.Count(len(v.Skipped), "sample"), listSome(v.Skipped, 5)))
	}
}

// intactPairs is the model's k-TSP with the pairs whose genes are both among present.
func (m *Model) intactPairs(present []int) *classify.KTSP {
	k := &classify.KTSP{}
	for p, pr := range m.Pairs {
		if slices.Contains(present, pr[0]) && slices.Contains(present, pr[1]) {
			k.Pairs, k.Less = append(k.Pairs, pr), append(k.Less, m.PairLess[p])
		}
	}
	return k
}

// scoresOn is Scores for k-NN on the genes cols only (the others missing).
func (m *Model) scoresOn(x *mat.Dense, cols []int) ([][]float64, []int) {
	z := m.scale(x, strings.HasPrefix(m.Classifier, "weka"))
	n, _ := z.Dims()
	train := mat.NewDense(len(m.TrainX), len(cols), nil)
	for i, r := range m.TrainX {
		for jj, j := range cols {
			train.Set(i, jj, r[j])
		}
	}
	test := mat.NewDense(n, len(cols), nil)
	for i := 0; i < n; i++ {
		for jj, j := range cols {
			test.Set(i, jj, z.At(i, j))
		}
	}
	k := classify.KNN{K: m.Neighbours}
	k.Fit(train, m.TrainY, len(m.Classes))
	pred, scores := k.PredictScores(test)
	return scores, pred
}

// Measures says the cohort's metrics in words, each number named with its interval:
// accuracy, balanced accuracy, then with two classes sensitivity and specificity with
// Wilson's intervals, the probabilities' Brier score and calibration, and the AUC with
// DeLong's; with more the mean one-vs-rest AUC. "" without metrics.
func (v *Validation) Measures() string {
	mt := v.Metrics
	if mt == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "accuracy %.3f, balanced accuracy %.3f", mt.Accuracy, mt.Balanced)

	if p := v.Positive(); p >= 0 && !math.IsNaN(mt.Sensitivity) && !math.IsNaN(mt.Specificity) {
		fmt.Fprintf(&b, ", sensitivity %.3f (95%% CI %.3f-%.3f), specificity %.3f (%.3f-%.3f) (%s positive)",
			mt.Sensitivity, mt.SensCI[0], mt.SensCI[1], mt.Specificity, mt.SpecCI[0], mt.SpecCI[1], v.Model.Classes[p])
	}
	if cal := mt.Calibration; cal != nil {
		fmt.Fprintf(&b, ", probabilities' Brier score %.3f, %s", cal.Brier, cal.Says())
	}
	switch {
	case mt.NoAUCNote != "":
		b.WriteString("; " + mt.NoAUCNote)
	case v.Positive() >= 0:
		fmt.Fprintf(&b, ", AUC %.3f (DeLong 95%% CI %.3f-%.3f)", mt.AUC.AUC, mt.AUC.Low, mt.AUC.High)
		if cv := v.Model.CV; cv != nil {
			fmt.Fprintf(&b, " against a cross-validated %.3f when the signature was built", cv.MeanAUC)
		}
	default:
		fmt.Fprintf(&b, ", mean one-vs-rest AUC %.3f", mt.MeanAUC)
	}
	if v.Shift != nil {
		b.WriteString(". " + strings.TrimSuffix(v.Shift.Says(v), "."))
	}
	return b.String()
}

// wilsonOf is the 95% Wilson interval of the share of a class's samples (its confusion
// row) predicted c; NaN without samples.
func wilsonOf(row []int, c int) [2]float64 {
	n := 0
	for _, k := range row {
		n += k
	}
	if n == 0 {
		return [2]float64{math.NaN(), math.NaN()}
	}
	lo, hi := rstat.Wilson(float64(row[c])/float64(n), float64(n), rstat.Z95)
	return [2]float64{lo, hi}
}

// measure computes the Metrics of the samples whose class the model knows (nil if none).
func (v *Validation) measure() *Metrics {
	nc := len(v.Model.Classes)
	var scores [][]float64
	var truth, pred []int
	for i, t := range v.Truth {
		if t >= 0 {
			scores, truth, pred = append(scores, v.Scores[i]), append(truth, t), append(pred, v.Pred[i])
		}
	}
	if len(truth) == 0 {
		return nil
	}
	mt := &Metrics{N: len(truth), Confusion: make([][]int, nc)}
	for c := range mt.Confusion {
		mt.Confusion[c] = make([]int, nc)
	}
	correct := 0
	for i, t := range truth {
		mt.Confusion[t][pred[i]]++
		if t == pred[i] {
			correct++
		}
	}
	mt.Accuracy = float64(correct) / float64(len(truth))
	var present []string
	recalls := 0.0
	for c := 0; c < nc; c++ {
		if r := recall(mt.Confusion, c); !math.IsNaN(r) {
			recalls += r
			present = append(present, v.Model.Classes[c])
		}
	}
	mt.Balanced = recalls / float64(len(present))
	mt.ClassesPresent = strings.Join(present, ", ")
	nan := math.NaN()
	mt.Sensitivity, mt.Specificity, mt.AUC, mt.MeanAUC = nan, nan, AUC{nan, nan, nan, nan}, nan
	if len(present) < 2 {
		mt.NoAUCNote = fmt.Sprintf("the cohort's known samples are all of one class (%s): accuracy is defined, an AUC is not", mt.ClassesPresent)
	}
	if nc == 2 {
		p := v.positive
		mt.Sensitivity, mt.Specificity = recall(mt.Confusion, p), recall(mt.Confusion, 1-p)
		mt.SensCI, mt.SpecCI = wilsonOf(mt.Confusion[p], p), wilsonOf(mt.Confusion[1-p], 1-p)
		if len(present) == 2 && v.Probs != nil {
			var probs []float64
			var pos []bool
			for i, t := range v.Truth {
				if t >= 0 {
					probs, pos = append(probs, v.Probs[i]), append(pos, t == p)
				}
			}
			c := Calibrate(probs, pos)
			mt.Calibration = &c
		}
		if len(present) == 2 {
			s, pos := classScores(scores, truth, p)
			mt.AUC, mt.Curve, mt.MeanAUC = DeLong(s, pos), ROC(s, pos), DeLong(s, pos).AUC
		}
		return mt
	}
	mt.PerClass, mt.Curves = make([]AUC, nc), make([][]ROCPoint, nc)
	sum, k := 0.0, 0
	for c := 0; c < nc; c++ {
		s, pos := classScores(scores, truth, c)
		mt.PerClass[c], mt.Curves[c] = DeLong(s, pos), ROC(s, pos)
		if a := mt.PerClass[c].AUC; !math.IsNaN(a) {
			sum, k = sum+a, k+1
		}
	}
	if k > 0 && len(present) >= 2 {
		mt.MeanAUC = sum / float64(k)
	}
	return mt
}

// geneName is "id (symbol)" or the id.
func geneName(m Match) string {
	if m.Symbol != "" && m.Symbol != m.ID {
		return m.ID + " (" + m.Symbol + ")"
	}
	return m.ID
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
