package viz

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SelectionScatterPool is SelectionScatterRows for a large pool: x and y
// hold every pool row, but only the first background rows are drawn in
// grey (all of them when background <= 0), so that the SVG stays small;
// the legend says how many of the pool's rows are shown. Every chosen row
// is drawn, as a disc whose area is proportional to its total importance
// weight; weights nil means all 1.
func SelectionScatterPool(x, y []float64, background int, rows []int, weights []float64, opt Options) (*Figure, error) {
	n := len(x)
	if n == 0 || len(y) != n {
		return nil, fmt.Errorf("viz: pool has %d x and %d y values", len(x), len(y))
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("viz: no chosen rows")
	}
	if weights != nil && len(weights) != len(rows) {
		return nil, fmt.Errorf("viz: %d chosen rows but %d weights", len(rows), len(weights))
	}
	if background <= 0 || background > n {
		background = n
	}
	total := map[int]float64{}
	var order []int
	for k, r := range rows {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("viz: chosen row %d is outside the pool of %d rows", r, n)
		}
		w := 1.0
		if weights != nil {
			w = weights[k]
		}
		if !finite(w) || w <= 0 {
			return nil, fmt.Errorf("viz: weight %d is %v: must be positive", k, w)
		}
		if !finite(x[r]) || !finite(y[r]) {
			return nil, fmt.Errorf("viz: chosen row %d has a non-finite coordinate", r)
		}
		if _, ok := total[r]; !ok {
			order = append(order, r)
		}
		total[r] += w
	}
	b := newBuilder(opt, "Selected points", "x1", "x2")
	b.margin = true
	if err := checkLog(b.opt.LogX, "x", "pool", x[:background]); err != nil {
		return nil, err
	}
	if err := checkLog(b.opt.LogY, "y", "pool", y[:background]); err != nil {
		return nil, err
	}
	if pool := segmentsPoints(x[:background], y[:background]); len(pool) > 0 {
		s, err := plotter.NewScatter(pool)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Gray{0xb0}, Radius: vg.Points(1.6), Shape: draw.CircleGlyph{}}
		b.p.Add(s)
		label := fmt.Sprintf("pool (%d rows)", n)
		if background < n {
			label = fmt.Sprintf("pool (%d of %d rows shown)", background, n)
		}
		b.add(label, s)
	}
	sort.Ints(order) // pool order, as SelectionScatterRows draws them
	chosen := make(plotter.XYs, len(order))
	w := make([]float64, len(order))
	wmax := 0.0
	for i, r := range order {
		chosen[i] = plotter.XY{X: x[r], Y: y[r]}
		w[i] = total[r]
		wmax = math.Max(wmax, w[i])
	}
	s, err := plotter.NewScatter(chosen)
	if err != nil {
		return nil, err
	}
	fill := color.NRGBA{0xd6, 0x27, 0x28, 0xa0}
	s.GlyphStyle = draw.GlyphStyle{Color: fill, Radius: vg.Points(5), Shape: draw.CircleGlyph{}}
	s.GlyphStyleFunc = func(i int) draw.GlyphStyle {
		return draw.GlyphStyle{Color: fill, Radius: vg.Points(1.5 + 8.5*math.Sqrt(w[i]/wmax)), Shape: draw.CircleGlyph{}}
	}
	b.p.Add(s)
	b.add(fmt.Sprintf("chosen (%d draws, %d rows)", len(rows), len(order)), s)
	b.add("area ∝ importance weight")
	return b.render()
}
