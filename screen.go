//go:build !headless

package main

import (
	"bytes"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// screenArea starts the window library and returns the primary monitor's work area in
// screen coordinates (the screen less task bars and docks), or why no window can open.
// GLFW logs a display it cannot open (a refused connection, a wrong Xauthority) and
// stays uninitialised; its next call then panics. That panic is caught here and the
// logged reason returned. It must run on the main thread, before the window opens. A
// display that refuses at first (a server still busy with a client just gone, or still
// starting) is asked twice more, a second apart.
func screenArea() (w, h int, err error) {
	for try := 0; ; try++ {
		w, h, err = screenAreaOnce()
		if err == nil || try == 2 {
			return w, h, err
		}
		time.Sleep(time.Second)
	}
}

// screenAreaOnce is one attempt of screenArea.
func screenAreaOnce() (w, h int, err error) {
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
