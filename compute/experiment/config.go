// Package experiment runs a stability study: a protocol's resamples, every method's
// ranking on each, and the stability and accuracy curves over the k grid.
package experiment

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/method"
)

// Protocol names a resampling protocol: the DRAGS paper's 10 x 3-fold with reference
// stability, 10 x 10-fold CV with pairwise stability, or Kalousis's nested CV.
type Protocol string

const (
	DRAGS2008 Protocol = "drags2008" // 10 random stratified 3-fold partitions, reference stability
	CV10x10   Protocol = "cv10x10"   // 10 x stratified 10-fold CV, pairwise stability
	Kalousis  Protocol = "kalousis"  // outer 10-fold CV, inner 10-fold CV in each outer training set
)

// Mode says how stability is estimated.
type Mode string

const (
	Reference Mode = "reference" // each resample against the result on all samples
	Pairwise  Mode = "pairwise"  // all pairs of resamples within a repetition (or outer fold)
)

// ProtocolInfo describes a protocol for forms and titles.
type ProtocolInfo struct {
	Name                  Protocol
	Label, Help           string
	Repeats, Folds, Inner int
	Mode                  Mode
}

// Protocols lists the protocols with their defaults.
var Protocols = []ProtocolInfo{
	{CV10x10, "10 x 10-fold CV", "CGS 2009 / MIDS 2013: 10 repetitions of stratified 10-fold CV; stability over all pairs within a repetition", 10, 10, 0, Pairwise},
	{DRAGS2008, "DRAGS 2008 (3-fold x 10)", "10 random stratified 3-fold partitions (30 splits); each compared with the result on all samples", 10, 3, 0, Reference},
	{Kalousis, "Kalousis nested CV", "outer stratified 10-fold CV; stability over the 10 inner-CV results of each outer training set", 1, 10, 10, Pairwise},
}

// ProtocolText names the resampling cfg actually ran, with its repeats and folds (a
// protocol's defaults where cfg leaves them 0): "10 x 8-fold CV", "DRAGS 2008 (3-fold x
// 10)", "Kalousis nested CV (10 outer x 5 inner folds)"; "10 x 10-fold CV grouped by
// individual" when the samples are grouped (dataset.Options.GroupName).
func ProtocolText(cfg Config) string {
	t := protocolText(cfg)
	if g := cfg.Read.GroupName; g != "" {
		t += " grouped by " + g // each group's samples on one side of every split
	}
	return t
}

func protocolText(cfg Config) string {
	in, ok := LookupProtocol(cfg.Protocol)
	if !ok {
		return string(cfg.Protocol)
	}
	reps, folds, inner := cmp.Or(cfg.Repeats, in.Repeats), cmp.Or(cfg.Folds, in.Folds), cmp.Or(cfg.InnerFolds, in.Inner)
	switch cfg.Protocol {
	case CV10x10:
		return fmt.Sprintf("%d x %d-fold CV", reps, folds)
	case DRAGS2008:
		return fmt.Sprintf("DRAGS 2008 (%d-fold x %d)", folds, reps)
	case Kalousis:
		return fmt.Sprintf("Kalousis nested CV (%d outer x %d inner folds)", folds, inner)
	}
	return in.Label
}

// LookupProtocol returns a protocol's description.
func LookupProtocol(p Protocol) (ProtocolInfo, bool) {
	for _, in := range Protocols {
		if in.Name == p {
			return in, true
		}
	}
	return ProtocolInfo{}, false
}

// Classifier names for accuracy: Steadfast's own (on the z-scored training data, a
// squared-hinge linear SVM as scikit-learn's LinearSVC), Weka's defaults as the DRAGS
// paper used them (SMO and IBk: every feature scaled to [0,1] by its training range, a
// hinge-loss SVM with C = 1), k-TSP, penalised logistic regression as glmnet fits it
// ("logit") and a random forest as ranger grows it ("rf"); the last two take parameters
// (ClassifierParams).
var Classifiers = []string{"svm", "1nn", "3nn", "wekasvm", "weka1nn", "ktsp", "logit", "rf", "cox"}

