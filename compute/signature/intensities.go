package signature

import (
	"fmt"

	"steadfast/compute/dataset"
	"steadfast/compute/impute"
)

// lockImpute fits the intensities' preprocessing on all of ds's samples, as the study's
// values X were (impute.Fit on ds.Raw), and keeps it frozen for the genes feats: the
// kept proteins, the normalisation's targets, each gene's imputation.
func (m *Model) lockImpute(ds *dataset.Dataset, feats []int) error {
	f, err := impute.Fit(dataset.Rows(ds.Raw, nil), ds.Labels, len(ds.Classes), ds.Samples, ds.Features, m.Prep.ImputeOptions())
	if err != nil {
		return err
	}
	m.Impute = f.Freeze(feats)
	return nil
}

// checkImpute reports a frozen intensity preprocessing that does not fit the model's
// options or genes (read back from a file).
func (m *Model) checkImpute() error {
	if m.Impute == nil {
		return nil
	}
	if err := m.Impute.Check(m.Prep.ImputeOptions()); err != nil {
		return err
	}
	if len(m.Impute.Genes) != len(m.Genes) {
		return fmt.Errorf("the imputation of %d genes for a model of %d", len(m.Impute.Genes), len(m.Genes))
	}
	for i, g := range m.Impute.Genes {
		if g.ID != m.Genes[i].ID {
			return fmt.Errorf("gene %d: imputed as %q, scored as %q", i+1, g.ID, m.Genes[i].ID)
		}
	}
	return nil
}
