package signature

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/classify"
	"steadfast/compute/counts"
	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/impute"
	"steadfast/internal/text"
)

// ModelFormat is the version of the model file's layout.
const ModelFormat = 1

// MaxModelFile bounds a model file read back (a k-NN model holds its training values).
const MaxModelFile = 64 << 20

// ModelGene is a gene of a locked model, in the order of its values.
type ModelGene struct {
	ID     string `json:"id"`
	Symbol string `json:"symbol,omitempty"`
}

// Model is a locked signature: the classifier trained on all samples on the signature
// genes, with what it needs to score a new sample. A sample's values of the genes, after
// the preprocessing Prep (log2 or log-CPM, as the study read its data), are z-scored
// with Mean and SD, the genes' training means and sds (when the study z-scored,
// Config.ZScore: z = (x - mean)/sd, 0 for a gene constant on the training samples),
// then scaled to Weka's [0,1] by Min and Max (the Weka
// classifiers: (z - min)/(max - min)). A linear SVM scores class c by w_c'z + b_c
// (two classes: one model, d = w'z + b, class 1 when d > 0); k-NN by the share of its
// K nearest training samples (Euclidean) in each class, the majority winning (ties to
// the nearest). SHA256 is the digest of the file's JSON with this field empty.
type Model struct {
	Format     int               `json:"format"`
	Program    string            `json:"program"`
	Data       string            `json:"data"`
	DataSHA256 string            `json:"dataSHA256"`
	Config     experiment.Config `json:"config"`
	Method     string            `json:"method"`
	Frequent   bool              `json:"frequent,omitempty"`
	Classes    []string          `json:"classes"`
	Genes      []ModelGene       `json:"genes"`
	Prep       dataset.Prep      `json:"prep"`
	Samples    []string          `json:"samples"` // the training samples' names
	// Prints are the training samples' fingerprints (Fingerprint), so a cohort that
	// holds training samples is recognised by its values whatever their names.
	Prints     []string    `json:"prints,omitempty"`
	Positive   int         `json:"positive"` // the positive class of two, or -1
	CV         *CVSummary  `json:"cv,omitempty"`
	Mean       []float64   `json:"mean"`
	SD         []float64   `json:"sd"`
	Min        []float64   `json:"min,omitempty"`
	Max        []float64   `json:"max,omitempty"`
	Classifier string      `json:"classifier"`
	W          [][]float64 `json:"w,omitempty"`
	B          []float64   `json:"b,omitempty"`
	Neighbours int         `json:"neighbours,omitempty"`
	TrainX     [][]float64 `json:"trainX,omitempty"`
	TrainY     []int       `json:"trainY,omitempty"`
	Rule       string      `json:"rule"`
	// Pairs and PairLess are k-TSP's pairs of genes (indices into Genes) and the class
	// each votes for when its first gene's value is below its second's.
	Pairs    [][2]int `json:"pairs,omitempty"`
	PairLess []int    `json:"pairLess,omitempty"`
	// Platt maps the positive class's score to its probability (two classes; fitted
	// on the study's out-of-fold scores, Operating). Logistic regression and random
	// forests give probabilities of their own and have none.
	Platt *Platt `json:"platt,omitempty"`
	// Logit is logistic regression's penalty (W and B hold its coefficients on the
	// scaled genes: one model of class 1 against 0 for two classes, else one a class,
	// softmax); Forest a random forest's trees (on the scaled genes).
	Logit  *LogitFit  `json:"logit,omitempty"`
	Forest *ForestFit `json:"forest,omitempty"`
	// Cox is a survival signature's Cox model (Classes are then "censored" and
	// "event", Positive the event).
	Cox *CoxLock `json:"cox,omitempty"`
	// Ref[g] are gene g's training values after the preprocessing, a value a training
	// sample, and RefY the training samples' classes: the reference a cohort's shift is
	// measured against and ComBat harmonises to.
	Ref  [][]float64 `json:"ref,omitempty"`
	RefY []int       `json:"refY,omitempty"`
	// Norm is the read counts' normalisation (Prep.TMM) fitted on all training samples,
	// frozen: its reference library on the genes NormGenes, against which a cohort's
	// counts are normalised sample by sample (counts.Norm).
	Norm      *counts.Norm `json:"norm,omitempty"`
	NormGenes []string     `json:"normGenes,omitempty"`
	// Impute is the intensities' preprocessing (the data's Raw: missing values or a
	// normalisation) fitted on all training samples and frozen for the genes: a cohort
	// sample is filtered, normalised and imputed against it alone (impute.Frozen).
	Impute *impute.Frozen `json:"impute,omitempty"`
	SHA256 string         `json:"sha256"`
}