// classifierLabels name the classifiers in figures.
var classifierLabels = map[string]string{"svm": "linear SVM", "1nn": "1-NN", "3nn": "3-NN",
	"wekasvm": "SVM, scaled 0-1", "weka1nn": "1-NN, scaled 0-1", "ktsp": "k-TSP", "logit": "logistic regression", "rf": "random forest", "cox": "Cox model"}

// ClassifierLabel is how a classifier is named in figures.
func ClassifierLabel(c string) string {
	if l, ok := classifierLabels[c]; ok {
		return l
	}
	return c
}

// Config is everything that decides a run; saved with its results, it reproduces them.
type Config struct {
	Version  int             `json:"version"`
	DataPath string          `json:"dataPath,omitempty"` // for headless runs
	Read     dataset.Options `json:"read"`
	// Outcome names a survival outcome's time and event columns (empty: a class, or
	// a time and an event found by their names when the file names no class).
	Outcome dataset.Outcome `json:"outcome,omitzero"`
	// Source records the GEO files the data were fetched from (DataPath an accession).
	Source *dataset.Source `json:"source,omitempty"`
	Prep   dataset.Prep    `json:"prep"`
	ZScore bool            `json:"zscore"` // z-score inside every training set
	// TopVariance, when set, keeps the TopVariance features of largest variance in each
	// training set for the ranking (the others follow, by variance, below them).
	TopVariance int           `json:"topVariance,omitempty"`
	Methods     []method.Spec `json:"methods"`
	Protocol    Protocol      `json:"protocol"`
	Repeats     int           `json:"repeats,omitempty"`    // 0: the protocol's
	Folds       int           `json:"folds,omitempty"`      // 0: the protocol's
	InnerFolds  int           `json:"innerFolds,omitempty"` // Kalousis only; 0: 10
	Mode        Mode          `json:"mode,omitempty"`       // "": the protocol's
	Ks          []int         `json:"ks,omitempty"`         // empty: the protocol's grid
	AccuracyMax int           `json:"accuracyMaxK,omitempty"`
	Classifiers []string      `json:"classifiers"`
	// KTSPPairs is k-TSP's number of pairs: 0 chooses it in every training set by
	// leave-one-out cross-validation within it (Tan et al. 2005; classify.KTSP), a
	// positive odd number fixes it.
	KTSPPairs int `json:"ktspPairs,omitempty"`
	// ClassifierParams are the parameters of the classifiers that take some, by
	// classifier and key ({"logit": {"alpha": 0.5}, "rf": {"trees": 1000}}); a key left
	// out takes its default (ClassifierParamList). Runs saved before it read as all
	// defaults.
	ClassifierParams map[string]map[string]float64 `json:"classifierParams,omitempty"`
	GridK            int                           `json:"gridK,omitempty"` // k of the selection-frequency grid and top table; 0: 10
	Seed             uint64                        `json:"seed"`
	Workers          int                           `json:"workers,omitempty"` // 0: all cores; never changes results
	// PredictionsOnly runs the study for its out-of-fold predictions and accuracies
	// alone, as a permutation test needs: no all-sample ranking, no stability, no
	// comparisons. Never saved.
	PredictionsOnly bool `json:"-"`
	// AdviceOnly runs the study for what the Errors tab's advice reads alone: the
	// accuracies, the McNemar comparisons and S_S stability (Pairwise mode; no
	// all-sample ranking, no other measure). Never saved.
	AdviceOnly bool `json:"-"`
}

// ReadOptions are the options the data are read with: Read and the Outcome.
func (c Config) ReadOptions() dataset.Options {
	o := c.Read
	o.Outcome = c.Outcome
	return o
}

