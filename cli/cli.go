// Package cli is Steadfast's command line: one file per command, each over the study
// core (compute/study). It imports no Fyne, so it runs without a display.
package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"steadfast/compute/study"
)

// Exit statuses.
const (
	exitOK       = 0
	exitBadInput = 2
)

// command is one subcommand: its usage line, what it does, and its body.
type command struct {
	name, args, summary string
	run                 func(c *call) error
}

// commands lists the subcommands in the order the help shows them.
var commands = []command{
	{"run", "CONFIG.json -o OUTDIR [--data FILE] [--shard I/N] [--report] [--width 16 --height 10 --unit cm --dpi 300]",
		"run a saved configuration (or saved run) headless: result.json, every figure and its CSV; with --shard, one share of it for merge", runCommand},
	{"merge", "SHARDDIR... -o OUTDIR [--data FILE] [--report] [--width 16 --height 10 --unit cm --dpi 300]",
		"merge the shards of a study into what a single run writes (checks that they are one study's, each once)", mergeCommand},
	{"slurm", "CONFIG.json -o DIR --tasks N [--partition P] [--time 4:00:00] [--mem 8G] [--cpus 2] [--account A] [--binary PATH] [--data FILE] [--submit]",
		"write (and with --submit, submit) a Slurm array job running the study in N shards and a job merging them", slurmCommand},
	{"rank", "--data FILE --method NAME [--param key=value ...] [--seed N] [--no-zscore] [DATA OPTIONS]",
		"rank features on all samples: rank<TAB>feature<TAB>score", rankCommand},
	{"groups", "--data FILE --method dgf|drags|cgs|kmeans [--K 5] [--paper] [--gaussian] [--t 10] [--clusters N] [--seed S] [DATA OPTIONS]",
		"groups best first: rank, representative, size, relevance, members", groupsCommand},
	{"mids", "--data FILE [--epsilon 0.6] [DATA OPTIONS]",
		"the MIDS of the correlation graph: its size, then one feature a line", midsCommand},
	{"wrapper", "--data FILE [--ne 1] [--na 0.2,0.4,1] [--nae 100] [--k2] [--seed S] [-o DIR] [DATA OPTIONS]",
		"Diaz-Diaz wrapper: learning-curve AUC for each Na (% of p) and the exhaustive baselines", wrapperCommand},
	{"synth", "--preset d1k|d5k [--features P] --samples N --seed S [--part I] -o FILE.csv",
		"write a synthetic data set with known relevant features", synthCommand},
	{"signature", "RUN.json -o OUTDIR [--method NAME] [--k K] [--classifier svm] [--frequent] [--positive CLASS] [--nested | --no-nested] [--permutations N] [--report] [--data FILE] [--horizons 3,5] [--tau T] [--time-unit years] [--risk-groups median|tertiles|VALUE] [--covariates Age,Grade|none] [--width 16 --height 10 --unit cm --dpi 300]",
		"a finished run's signature: its genes (signature.csv), the classifier locked on all samples (model.json), the cross-validated ROC curves (roc.csv) and AUC with its interval (metrics.csv)", signatureCommand},
	{"predict", "--model model.json --data COHORT [--class NAME] [--sheet NAME] [--platform GPL] [--symbols FILE] [--design FILE] [--intensity lfq|intensity|ibaq] [--map A=B] [--harmonize none|standardize|combat|...] [--time COL --event COL] [--accept-missing] [--log2] [--positive CLASS] [-o DIR] [--width 16 --height 10 --unit cm --dpi 300]",
		"apply a signature's locked model to an independent cohort: predictions.csv; with -o also genes.csv (how each gene was matched), metrics.csv (accuracy, AUC with its DeLong interval, confusion) and the figures", predictCommand},
	{"enrich", "RUN.json -o OUTDIR [--method NAME] [--k K] [--frequent] [--classifier svm] [--collection go|go-bp|go-mf|go-cc|FILE.gmt] [--symbols FILE] [--camera [--positive CLASS] [--data FILE]] [--width 16 --height 10 --unit cm --dpi 300]",
		"what a run's selected genes mean: over-representation of a method's top k (default: the advice's) in GO or a GMT file's sets against the genes the platform measured, with each term's stability over the resamples: enrichment.csv and the dot plot", enrichCommand},
	{"prep", "--data FILE -o OUT.csv [--design F] [--class NAME] [--sheet NAME] [--symbols FILE] [--platform GPL] [--intensity lfq|intensity|ibaq] [--log2] [--log-cpm] [--impute knn|minprob|halfmin|none] [--normalize none|median|quantile|sum] [--min-valid 0.7] [--seed N] [--drop-missing] [--keep-constant] [--time COL --event COL] [--covariates A,B] [--as-feature A] [--figure]",
		"the data preprocessed on all samples as a study preprocesses each training set (filter, log2, normalisation, imputation), samples as rows, to take elsewhere; OUT-left-out.csv names every feature left out and why", prepCommand},
	{"version", "[--clear-geo-cache]", "the version, platform, the BLAS doing the matrix products, and the GEO cache's folder and size", versionCommand},
	{"samplesize", "--preset d1k|d5k --methods svmrfe,cgs,... [--sizes 100,200,500,1000] [--k 10] [--test 500] [--seed S] [-o DIR]",
		"sample-size study on synthetic data: precision, Sim_ID and test accuracy of the top k", sampleSizeCommand},
}

