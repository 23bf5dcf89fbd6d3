package study

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/impute"
	"steadfast/compute/signature"
	"steadfast/internal/text"
)

// cohortIntensities preprocesses a cohort's intensities as the model's training
// intensities were, each sample against the model's frozen fit alone (impute.Frozen):
// log2, its normalisation over the training data's kept proteins it has (matched by
// id), then the signature genes' missing values imputed. A gene the cohort does not
// measure at all stays out (signature.Apply names it), not imputed. The data are
// refused when the normalisation or the imputation needs the kept proteins (every one
// but none and halfmin without normalisation) and the cohort has under half of them.
func cohortIntensities(raw *dataset.Dataset, m *signature.Model) (*dataset.Dataset, error) {
	opt := m.Prep.ImputeOptions()
	f, genes, err := m.Impute.Fitted(opt)
	if err != nil {
		return nil, err
	}
	opt = f.Options()
	col := make(map[string]int, len(raw.Features))
	for j, id := range raw.Features {
		col[id] = j
	}
	u := m.Impute.Universe()
	present := 0
	for _, id := range m.Impute.Kept {
		if _, ok := col[id]; ok {
			present++
		}
	}
	needsKept := opt.Normalize != impute.NoNorm || opt.Impute == impute.KNN || opt.Impute == impute.MinProb
	if needsKept && present*2 < len(m.Impute.Kept) {
		return nil, fmt.Errorf("%s: only %d of the %d proteins the model's normalisation and imputation were fitted on are in the cohort, by id; they need most of them: give the cohort's intensities with the training data's protein ids (e.g. %s)", raw.Name, present, len(m.Impute.Kept), strings.Join(m.Impute.Kept[:min(3, len(m.Impute.Kept))], ", "))
	}
	n, _ := raw.Dims()
	var have []int // the genes the cohort measures
	for g, mg := range m.Genes {
		if _, ok := col[mg.ID]; ok {
			have = append(have, g)
		}
	}
	out := &dataset.Dataset{Name: raw.Name, Samples: raw.Samples, Labels: raw.Labels, Classes: raw.Classes, Survival: raw.Survival, Notes: slices.Clone(raw.Notes), X: mat.NewDense(n, max(len(have), 1), nil)}
	for _, g := range have {
		out.Features = append(out.Features, m.Genes[g].ID)
		out.Symbols = append(out.Symbols, m.Genes[g].Symbol)
	}
	row, pre := make([]float64, len(u)), make([]float64, len(u))
	imputed := 0
	for i := 0; i < n; i++ {
		for k, id := range u {
			row[k] = math.NaN()
			if j, ok := col[id]; ok {
				row[k] = raw.X.At(i, j)
			}
		}
		f.Apply(row, raw.Samples[i], pre)
		for c, g := range have {
			if math.IsNaN(row[genes[g]]) {
				imputed++
			}
			out.X.Set(i, c, pre[genes[g]])
		}
	}
	if len(have) == 0 {
		out.X = mat.NewDense(n, 1, nil).Slice(0, n, 0, 0).(*mat.Dense)
	}
	note := fmt.Sprintf("intensities preprocessed against the model's frozen fit, sample by sample (%s): %d of its %d kept proteins are in the cohort; %s of the signature genes imputed",
		opt.Describe(), present, len(m.Impute.Kept), text.Count(imputed, "missing value"))
	out.Notes = append(out.Notes, note)
	return out, nil
}
