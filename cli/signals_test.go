package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the tests, or, in a child process the tests start, one command whose
// figure writing never ends (STEADFAST_STUCK_ARGS: its arguments as JSON).
func TestMain(m *testing.M) {
	if a := os.Getenv("STEADFAST_STUCK_ARGS"); a != "" {
		os.Exit(stuckCommand(a))
	}
	hardStop = 10 * time.Minute // in-process tests wait for the command to return
	os.Exit(m.Run())
}

// stuckCommand runs the command args with a figure writer that hangs (as the report's
// cubic word cutting did on 20,000-character names) and a hard stop of one second.
func stuckCommand(args string) int {
	var a []string
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	hardStop = time.Second
	beforeFigure = func() {
		fmt.Fprintln(os.Stderr, "writing figures")
		select {}
	}
	return Main(a, os.Stdout, os.Stderr)
}

// TestSignalWhileAWriterHangsStops: SIGTERM while a writer runs without looking at the
// context (the report's PDF tables ran 95 minutes and ignored SIGTERM) ends the process
// a second later with exit 130, its temporary output folder removed and nothing
// written.
func TestSignalWhileAWriterHangsStops(t *testing.T) {
	dir := t.TempDir()
	cfg := smallStudy(t, dir)
	args, _ := json.Marshal([]string{"run", cfg, "-o", filepath.Join(dir, "out")})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STEADFAST_STUCK_ARGS="+string(args))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var said strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		said.WriteString(sc.Text() + "\n")
		if sc.Text() == "writing figures" {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	for sc.Scan() {
		said.WriteString(sc.Text() + "\n")
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("exit: %v; want 130", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("still running 2 minutes after SIGTERM: %s", said.String())
	}
	if !strings.Contains(said.String(), "interrupted; stopped at once, what it was writing removed (1 unfinished file)") {
		t.Errorf("it said: %s", said.String())
	}
	left, _ := os.ReadDir(dir)
	for _, e := range left {
		if e.Name() != "d.csv" && e.Name() != "c.json" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestSignalBetweenReadingAndStudyStops: Ctrl-C after the data are read and before the
// study starts stops the run (exit 130, nothing written); reading and the study had
// each their own signal context, and a signal between them was lost (the run finished
// with exit 0 and wrote every file).
func TestSignalBetweenReadingAndStudyStops(t *testing.T) {
	dir := t.TempDir()
	cfg := smallStudy(t, dir)
	afterRead = func() {
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		time.Sleep(200 * time.Millisecond) // the signal is delivered
	}
	defer func() { afterRead = func() {} }()
	code, _, errs := runMain(t, []string{"run", cfg, "-o", filepath.Join(dir, "out")}, time.Minute)
	if code != 130 || !strings.Contains(errs, "interrupted; nothing was written") {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("an interrupted run wrote its output folder")
	}
}
