// Steadfast finds stable biomarkers: it ranks genes with several methods under a
// resampling protocol and shows how stable and how accurate each selection is.
//
// With no arguments (or a data file) it opens the window; a subcommand runs headless
// (steadfast help lists them):
//
//	steadfast [FILE]
//	steadfast run CONFIG.json -o OUTDIR
//	steadfast rank --data FILE --method fstat|svmone|svmrfe|...
package main

import (
	"fmt"
	"os"

	"clocale"

	"steadfast/cli"
	"steadfast/compute/memlimit"
)

func main() {
	clocale.Restore() // LANG=C.UTF-8 back, after Fyne's initialisation read it as C
	memlimit.SetSoft()
	args := os.Args[1:]
	if len(args) > 0 && (cli.IsCommand(args[0]) || cli.LooksLikeCommand(args[0])) {
		attachConsole()                               // the Windows build is windowed: its output goes to the console it was typed in
		os.Exit(cli.Main(args, os.Stdout, os.Stderr)) // an unknown command says so, exit 2
	}
	if len(args) > 1 {
		attachConsole()
		fmt.Fprintf(os.Stderr, "steadfast: the window opens one file, not %d; steadfast help lists the commands\n", len(args))
		os.Exit(2)
	}
	os.Exit(openWindow(args))
}
