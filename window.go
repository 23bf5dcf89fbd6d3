//go:build !headless

package main

import (
	"fmt"
	"os"

	"steadfast/app"
)

// openWindow opens the window, with the data file in args if any; it says what to do
// instead when there is no display to open it on.
func openWindow(args []string) int {
	if why := displayProblem(os.Getenv); why != "" {
		fmt.Fprintf(os.Stderr, "steadfast: cannot open the window: %s.\nInstead, %s.\n", why, noDisplayHint)
		return 1
	}
	file := ""
	if len(args) > 0 {
		file = args[0]
	}
	app.RunWindow(file)
	return 0
}
