package study

import "steadfast/compute/experiment"

// Tools are the results of the window's tools, saved with the run so that reopening it
// shows them again.
type Tools struct {
	KChooser   *KChooserResult             `json:"kChooser,omitempty"`
	Wrapper    *WrapperResult              `json:"wrapper,omitempty"`
	MIDS       *MIDSResult                 `json:"mids,omitempty"`
	SampleSize *experiment.SyntheticResult `json:"sampleSize,omitempty"`
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
