package app

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/group"
	"steadfast/compute/method"
	"steadfast/compute/score"
	"steadfast/compute/synth"
	"steadfast/plots"
	"steadfast/widgets"
)

// Exit statuses of the headless commands.
const (
	exitOK       = 0
	exitBadInput = 2
)

// Main runs the command line: a subcommand runs headless, anything else opens the window.
func Main(args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "run":
			return headless(runCommand, args[1:], os.Stdout, os.Stderr)
		case "rank":
			return headless(rankCommand, args[1:], os.Stdout, os.Stderr)
		case "synth":
			return headless(synthCommand, args[1:], os.Stdout, os.Stderr)
		case "groups":
			return headless(groupsCommand, args[1:], os.Stdout, os.Stderr)
		case "mids":
			return headless(midsCommand, args[1:], os.Stdout, os.Stderr)
		case "wrapper":
			return headless(wrapperCommand, args[1:], os.Stdout, os.Stderr)
		case "samplesize":
			return headless(sampleSizeCommand, args[1:], os.Stdout, os.Stderr)
		case "help", "-h", "--help":
			fmt.Fprint(os.Stdout, usage)
			return exitOK
		}
	}
	file := ""
	if len(args) > 0 {
		file = args[0]
	}
	RunWindow(file)
	return exitOK
}

const usage = `Steadfast: stable biomarker discovery.

  steadfast [FILE]                                  open the window (with FILE, or the built-in example)
  steadfast run CONFIG.json -o OUTDIR [--width 16 --height 10 --unit cm --dpi 300] [--data FILE]
                                                    run a saved configuration (or saved run) headless
  steadfast rank --data FILE --method NAME [--param key=value ...] [--seed N] [--no-zscore]
                                                    rank features on all samples: rank<TAB>feature<TAB>score
  steadfast groups --data FILE --method dgf|drags|cgs|kmeans [--K 5] [--t 10] [--clusters N] [--seed S]
                                                    groups best first: rank, representative, size, relevance, members
  steadfast mids --data FILE [--epsilon 0.6]         the MIDS of the correlation graph: its size, then one feature
                                                    per line (the greedy independent set's size goes to stderr)
  steadfast wrapper --data FILE [--ne 1] [--na 0.2,0.4,1] [--nae 100] [--k2] [--seed S] [-o DIR]
                                                    Diaz-Diaz wrapper: learning-curve AUC for each Na (% of p), the
                                                    exhaustive K = 1 (and with --k2, K = 2) baselines, Fig. 4 in DIR
  steadfast synth --preset d1k|d5k [--features P] --samples N --seed S -o FILE.csv
                                                    write a synthetic data set (SPEC section 8)
  steadfast samplesize --preset d1k|d5k [--sizes 100,200,500,1000] [--k 10] [--test 500]
                       --methods svmrfe,cgs,... [--seed S] [-o DIR]
                                                    sample-size study on synthetic data (CGS Fig. 3, MIDS Fig. 2):
                                                    precision, Sim_ID and test accuracy of the top k per size
`

// headless runs cmd and turns its error into a one-line reason and exit status 2.
func headless(cmd func(args []string, out io.Writer) error, args []string, out, errw io.Writer) int {
	if err := cmd(args, out); err != nil {
		fmt.Fprintln(errw, "steadfast:", strings.ReplaceAll(err.Error(), "\n", " "))
		return exitBadInput
	}
	return exitOK
}

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// paramFlag collects repeated --param key=value flags.
type paramFlag map[string]float64

func (p paramFlag) String() string { return fmt.Sprint(map[string]float64(p)) }

func (p paramFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if !ok || err != nil {
		return fmt.Errorf("--param %q: want key=number", s)
	}
	p[strings.TrimSpace(k)] = f
	return nil
}

// dataFlags are the flags of the commands that analyse one data file.
type dataFlags struct {
	path *string
	log2 *bool
}

func addDataFlags(fs *flag.FlagSet) dataFlags {
	return dataFlags{
		path: fs.String("data", "", "data file"),
		log2: fs.Bool("log2", false, "log2 the values first (values below 1 raised to 1)"),
	}
}

