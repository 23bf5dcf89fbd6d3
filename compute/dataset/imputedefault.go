package dataset

import (
	"fmt"

	"steadfast/compute/impute"
	"steadfast/internal/text"
)

// DefaultImpute is the imputation of d's missing values when none is chosen: minprob
// (Perseus' down-shifted normal) for intensities from mass spectrometry (MassSpec: a
// MaxQuant table), whose missing values lie below detection; knn (impute.knn, written
// for expression arrays) for any other values, such as an array's flagged or damaged
// spots, missing for reasons unrelated to their level. A proteomics or metabolomics
// table read as a plain table takes minprob when it is chosen (--impute minprob, the
// Data tab's Missing values).
func DefaultImpute(d *Dataset) string {
	if d.MassSpec {
		return impute.MinProb
	}
	return impute.KNN
}

// For is p with DefaultImpute(d) when p chooses no imputation and preprocesses d as
// intensities (Intensities, or d already so preprocessed: its Raw). It is the one rule
// of the window and the command line, of the whole data's preprocessing and of every
// training set's (experiment.Config.ResolvedFor).
func (p Prep) For(d *Dataset) Prep {
	if p.Impute == "" && !p.DropMissing && !p.LogCPM && (d.Raw != nil || p.Intensities(d)) {
		p.Impute = DefaultImpute(d)
	}
	return p
}

// defaultImputeNote says which imputation For chose for d's missing values when the
// user chose none: "imputation of the 5 missing values: knn (...), the default for
// values not from mass spectrometry; ...". It is "" when no value is missing.
func defaultImputeNote(d *Dataset, s Summary, chosen string) string {
	if s.MissingCells == 0 {
		return ""
	}
	head := fmt.Sprintf("imputation of the %s %s: no method chosen, so ", text.Thousands(s.MissingCells), text.Plural(s.MissingCells, "missing value"))
	if chosen == impute.MinProb {
		return head + fmt.Sprintf("minprob (Perseus: a normal %g SD below each sample's mean, %g SD wide), the default for intensities from mass spectrometry, whose missing values lie below detection; for values missing at random choose knn (--impute knn, or the Data tab's Missing values)", impute.DefaultShift, impute.DefaultWidth)
	}
	return head + fmt.Sprintf("knn (impute.knn: each from the %d nearest features with a value, as for expression arrays), the default for values not from mass spectrometry, whose missing cells are not below detection; for proteomics or metabolomics intensities missing below detection choose minprob (--impute minprob, or the Data tab's Missing values)", impute.DefaultK)
}
