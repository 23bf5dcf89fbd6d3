package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// signatureCommand builds a finished run's signature: the genes of a method at k, the
// classifier locked on all samples (model.json), signature.csv, roc.csv and
// metrics.csv, written into a fresh folder that takes OUTDIR's place. Without --method
// and --k it takes the Errors tab's advice for the classifier.
func signatureCommand(c *call) error {
	outDir := c.fs.String("o", "", "output folder (replaced as a whole when everything is written)")
	data := c.fs.String("data", "", "the run's data file (overrides its dataPath)")
	name := c.fs.String("method", "", "the method, by its label or name (default: the advice)")
	k := c.fs.Int("k", 0, "the number of genes, one of the run's accuracy ks (default: the advice)")
	cl := c.fs.String("classifier", "svm", "the classifier, one of the run's: "+strings.Join(experiment.Classifiers, ", "))
	frequent := c.fs.Bool("frequent", false, "the k genes selected most often over the resamples, not the method's selection on all samples")
	positive := c.fs.String("positive", "", "the positive class of two (default: the class not named like a control - normal, control, healthy, benign, wild type, untreated - else the second in alphabetical order)")
	perms := c.fs.Int("permutations", 0, "run a permutation test of the AUC (a survival study's: of Harrell's C) with this many permutations (100 is usual)")
	noNested := c.fs.Bool("no-nested", false, "skip the nested estimate of the advice's choice (the choice made again inside each training set), leaving only the optimistic one")
	withNested := c.fs.Bool("nested", false, "for a --method and --k chosen after seeing this study's results: the nested estimate (the advice made again with the classifier inside each training set) as the headline")
	report := c.fs.Bool("report", false, "also write report.html and report.pdf: the run's report with the Signature section")
	out := sizeFlags(c)
	sv := survivalFlags(c)
	pos, err := c.parse(1)
	if err != nil {
		return err
	}
	sv.timeUnitOf(c, out)
	size, err := out.size()
	if err != nil {
		return err
	}
	if *noNested && *withNested {
		return errors.New("--nested and --no-nested: give one")
	}
	if len(pos) == 0 || *outDir == "" {
		return errors.New("needs a saved run and an output folder: steadfast signature RUN.json -o OUTDIR")
	}
	if *perms < 0 || *perms > study.MaxPermutations {
		return fmt.Errorf("--permutations %d: give 1 to %d", *perms, study.MaxPermutations)
	}
	dest := study.Output{Dir: *outDir, Reads: []study.Input{{What: "saved run", Path: runPath(pos[0])}}, Beside: "signature"}
	if err := dest.Check(); err != nil {
		return err
	}
	saved, err := loadRun(pos[0], "signature")
	if err != nil {
		return err
	}
	if saved.Note != "" {
		c.note("%s", saved.Note)
	}
	res := saved.Result
	if res.Data.Survival != nil {
		sv.report, sv.size = report, size
		return survivalSignature(c, sv, dest, pos[0], res, *name, *k, *frequent, *data, *perms, nestWhen{no: *noNested, given: *withNested})
	}
	if *sv.covariates != "" {
		return errors.New("--covariates: the added value over clinical covariates is measured for a survival signature (a run with a time and an event); this run's outcome is a class")
	}
	choice := signature.Choice{Classifier: *cl, Frequent: *frequent}
	var fromAdvice bool
	if choice.Method, choice.K, fromAdvice, err = methodAndK(res, *name, *k, *cl); err != nil {
		return err
	}
	if fromAdvice {
		c.note("%s at k = %d with %s (the Errors tab's advice: the most stable method of the top group, at the k of least error)", res.Methods[choice.Method].Label, choice.K, experiment.ClassifierLabel(*cl))
	}
	cfg, ds, err := openStudy(c, runPath(pos[0]), *data)
	if err != nil {
		return err
	}
	dest.Reads = append(dest.Reads, study.DataInputs(cfg.DataPath, cfg.Read)...)
	if err := dest.Check(); err != nil {
		return err
	}
	ctx := c.ctx
	sig, err := study.BuildSignature(ctx, res, ds, choice, *positive)
	if err != nil {
		return err
	}
	when := nestWhen{no: *noNested, given: *withNested}
	if when.say(c, res, choice, fromAdvice, sig.Advised) {
		nested(c, res, func(progress func(done, total int)) error { return sig.Nest(ctx, res, ds, progress) })
	}
	if *perms != 0 {
		if sig.Perm, err = permutations(c, res, choice, sig.Advised, *perms, "labels", func(progress func(done, total int)) (*study.Permutations, error) {
			return study.Permute(ctx, res, ds, sig, *perms, res.Config.Seed, progress)
		}); err != nil {
			return err
		}
	}
	files, err := sig.Files()
	if err != nil {
		return err
	}
	figs := plots.SignatureFigures(res, sig)
	var extra func(tmp string) ([]string, error)
	if *report {
		extra = func(tmp string) ([]string, error) {
			return []string{"report.html", "report.pdf"}, writeReport(ctx, tmp, res, sig, size)
		}
	}
	if err := writeOutputs(ctx, c, dest, files, figs, size, extra); err != nil {
		return err
	}
	if sig.Positive >= 0 {
		c.note("%s is the positive class (%s; --positive names another)", sig.Classes[sig.Positive], sig.PositiveWhy)
	}
	c.note("fold changes: %s", sig.Scale.Why)
	if sig.Perm != nil {
		fmt.Fprintf(c.errw, "permutation test: %s\n", sig.Perm.Says())
	}
	fmt.Fprintf(c.errw, "%s. %s\n", text.Count(len(sig.Genes), "gene"), sig.Performance())
	return nil
}

