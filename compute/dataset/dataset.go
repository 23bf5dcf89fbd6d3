// Package dataset reads expression tables (CSV/TSV, GCT+CLS, ARFF), checks them,
// preprocesses them and draws the resampling splits used by the protocols.
package dataset

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/impute"
)

// Dataset is an n x p expression matrix with names and one class label per sample.
type Dataset struct {
	Name     string     // file base name, for titles
	X        *mat.Dense // n x p, samples as rows
	Features []string   // p feature names, unique
	Symbols  []string   // gene symbol of each feature ("" unknown), or nil
	Samples  []string   // n sample names
	Labels   []int      // class index per sample, into Classes (survival: 1 event, 0 censored)
	Classes  []string   // class names in order of first appearance
	Notes    []string   // what the reader changed or noticed (renamed duplicates, BOM, ...)
	// Accession and Platform are a GEO file's series or DataSet id (GSE781, GDS507)
	// and its platform (GPL97); "" for other files.
	Accession, Platform string
	// Source is where the data were fetched from when they came from GEO by accession
	// (nil for a file opened by hand).
	Source *Source
	// ClassChoices are the sample annotations the class could be taken from instead
	// (a GEO series matrix's characteristics, a GCT 1.3 file's column metadata).
	ClassChoices []ClassChoice
	// Groups are the samples' groups (Options.GroupName's values), nil when not
	// grouped: samples of one group stay on one side of every split.
	Groups []string
	// Counts are the read counts behind X when Prep.TMM (X their log-CPM, normalised on
	// all samples): every training set normalises its own (counts.Norm). Nil otherwise.
	Counts *mat.Dense
	// Raw are the intensities behind X when missing values or a normalisation are
	// handled inside every training set (Prep.Intensities: X their preprocessing fitted
	// on all samples), as read, NaN missing; every training set fits its own
	// (impute.Fit). Nil otherwise.
	Raw *mat.Dense
	// LeftOut are the features the reading and the preprocessing left out, or kept but
	// ranked last, each with why (MaxQuant's reverse hits and contaminants, proteins
	// the valid-value filter drops on all samples, ...).
	LeftOut []LeftOut
	// Survival is the outcome when it is a time to an event (nil for classes); Labels
	// and Classes are then its events ("censored", "event"), which resampling
	// stratifies by.
	Survival *Survival
	// Covariates are the clinical covariates (age, grade, ER status...): sample
	// annotations, never features (see Options.Covariates and IsCovariateName); nil
	// when there are none.
	Covariates []Covariate
	// MaxQuant is set for a MaxQuant proteinGroups table's intensities, which MaxQuant
	// writes unlogged (see DefaultLog2).
	MaxQuant bool
	// MassSpec is set for intensities from mass spectrometry (a MaxQuant table): their
	// missing values lie below detection (left-censored), imputed by default with
	// minprob (DefaultImpute); other values' missing cells (an array's) with knn.
	MassSpec bool
}

// Source records data fetched from GEO by accession: the accession, the platform, and
// each file used (its path in GEO's layout) with its SHA-256, so a run can tell later
// whether GEO's file changed.
type Source struct {
	Accession string       `json:"accession"`
	Platform  string       `json:"platform,omitempty"`
	Files     []SourceFile `json:"files"`
}

// SourceFile is one file of a Source.
type SourceFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// ClassChoice is one sample annotation the class could be taken from: its key (what
// --class takes) and the classes it gives, with their counts ("tumour 40, normal 22").
type ClassChoice struct {
	Key, Counts string
}

// String is how a choice is offered: `tissue (tumour 40, normal 22)`.
func (c ClassChoice) String() string { return c.Key + " (" + c.Counts + ")" }

// Dims returns the number of samples n and features p.
func (d *Dataset) Dims() (n, p int) { return d.X.Dims() }

// ClassCounts returns the number of samples in each class.
func (d *Dataset) ClassCounts() []int {
	c := make([]int, len(d.Classes))
	for _, l := range d.Labels {
		c[l]++
	}
	return c
}

