package main

import (
	"fmt"
	"os"
	"time"

	"github.com/latformer/latformer/latformer"
	"github.com/schollz/progressbar/v3"
)

// progressBar shows training progress (step, loss, accuracy, ETA) on stderr.
type progressBar struct {
	bar   *progressbar.ProgressBar
	quiet bool
}

func newProgressBar(desc string, quiet bool) *progressBar {
	return &progressBar{quiet: quiet, bar: nil}
}

func (p *progressBar) update(pr latformer.Progress) {
	if p.quiet {
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
	p.bar.Describe(fmt.Sprintf("loss %.4f cells %.3f exact %.2f", pr.Loss, pr.CellAccuracy, pr.Exact))
	_ = p.bar.Set(pr.Step)
}

func (p *progressBar) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
