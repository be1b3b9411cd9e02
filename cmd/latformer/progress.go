// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/latformer/latformer/latformer"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether f is a terminal: progress bars redraw only there; into a pipe or a log file
// we print plain lines instead.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// taskBar counts finished items (ARC tasks); a nil *taskBar prints lines and nothing else. On a terminal
// it is a redrawing bar with an ETA on stderr; elsewhere it prints nothing of its own, since the caller
// prints one plain line per item.
type taskBar struct {
	bar *progressbar.ProgressBar
}

func newTaskBar(total int, desc string, quiet bool) *taskBar {
	if quiet || total == 0 || !isTerminal(os.Stderr) {
		return &taskBar{}
	}
	return &taskBar{bar: progressbar.NewOptions(total, progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetDescription(desc), progressbar.OptionClearOnFinish())}
}

// startRun prints the start of a run (the backend, then summary: what the run does) and returns the
// progress bar of its todo units.
func startRun(backend, summary string, todo int, desc string, quiet bool) *taskBar {
	fmt.Printf("backend: %s\n%s\n", backend, summary)
	return newTaskBar(todo, desc, quiet)
}

// println prints a line above the bar (the bar is cleared and redrawn below it).
func (b *taskBar) println(w io.Writer, line string) {
	if b != nil && b.bar != nil {
		_ = b.bar.Clear()
	}
	fmt.Fprintln(w, line)
}

func (b *taskBar) add(desc string) {
	if b != nil && b.bar != nil {
		b.bar.Describe(desc)
		_ = b.bar.Add(1)
	}
}

// done prints the line of a unit finished (finished of total) and advances the bar.
func (b *taskBar) done(line string, finished, total int) {
	b.println(os.Stdout, line)
	b.add(fmt.Sprintf("%d/%d", finished, total))
}

// warn prints a warning on stderr.
func (b *taskBar) warn(err error) { b.println(os.Stderr, "warning: "+err.Error()) }

func (b *taskBar) finish() {
	if b != nil && b.bar != nil {
		_ = b.bar.Finish()
	}
}

// progressBar shows training progress (step, loss, accuracy, ETA) on stderr: a redrawing bar on a
// terminal, a plain line every logEvery otherwise.
type progressBar struct {
	bar      *progressbar.ProgressBar
	quiet    bool
	terminal bool
	last     time.Time
	logEvery time.Duration
}

func newProgressBar(desc string, quiet bool) *progressBar {
	return &progressBar{quiet: quiet, terminal: isTerminal(os.Stderr), logEvery: 10 * time.Second, last: time.Now()}
}

func (p *progressBar) update(pr latformer.Progress) {
	if p.quiet {
		return
	}
	desc := fmt.Sprintf("loss %.4f cells %.3f exact %.2f", pr.Loss, pr.CellAccuracy, pr.Exact)
	if pr.Restarts > 1 {
		desc = fmt.Sprintf("restart %d/%d: %s", pr.Restart+1, pr.Restarts, desc)
	}
	if !p.terminal {
		if time.Since(p.last) >= p.logEvery {
			p.last = time.Now()
			fmt.Fprintf(os.Stderr, "training step %d/%d: %s\n", pr.Step, pr.MaxSteps, desc)
		}
		return
	}
	if p.bar == nil {
		p.bar = progressbar.NewOptions(pr.MaxSteps,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription("training"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	p.bar.Describe(desc)
	_ = p.bar.Set(pr.Step)
}

func (p *progressBar) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