// Summary describes what a user should know about a dataset before a run.
type Summary struct {
	Samples, Features int
	Classes           []string
	ClassCounts       []int
	MissingCells      int      // NaN, Inf or empty cells
	MissingFeatures   []string // features with at least one missing cell
	ConstantFeatures  []string // features with one value over all samples
	// MissingBySample is each sample's number of missing cells.
	MissingBySample []int
	// Counts is set when every value is a whole number >= 0, some exceed 50, some
	// positive one is below 10 and none is missing: RNA-seq counts (a gene table always
	// holds small counts, and a count is never missing), to analyse as log-CPM.
	// Intensities (MaxQuant's LFQ, whole numbers too) start in the thousands.
	Counts bool
	// Unlogged is set when every value is >= 0, some exceed 1000 and they are not
	// counts: intensities (MAS5, spectra) to log2 first.
	Unlogged bool
	Notes    []string
}

// Summarize counts samples, classes, missing cells and constant features.
func Summarize(d *Dataset) Summary {
	n, p := d.Dims()
	s := Summary{Samples: n, Features: p, Classes: d.Classes, ClassCounts: d.ClassCounts(), Notes: d.Notes}
	raw := d.X.RawMatrix()
	missing := make([]int, p)
	lo := make([]float64, p)
	hi := make([]float64, p)
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	whole, big, small := true, false, false
	s.MissingBySample = make([]int, n)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				missing[j]++
				s.MissingBySample[i]++
				continue
			}
			small = small || v > 0 && v < 10
			lo[j] = math.Min(lo[j], v)
			hi[j] = math.Max(hi[j], v)
			whole = whole && v >= 0 && v == math.Trunc(v)
			big = big || v > 50
		}
	}
	s.Counts = whole && big && small
	least, most := math.Inf(1), math.Inf(-1)
	for j := range lo {
		least, most = math.Min(least, lo[j]), math.Max(most, hi[j])
	}
	s.Unlogged = !s.Counts && least >= 0 && most > 1000
	for j := 0; j < p; j++ {
		s.MissingCells += missing[j]
		s.Counts = s.Counts && missing[j] == 0
		if missing[j] > 0 {
			s.MissingFeatures = append(s.MissingFeatures, d.Features[j])
		} else if lo[j] == hi[j] {
			s.ConstantFeatures = append(s.ConstantFeatures, d.Features[j])
		}
	}
	return s
}

// Prep are the dataset-wide preprocessing options. Z-scoring is not here: it is fitted
// inside every training set (see Standardize).
type Prep struct {
	Log2      bool    `json:"log2"`
	Log2Floor float64 `json:"log2Floor"` // values below are raised to it before log2; <= 0 means 1
	// Log2Unsaid is set when the user said nothing of log2 (no --log2 or --log-cpm, a
	// configuration without "log2"): DefaultLog2 then decides. It is never saved.
	Log2Unsaid bool `json:"-"`
	// LogCPM turns counts into log2 counts per million, log2((x + 0.5) / (L + 1) 10^6)
	// with L the sample's library size (its sum over the features kept), as limma's voom
	// does (Law et al. 2014); per sample, so nothing is fitted across samples. It
	// replaces Log2.
	LogCPM bool `json:"logCPM,omitempty"`
	// TMM, with LogCPM, is edgeR's normalisation in place of the per-sample log-CPM:
	// filterByExpr, TMM factors and log-CPM with prior count 2 (counts.Norm), fitted on
	// every training set and frozen for its test samples, the genes it filters out
	// ranked last; the whole data's for what uses all samples.
	TMM          bool `json:"tmm,omitempty"`
	DropConstant bool `json:"dropConstant"`
	DropMissing  bool `json:"dropMissing"`
	// Impute, Normalize and MinValid preprocess intensities (proteomics, metabolomics)
	// inside every training set and freeze it for its test samples (impute.Fit): the
	// valid-value filter (a protein measured in MinValid of the samples of one class at
	// least; 0 is 0.7), the normalisation ("none", "median", "quantile", "sum") and the
	// imputation of the missing values ("minprob", "knn", "halfmin", "none"; "" is the
	// data's default, DefaultImpute, filled in by For: knn, or minprob for mass
	// spectrometry; impute.Options reads "" as minprob, as models saved before did).
	// They apply when values are missing (and not DropMissing) or a normalisation is
	// asked (see Intensities); Seed draws minprob's values.
	Impute    string  `json:"impute,omitempty"`
	Normalize string  `json:"normalize,omitempty"`
	MinValid  float64 `json:"minValid,omitempty"`
	Seed      uint64  `json:"seed,omitempty"`
	// Scaling is the feature scaling inside every training set: "auto" (z-score, as
	// Config.ZScore), "pareto" ((x - mean) / sqrt(sd), van den Berg et al. 2006) or
	// "none"; "" as Config.ZScore says.
	Scaling string `json:"scaling,omitempty"`
}

