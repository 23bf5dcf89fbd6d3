package app

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/dataset"
	"steadfast/compute/experiment"
	"steadfast/compute/study"
	"steadfast/internal/text"
)

// Config gathers the settings of the forms.
func (u *UI) Config() (experiment.Config, error) {
	cfg := experiment.DefaultConfig()
	cfg.DataPath, cfg.Read, cfg.Outcome = u.path, u.readOpt, u.readOpt.Outcome
	if s := u.raw.Survival; s != nil { // the columns found by their names, kept by name
		cfg.Outcome = dataset.Outcome{Time: s.TimeName, Event: s.EventName}
	}
	if u.raw != nil {
		cfg.Source = u.raw.Source
	}
	err := u.dataTab.fill(&cfg)
	if err != nil {
		return cfg, err
	}
	if cfg.Methods, err = u.methods.specs(); err != nil {
		return cfg, err
	}
	if err = u.protocol.fill(&cfg); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// Run starts a study with the forms' settings in the background.
func (u *UI) Run() {
	if u.cancel != nil {
		return // one run at a time; the button is disabled meanwhile
	}
	cfg, err := u.Config()
	if err != nil {
		u.showError(err)
		return
	}
	if problem, _ := study.Fit(cfg, u.data); problem != "" {
		u.left.SelectIndex(leftProtocol)
		u.checkFit()
		u.progress.Status.SetText("Not started: " + problem + " The Protocol tab offers a fix.")
		return
	}
	if cfg, err = study.Plan(cfg, u.data); err != nil {
		u.showError(err)
		return
	}
	ds := u.data
	if est, lines, err := experiment.Estimate(cfg, ds); err == nil && est > longRun {
		msg := fmt.Sprintf("This study will take about %s on a two-core laptop:\n%s\n(the other methods add little). "+
			"Progress and the time left are shown as it runs, and Cancel stops it within a second.\nStart it now?",
			text.Duration(est), strings.Join(lines, "\n"))
		dialog.ShowConfirm("A long run", msg, func(ok bool) {
			if ok {
				u.startRun(cfg, ds)
			}
		}, u.win)
		return
	}
	u.startRun(cfg, ds)
}

// longRun is the estimated study time above which Run asks before it starts.
const longRun = 2 * time.Minute

// startRun runs the study cfg on ds in the background.
func (u *UI) startRun(cfg experiment.Config, ds *dataset.Dataset) {
	log.Printf("run started: %s on %s", cfg.Protocol, ds.Name)
	u.results.running(true)
	u.startTask("Run", func(ctx context.Context, report func(experiment.Progress)) (func(), error) {
		res, err := study.Run(ctx, cfg, ds, report)
		if err != nil {
			u.do(func() { u.results.running(false) })
			return nil, err
		}
		log.Printf("run finished in %.1f s", res.Seconds)
		return func() { u.setResult(res) }, nil
	})
}

// taskName names a task in a sentence: "A run", "The K chooser".
func taskName(what string) string {
	if n, ok := map[string]string{"Run": "A run", "MIDS": "The MIDS computation", "Wrapper": "The wrapper",
		"Sample-size study": "The sample-size study"}[what]; ok {
		return n
	}
	return "The " + what
}

// taskWork is background work started from the window. It may call report from any
// goroutine, and returns what to do on the UI goroutine when it succeeds, or when it is
// cancelled with part of its results to show (apply and context.Canceled).
type taskWork func(ctx context.Context, report func(experiment.Progress)) (apply func(), err error)

// startTask runs work in the background behind the progress bar and its Cancel button.
// One task runs at a time: Run and the tools' Compute buttons are disabled meanwhile.
// A task that fails or is cancelled changes nothing on screen.
func (u *UI) startTask(what string, work taskWork) {
	if u.cancel != nil {
		return
	}
	if u.preparing() {
		u.progress.Status.SetText("The data are still being prepared: start " + strings.ToLower(what[:1]) + what[1:] + " again when the status line says they are ready.")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	u.cancel, u.task = cancel, taskName(what)
	u.runID++
	id := u.runID
	u.setBusy(true)
	u.progress.Start(what)
	th := study.NewThrottle(func(pr experiment.Progress) {
		u.do(func() {
			if id == u.runID && u.cancel != nil {
				u.progress.Update(pr.Done, pr.Total, pr.Stage, pr.Fraction, pr.Left)
			}
		})
	}, 100*time.Millisecond)
	go func() {
		apply, err := work(ctx, th.Report)
		u.do(func() { u.finishTask(id, what, apply, err) })
	}()
}

func (u *UI) finishTask(id int, what string, apply func(), err error) {
	if id != u.runID {
		return // a newer task has started
	}
	u.cancel = nil
	u.setBusy(false)
	switch {
	case errors.Is(err, context.Canceled) && apply != nil:
		apply()
		u.unsaved = u.result != nil
		u.progress.Finish(what+" cancelled; what it finished before is shown.", false)
		log.Printf("%s cancelled, partial results shown", what)
	case errors.Is(err, context.Canceled):
		u.progress.Finish(what+" cancelled; the previous results are kept.", false)
		log.Printf("%s cancelled", what)
	case err != nil:
		u.progress.Finish(what+" failed; the previous results are kept.", false)
		u.showError(err)
	default:
		apply()
		u.unsaved = u.result != nil // a run, or tool results saved with it
		u.progress.Finish(fmt.Sprintf("%s finished in %s.", what, text.Duration(u.progress.Elapsed())), true)
	}
}

// setBusy disables the buttons that start tasks while one runs.
func (u *UI) setBusy(busy bool) {
	for _, b := range []*widget.Button{u.runBtn, u.kchooser.button, u.wrapper.button, u.mids.button, u.samples.button, u.sigView.build, u.sigView.permBtn, u.survView.build} {
		if b == u.sigView.build && u.sigView.modelOnly || b == u.sigView.permBtn && (u.sigView.sig == nil || u.sigView.sig.CV == nil) {
			continue // builds from a run, not from the model shown; permutes a built signature
		}
		if busy {
			b.Disable()
		} else {
			b.Enable()
		}
	}
}

// Cancel stops the running study; its partial results are dropped.
func (u *UI) Cancel() {
	if u.cancel != nil {
		u.cancel()
		u.progress.Status.SetText("Cancelling...")
	}
}
