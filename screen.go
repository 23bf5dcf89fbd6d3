//go:build !headless

package main

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// screenArea starts the window library and returns the primary monitor's work area in
// screen coordinates (the screen less task bars and docks), or why no window can open.
// GLFW logs a display it cannot open (a refused connection, a wrong Xauthority) and
// stays uninitialised; its next call then panics. That panic is caught here and the
// logged reason returned. It must run on the main thread, before the window opens.
func screenArea() (w, h int, err error) {
	var logged bytes.Buffer
	prev, flags := log.Writer(), log.Flags()
	log.SetOutput(&logged)
	log.SetFlags(0)
	defer func() {
		log.SetOutput(prev)
		log.SetFlags(flags)
		if r := recover(); r != nil {
			why := strings.TrimSpace(logged.String())
			if why == "" {
				why = fmt.Sprint(r)
			}
			err = fmt.Errorf("the window library could not start: %s", why)
		}
	}()
	if err := glfw.Init(); err != nil {
		return 0, 0, fmt.Errorf("the window library could not start: %v", err)
	}
	m := glfw.GetPrimaryMonitor() // panics when Init failed
	if m == nil {
		return 0, 0, nil // no monitor reported: the window keeps its own size
	}
	_, _, w, h = m.GetWorkarea()
	return w, h, nil
}
