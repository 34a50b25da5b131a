package viz

import (
	"fmt"
	"image/color"
	"math"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Curve is one method's training and validation error along a path of
// iterations, passes or lambdas.
type Curve struct {
	Name string
	// X holds the iterations, passes or lambdas; Train and Val the errors
	// at each (either may be nil; NaN points are skipped).
	X, Train, Val []float64
	// Chosen, when not zero, is the X of the selected model. Of all the
	// curves' chosen models, the one with the least validation error is
	// ringed and named in the default title.
	Chosen float64
}

// CurveFromFit returns the path of a credlab fit: X is the iteration of
// an iterative method and lambda otherwise; Chosen is fit.Iter or
// fit.Lambda.
func CurveFromFit(name string, fit *credlab.Fit) Curve {
	c := Curve{Name: name}
	if fit == nil {
		return c
	}
	iter := false
	for _, p := range fit.Path {
		if p.Iter > 0 {
			iter = true
			break
		}
	}
	for _, p := range fit.Path {
		x := p.Lambda
		if iter {
			x = float64(p.Iter)
		}
		c.X = append(c.X, x)
		c.Train = append(c.Train, p.TrainRMSE)
		c.Val = append(c.Val, p.ValRMSE)
	}
	if iter {
		c.Chosen = float64(fit.Iter)
	} else {
		c.Chosen = fit.Lambda
	}
	return c
}

// LearningCurves plots training (dashed) and validation (solid) error
// against iterations or passes, one color per curve, with the best chosen
// model ringed. Defaults: title "Learning curves" (on Options.Data) and a
// line naming the best model, x "iteration", y "RMSE"; log axes on request.
func LearningCurves(curves []Curve, opt Options) (*Figure, error) {
	return curveFigure(curves, opt, "Learning curves", "iteration")
}

// RegularizationPath plots training (dashed) and validation (solid) error
// against lambda, on a log lambda axis, with the best chosen lambda
// ringed. Defaults: title "Regularization path" (on Options.Data) and a
// line naming the best model, x "λ", y "RMSE".
func RegularizationPath(curves []Curve, opt Options) (*Figure, error) {
	opt.LogX = true
	return curveFigure(curves, opt, "Regularization path", "λ")
}

func curveFigure(curves []Curve, opt Options, title, xlabel string) (*Figure, error) {
	if len(curves) == 0 {
		return nil, fmt.Errorf("viz: no curves to plot")
	}
	best, bestX, bestY := -1, 0.0, math.Inf(1)
	for i, c := range curves {
		if c.Chosen == 0 || len(c.Val) != len(c.X) {
			continue
		}
		for j, x := range c.X {
			if x == c.Chosen && finite(c.Val[j]) && c.Val[j] < bestY {
				best, bestX, bestY = i, x, c.Val[j]
			}
		}
	}
	if best >= 0 {
		name := pick(curves[best].Name, fmt.Sprintf("curve %d", best+1))
		at := pick(opt.XLabel, xlabel) + " "
		if len([]rune(at)) <= 3 { // a symbol such as λ
			at += "= "
		}
		title += fmt.Sprintf("\nbest: %s at %s%.3g, validation RMSE %.3g", name, at, bestX, bestY)
	}
	b := newBuilder(opt, title, xlabel, "RMSE")
	drawn := false
	for i, c := range curves {
		name := pick(c.Name, fmt.Sprintf("curve %d", i+1))
		if len(c.X) == 0 {
			return nil, fmt.Errorf("viz: curve %q has no points", name)
		}
		for _, v := range []struct {
			what string
			y    []float64
		}{{"training", c.Train}, {"validation", c.Val}} {
			if v.y != nil && len(v.y) != len(c.X) {
				return nil, fmt.Errorf("viz: curve %q has %d x values but %d %s errors", name, len(c.X), len(v.y), v.what)
			}
		}
		if err := checkLog(b.opt.LogX, "x", name, c.X); err != nil {
			return nil, err
		}
		for _, y := range [][]float64{c.Train, c.Val} {
			if err := checkLog(b.opt.LogY, "y", name, y); err != nil {
				return nil, err
			}
		}
		col := Color(i)
		if c.Val != nil && anyFinite(c.X, c.Val) {
			th, err := b.addLine(c.X, c.Val, lineStyle(col, false), false, nil)
			if err != nil {
				return nil, err
			}
			label := name + " (validation)"
			if c.Train == nil || !anyFinite(c.X, c.Train) {
				label = name
			}
			b.add(label, th...)
			drawn = true
			if i == best {
				if err := b.markChosen(c, col); err != nil {
					return nil, err
				}
			}
		}
		if c.Train != nil && anyFinite(c.X, c.Train) {
			th, err := b.addLine(c.X, c.Train, lineStyle(col, true), false, nil)
			if err != nil {
				return nil, err
			}
			label := name + " (training)"
			if c.Val == nil || !anyFinite(c.X, c.Val) {
				label = name
			}
			b.add(label, th...)
			drawn = true
		}
	}
	if !drawn {
		return nil, fmt.Errorf("viz: no finite point in any curve")
	}
	return b.render()
}

// markChosen rings the validation point at c.Chosen.
func (b *builder) markChosen(c Curve, col color.Color) error {
	for i, x := range c.X {
		if x == c.Chosen && finite(c.Val[i]) {
			s, err := plotter.NewScatter(plotter.XYs{{X: x, Y: c.Val[i]}})
			if err != nil {
				return err
			}
			s.GlyphStyle = chosenGlyph(col)
			b.p.Add(s)
			b.chosen = true
			return nil
		}
	}
	return nil
}

// Series is a named line of (X, Y) points with optional symmetric error
// bars Err (for example the standard deviation over repetitions).
type Series struct {
	Name string
	X, Y []float64
	Err  []float64
}

// Lines plots series as lines with markers, one color and marker shape
// each. Defaults: no title, x "x", y "y".
func Lines(series []Series, opt Options) (*Figure, error) {
	return lineFigure(series, opt, "", "x", "y")
}

// NoiseCurves plots test RMSE against label noise for several methods, on
// log-log axes (the CRED paper's Fig. 3). Defaults: title "Test RMSE
// against label noise", x "label noise σ", y "test RMSE".
func NoiseCurves(series []Series, opt Options) (*Figure, error) {
	opt.LogX, opt.LogY = true, true
	return lineFigure(series, opt, "Test RMSE against label noise", "label noise σ", "test RMSE")
}

func lineFigure(series []Series, opt Options, title, xlabel, ylabel string) (*Figure, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("viz: no series to plot")
	}
	b := newBuilder(opt, title, xlabel, ylabel)
	b.margin = true
	drawn := false
	for i, s := range series {
		name := pick(s.Name, fmt.Sprintf("series %d", i+1))
		if len(s.X) != len(s.Y) || (s.Err != nil && len(s.Err) != len(s.X)) {
			return nil, fmt.Errorf("viz: series %q has %d x, %d y and %d error values", name, len(s.X), len(s.Y), len(s.Err))
		}
		if err := checkLog(b.opt.LogX, "x", name, s.X); err != nil {
			return nil, err
		}
		if err := checkLog(b.opt.LogY, "y", name, s.Y); err != nil {
			return nil, err
		}
		if !anyFinite(s.X, s.Y) {
			continue
		}
		th, err := b.addLine(s.X, s.Y, lineStyle(Color(i), false), true, glyph(i))
		if err != nil {
			return nil, err
		}
		if s.Err != nil {
			if err := b.errorBars(s, Color(i)); err != nil {
				return nil, err
			}
		}
		b.add(name, th...)
		drawn = true
	}
	if !drawn {
		return nil, fmt.Errorf("viz: no finite point in any series")
	}
	return b.render()
}

