package experiment

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"steadfast/compute/dataset"
	"steadfast/compute/method"
)

// Version of the result format and of the program that wrote it.
const Version = "0.1.0"

// Result is what a run produced; with its Config it is saved as one JSON file.
type Result struct {
	Version string         `json:"version"`
	Config  Config         `json:"config"`
	Data    DataInfo       `json:"data"`
	Methods []MethodResult `json:"methods"`
	// Comparisons are McNemar's tests between every two methods, per classifier and k.
	Comparisons []Comparison `json:"comparisons,omitempty"`
	// StabilityTests are Nogueira's tests between every two methods at the grid's k
	// (written for readers of result.json; Steadfast computes them again from Phi).
	StabilityTests []StabilityComparison `json:"stabilityTests,omitempty"`
	Seconds        float64               `json:"seconds"`
}

// DataInfo identifies the data a run used.
type DataInfo struct {
	Name        string   `json:"name"`
	Samples     int      `json:"samples"`
	Features    []string `json:"features"`
	Symbols     []string `json:"symbols,omitempty"` // gene symbol of each feature, "" unknown
	Classes     []string `json:"classes"`
	ClassCounts []int    `json:"classCounts"`
	Dropped     []string `json:"dropped,omitempty"`
	// Accession and Platform are the GEO series or DataSet and its platform, when the
	// data came from GEO.
	Accession string `json:"accession,omitempty"`
	Platform  string `json:"platform,omitempty"`
	// Samples' names and class indices (into Classes), for the out-of-fold predictions;
	// absent from runs saved before they were kept.
	SampleNames []string `json:"sampleNames,omitempty"`
	Labels      []int    `json:"labels,omitempty"`
	// Intensities is set when the values were intensities preprocessed inside every
	// training set (the data's Raw: Prep's filter, normalisation and imputation).
	Intensities bool `json:"intensities,omitempty"`
	// LeftOut are the features the reading and the preprocessing left out or ranked
	// last, each with why (written as left-out.csv).
	LeftOut []dataset.LeftOut `json:"leftOut,omitempty"`
	// Survival is the outcome when it is a time to an event (Labels then its events).
	Survival *dataset.Survival `json:"survival,omitempty"`
}

// Performance names what a study measures at each k: the test accuracy, or for a
// survival outcome Harrell's C of the Cox model's risk score on the held-out samples.
func (d DataInfo) Performance() string {
	if d.Survival != nil {
		return "Harrell's C"
	}
	return "accuracy"
}

// Label is feature j's name with its gene symbol when known: "1007_s_at (DDR1)".
func (d DataInfo) Label(j int) string {
	if j < len(d.Symbols) && d.Symbols[j] != "" && d.Symbols[j] != d.Features[j] {
		return d.Features[j] + " (" + d.Symbols[j] + ")"
	}
	return d.Features[j]
}

// RepeatedGenes names the genes that several of the features hold probes of, with
// their counts, most first: "DDR1 ×3, TP53 ×2"; "" when symbols are unknown or no gene
// repeats.
func (d DataInfo) RepeatedGenes(features []int) string {
	if d.Symbols == nil {
		return ""
	}
	count := map[string]int{}
	for _, j := range features {
		if j < len(d.Symbols) && d.Symbols[j] != "" {
			count[d.Symbols[j]]++
		}
	}
	var genes []string
	for g, c := range count {
		if c > 1 {
			genes = append(genes, g)
		}
	}
	sort.Slice(genes, func(a, b int) bool {
		if count[genes[a]] != count[genes[b]] {
			return count[genes[a]] > count[genes[b]]
		}
		return genes[a] < genes[b]
	})
	parts := make([]string, len(genes))
	for i, g := range genes {
		parts[i] = fmt.Sprintf("%s ×%d", g, count[g])
	}
	return strings.Join(parts, ", ")
}

// Selection is one ranking's head: the best features of one resample.
type Selection struct {
	Label  string  `json:"label"`            // e.g. "rep 3 fold 7"
	Group  int     `json:"group"`            // repetition (or outer fold) whose runs are compared pairwise
	Order  []int   `json:"order"`            // feature indices, best first, max(Ks) long
	Groups [][]int `json:"groups,omitempty"` // group methods: members of the group of Order[i]
	// Relevance of each group; kept for the all-sample selection only.
	Relevance []float64 `json:"relevance,omitempty"`
}