// IsCommand reports whether name is a subcommand (or a request for help).
func IsCommand(name string) bool {
	if name == "help" || name == "-h" || name == "--help" {
		return true
	}
	_, ok := lookup(name)
	return ok
}

// LooksLikeCommand reports whether arg, not being a command, is meant as one rather
// than as data: no such file exists, it is no GEO accession, and it has neither a path
// separator nor an extension (so "rnak" is a mistyped command, "data.csv" a missing
// file, "GSE2034" data to fetch).
func LooksLikeCommand(arg string) bool {
	if _, err := os.Stat(arg); err == nil || study.IsAccession(arg) {
		return false
	}
	return !strings.ContainsAny(arg, `/\.`)
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// Main runs the subcommand args[0] with the rest of args and returns the exit status:
// 0 done, 2 refused (the reason on errw, one line), 130 interrupted.
func Main(args []string, out, errw io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := lookup(args[1]); ok {
				return c.invoke([]string{"--help"}, out, errw)
			}
		}
		fmt.Fprint(out, Usage())
		return exitOK
	}
	c, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(errw, "steadfast: unknown command %q; the commands are: %s (steadfast help lists them)\n", args[0], names())
		return exitBadInput
	}
	return c.invoke(args[1:], out, errw)
}

func names() string {
	var s []string
	for _, c := range commands {
		s = append(s, c.name)
	}
	return strings.Join(s, ", ")
}

// Usage is the help text of the whole program.
func Usage() string {
	var b strings.Builder
	b.WriteString("Steadfast: stable biomarker discovery.\n\n  steadfast [FILE]\n      open the window (with FILE, or the built-in example)\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  steadfast %s %s\n      %s\n", c.name, c.args, c.summary)
	}
	b.WriteString("\nDATA OPTIONS: --class NAME (column, row or GEO characteristic), --sheet NAME (Excel), --symbols FILE,\n  --platform GPL (a GEO series on several), --design FILE (the samples' classes), --intensity lfq|intensity|ibaq\n  (MaxQuant), --log2, --log-cpm (RNA-seq counts), --impute minprob|knn|halfmin|none, --normalize none|median|quantile|sum,\n  --min-valid 0.7, --drop-missing, --keep-constant,\n  --time COL --event COL (a survival outcome: time, and 1 event / 0 censored, or TRUE/FALSE, dead/alive),\n  --covariates A,B (columns read as clinical covariates, not features, besides those named like age, grade, stage,\n  node...), --as-feature A (one so named analysed as a feature).\nsteadfast COMMAND --help describes a command's options.\n")
	return b.String()
}

// call is one invocation of a command: its arguments, outputs and flags.
type call struct {
	cmd       command
	args      []string
	out, errw io.Writer
	fs        *flag.FlagSet
	// ctx is cancelled by Ctrl-C, SIGTERM (as Slurm and kill send) or SIGHUP (the
	// terminal closed), from the command's first line to its last file: the command
	// then stops, removes what it had begun to write and exits 130.
	ctx context.Context
}

// errInterrupted marks a run stopped by Ctrl-C.
var errInterrupted = errors.New("interrupted")

func (c command) invoke(args []string, out, errw io.Writer) int {
	ctx, stop := interruptible(c.name, errw)
	defer stop()
	cl := &call{cmd: c, args: args, out: out, errw: errw, ctx: ctx}
	cl.fs = flag.NewFlagSet(c.name, flag.ContinueOnError)
	cl.fs.SetOutput(io.Discard)
	err := c.run(cl)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(out, "steadfast %s %s\n  %s\n\nOptions:\n", c.name, c.args, c.summary)
		cl.fs.SetOutput(out)
		cl.fs.PrintDefaults()
		return exitOK
	case errors.Is(err, context.Canceled) || errors.Is(err, errInterrupted):
		fmt.Fprintf(errw, "steadfast %s: interrupted; nothing was written\n", c.name)
		return 130
	}
	fmt.Fprintf(errw, "steadfast %s: %s\n", c.name, strings.ReplaceAll(err.Error(), "\n", " "))
	return exitBadInput
}

// parse parses the flags; positional arguments are refused unless positional > 0, in
// which case up to that many are returned (they may stand before or among the flags).
func (c *call) parse(positional int) ([]string, error) {
	var pos, rest []string
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			rest = append(rest, a)
			// a flag's value in the next argument
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") {
				if f := c.fs.Lookup(name); f != nil && !isBool(f) && i+1 < len(args) {
					rest = append(rest, args[i+1])
					i++
				}
			}
			continue
		}
		pos = append(pos, a)
	}
	if err := c.fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("%v (steadfast %s --help lists the options)", err, c.cmd.name)
	}
	if len(pos) > positional {
		return nil, fmt.Errorf("unexpected argument %q (steadfast %s --help lists the options)", pos[positional], c.cmd.name)
	}
	return pos, nil
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func newTSV(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 1<<16) }

// note writes what the program assumed or changed, for the user to check.
func (c *call) note(format string, a ...any) {
	fmt.Fprintf(c.errw, "steadfast %s: note: %s\n", c.cmd.name, fmt.Sprintf(format, a...))
}

// absIfExists resolves a relative path against base when it does not exist as given.
func absIfExists(path, base string) string {
	if filepath.IsAbs(path) {
		return path
	}
	if _, err := os.Stat(path); err != nil {
		return filepath.Join(base, path)
	}
	return path
}
