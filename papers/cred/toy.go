package cred

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// This file holds the CRED paper's Figures 1 and 2: the two-dimensional
// Gaussian pool and repeated least-squares fits on a few labels.

// ToyPool returns the pool of the CRED paper's Figures 1 and 2: n rows
// with x1 ~ N(0, 1) and x2 ~ N(0, 0.01) (standard deviation 0.1), and one
// noisy label per row, y = x1 + x2 + noise * N(0, 1) (the paper: noise
// variance 0.01, noise = 0.1). The same seed gives the same pool.
func ToyPool(n int, noise float64, seed uint64) (dataframe.DataFrame, error) {
	if n <= 0 {
		return dataframe.DataFrame{}, &credlab.ParamError{Name: "ToyPool n", Value: n, Want: "a positive number of rows"}
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return dataframe.DataFrame{}, &credlab.ParamError{Name: "ToyPool noise", Value: noise, Want: "a finite noise >= 0"}
	}
	x := toyPool(n, seed)
	y := toyLabels(x, noise, seed, 0)
	xy := mat.NewDense(n, 3, nil)
	xy.Slice(0, n, 0, 2).(*mat.Dense).Copy(x)
	xy.SetCol(2, y)
	return frames.FromMatrix(xy, "x1", "x2", "y")
}

// toyPool returns n points of the Figures 1 and 2 pool: x1 ~ N(0, 1),
// x2 ~ N(0, 0.01).
func toyPool(n int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 0x746f79))
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		x.Set(i, 0, rng.NormFloat64())
		x.Set(i, 1, 0.1*rng.NormFloat64())
	}
	return x
}

// toyLabels returns one label per pool row, y = x1 + x2 + noise N(0, 1);
// draw numbers independent label sets.
func toyLabels(x *mat.Dense, noise float64, seed, draw uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, draw+1))
	n, _ := x.Dims()
	y := make([]float64, n)
	for i := range y {
		y[i] = x.At(i, 0) + x.At(i, 1) + noise*rng.NormFloat64()
	}
	return y
}

// trialCoefficients fits ridge regression with penalty lambda (weighted by
// w when not nil) on each of trials consecutive groups of labels rows of x
// and returns the coefficients, coefs[j][t] for column j and trial t.
func trialCoefficients(ctx context.Context, x *mat.Dense, y, w []float64, labels, trials int, lambda float64) ([][]float64, error) {
	_, d := x.Dims()
	coefs := make([][]float64, d)
	for t := 0; t < trials; t++ {
		lo, hi := t*labels, (t+1)*labels
		cfg := credlab.LinearRLSConfig{Lambda: lambda}
		if w != nil {
			cfg.Weights = w[lo:hi]
		}
		fit, err := credlab.LinearRLS(ctx, x.Slice(lo, hi, 0, d).(*mat.Dense), y[lo:hi], cfg)
		if err != nil {
			return nil, fmt.Errorf("papers: trial %d: %w", t, err)
		}
		for j := range coefs {
			coefs[j] = append(coefs[j], fit.Model.Coef[j])
		}
	}
	return coefs, nil
}

// TrialSpec configures CoefficientTrials.
type TrialSpec struct {
	// Name labels the trials in the "labeling" column (default: the
	// selection method, "cred" or "uniform").
	Name string
	// Target is the label column; Features (default: every numeric column
	// but the target and the bookkeeping columns) the regressors, fitted
	// without intercept.
	Target   string
	Features []string
	// Labels is the number of rows labeled per trial (the paper: 3) and
	// Trials the number of trials (the paper: 1000).
	Labels, Trials int
	// Select draws the rows: all Labels x Trials rows in one call, so that
	// consecutive groups are independent draws (with replacement: Design
	// "" is "replacement" here). Its Features default to the trial's.
	Select frames.SelectSpec
	// Unweighted fits without the importance weights.
	Unweighted bool
	// Lambda is a ridge penalty lambda n ||b||^2; default 1e-10, negligible.
	Lambda float64
}

