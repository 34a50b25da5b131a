package sgm

import (
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/series"
)

func TestPassGrid(t *testing.T) {
	g := PassGrid(1000, 4)
	if len(g) != 4 || g[0] != 1 || g[1] != 10 || g[3] != 1000 {
		t.Errorf("PassGrid(1000, 4) = %v", g)
	}
	if g := PassGrid(3, 10); g[len(g)-1] != 3 || len(g) != 3 {
		t.Errorf("PassGrid(3, 10) = %v", g)
	}
}

func TestErrorDecomposition(t *testing.T) {
	df, err := ErrorDecomposition(DecompositionSpec{M: 30, Population: 300, Trials: 2, Passes: []int{1, 5, 50}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 9 {
		t.Fatalf("%d rows, want 3 presets x 3 passes", df.Nrow())
	}
	d, err := DecompositionOf(df, "batch")
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.X {
		if d.ComputationalVariance[i] != 0 {
			t.Errorf("batch GD has computational variance %v", d.ComputationalVariance[i])
		}
	}
	if !(d.Bias[2] < d.Bias[0]) {
		t.Errorf("bias does not fall with the passes: %v", d.Bias)
	}
	mb, _ := DecompositionOf(df, "minibatch")
	if mb.X[1] != 5 || mb.ComputationalVariance[1] <= 0 {
		t.Errorf("minibatch passes %v, computational variance %v", mb.X, mb.ComputationalVariance)
	}
	if _, err := DecompositionOf(df, "adam"); err == nil {
		t.Error("unknown preset accepted")
	}
	if _, err := ErrorDecomposition(DecompositionSpec{Presets: []string{"adam"}, Trials: 1, M: 10, Population: 50}); err == nil {
		t.Error("unknown preset accepted")
	}
}

func TestPassErrors(t *testing.T) {
	x, _, f := credlab.SmoothRegression(200, 2, 0, 6)
	df, _ := frames.FromMatrix(x, "a", "b")
	lab := make([]float64, len(f))
	for i, v := range f {
		if v > 0 {
			lab[i] = 1
		}
	}
	df = df.Mutate(series.New(lab, series.Float, "y"))
	out, err := PassErrors(df, PassSpec{Target: "y", Passes: []int{1, 10, 100}, Splits: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if out.Nrow() != 3*3*2 {
		t.Fatalf("%d rows, want 18", out.Nrow())
	}
	s, _ := frames.Summarize(out, []string{"preset", "passes"}, "test_error")
	for _, v := range s.Col(frames.SummaryMean).Float() {
		if v < 0 || v > 1 {
			t.Fatalf("error rate %v", v)
		}
	}
	if last := s.Col(frames.SummaryMean).Float()[2]; last > 0.25 {
		t.Errorf("minibatch test error after 100 passes %v, want a learned classifier", last)
	}
	bad := df.Mutate(series.New(f, series.Float, "y"))
	if _, err := PassErrors(bad, PassSpec{Target: "y"}); err == nil {
		t.Error("real-valued labels accepted")
	}
}