// Intensities reports whether p preprocesses d's values as intensities inside every
// training set: not counts, and a normalisation asked or values missing (not dropped).
func (p Prep) Intensities(d *Dataset) bool {
	if p.LogCPM {
		return false
	}
	if p.Normalize != "" && p.Normalize != impute.NoNorm {
		return true
	}
	return !p.DropMissing && Summarize(d).MissingCells > 0
}

// ImputeOptions are p's intensity preprocessing as impute takes it.
func (p Prep) ImputeOptions() impute.Options {
	return impute.Options{Log2: p.Log2, Floor: p.Log2Floor, MinValid: p.MinValid, Normalize: p.Normalize, Impute: p.Impute, Seed: p.Seed}
}

// Check refuses choices no preprocessing knows, and those that exclude each other.
func (p Prep) Check() error {
	if _, err := p.ImputeOptions().Resolved(); err != nil {
		return err
	}
	switch {
	case p.LogCPM && (p.Impute != "" || p.Normalize != "" && p.Normalize != impute.NoNorm):
		return fmt.Errorf("read counts are normalised by edgeR's TMM (log-CPM): leave out impute and normalize, which are for intensities")
	case p.DropMissing && p.Impute != "" && p.Impute != impute.None:
		return fmt.Errorf("dropMissing drops the proteins with missing values, impute %q fills them: choose one", p.Impute)
	}
	switch p.Scaling {
	case "", "auto", "pareto", "none":
		return nil
	}
	return fmt.Errorf("scaling %q: choose auto (z-score), pareto or none", p.Scaling)
}

// Preprocess returns a new dataset with log2 applied and constant or incomplete features
// dropped, and the names of the features dropped.
func Preprocess(d *Dataset, o Prep) (out *Dataset, dropped []string) {
	out, dropped, _ = PreprocessContext(context.Background(), d, o)
	return out, dropped
}

// PreprocessContext is Preprocess, stopped with ctx's error when ctx ends first
// (edgeR's normalisation of a large count table takes seconds).
func PreprocessContext(ctx context.Context, d *Dataset, o Prep) (out *Dataset, dropped []string, err error) {
	if err := o.Check(); err != nil {
		return nil, nil, err
	}
	note, err := Log2Check(d, o)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case o.LogCPM && o.TMM:
		return preprocessCounts(ctx, d, o)
	case o.Intensities(d):
		out, dropped, err = preprocessIntensities(ctx, d, o)
	default:
		out, dropped = PreprocessValues(d, o)
	}
	if err == nil && note != "" {
		out.Notes = append(slices.Clone(out.Notes), note)
	}
	return out, dropped, err
}

