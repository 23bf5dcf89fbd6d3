//go:build headless

package main

import (
	"fmt"
	"os"
)

// openWindow explains that this build has no window.
func openWindow([]string) int {
	fmt.Fprintln(os.Stderr, "steadfast: this build has no window (built with -tags headless); steadfast help lists the commands")
	return 2
}
