package viz

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"image/color"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Options are the settings shared by every figure. The zero value gives
// each figure its own title and labels, linear axes, and 8 x 5 inches.
type Options struct {
	// Title, XLabel and YLabel replace the figure's defaults when set.
	Title, XLabel, YLabel string
	// LogX and LogY put an axis on a log10 scale; every value on it must
	// then be positive. Some figures are log by default (see each).
	LogX, LogY bool
	// Width and Height are the size in inches; default 8 x 5, which reads
	// well at notebook width.
	Width, Height float64
	// Data names the data shown, for the default title ("Learning curves
	// on USPS, 2,000 rows"); empty leaves it out.
	Data string
}

// Font sizes, in points: readable when an 8-inch figure is shown at
// notebook width.
const (
	titleSize  = 15
	labelSize  = 13
	tickSize   = 11
	legendSize = 11
)

// Figure is a rendered plot. A notebook kernel displays it through SVG,
// with PNG beside it for notebooks that are not trusted (Jupyter hides an
// untrusted SVG but shows a PNG); it can be written to a file. The same
// inputs give the same bytes. A nil *Figure displays as a message saying
// that the function which made it returned an error.
type Figure struct {
	svg []byte
	// raster is a *raster. An interface, so that the gophernotes
	// interpreter, which imports the types reachable from viz's exported
	// ones and cannot convert gonum/plot's drawing API (generics), never
	// meets them.
	raster any
}

// raster draws a figure again for its PNG, once.
type raster struct {
	w, h vg.Length
	// paint draws the figure on a canvas of size w x h.
	paint func(draw.Canvas)
	once  sync.Once
	png   []byte
}

func (f *Figure) r() *raster { return f.raster.(*raster) }

// PNGDPI is the resolution of Figure.PNG: an 8-inch figure is 960 pixels
// wide, about a notebook's width.
const PNGDPI = 120

// SVG returns the figure as an SVG document.
func (f *Figure) SVG() string {
	if f == nil {
		return nilFigure().SVG()
	}
	return string(f.svg)
}

// PNG returns the figure as a PNG image of PNGDPI dots per inch, drawn at
// the first call (about 0.1 s for an 8 x 5 inch figure, 30 KB, measured
// on a busy 2-core machine).
func (f *Figure) PNG() []byte {
	if f == nil {
		return nilFigure().PNG()
	}
	r := f.r()
	r.once.Do(func() {
		defer func() { _ = recover() }() // a drawing that panicked gives no PNG
		c := vgimg.NewWith(vgimg.UseWH(r.w, r.h), vgimg.UseDPI(PNGDPI))
		r.paint(draw.New(c))
		var buf bytes.Buffer
		if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err == nil {
			r.png = buf.Bytes()
		}
	})
	return r.png
}

// String describes the figure in words: the plain-text form a notebook
// stores beside the image.
func (f *Figure) String() string {
	if f == nil {
		return nilMessage
	}
	r := f.r()
	return fmt.Sprintf("viz.Figure %.3g x %.3g in (SVG, %d bytes)", float64(r.w/vg.Inch), float64(r.h/vg.Inch), len(f.svg))
}

// WriteTo writes the SVG document to w.
func (f *Figure) WriteTo(w io.Writer) (int64, error) {
	if f == nil {
		return 0, errors.New(nilMessage)
	}
	n, err := w.Write(f.svg)
	return int64(n), err
}

// WriteSVG writes the SVG document to the file path.
func (f *Figure) WriteSVG(path string) error {
	if f == nil {
		return errors.New(nilMessage)
	}
	return os.WriteFile(path, f.svg, 0o644)
}

// WritePNG writes the PNG image to the file path.
func (f *Figure) WritePNG(path string) error {
	if f == nil {
		return errors.New(nilMessage)
	}
	b := f.PNG()
	if b == nil {
		return fmt.Errorf("viz: cannot encode the figure as PNG for %s", path)
	}
	return os.WriteFile(path, b, 0o644)
}

