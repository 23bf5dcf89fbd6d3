package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/signature"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// classMap collects --map FROM=TO flags (also comma-separated).
type classMap map[string]string

func (m classMap) String() string { return fmt.Sprint(map[string]string(m)) }

func (m classMap) Set(s string) error {
	for _, pair := range strings.Split(s, ",") {
		from, to, ok := strings.Cut(pair, "=")
		if !ok || strings.TrimSpace(from) == "" || strings.TrimSpace(to) == "" {
			return fmt.Errorf("--map %q: give COHORT_CLASS=MODEL_CLASS, for example --map \"tumour=tumor\"", pair)
		}
		m[strings.TrimSpace(from)] = strings.TrimSpace(to)
	}
	return nil
}

// predictCommand applies a locked model to an independent cohort: predictions.csv on
// standard output, or with -o the predictions, the genes' matching, the metrics and the
// figures in a fresh folder.
func predictCommand(c *call) error {
	model := c.fs.String("model", "", "the model file a signature wrote (model.json)")
	data := c.fs.String("data", "", "the cohort's data file (any format Steadfast reads), or a GEO accession")
	class := c.fs.String("class", "", "the cohort's class column, row or GEO characteristic (default: one named like a class, else none: predictions only)")
	sheet := c.fs.String("sheet", "", "the sheet of an Excel workbook (default: the first)")
	symbols := c.fs.String("symbols", "", "the cohort's probe-to-gene-symbol annotation, to match genes by symbol across platforms")
	platform := c.fs.String("platform", "", "the platform of a GEO series on several, when the cohort is an accession")
	design := c.fs.String("design", "", "a design table giving the cohort's classes: a column naming its samples, and a condition column")
	intensity := c.fs.String("intensity", "", "a MaxQuant proteinGroups.txt cohort's intensities: lfq, intensity or ibaq (default: LFQ when present)")
	log2 := c.fs.Bool("log2", false, "log2 the cohort first (a model trained on logged values, a cohort of unlogged intensities)")
	std := c.fs.Bool("standardize", false, "the same as --harmonize standardize")
	harm := c.fs.String("harmonize", "none", "put the cohort on the training scale first: "+strings.Join(signature.Harmonizations, ", ")+" (ComBat with the training data as the reference batch; never with the cohort's classes)")
	accept := c.fs.Bool("accept-missing", false, "predict although some signature genes are not in the cohort (linear: their terms at the training mean; k-NN: distances on the genes present)")
	positive := c.fs.String("positive", "", "the positive class of two (default: the signature's)")
	timeCol := c.fs.String("time", "", "a survival signature's cohort: its time column (with --event; time and event, or OS.time and OS, are found without it)")
	eventCol := c.fs.String("event", "", "a survival signature's cohort: its event column (1 event, 0 censored)")
	mapping := classMap{}
	c.fs.Var(mapping, "map", "cohort class = model class, for names that differ (repeatable, or comma-separated)")
	outDir := c.fs.String("o", "", "output folder (replaced as a whole when everything is written); without it predictions.csv goes to standard output")
	out := sizeFlags(c)
	if _, err := c.parse(0); err != nil {
		return err
	}
	size, err := out.size()
	if err != nil {
		return err
	}
	if *model == "" || *data == "" {
		return errors.New("needs a model and a cohort: steadfast predict --model model.json --data COHORT [-o DIR]")
	}
	dest := study.Output{Dir: *outDir, Beside: "cohort",
		Reads: append([]study.Input{{What: "model", Path: *model}, {What: "cohort's data file", Path: *data}}, study.Input{What: "cohort's annotation file", Path: *symbols}, study.Input{What: "cohort's design table", Path: *design})}
	if *outDir != "" {
		if err := dest.Check(); err != nil {
			return err
		}
	}
	m, err := signature.ReadModel(*model)
	if err != nil {
		return err
	}
	o := study.CohortOptions{Read: dataset.Options{ClassName: *class, Sheet: *sheet, SymbolsPath: *symbols, Platform: *platform, DesignPath: *design, Intensity: *intensity,
		Outcome: dataset.Outcome{Time: *timeCol, Event: *eventCol}}, Log2: *log2,
		Apply: signature.ApplyOptions{Harmonize: *harm, AcceptMissing: *accept, Map: mapping, Positive: *positive}}
	if *std {
		if *harm != "none" && *harm != "standardize" {
			return fmt.Errorf("--standardize and --harmonize %s: give one", *harm)
		}
		o.Apply.Harmonize = "standardize"
	}
	ctx := c.ctx
	v, err := study.Validate(ctx, m, *data, o)
	if err != nil {
		return err
	}
	for _, n := range v.Notes {
		if w, ok := strings.CutPrefix(n, "warning: "); ok {
			fmt.Fprintf(c.errw, "steadfast predict: warning: %s\n", w)
			continue
		}
		c.note("%s", n)
	}
	if len(v.Samples) == 0 {
		return fmt.Errorf("%s: no sample could be predicted (each lacks a value of a signature gene)", filepath.Base(*data))
	}
	files := study.ValidationFiles(v)
	if *outDir == "" {
		_, err := c.out.Write(files["predictions.csv"])
		summarize(c, v)
		return err
	}
	if err := writeOutputs(ctx, c, dest, files, plots.ValidationFigures(v), size, nil); err != nil {
		return err
	}
	summarize(c, v)
	return nil
}

// summarize says on standard error what was predicted and how well.
func summarize(c *call, v *signature.Validation) {
	fmt.Fprintf(c.errw, "%d of %s found; %s predicted", v.Found(), text.Count(len(v.Model.Genes), "signature gene"), text.Count(len(v.Samples), "sample"))
	if cox := v.Model.Cox; cox != nil {
		if v.Survival == nil {
			fmt.Fprintln(c.errw, "; the cohort has no survival outcome (or no event): risk scores only")
			return
		}
		fmt.Fprintf(c.errw, ". %s\n", v.SurvivalText(cox.Unit))
		return
	}
	mt := v.Metrics
	if mt == nil {
		fmt.Fprintln(c.errw, "; no sample has a class the model knows: predictions only")
		return
	}
	fmt.Fprintf(c.errw, "; on the %d with a class the model knows: %s", mt.N, v.Measures())
	fmt.Fprintln(c.errw)
}
