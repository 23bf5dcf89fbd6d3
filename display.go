//go:build !headless

package main

import (
	"net"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// displayProblem says why no window can open here, or "" when one may: on Linux and the
// BSDs a window needs a Wayland or X server (WAYLAND_DISPLAY or DISPLAY naming one that
// answers); macOS and Windows always have one. Without it the window library panics.
func displayProblem(getenv func(string) string) string {
	switch runtime.GOOS {
	case "darwin", "windows", "ios", "android":
		return ""
	}
	if w := getenv("WAYLAND_DISPLAY"); w != "" && waylandAnswers(w, getenv("XDG_RUNTIME_DIR")) {
		return ""
	}
	d := getenv("DISPLAY")
	if d == "" {
		return "there is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set, as over ssh or on a cluster node)"
	}
	if !x11Answers(d) {
		return "the display " + strconv.Quote(d) + " (DISPLAY) does not answer: its X server is not running or not reachable from here"
	}
	return ""
}

// waylandAnswers reports whether the Wayland socket name (relative to runtimeDir unless
// absolute) accepts a connection.
func waylandAnswers(name, runtimeDir string) bool {
	if !filepath.IsAbs(name) {
		name = filepath.Join(runtimeDir, name)
	}
	return dials("unix", name)
}

// x11Answers reports whether the X display d ([host]:number[.screen]) accepts a
// connection: the local socket /tmp/.X11-unix/X<number> (or its abstract twin), else
// TCP port 6000 + number on host.
func x11Answers(d string) bool {
	host, rest, ok := strings.Cut(d, ":")
	if !ok {
		return true // a form this check does not know: let the window library judge
	}
	num, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return true
	}
	if host == "" || host == "unix" {
		sock := "/tmp/.X11-unix/X" + num
		return dials("unix", sock) || dials("unix", "@"+sock)
	}
	if strings.HasPrefix(host, "/") { // a socket path (XQuartz style)
		return dials("unix", host+":"+rest)
	}
	return dials("tcp", net.JoinHostPort(host, strconv.Itoa(6000+n)))
}

func dials(network, addr string) bool {
	c, err := net.DialTimeout(network, addr, 2*time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// noDisplayHint is what to do instead of opening the window.
const noDisplayHint = "run a study without the window: steadfast run CONFIG.json -o OUTDIR (a configuration saved from the window on another computer, or written by hand; steadfast help lists every command), or connect with ssh -X to show the window here"