// load reads the data file with constant features dropped, and a z-scored copy of its
// matrix (nil when zscore is false).
func (d dataFlags) load(cmd string, zscore bool) (*dataset.Dataset, *mat.Dense, error) {
	if *d.path == "" {
		return nil, nil, fmt.Errorf("%s needs --data FILE", cmd)
	}
	ds, err := loadData(*d.path, dataset.Options{}, dataset.Prep{DropConstant: true, Log2: *d.log2})
	if err != nil {
		return nil, nil, err
	}
	if !zscore {
		return ds, nil, nil
	}
	return ds, zscored(ds), nil
}

// interruptible returns a context cancelled by Ctrl-C.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func rankCommand(args []string, out io.Writer) error {
	fs := newFlags("rank")
	data := addDataFlags(fs)
	name := fs.String("method", "fstat", "method: "+method.Names())
	seed := fs.Uint64("seed", 1, "random seed")
	noZ := fs.Bool("no-zscore", false, "do not z-score the features")
	params := paramFlag{}
	fs.Var(params, "param", "a method parameter as key=value (repeatable), e.g. --param C=0.5")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ds, x, err := data.load("rank", !*noZ)
	if err != nil {
		return err
	}
	if x == nil {
		x = ds.X
	}
	ranker, err := method.New(method.Spec{Name: *name, Params: params})
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	rk, err := ranker.Rank(ctx, x, ds.Labels, len(ds.Classes), dataset.Rand(*seed, 100))
	if err != nil {
		return err
	}
	w := newTSV(out)
	for pos, j := range rk.Order {
		fmt.Fprintf(w, "%d\t%s\t%.10g\n", pos+1, ds.Features[j], rk.Score[j])
	}
	return w.Flush()
}

