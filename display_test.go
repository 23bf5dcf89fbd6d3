//go:build !headless

package main

import (
	"net"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// env is a getenv over a fixed set of variables.
func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// Without a display (ssh without -X, a cluster node) the window must not be tried: the
// window library panics with a stack trace. The check names the variable at fault.
func TestDisplayProblemWithoutDisplay(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("macOS and Windows always have a display")
	}
	why := displayProblem(env(nil))
	if !strings.Contains(why, "DISPLAY is not set") {
		t.Errorf("no DISPLAY: got %q, want it to say DISPLAY is not set", why)
	}
	// the X11 window cannot open on Wayland alone
	why = displayProblem(env(map[string]string{"WAYLAND_DISPLAY": "wayland-0"}))
	if !strings.Contains(why, "XWayland") {
		t.Errorf("Wayland without DISPLAY: got %q, want it to name XWayland", why)
	}
}

// A DISPLAY whose X server answers passes; once it stops listening, the check says so.
// The server is a TCP listener on port 6000 + the display number, as ssh -X forwards.
func TestDisplayProblemAsksTheServer(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("macOS and Windows always have a display")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if port <= 6000 {
		ln.Close()
		t.Skipf("the free port %d is below 6000: no display number reaches it", port)
	}
	d := "127.0.0.1:" + strconv.Itoa(port-6000) + ".0"
	if why := displayProblem(env(map[string]string{"DISPLAY": d})); why != "" {
		t.Errorf("DISPLAY=%s with a listener: %q, want no problem", d, why)
	}
	ln.Close()
	why := displayProblem(env(map[string]string{"DISPLAY": d}))
	if !strings.Contains(why, strconv.Quote(d)) || !strings.Contains(why, "does not answer") {
		t.Errorf("DISPLAY=%s after the listener closed: %q, want it named as not answering", d, why)
	}
}
