// Package method is the catalogue of every feature-selection method: its name, label,
// help text, parameters with their ranges, and how to build its ranker.
package method

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/group"
	"steadfast/compute/score"
)

// Param describes one numeric parameter of a method, for forms and validation.
type Param struct {
	Key      string  `json:"key"`
	Label    string  `json:"label"`
	Help     string  `json:"help"`
	Default  float64 `json:"default"`
	Min, Max float64
	Integer  bool
}

// Info describes a method.
type Info struct {
	Name   string // as in configs and on the command line
	Label  string // as shown to users
	Help   string
	Params []Param
	Group  bool // ranks groups of features (their representatives)
	// Surrogate is set when the scores only encode the order (elimination rounds, rank
	// sums, group ranks): Kalousis's S_W, a correlation of weights, does not apply.
	Surrogate bool
	// Survival is set for the methods that rank against a survival outcome (a time and
	// an event); the others rank against classes.
	Survival bool
	New      func(p map[string]float64) score.Ranker
}

// Spec selects a method and its parameters; missing parameters take their defaults.
type Spec struct {
	Name   string             `json:"name"`
	Params map[string]float64 `json:"params,omitempty"`
}

var svmParams = []Param{
	{Key: "C", Label: "C", Help: "SVM cost: larger fits the training data harder", Default: 1, Min: 1e-6, Max: 1e6},
	{Key: "tol", Label: "Tolerance", Help: "stop when the dual's projected-gradient gap is below this; 1e-6 by default (scikit-learn's and LIBLINEAR's 1e-4 leaves SVM-RFE's top 50 on Chowdary and SRBCT depending on solver precision: 30 and 33 of 50 agree with 1e-8, against 50 of 50 at 1e-6, for 12% more time)", Default: 1e-6, Min: 1e-10, Max: 1},
	{Key: "maxIter", Label: "Max passes", Help: "iteration cap of the SVM solver (passes over the samples)", Default: 1000, Min: 1, Max: 1e6, Integer: true},
	{Key: "hinge", Label: "Hinge loss", Help: "the standard hinge loss (as Guyon's and WEKA's SVM) instead of its square (LIBLINEAR's and scikit-learn's default)", Default: 0, Min: 0, Max: 1, Integer: true},
}