// Lock trains classifier cl (one of experiment.Classifiers) on all samples of ds (the
// study's data, preprocessed as the study did) on the features feats, with the study's
// z-scoring and seed, and returns the locked model.
func Lock(ctx context.Context, res *experiment.Result, ds *dataset.Dataset, c Choice, feats []int) (*Model, error) {
	cfg := res.Config
	m := &Model{Format: ModelFormat, Program: "Steadfast " + experiment.Version, Data: ds.Name, DataSHA256: ds.Hash(),
		Config: cfg, Method: res.Methods[c.Method].Label, Frequent: c.Frequent, Classes: ds.Classes, Prep: cfg.Prep, Classifier: c.Classifier,
		Samples: ds.Samples, Positive: -1}
	m.Positive, _ = DefaultPositive(ds.Classes)
	for _, j := range feats {
		g := ModelGene{ID: ds.Features[j]}
		if ds.Symbols != nil {
			g.Symbol = ds.Symbols[j]
		}
		m.Genes = append(m.Genes, g)
	}
	if ds.Counts != nil {
		if err := m.lockNorm(ds); err != nil {
			return nil, err
		}
	}
	if ds.Raw != nil {
		if err := m.lockImpute(ds, feats); err != nil {
			return nil, err
		}
	}
	x := dataset.SelectFeatures(ds.X, feats)
	m.Prints = Fingerprints(x)
	for j := range feats {
		m.Ref = append(m.Ref, mat.Col(nil, j, x))
	}
	m.RefY = append([]int(nil), ds.Labels...)
	m.Mean, m.SD = dataset.ColumnMeanSD(x) // as the study's z-score (dataset.Standardize)
	if cfg.Prep.Scaling == "pareto" {      // as dataset.ParetoScale
		for j, s := range m.SD {
			m.SD[j] = math.Sqrt(s)
		}
	}
	z := m.scale(x, false)
	if strings.HasPrefix(c.Classifier, "weka") {
		m.Min, m.Max = ranges(z)
		z = m.scale(x, true)
	}
	switch c.Classifier {
	case "logit":
		if err := m.lockLogit(ctx, z, ds.Labels); err != nil {
			return nil, err
		}
	case "rf":
		if err := m.lockForest(ctx, z, ds.Labels); err != nil {
			return nil, err
		}
	case "cox":
		if err := m.lockCox(z, ds, c.Cut); err != nil {
			return nil, err
		}
	case "svm", "wekasvm":
		s := classify.LinearSVM{Exact: true}
		if c.Classifier == "wekasvm" {
			s.Params = classify.SVMParams{C: 1, Loss: classify.Hinge}
		}
		if err := s.Fit(ctx, z, ds.Labels, len(ds.Classes), rand.New(rand.NewPCG(cfg.Seed, 0x5167))); err != nil {
			return nil, err
		}
		m.W, m.B = s.W, s.B
		m.Rule = "linear SVM: the class of the largest w'z + b (two classes: class " + ds.Classes[1] + " when w'z + b > 0)"
	case "ktsp":
		// The values as read, unscaled; k chosen as in the study's resamples.
		k := classify.KTSP{K: cfg.KTSPPairs}
		if err := k.Fit(x, ds.Labels, len(ds.Classes)); err != nil {
			return nil, err
		}
		if len(k.Pairs) == 0 {
			return nil, fmt.Errorf("k-TSP: no pair of the %d genes is ordered differently in the two classes (every pair's score Delta is 0), so there is no model to lock; choose more genes or another classifier", len(feats))
		}
		m.Pairs, m.PairLess = k.Pairs, k.Less
		how := "chosen by leave-one-out cross-validation on the training samples"
		if cfg.KTSPPairs > 0 {
			how = fmt.Sprintf("%d asked for", cfg.KTSPPairs)
		}
		m.Rule = fmt.Sprintf("k-TSP: %s of genes (%s), each voting by which of its two values is the larger in the sample; the class of most votes (no scaling)", text.Count(len(k.Pairs), "pair"), how)
	case "1nn", "3nn", "weka1nn":
		m.Neighbours = 1
		if c.Classifier == "3nn" {
			m.Neighbours = 3
		}
		n, _ := z.Dims()
		for i := 0; i < n; i++ {
			m.TrainX = append(m.TrainX, append([]float64(nil), z.RawRowView(i)...))
		}
		m.TrainY = append([]int(nil), ds.Labels...)
		m.Rule = fmt.Sprintf("%d-NN: the majority class of the %d nearest training samples (Euclidean on the scaled genes), ties to the nearest", m.Neighbours, m.Neighbours)
	default:
		return nil, fmt.Errorf("unknown classifier %q", c.Classifier)
	}
	return m, nil
}

