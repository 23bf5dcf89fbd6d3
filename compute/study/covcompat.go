package study

import (
	"encoding/json"
	"slices"
	"strings"

	"steadfast/compute/dataset"
)

// keepFeatures adds to read's AsFeatures every feature of a saved run named like a
// clinical covariate (dataset.IsCovariateName): a run saved before covariates were
// read apart analysed such a column (Age) as a feature, and reading its data again
// must give the features it analysed. A name already read as a feature is unchanged.
func keepFeatures(read *dataset.Options, features []string) {
	for _, f := range features {
		if ok, _ := dataset.IsCovariateName(f); ok && !slices.ContainsFunc(read.AsFeatures, func(s string) bool { return strings.EqualFold(s, f) }) {
			read.AsFeatures = append(read.AsFeatures, f)
		}
	}
}

// savedFeatures are the features of a saved run's "result" (nil when it holds none).
func savedFeatures(raw json.RawMessage) []string {
	var r struct {
		Data struct {
			Features []string `json:"features"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return nil
	}
	return r.Data.Features
}

// keepRunFeatures is keepFeatures for a loaded run: its configuration and its result's.
func keepRunFeatures(s *Saved) {
	if s.Result == nil {
		return
	}
	keepFeatures(&s.Config.Read, s.Result.Data.Features)
	keepFeatures(&s.Result.Config.Read, s.Result.Data.Features)
}
