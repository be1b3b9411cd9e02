package latformer

import (
	"testing"
	"time"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/internal/testutil"
)

func TestZZProf(t *testing.T) {
	dir := arcDirOrEmpty(t)
	all, _ := datasets.LoadDir(dir)
	for _, task := range all {
		if task.ID != "dc433765" {
			continue
		}
		train := onCanvas(t, task)
		rules := FrameCandidates(train, 32)
		cache, err := NewLearnerCacheFor(LatFormerArchitecture(), testutil.Backend(t), parse(t, "gate_init=paper;experts=rotation,reflection,scaling;augment_copies=4;train_steps=30;train_restarts=1;train_hard_steps=0;train_gate_beam=0;expert_lattice=anchored;expert_frame_candidates=32"))
		if err != nil {
			t.Fatal(err)
		}
		l, _, _ := cache.Learner(train[0].Input.Rows, train[0].Input.Cols)
		st := time.Now()
		fit, err := l.Fit(WithFrameCandidates(rules, train), nil, nil)
		t.Logf("%d rules, fit %v steps %d in %v (compile %v)", len(rules), err, fit.TotalSteps, time.Since(st), fit.Compile)
	}
}