// nestWhen is what the signature command was told of the nested estimate: no, skip it
// (--no-nested); given, compute it for a method and k the user gave (--nested).
type nestWhen struct{ no, given bool }

// say notes where the choice c came from and reports whether to compute the nested
// estimate: for a choice of the study (advised: the advice of one of the run's
// classifiers) unless skipped; for a choice given (not fromAdvice, not the advice's)
// when asked, else the warning that its plain estimate is honest only if fixed before
// the study, with the offer of --nested.
func (w nestWhen) say(c *call, res *experiment.Result, choice signature.Choice, fromAdvice, advised bool) bool {
	label := experiment.ClassifierLabel(choice.Classifier)
	switch {
	case advised && !fromAdvice:
		c.note("--method and --k are this study's advice (chosen on its resamples): the headline is the nested estimate, the advice made again with %s inside each training set", label)
		return !w.no
	case advised:
		return !w.no
	case !study.Choosable(res, choice.Classifier):
		return false
	case w.given:
		c.note("--nested: method and k taken as chosen after seeing this study's results; the headline is the nested estimate, the advice made again with %s inside each training set", label)
		return true
	case w.no:
		c.note("method and k as given: %s", signature.GivenWarning)
	default:
		c.note("method and k as given: %s; --nested gives the nested estimate instead (the advice made again with %s inside each training set)", signature.GivenWarning, label)
	}
	return false
}

// nested runs a signature's nested estimate (nest, given a progress function) saying
// its cost first and its progress by tens of percent; a failure is noted, not fatal
// (the plain estimate remains, called optimistic).
func nested(c *call, res *experiment.Result, nest func(progress func(done, total int)) error) {
	if secs := study.NestedCost(res); secs >= 1 {
		c.note("the nested estimate makes the advice's choice again inside each of the first %d repetitions' training sets: about %s here (--no-nested skips it)", study.NestedRepeats, text.Duration(time.Duration(secs*float64(time.Second))))
	}
	last := -1
	if err := nest(func(done, total int) {
		if pct := 100 * done / total; pct/10 != last/10 {
			fmt.Fprintf(c.errw, "%3d%% (%d/%d inner studies)\n", pct, done, total)
			last = pct
		}
	}); err != nil {
		c.note("no nested estimate: %v", err)
	}
}

