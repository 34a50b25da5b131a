package nytro

import (
	"math"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/papers/internal/papertest"
	"github.com/go-gota/gota/series"
)

// TestBenchmark checks the frame against fits made here with
// credlab's estimators and the paper's settings, one row per method,
// number of centers and seed (KOLS once), and the errors.
func TestBenchmark(t *testing.T) {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 8)
	df, _ := frames.FromMatrix(x, "a", "b")
	df = df.Mutate(series.New(y, series.Float, "y"))
	train, test, _ := frames.SplitRows(df, 0.3, 1)
	spec := Spec{Target: "y", Methods: []string{"kols", "nkrls", "NYTRO"}, Sigma: 0.5, Ms: []int{20, 40}, Seeds: []uint64{1, 2}, Steps: 30}
	out, err := Benchmark(train, test, spec)
	if err != nil {
		t.Fatal(err)
	}
	if out.Nrow() != 9 {
		t.Fatalf("%d rows, want KOLS once, NKRLS and NYTRO for 2 m x 2 seeds", out.Nrow())
	}
	meth := out.Col("method").Records()
	if meth[0] != "KOLS" || meth[1] != "NKRLS" || meth[8] != "NYTRO" {
		t.Errorf("methods %v", meth)
	}
	if m := out.Col("m").Float(); m[0] != 0 || m[1] != 20 || m[3] != 40 || m[8] != 40 {
		t.Errorf("m column %v", m)
	}
	if e := out.Col("test_error").Float(); !math.IsNaN(e[0]) {
		t.Errorf("sign error on a real target: %v", e[0])
	}
	if it := out.Col("iter").Float(); it[5] != 30 || it[8] != 30 {
		t.Errorf("NYTRO iterations %v, want 30: Steps = 30 runs every step, and this problem still improves at the last", it)
	}
	// Row 4: NKRLS, m = 40, seed 2, refitted here.
	xtr, _ := frames.ToMatrix(train, "a", "b")
	ytr, _ := frames.Column(train, "y")
	xte, _ := frames.ToMatrix(test, "a", "b")
	yte, _ := frames.Column(test, "y")
	fit, err := credlab.NKRLS(t.Context(), xtr, ytr, credlab.NKRLSConfig{Kernel: credlab.GaussianKernel{Sigma: 0.5},
		Nystrom: credlab.NystromConfig{M: 40, Seed: 2}, Holdout: credlab.Holdout{Seed: 2}})
	if err != nil {
		t.Fatal(err)
	}
	pred, _ := fit.Model.Predict(xte)
	if got, want := out.Col("test_rmse").Float()[4], credlab.RMSE(pred, yte); !papertest.Near(got, want) {
		t.Errorf("NKRLS m = 40, seed 2: test RMSE %v, refitted %v", got, want)
	}
	if got := out.Col("lambda").Float()[4]; got != fit.Lambda {
		t.Errorf("NKRLS lambda %v, refitted %v", got, fit.Lambda)
	}
	pts, err := TimedOf(out)
	if err != nil || len(pts) != 3 || pts[0].Name != "KOLS" || pts[2].Name != "NYTRO" {
		t.Fatalf("TimedOf: %+v %v", pts, err)
	}
	r := out.Col("test_rmse").Float()
	if !papertest.Near(pts[1].RMSE, (r[1]+r[2]+r[3]+r[4])/4) {
		t.Errorf("NKRLS mean RMSE %v, want %v", pts[1].RMSE, (r[1]+r[2]+r[3]+r[4])/4)
	}
	for _, bad := range []Spec{
		{Target: "y", Methods: []string{"magic"}, Sigma: 1},
		{Target: "y", Sigma: 0},
		{Target: "y", Sigma: 1, Ms: []int{0}},
		{Target: "y", Sigma: 1, Steps: -1},
		{Target: "z", Sigma: 1},
	} {
		if _, err := Benchmark(train, test, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
