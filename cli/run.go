package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/study"
	"steadfast/internal/text"
	"steadfast/plots"
)

// runCommand runs a configuration (or a saved run's configuration) and writes
// result.json, every figure in every format and its CSV into a fresh folder that takes
// OUTDIR's place only when everything is written. With --shard I/N it runs only that
// shard's units and writes their raw output, for merge.
func runCommand(c *call) error {
	outDir := c.fs.String("o", "", "output folder (replaced as a whole when the run succeeds)")
	data := c.fs.String("data", "", "data file (overrides the configuration's dataPath)")
	shard := c.fs.String("shard", "", "run only shard I of N (e.g. 2/8) and write its raw output for steadfast merge")
	out := outputFlags(c)
	pos, err := c.parse(1)
	if err != nil {
		return err
	}
	if len(pos) == 0 || *outDir == "" {
		return errors.New("needs a configuration and an output folder: steadfast run CONFIG.json -o OUTDIR")
	}
	size, err := out.size()
	if err != nil {
		return err
	}
	i, n, err := parseShard(*shard)
	if err != nil {
		return err
	}
	beside := "run"
	if n > 0 {
		beside = "shard"
	}
	dest := study.Output{Dir: *outDir, Reads: []study.Input{{What: "configuration", Path: pos[0]}}, Beside: beside}
	if err := dest.Check(); err != nil { // before the work, not after
		return err
	}
	cfg, ds, err := openStudy(c, pos[0], *data)
	if err != nil {
		return err
	}
	dest.Reads = append(dest.Reads, study.DataInputs(cfg.DataPath, cfg.Read)...)
	if err := dest.Check(); err != nil {
		return err
	}
	if n > 0 {
		return runShard(c, cfg, ds, i, n, dest)
	}
	if est, _, err := experiment.Estimate(cfg, ds); err == nil && est.Minutes() > 2 {
		c.note("this study will take about %s on a two-core laptop (Ctrl-C stops it)", text.Duration(est))
	}
	ctx := c.ctx
	pr := newProgressPrinter(c.errw, progressEvery)
	res, err := study.Run(ctx, cfg, ds, pr.report)
	pr.stop() // before anything else writes to standard error
	if err != nil {
		return err
	}
	return writeRun(ctx, c, res, dest, size, *out.report)
}

// runShard runs shard i of n and saves it in dest.
func runShard(c *call, cfg experiment.Config, ds *dataset.Dataset, i, n int, dest study.Output) error {
	ctx := c.ctx
	pr := newProgressPrinter(c.errw, progressEvery)
	sh, err := study.RunShard(ctx, cfg, ds, i, n, pr.report)
	pr.stop()
	if err != nil {
		return err
	}
	if err := study.SaveShard(ctx, dest, sh); err != nil {
		return err
	}
	fmt.Fprintln(c.out, filepath.Join(dest.Dir, study.ShardFile))
	return nil
}

// parseShard reads --shard I/N; 0, 0 when it is not given.
func parseShard(s string) (i, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("--shard %q: give I/N with 1 <= I <= N, e.g. --shard 2/8", s)
	}
	return i, n, nil
}

