package study

import (
	"context"
	"fmt"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
)

// Tools are the results of the window's tools, saved with the run so that reopening it
// shows them again.
type Tools struct {
	KChooser   *KChooserResult             `json:"kChooser,omitempty"`
	Wrapper    *WrapperResult              `json:"wrapper,omitempty"`
	MIDS       *MIDSResult                 `json:"mids,omitempty"`
	SampleSize *experiment.SyntheticResult `json:"sampleSize,omitempty"`
	Signature  *SignatureRecord            `json:"signature,omitempty"`
}

// SignatureRecord is what a saved run keeps of the signature built from it: its
// choice and positive class (rebuilt from them and the data, quickly), and what took
// long: the nested estimate and the permutation test.
type SignatureRecord struct {
	Choice   signature.Choice `json:"choice"`
	Positive string           `json:"positive,omitempty"`
	Nested   *Nested          `json:"nested,omitempty"`
	// SurvivalNested is a survival signature's nested C (Nested is a class signature's).
	SurvivalNested *SurvivalNested `json:"survivalNested,omitempty"`
	Perm           *Permutations   `json:"permutations,omitempty"`
	// Cohort is the last validation's cohort, validated again when the run is opened.
	Cohort *CohortRecord `json:"cohort,omitempty"`
}

// CohortRecord is a validation as a saved run keeps it: the cohort's file (or GEO
// accession), how it was read and applied, and its SHA-256 then.
type CohortRecord struct {
	Path    string        `json:"path"`
	Options CohortOptions `json:"options"`
	SHA256  string        `json:"sha256"`
}

// Revalidate applies s's model again to the cohort of r (nil, nil without one) and
// says when the cohort's file is not the one validated before.
func (s *Signature) Revalidate(ctx context.Context, r *SignatureRecord) (*signature.Validation, error) {
	if r == nil || r.Cohort == nil {
		return nil, nil
	}
	c := r.Cohort
	v, err := Validate(ctx, s.Model, c.Path, c.Options)
	if err != nil {
		return nil, fmt.Errorf("the saved run's validation on %s could not be redone: %w", c.Path, err)
	}
	if v.SHA256 != c.SHA256 {
		v.Notes = append(v.Notes, fmt.Sprintf("the cohort file %s has changed since the run was saved (SHA-256 %.12s..., then %.12s...): these are its results now", c.Path, v.SHA256, c.SHA256))
	}
	s.Validation, s.Cohort = v, c
	return v, nil
}

// Record is what a saved run keeps of s.
func (s *Signature) Record() *SignatureRecord {
	r := &SignatureRecord{Choice: s.Choice, Nested: s.Nested, Perm: s.Perm, Cohort: s.Cohort}
	if s.Positive >= 0 {
		r.Positive = s.Classes[s.Positive]
	}
	return r
}

// Restore gives s the nested estimate and permutation test of r when r is the record
// of s's choice and positive class; it reports whether it was.
func (s *Signature) Restore(r *SignatureRecord) bool {
	if r == nil || r.Choice != s.Choice || s.Positive >= 0 && r.Positive != s.Classes[s.Positive] {
		return false
	}
	if r.Nested != nil { // kept only as the headline: the choice came from the study
		s.Nested, s.Advised = r.Nested, true
	}
	s.Perm = r.Perm
	s.keepHeadline()
	return true
}

// KChooserResult is each feature's mean correlation to its K nearest features, per K.
type KChooserResult struct {
	Data   string      `json:"data"`
	Ks     []int       `json:"ks"`
	Values [][]float64 `json:"values"` // [K index][feature]
}

// WrapperResult is the bootstrap wrapper's learning-curve area for each Na, with the
// exhaustive baselines.
type WrapperResult struct {
	Data      string             `json:"data"`
	NAs       []float64          `json:"nas"`
	AUCs      []float64          `json:"aucs"`
	Baselines map[string]float64 `json:"baselines"`
}

// MIDSResult is the MIDS size for each epsilon and the genes of the chosen one.
type MIDSResult struct {
	Data     string     `json:"data"`
	Features int        `json:"features"`
	Epsilons []float64  `json:"epsilons"`
	MIDS     []int      `json:"mids"`
	Greedy   []int      `json:"greedy"`
	Edges    []int      `json:"edges"`
	Summary  string     `json:"summary"`
	Header   []string   `json:"header"`
	Rows     [][]string `json:"rows"`
}

// check reports tool results whose parts disagree in length.
func (t *Tools) check() bool {
	if t == nil {
		return true
	}
	if r := t.Signature; r != nil && (r.Perm != nil && len(r.Perm.AUCs) == 0 || r.Nested != nil && len(r.Nested.AUCs) != len(r.Nested.Repeats) ||
		r.SurvivalNested != nil && (len(r.SurvivalNested.Pooled) != len(r.SurvivalNested.Repeats) || len(r.SurvivalNested.OuterC) != len(r.SurvivalNested.Choices))) {
		return false
	}
	if k := t.KChooser; k != nil && len(k.Ks) != len(k.Values) {
		return false
	}
	if w := t.Wrapper; w != nil && len(w.NAs) != len(w.AUCs) {
		return false
	}
	if m := t.MIDS; m != nil && (len(m.Epsilons) != len(m.MIDS) || len(m.MIDS) != len(m.Greedy) || len(m.Greedy) != len(m.Edges)) {
		return false
	}
	if s := t.SampleSize; s != nil {
		for _, v := range [][][]float64{s.Precision, s.SimID, s.Accuracy} {
			if len(v) != len(s.Labels) {
				return false
			}
			for _, row := range v {
				if len(row) != len(s.Study.Sizes) {
					return false
				}
			}
		}
	}
	return true
}