// ranges is each column's minimum and maximum.
func ranges(x *mat.Dense) (lo, hi []float64) {
	_, p := x.Dims()
	for j := 0; j < p; j++ {
		col := mat.Col(nil, j, x)
		l, h := math.Inf(1), math.Inf(-1)
		for _, v := range col {
			l, h = math.Min(l, v), math.Max(h, v)
		}
		lo, hi = append(lo, l), append(hi, h)
	}
	return lo, hi
}

// scale applies the model's z-score (and, with weka, its [0,1] ranges) to the rows of
// x, returning a new matrix.
func (m *Model) scale(x *mat.Dense, weka bool) *mat.Dense {
	z := mat.DenseCopyOf(x)
	n, p := z.Dims()
	for i := 0; i < n; i++ {
		row := z.RawRowView(i)
		for j := 0; j < p; j++ {
			if m.Config.ZScore {
				if m.SD[j] > 0 {
					row[j] = (row[j] - m.Mean[j]) * (1 / m.SD[j]) // as dataset.Standardize, bit for bit
				} else {
					row[j] = 0
				}
			}
			if weka && m.Min != nil {
				if m.Max[j] > m.Min[j] {
					row[j] = (row[j] - m.Min[j]) / (m.Max[j] - m.Min[j])
				} else {
					row[j] = 0
				}
			}
		}
	}
	return z
}

// Scores returns each sample's score of each class and the class the model predicts,
// for x holding one row per sample of the model's genes in order, preprocessed as Prep
// says.
func (m *Model) Scores(x *mat.Dense) (scores [][]float64, pred []int, err error) {
	_, p := x.Dims()
	if p != len(m.Genes) {
		return nil, nil, fmt.Errorf("%d values a sample for a model of %d genes", p, len(m.Genes))
	}
	if m.Cox != nil {
		return nil, nil, fmt.Errorf("a survival signature's Cox model scores a risk, not classes")
	}
	if m.Classifier == "ktsp" {
		k := classify.KTSP{Pairs: m.Pairs, Less: m.PairLess}
		pred, scores = k.PredictScores(x)
		return scores, pred, nil
	}
	z := m.scale(x, strings.HasPrefix(m.Classifier, "weka"))
	switch m.Classifier {
	case "logit":
		pred, scores = classify.NewLogit(m.W, m.B, len(m.Classes)).PredictScores(z)
		return scores, pred, nil
	case "rf":
		pred, scores = classify.NewForest(m.Forest.Trees, len(m.Genes), len(m.Classes)).PredictScores(z)
		return scores, pred, nil
	}
	if m.W != nil {
		pred, scores = classify.NewLinearSVM(m.W, m.B, len(m.Classes)).PredictScores(z)
		return scores, pred, nil
	}
	train := mat.NewDense(len(m.TrainX), p, nil)
	for i, r := range m.TrainX {
		train.SetRow(i, r)
	}
	k := classify.KNN{K: m.Neighbours}
	k.Fit(train, m.TrainY, len(m.Classes))
	pred, scores = k.PredictScores(z)
	return scores, pred, nil
}