// CoefficientTrials repeats a small importance-labeling experiment (the
// CRED paper's Figure 2): Trials times, label Labels rows of pool drawn by
// spec.Select and fit (importance-weighted) least squares on them. It
// returns one row per trial: "labeling" (spec.Name), "trial" and one column
// per feature holding its coefficient.
func CoefficientTrials(pool dataframe.DataFrame, spec TrialSpec) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := frames.CheckFrame(pool, "pool"); err != nil {
		return none, err
	}
	if spec.Target == "" {
		return none, &credlab.ParamError{Name: "TrialSpec.Target", Value: `""`, Want: "the name of the target column"}
	}
	if spec.Labels <= 0 || spec.Trials <= 0 {
		name, v := "TrialSpec.Labels", spec.Labels
		if v > 0 {
			name, v = "TrialSpec.Trials", spec.Trials
		}
		return none, &credlab.ParamError{Name: name, Value: v, Want: "a positive number"}
	}
	if err := frames.FindColumn(pool, spec.Target, "target"); err != nil {
		return none, err
	}
	feats, err := frames.FeatureColumns(pool, frames.Spec{Target: spec.Target, Features: spec.Features})
	if err != nil {
		return none, err
	}
	sel := spec.Select
	if sel.Design == "" {
		sel.Design = "replacement"
	}
	if len(sel.Features) == 0 && len(sel.Exclude) == 0 {
		sel.Features = feats
	}
	chosen, err := frames.Select(pool, spec.Labels*spec.Trials, sel)
	if err != nil {
		return none, err
	}
	x, err := frames.ToMatrix(chosen, feats...)
	if err != nil {
		return none, err
	}
	y, err := frames.FiniteColumn(chosen, spec.Target)
	if err != nil {
		return none, err
	}
	w, _ := frames.Column(chosen, frames.WeightColumn)
	lambda := spec.Lambda
	if lambda == 0 {
		lambda = 1e-10
	}
	name := spec.Name
	if name == "" {
		name = strings.ToLower(sel.Method)
		if name == "" {
			name = "cred"
		}
		if sel.Selector != nil {
			name = "custom"
		}
	}
	if spec.Unweighted {
		w = nil
	}
	coefs, err := trialCoefficients(context.Background(), x, y, w, spec.Labels, spec.Trials, lambda)
	if err != nil {
		return none, err
	}
	trial := make([]int, spec.Trials)
	labels := make([]string, spec.Trials)
	for t := range trial {
		trial[t], labels[t] = t, name
	}
	cols := []series.Series{series.New(labels, series.String, "labeling"), series.New(trial, series.Int, "trial")}
	for j, f := range feats {
		cols = append(cols, series.New(coefs[j], series.Float, f))
	}
	return dataframe.New(cols...), nil
}

// SpreadOf returns the coefficients b1 and b2 of the rows of trials whose
// "labeling" is name, for viz.CoefficientSpread, keeping the estimates
// with both coefficients in [lo, hi] (all of them when lo >= hi): least
// squares on a few labels has heavy tails that would squash the plot. It
// also returns the number of estimates left out.
func SpreadOf(trials dataframe.DataFrame, name, b1, b2 string, lo, hi float64) (viz.Spread, int, error) {
	if err := frames.CheckFrame(trials, "trials"); err != nil {
		return viz.Spread{}, 0, err
	}
	if err := frames.FindColumn(trials, "labeling", ""); err != nil {
		return viz.Spread{}, 0, fmt.Errorf("%w (pass the frame CoefficientTrials returned)", err)
	}
	lab := trials.Col("labeling").Records()
	c1, err := frames.Column(trials, b1)
	if err != nil {
		return viz.Spread{}, 0, err
	}
	c2, err := frames.Column(trials, b2)
	if err != nil {
		return viz.Spread{}, 0, err
	}
	s := viz.Spread{Name: name}
	found, out := 0, 0
	for i, l := range lab {
		if l != name {
			continue
		}
		found++
		if lo < hi && !(c1[i] >= lo && c1[i] <= hi && c2[i] >= lo && c2[i] <= hi) {
			out++
			continue
		}
		s.B1 = append(s.B1, c1[i])
		s.B2 = append(s.B2, c2[i])
	}
	if found == 0 {
		return s, 0, fmt.Errorf("papers: no trials labeled %q", name)
	}
	return s, out, nil
}
