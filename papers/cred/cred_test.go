package cred

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/papers/internal/papertest"
	"github.com/go-gota/gota/dataframe"
)

func TestToyPool(t *testing.T) {
	pool, err := ToyPool(20000, 0.1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if pool.Nrow() != 20000 || strings.Join(pool.Names(), ",") != "x1,x2,y" {
		t.Fatalf("pool %d x %v", pool.Nrow(), pool.Names())
	}
	s, _ := frames.Summarize(pool, nil, "x1", "x2")
	sd := s.Col(frames.SummarySD).Float()
	if math.Abs(sd[0]-1) > 0.03 || math.Abs(sd[1]-0.1) > 0.003 {
		t.Errorf("standard deviations %v, want 1 and 0.1", sd)
	}
	again, _ := ToyPool(20000, 0.1, 1)
	if again.Col("y").Float()[7] != pool.Col("y").Float()[7] {
		t.Error("same seed, different pool")
	}
	if _, err := ToyPool(0, 0.1, 1); err == nil {
		t.Error("empty pool accepted")
	}
}

func TestCoefficientTrials(t *testing.T) {
	pool, _ := ToyPool(20000, 0.1, 3)
	cred := credlab.CREDSelector{Features: credlab.RawFeatures{}, LambdaQ: 1e-6}
	a, err := CoefficientTrials(pool, TrialSpec{Target: "y", Labels: 3, Trials: 300, Name: "CRED", Select: frames.SelectSpec{Selector: cred, Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := CoefficientTrials(pool, TrialSpec{Target: "y", Labels: 3, Trials: 300, Select: frames.SelectSpec{Method: "uniform", Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	// The trials are draws with replacement, whatever frames.Select's default.
	r, err := CoefficientTrials(pool, TrialSpec{Target: "y", Labels: 3, Trials: 300, Select: frames.SelectSpec{Method: "uniform", Design: "replacement", Seed: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(u.Records()), fmt.Sprint(r.Records()); got != want {
		t.Error("CoefficientTrials with Design \"\" differs from Design \"replacement\"")
	}
	if a.Nrow() != 300 || strings.Join(a.Names(), ",") != "labeling,trial,x1,x2" || u.Col("labeling").Records()[0] != "uniform" {
		t.Fatalf("trials frame %v %v", a.Names(), u.Col("labeling").Records()[0])
	}
	// CRED favours large |x2| and so estimates b2 more tightly (IQR).
	s, _ := frames.Summarize(a.RBind(u), []string{"labeling"}, "x2")
	q25, q75 := s.Col(frames.SummaryQ25).Float(), s.Col(frames.SummaryQ75).Float()
	if credIQR, uniIQR := q75[0]-q25[0], q75[1]-q25[1]; !(credIQR < uniIQR) {
		t.Errorf("IQR of b2: CRED %.3g, uniform %.3g", credIQR, uniIQR)
	}
	// The first trial equals a direct weighted least-squares fit.
	chosen, _ := frames.Select(pool, 900, frames.SelectSpec{Selector: cred, Seed: 4, Features: []string{"x1", "x2"}})
	x, _ := frames.ToMatrix(chosen.Subset([]int{0, 1, 2}), "x1", "x2")
	y, _ := frames.Column(chosen.Subset([]int{0, 1, 2}), "y")
	w, _ := frames.Column(chosen.Subset([]int{0, 1, 2}), frames.WeightColumn)
	fit, err := credlab.LinearRLS(context.Background(), x, y, credlab.LinearRLSConfig{Features: credlab.RawFeatures{}, Lambda: 1e-10, Weights: w})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Col("x1").Float()[0]; !papertest.Near(got, fit.Model.Coef[0]) {
		t.Errorf("trial 0 b1 = %v, direct fit %v", got, fit.Model.Coef[0])
	}
	sp, out, err := SpreadOf(a.RBind(u), "uniform", "x1", "x2", 0, 0)
	if err != nil || len(sp.B1) != 300 || out != 0 {
		t.Errorf("SpreadOf: %d %d %v", len(sp.B1), out, err)
	}
	sp, out, _ = SpreadOf(a.RBind(u), "uniform", "x1", "x2", 0.9, 1.1)
	if len(sp.B1)+out != 300 || out == 0 {
		t.Errorf("SpreadOf in a window: %d kept, %d left out", len(sp.B1), out)
	}
	for i := range sp.B1 {
		if sp.B1[i] < 0.9 || sp.B2[i] > 1.1 {
			t.Fatalf("estimate (%v, %v) outside the window", sp.B1[i], sp.B2[i])
		}
	}
	if _, _, err := SpreadOf(a, "nothing", "x1", "x2", 0, 0); err == nil {
		t.Error("unknown labeling accepted")
	}
	if _, err := CoefficientTrials(pool, TrialSpec{Target: "y", Labels: 0, Trials: 3}); err == nil {
		t.Error("zero labels accepted")
	}
}

// benchPool returns a small pool and test set with a few correlated
// features of very different scales.
func benchPool(n, nt int) (dataframe.DataFrame, dataframe.DataFrame) {
	x, _, _ := credlab.SmoothRegression(n+nt, 4, 0, 5)
	raw := x.RawMatrix()
	for i := 0; i < n+nt; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+4]
		row[3] = 0.05*row[3] + 0.5*row[0]
	}
	df, _ := frames.FromMatrix(x, "a", "b", "c", "d")
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	tidx := make([]int, nt)
	for i := range tidx {
		tidx[i] = n + i
	}
	return df.Subset(idx), df.Subset(tidx)
}

func TestLabelingBenchmark(t *testing.T) {
	pool, test := benchPool(400, 100)
	for _, fm := range []string{"raw", "relu"} {
		df, err := LabelingBenchmark(pool, test, BenchmarkSpec{FeatureMap: fm, Widths: []int{30}, Ns: []int{40, 20}, NoiseVars: []float64{1e-4, 1},
			Reps: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if df.Nrow() != 4*2*2*2 {
			t.Fatalf("%s: %d rows, want 32", fm, df.Nrow())
		}
		for i, v := range df.Col("test_rmse").Float() {
			if math.IsNaN(v) || v < 0 {
				t.Fatalf("%s: row %d RMSE %v", fm, i, v)
			}
		}
		if fm != "raw" {
			continue
		}
		// More noise, more error, for every method on the linear task.
		p, _ := frames.Pivot(df, []string{"method", "n"}, "noise_var", "test_rmse", "median")
		lo, hi := p.Col("0.0001").Float(), p.Col("1").Float()
		for i := range lo {
			if !(lo[i] < hi[i]) {
				t.Errorf("%s: row %d: RMSE %v at noise 1e-4, %v at noise 1", fm, i, lo[i], hi[i])
			}
		}
	}
	if _, err := LabelingBenchmark(pool, test, BenchmarkSpec{Ns: []int{401}}); err == nil {
		t.Error("labeled size beyond the pool accepted")
	}
	if _, err := LabelingBenchmark(pool, test, BenchmarkSpec{Methods: []string{"KRR", "GP"}}); err == nil {
		t.Error("unknown method accepted")
	}
}
