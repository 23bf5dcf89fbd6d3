//go:build !headless

package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
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

// buildWindowBinary builds the window binary once for the tests that start it.
var buildWindowBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "steadfast-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "steadfast")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// An X server that answers but refuses the client (a wrong Xauthority over ssh -X, a
// server still starting) passes the display check; the window library then failed with
// a panic and a 40-line stack trace. Now it says what is wrong and what to do, exit 1.
func TestRefusedDisplaySaysWhatToDo(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("macOS and Windows always have a display")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	if port <= 6000 {
		t.Skipf("the free port %d is below 6000: no display number reaches it", port)
	}
	go func() { // accept and hang up at once, as a server refusing the client does
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	bin, err := buildWindowBinary()
	if err != nil {
		t.Fatal(err)
	}
	d := "127.0.0.1:" + strconv.Itoa(port-6000)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "DISPLAY="+d, "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	s := string(out)
	if code != 1 || strings.Contains(s, "goroutine ") || strings.Contains(s, "panic") ||
		!strings.Contains(s, "Failed to open display "+d) || !strings.Contains(s, "ssh -X") || !strings.Contains(s, "steadfast run") {
		t.Errorf("exit %d with output:\n%s\nwant exit 1, the display named as refusing, what to do and no stack trace", code, s)
	}
}

// On a 1366 x 768 laptop screen the window must open inside the screen (it opened at
// 1400 x 880, with the progress bar and Cancel below the screen's edge).
func TestWindowOpensInsideALaptopScreen(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("drawn on Xvfb, an X11 server")
	}
	missing := ""
	for _, p := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(p); err != nil {
			missing = p + " not installed"
		}
	}
	if missing != "" {
		if os.Getenv("STEADFAST_REQUIRE_X") != "" {
			t.Fatal(missing)
		}
		t.Skip(missing)
	}
	bin, err := buildWindowBinary()
	if err != nil {
		t.Fatal(err)
	}
	// Xvfb picks a free display and writes its number to fd 3
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	xvfb := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1366x768x24", "-nolisten", "tcp")
	xvfb.ExtraFiles = []*os.File{pw}
	if err := xvfb.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { xvfb.Process.Kill(); xvfb.Wait() }()
	pw.Close()
	num, err := bufio.NewReader(pr).ReadString('\n')
	pr.Close()
	if err != nil {
		t.Fatalf("Xvfb gave no display number: %v", err)
	}
	display := ":" + strings.TrimSpace(num)
	env := append(os.Environ(), "DISPLAY="+display)
	waitUntil(t, "Xvfb on "+display, func() bool {
		return displayProblem(func(k string) string { return map[string]string{"DISPLAY": display}[k] }) == ""
	})
	cmd := exec.Command(bin)
	cmd.Env = append(env, "HOME="+t.TempDir())
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var win string
	waitUntil(t, "the window", func() bool {
		c := exec.Command("xdotool", "search", "--name", "^Steadfast$")
		c.Env = env
		out, err := c.Output()
		win = strings.TrimSpace(strings.Split(string(out), "\n")[0])
		return err == nil && win != ""
	})
	var w, h int
	waitUntil(t, "the window's final size", func() bool {
		time.Sleep(500 * time.Millisecond) // the size is set again once the scale is known
		c := exec.Command("xdotool", "getwindowgeometry", "--shell", win)
		c.Env = env
		out, err := c.Output()
		if err != nil {
			return false
		}
		for _, l := range strings.Fields(string(out)) {
			if v, ok := strings.CutPrefix(l, "WIDTH="); ok {
				w, _ = strconv.Atoi(v)
			}
			if v, ok := strings.CutPrefix(l, "HEIGHT="); ok {
				h, _ = strconv.Atoi(v)
			}
		}
		return w > 0 && h > 0
	})
	if w > 1366 || h > 768 || w < 1000 || h < 600 {
		t.Errorf("on a 1366 x 768 screen the window is %d x %d; want it inside the screen and most of it\n%s", w, h, log.String())
	}
}

// waitUntil polls cond; it gives up (a hang) after two minutes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