// digest is the SHA-256 of m's JSON with its SHA256 field empty.
func (m *Model) digest() (string, error) {
	c := *m
	c.SHA256 = ""
	b, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// FileSHA256 is the SHA-256 of the model file as Encode writes it (what sha256sum
// prints for model.json); SHA256 is the digest of its content inside it.
func (m *Model) FileSHA256() string {
	c := *m
	b, err := c.Encode()
	if err != nil {
		return ""
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// DigestText names both digests for a person: "content digest X (stored in the
// file), file SHA-256 Y".
func (m *Model) DigestText() string {
	content := m.SHA256
	if content == "" { // not encoded yet: the digest its file will hold
		content, _ = m.digest()
	}
	return fmt.Sprintf("content digest %s, stored in the file and checked when it is read; the file's SHA-256, as sha256sum gives it, %s", content, m.FileSHA256())
}

// Encode returns the model file's bytes (indented JSON) with its digest set.
func (m *Model) Encode() ([]byte, error) {
	d, err := m.digest()
	if err != nil {
		return nil, err
	}
	m.SHA256 = d
	return json.MarshalIndent(m, "", " ")
}

// ReadModel reads a model file back through the checks every file Steadfast reads
// passes: its size, its JSON (no unknown field), its format and program version, its
// digest (any edit is refused), and every length and number before use.
func ReadModel(path string) (*Model, error) {
	b, err := dataset.ReadLimited(path, MaxModelFile)
	if err != nil {
		return nil, err
	}
	return DecodeModel(filepath.Base(path), b)
}

// DecodeModel is ReadModel on the bytes b of the file name.
func DecodeModel(name string, b []byte) (*Model, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m Model
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: not a Steadfast model file (%v)", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: damaged or edited: something follows the model", name)
	}
	if m.Format != ModelFormat {
		return nil, fmt.Errorf("%s: a model file of format %d; this Steadfast reads format %d", name, m.Format, ModelFormat)
	}
	if want := "Steadfast " + experiment.Version; m.Program != want {
		return nil, fmt.Errorf("%s: written by %s, not %s: its numbers may mean something else here; build the signature again with this version, or use %s", name, m.Program, want, m.Program)
	}
	d, err := m.digest()
	if err != nil {
		return nil, err
	}
	if d != m.SHA256 {
		return nil, fmt.Errorf("%s: damaged or edited: its content does not match its SHA-256 (%s); build the signature again", name, short(m.SHA256))
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &m, nil
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12] + "..."
	}
	return s
}

// lockNorm fits the counts' normalisation on all of ds's samples, as the study's values
// X were, and keeps it frozen with the ids of its reference genes.
func (m *Model) lockNorm(ds *dataset.Dataset) error {
	norm, err := counts.Fit(counts.Rows(ds.Counts, nil), ds.Labels)
	if err != nil {
		return err
	}
	m.Norm, m.NormGenes = norm.Frozen(), dataset.Pick(ds.Features, norm.Kept)
	return nil
}

