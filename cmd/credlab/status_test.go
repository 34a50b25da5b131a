package main

import (
	"math"
	"testing"
	"time"

	"github.com/credlab/credlab/credlab"
)

// TestSearchStatus: the progress line names the stage and what it does,
// the best criterion when there is one, and the time left in the budget.
func TestSearchStatus(t *testing.T) {
	for _, c := range []struct {
		s    credlab.TuneStatus
		want string
	}{
		{credlab.TuneStatus{Stage: "relevance", BestRMSE: math.Inf(1)}, "stage relevance (learning the columns' relevance)"},
		{credlab.TuneStatus{Stage: "coarse", BestRMSE: 0.25}, "stage coarse (searching sigma and lambda), best criterion RMSE 0.25"},
		{credlab.TuneStatus{Stage: "estimate", BestRMSE: math.NaN()}, "stage estimate (refitting on folds to estimate the error)"},
		{credlab.TuneStatus{Stage: "other", BestRMSE: 1}, "stage other, best criterion RMSE 1"},
		{credlab.TuneStatus{Stage: "model", BestRMSE: 2, Deadline: time.Now().Add(-time.Second)}, "stage model (fitting the choice on all rows), best criterion RMSE 2, at most 0s left in the time budget"},
	} {
		if got := searchStatus(c.s); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
	// Every stage a default fit reports has its words.
	x, y, _ := credlab.SmoothRegression(400, 3, 0.1, 2)
	seen := map[string]bool{}
	if _, err := credlab.Tune(t.Context(), x, y, credlab.TuneConfig{TimeBudget: -1, Status: func(s credlab.TuneStatus) { seen[s.Stage] = true }}); err != nil {
		t.Fatal(err)
	}
	for st := range seen {
		if stageWords[st] == "" {
			t.Errorf("stage %q has no words", st)
		}
	}
	if len(seen) < 5 {
		t.Errorf("stages %v", seen)
	}
}
