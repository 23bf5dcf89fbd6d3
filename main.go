// Steadfast finds stable biomarkers: it ranks genes with several methods under a
// resampling protocol and shows how stable and how accurate each selection is.
//
// With no arguments (or a data file) it opens the window; a subcommand runs headless:
//
//	steadfast [FILE]
//	steadfast run CONFIG.json -o OUTDIR
//	steadfast rank --data FILE --method fstat|svmone|svmrfe [--seed N]
//	steadfast synth --preset d1k|d5k --samples N --seed S -o FILE.csv
package main

import (
	"os"

	"steadfast/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:]))
}