// Catalog lists every method, in the order shown to users.
var Catalog = []Info{
	{Name: "fstat", Label: "F-statistic", Help: "one-way ANOVA F of each feature against the classes",
		New: func(map[string]float64) score.Ranker { return score.FStat{} }},
	{Name: "infogain", Label: "Information gain", Help: "class information gain after Fayyad-Irani MDL discretisation (a feature cut into one bin scores 0); ties broken at random",
		New: func(map[string]float64) score.Ranker { return score.InfoGain{} }},
	{Name: "relieff", Label: "ReliefF", Help: "Robnik-Sikonja & Kononenko: K nearest hits and misses of every sample, misses weighted by class prior",
		Params: []Param{{Key: "K", Label: "Neighbours K", Help: "nearest hits and misses per class", Default: 10, Min: 1, Max: 1000, Integer: true}},
		New:    func(p map[string]float64) score.Ranker { return score.ReliefF{K: int(p["K"])} }},
	{Name: "svmone", Label: "SVM-ONE", Help: "squared weights w_j^2 of one linear SVM (one-vs-rest, summed)",
		Params: svmParams, New: func(p map[string]float64) score.Ranker { return score.SVMOne{SVM: svmOf(p)} }},
	{Name: "svmrfe", Label: "SVM-RFE", Surrogate: true, Help: "Guyon 2002: retrain the linear SVM and drop the features with the smallest w_j^2, repeatedly",
		Params: append(append([]Param(nil), rfeParams...), svmParams...),
		New:    func(p map[string]float64) score.Ranker { return rfeOf(p) }},
	{Name: "ensemblerfe", Label: "Ensemble SVM-RFE", Surrogate: true, Help: "Saeys 2008: SVM-RFE on B bootstrap samples, ranks summed",
		Params: append(append([]Param{{Key: "B", Label: "Bootstraps B", Help: "SVM-RFE runs on bootstrap samples", Default: 40, Min: 1, Max: 1000, Integer: true}}, rfeParams...), svmParams...),
		New:    func(p map[string]float64) score.Ranker { return score.EnsembleRFE{RFE: rfeOf(p), B: int(p["B"])} }},
	{Name: "bootstrap", Label: "Bootstrap wrapper", Help: "Diaz-Diaz et al.: weight = mean 5-fold CV accuracy of 3-NN over the random feature subsets holding the feature",
		Params: []Param{
			{Key: "ne", Label: "Subsets (x p)", Help: "number of random subsets as a multiple of the number of features (1, 2 or 3 in the paper)", Default: 1, Min: 0.01, Max: 10},
			{Key: "na", Label: "Largest size (% of p)", Help: "subset sizes are drawn from 1 to this share of the features", Default: 0.4, Min: 0.001, Max: 100},
			{Key: "exhaustive", Label: "Exhaustive K = 1", Help: "score every single feature by its own 3-NN accuracy instead (the paper's K = 1 baseline)", Default: 0, Min: 0, Max: 1, Integer: true},
		},
		New: func(p map[string]float64) score.Ranker { return bootstrapOf(p) }},
	{Name: "stabsel", Label: "Stability selection", Help: "Meinshausen & Buhlmann 2010: L1-logistic paths on B half-samples; score = largest selection probability over lambda (0.6 or more: the stable set)",
		Params: []Param{
			{Key: "B", Label: "Half-samples B", Help: "subsamples of half the training samples", Default: 100, Min: 2, Max: 10000, Integer: true},
			{Key: "lambdas", Label: "Lambda values", Help: "points on the path from lambda_max down", Default: 30, Min: 2, Max: 1000, Integer: true},
			{Key: "ratio", Label: "Smallest lambda", Help: "the path ends at this share of lambda_max", Default: 0.05, Min: 1e-4, Max: 0.99},
		},
		New: func(p map[string]float64) score.Ranker {
			return score.StabilitySelection{B: int(p["B"]), Lambdas: int(p["lambdas"]), Ratio: p["ratio"]}
		}},
	{Name: "enetpath", Label: "Elastic-net path", Surrogate: true,
		Help: "Friedman et al. 2010: the order in which genes enter glmnet's penalised logistic path (standardised genes, lambda from lambda_max down), ties by the coefficient's size where they enter; genes that never enter follow by how near they came",
		Params: []Param{
			{Key: "alpha", Label: "Mixing alpha", Help: "1 the lasso; below 1 the elastic net, which lets correlated genes enter together (must be above 0: a ridge path enters every gene at once)", Default: 1, Min: 0.01, Max: 1},
			{Key: "lambdas", Label: "Lambda values", Help: "points on the path (glmnet's nlambda)", Default: 100, Min: 2, Max: 1000, Integer: true},
		},
		New: func(p map[string]float64) score.Ranker {
			return score.ENetPath{Alpha: p["alpha"], NLambda: int(p["lambdas"])}
		}},
	{Name: "rfperm", Label: "Random forest (permutation)", Help: "Breiman 2001: a random forest's permutation importance, the mean decrease of the trees' out-of-bag accuracy when the gene's values are permuted (ranger's \"permutation\", unscaled)",
		Params: forestParams, New: func(p map[string]float64) score.Ranker { return forestOf(p, false) }},
	{Name: "rfimpurity", Label: "Random forest (impurity, biased)", Help: "Breiman 2001: a random forest's impurity importance, the mean Gini decrease of the splits on the gene (ranger's \"impurity\"); biased toward genes of many distinct values (Strobl et al. 2007): prefer the permutation importance",
		Params: forestParams, New: func(p map[string]float64) score.Ranker { return forestOf(p, true) }},
}

// forestParams are the random-forest rankers' parameters (ranger's defaults).
var forestParams = []Param{
	{Key: "trees", Label: "Trees", Help: "number of trees (ranger's num.trees)", Default: 500, Min: 1, Max: 10000, Integer: true},
	{Key: "mtry", Label: "Genes tried per split (0: sqrt)", Help: "genes drawn at random at each split; 0 takes floor(sqrt(p))", Default: 0, Min: 0, Max: 1e6, Integer: true},
	{Key: "minNode", Label: "Smallest node split", Help: "a node of at most this many samples is a leaf (ranger's min.node.size)", Default: 1, Min: 1, Max: 1000, Integer: true},
}

func forestOf(p map[string]float64, impurity bool) score.Ranker {
	return score.ForestImportance{Trees: int(p["trees"]), Mtry: int(p["mtry"]), MinNode: int(p["minNode"]), Impurity: impurity}
}

