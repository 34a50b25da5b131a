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

// SelectionScatter plots a pool in two coordinates (x[i], y[i] for pool
// row i) in grey and the rows chosen by sel on top, each a disc whose area
// is proportional to its total importance weight (summed over repeated
// draws), as in the CRED paper's Fig. 1. Defaults: title "Selected
// points", axes "x1" and "x2".
func SelectionScatter(x, y []float64, sel *credlab.Selection, opt Options) (*Figure, error) {
	if sel == nil {
		return nil, fmt.Errorf("viz: no selection given")
	}
	return SelectionScatterRows(x, y, sel.Index, sel.Weight, opt)
}

// SelectionScatterRows is SelectionScatter for chosen pool rows and their
// weights given as slices (such as the "row" and "weight" columns of
// frames.Select); weights nil means all 1.
func SelectionScatterRows(x, y []float64, rows []int, weights []float64, opt Options) (*Figure, error) {
	return SelectionScatterPool(x, y, 0, rows, weights, opt)
}

// segmentsPoints returns the finite points of (x, y).
func segmentsPoints(x, y []float64) plotter.XYs {
	var out plotter.XYs
	for i := range x {
		if finite(x[i]) && finite(y[i]) {
			out = append(out, plotter.XY{X: x[i], Y: y[i]})
		}
	}
	return out
}

// Spread is a set of repeated estimates of two coefficients (b1, b2) by
// one method, for example over independent selections.
type Spread struct {
	Name   string
	B1, B2 []float64
}

// CoefficientSpread plots the estimates of each group as a cloud of
// points, one color and marker per group (CRED against uniform, the CRED
// paper's Fig. 2), with the true value marked by a black cross when truth
// holds (b1, b2). Defaults: title "Coefficient estimates", axes "b1" and
// "b2".
func CoefficientSpread(groups []Spread, truth []float64, opt Options) (*Figure, error) {
	if len(groups) == 0 {
		return nil, fmt.Errorf("viz: no groups to plot")
	}
	if truth != nil && len(truth) != 2 {
		return nil, fmt.Errorf("viz: truth has %d values, want (b1, b2)", len(truth))
	}
	b := newBuilder(opt, "Coefficient estimates", "b1", "b2")
	b.margin = true
	drawn := false
	for i, g := range groups {
		name := pick(g.Name, fmt.Sprintf("group %d", i+1))
		if len(g.B1) != len(g.B2) {
			return nil, fmt.Errorf("viz: group %q has %d b1 and %d b2 values", name, len(g.B1), len(g.B2))
		}
		if err := checkLog(b.opt.LogX, "x", name, g.B1); err != nil {
			return nil, err
		}
		if err := checkLog(b.opt.LogY, "y", name, g.B2); err != nil {
			return nil, err
		}
		pts := segmentsPoints(g.B1, g.B2)
		if len(pts) == 0 {
			continue
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		c := color.NRGBAModel.Convert(Color(i)).(color.NRGBA)
		c.A = 0xb0
		s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: glyph(i)}
		b.p.Add(s)
		b.add(fmt.Sprintf("%s (%d estimates)", name, len(pts)), s)
		drawn = true
	}
	if !drawn {
		return nil, fmt.Errorf("viz: no finite estimate in any group")
	}
	if truth != nil {
		if !finite(truth[0]) || !finite(truth[1]) {
			return nil, fmt.Errorf("viz: truth %v is not finite", truth)
		}
		s, err := plotter.NewScatter(plotter.XYs{{X: truth[0], Y: truth[1]}})
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(7), Shape: draw.CrossGlyph{}}
		b.p.Add(s)
		b.add("true value", s)
	}
	return b.render()
}

// PredictedActual plots predictions against true values with the
// diagonal y = x; pairs with a NaN are skipped. Defaults: title
// "Predicted against actual (RMSE r, n = k)", axes "actual" and
// "predicted".
func PredictedActual(pred, actual []float64, opt Options) (*Figure, error) {
	if len(pred) != len(actual) || len(pred) == 0 {
		return nil, fmt.Errorf("viz: %d predictions and %d actual values", len(pred), len(actual))
	}
	pts := segmentsPoints(actual, pred)
	if len(pts) == 0 {
		return nil, fmt.Errorf("viz: no finite (actual, predicted) pair")
	}
	var se float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		d := p.Y - p.X
		se += d * d
		lo, hi = math.Min(lo, math.Min(p.X, p.Y)), math.Max(hi, math.Max(p.X, p.Y))
	}
	title := fmt.Sprintf("Predicted against actual (RMSE %.3g, n = %d)", math.Sqrt(se/float64(len(pts))), len(pts))
	b := newBuilder(opt, title, "actual", "predicted")
	b.margin = true
	if b.opt.LogX || b.opt.LogY {
		for _, p := range pts {
			if (b.opt.LogX && p.X <= 0) || (b.opt.LogY && p.Y <= 0) {
				return nil, fmt.Errorf("viz: a log axis needs positive values; (%v, %v) is not", p.X, p.Y)
			}
		}
	}
	diag, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		return nil, err
	}
	diag.LineStyle = lineStyle(color.Gray{0x60}, true)
	b.p.Add(diag)
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle = draw.GlyphStyle{Color: color.NRGBA{0x1f, 0x77, 0xb4, 0xa0}, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
	b.p.Add(s)
	b.add("rows", s)
	b.add("y = x", diag)
	return b.render()
}

// Timed is one method's cost and accuracy, as in the NYTRO paper's
// Table 2.
type Timed struct {
	Name    string
	Seconds float64
	RMSE    float64
}

// TimedFromFit returns the total time and validation RMSE of a fit.
func TimedFromFit(name string, fit *credlab.Fit) Timed {
	if fit == nil {
		return Timed{Name: name, Seconds: math.NaN(), RMSE: math.NaN()}
	}
	return Timed{Name: name, Seconds: fit.Timing.Total().Seconds(), RMSE: fit.ValRMSE}
}

// TimeAccuracy plots each method as a point (time, error), one color and
// marker per method. Defaults: title "Time against accuracy", axes "time
// (s)" and "RMSE".
func TimeAccuracy(points []Timed, opt Options) (*Figure, error) {
	if len(points) == 0 {
		return nil, fmt.Errorf("viz: no points to plot")
	}
	b := newBuilder(opt, "Time against accuracy", "time (s)", "RMSE")
	b.margin = true
	drawn := false
	for i, p := range points {
		name := pick(p.Name, fmt.Sprintf("method %d", i+1))
		if !finite(p.Seconds) || !finite(p.RMSE) {
			continue
		}
		if (b.opt.LogX && p.Seconds <= 0) || (b.opt.LogY && p.RMSE <= 0) {
			return nil, fmt.Errorf("viz: %q at (%v s, %v): a log axis needs positive values", name, p.Seconds, p.RMSE)
		}
		s, err := plotter.NewScatter(plotter.XYs{{X: p.Seconds, Y: p.RMSE}})
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: Color(i), Radius: vg.Points(5), Shape: glyph(i)}
		b.p.Add(s)
		b.add(name, s)
		drawn = true
	}
	if !drawn {
		return nil, fmt.Errorf("viz: no point with a finite time and error")
	}
	return b.render()
}
