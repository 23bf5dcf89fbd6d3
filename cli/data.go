package cli

import (
	"flag"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/study"
)

// dataFlags are the flags of the commands that analyse one data file.
type dataFlags struct {
	path, class, sheet  *string
	symbols, platform   *string
	design, intensity   *string
	impute, normalize   *string
	minValid            *float64
	time, event         *string
	covariates, asFeat  *string
	log2, drop, keepAll *bool
	logCPM              *bool
	fs                  *flag.FlagSet // to tell whether --log2 or --log-cpm was given
}

func (c *call) dataFlags() dataFlags {
	return dataFlags{
		fs:         c.fs,
		path:       c.fs.String("data", "", "data file (CSV, TSV, XLSX, GCT with its CLS, ARFF, GEO series matrix; gzipped or not), or a GEO accession (GSE2034, GDS507), downloaded once and then read from the cache"),
		class:      c.fs.String("class", "", "the class: a column or row name, or a GEO characteristics key such as tissue"),
		time:       c.fs.String("time", "", "a survival outcome's time column (with --event): the time to the event or the last follow-up; columns named time and event, or OS.time and OS, are found without it"),
		event:      c.fs.String("event", "", "a survival outcome's event column (with --time): 1 the event happened, 0 censored (TRUE/FALSE, dead/alive, deceased/living and died/censored are read too, with a note)"),
		covariates: c.fs.String("covariates", "", "columns to read as clinical covariates (sample annotations, not features), comma-separated, besides those named like age, sex, grade, stage, size, nodes, ER, PR, HER2, IPI..."),
		asFeat:     c.fs.String("as-feature", "", "columns named like a clinical covariate (Age, Grade...) to analyse as features all the same, comma-separated"),
		sheet:      c.fs.String("sheet", "", "the sheet of an Excel workbook (default: the first)"),
		symbols:    c.fs.String("symbols", "", "probe-to-gene-symbol annotation: two columns, or a GEO platform table (ID, Gene Symbol)"),
		platform:   c.fs.String("platform", "", "the platform of a GEO series on several (--data GSE781 --platform GPL96)"),
		log2:       c.fs.Bool("log2", false, "log2 the values first (values below 1 raised to 1, and counted in a note; negative values refused); a MaxQuant table's unlogged intensities are logged without it (--log2=false keeps them as they are)"),
		logCPM:     c.fs.Bool("log-cpm", false, "RNA-seq read counts, normalised as edgeR does inside every training set: filterByExpr, TMM factors, log2 counts per million with a prior count of 2 (a locked model keeps the reference)"),
		drop:       c.fs.Bool("drop-missing", false, "drop the features with missing values instead of imputing them"),
		keepAll:    c.fs.Bool("keep-constant", false, "keep constant features (they are dropped by default)"),
		design:     c.fs.String("design", "", "design table giving the samples' classes: a column naming the samples as the data do (MaxQuant's intensity columns), and a condition column (--class names another)"),
		intensity:  c.fs.String("intensity", "", "a MaxQuant proteinGroups.txt's intensities: lfq, intensity or ibaq (default: LFQ intensity when the file has it, else Intensity)"),
		impute:     c.fs.String("impute", "", "missing values, imputed inside every training set: minprob (Perseus: a normal 1.8 SD below each sample's mean, 0.3 SD wide; the default for MaxQuant tables), knn (impute.knn, k = 10; the default for any other table), halfmin (half the least value) or none"),
		normalize:  c.fs.String("normalize", "", "intensities normalised inside every training set: none (default), median, quantile (preprocessCore's) or sum (to the sample sum, unlogged values)"),
		minValid:   c.fs.Float64("min-valid", 0, "valid-value filter: keep a protein measured in at least this share of the samples of one class (default 0.7)"),
	}
}

// options and prep are the reading options and preprocessing the flags ask for.
func (d dataFlags) options() dataset.Options {
	return dataset.Options{ClassName: *d.class, Sheet: *d.sheet, SymbolsPath: *d.symbols, Platform: *d.platform, DesignPath: *d.design, Intensity: *d.intensity,
		Outcome: dataset.Outcome{Time: *d.time, Event: *d.event}, Covariates: splitList(*d.covariates), AsFeatures: splitList(*d.asFeat)}
}

func (d dataFlags) prep() dataset.Prep {
	said := false
	d.fs.Visit(func(f *flag.Flag) { said = said || f.Name == "log2" || f.Name == "log-cpm" })
	return dataset.Prep{DropConstant: !*d.keepAll, DropMissing: *d.drop, Log2: *d.log2, LogCPM: *d.logCPM, TMM: *d.logCPM,
		Impute: *d.impute, Normalize: *d.normalize, MinValid: *d.minValid, Log2Unsaid: !said}
}

// load opens the data file, reports its notes, checks it can be analysed on all
// samples, and returns it with a z-scored copy of its matrix (nil unless zscore).
func (d dataFlags) load(c *call, zscore bool) (*dataset.Dataset, *mat.Dense, error) {
	if *d.path == "" {
		return nil, nil, fmt.Errorf("needs --data FILE")
	}
	ctx := c.ctx
	ds, err := study.OpenContext(ctx, *d.path, d.options(), d.prep(), c.downloadProgress())
	if err != nil {
		return nil, nil, err
	}
	for _, n := range ds.Notes {
		c.note("%s", n)
	}
	if err := study.Ready(ds); err != nil {
		return nil, nil, err
	}
	if !zscore {
		return ds, nil, nil
	}
	return ds, dataset.ZScored(ds.X), nil
}

// inputs are the files the data flags name.
func (d dataFlags) inputs() []study.Input {
	return study.DataInputs(*d.path, dataset.Options{SymbolsPath: *d.symbols, DesignPath: *d.design})
}

// splitList is a comma-separated list's items, trimmed, without empty ones (nil for none).
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
