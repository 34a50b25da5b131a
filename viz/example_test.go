package viz_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/viz"
	"gonum.org/v1/gonum/mat"
)

// Plot the validation path of two solvers. In a notebook, return fig from
// the cell to see it; fig.WriteSVG("curves.svg") saves it.
func ExampleLearningCurves() {
	x, y, _ := credlab.SmoothRegression(400, 2, 0.1, 1)
	k := credlab.GaussianKernel{Sigma: 0.4}
	iter := credlab.IterConfig{MaxIter: 100, Threshold: -1}
	nytro, _ := credlab.NYTRO(context.Background(), x, y, credlab.NYTROConfig{Kernel: k, Nystrom: credlab.NystromConfig{M: 50}, IterConfig: iter})
	es, _ := credlab.EarlyStopping(context.Background(), x, y, credlab.EarlyStoppingConfig{Kernel: k, IterConfig: iter})
	fig, err := viz.LearningCurves([]viz.Curve{viz.CurveFromFit("NYTRO", nytro), viz.CurveFromFit("early stopping", es)}, viz.Options{LogX: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg := fig.SVG()
	fmt.Println(strings.SplitN(svg, "\n", 2)[0])
	fmt.Println(strings.Count(svg, ">NYTRO (validation)<"), strings.Count(svg, ">early stopping (training)<"))
	// Output:
	// <?xml version="1.0"?>
	// 1 1
}

// The CRED paper's Fig. 1: the pool and the chosen points, sized by weight.
func ExampleSelectionScatter() {
	x, _, _ := credlab.SmoothRegression(300, 2, 0, 1)
	sel, err := credlab.CREDSelector{Kernel: credlab.GaussianKernel{Sigma: 0.3}}.Select(context.Background(), x, 30, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fig, err := viz.SelectionScatter(credlabCol(x, 0), credlabCol(x, 1), sel, viz.Options{Title: "CRED selection"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Contains(fig.SVG(), ">CRED selection<"), strings.Contains(fig.SVG(), "pool (300 rows)"))
	// Output:
	// true true
}

// A test-error-against-noise figure on log-log axes (the CRED paper's
// Fig. 3), from plain slices.
func ExampleNoiseCurves() {
	noise := []float64{0.01, 0.1, 1}
	fig, err := viz.NoiseCurves([]viz.Series{
		{Name: "CRED", X: noise, Y: []float64{0.02, 0.1, 1}},
		{Name: "uniform", X: noise, Y: []float64{0.05, 0.2, 1.2}},
	}, viz.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	svg := fig.SVG()
	fmt.Println(len(svg) > 1000, strings.Count(svg, "<path") > 10)
	// Output:
	// true true
}

// credlabCol returns column j of x.
func credlabCol(x *mat.Dense, j int) []float64 { return mat.Col(nil, j, x) }