// newFigure renders paint on a w x h canvas as SVG; PNG renders it again
// on demand.
func newFigure(w, h vg.Length, paint func(draw.Canvas)) (*Figure, error) {
	c := vgsvg.New(w, h)
	paint(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return &Figure{svg: fitWidth(fixFonts(buf.Bytes())), raster: &raster{w: w, h: h, paint: paint}}, nil
}

// fillBackground paints the canvas white.
func fillBackground(dc draw.Canvas) {
	r := dc.Rectangle
	dc.FillPolygon(color.White, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

// palette10 is the matplotlib "tab10" palette: one color per method.
var palette10 = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
	{0xd6, 0x27, 0x28, 0xff}, {0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
	{0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff}, {0xbc, 0xbd, 0x22, 0xff},
	{0x17, 0xbe, 0xcf, 0xff},
}

// Color returns the i-th color of the figures' palette (cycling).
func Color(i int) color.Color { return palette10[((i%10)+10)%10] }

var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
	draw.CrossGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{}}

func glyph(i int) draw.GlyphDrawer { return glyphs[i%len(glyphs)] }

var sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

func sans(size float64) font.Font { return font.From(sansFont, vg.Length(size)) }

// builder assembles a figure: a plot, an optional legend drawn to the
// right of the plot, and an optional color bar.
type builder struct {
	p       *plot.Plot
	legend  plot.Legend
	entries int
	names   []string
	thumbs  [][]plot.Thumbnailer
	bar     *plot.Plot // color bar, drawn at the right
	opt     Options
	// margin widens the axes by 4% of the data range on each side, so
	// that markers do not sit on the axes.
	margin bool
	// chosen is set when the best model is ringed; the legend explains it.
	chosen bool
}

// newBuilder starts a figure with light grid lines.
func newBuilder(opt Options, title, xlabel, ylabel string) *builder {
	b := newPlainBuilder(opt, title, xlabel, ylabel)
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{0xe0}
	g.Horizontal.Color = color.Gray{0xe0}
	b.p.Add(g)
	return b
}

// newPlainBuilder starts a figure with the defaults, overridden by opt.
func newPlainBuilder(opt Options, title, xlabel, ylabel string) *builder {
	p := plot.New()
	p.Title.Text = pick(opt.Title, onData(title, opt.Data))
	p.X.Label.Text = pick(opt.XLabel, xlabel)
	p.Y.Label.Text = pick(opt.YLabel, ylabel)
	p.Title.TextStyle.Font = sans(titleSize)
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Tick.Label.Font = sans(tickSize)
		a.Padding = vg.Points(4)
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = linTicks{}, linTicks{}
	if opt.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if opt.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	l := plot.NewLegend()
	l.TextStyle.Font = sans(legendSize)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(24)
	l.Padding = vg.Points(4)
	return &builder{p: p, legend: l, opt: opt}
}

// onData appends " on DATA" to the first line of a default title.
func onData(title, data string) string {
	if data == "" {
		return title
	}
	first, rest, two := strings.Cut(title, "\n")
	if two {
		return first + " on " + data + "\n" + rest
	}
	return title + " on " + data
}

func pick(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

func (b *builder) add(name string, thumbs ...plot.Thumbnailer) {
	if name == "" {
		return
	}
	b.legend.Add(name, thumbs...)
	b.names = append(b.names, name)
	b.thumbs = append(b.thumbs, thumbs)
	b.entries++
}

// render draws the figure into an SVG canvas; a panic in the plotting
// library is returned as an error.
func (b *builder) render() (fig *Figure, err error) {
	defer func() {
		if r := recover(); r != nil {
			fig, err = nil, fmt.Errorf("viz: cannot draw the figure: %v", r)
		}
	}()
	w, h := b.opt.Width, b.opt.Height
	if w == 0 {
		w = 8
	}
	if h == 0 {
		h = 5
	}
	if !(w >= 1 && w <= 100 && h >= 1 && h <= 100) {
		return nil, fmt.Errorf("viz: figure size %g x %g inches: each side must be in [1, 100]", w, h)
	}
	cw, ch := vg.Length(w)*vg.Inch, vg.Length(h)*vg.Inch
	if b.chosen {
		b.addChosenEntry()
	}
	right := vg.Length(0)
	if b.entries > 0 {
		right = b.legendWidth()
	}
	barW := vg.Length(0)
	if b.bar != nil {
		barW = vg.Points(barWidth)
	}
	if b.margin {
		widen(&b.p.X, b.opt.LogX)
		widen(&b.p.Y, b.opt.LogY)
	}
	top := vg.Length(0)
	if b.p.Title.Text != "" {
		top = b.p.Title.TextStyle.Height(b.p.Title.Text) + b.p.Title.Padding
	}
	// A legend wider than a quarter of the figure goes below the plot, in
	// columns.
	var below vg.Length
	var cols [][]int
	if b.entries > 0 && right > cw/4 {
		cols, below = b.legendColumns(cw)
		right = 0
	}
	paint := func(dc draw.Canvas) {
		fillBackground(dc)
		b.p.Draw(draw.Crop(dc, 0, -(right + barW), below, 0))
		if b.bar != nil {
			b.bar.Draw(draw.Crop(dc, cw-right-barW+vg.Points(16), -right-vg.Points(12), below, -top))
		}
		switch {
		case cols != nil:
			b.drawLegendColumns(dc, cols, below)
		case b.entries > 0:
			b.legend.Draw(draw.Crop(dc, cw-right+vg.Points(6), -vg.Points(legendPad), 0, -top-vg.Points(4)))
		}
	}
	return newFigure(cw, ch, paint)
}

// barWidth is the width in points of a heatmap's color bar column (strip,
// ticks and label); legendPad is the free space right of a legend.
const (
	barWidth  = 130
	legendPad = 10
)

// addChosenEntry explains the ring drawn around the best model's point.
func (b *builder) addChosenEntry() {
	s, err := plotter.NewScatter(plotter.XYs{{}})
	if err != nil {
		return
	}
	s.GlyphStyle = chosenGlyph(color.Gray{0x40})
	b.add("best setting", s)
}

// chosenGlyph is the hollow circle that marks the best model.
func chosenGlyph(c color.Color) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: vg.Points(7), Shape: draw.RingGlyph{}}
}

// legendWidth is the width the legend needs: the thumbnail, a gap and the
// longest entry.
func (b *builder) legendWidth() vg.Length {
	sty := b.legend.TextStyle
	wmax := vg.Length(0)
	for _, n := range b.legendNames() {
		wmax = max(wmax, sty.Width(n))
	}
	return b.legend.ThumbnailWidth + sty.Width(" ") + wmax + vg.Points(14+legendPad)
}

// legendColumns lays the legend out below the plot in as many columns of
// equal width as fit in width cw, entries left to right; it returns the
// entries of each column and the height the legend needs.
func (b *builder) legendColumns(cw vg.Length) ([][]int, vg.Length) {
	entry := b.legendWidth() - vg.Points(legendPad)
	n := max(1, min(b.entries, int((cw-vg.Points(2*legendPad))/entry)))
	cols := make([][]int, n)
	for i := 0; i < b.entries; i++ {
		cols[i%n] = append(cols[i%n], i)
	}
	rows := (b.entries + n - 1) / n
	// Every row as tall as the tallest entry (an entry may span lines).
	row := b.legend.TextStyle.Height("M")
	for _, name := range b.names {
		row = max(row, b.legend.TextStyle.Height(name))
	}
	return cols, vg.Length(rows)*(row+b.legend.Padding) + vg.Points(12)
}

// drawLegendColumns draws the columns of legendColumns in the bottom
// strip of height h.
func (b *builder) drawLegendColumns(dc draw.Canvas, cols [][]int, h vg.Length) {
	w := (dc.Max.X - dc.Min.X - vg.Points(2*legendPad)) / vg.Length(len(cols))
	for c, idx := range cols {
		l := b.legend
		l = plot.Legend{TextStyle: l.TextStyle, Padding: l.Padding, ThumbnailWidth: l.ThumbnailWidth, Top: true, Left: true}
		for _, i := range idx {
			l.Add(b.names[i], b.thumbs[i]...)
		}
		x0 := vg.Points(legendPad) + vg.Length(c)*w
		l.Draw(draw.Crop(dc, x0, -(dc.Max.X - dc.Min.X - x0 - w), 0, -(dc.Max.Y - dc.Min.Y - h + vg.Points(4))))
	}
}

// legendNames are kept alongside the legend, whose entries are private.
func (b *builder) legendNames() []string { return b.names }

// svgText matches a text element as vgsvg writes it: attributes, the
// style with font family and size, the escaped text.
var svgText = regexp.MustCompile(`<text ([^>]*?)style="font-family:(Liberation (?:Sans|Serif));([^"]*?font-size:([0-9.]+)px[^"]*)">([^<]*)</text>`)

// fixFonts makes text independent of the fonts a viewer has. It adds
// metric-compatible fallbacks to the Liberation families vgsvg writes and
// gives every text element its width in Liberation metrics (textLength,
// with glyphs scaled to fit), so that a wider fallback font neither spills
// out of the figure nor into the plot.
func fixFonts(svg []byte) []byte {
	return svgText.ReplaceAllFunc(svg, func(m []byte) []byte {
		g := svgText.FindSubmatch(m)
		family, size, txt := string(g[2]), string(g[4]), string(g[5])
		stack := "'Liberation Sans',Arial,Helvetica,sans-serif"
		variant := font.Variant("Sans")
		if family == "Liberation Serif" {
			stack, variant = "'Liberation Serif','Times New Roman',serif", "Serif"
		}
		pt, err := strconv.ParseFloat(size, 64)
		if err != nil {
			return m
		}
		face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: variant}, vg.Length(pt))
		w := face.Width(html.UnescapeString(txt)).Points()
		return []byte(fmt.Sprintf(`<text %stextLength="%.2f" lengthAdjust="spacingAndGlyphs" style="font-family:%s;%s">%s</text>`,
			g[1], w, stack, g[3], txt))
	})
}