// openStudy loads the configuration at cfgPath, opens its data (data, when given,
// instead of its dataPath) and checks the two together. dataPath, symbolsPath and
// clsPath follow one rule: a relative path is taken as given when it exists, else
// relative to the configuration's folder. The returned configuration names these files
// by absolute path, so a saved run finds them from anywhere.
func openStudy(c *call, cfgPath, data string) (experiment.Config, *dataset.Dataset, error) {
	cfg, err := study.LoadConfig(cfgPath)
	if err != nil {
		return cfg, nil, err
	}
	if data != "" {
		cfg.DataPath = data
	} else if cfg.DataPath == "" {
		return cfg, nil, fmt.Errorf("%s names no data file (dataPath); add --data FILE", filepath.Base(cfgPath))
	} else if !study.IsAccession(cfg.DataPath) {
		cfg.DataPath = absIfExists(cfg.DataPath, filepath.Dir(cfgPath))
	}
	for _, p := range []*string{&cfg.Read.SymbolsPath, &cfg.Read.CLSPath} {
		if *p != "" {
			*p = absIfExists(*p, filepath.Dir(cfgPath))
		}
	}
	ds, err := c.openData(&cfg)
	if err != nil {
		if _, missing := os.Stat(cfg.DataPath); data == "" && missing != nil && !study.IsAccession(cfg.DataPath) {
			return cfg, nil, fmt.Errorf("%v; if the data moved, give the file with --data FILE", err)
		}
		return cfg, nil, err
	}
	for _, p := range []*string{&cfg.DataPath, &cfg.Read.SymbolsPath, &cfg.Read.CLSPath} {
		if abs, err := filepath.Abs(*p); err == nil && *p != "" && !study.IsAccession(*p) {
			*p = abs
		}
	}
	if _, err := study.Plan(cfg, ds); err != nil {
		return cfg, nil, err
	}
	afterRead()
	return cfg, ds, nil
}

// afterRead is called when a study's data are read and checked (a test's hook).
var afterRead = func() {}

// openData opens cfg's data (a file or a GEO accession), noting what the reader
// assumed, warning when GEO's files changed since cfg recorded them, and recording them
// in cfg.
func (c *call) openData(cfg *experiment.Config) (*dataset.Dataset, error) {
	ctx := c.ctx
	ds, prep, err := study.OpenPrep(ctx, cfg.DataPath, cfg.ReadOptions(), cfg.Prep, c.downloadProgress())
	if err != nil {
		return nil, err
	}
	cfg.Prep = prep // the log2 taken for a MaxQuant table is the run's
	for _, n := range ds.Notes {
		c.note("%s", n)
	}
	for _, w := range study.SourceChanges(cfg.Source, ds.Source) {
		fmt.Fprintf(c.errw, "steadfast %s: warning: %s\n", c.cmd.name, w)
	}
	cfg.Source = ds.Source
	return ds, nil
}

// outputs are the flags of a run's written output: figure size and the report.
type outputs struct {
	width, height *float64
	unit          *string
	dpi           *int
	report        *bool
}

func outputFlags(c *call) outputs {
	o := sizeFlags(c)
	o.report = c.fs.Bool("report", false, "also write report.html and report.pdf: data, configuration, every figure and table, and a methods paragraph with references")
	return o
}

// sizeFlags are the flags of the figures' size alone (a command without a report).
func sizeFlags(c *call) outputs {
	return outputs{
		width:  c.fs.Float64("width", 16, "figure width"),
		height: c.fs.Float64("height", 10, "figure height"),
		unit:   c.fs.String("unit", "cm", "unit of width and height: cm, mm or in"),
		dpi:    c.fs.Int("dpi", 300, "PNG resolution"),
	}
}

func (o outputs) size() (plots.ExportOptions, error) {
	return exportSize(*o.width, *o.height, *o.unit, *o.dpi)
}

