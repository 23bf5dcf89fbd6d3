// Package study is the core both front ends call: it opens and checks data, checks a
// configuration against the data, runs the study with serialised progress, and saves
// and loads runs. It imports no Fyne, so the command line needs no display.
package study

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/geo"
	"steadfast/compute/synth"
	"steadfast/internal/text"
)

// Open reads the data at path (a file, or a GEO accession: see ReadData) with the read
// options and preprocesses it (see Prepare). What the reader or the preprocessing
// changed or assumed is in the notes.
func Open(path string, read dataset.Options, prep dataset.Prep) (*dataset.Dataset, error) {
	return OpenContext(context.Background(), path, read, prep, nil)
}

// OpenContext is Open with a context and the downloads' progress.
func OpenContext(ctx context.Context, path string, read dataset.Options, prep dataset.Prep, progress geo.Progress) (*dataset.Dataset, error) {
	ds, _, err := OpenPrep(ctx, path, read, prep, progress)
	return ds, err
}

// OpenPrep is OpenContext returning the preprocessing done: prep, with log2 when it
// left log2 unsaid and the data are a MaxQuant table of unlogged intensities
// (dataset.DefaultLog2, whose note joins the data's).
func OpenPrep(ctx context.Context, path string, read dataset.Options, prep dataset.Prep, progress geo.Progress) (*dataset.Dataset, dataset.Prep, error) {
	raw, err := ReadData(ctx, path, read, progress)
	if err != nil {
		return nil, prep, err
	}
	if err := ctx.Err(); err != nil { // a local file is read whole; stop before preparing it
		return nil, prep, err
	}
	raw, prep = DefaultLog2(raw, prep)
	ds, _, err := PrepareContext(ctx, raw, prep)
	return ds, prep, err
}

// DefaultLog2 is raw and prep with dataset.DefaultLog2's choice, its note among raw's
// (raw itself unchanged).
func DefaultLog2(raw *dataset.Dataset, prep dataset.Prep) (*dataset.Dataset, dataset.Prep) {
	prep, note := dataset.DefaultLog2(raw, prep)
	if note != "" {
		cp := *raw
		cp.Notes = append(slices.Clone(raw.Notes), note)
		raw = &cp
	}
	return raw, prep
}

// Prepare returns raw preprocessed as prep says (log2, constant and incomplete features
// dropped), with a note of what was dropped, and the names dropped. It fails when no
// feature is left.
func Prepare(raw *dataset.Dataset, prep dataset.Prep) (*dataset.Dataset, []string, error) {
	return PrepareContext(context.Background(), raw, prep)
}

// PrepareContext is Prepare, stopped with ctx's error when ctx ends first.
func PrepareContext(ctx context.Context, raw *dataset.Dataset, prep dataset.Prep) (*dataset.Dataset, []string, error) {
	if prep.LogCPM {
		counted, err := dataset.CheckCounts(raw)
		if err != nil {
			return nil, nil, err
		}
		raw = counted
	}
	ds, dropped, err := dataset.PreprocessContext(ctx, raw, prep)
	if err != nil {
		return nil, nil, err
	}
	if len(dropped) > 0 {
		ds.Notes = append(slices.Clone(ds.Notes), fmt.Sprintf("%s dropped (constant or incomplete): %s", text.Count(len(dropped), "feature"), listSome(dropped, 5)))
	}
	if sum := dataset.Summarize(raw); !prep.LogCPM && !prep.Log2 {
		switch {
		case sum.Counts:
			ds.Notes = append(slices.Clone(ds.Notes), "every value is a whole number and some are large: this looks like RNA-seq counts, which should be analysed as log-CPM (--log-cpm on the command line, or log-CPM on the Data tab)")
		case sum.Unlogged:
			ds.Notes = append(slices.Clone(ds.Notes), "no value is negative and some exceed 1000: these look like unlogged intensities, where a few bright probes dominate; choose log2 (--log2 on the command line, or Log2 on the Data tab)")
		}
	}
	if _, p := ds.Dims(); p == 0 {
		_, before := raw.Dims()
		return nil, nil, fmt.Errorf("%s: no feature is left after dropping the %d constant or incomplete ones of %d; check that the file holds expression values", raw.Name, len(dropped), before)
	}
	return ds, dropped, nil
}

// Example is the built-in example: the D1k synthetic set with 100 samples, seed 1.
func Example() *dataset.Dataset {
	ds, _ := synth.Generate(synth.D1k, 100, 1, 0)
	ds.Name = "example D1k (synthetic, 100 samples)"
	return ds
}