var dgfParams = []Param{
	{Key: "K", Label: "K (bandwidth)", Help: "h = mean distance of every feature to its K nearest features; see the K chooser", Default: 5, Min: 2, Max: 25, Integer: true},
	{Key: "paper", Label: "Paper bandwidth (own neighbour)", Help: "as Yu et al. 2008 computed h (\"when K=1, the bandwidth will be zero\"): a feature is its own first neighbour, so h and the elimination average over itself and its K-1 nearest others; off: its K nearest other features", Default: 0, Min: 0, Max: 1, Integer: true},
	{Key: "gaussian", Label: "Gaussian kernel", Help: "Gaussian weights (sigma = h/2) on the features within h, instead of the paper's equal (flat kernel) weights", Default: 0, Min: 0, Max: 1, Integer: true},
	{Key: "eliminate", Label: "Drop sparse groups", Help: "drop groups whose peak's mean distance to its K nearest features exceeds h", Default: 0, Min: 0, Max: 1, Integer: true},
}

// withDefault returns a copy of ps with the default of key changed.
func withDefault(ps []Param, key string, v float64) []Param {
	out := append([]Param(nil), ps...)
	for i := range out {
		if out[i].Key == key {
			out[i].Default = v
		}
	}
	return out
}

func dgfOf(p map[string]float64) group.DGFParams {
	return group.DGFParams{K: int(p["K"]), Gaussian: p["gaussian"] == 1, Eliminate: p["eliminate"] == 1, SelfNeighbour: p["paper"] == 1}
}

// allSamplesParam finds DRAGS's groups once on all samples (their expression values,
// not their classes); each training set then computes only the groups' relevance.
var allSamplesParam = Param{Key: "allSamples", Label: "Groups from all samples (leaks)",
	Help:    "find the dense groups once on all samples' expression values (not their classes) and compute only the relevance in each training set: the one reading that reaches the DRAGS paper's stability (Figs. 2-3); the test samples shape the groups, so stability comes out higher than a selection that saw only its training samples",
	Default: 0, Min: 0, Max: 1, Integer: true}

func init() {
	Catalog = append(Catalog,
		Info{Name: "drags", Label: "DRAGS", Group: true, Surrogate: true,
			Help: "Yu et al. 2008: dense feature groups by mean shift (DGF), ranked by the mean F of their members; one representative per group",
			// the DRAGS paper's runs drop low-density groups: elimination on by default
			Params: append([]Param{
				{Key: "densest", Label: "Densest groups", Help: "rank only the N densest groups (0: all; the CGS paper used 50)", Default: 0, Min: 0, Max: 1e6, Integer: true},
			}, append(withDefault(dgfParams, "eliminate", 1), allSamplesParam)...),
			New: func(p map[string]float64) score.Ranker {
				return group.DRAGS{DGF: dgfOf(p), Densest: int(p["densest"])}
			}},
		Info{Name: "cgs", Label: "CGS", Group: true, Surrogate: true,
			Help: "Loscalzo et al. 2009: consensus of DGF groups over t bootstraps (average linkage, W > 0.5), ranked by the representative's F",
			Params: append([]Param{
				{Key: "t", Label: "Bootstraps t", Help: "DGF runs on bootstrap samples of the training set", Default: 10, Min: 1, Max: 1000, Integer: true},
			}, dgfParams...),
			New: func(p map[string]float64) score.Ranker {
				return group.CGS{DGF: dgfOf(p), Bootstraps: int(p["t"])}
			}},
		Info{Name: "kmeans", Label: "K-means groups", Group: true, Surrogate: true,
			Help: "features clustered by k-means (least within-cluster SS of the restarts), clusters ranked by the F of the feature nearest each centre",
			Params: []Param{
				// the DRAGS paper selects the top k clusters with k < K: K = 100 stays above the largest k of every grid (50)
				{Key: "clusters", Label: "Clusters", Help: "number of feature clusters K (at most the features); the top k of them are selected, so keep K above the largest k (the DRAGS paper: k < K)", Default: 100, Min: 1, Max: 1e5, Integer: true},
				{Key: "restarts", Label: "Restarts", Help: "random k-means++ starts; the best is kept", Default: 50, Min: 1, Max: 1000, Integer: true},
				{Key: "closest", Label: "Closest members", Help: "keep only this many features nearest each centre as its group (0: all; the DRAGS paper's Fig. 2 also matched clusters by their 5 closest)", Default: 0, Min: 0, Max: 1000, Integer: true},
			},
			New: func(p map[string]float64) score.Ranker {
				return group.KMeans{Clusters: int(p["clusters"]), Restarts: int(p["restarts"]), Closest: int(p["closest"])}
			}},
		Info{Name: "dgf", Label: "DGF (densest groups)", Group: true, Surrogate: true,
			Help:   "Yu et al. 2008: DGF's dense feature groups ranked by density, densest first, without class labels (DRAGS Fig. 2: the stability of the groups themselves)",
			Params: withDefault(dgfParams, "eliminate", 1),
			New: func(p map[string]float64) score.Ranker {
				return group.DensestGroups{DGF: dgfOf(p)}
			}},
	)
	// the MIDS variants shown in the forms; any other method takes +mids on the command line
	for _, name := range []string{"svmrfe", "ensemblerfe", "stabsel"} {
		base, _ := Lookup(name)
		Catalog = append(Catalog, withMIDS(base))
	}
}