// writeRun writes res into a fresh folder put in dest's place: result.json, every
// figure in every format with its CSV, the tables, and the report when asked; then it
// lists the files on standard output.
func writeRun(ctx context.Context, c *call, res *experiment.Result, dest study.Output, size plots.ExportOptions, report bool) error {
	outDir := dest.Dir
	for _, m := range res.Methods {
		if m.Unconverged > 0 {
			c.note("%s: %d model fits (linear SVM or L1-logistic) stopped at their iteration cap before meeting the tolerance; its ranking may depend on solver precision (for an SVM raise maxIter in the method's params, e.g. \"maxIter\": 10000)", m.Label, m.Unconverged)
		}
		if note := m.FewGroupsNote(); note != "" {
			c.note("%s", note)
		}
	}
	var written []string
	err := study.WriteFolder(ctx, dest, func(tmp string) error {
		if err := study.SaveRun(filepath.Join(tmp, "result.json"), res, nil); err != nil {
			return err
		}
		for _, f := range append(plots.All(res), tables(res)...) {
			beforeFigure()
			if err := ctx.Err(); err != nil {
				return err
			}
			formats := plots.Formats
			if f.Build == nil {
				formats = nil
			}
			paths, err := plots.Export(f, tmp, formats, size)
			if err != nil {
				return err
			}
			if _, n := f.SizeFor(size); n != "" && f.Build != nil {
				c.note("%s", n)
			}
			written = append(written, within(tmp, outDir, paths)...)
		}
		if report && ctx.Err() == nil {
			if err := writeReport(ctx, tmp, res, nil, size); err != nil {
				return err
			}
			written = append(written, filepath.Join(outDir, "report.html"), filepath.Join(outDir, "report.pdf"))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range written {
		fmt.Fprintln(c.out, p)
	}
	if tests := experiment.StabilityTests(res); tests != "" {
		fmt.Fprintln(c.errw, tests)
	}
	return nil
}

// beforeFigure is called before each figure a run writes (a test's hook).
var beforeFigure = func() {}

// writeReport writes report.html and report.pdf into dir, with the Signature section of
// sig when it is not nil.
func writeReport(ctx context.Context, dir string, res *experiment.Result, sig *study.Signature, size plots.ExportOptions) error {
	var b bytes.Buffer
	if err := plots.ReportWith(ctx, &b, res, sig, size); err != nil {
		return err
	}
	if err := study.WriteFile(filepath.Join(dir, "report.html"), b.Bytes()); err != nil {
		return err
	}
	b.Reset()
	if err := plots.ReportPDFWith(ctx, &b, res, sig); err != nil {
		return err
	}
	return study.WriteFile(filepath.Join(dir, "report.pdf"), b.Bytes())
}

// within returns paths written under tmp as they are once tmp is renamed to dir.
func within(tmp, dir string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		rel, err := filepath.Rel(tmp, p)
		if err != nil {
			rel = filepath.Base(p)
		}
		out[i] = filepath.Join(dir, rel)
	}
	return out
}

// tables are the result's tables without a chart: the top features of every method,
// every catalogue stability measure against k, with two or more methods the error
// table of every classifier, and the features left out or ranked last (left-out.csv).
func tables(res *experiment.Result) []plots.Figure {
	var out []plots.Figure
	for i := range res.Methods {
		out = append(out, plots.TopTable(res, i))
	}
	out = append(out, plots.CatalogueTables(res)...)
	if len(res.Methods) > 1 {
		for _, cl := range res.Config.Classifiers {
			out = append(out, plots.ErrorTable(res, cl))
		}
	}
	if t := plots.StabilityTestTable(res); len(t.Table) > 1 {
		out = append(out, t)
	}
	if t, ok := plots.ResultLeftOut(res); ok {
		out = append(out, t)
	}
	return out
}

// exportSize checks and converts the figure size flags.
func exportSize(width, height float64, unit string, dpi int) (plots.ExportOptions, error) {
	o, err := plots.NewExportOptions(width, height, unit, dpi)
	if err != nil {
		return o, fmt.Errorf("--width, --height, --unit, --dpi: %v", err)
	}
	return o, nil
}

// exportFigures writes figs into a fresh folder put in dest's place, at 16 x 10 cm (PNG
// at 300 dpi) in every format with their CSVs, and lists the files on standard error.
func exportFigures(ctx context.Context, c *call, dest study.Output, figs ...plots.Figure) error {
	size, _ := exportSize(16, 10, "cm", 300)
	var written []string
	dir := dest.Dir
	err := study.WriteFolder(ctx, dest, func(tmp string) error {
		for _, f := range figs {
			if err := ctx.Err(); err != nil {
				return err
			}
			paths, err := plots.Export(f, tmp, plots.Formats, size)
			if err != nil {
				return err
			}
			if _, n := f.SizeFor(size); n != "" {
				c.note("%s", n)
			}
			written = append(written, within(tmp, dir, paths)...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range written {
		fmt.Fprintln(c.errw, p)
	}
	return nil
}