// svgSize matches the root element's fixed size.
var svgSize = regexp.MustCompile(`<svg width="[0-9.]+pt" height="[0-9.]+pt" viewBox="`)

// fitWidth makes the figure as wide as its container (a notebook's output
// area), keeping the aspect ratio of its viewBox.
func fitWidth(svg []byte) []byte {
	loc := svgSize.FindIndex(svg)
	if loc == nil {
		return svg
	}
	return append(append(append([]byte(nil), svg[:loc[0]]...), `<svg width="100%" viewBox="`...), svg[loc[1]:]...)
}

// lineStyle is a solid or dashed line of color c.
func lineStyle(c color.Color, dashed bool) draw.LineStyle {
	s := draw.LineStyle{Color: c, Width: vg.Points(1.8)}
	if dashed {
		s.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	}
	return s
}

// segments splits (x, y) into runs of finite points, dropping the others
// (and, on a log axis, non-positive values, which are reported).
func segments(x, y []float64) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for i := range x {
		if finite(x[i]) && finite(y[i]) {
			cur = append(cur, plotter.XY{X: x[i], Y: y[i]})
			continue
		}
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkLog reports a non-positive finite value on a log axis.
func checkLog(log bool, axis, series string, v []float64) error {
	if !log {
		return nil
	}
	for i, x := range v {
		if finite(x) && x <= 0 {
			return fmt.Errorf("viz: %s value %d of %q is %v: a log axis needs positive values (turn the log scale off)", axis, i, series, x)
		}
	}
	return nil
}

// anyFinite reports whether some point of (x, y) can be drawn.
func anyFinite(x, y []float64) bool {
	for i := range x {
		if finite(x[i]) && finite(y[i]) {
			return true
		}
	}
	return false
}

// addLine draws (x, y) as lines (and optional points) and returns the
// first line as the legend thumbnail, nil when nothing is drawable.
func (b *builder) addLine(x, y []float64, sty draw.LineStyle, points bool, gl draw.GlyphDrawer) ([]plot.Thumbnailer, error) {
	var thumbs []plot.Thumbnailer
	for _, seg := range segments(x, y) {
		l, err := plotter.NewLine(seg)
		if err != nil {
			return nil, err
		}
		l.LineStyle = sty
		b.p.Add(l)
		if points {
			s, err := plotter.NewScatter(seg)
			if err != nil {
				return nil, err
			}
			s.GlyphStyle = draw.GlyphStyle{Color: sty.Color, Radius: vg.Points(3), Shape: gl}
			b.p.Add(s)
			if thumbs == nil {
				thumbs = []plot.Thumbnailer{l, s}
			}
		} else if thumbs == nil {
			thumbs = []plot.Thumbnailer{l}
		}
	}
	return thumbs, nil
}

// fontStyle returns a text style of the given size and color.
func fontStyle(size float64, c color.Color) text.Style {
	return text.Style{Color: c, Font: sans(size), Handler: plot.DefaultTextHandler}
}

// widen extends an axis by 4% of its range on each side (of its log range
// on a log axis).
func widen(a *plot.Axis, log bool) {
	lo, hi := a.Min, a.Max
	if !finite(lo) || !finite(hi) || hi < lo {
		return
	}
	if log {
		if lo <= 0 {
			return
		}
		l, h := math.Log10(lo), math.Log10(hi)
		d := 0.04 * math.Max(h-l, 0.1)
		a.Min, a.Max = math.Pow(10, l-d), math.Pow(10, h+d)
		return
	}
	d := 0.04 * (hi - lo)
	if d == 0 {
		d = math.Max(math.Abs(lo)*0.1, 0.5)
	}
	a.Min, a.Max = lo-d, hi+d
}

// minLabels is the fewest labeled ticks an axis gets (when its range is
// not a single value).
const minLabels = 4

// linTicks marks a linear axis with at least minLabels labeled ticks at a
// round step (1, 2, 2.5 or 5 times a power of ten: the largest such step
// that gives minLabels), and unlabeled ticks halfway between them.
type linTicks struct{}

func (linTicks) Ticks(a, b float64) []plot.Tick {
	if !finite(a) || !finite(b) || !(b > a) {
		return plot.DefaultTicks{}.Ticks(a, b)
	}
	e := math.Floor(math.Log10(b - a))
	var step float64
	var prec int
	for ; step == 0; e-- {
		for _, m := range []float64{5, 2.5, 2, 1} {
			st := m * math.Pow(10, e)
			if math.Floor(b/st+1e-9)-math.Ceil(a/st-1e-9)+1 >= minLabels {
				step, prec = st, max(0, int(-e))
				if m == 2.5 && e <= 0 {
					prec++
				}
				break
			}
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(a/step - 1e-9); k*step <= b+step*1e-9; k++ {
		v := k * step
		if v == 0 {
			v = 0 // not -0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: groupThousands(strconv.FormatFloat(v, 'f', prec, 64))})
		if h := v + step/2; h <= b {
			ticks = append(ticks, plot.Tick{Value: h})
		}
	}
	if h := math.Ceil(a/step-1e-9)*step - step/2; h >= a {
		ticks = append(ticks, plot.Tick{Value: h})
	}
	return ticks
}

// groupThousands puts a comma between each group of three digits of the
// integer part of a label of five or more digits ("3,400,000"), so that
// large values read at a glance.
func groupThousands(label string) string {
	sign, digits, frac := "", label, ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	if i := strings.IndexByte(digits, '.'); i >= 0 {
		digits, frac = digits[:i], digits[i:]
	}
	if len(digits) < 5 {
		return label
	}
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String() + frac
}

// logTicks marks a log axis: a labeled tick at each power of ten (every
// k-th one when the range spans more than eight decades) and unlabeled
// ticks at 2..9 times each. When that labels fewer than minLabels ticks,
// 2 and 5 times each power are labeled too, then 2, 3 and 5, then every
// multiple; a range
// within a factor of a few gets linTicks' round steps.
type logTicks struct{}

func (logTicks) Ticks(a, b float64) []plot.Tick {
	if !(a > 0) || !(b >= a) || math.IsInf(b, 0) {
		return nil
	}
	lo, hi := int(math.Floor(math.Log10(a))), int(math.Ceil(math.Log10(b)))
	step := max(1, (hi-lo+7)/8)
	in := func(v float64) bool { return v >= a*(1-1e-9) && v <= b*(1+1e-9) }
	var ticks []plot.Tick
	labeled := 0
	for k := lo; k <= hi; k++ {
		v := math.Pow10(k)
		if in(v) {
			t := plot.Tick{Value: v}
			if (k-lo)%step == 0 {
				t.Label = powerLabel(k)
				labeled++
			}
			ticks = append(ticks, t)
		}
	}
	count := func(label func(i int) bool) int {
		n := labeled
		for k := lo; k <= hi; k++ {
			for i := 2; i < 10; i++ {
				if in(float64(i)*math.Pow10(k)) && label(i) {
					n++
				}
			}
		}
		return n
	}
	label := func(int) bool { return false }
	switch {
	case labeled >= minLabels:
	case count(func(i int) bool { return i == 2 || i == 5 }) >= minLabels:
		label = func(i int) bool { return i == 2 || i == 5 }
	case count(func(i int) bool { return i == 2 || i == 3 || i == 5 }) >= minLabels:
		label = func(i int) bool { return i == 2 || i == 3 || i == 5 }
	case count(func(int) bool { return true }) >= minLabels:
		label = func(int) bool { return true }
	default:
		return linTicks{}.Ticks(a, b)
	}
	for k := lo; k <= hi; k++ {
		for i := 2; i < 10; i++ {
			v := float64(i) * math.Pow10(k)
			if !in(v) {
				continue
			}
			t := plot.Tick{Value: v}
			if label(i) {
				t.Label = mantissaLabel(i, k)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// powerLabel writes 10^k as a decimal for small k and as "1e<k>"
// otherwise.
// mantissaLabel labels i*10^k like powerLabel: plain decimals for
// 10^-3 to 10^4 ("0.005", "2000"), else "2e5".
func mantissaLabel(i, k int) string {
	if k >= -3 && k <= 4 {
		return strconv.FormatFloat(float64(i)*math.Pow10(k), 'f', max(0, -k), 64)
	}
	return fmt.Sprintf("%de%d", i, k)
}

func powerLabel(k int) string {
	if k >= -3 && k <= 4 {
		return strconv.FormatFloat(math.Pow10(k), 'f', -1, 64)
	}
	return fmt.Sprintf("1e%d", k)
}
