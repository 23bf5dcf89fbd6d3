//go:build !headless

package main

import (
	"net"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// displayProblem says why no window can open here, or "" when one may: on Linux and the
// BSDs the window is drawn through X11 (GLFW's X11 back end; on a Wayland desktop,
// XWayland), so DISPLAY must name an X server that answers; macOS and Windows always
// have a display. Without one the window library panics.
func displayProblem(getenv func(string) string) string {
	switch runtime.GOOS {
	case "darwin", "windows", "ios", "android":
		return ""
	}
	d := getenv("DISPLAY")
	switch {
	case d == "" && getenv("WAYLAND_DISPLAY") != "":
		return "the window is drawn through X11 and DISPLAY is not set (a Wayland session without XWayland)"
	case d == "":
		return "there is no display to open the window on (DISPLAY is not set, as over ssh or on a cluster node)"
	case !x11Answers(d):
		return "the display " + strconv.Quote(d) + " (DISPLAY) does not answer: its X server is not running or not reachable from here"
	}
	return ""
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

// startHint is what to check when the display answered but the window library could
// not start on it.
func startHint(getenv func(string) string) string {
	switch runtime.GOOS {
	case "darwin", "windows", "ios", "android":
		return "Check that this session has a desktop (not a service or a remote shell without one) and that the graphics driver supports OpenGL 2.1."
	}
	return "Check that the display " + strconv.Quote(getenv("DISPLAY")) + " (DISPLAY) accepts this user: over ssh, connect again with ssh -X (or ssh -Y when the server refuses untrusted clients), and XAUTHORITY, if set, must name your own .Xauthority; a desktop still starting accepts a moment later."
}
