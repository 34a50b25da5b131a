package viz

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Grid is a value over two parameters, such as validation RMSE over sigma
// and lambda: Z[i][j] is the value at Y[i], X[j]; NaN marks a missing
// cell.
type Grid struct {
	XName, YName, ZName string
	X, Y                []float64
	Z                   [][]float64
	// LogZ colors by log10 of Z (every finite Z must then be positive).
	LogZ bool
}

// Heatmap plots g as colored cells, one per (x, y) pair in the order
// given (so log-spaced grids get equal cells), with a color bar, the
// value written in each cell when the grid has at most 12 x 12 cells, and
// the least value outlined. Defaults: title "<ZName> over <XName> and
// <YName>" with the least value and where it is, axes named by XName and
// YName.
func Heatmap(g Grid, opt Options) (*Figure, error) {
	nx, ny := len(g.X), len(g.Y)
	if nx == 0 || ny == 0 {
		return nil, fmt.Errorf("viz: heatmap grid is empty (%d x values, %d y values)", nx, ny)
	}
	if len(g.Z) != ny {
		return nil, fmt.Errorf("viz: heatmap has %d y values but %d rows of Z", ny, len(g.Z))
	}
	xn, yn, zn := pick(g.XName, "x"), pick(g.YName, "y"), pick(g.ZName, "value")
	z := make([][]float64, ny)
	bi, bj := -1, -1
	for i, row := range g.Z {
		if len(row) != nx {
			return nil, fmt.Errorf("viz: heatmap row %d of Z has %d values, want %d", i, len(row), nx)
		}
		z[i] = make([]float64, nx)
		for j, v := range row {
			if finite(v) && (bi < 0 || v < g.Z[bi][bj]) {
				bi, bj = i, j
			}
			switch {
			case !finite(v):
				v = math.NaN()
			case g.LogZ && v <= 0:
				return nil, fmt.Errorf("viz: heatmap value Z[%d][%d] = %v: LogZ needs positive values", i, j, v)
			case g.LogZ:
				v = math.Log10(v)
			}
			z[i][j] = v
		}
	}
	if bi < 0 {
		return nil, fmt.Errorf("viz: heatmap has no finite value")
	}
	opt.LogX, opt.LogY = false, false
	title := fmt.Sprintf("%s over %s and %s\nleast %.3g at %s = %.3g, %s = %.3g (outlined)",
		zn, xn, yn, g.Z[bi][bj], xn, g.X[bj], yn, g.Y[bi])
	b := newPlainBuilder(opt, title, xn, yn)
	grid := cellGrid{z: z}
	lo, hi := zRange(z)
	cm := moreland.Kindlmann()
	// The top of the Kindlmann map is white: stop short of it so that the
	// worst cells stay visible on the white page.
	cm.SetMin(lo)
	cm.SetMax(hi + 0.15*(hi-lo))
	hm := plotter.NewHeatMap(grid, cm.Palette(255))
	hm.Min, hm.Max = cm.Min(), cm.Max()
	hm.NaN = color.Gray{0xd0}
	b.p.Add(hm)
	b.p.X.Tick.Marker = indexTicks(g.X)
	b.p.Y.Tick.Marker = indexTicks(g.Y)
	b.p.X.Min, b.p.X.Max = -0.5, float64(nx)-0.5
	b.p.Y.Min, b.p.Y.Max = -0.5, float64(ny)-0.5
	if nx <= 12 && ny <= 12 {
		if err := cellLabels(b.p, g.Z, z, cm.Min(), cm.Max()); err != nil {
			return nil, err
		}
	}
	x0, x1, y0, y1 := float64(bj)-0.5, float64(bj)+0.5, float64(bi)-0.5, float64(bi)+0.5
	best, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	if err != nil {
		return nil, err
	}
	best.LineStyle = draw.LineStyle{Color: color.RGBA{0x17, 0xbe, 0xcf, 0xff}, Width: vg.Points(3.5)}
	b.p.Add(best)
	b.bar = colorBar(cm, zn, g.LogZ)
	return b.render()
}

// cellGrid puts cell (c, r) at (c, r).
type cellGrid struct{ z [][]float64 }

func (g cellGrid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g cellGrid) Z(c, r int) float64 { return g.z[r][c] }
func (g cellGrid) X(c int) float64    { return float64(c) }
func (g cellGrid) Y(r int) float64    { return float64(r) }

// zRange returns the finite range of z, widened when it is a single value.
func zRange(z [][]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range z {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo == hi {
		d := math.Max(math.Abs(lo)*1e-3, 1e-9)
		lo, hi = lo-d, hi+d
	}
	return lo, hi
}

// indexTicks labels the integer positions with the parameter values.
func indexTicks(v []float64) plot.ConstantTicks {
	step := max(1, (len(v)+11)/12) // at most about 12 labels
	ticks := make(plot.ConstantTicks, 0, len(v))
	for i, x := range v {
		t := plot.Tick{Value: float64(i)}
		if i%step == 0 {
			t.Label = strconv.FormatFloat(x, 'g', 3, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// cellLabels writes each finite value in its cell, white on dark cells.
func cellLabels(p *plot.Plot, raw, z [][]float64, lo, hi float64) error {
	var dark, light plotter.XYLabels
	for i, row := range raw {
		for j, v := range row {
			if !finite(v) {
				continue
			}
			l := &light
			if (z[i][j]-lo)/(hi-lo) < 0.55 {
				l = &dark
			}
			l.XYs = append(l.XYs, plotter.XY{X: float64(j), Y: float64(i)})
			l.Labels = append(l.Labels, strconv.FormatFloat(v, 'g', 3, 64))
		}
	}
	for _, s := range []struct {
		l plotter.XYLabels
		c color.Color
	}{{dark, color.White}, {light, color.Black}} {
		if len(s.l.XYs) == 0 {
			continue
		}
		lab, err := plotter.NewLabels(s.l)
		if err != nil {
			return err
		}
		for k := range lab.TextStyle {
			lab.TextStyle[k] = fontStyle(tickSize, s.c)
			lab.TextStyle[k].XAlign = draw.XCenter
			lab.TextStyle[k].YAlign = draw.YCenter
		}
		p.Add(lab)
	}
	return nil
}

// colorBar is a vertical color bar for cm labeled name.
func colorBar(cm palette.ColorMap, name string, logZ bool) *plot.Plot {
	p := plot.New()
	p.HideX()
	p.Y.Label.Text = name
	if logZ {
		p.Y.Label.Text = "log10 " + name
	}
	p.Y.Label.TextStyle.Font = sans(tickSize)
	p.Y.Tick.Label.Font = sans(tickSize)
	p.Y.Padding = 0
	p.Y.Tick.Marker = linTicks{}
	p.Add(colorStrip{cm: cm, n: 64})
	return p
}

// colorStrip draws a color map as n stacked rectangles over [0, 1] x
// [min, max]: vector output, unlike plotter.ColorBar's embedded image.
type colorStrip struct {
	cm palette.ColorMap
	n  int
}

func (s colorStrip) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	lo, hi := s.cm.Min(), s.cm.Max()
	for i := 0; i < s.n; i++ {
		a := lo + (hi-lo)*float64(i)/float64(s.n)
		b := lo + (hi-lo)*float64(i+1)/float64(s.n)
		col, err := s.cm.At((a + b) / 2)
		if err != nil {
			continue
		}
		y0, y1 := ty(a), ty(b)
		x0, x1 := tx(0), tx(1)
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1 + 0.3}, {X: x0, Y: y1 + 0.3}})
	}
}

func (s colorStrip) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, 1, s.cm.Min(), s.cm.Max()
}
