package frames

import (
	"errors"
	"math"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/series"
)

func TestScoreValues(t *testing.T) {
	// Pairs (1,1), (2,3), (3,5): errors 0, 1, 2; mean target 3, total sum
	// of squares 8, residual 5.
	s, err := ScoreValues([]float64{1, 2, 3, math.NaN(), 9}, []float64{1, 3, 5, 7, math.NaN()})
	if err != nil {
		t.Fatal(err)
	}
	want := Scores{Rows: 3, RMSE: math.Sqrt(5.0 / 3), MAE: 1, R2: 1 - 5.0/8}
	if s.Rows != want.Rows || math.Abs(s.RMSE-want.RMSE) > 1e-15 || math.Abs(s.MAE-want.MAE) > 1e-15 || math.Abs(s.R2-want.R2) > 1e-15 {
		t.Errorf("got %+v, want %+v", s, want)
	}
	if s, _ := ScoreValues([]float64{1, 2}, []float64{4, 4}); !math.IsNaN(s.R2) {
		t.Errorf("constant targets: R2 %v, want NaN", s.R2)
	}
	if _, err := ScoreValues([]float64{math.NaN()}, []float64{1}); !errors.Is(err, credlab.ErrEmpty) {
		t.Errorf("nothing to score: %v", err)
	}
	if _, err := ScoreValues([]float64{1}, []float64{1, 2}); !errors.Is(err, credlab.ErrShape) {
		t.Errorf("lengths differ: %v", err)
	}
}

func TestScoreAndPredictWith(t *testing.T) {
	train, test := regFrame(t, 80, 1), regFrame(t, 30, 2)
	m, err := Fit(train, Spec{Target: "y", Method: "krls", Lambda: 1e-3, Sigma: 1})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Score(m, test)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.PredictValues(test)
	want, _ := ScoreValues(p, col(t, test, "y"))
	rmse, _ := m.RMSE(test)
	wantNames(t, sc, "rows", "rmse", "mae", "r2")
	if got := col(t, sc, "rmse")[0]; got != want.RMSE || got != rmse || col(t, sc, "rows")[0] != 30 || col(t, sc, "r2")[0] != want.R2 {
		t.Errorf("Score %v, want %+v (RMSE %v)", sc.Records(), want, rmse)
	}
	if _, err := Score(m, test.Drop("y")); !errors.As(err, new(*ColumnError)) {
		t.Errorf("no target column: %v", err)
	}

	// A missing feature value: an error by default, skipped on request.
	a := col(t, test, "a")
	a[4] = math.NaN()
	holed := test.Mutate(series.New(a, series.Float, "a"))
	before := snapshot(holed)
	if _, _, err := PredictWith(m, holed, PredictOptions{}); !errors.As(err, new(*MissingError)) {
		t.Fatalf("missing value without SkipMissing: %v", err)
	}
	out, skipped, err := PredictWith(m, holed, PredictOptions{SkipMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0] != 4 {
		t.Errorf("skipped %v, want [4]", skipped)
	}
	got := col(t, out, PredictionColumn)
	for i := range got {
		if i == 4 && !math.IsNaN(got[i]) || i != 4 && got[i] != p[i] {
			t.Errorf("row %d: prediction %v, want %v", i, got[i], map[bool]float64{true: math.NaN(), false: p[i]}[i == 4])
		}
	}
	if snapshot(holed) != before {
		t.Error("PredictWith modified its input")
	}
}