// check reports sizes that disagree or numbers that are not finite.
func (m *Model) check() error {
	g, nc := len(m.Genes), len(m.Classes)
	if g == 0 || g > 100_000 || nc < 2 || nc > 1000 {
		return fmt.Errorf("%d genes and %d classes", g, nc)
	}
	if len(m.Mean) != g || len(m.SD) != g {
		return fmt.Errorf("training means and sds of %d and %d genes for %d genes", len(m.Mean), len(m.SD), g)
	}
	for _, v := range [][]float64{m.Mean, m.SD, m.Min, m.Max} {
		if v != nil && len(v) != g || !finite(v) {
			return fmt.Errorf("a scaling of %d values for %d genes, or one not finite", len(v), g)
		}
	}
	if (m.Min == nil) != (m.Max == nil) {
		return fmt.Errorf("half a scaling")
	}
	if m.Positive < -1 || m.Positive >= nc || (nc == 2) != (m.Positive >= 0) {
		return fmt.Errorf("positive class %d of %d classes", m.Positive, nc)
	}
	if len(m.Samples) > 1_000_000 {
		return fmt.Errorf("%d training samples", len(m.Samples))
	}
	if m.Prints != nil && len(m.Prints) != len(m.Samples) {
		return fmt.Errorf("%d fingerprints for %d training samples", len(m.Prints), len(m.Samples))
	}
	if err := m.CV.check(); err != nil {
		return err
	}
	if m.Ref != nil {
		if len(m.Ref) != g || len(m.RefY) != len(m.Samples) {
			return fmt.Errorf("reference values of %d genes and %d classes for %d genes and %d samples", len(m.Ref), len(m.RefY), g, len(m.Samples))
		}
		for _, r := range m.Ref {
			if len(r) != len(m.Samples) || !finite(r) {
				return fmt.Errorf("a gene's reference values: %d for %d samples, or one not finite", len(r), len(m.Samples))
			}
		}
		for _, y := range m.RefY {
			if y < 0 || y >= nc {
				return fmt.Errorf("a reference sample of class %d of %d", y, nc)
			}
		}
	}
	if m.Prep.TMM != (m.Norm != nil) {
		return fmt.Errorf("counts normalised by TMM (%v) without the normalisation's reference, or the reverse", m.Prep.TMM)
	}
	if m.Norm != nil {
		if len(m.NormGenes) != len(m.Norm.Ref) || len(m.NormGenes) > 1_000_000 {
			return fmt.Errorf("a normalisation reference of %d counts for %d genes", len(m.Norm.Ref), len(m.NormGenes))
		}
		if err := m.Norm.Check(); err != nil {
			return err
		}
		m.Norm = m.Norm.Frozen()
	}
	if err := m.checkImpute(); err != nil {
		return err
	}
	if p := m.Platt; p != nil && (nc != 2 || !finite([]float64{p.A, p.B})) {
		return fmt.Errorf("a probability map for %d classes, or not finite", nc)
	}
	for _, f := range []struct {
		classifier, what string
		has              bool
	}{{"logit", "logistic regression's", m.Logit != nil}, {"rf", "forest's", m.Forest != nil}, {"cox", "Cox model's", m.Cox != nil}} {
		if f.has && m.Classifier != f.classifier {
			return fmt.Errorf("a %s model with a %s fields: the file was edited or damaged", m.Classifier, f.what)
		}
		if !f.has && m.Classifier == f.classifier {
			return fmt.Errorf("a %s model without its %s fields: the file was edited or damaged", m.Classifier, f.what)
		}
	}
	switch m.Classifier {
	case "cox":
		if err := m.Cox.check(g); err != nil {
			return err
		}
	case "logit":
		if err := m.checkLogit(); err != nil {
			return err
		}
	case "rf":
		if err := m.checkForest(); err != nil {
			return err
		}
	case "svm", "wekasvm":
		want := nc
		if nc == 2 {
			want = 1
		}
		if len(m.W) != want || len(m.B) != want || !finite(m.B) {
			return fmt.Errorf("%d SVM models for %d classes", len(m.W), nc)
		}
		for _, w := range m.W {
			if len(w) != g || !finite(w) {
				return fmt.Errorf("an SVM weight vector of %d values for %d genes", len(w), g)
			}
		}
	case "ktsp":
		if nc != 2 || len(m.Pairs) == 0 || len(m.Pairs) != len(m.PairLess) {
			return fmt.Errorf("k-TSP of %d classes with %d pairs and %d votes", nc, len(m.Pairs), len(m.PairLess))
		}
		for p, pr := range m.Pairs {
			if pr[0] < 0 || pr[0] >= g || pr[1] < 0 || pr[1] >= g || pr[0] == pr[1] || m.PairLess[p] < 0 || m.PairLess[p] > 1 {
				return fmt.Errorf("k-TSP pair %d: genes %d and %d of %d, vote %d", p+1, pr[0], pr[1], g, m.PairLess[p])
			}
		}
	case "1nn", "3nn", "weka1nn":
		if m.Neighbours < 1 || m.Neighbours > len(m.TrainX) || len(m.TrainY) != len(m.TrainX) {
			return fmt.Errorf("%d neighbours of %d training samples with %d classes", m.Neighbours, len(m.TrainX), len(m.TrainY))
		}
		for i, r := range m.TrainX {
			if len(r) != g || !finite(r) || m.TrainY[i] < 0 || m.TrainY[i] >= nc {
				return fmt.Errorf("training sample %d: %d values for %d genes, class %d", i+1, len(r), g, m.TrainY[i])
			}
		}
	default:
		return fmt.Errorf("unknown classifier %q", m.Classifier)
	}
	return nil
}

// Fingerprints are the fingerprints of x's rows: each the first 16 hex digits of the
// SHA-256 of the row's values written with 10 significant digits, tab-separated. Two
// samples with the same values of the genes (after the model's preprocessing) share it,
// whatever their names; a digest, not the values, so the model file carries no data.
func Fingerprints(x *mat.Dense) []string {
	n, p := x.Dims()
	out := make([]string, n)
	var b []byte
	for i := 0; i < n; i++ {
		b = b[:0]
		for j := 0; j < p; j++ {
			b = strconv.AppendFloat(b, x.At(i, j), 'g', 10, 64)
			b = append(b, '\t')
		}
		s := sha256.Sum256(b)
		out[i] = hex.EncodeToString(s[:8])
	}
	return out
}

func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
