//go:build !headless

package main

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2"

	"steadfast/app"
)

// openWindow opens the window, with the data file in args if any; it says what to do
// instead when there is no display to open it on.
func openWindow(args []string) int {
	if why := displayProblem(os.Getenv); why != "" {
		fmt.Fprintf(os.Stderr, "steadfast: cannot open the window: %s.\nInstead, %s.\n", why, noDisplayHint)
		return 1
	}
	w, h, err := screenArea()
	if err != nil {
		fmt.Fprintf(os.Stderr, "steadfast: cannot open the window: %v.\n%s\nInstead, %s.\n", err, startHint(os.Getenv), noDisplayHint)
		return 1
	}
	file := ""
	if len(args) > 0 {
		file = args[0]
	}
	app.RunWindow(file, fyne.NewSize(float32(w), float32(h)))
	return 0
}