// StabilityPoint is the stability of the top-k selections.
type StabilityPoint struct {
	K       int     `json:"k"`
	SimID   float64 `json:"simID"`
	SimIDSD float64 `json:"simIDsd"`
	SS      float64 `json:"ss"`
	SSSD    float64 `json:"ssSD"`
	SimVM   float64 `json:"simVM,omitempty"`  // Sim_V^M of the selected groups' centres; k <= 50
	SimIDM  float64 `json:"simIDM,omitempty"` // Sim_ID^M of the selected groups; k <= 50
	// Phi is Nogueira et al.'s (2018) stability of all the resampled top-k selections,
	// with its 95% confidence interval.
	Phi     float64 `json:"phi"`
	PhiLow  float64 `json:"phiLow"`
	PhiHigh float64 `json:"phiHigh"`
	PhiVar  float64 `json:"phiVar,omitempty"` // the estimate's variance, for Nogueira's test
	// Measures holds every measure of the catalogue (stability.SetMeasures) by name,
	// pairwise ones over the protocol's pairs, global ones over all resampled selections.
	Measures map[string]float64 `json:"measures,omitempty"`
}

// AccuracyPoint is the mean and standard deviation of test accuracy over the resamples.
type AccuracyPoint struct {
	K    int     `json:"k"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// FeatureStat summarises one feature over the resamples.
type FeatureStat struct {
	Feature   int     `json:"feature"`
	Name      string  `json:"name"`
	Frequency float64 `json:"frequency"` // share of resamples with it in the top GridK
	MeanRank  float64 `json:"meanRank"`  // mean rank over resamples (1 = best)
	Score     float64 `json:"score"`     // score on all samples
	RefRank   int     `json:"refRank"`   // rank on all samples
}

// MethodResult is everything one method produced.
type MethodResult struct {
	Spec      method.Spec                `json:"spec"`
	Label     string                     `json:"label"`
	Reference Selection                  `json:"reference"` // on all samples
	Runs      []Selection                `json:"runs"`      // the resamples compared for stability
	Stability []StabilityPoint           `json:"stability"`
	SW        *float64                   `json:"sw"` // Kalousis S_W over whole weight vectors; null where the scores are not weights
	SR        float64                    `json:"sr"` // Kalousis S_R over whole rankings
	Accuracy  map[string][]AccuracyPoint `json:"accuracy"`
	// AUC of each accuracy curve with k scaled to [0, 1] (Diaz-Diaz's normalised area),
	// when the curve's ks are 1, 2, 3, ... without gaps.
	AUC map[string]float64 `json:"auc,omitempty"`
	Top []FeatureStat      `json:"top"`
	// Unconverged counts the model fits, over all rankings, that stopped at their
	// iteration cap before meeting the tolerance (linear SVMs, stability selection's
	// L1-logistic paths).
	Unconverged int `json:"unconverged,omitempty"`
	// FewestGroups is, for a group method, the fewest groups any of its rankings found
	// when that is below the largest k: beyond it a selection is filled with single
	// features by F (nil when every ranking found enough groups).
	FewestGroups *int    `json:"fewestGroups,omitempty"`
	Seconds      float64 `json:"seconds"`
	// PredictSeconds is the part of Seconds spent fitting and applying the classifiers
	// (0 in runs saved before it was kept).
	PredictSeconds float64 `json:"predictSeconds,omitempty"`
	// Predictions are the out-of-fold scores of every resample that tested samples of
	// the study's own data: what its ROC curves are drawn from. A run saved before
	// they were kept has none.
	Predictions []Prediction `json:"predictions,omitempty"`
}

// Prediction is one resample's test samples and, per classifier and accuracy k (the
// configuration's AccuracyKs, in order), each test sample's score of each class, row
// by row: Scores[cl][ki][i*classes+c]. The class a classifier predicts has the largest
// score (for a linear SVM of two classes the scores are -d and d, d the margin; for
// k-NN the share of the k neighbours in the class, a tied vote going to the class of
// the nearest). Pred[cl][ki][i] is the class predicted (nil in runs saved before it
// was kept).
type Prediction struct {
	Repeat int                    `json:"repeat"` // the repetition, whose resamples' tests are pooled
	Test   []int                  `json:"test"`   // sample indices
	Scores map[string][][]float64 `json:"scores"`
	Pred   map[string][][]int     `json:"pred,omitempty"`
	// Selected is a survival study's resample's ranking, its first genes up to the
	// largest accuracy k: the genes of its Cox models (the signature refits them).
	Selected []int `json:"selected,omitempty"`
}

// FewGroupsNote says that a group method found fewer groups than some k and what
// filled the selection; "" when it found enough.
func (m *MethodResult) FewGroupsNote() string {
	if m.FewestGroups == nil {
		return ""
	}
	g := *m.FewestGroups
	return fmt.Sprintf("%s found as few as %d groups in some rankings: beyond k = %d its selections are filled with single features by F", m.Label, g, g)
}

// Progress reports finished units of work out of the total.
type Progress struct {
	Done, Total int
	Stage       string
	// Fraction is the share of the work done, weighed by what each unit costs (every
	// unit the same while the costs are unknown), and Left the time left at that cost
	// (0 while unknown).
	Fraction float64
	Left     time.Duration
}
