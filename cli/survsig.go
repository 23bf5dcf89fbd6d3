package cli

import (
	"fmt"
	"strconv"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// survFlags are the signature command's flags for a survival study.
type survFlags struct {
	horizons, groups, unit *string
	covariates             *string
	tau                    *float64
	report                 *bool // the signature command's --report
	size                   plots.ExportOptions
}

func survivalFlags(c *call) survFlags {
	return survFlags{
		horizons:   c.fs.String("horizons", "", "a survival signature's horizons, in the data's time unit, e.g. 3,5: the time-dependent AUCs and the calibration (default: the median follow-up)"),
		tau:        c.fs.Float64("tau", 0, "a survival signature's truncation time of Uno's C (default: the last horizon)"),
		unit:       c.fs.String("time-unit", "", "a survival signature's time unit for labels, e.g. years"),
		groups:     c.fs.String("risk-groups", "median", "a survival signature's risk groups: median (two), tertiles (three), or a risk-score value"),
		covariates: c.fs.String("covariates", "", "a survival signature's clinical covariates for its added value, e.g. Age,Grade,ER: Cox models of them alone and with the cross-validated risk score, the likelihood-ratio test, the change in C (default or auto: all the data's covariates, when it has some; none: skip)"),
	}
}

// timeUnitOf takes a --unit that is no length (cm, mm, in) as the survival time's
// unit, with a note: before --time-unit, --unit named it ("--unit years").
func (f survFlags) timeUnitOf(c *call, o outputs) {
	u := strings.TrimSpace(*o.unit)
	if _, err := plots.Length(1, u); err == nil || u == "" || *f.unit != "" {
		return
	}
	*f.unit, *o.unit = u, "cm"
	c.note("--unit %s is no figure unit (cm, mm or in): taken as the survival time's unit, as --time-unit %s; the figures' sizes are in cm", u, u)
}

// options reads the survival flags.
func (f survFlags) options() (study.SurvivalOptions, signature.CutRule, error) {
	o := study.SurvivalOptions{Tau: *f.tau, Unit: strings.TrimSpace(*f.unit)}
	for _, part := range strings.Split(*f.horizons, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		h, err := strconv.ParseFloat(part, 64)
		if err != nil || !(h > 0) {
			return o, signature.CutRule{}, fmt.Errorf("--horizons %q: give positive times separated by commas, e.g. 3,5", *f.horizons)
		}
		o.Horizons = append(o.Horizons, h)
	}
	cut := signature.CutRule{Kind: strings.TrimSpace(*f.groups)}
	if v, err := strconv.ParseFloat(cut.Kind, 64); err == nil {
		cut = signature.CutRule{Kind: "value", Value: v}
	}
	return o, cut, cut.Check()
}

// survivalSignature is the signature command for a survival study: the Cox model of a
// method's genes at k, locked on all samples, with its cross-validated C, risk groups,
// hazard ratio, time-dependent AUC and calibration; the nested C when the study chose
// method and k, or when asked of a choice given (when), and the permutation test of C
// with perms permutations (0: none).
func survivalSignature(c *call, f survFlags, dest study.Output, run string, res *experiment.Result, name string, k int, frequent bool, data string, perms int, when nestWhen) error {
	o, cut, err := f.options()
	if err != nil {
		return err
	}
	choice := signature.Choice{Classifier: "cox", Frequent: frequent, Cut: cut}
	var fromAdvice bool
	if choice.Method, choice.K, fromAdvice, err = methodAndK(res, name, k, "cox"); err != nil {
		return err
	}
	if fromAdvice {
		c.note("%s at k = %d with the Cox model (the Errors tab's advice: the most stable method of the top group, at the k of largest C)", res.Methods[choice.Method].Label, choice.K)
	}
	cfg, ds, err := openStudy(c, runPath(run), data)
	if err != nil {
		return err
	}
	dest.Reads = append(dest.Reads, study.DataInputs(cfg.DataPath, cfg.Read)...)
	if err := dest.Check(); err != nil {
		return err
	}
	ctx := c.ctx
	sig, err := study.BuildSurvivalSignature(ctx, res, ds, choice, o)
	if err != nil {
		return err
	}
	if when.say(c, res, sig.Choice, fromAdvice, sig.Advised) {
		nested(c, res, func(progress func(done, total int)) error { return sig.Nest(ctx, res, ds, progress) })
	}
	if perms != 0 {
		if sig.Perm, err = permutations(c, res, sig.Choice, sig.Advised, perms, "outcome", func(progress func(done, total int)) (*study.Permutations, error) {
			return study.PermuteSurvival(ctx, res, ds, sig, perms, res.Config.Seed, progress)
		}); err != nil {
			return err
		}
	}
	files, err := sig.Files()
	if err != nil {
		return err
	}
	figs := plots.SurvivalSignatureFigures(res, sig)
	av, err := addedValue(c, f, sig, ds)
	if err != nil {
		return err
	}
	if av != nil {
		for name, b := range av.Files() {
			files[name] = b
		}
		figs = append(figs, plots.AddedValueForest(res.Data.Name, av))
	}
	var extra func(tmp string) ([]string, error)
	if f.report != nil && *f.report {
		extra = func(tmp string) ([]string, error) {
			return []string{"report.html", "report.pdf"}, plots.WriteSurvivalReport(c.ctx, tmp, res, sig, nil, f.size)
		}
	}
	if err := writeOutputs(ctx, c, dest, files, figs, f.size, extra); err != nil {
		return err
	}
	if len(o.Horizons) == 0 {
		c.note("horizon: %s, %s (--horizons names others)", sig.Opts.HorizonRule, strconv.FormatFloat(sig.Opts.Horizons[0], 'g', 4, 64))
	}
	fmt.Fprintf(c.errw, "%s. %s\n", text.Count(len(sig.Genes), "gene"), sig.Performance()) // the permutation test last
	if av != nil {
		fmt.Fprintln(c.errw, av.Sentence())
	}
	return nil
}

// addedValue is the signature's added value over the covariates --covariates names:
// nil for none; by default (or auto) over all the data's covariates when it has some,
// a failure then a note rather than an error.
func addedValue(c *call, f survFlags, sig *study.SurvivalSignature, ds *dataset.Dataset) (*study.AddedValue, error) {
	list := strings.TrimSpace(*f.covariates)
	if strings.EqualFold(list, "none") || list == "" && len(ds.Covariates) == 0 {
		return nil, nil
	}
	av, err := sig.AddedValue(ds, splitList(list))
	if err != nil && list == "" {
		c.note("the added value over the data's clinical covariates (%s) could not be measured: %v; name the covariates with --covariates", strings.Join(ds.CovariateNames(), ", "), err)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--covariates: %w", err)
	}
	for _, n := range av.Notes {
		c.note("%s", n)
	}
	if d := av.Dropped(); d != "" {
		c.note("%s", d)
	}
	return av, nil
}