var rfeParams = []Param{
	{Key: "step", Label: "Drop per round", Help: "share of the remaining features dropped each round", Default: 0.1, Min: 0.001, Max: 0.9},
	{Key: "halve", Label: "Halve to 50", Help: "halve until 50 remain, then one at a time (DRAGS paper), instead of the share above", Default: 0, Min: 0, Max: 1, Integer: true},
}

func rfeOf(p map[string]float64) score.SVMRFE {
	return score.SVMRFE{SVM: svmOf(p), Step: p["step"], Halve: p["halve"] == 1}
}

// midsParam is the correlation threshold of the MIDS prefilter.
var midsParam = Param{Key: "epsilon", Label: "MIDS epsilon", Help: "features with |r| above this are joined in the MIDS graph (0.5-0.8)", Default: 0.6, Min: 0.05, Max: 0.99}

// paperParam switches a MIDS variant to the MIDS paper's setting.
var paperParam = Param{Key: "paper", Label: "Paper setting (leaks)",
	Help:    "compute the MIDS once on all samples, as Shu et al. 2013 did, instead of in each training set: the test folds leak into the filter and stability and accuracy come out too high; only to reproduce the paper",
	Default: 0, Min: 0, Max: 1, Integer: true}

// PaperMIDS says whether spec is a MIDS variant in the paper setting: its MIDS fitted
// once on all samples (see paperParam).
func PaperMIDS(spec Spec) bool {
	return strings.HasSuffix(spec.Name, midsSuffix) && spec.Params["paper"] == 1
}

// GroupsFromAll says whether spec is DRAGS with its groups found once on all samples
// (see allSamplesParam).
func GroupsFromAll(spec Spec) bool {
	return spec.Name == "drags" && spec.Params["allSamples"] == 1
}

// PaperBandwidth says whether spec is a DGF-based method (DRAGS, CGS, DGF) with the
// DRAGS paper's bandwidth: a feature its own first neighbour.
func PaperBandwidth(spec Spec) bool {
	return (spec.Name == "drags" || spec.Name == "cgs" || spec.Name == "dgf") && spec.Params["paper"] == 1
}

// FitsAllSamples says whether part of spec is fitted once on all samples, test folds
// included (PaperMIDS or GroupsFromAll): its results are not those of a selection that
// saw only its training samples, and every figure says so.
func FitsAllSamples(spec Spec) bool { return PaperMIDS(spec) || GroupsFromAll(spec) }

// FitAllSamples fits the part of spec fitted once on all samples (x, all samples,
// z-scored as the study z-scores): the MIDS of a MIDS variant in the paper setting,
// DRAGS's DGF groups. WithFitted gives it to each ranking.
func FitAllSamples(ctx context.Context, spec Spec, x *mat.Dense) (any, error) {
	in, ok := Lookup(spec.Name)
	if !ok {
		return nil, fmt.Errorf("unknown method %q", spec.Name)
	}
	p, err := Resolve(in, spec.Params)
	if err != nil {
		return nil, err
	}
	if GroupsFromAll(spec) {
		res, err := group.DGF(ctx, x, dgfOf(p))
		if err != nil {
			return nil, err
		}
		members := make([][]int, len(res.Groups))
		for i, g := range res.Groups {
			members[i] = g.Members
		}
		return members, nil
	}
	return MIDSSet(ctx, x, p["epsilon"])
}