// PreprocessValues is Preprocess value by value, as for the plain values a study reads:
// log2 or the per-sample log-CPM, constant or incomplete features dropped as o says,
// missing values left missing whatever o says of intensities (a cohort's, which the
// model's own rules then meet).
func PreprocessValues(d *Dataset, o Prep) (out *Dataset, dropped []string) {
	n, _ := d.Dims()
	s := Summarize(d)
	drop := map[string]bool{}
	if o.DropMissing {
		for _, f := range s.MissingFeatures {
			drop[f] = true
		}
	}
	floor := o.Log2Floor
	if floor <= 0 {
		floor = 1
	}
	var keep []int
	for j, f := range d.Features {
		if !drop[f] {
			keep = append(keep, j)
		}
	}
	x := mat.NewDense(n, max(len(keep), 1), nil)
	for i := 0; i < n; i++ {
		lib := 0.0
		for _, j := range keep {
			if v := d.X.At(i, j); !math.IsNaN(v) && !math.IsInf(v, 0) {
				lib += v
			}
		}
		for jj, j := range keep {
			v := d.X.At(i, j)
			switch {
			case math.IsNaN(v):
			case o.LogCPM:
				v = math.Log2((v + 0.5) / (lib + 1) * 1e6)
			case o.Log2:
				v = math.Log2(math.Max(v, floor))
			}
			x.Set(i, jj, v)
		}
	}
	out = d.samplesOnly()
	out.X = x.Slice(0, n, 0, len(keep)).(*mat.Dense)
	for _, j := range keep {
		out.Features = append(out.Features, d.Features[j])
		if d.Symbols != nil {
			out.Symbols = append(out.Symbols, d.Symbols[j])
		}
	}
	if o.DropConstant {
		// constancy is judged after log2, which can make a floored feature constant
		cs := Summarize(out).ConstantFeatures
		if len(cs) > 0 {
			cset := map[string]bool{}
			for _, f := range cs {
				cset[f] = true
			}
			idx := make([]int, 0, len(out.Features))
			for j, f := range out.Features {
				if !cset[f] {
					idx = append(idx, j)
				}
			}
			out.X, out.Features = SelectFeatures(out.X, idx), Pick(out.Features, idx)
			if out.Symbols != nil {
				out.Symbols = Pick(out.Symbols, idx)
			}
			for f := range cset {
				drop[f] = true
			}
		}
	}
	for f := range drop {
		dropped = append(dropped, f)
	}
	sort.Strings(dropped)
	return out, dropped
}

