//go:build windows

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain runs Steadfast's main instead of the tests when STEADFAST_MAIN_ARGS is set,
// so a test can start this binary as the program. Built with -ldflags=-H=windowsgui it
// is a windowed program, as the packaged Steadfast.exe is.
func TestMain(m *testing.M) {
	if a, ok := os.LookupEnv("STEADFAST_MAIN_ARGS"); ok {
		os.Args = append(os.Args[:1], strings.Fields(a)...)
		main()
		return
	}
	os.Exit(m.Run())
}

// A command's output reaches a pipe (a script's, or `Steadfast.exe version | more`):
// the attach to the parent's console keeps streams that are already redirected.
// Run it with the test binary built windowed to check the packaged case:
// go test -c -ldflags=-H=windowsgui, then the binary with -test.run ConsoleOutput.
func TestConsoleOutputReachesAPipe(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "STEADFAST_MAIN_ARGS=version")
	out, err := cmd.Output() // standard output is a pipe
	if err != nil || !strings.Contains(string(out), "Steadfast") {
		t.Errorf("Steadfast version into a pipe: %v, output %q", err, out)
	}
}

// A stream with no handle (a windowed program started from Explorer, or from cmd.exe
// before the attach) is not usable; a pipe is.
func TestUsableStreams(t *testing.T) {
	if usable(nil) {
		t.Error("no file counted as usable")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !usable(w) {
		t.Error("a pipe not counted as usable")
	}
	w.Close()
}