// DefaultConfig is 10 x 10-fold CV with the F-statistic and SVM-RFE, z-scored, all classifiers.
func DefaultConfig() Config {
	return Config{Version: 1, ZScore: true, Prep: dataset.Prep{DropConstant: true},
		Methods:  []method.Spec{{Name: "fstat"}, {Name: "svmrfe"}},
		Protocol: CV10x10, Classifiers: []string{"svm", "1nn", "3nn"}, Seed: 1}
}

// DefaultKs is the k grid of a protocol for p features: DRAGS 4,6,8,10,20..50;
// CV 1..50; Kalousis 10..p step 5. Every grid is cut at p.
func DefaultKs(p Protocol, features int) []int {
	var ks []int
	switch p {
	case DRAGS2008:
		ks = []int{4, 6, 8, 10, 20, 30, 40, 50}
	case Kalousis:
		for k := 10; k <= features; k += 5 {
			ks = append(ks, k)
		}
	default:
		for k := 1; k <= 50; k++ {
			ks = append(ks, k)
		}
	}
	var out []int
	for _, k := range ks {
		if k <= features {
			out = append(out, k)
		}
	}
	return out
}

// Bounds of the settings: far beyond what the papers use, and what a laptop can hold.
const (
	MaxRepeats = 1000
	MaxFolds   = 100
)

// ResolvedFor is Resolved for ds: methods and classifiers left unset (nil, as a
// configuration file that does not name them reads) take the defaults of ds's outcome
// (DefaultSurvivalConfig's for a survival outcome, DefaultConfig's for classes), and
// an imputation left unset the one ds's intensities take (dataset.Prep.For).
func (c Config) ResolvedFor(ds *dataset.Dataset) (Config, error) {
	def := DefaultConfig()
	if ds.Survival != nil {
		def = DefaultSurvivalConfig()
	}
	if c.Methods == nil {
		c.Methods = def.Methods
	}
	if c.Classifiers == nil {
		c.Classifiers = def.Classifiers
	}
	c.Prep = c.Prep.For(ds) // the imputation the data were preprocessed with
	_, p := ds.Dims()
	return c.Resolved(p)
}