// Pick returns s[idx[0]], s[idx[1]], ... as a new slice.
func Pick(s []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// SelectFeatures returns the columns idx of x as a new matrix.
func SelectFeatures(x *mat.Dense, idx []int) *mat.Dense {
	n, _ := x.Dims()
	out := mat.NewDense(n, max(len(idx), 1), nil)
	raw, o := x.RawMatrix(), out.RawMatrix()
	for i := 0; i < n; i++ {
		src := raw.Data[i*raw.Stride:]
		dst := o.Data[i*o.Stride:]
		for jj, j := range idx {
			dst[jj] = src[j]
		}
	}
	if len(idx) == 0 {
		return out.Slice(0, n, 0, 0).(*mat.Dense)
	}
	return out
}

// SelectSamples returns the rows idx of x and their labels.
func SelectSamples(x *mat.Dense, y []int, idx []int) (*mat.Dense, []int) {
	_, p := x.Dims()
	out := mat.NewDense(len(idx), p, nil)
	ly := make([]int, len(idx))
	for ii, i := range idx {
		out.SetRow(ii, x.RawRowView(i))
		ly[ii] = y[i]
	}
	return out, ly
}

// Standardize z-scores the columns of train in place, z = (x - mean)/sd with the n-1
// standard deviation, and applies the same training means and sds to each of others.
// A column constant on the training samples becomes 0.
func Standardize(train *mat.Dense, others ...*mat.Dense) { standardize(false, train, others...) }

// ParetoScale is Standardize with Pareto's scaling (van den Berg et al. 2006, for
// metabolomics): z = (x - mean)/sqrt(sd), the square root of ColumnMeanSD's sd.
func ParetoScale(train *mat.Dense, others ...*mat.Dense) { standardize(true, train, others...) }

func standardize(pareto bool, train *mat.Dense, others ...*mat.Dense) {
	_, p := train.Dims()
	mean, sd := ColumnMeanSD(train)
	if pareto {
		for j, s := range sd {
			sd[j] = math.Sqrt(s)
		}
	}
	inv := make([]float64, p)
	for j, s := range sd {
		if s > 0 {
			inv[j] = 1 / s
		}
	}
	for _, m := range append([]*mat.Dense{train}, others...) {
		if m == nil {
			continue
		}
		r := m.RawMatrix()
		for i := 0; i < r.Rows; i++ {
			row := r.Data[i*r.Stride : i*r.Stride+p]
			for j := range row {
				row[j] = (row[j] - mean[j]) * inv[j]
			}
		}
	}
}

// ColumnMeanSD is each column's mean and n-1 standard deviation, the sd 0 for a column
// Standardize treats as constant (sd <= 1e-12 max(1, |mean|)). Standardize and a locked
// model's z-score both take them from here, so they agree bit for bit.
func ColumnMeanSD(x *mat.Dense) (mean, sd []float64) {
	n, p := x.Dims()
	mean, sd = make([]float64, p), make([]float64, p)
	raw := x.RawMatrix()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		for j, v := range row {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		for j, v := range row {
			d := v - mean[j]
			sd[j] += d * d
		}
	}
	for j, ss := range sd {
		sd[j] = math.Sqrt(ss / float64(max(n-1, 1)))
		if !(sd[j] > 1e-12*math.Max(1, math.Abs(mean[j]))) {
			sd[j] = 0
		}
	}
	return mean, sd
}

// uniqueNames makes names unique by appending _dup1, _dup2, ... to repeats, and
// names empty ones after their position; it returns a note when it changed anything.
func uniqueNames(names []string, what string) (string, []string) {
	seen := make(map[string]int, len(names))
	for _, s := range names {
		seen[s] = 0
	}
	count := map[string]int{}
	out := make([]string, len(names))
	var renamed []string
	for i, s := range names {
		s = strings.TrimSpace(s)
		if s == "" {
			s = fmt.Sprintf("%s%d", what, i+1)
		}
		if count[s] > 0 {
			k := count[s]
			cand := fmt.Sprintf("%s_dup%d", s, k)
			for {
				if _, ok := seen[cand]; !ok {
					break
				}
				k++
				cand = fmt.Sprintf("%s_dup%d", s, k)
			}
			count[s] = k + 1
			seen[cand] = 0
			renamed = append(renamed, s)
			out[i] = cand
			continue
		}
		count[s] = 1
		out[i] = s
	}
	if len(renamed) == 0 {
		return "", out
	}
	ex := renamed
	if len(ex) > 3 {
		ex = ex[:3]
	}
	return fmt.Sprintf("%d duplicate %s names renamed with a _dupN suffix (e.g. %s)", len(renamed), what, strings.Join(ex, ", ")), out
}

// ZScored returns a copy of x with every column z-scored (see Standardize).
func ZScored(x *mat.Dense) *mat.Dense {
	z := mat.DenseCopyOf(x)
	Standardize(z)
	return z
}

// Label is feature j's name with its gene symbol when known: "1007_s_at (DDR1)".
func (d *Dataset) Label(j int) string {
	if d.Symbols != nil && d.Symbols[j] != "" && d.Symbols[j] != d.Features[j] {
		return d.Features[j] + " (" + d.Symbols[j] + ")"
	}
	return d.Features[j]
}

// samplesOnly is a copy of d's samples and outcome (names, labels, survival, groups,
// covariates, notes, source, the features left out) without its features.
func (d *Dataset) samplesOnly() *Dataset {
	out := *d
	out.X, out.Features, out.Symbols, out.Counts, out.Raw = nil, nil, nil, nil, nil
	return &out
}
