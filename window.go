//go:build !headless

package main

import "steadfast/app"

// openWindow opens the window, with the data file in args if any.
func openWindow(args []string) int {
	file := ""
	if len(args) > 0 {
		file = args[0]
	}
	app.RunWindow(file)
	return 0
}