// groupsCommand prints the groups of one method on all samples, best first:
// rank, representative, size, relevance, members (comma-separated).
func groupsCommand(args []string, out io.Writer) error {
	fs := newFlags("groups")
	data := addDataFlags(fs)
	name := fs.String("method", "drags", "dgf, drags, cgs or kmeans")
	K := fs.Int("K", 5, "neighbours for the DGF bandwidth (2..25)")
	t := fs.Int("t", 10, "CGS bootstraps")
	clusters := fs.Int("clusters", 50, "k-means clusters")
	seed := fs.Uint64("seed", 1, "random seed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *K < 2 || *K > 25 || *t < 1 || *clusters < 1 {
		return errors.New("--K must be 2..25, --t and --clusters at least 1")
	}
	ds, x, err := data.load("groups", true)
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	var groups []group.Group
	r := dataset.Rand(*seed, 100)
	dgf := group.DGFParams{K: *K}
	start := time.Now()
	switch *name {
	case "dgf": // DGF's groups, densest first, with DRAGS's relevance and representatives
		groups, err = group.DRAGS{DGF: dgf}.Groups(ctx, x, ds.Labels, len(ds.Classes))
		sort.SliceStable(groups, func(a, b int) bool { return groups[a].Density > groups[b].Density })
	case "drags":
		d := dgf
		d.Eliminate = true // as in the DRAGS paper's runs
		groups, err = group.DRAGS{DGF: d}.Groups(ctx, x, ds.Labels, len(ds.Classes))
	case "cgs":
		groups, err = group.CGS{DGF: dgf, Bootstraps: *t}.Groups(ctx, x, ds.Labels, len(ds.Classes), r)
	case "kmeans":
		groups, err = group.KMeans{Clusters: *clusters, Restarts: 50}.Groups(ctx, x, ds.Labels, len(ds.Classes), r)
	default:
		return fmt.Errorf("unknown group method %q (dgf, drags, cgs or kmeans)", *name)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d groups computed in %.2f s (after reading the file)\n", len(groups), time.Since(start).Seconds())
	w := newTSV(out)
	for i, g := range groups {
		names := make([]string, len(g.Members))
		for m, j := range g.Members {
			names[m] = ds.Features[j]
		}
		fmt.Fprintf(w, "%d\t%s\t%d\t%.6g\t%s\n", i+1, ds.Features[g.Representative], len(g.Members), g.Relevance, strings.Join(names, ","))
	}
	return w.Flush()
}

// midsCommand prints the size of the MIDS of the correlation graph at epsilon, then its
// features one per line; the sizes of the graph and of the greedy set go to stderr.
func midsCommand(args []string, out io.Writer) error {
	fs := newFlags("mids")
	data := addDataFlags(fs)
	eps := fs.Float64("epsilon", 0.6, "edge when |r| > epsilon")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *eps <= 0 || *eps >= 1 {
		return errors.New("--epsilon must lie between 0 and 1")
	}
	ds, x, err := data.load("mids", true)
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	g, err := group.CorrelationGraph(ctx, x, *eps)
	if err != nil {
		return err
	}
	set := g.MIDS()
	if err := g.CheckIDS(set); err != nil {
		return fmt.Errorf("internal error, please report: %v", err)
	}
	greedy := g.GreedyMIS()
	fmt.Fprintf(os.Stderr, "%d features, %d edges at |r| > %g; MIDS %d, greedy maximal independent set %d\n", len(g.Adj), g.Edges(), *eps, len(set), len(greedy))
	w := newTSV(out)
	fmt.Fprintln(w, len(set))
	for _, j := range set {
		fmt.Fprintln(w, ds.Features[j])
	}
	return w.Flush()
}

// wrapperCommand evaluates the bootstrap wrapper as Diaz-Diaz et al. do: for each Na, the
// ranking on all samples and the normalised AUC of its learning curve (3-NN, 5-fold CV,
// top 1..nae features); the exhaustive baselines beside; Fig. 4 and its CSV in -o DIR.
func wrapperCommand(args []string, out io.Writer) error {
	fs := newFlags("wrapper")
	data := addDataFlags(fs)
	ne := fs.Float64("ne", 1, "subsets as a multiple of the number of features (1, 2 or 3)")
	naList := fs.String("na", "0.2,0.4,0.6,0.8,1", "largest subset sizes, in % of the features, comma-separated")
	nae := fs.Int("nae", 100, "features on the learning curve")
	k2 := fs.Bool("k2", false, "also the exhaustive K = 2 baseline (every pair: slow)")
	seed := fs.Uint64("seed", 1, "random seed")
	dir := fs.String("o", "", "folder for the AUC-vs-Na figure")
	if err := fs.Parse(args); err != nil {
		return err
	}
	nas, err := parsePercentages(*naList)
	if err != nil {
		return fmt.Errorf("--na: %w", err)
	}
	if *ne <= 0 || *nae < 2 {
		return errors.New("--ne must be positive and --nae at least 2")
	}
	ds, x, err := data.load("wrapper", true)
	if err != nil {
		return err
	}
	_, p := x.Dims()
	ctx, stop := interruptible()
	defer stop()
	cost := widgets.Duration(score.PairCost(x, ds.Labels, len(ds.Classes)))
	if *k2 {
		fmt.Fprintf(os.Stderr, "K = 2 evaluates %s pairs, each by 5-fold CV: about %s\n", thousands(score.PairCount(p)), cost)
	} else {
		fmt.Fprintf(os.Stderr, "K = 2 baseline skipped: it evaluates %s pairs (about %s); add --k2 to run it\n", thousands(score.PairCount(p)), cost)
	}
	aucs, base, err := experiment.WrapperSweep{NAs: nas, Ne: *ne, Nae: *nae, K2: *k2, Seed: *seed}.Run(ctx, x, ds.X, ds.Labels, len(ds.Classes))
	if err != nil {
		return err
	}
	tw := newTSV(out)
	fmt.Fprintln(tw, "na_percent\tsubsets\tauc")
	for i, na := range nas {
		fmt.Fprintf(tw, "%g\t%d\t%.4f\n", na, max(1, int(*ne*float64(p))), aucs[i])
	}
	fmt.Fprintf(tw, "K=1\t%d\t%.4f\n", p, base["exhaustive K = 1"])
	if v, ok := base["exhaustive K = 2"]; ok {
		fmt.Fprintf(tw, "K=2\t%d\t%.4f\n", score.PairCount(p), v)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if *dir != "" {
		return exportFigures(*dir, plots.AUCvsNa(ds.Name, nas, aucs, base))
	}
	return nil
}

// sampleSizeCommand runs the synthetic sample-size study and prints
// method, n, precision, Sim_ID, accuracy; with -o, its three figures.
func sampleSizeCommand(args []string, out io.Writer) error {
	fs := newFlags("samplesize")
	preset := fs.String("preset", "d1k", "d1k or d5k")
	sizeList := fs.String("sizes", "100,200,500,1000", "training sizes, comma-separated")
	k := fs.Int("k", 10, "features selected")
	testSize := fs.Int("test", 500, "samples in the independent test set")
	methodList := fs.String("methods", "svmrfe,cgs", "methods, comma-separated: "+method.Names())
	seed := fs.Uint64("seed", 1, "random seed")
	dir := fs.String("o", "", "folder for the figures and their CSVs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	p, ok := synth.Presets[*preset]
	if !ok {
		return fmt.Errorf("--preset: %q is not d1k or d5k", *preset)
	}
	sizes, err := parseTrainingSizes(*sizeList)
	if err != nil {
		return fmt.Errorf("--sizes: %w", err)
	}
	var specs []method.Spec
	for _, name := range strings.Split(*methodList, ",") {
		spec := method.Spec{Name: strings.TrimSpace(name)}
		if _, err := method.New(spec); err != nil {
			return fmt.Errorf("--methods: %v", err)
		}
		specs = append(specs, spec)
	}
	if *k < 1 || *testSize < 2 {
		return errors.New("--k must be at least 1 and --test at least 2")
	}
	ctx, stop := interruptible()
	defer stop()
	last := -1
	res, err := experiment.SyntheticStudy{Preset: p, Sizes: sizes, TestSize: *testSize, K: *k, Methods: specs, Seed: *seed}.Run(ctx, func(pr experiment.Progress) {
		if pct := 100 * pr.Done / max(pr.Total, 1); pct/10 != last/10 {
			fmt.Fprintf(os.Stderr, "%3d%% (%s)\n", pct, pr.Stage)
			last = pct
		}
	})
	if err != nil {
		return err
	}
	w := newTSV(out)
	fmt.Fprintln(w, "method\tn\tprecision\tsim_id\taccuracy")
	for m, label := range res.Labels {
		for si, n := range sizes {
			fmt.Fprintf(w, "%s\t%d\t%.4f\t%.4f\t%.4f\n", label, n, res.Precision[m][si], res.SimID[m][si], res.Accuracy[m][si])
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if *dir != "" {
		var figs []plots.Figure
		for i := range plots.SyntheticMeasures {
			figs = append(figs, plots.SampleSize(res, i))
		}
		return exportFigures(*dir, figs...)
	}
	return nil
}

func synthCommand(args []string, out io.Writer) error {
	fs := newFlags("synth")
	preset := fs.String("preset", "d1k", "d1k or d5k")
	features := fs.Int("features", 0, "instead of a preset: this many features in groups of about 20 (e.g. 12533 for a Lung-sized set)")
	n := fs.Int("samples", 100, "number of samples")
	seed := fs.Uint64("seed", 1, "random seed")
	part := fs.Int("part", 0, "0 for a training set; 1, 2, ... for independent sets of the same population")
	path := fs.String("o", "", "output CSV")
	if err := fs.Parse(args); err != nil {
		return err
	}
	p, ok := synth.Presets[*preset]
	if !ok {
		return fmt.Errorf("unknown preset %q (d1k or d5k)", *preset)
	}
	if *features != 0 {
		if *features < synth.Relevant*2 || *features > 1_000_000 {
			return fmt.Errorf("--features must be between %d and 1000000", synth.Relevant*2)
		}
		p = synth.Sized(*features)
	}
	if *n < 2 || *n > 1_000_000 {
		return fmt.Errorf("--samples must be between 2 and 1000000, not %d", *n)
	}
	if *path == "" {
		return errors.New("synth needs -o FILE.csv")
	}
	ds, _ := synth.Generate(p, *n, *seed, *part)
	f, err := os.Create(*path)
	if err != nil {
		return err
	}
	if err := dataset.WriteCSV(f, ds); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runCommand runs a configuration (or a saved run's configuration) and writes
// result.json, every figure in every format and its CSV.
func runCommand(args []string, out io.Writer) error {
	// flags may follow the config path
	var cfgPath string
	var rest []string
	for i := 0; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") && cfgPath == "" {
			cfgPath = args[i]
			continue
		}
		rest = append(rest, args[i])
	}
	fs := newFlags("run")
	outDir := fs.String("o", "", "output folder")
	data := fs.String("data", "", "data file (overrides the configuration's)")
	width := fs.Float64("width", 16, "figure width")
	height := fs.Float64("height", 10, "figure height")
	unit := fs.String("unit", "cm", "unit of width and height: cm, mm or in")
	dpi := fs.Int("dpi", 300, "PNG resolution")
	if err := fs.Parse(rest); err != nil {
		return err
	}
	if cfgPath == "" || *outDir == "" {
		return errors.New("usage: steadfast run CONFIG.json -o OUTDIR")
	}
	w, err := plots.Length(*width, *unit)
	if err != nil {
		return err
	}
	h, _ := plots.Length(*height, *unit)
	if *width <= 0 || *height <= 0 || *dpi < 30 || *dpi > 2400 {
		return errors.New("--width and --height must be positive and --dpi between 30 and 2400")
	}
	cfg, err := LoadConfig(cfgPath)
	if err != nil {
		return err
	}
	if *data != "" {
		cfg.DataPath = *data
	}
	var ds *dataset.Dataset
	if cfg.DataPath == "" {
		ds = exampleData()
	} else {
		path := cfg.DataPath
		if !filepath.IsAbs(path) {
			if _, err := os.Stat(path); err != nil { // relative to the configuration
				path = filepath.Join(filepath.Dir(cfgPath), path)
			}
		}
		ds, err = loadData(path, cfg.Read, cfg.Prep)
		if err != nil {
			return err
		}
		if abs, err := filepath.Abs(path); err == nil {
			cfg.DataPath = abs // the saved run finds its data from anywhere
		}
	}
	ctx, stop := interruptible()
	defer stop()
	last := -1
	res, err := experiment.Run(ctx, cfg, ds, func(p experiment.Progress) {
		pct := 100 * p.Done / max(p.Total, 1)
		if pct/10 != last/10 {
			fmt.Fprintf(os.Stderr, "%3d%% (%d/%d)\n", pct, p.Done, p.Total)
			last = pct
		}
	})
	if err != nil {
		return err
	}
	if err := SaveResult(filepath.Join(*outDir, "result.json"), res); err != nil {
		return err
	}
	size := plots.ExportOptions{Width: w, Height: h, DPI: *dpi}
	for _, f := range append(plots.All(res), tables(res)...) {
		formats := plots.Formats
		if f.Build == nil {
			formats = nil
		}
		paths, err := plots.Export(f, *outDir, formats, size)
		if err != nil {
			return err
		}
		for _, p := range paths {
			fmt.Fprintln(out, p)
		}
	}
	return nil
}

// tables are the result's tables without a chart: the top features of every method
// and, with two or more methods, the error table of every classifier.
func tables(res *experiment.Result) []plots.Figure {
	var out []plots.Figure
	for i := range res.Methods {
		out = append(out, plots.TopTable(res, i))
	}
	if len(res.Methods) > 1 {
		for _, cl := range res.Config.Classifiers {
			out = append(out, plots.ErrorTable(res, cl))
		}
	}
	return out
}

// Saved is the JSON file of a run: its configuration and, once run, its result.
type Saved struct {
	Config experiment.Config  `json:"config"`
	Result *experiment.Result `json:"result,omitempty"`
}

// LoadConfig reads a configuration file; a saved run's file works too.
func LoadConfig(path string) (experiment.Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return experiment.Config{}, err
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return experiment.Config{}, fmt.Errorf("%s: not a Steadfast configuration (%v)", filepath.Base(path), err)
	}
	cfg := experiment.DefaultConfig()
	raw := b
	if c, ok := probe["config"]; ok {
		raw = c
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("%s: %v", filepath.Base(path), err)
	}
	return cfg, nil
}

// SaveResult writes a run (configuration and result) as one JSON file.
func SaveResult(path string, res *experiment.Result) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(Saved{Config: res.Config, Result: res})
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// LoadResult reads a saved run.
func LoadResult(path string) (*Saved, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Saved
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: not a saved Steadfast run (%v)", filepath.Base(path), err)
	}
	if s.Result == nil {
		return nil, fmt.Errorf("%s: holds a configuration but no results; run it first", filepath.Base(path))
	}
	return &s, nil
}

// loadData reads and preprocesses a data file.
func loadData(path string, o dataset.Options, prep dataset.Prep) (*dataset.Dataset, error) {
	ds, err := dataset.ReadFile(path, o)
	if err != nil {
		return nil, err
	}
	ds, dropped := dataset.Preprocess(ds, prep)
	if len(dropped) > 0 {
		ds.Notes = append(ds.Notes, fmt.Sprintf("%d features dropped (constant or incomplete)", len(dropped)))
	}
	return ds, nil
}

// exampleData is the built-in example: the D1k synthetic set with 100 samples, seed 1.
func exampleData() *dataset.Dataset {
	ds, _ := synth.Generate(synth.D1k, 100, 1, 0)
	ds.Name = "example D1k (synthetic, 100 samples)"
	return ds
}
