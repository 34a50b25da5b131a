package viz

import (
	"math"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
)

func budgetFigures() map[string]func() (*Figure, error) {
	lambdas := []float64{1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1}
	deff := make([]float64, len(lambdas))
	for i, l := range lambdas {
		deff[i] = 300 / (1 + 40*math.Pow(l, 0.4)*100)
	}
	scores := make([]float64, 2000)
	for i := range scores {
		scores[i] = 1 / (1 + float64(i%500)/5)
	}
	curves := []credlab.LearningCurve{
		{Method: "uniform", Labels: []int{20, 40, 60, 80, 100}, RMSE: []float64{0.5, 0.36, 0.3, 0.26, 0.24}, A: 2.1, B: 0.48,
			Project: []int{100, 200, 400, 800}, Projected: []float64{0.228, 0.164, 0.117, 0.084}},
		{Method: "cred", Labels: []int{20, 40, 60, 80, 100}, RMSE: []float64{0.42, 0.3, 0.25, 0.21, 0.19}, A: 2.0, B: 0.52,
			Project: []int{100, 200, 400, 800}, Projected: []float64{0.182, 0.127, 0.088, 0.062}},
	}
	return map[string]func() (*Figure, error){
		"effective_dimension": func() (*Figure, error) { return EffectiveDimension(lambdas, deff, Options{}) },
		"score_concentration": func() (*Figure, error) { return ScoreConcentration(scores, Options{}) },
		"projected_learning_curves": func() (*Figure, error) {
			return ProjectedLearningCurves(curves, Options{})
		},
	}
}

// goldenFigures are the figures TestGolden checks: figures() and the
// budget figures.
func goldenFigures() map[string]func() (*Figure, error) {
	all := figures()
	for name, build := range budgetFigures() {
		all[name] = build
	}
	return all
}

func TestBudgetFigureErrors(t *testing.T) {
	if _, err := EffectiveDimension([]float64{0, 1}, []float64{1, 2}, Options{}); err == nil {
		t.Error("lambda 0 on a log axis accepted")
	}
	if _, err := ScoreConcentration([]float64{1, -1}, Options{}); err == nil {
		t.Error("negative score accepted")
	}
	if _, err := ProjectedLearningCurves(nil, Options{}); err == nil {
		t.Error("no curves accepted")
	}
	f, err := ScoreConcentration([]float64{1, 1, 1, 1}, Options{})
	if err != nil || !strings.Contains(f.SVG(), "variance gain: 1.00x") {
		t.Errorf("flat scores: %v", err)
	}
}

// A curve whose RMSE did not fall (B = 0) is drawn without a projection.
func TestProjectedLearningCurvesFlat(t *testing.T) {
	for _, c := range []struct {
		b    float64
		want string
		not  string
	}{
		{0, "default fit (measured; not falling: no projection)", "default fit projected"},
		{0.3, "default fit projected: sqrt(0.05^2 + (0.1 n^-0.3)^2)", "no projection"},
	} {
		curve := credlab.LearningCurve{Method: "default fit", Labels: []int{40, 48, 54}, RMSE: []float64{0.1, 0.11, 0.1}, A: 0.1, B: c.b, Floor: 0.05,
			Project: []int{60, 90, 120}, Projected: []float64{0.1, 0.1, 0.1}}
		f, err := ProjectedLearningCurves([]credlab.LearningCurve{curve}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if svg := f.SVG(); !strings.Contains(svg, c.want) || strings.Contains(svg, c.not) {
			t.Errorf("B = %g: the figure does not read %q, or reads %q", c.b, c.want, c.not)
		}
	}
}
