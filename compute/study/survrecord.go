package study

import (
	"encoding/json"
	"math"

	"steadfast/compute/signature"
	"steadfast/compute/survival"
)

// SurvivalRecord is the record a saved run keeps of the survival signature built from
// it: its choice (rebuilt from it and the data, quickly), and what took long, the
// nested C and the permutation test of C, as SignatureRecord keeps a class
// signature's.
func (s *SurvivalSignature) Record() *SignatureRecord {
	return &SignatureRecord{Choice: s.Choice, SurvivalNested: s.Nested, Perm: s.Perm}
}

// Restore gives s the nested C (when the advice chose s) and the permutation test of r
// when r is the record of s's choice; it reports whether it was.
func (s *SurvivalSignature) Restore(r *SignatureRecord) bool {
	if r == nil || r.Choice != s.Choice {
		return false
	}
	if s.Advised {
		s.Nested = r.SurvivalNested
	}
	s.Perm = r.Perm
	s.stampHeadline()
	return true
}

// jsonFloat is a float64 whose NaN (an outer split without a comparable pair, a C
// without its SE) is written as null and read back as NaN: JSON has no NaN.
type jsonFloat float64

// MarshalJSON writes f, null when it is not finite.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// UnmarshalJSON reads f, NaN for null.
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jsonFloat(math.NaN())
		return nil
	}
	return json.Unmarshal(b, (*float64)(f))
}

// survivalNestedJSON is SurvivalNested as a saved run writes it, its floats jsonFloat.
type survivalNestedJSON struct {
	C struct {
		Mean, Low, High, SE    jsonFloat
		Resamples, Repetitions int
	}
	OuterC []jsonFloat
	Pooled []struct {
		C, SE, Concordant, Discordant, TiedX, TiedY, TiedXY jsonFloat
	}
	Repeats    []int
	Choices    []NestedChoice
	InnerFolds int
}

// MarshalJSON writes n with its NaNs as null.
func (n SurvivalNested) MarshalJSON() ([]byte, error) {
	var j survivalNestedJSON
	j.C.Mean, j.C.Low, j.C.High, j.C.SE = jsonFloat(n.C.Mean), jsonFloat(n.C.Low), jsonFloat(n.C.High), jsonFloat(n.C.SE)
	j.C.Resamples, j.C.Repetitions = n.C.Resamples, n.C.Repetitions
	for _, c := range n.OuterC {
		j.OuterC = append(j.OuterC, jsonFloat(c))
	}
	for _, p := range n.Pooled {
		j.Pooled = append(j.Pooled, struct {
			C, SE, Concordant, Discordant, TiedX, TiedY, TiedXY jsonFloat
		}{jsonFloat(p.C), jsonFloat(p.SE), jsonFloat(p.Concordant), jsonFloat(p.Discordant), jsonFloat(p.TiedX), jsonFloat(p.TiedY), jsonFloat(p.TiedXY)})
	}
	j.Repeats, j.Choices, j.InnerFolds = n.Repeats, n.Choices, n.InnerFolds
	return json.Marshal(j)
}

// UnmarshalJSON reads n written by MarshalJSON.
func (n *SurvivalNested) UnmarshalJSON(b []byte) error {
	var j survivalNestedJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*n = SurvivalNested{C: signature.CIndex{Mean: float64(j.C.Mean), Low: float64(j.C.Low), High: float64(j.C.High), SE: float64(j.C.SE), Resamples: j.C.Resamples, Repetitions: j.C.Repetitions},
		Repeats: j.Repeats, Choices: j.Choices, InnerFolds: j.InnerFolds}
	for _, c := range j.OuterC {
		n.OuterC = append(n.OuterC, float64(c))
	}
	for _, p := range j.Pooled {
		n.Pooled = append(n.Pooled, survival.Concordance{C: float64(p.C), SE: float64(p.SE), Concordant: float64(p.Concordant), Discordant: float64(p.Discordant), TiedX: float64(p.TiedX), TiedY: float64(p.TiedY), TiedXY: float64(p.TiedXY)})
	}
	return nil
}
