package frames

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/series"
)

func TestBudget(t *testing.T) {
	ctx := context.Background()
	pool := regFrame(t, 300, 7)
	before := snapshot(pool)
	r, err := Budget(ctx, pool, BudgetSpec{Target: "y", Sigma: 0.5, LambdaQ: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, r.Summary, "rows", "d_eff", "tv", "top1_share", "max_over_mean", "variance_gain")
	wantNames(t, r.Deff, "lambda", "d_eff")
	wantNames(t, r.Scores, "row", "score", "prob")
	if r.Scores.Nrow() != 300 || r.Curves.Nrow() != 0 || snapshot(pool) != before {
		t.Fatalf("%d scores, %d curve rows; pool modified: %v", r.Scores.Nrow(), r.Curves.Nrow(), snapshot(pool) != before)
	}
	d := col(t, r.Deff, "d_eff")
	for i := 1; i < len(d); i++ {
		if d[i] > d[i-1] {
			t.Fatalf("d_eff rises with lambda: %v", d)
		}
	}
	pilot, err := Select(pool, 60, SelectSpec{Method: "uniform", Design: "without", Exclude: []string{"y"}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	r, err = Budget(ctx, pool, BudgetSpec{Target: "y", Sigma: 0.5, LambdaQ: 1e-4, Pilot: &pilot, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, r.Curves, "method", "kind", "labels", "rmse")
	statuses, last := 0, ""
	bounded, err := Budget(ctx, pool, BudgetSpec{Target: "y", Sigma: 0.5, LambdaQ: 1e-4, Pilot: &pilot, Seed: 1,
		TimeBudget: time.Nanosecond, Progress: func(s credlab.TuneStatus) { statuses, last = statuses+1, s.Stage }})
	if err != nil {
		t.Fatal(err)
	}
	if statuses < 2 || last != "curves" || !slices.ContainsFunc(bounded.Notes, func(n string) bool {
		return strings.HasPrefix(n, "warning: the default fit on the 60 pilot rows: the time budget of 1ns stopped the search")
	}) {
		t.Errorf("%d statuses, the last %q, notes %q", statuses, last, bounded.Notes)
	}
	if len(r.LearningCurves) != 3 || r.Curves.Nrow() == 0 {
		t.Fatalf("curves %+v", r.LearningCurves)
	}
	if c := r.LearningCurves[2]; c.Method != "default fit" || !slices.Equal(c.Project, []int{60, 90, 120}) || len(c.Projected) != 3 || !(c.Projected[2] <= c.Projected[0]) {
		t.Errorf("the default fit's curve %+v, want projections to 60, 90 and 120 labels, falling", c)
	}
	small := pilot.Subset([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	_, err = Budget(ctx, pool, BudgetSpec{Target: "y", Sigma: 0.5, Pilot: &small})
	var be *credlab.ParamError
	if !errors.As(err, &be) || be.Name != "pilot labels" || be.Value != 10 {
		t.Errorf("pilot of 10: %v", err)
	}
	_, err = Budget(ctx, pool, BudgetSpec{Sigma: 0.5, Pilot: &pilot})
	wantParam("BudgetSpec.Target")(t, err)
	// A pilot whose rows are not the pool's (here every value of b moved).
	moved := pilot.Mutate(series.New(append(col(t, pilot, "b")[1:], col(t, pilot, "b")[0]), series.Float, "b"))
	_, err = Budget(ctx, pool, BudgetSpec{Target: "y", Sigma: 0.5, Pilot: &moved})
	if e, ok := asError[*PoolRowsError](t, err); ok && (e.Column != "b" || e.Row != 0) {
		t.Errorf("pilot with other values of b: %v", err)
	}
}
