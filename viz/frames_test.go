package viz_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/papers/cred"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

func regFrame(t testing.TB, n int, seed uint64) dataframe.DataFrame {
	x, y, _ := credlab.SmoothRegression(n, 2, 0.1, seed)
	df, err := frames.FromMatrix(x, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	return df.Mutate(series.New(y, series.Float, "y"))
}

func wantErrText(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}

func TestSweepCurves(t *testing.T) {
	df := regFrame(t, 160, 5)
	sw, err := frames.Sweep(df, frames.Spec{Target: "y", Method: "linear", FeatureMap: "fourier", Sigma: 0.4, Lambdas: []float64{1e-4, 1e-2}}, frames.Grid{M: []int{20, 60}})
	if err != nil {
		t.Fatal(err)
	}
	curves, err := viz.SweepCurves(sw)
	if err != nil {
		t.Fatal(err)
	}
	if len(curves) != 2 || curves[1].Name != "linear m=60" || len(curves[0].X) != 2 || curves[0].Chosen == 0 {
		t.Errorf("curves %+v", curves)
	}
	if _, err := viz.RegularizationPath(curves, viz.Options{}); err != nil {
		t.Error(err)
	}
	g, err := viz.SweepHeatmap(sw, "lambda", "m")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(g.X, g.Y) != "[0.0001 0.01] [20 60]" {
		t.Errorf("grid axes %v %v", g.X, g.Y)
	}
	if len(g.Z) != 2 || len(g.Z[0]) != 2 || math.IsNaN(g.Z[1][1]) {
		t.Errorf("grid %+v", g)
	}
	if _, err := viz.Heatmap(g, viz.Options{}); err != nil {
		t.Error(err)
	}
	_, err = viz.SweepHeatmap(sw, "lambda", "lambda")
	wantErrText(t, err, "two different parameters")
	_, err = viz.SweepHeatmap(sw, "val_rmse", "m")
	wantErrText(t, err, `"val_rmse" is not a sweep parameter`)
	// SGM: X is the number of passes.
	sw, err = frames.Sweep(df, frames.Spec{Target: "y", Method: "sgm", Sigma: 0.4, Seed: 2}, frames.Grid{Batch: []int{4, 16}, Passes: []int{1, 2, 5}})
	if err != nil {
		t.Fatal(err)
	}
	passes, _ := frames.Column(sw, "passes")
	if curves, err := viz.SweepCurves(sw); err != nil || curves[1].Name != "sgm b=16" || curves[0].X[2] != passes[2] {
		t.Errorf("sgm curves %+v, %v", curves, err)
	}
	_, err = viz.SweepCurves(df)
	wantErrText(t, err, `column named "setting"`, "Sweep returned")
}

func TestSeriesOf(t *testing.T) {
	df := dataframe.New(
		series.New([]string{"x", "y", "x", "y"}, series.String, "g"),
		series.New([]float64{2, 1, 1, 2}, series.Float, "a"),
		series.New([]float64{20, 10, 10, math.NaN()}, series.Float, "b"),
		series.New([]float64{0.1, 0.2, 0.3, 0.4}, series.Float, "e"),
		series.New([]int{5, 6, 5, 6}, series.Int, "k"))
	s, err := viz.SeriesOf(df, "g", "a", "b", "e")
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 || s[0].Name != "x" || s[1].Name != "y" {
		t.Fatalf("series %+v", s)
	}
	if s[0].X[0] != 1 || s[0].Y[0] != 10 || s[0].Err[0] != 0.3 {
		t.Errorf("not sorted by X: %+v", s[0])
	}
	if len(s[1].X) != 1 {
		t.Errorf("NaN row kept: %+v", s[1])
	}
	s, err = viz.SeriesOf(df, "k", "a", "b", "")
	if err != nil {
		t.Fatal(err)
	}
	if s[0].Name != "k = 5" || s[0].Err != nil {
		t.Errorf("numeric group name %q, err %v", s[0].Name, s[0].Err)
	}
	s, err = viz.SeriesOf(df, "", "a", "b", "")
	if err != nil || len(s) != 1 || s[0].Name != "b" {
		t.Errorf("ungrouped: %+v %v", s, err)
	}
	if _, err := viz.SeriesOf(df, "g", "a", "bb", ""); err == nil {
		t.Error("missing column accepted")
	}
}

func TestSelectionFigure(t *testing.T) {
	pool, _ := cred.ToyPool(5000, 0.1, 2)
	chosen, err := frames.Select(pool, 50, frames.SelectSpec{Exclude: []string{"y"}, FeatureMap: "raw", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	fig, err := viz.SelectionFigure(pool, chosen, "x1", "x2", 200, viz.Options{Title: "CRED"})
	if err != nil {
		t.Fatal(err)
	}
	svg := fig.SVG()
	if !strings.Contains(svg, "CRED") || !strings.Contains(svg, "pool (") {
		t.Error("figure lacks its title or pool legend")
	}
	if _, err := viz.SelectionFigure(pool, pool, "x1", "x2", 200, viz.Options{}); err == nil {
		t.Error("a frame without Select's columns accepted")
	}
}

// Plot a sweep as a heatmap; the figure's SVG method is what a notebook
// displays.
func ExampleSweepHeatmap() {
	x, y, _ := credlab.SmoothRegression(300, 2, 0.1, 4)
	df, _ := frames.FromMatrix(x, "a", "b")
	df = df.Mutate(series.New(y, series.Float, "y"))
	sw, _ := frames.Sweep(df, frames.Spec{Target: "y", Method: "krls", Seed: 1},
		frames.Grid{Sigma: []float64{0.1, 0.3, 1}, Lambda: credlab.LogGrid(1e-8, 1e-1, 8)})
	grid, _ := viz.SweepHeatmap(sw, "lambda", "sigma")
	fig, err := viz.Heatmap(grid, viz.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg := fig.SVG()
	fmt.Println(strings.SplitN(svg, "\n", 2)[0])
	fmt.Println(strings.Contains(svg, "validation RMSE over lambda and sigma"), strings.HasSuffix(svg, "</svg>\n"))
	// Output:
	// <?xml version="1.0"?>
	// true true
}