// WithFitted returns r ranking with what FitAllSamples fitted: a MIDS variant within the
// MIDS (a []int), DRAGS with the groups (a [][]int); r is returned unchanged otherwise.
func WithFitted(r score.Ranker, fitted any) score.Ranker {
	switch v := fitted.(type) {
	case []int:
		return WithMIDSSet(r, v)
	case [][]int:
		if d, ok := r.(group.DRAGS); ok {
			d.Fixed = v
			return d
		}
	}
	return r
}

// MIDSSet is the MIDS of the graph joining x's features with |r| > epsilon (empty but
// not nil when x has no feature).
func MIDSSet(ctx context.Context, x *mat.Dense, epsilon float64) ([]int, error) {
	g, err := group.CorrelationGraph(ctx, x, epsilon)
	if err != nil {
		return nil, err
	}
	set := g.MIDS()
	if set == nil {
		set = []int{} // empty but fixed
	}
	return set, nil
}

// MIDSEpsilon returns the epsilon of a MIDS variant fitted in each training set (not in
// the paper setting) and true, or false for any other method.
func MIDSEpsilon(spec Spec) (float64, bool) {
	if !strings.HasSuffix(spec.Name, midsSuffix) || PaperMIDS(spec) {
		return 0, false
	}
	in, ok := Lookup(spec.Name)
	if !ok {
		return 0, false
	}
	p, err := Resolve(in, spec.Params)
	if err != nil {
		return 0, false
	}
	return p["epsilon"], true
}

// WithMIDSSet returns r, a MIDS variant's ranker, ranking within set instead of the
// training data's MIDS; other rankers are returned unchanged.
func WithMIDSSet(r score.Ranker, set []int) score.Ranker {
	if f, ok := r.(group.MIDSFilter); ok {
		f.Fixed = set
		return f
	}
	return r
}