// yErr holds points with asymmetric vertical errors.
type yErr struct {
	plotter.XYs
	plotter.YErrors
}

// errorBars draws s.Err around each point; on a log y axis the lower bar
// stops above zero.
func (b *builder) errorBars(s Series, col color.Color) error {
	var d yErr
	for i := range s.X {
		e := s.Err[i]
		if !finite(s.X[i]) || !finite(s.Y[i]) || !finite(e) || e <= 0 {
			continue
		}
		lo := e
		if b.opt.LogY {
			lo = math.Min(e, 0.9*s.Y[i])
		}
		d.XYs = append(d.XYs, plotter.XY{X: s.X[i], Y: s.Y[i]})
		d.YErrors = append(d.YErrors, struct{ Low, High float64 }{lo, e})
	}
	if len(d.XYs) == 0 {
		return nil
	}
	eb, err := plotter.NewYErrorBars(d)
	if err != nil {
		return err
	}
	eb.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.2)}
	eb.CapWidth = vg.Points(6)
	b.p.Add(eb)
	return nil
}

// Decomposition is an excess-risk decomposition along passes or
// iterations, as in Lin and Rosasco's Fig. 1: the bias, the sample
// variance and the computational variance at each X, and optionally the
// total error (which the three terms bound, but need not sum to).
type Decomposition struct {
	X                                           []float64
	Bias, SampleVariance, ComputationalVariance []float64
	Total                                       []float64
}

