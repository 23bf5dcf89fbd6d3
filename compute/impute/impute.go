// Package impute handles intensities with missing values (label-free proteomics,
// metabolomics) inside every training set, as a proteomics core facility does before any
// statistics, and freezes what it fitted for the test samples and any cohort: a
// valid-value filter (Perseus, DEP), a per-sample normalisation (sum, median centring,
// preprocessCore's quantile normalisation), then an imputation (impute's impute.knn,
// Perseus' down-shifted normal, half the minimum).
package impute

import (
	"fmt"
	"math"
	"slices"
)

// The imputations.
const (
	KNN     = "knn"     // impute.knn(k = 10, rowmax = 0.5, colmax = 0.8, maxp = all rows)
	MinProb = "minprob" // Perseus: a normal 1.8 SD below the sample's mean, 0.3 SD wide
	HalfMin = "halfmin" // half the protein's smallest training value
	None    = "none"    // values stay missing
)

// The normalisations.
const (
	NoNorm   = "none"
	Median   = "median"   // each sample's median moved to the training samples' mean median
	Quantile = "quantile" // preprocessCore's normalize.quantiles, the training target frozen
	Sum      = "sum"      // each sample scaled to the training samples' mean sum (unlogged values)
)

// Imputations and Normalizations are the choices, in the order forms offer them.
var (
	Imputations    = []string{MinProb, KNN, HalfMin, None}
	Normalizations = []string{NoNorm, Median, Quantile, Sum}
)

// Defaults of Options.
const (
	DefaultMinValid = 0.7
	DefaultK        = 10
	DefaultRowMax   = 0.5
	DefaultColMax   = 0.8
	DefaultWidth    = 0.3
	DefaultShift    = 1.8
)

// Options are the choices of one preprocessing; the zero value of a number takes its
// default.
type Options struct {
	// Log2 takes log2(max(x, Floor)) after the sum normalisation (Floor <= 0 means 1).
	Log2  bool
	Floor float64
	// MinValid keeps a protein measured in at least ceil(MinValid n_c) of the n_c
	// training samples of at least one class c (0: 0.7; in (0, 1]).
	MinValid  float64
	Normalize string // NoNorm ("" too), Median, Quantile or Sum
	Impute    string // KNN, MinProb, HalfMin or None ("" is MinProb)
	// Seed, with the sample's and the protein's names, draws MinProb's values.
	Seed uint64
	// K, RowMax and ColMax are impute.knn's k, rowmax and colmax; Width and Shift
	// MinProb's, in SDs of the sample's values.
	K              int
	RowMax, ColMax float64
	Width, Shift   float64
}

// Resolved fills the defaults and checks the choices.
func (o Options) Resolved() (Options, error) {
	if o.MinValid == 0 {
		o.MinValid = DefaultMinValid
	}
	if !(o.MinValid > 0 && o.MinValid <= 1) {
		return o, fmt.Errorf("minValid = %v: the share of a class's samples a protein must be measured in lies in (0, 1] (0.7 keeps a protein measured in 70%% of the samples of at least one class)", o.MinValid)
	}
	if o.Normalize == "" {
		o.Normalize = NoNorm
	}
	if !slices.Contains(Normalizations, o.Normalize) {
		return o, fmt.Errorf("normalize %q: choose none, median, quantile or sum", o.Normalize)
	}
	if o.Impute == "" {
		o.Impute = MinProb
	}
	if !slices.Contains(Imputations, o.Impute) {
		return o, fmt.Errorf("impute %q: choose minprob, knn, halfmin or none", o.Impute)
	}
	if o.Floor <= 0 {
		o.Floor = 1
	}
	if o.K == 0 {
		o.K = DefaultK
	}
	if o.RowMax == 0 {
		o.RowMax = DefaultRowMax
	}
	if o.ColMax == 0 {
		o.ColMax = DefaultColMax
	}
	if o.Width == 0 {
		o.Width = DefaultWidth
	}
	if o.Shift == 0 {
		o.Shift = DefaultShift
	}
	if o.K < 1 || o.K > 1000 || !(o.RowMax > 0 && o.RowMax <= 1) || !(o.ColMax > 0 && o.ColMax <= 1) || !(o.Width > 0 && o.Width < 10) || !(o.Shift >= 0 && o.Shift < 10) {
		return o, fmt.Errorf("imputation settings out of range: k %d, rowmax %v, colmax %v, width %v, shift %v", o.K, o.RowMax, o.ColMax, o.Width, o.Shift)
	}
	return o, nil
}

// Describe says in words what o does, for notes and methods.
func (o Options) Describe() string {
	s := fmt.Sprintf("proteins measured in at least %.0f%% of the samples of at least one class kept", 100*o.MinValid)
	switch o.Normalize {
	case Sum:
		s += ", each sample scaled to the training samples' mean sum"
	}
	if o.Log2 {
		s += ", log2"
	}
	switch o.Normalize {
	case Median:
		s += ", each sample's median moved to the training samples' mean median"
	case Quantile:
		s += ", quantile normalisation to the training samples' target (preprocessCore)"
	}
	switch o.Impute {
	case KNN:
		s += fmt.Sprintf(", missing values imputed by their %d nearest proteins (impute.knn, rowmax %g, colmax %g)", o.K, o.RowMax, o.ColMax)
	case MinProb:
		s += fmt.Sprintf(", missing values drawn from a normal %g SD below each sample's mean and %g SD wide (Perseus)", o.Shift, o.Width)
	case HalfMin:
		s += ", missing values set to half the protein's smallest training value"
	case None:
		s += ", missing values left missing"
	}
	return s
}

// missing reports a value that is not measured: NaN or infinite.
func missing(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