// Ready checks that ds can be analysed on all its samples (a ranking, groups, MIDS, the
// wrapper): no missing values, two classes or more, and more samples than classes.
func Ready(ds *dataset.Dataset) error {
	if ds.Survival != nil {
		return dataset.ValidateSurvival(ds, 2)
	}
	return dataset.Validate(ds, 1)
}

// classesOnly refuses a survival outcome for what, a tool of classes.
func classesOnly(ds *dataset.Dataset, what string) error {
	if ds.Survival == nil {
		return nil
	}
	return fmt.Errorf("%s needs classes, and the outcome of %s is a survival time; a survival study ranks genes with the Cox score test (Methods)", what, ds.Name)
}

// Plan fills cfg's defaults for ds and checks the two together: the settings' bounds,
// and the data against the protocol (missing values, classes, class sizes, a training
// set without a class).
func Plan(cfg experiment.Config, ds *dataset.Dataset) (experiment.Config, error) {
	n, _ := ds.Dims()
	cfg, err := cfg.ResolvedFor(ds)
	if err != nil {
		return cfg, err
	}
	if err := experiment.CheckData(cfg, ds); err != nil { // names the smallest class and the folds it allows
		return cfg, err
	}
	if cfg.Folds > n {
		return cfg, fmt.Errorf("%d folds asked for but the data have %d samples; choose %d folds or fewer (the Protocol tab's Folds, or the configuration's folds)", cfg.Folds, n, n)
	}
	if err := experiment.CheckTrainingClasses(cfg, ds); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// Fit says whether the protocol of cfg suits the classes of ds before a run: "" when
// it does, else what is wrong, naming the smallest class, and the most folds the data
// allow (0 when none do: a class of one sample). Stratified k-fold CV needs k samples of
// every class; Kalousis's inner folds need them in each outer training set too. A
// survival outcome needs k events (dataset.ValidateSurvival), and its words are of
// events and follow-up, not of classes.
func Fit(cfg experiment.Config, ds *dataset.Dataset) (problem string, most int) {
	cfg, err := cfg.ResolvedFor(ds)
	if err != nil || len(ds.Classes) < 2 {
		return "", 0 // Plan says what is wrong with these
	}
	c, k := dataset.SmallestClass(ds.ClassCounts())
	if ds.Survival != nil {
		k = ds.Survival.Events()
	}
	need := cfg.MinClassSize()
	if k >= need {
		return "", 0
	}
	most = k
	if cfg.Protocol == experiment.Kalousis {
		for most >= 2 && k-(k+most-1)/most < most { // the class (the events) in an outer training set
			most--
		}
	}
	if most < 2 {
		most = 0
	}
	if sv := ds.Survival; sv != nil {
		return fmt.Sprintf("The follow-up has %s in %s: too few for %d-fold CV, which needs an event in every test fold to measure a risk score.",
			text.Count(k, "event"), text.Count(len(sv.Event), "patient"), need), most
	}
	return fmt.Sprintf("The smallest class, %q, has %d samples: too few for %d-fold stratified CV, which puts samples of every class in every fold.",
		ds.Classes[c], k, need), most
}

// Run plans and runs the study of cfg on ds. Progress calls are serialised and come at
// most every 100 ms, the last one always.
func Run(ctx context.Context, cfg experiment.Config, ds *dataset.Dataset, progress func(experiment.Progress)) (*experiment.Result, error) {
	cfg, err := Plan(cfg, ds)
	if err != nil {
		return nil, err
	}
	report, flush := throttled(progress)
	defer flush()
	return experiment.Run(ctx, cfg, ds, report)
}

// throttled wraps progress (nil stays nil) in a Throttle; flush sends its last call.
func throttled(progress func(experiment.Progress)) (report func(experiment.Progress), flush func()) {
	if progress == nil {
		return nil, func() {}
	}
	th := NewThrottle(progress, defaultEvery)
	return th.Report, th.Flush
}

// listSome lists up to max names, then how many more.
func listSome(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}

// PrepareTable is raw preprocessed on all samples as a study preprocesses each
// training set, to write out (steadfast prep, dataset.PreprocessTable): read counts
// checked first when prep says log-CPM.
func PrepareTable(ctx context.Context, raw *dataset.Dataset, prep dataset.Prep) (*dataset.Dataset, error) {
	if prep.LogCPM {
		counted, err := dataset.CheckCounts(raw)
		if err != nil {
			return nil, err
		}
		raw = counted
	}
	return dataset.PreprocessTable(ctx, raw, prep)
}