// DecompositionFromSGM returns the terms of credlab's SGM decomposition
// against passes.
func DecompositionFromSGM(d *credlab.SGMDecomposition) Decomposition {
	if d == nil {
		return Decomposition{}
	}
	return Decomposition{X: d.Passes, Bias: d.Bias, SampleVariance: d.SampleVar,
		ComputationalVariance: d.CompVar, Total: d.Total}
}

// CurveFromSGM returns the path of an SGM fit against passes over the
// data, with the chosen number of passes marked.
func CurveFromSGM(name string, f *credlab.SGMFit) Curve {
	if f == nil {
		return Curve{Name: name}
	}
	c := CurveFromFit(name, &f.Fit)
	if len(f.PathPasses) == len(c.X) {
		c.X = append([]float64(nil), f.PathPasses...)
		c.Chosen = f.Passes
	}
	return c
}

// ErrorDecomposition plots the three terms of d against X, with the total
// error (dashed) when d.Total is set and otherwise the sum of the terms
// (dotted). Defaults: title "Error decomposition", x "passes", y "error".
func ErrorDecomposition(d Decomposition, opt Options) (*Figure, error) {
	n := len(d.X)
	if n == 0 {
		return nil, fmt.Errorf("viz: empty decomposition")
	}
	terms := []Series{{Name: "bias", Y: d.Bias}, {Name: "sample variance", Y: d.SampleVariance},
		{Name: "computational variance", Y: d.ComputationalVariance}}
	total := make([]float64, n)
	for _, t := range terms {
		if len(t.Y) != n {
			return nil, fmt.Errorf("viz: decomposition has %d x values but %d %s values", n, len(t.Y), t.Name)
		}
		for i, v := range t.Y {
			total[i] += v
		}
	}
	totalName, totalStyle := "sum of terms", lineStyle(color.Black, true)
	totalStyle.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
	if d.Total != nil {
		if len(d.Total) != n {
			return nil, fmt.Errorf("viz: decomposition has %d x values but %d total values", n, len(d.Total))
		}
		total, totalName, totalStyle = d.Total, "total error", lineStyle(color.Black, true)
	}
	b := newBuilder(opt, "Error decomposition", "passes", "error")
	if err := checkLog(b.opt.LogX, "x", "passes", d.X); err != nil {
		return nil, err
	}
	drawn := false
	for i, t := range terms {
		if err := checkLog(b.opt.LogY, "y", t.Name, t.Y); err != nil {
			return nil, err
		}
		if !anyFinite(d.X, t.Y) {
			continue
		}
		th, err := b.addLine(d.X, t.Y, lineStyle(Color(i), false), false, nil)
		if err != nil {
			return nil, err
		}
		b.add(t.Name, th...)
		drawn = true
	}
	if !drawn {
		return nil, fmt.Errorf("viz: no finite value in the decomposition")
	}
	if err := checkLog(b.opt.LogY, "y", totalName, total); err != nil {
		return nil, err
	}
	if anyFinite(d.X, total) {
		th, err := b.addLine(d.X, total, totalStyle, false, nil)
		if err != nil {
			return nil, err
		}
		b.add(totalName, th...)
	}
	return b.render()
}