// Settings lists spec's parameters that differ from their defaults, by key:
// "densest 50, K 7"; "" when every parameter has its default.
func Settings(spec Spec) string {
	in, ok := Lookup(spec.Name)
	if !ok {
		return ""
	}
	var parts []string
	for _, d := range in.Params {
		if v, ok := spec.Params[d.Key]; ok && v != d.Default {
			parts = append(parts, fmt.Sprintf("%s %g", d.Key, v))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// Value is spec's parameter key, or its default; ok is false when the method has no
// such parameter.
func Value(spec Spec, key string) (v float64, ok bool) {
	in, found := Lookup(spec.Name)
	if !found {
		return 0, false
	}
	for _, d := range in.Params {
		if d.Key == key {
			if v, set := spec.Params[key]; set {
				return v, true
			}
			return d.Default, true
		}
	}
	return 0, false
}

// SVMSettings describes, for a method that fits linear SVMs, the SVM and (for SVM-RFE
// and its variants) the elimination, as a methods section gives them: "a linear SVM
// (C = 1, squared hinge loss, tolerance 1e-06, at most 1000 passes over the samples),
// dropping 10% of the remaining features each round"; "" for other methods.
func SVMSettings(spec Spec) string {
	c, ok := Value(spec, "C")
	if !ok {
		return ""
	}
	tol, _ := Value(spec, "tol")
	iter, _ := Value(spec, "maxIter")
	loss := "squared hinge loss"
	if h, _ := Value(spec, "hinge"); h == 1 {
		loss = "hinge loss"
	}
	out := fmt.Sprintf("a linear SVM (C = %g, %s, tolerance %g, at most %g passes over the samples)", c, loss, tol, iter)
	if halve, ok := Value(spec, "halve"); ok && halve == 1 {
		out += ", halving the features until 50 remain, then dropping one at a time"
	} else if step, ok := Value(spec, "step"); ok {
		out += fmt.Sprintf(", dropping %g%% of the remaining features each round", 100*step)
	}
	return out
}

// PaperLabel is the label of a method in the MIDS paper setting, which says so.
const PaperLabel = " (paper setting: MIDS on all samples, leaks test folds)"

// SettingLabel is what a method's label adds for its paper settings: the MIDS paper
// setting, DRAGS or CGS with the point its own first neighbour, DRAGS's groups from all
// samples; "" for none.
func SettingLabel(spec Spec) string {
	if PaperMIDS(spec) {
		return PaperLabel
	}
	var parts []string
	if PaperBandwidth(spec) {
		parts = append(parts, "paper bandwidth: own first neighbour")
	}
	if GroupsFromAll(spec) {
		parts = append(parts, "groups from all samples: test expression used")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// midsSuffix turns any method into its MIDS-prefiltered variant: "svmrfe+mids".
const midsSuffix = "+mids"

// withMIDS is the catalogue entry of base run on the MIDS features only.
func withMIDS(base Info) Info {
	return Info{Name: base.Name + midsSuffix, Label: base.Label + " + MIDS", Surrogate: true, // features outside the MIDS get made-up scores
		Help:   base.Help + "; run on the minimal independent dominating set of the correlation graph only (Shu et al. 2013)",
		Params: append(append([]Param(nil), base.Params...), midsParam, paperParam),
		New: func(p map[string]float64) score.Ranker {
			return group.MIDSFilter{Inner: base.New(p), Epsilon: p["epsilon"]}
		}}
}

// bootstrapOf sizes the wrapper when it runs, from the number of features then.
func bootstrapOf(p map[string]float64) score.Ranker {
	return sizedWrapper{ne: p["ne"], na: p["na"], exhaustive: p["exhaustive"] == 1}
}

type sizedWrapper struct {
	ne, na     float64
	exhaustive bool
}

func (s sizedWrapper) Rank(ctx context.Context, x *mat.Dense, y []int, classes int, r *rand.Rand) (score.Ranking, error) {
	_, p := x.Dims()
	w := score.BootstrapWrapper{Ne: max(1, int(math.Round(s.ne*float64(p)))), Na: max(1, int(math.Round(s.na/100*float64(p)))), Exhaustive1: s.exhaustive}
	return w.Rank(ctx, x, y, classes, r)
}

func svmOf(p map[string]float64) classify.SVMParams {
	loss := classify.SquaredHinge
	if p["hinge"] == 1 {
		loss = classify.Hinge
	}
	return classify.SVMParams{C: p["C"], Tol: p["tol"], MaxIter: int(p["maxIter"]), Loss: loss}
}

// Lookup returns the catalogue entry of a method name.
func Lookup(name string) (Info, bool) {
	for _, in := range Catalog {
		if in.Name == name {
			return in, true
		}
	}
	if base, ok := strings.CutSuffix(name, midsSuffix); ok {
		if in, ok := Lookup(base); ok && !in.Group && !in.Survival && !strings.HasSuffix(base, midsSuffix) {
			return withMIDS(in), true
		}
	}
	return Info{}, false
}

// Weighted reports whether a method's scores are weights (Kalousis's S_W applies).
func Weighted(name string) bool {
	in, ok := Lookup(name)
	return ok && !in.Surrogate
}

// Names lists the method names, for messages.
func Names() string {
	var s []string
	for _, in := range Catalog {
		if !strings.HasSuffix(in.Name, midsSuffix) {
			s = append(s, in.Name)
		}
	}
	return strings.Join(s, ", ") + " (any single-feature method + mids, e.g. svmrfe+mids)"
}

// New builds the ranker of spec after filling defaults and checking the ranges.
func New(spec Spec) (score.Ranker, error) {
	in, ok := Lookup(spec.Name)
	if !ok {
		return nil, fmt.Errorf("unknown method %q; known: %s", spec.Name, Names())
	}
	p, err := Resolve(in, spec.Params)
	if err != nil {
		return nil, err
	}
	return in.New(p), nil
}

// Resolve fills the defaults of in's parameters and checks each against its range.
func Resolve(in Info, given map[string]float64) (map[string]float64, error) {
	p := map[string]float64{}
	for _, d := range in.Params {
		v, ok := given[d.Key]
		if !ok {
			v = d.Default
		}
		if !(v >= d.Min && v <= d.Max) { // NaN fails too
			return nil, fmt.Errorf("%s: %s = %g is outside %g..%g", in.Label, d.Label, v, d.Min, d.Max)
		}
		if d.Integer && v != float64(int(v)) {
			return nil, fmt.Errorf("%s: %s must be a whole number, not %g", in.Label, d.Label, v)
		}
		p[d.Key] = v
	}
	for k := range given {
		found := false
		for _, d := range in.Params {
			found = found || d.Key == k
		}
		if !found {
			return nil, fmt.Errorf("%s has no parameter %q", in.Label, k)
		}
	}
	return p, nil
}
