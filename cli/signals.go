package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"steadfast/compute/study"
	"steadfast/internal/text"
)

// hardStop is how long a command may take to stop after a signal before the process
// stops at once: the temporary files and folders it was writing are removed, what it
// had written before stays, and the exit status is 130. A second signal stops it at
// once too.
var hardStop = 10 * time.Second

// exit ends the process (a test's hook).
var exit = os.Exit

// interruptible returns a context cancelled by Ctrl-C, SIGTERM or SIGHUP, and the
// function that releases the signals when the command is done. Should the command not
// return within hardStop of the signal, or a second signal come, the process removes
// its unfinished files and exits 130: no step, however long, keeps it running.
func interruptible(name string, errw io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		select {
		case <-sigs:
		case <-time.After(hardStop):
		case <-done:
			return
		}
		what := "nothing was written"
		if removed := study.RemoveUnfinished(); len(removed) > 0 {
			what = fmt.Sprintf("what it was writing removed (%s); nothing more was written", text.Count(len(removed), "unfinished file"))
		}
		fmt.Fprintf(errw, "steadfast %s: interrupted; stopped at once, %s\n", name, what)
		exit(130)
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}