// Resolved fills the defaults for a data set of p features and checks the settings;
// classifiers left unset (nil) take DefaultConfig's.
func (c Config) Resolved(p int) (Config, error) {
	if c.Classifiers == nil {
		c.Classifiers = DefaultConfig().Classifiers
	}
	in, ok := LookupProtocol(c.Protocol)
	if !ok {
		return c, fmt.Errorf("unknown protocol %q (drags2008, cv10x10 or kalousis)", c.Protocol)
	}
	if p < MinFeatures {
		return c, fmt.Errorf("%d features (after preprocessing); a stability study needs at least %d, since with fewer every selection holds nearly all of them and no stability measure is defined", p, MinFeatures)
	}
	if c.TopVariance < 0 {
		return c, fmt.Errorf("topVariance must not be negative (0 keeps every feature)")
	}
	if err := c.Prep.Check(); err != nil {
		return c, err
	}
	switch c.Prep.Scaling {
	case "auto", "pareto":
		c.ZScore = true
	case "none":
		c.ZScore = false
	}
	if c.Prep.TMM && !c.Prep.LogCPM {
		return c, fmt.Errorf(`"tmm" normalises read counts into log-CPM: set "logCPM" too (--log-cpm on the command line)`)
	}
	if c.Repeats < 0 || c.Folds < 0 || c.InnerFolds < 0 || c.GridK < 0 || c.AccuracyMax < 0 || c.Workers < 0 {
		return c, fmt.Errorf("repeats, folds, gridK, accuracyMaxK and workers must not be negative (0 takes the default)")
	}
	if c.Repeats <= 0 {
		c.Repeats = in.Repeats
	}
	if c.Folds <= 0 {
		c.Folds = in.Folds
	}
	if c.InnerFolds <= 0 {
		c.InnerFolds = max(in.Inner, 2)
	}
	if c.Folds < 2 || c.InnerFolds < 2 || c.Folds > MaxFolds || c.InnerFolds > MaxFolds {
		return c, fmt.Errorf("folds must lie in 2..%d (got %d, inner %d)", MaxFolds, c.Folds, c.InnerFolds)
	}
	if c.Repeats > MaxRepeats {
		return c, fmt.Errorf("%d repeats asked for; at most %d (the papers use 10)", c.Repeats, MaxRepeats)
	}
	if c.Workers > 1024 {
		return c, fmt.Errorf("%d workers asked for; at most 1024 (0 uses every core)", c.Workers)
	}
	if c.Mode == "" {
		c.Mode = in.Mode
	}
	if c.Mode != Reference && c.Mode != Pairwise {
		return c, fmt.Errorf("stability mode %q is neither reference nor pairwise", c.Mode)
	}
	if len(c.Ks) == 0 {
		c.Ks = DefaultKs(c.Protocol, p)
		if len(c.Ks) == 0 {
			return c, fmt.Errorf("the %s grid of k starts above the %d features; give the ks to use (\"ks\": [1, 2] in the configuration, or the k grid in the window)", in.Label, p)
		}
	}
	ks := append([]int(nil), c.Ks...)
	sort.Ints(ks)
	c.Ks = ks[:0]
	for i, k := range ks {
		if k < 1 || k > p {
			return c, fmt.Errorf("k = %d is outside 1..%d (the number of features)", k, p)
		}
		if i == 0 || k != ks[i-1] {
			c.Ks = append(c.Ks, k)
		}
	}
	if c.AccuracyMax <= 0 {
		c.AccuracyMax = 50
	}
	if c.GridK <= 0 {
		c.GridK = min(10, p)
	}
	if c.GridK > p {
		return c, fmt.Errorf("the grid's top k = %d is more than the %d features", c.GridK, p)
	}
	if len(c.Methods) == 0 {
		return c, fmt.Errorf("choose at least one method")
	}
	for _, m := range c.Methods {
		if _, err := method.New(m); err != nil {
			return c, err
		}
		if method.FitsAllSamples(m) && c.TopVariance > 0 {
			return c, fmt.Errorf("%s: its paper setting (MIDS or groups on all samples) works on all features of all samples; it cannot be combined with topVariance", m.Name)
		}
		if method.FitsAllSamples(m) && c.Prep.TMM {
			return c, fmt.Errorf("%s: its paper setting (MIDS or groups on all samples) works on all features of all samples; it cannot be combined with edgeR's filtering inside every training set (tmm): choose the method's default setting", m.Name)
		}
	}
	for _, cl := range c.Classifiers {
		if !slices.Contains(Classifiers, cl) {
			return c, fmt.Errorf("unknown classifier %q (%s)", cl, strings.Join(Classifiers, ", "))
		}
	}
	if err := c.checkClassifierParams(); err != nil {
		return c, err
	}
	if c.KTSPPairs < 0 || (c.KTSPPairs > 0 && c.KTSPPairs%2 == 0) {
		return c, fmt.Errorf("ktspPairs = %d: k-TSP's number of pairs must be odd, so that its votes never tie (0 chooses it by cross-validation in every training set)", c.KTSPPairs)
	}
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	return c, nil
}

// AccuracyKs are the ks of the grid at which accuracy is measured (those up to
// AccuracyMax, and from 2 when k-TSP is among the classifiers: it needs a pair), in the
// grid's order: the ks of every Prediction's scores.
func (c Config) AccuracyKs() []int {
	least := 1
	if slices.Contains(c.Classifiers, "ktsp") {
		least = 2 // k-TSP needs a pair of genes
	}
	var out []int
	for _, k := range c.Ks {
		if k <= c.AccuracyMax && k >= least {
			out = append(out, k)
		}
	}
	return out
}

// MinClassSize is the smallest class size the protocol's stratified folds need.
func (c Config) MinClassSize() int {
	if c.Protocol == Kalousis {
		return max(c.Folds, c.InnerFolds)
	}
	return c.Folds
}