// permutations runs a signature's permutation test of n permutations (permute, given
// a progress function), saying its cost first (PermutationCost) and its progress by
// tens of percent with the time left; truth names what is permuted ("labels").
func permutations(c *call, res *experiment.Result, choice signature.Choice, advised bool, n int, truth string, permute func(progress func(done, total int)) (*study.Permutations, error)) (*study.Permutations, error) {
	about := "under a second"
	if secs := study.PermutationCost(res, choice, advised, n); secs >= 1 {
		about = "about " + text.Duration(time.Duration(secs*float64(time.Second)))
	}
	what := "the study"
	if advised {
		what = "every method of the study, the advice choosing again each time,"
	}
	c.note("the permutation test refits %s %s (on the true %s, then on %s): %s here, judging by the run's own timings (Ctrl-C stops it)", what, text.Count(n+1, "time"), truth, text.Count(n, "permutation"), about)
	last, began := -1, time.Now()
	return permute(func(done, total int) {
		if pct := 100 * done / total; pct/10 != last/10 {
			left := ""
			if done < total {
				left = ", about " + text.Duration(time.Since(began)*time.Duration(total-done)/time.Duration(done)) + " left"
			}
			fmt.Fprintf(c.errw, "%3d%% (%d/%d studies: the true %s, then the permutations%s)\n", pct, done, total, truth, left)
			last = pct
		}
	})
}

// runPath is a saved run's file: path itself, or the result.json inside a run's folder.
func runPath(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, "result.json")
	}
	return path
}

// loadRun loads the saved run at path (a result.json or the folder holding it). A
// signature's folder (a model.json, no result.json) is refused with the command that
// gives the run it came from, with the signature's method and k.
func loadRun(path, command string) (*study.Saved, error) {
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "result.json")); err != nil {
			if m, err := signature.ReadModel(filepath.Join(path, "model.json")); err == nil {
				frequent := ""
				if m.Frequent {
					frequent = " --frequent"
				}
				return nil, fmt.Errorf("%s is a signature's folder (model.json), not a run's: give the run it was built from, the folder steadfast run wrote (with result.json), e.g. steadfast %s RUNDIR --method %q --k %d%s ... for the same genes", path, command, m.Method, len(m.Genes), frequent)
			}
			return nil, fmt.Errorf("%s holds no result.json: give a run's folder (as steadfast run wrote it) or its result.json", path)
		}
	}
	return study.LoadRun(runPath(path))
}

// methodAndK are the method named (its label or name) and k given, each taken from the
// Errors tab's advice for classifier cl when not given ("" and 0); advised says the
// advice chose either.
func methodAndK(res *experiment.Result, name string, k int, cl string) (m, kk int, advised bool, err error) {
	m, kk = -1, k
	if name != "" {
		if m = methodIndex(res, name); m < 0 {
			return 0, 0, false, fmt.Errorf("--method %s: not in this run (%s)", name, methodNames(res))
		}
	}
	if m >= 0 && kk != 0 {
		return m, kk, false, nil
	}
	am, ak, ok := signature.Advice(res, cl)
	if !ok {
		return 0, 0, false, fmt.Errorf("the run has no accuracy for the classifier %q to advise from; give --method and --k", cl)
	}
	if m < 0 {
		m = am
	}
	if kk == 0 {
		kk = ak
	}
	return m, kk, true, nil
}

// methodIndex finds a method of res by its label or its name (case ignored); -1 if none.
func methodIndex(res *experiment.Result, name string) int {
	return slices.IndexFunc(res.Methods, func(m experiment.MethodResult) bool {
		return strings.EqualFold(m.Label, name) || strings.EqualFold(m.Spec.Name, name)
	})
}

func methodNames(res *experiment.Result) string {
	var s []string
	for _, m := range res.Methods {
		s = append(s, m.Label)
	}
	return strings.Join(s, ", ")
}
