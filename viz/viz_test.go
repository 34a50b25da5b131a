package viz

import (
	"bytes"
	"flag"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
)

var regen = flag.Bool("regen", false, "rewrite the golden SVG files in testdata/")

// figures builds every figure type from fixed inputs.
func figures() map[string]func() (*Figure, error) {
	iters := make([]float64, 60)
	train, val := make([]float64, 60), make([]float64, 60)
	train2, val2 := make([]float64, 60), make([]float64, 60)
	for i := range iters {
		t := float64(i + 1)
		iters[i] = t
		train[i] = 0.1 + 0.9/math.Sqrt(t)
		val[i] = 0.15 + 0.9/math.Sqrt(t) + 0.002*t
		train2[i] = 0.1 + 0.9/t
		val2[i] = 0.14 + 0.9/t + 0.001*t
	}
	lambdas := credlab.LogGrid(1e-8, 1, 17)
	ptrain, pval := make([]float64, len(lambdas)), make([]float64, len(lambdas))
	for i, l := range lambdas {
		ptrain[i] = 0.05 + 0.8*math.Pow(l, 0.3)
		pval[i] = 0.12 + 0.8*math.Pow(l, 0.3) + 0.05*math.Pow(1e-8/l, 0.2)
	}
	pval[0] = math.NaN() // a failed factorization leaves a gap
	// A pool on a circle-ish cloud and a selection with a repeated row.
	px, py := make([]float64, 80), make([]float64, 80)
	for i := range px {
		a := float64(i) * 0.61
		r := 0.3 + 0.7*float64(i%9)/8
		px[i], py[i] = r*math.Cos(a), r*math.Sin(a)
	}
	sel := &credlab.Selection{Index: []int{3, 17, 17, 40, 62, 79, 5}, Weight: []float64{0.5, 1.2, 1.2, 2, 0.8, 3, 1}}
	sel.Prob = make([]float64, len(sel.Index))
	for i, w := range sel.Weight {
		sel.Prob[i] = 1 / (80 * w)
	}
	b1c, b2c, b1u, b2u := make([]float64, 25), make([]float64, 25), make([]float64, 25), make([]float64, 25)
	for i := range b1c {
		s, c := math.Sin(float64(i)*2.1), math.Cos(float64(i)*1.3)
		b1c[i], b2c[i] = 1+0.05*s, -2+0.06*c
		b1u[i], b2u[i] = 1+0.2*c, -2+0.25*s
	}
	noise := []float64{0.01, 0.03, 0.1, 0.3, 1}
	pred, actual := make([]float64, 50), make([]float64, 50)
	for i := range pred {
		actual[i] = float64(i)/10 - 2.5
		pred[i] = actual[i] + 0.2*math.Sin(float64(i)*1.7)
	}
	return map[string]func() (*Figure, error){
		"learning_curves": func() (*Figure, error) {
			return LearningCurves([]Curve{
				{Name: "NYTRO", X: iters, Train: train, Val: val, Chosen: 17},
				{Name: "early stopping", X: iters, Train: train2, Val: val2, Chosen: 12},
			}, Options{LogY: true})
		},
		"regularization_path": func() (*Figure, error) {
			return RegularizationPath([]Curve{{Name: "KRLS", X: lambdas, Train: ptrain, Val: pval, Chosen: lambdas[6]}}, Options{})
		},
		"heatmap": func() (*Figure, error) {
			return Heatmap(Grid{XName: "λ", YName: "σ", ZName: "validation RMSE",
				X: []float64{1e-6, 1e-4, 1e-2, 1}, Y: []float64{0.1, 0.3, 1},
				Z: [][]float64{{0.31, 0.22, 0.25, 0.52}, {0.15, 0.12, 0.2, 0.6}, {0.4, 0.35, math.NaN(), 0.7}}}, Options{})
		},
		"selection_scatter": func() (*Figure, error) { return SelectionScatter(px, py, sel, Options{}) },
		"coefficient_spread": func() (*Figure, error) {
			return CoefficientSpread([]Spread{{Name: "CRED", B1: b1c, B2: b2c}, {Name: "uniform", B1: b1u, B2: b2u}}, []float64{1, -2}, Options{})
		},
		"noise_curves": func() (*Figure, error) {
			return NoiseCurves([]Series{
				{Name: "CRED", X: noise, Y: []float64{0.012, 0.032, 0.1, 0.31, 1.02}, Err: []float64{0.002, 0.004, 0.01, 0.03, 0.1}},
				{Name: "uniform", X: noise, Y: []float64{0.03, 0.06, 0.15, 0.4, 1.2}},
				{Name: "KTR3", X: noise, Y: []float64{0.02, 0.05, 0.12, 0.35, 1.1}},
			}, Options{})
		},
		"error_decomposition": func() (*Figure, error) {
			x := []float64{1, 2, 3, 4, 5, 6, 7, 8}
			return ErrorDecomposition(Decomposition{X: x,
				Bias:                  []float64{1, 0.5, 0.33, 0.25, 0.2, 0.17, 0.14, 0.12},
				SampleVariance:        []float64{0.01, 0.02, 0.04, 0.06, 0.09, 0.12, 0.15, 0.19},
				ComputationalVariance: []float64{0.3, 0.15, 0.1, 0.08, 0.06, 0.05, 0.04, 0.04},
				Total:                 []float64{1.2, 0.6, 0.42, 0.36, 0.33, 0.32, 0.31, 0.33}}, Options{LogY: true})
		},
		"time_accuracy": func() (*Figure, error) {
			return TimeAccuracy([]Timed{{"KRLS", 12.5, 0.101}, {"NKRLS", 0.8, 0.105}, {"NYTRO", 0.3, 0.104}, {"early stopping", 9.1, 0.102}}, Options{LogX: true})
		},
		"predicted_actual": func() (*Figure, error) { return PredictedActual(pred, actual, Options{}) },
		"relevance": func() (*Figure, error) {
			return Relevance([]frames.ColumnRelevance{{Column: "Latitude", Relevance: 1}, {Column: "Longitude", Relevance: 0.93},
				{Column: "MedInc", Relevance: 0.41}, {Column: "HouseAge", Relevance: 0.12}, {Column: "AveRooms", Relevance: 0.02}, {Column: "Population"}}, Options{})
		},
		"lines": func() (*Figure, error) {
			return Lines([]Series{{Name: "a", X: []float64{1, 2, 3}, Y: []float64{2, 4, 3}}}, Options{Title: "Custom", XLabel: "passes", YLabel: "value", Width: 6, Height: 4})
		},
	}
}

var fontSize = regexp.MustCompile(`font-size:([0-9.]+)px`)

func TestGolden(t *testing.T) {
	for name, build := range goldenFigures() {
		t.Run(name, func(t *testing.T) {
			f, err := build()
			if err != nil {
				t.Fatal(err)
			}
			svg := f.SVG()
			g, err := build()
			if err != nil || g.SVG() != svg {
				t.Fatal("two renderings of the same input differ")
			}
			if !strings.HasPrefix(svg, "<?xml") || !strings.HasSuffix(svg, "</svg>\n") {
				t.Fatalf("not an SVG document: %.60q", svg)
			}
			if strings.Contains(svg, "NaN") {
				t.Error("SVG contains NaN")
			}
			for _, m := range fontSize.FindAllStringSubmatch(svg, -1) {
				if v, _ := strconv.ParseFloat(m[1], 64); v < 11 {
					t.Errorf("font size %vpx is below 11", v)
				}
			}
			path := filepath.Join("testdata", name+".svg")
			if *regen {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := f.WriteSVG(path); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./viz -regen to create it)", err)
			}
			if !bytes.Equal(want, []byte(svg)) {
				t.Errorf("%s differs from the rendering; inspect it and run go test ./viz -regen if the change is intended", path)
			}
		})
	}
}

func TestWrite(t *testing.T) {
	f, err := figures()["lines"]()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	n, err := f.WriteTo(&b)
	if err != nil || n != int64(len(f.SVG())) || b.String() != f.SVG() {
		t.Errorf("WriteTo: %d bytes, %v", n, err)
	}
	if !strings.Contains(f.SVG(), `<svg width="100%" viewBox="0 0 432 288"`) {
		t.Errorf("size: %.200s", f.SVG())
	}
	if err := f.WriteSVG(filepath.Join(t.TempDir(), "no", "such", "dir.svg")); err == nil {
		t.Error("write into a missing directory succeeded")
	}
	var nilFig *Figure
	if !strings.Contains(nilFig.SVG(), "nil *Figure") || !strings.Contains(nilFig.String(), "returned an error") {
		t.Errorf("a nil figure does not say what happened: %q", nilFig.String())
	}
	if err := nilFig.WriteSVG(filepath.Join(t.TempDir(), "nil.svg")); err == nil {
		t.Error("writing a nil figure succeeded")
	}
}

// A figure's PNG is a PNG image of its size at PNGDPI, the same bytes at
// every call; a nil figure's PNG is the message.
func TestPNG(t *testing.T) {
	f, err := Lines([]Series{{Name: "a", X: []float64{1, 2, 3}, Y: []float64{1, 3, 2}}}, Options{Width: 6, Height: 4})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(f.PNG()))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 6*PNGDPI || b.Dy() != 4*PNGDPI {
		t.Errorf("PNG is %v, want %d x %d", b, 6*PNGDPI, 4*PNGDPI)
	}
	if !bytes.Equal(f.PNG(), f.PNG()) {
		t.Error("two calls give two PNGs")
	}
	// Not a blank page: the line's color is there.
	blue := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 == 0x1f && g>>8 == 0x77 && b>>8 == 0xb4 {
				blue++
			}
		}
	}
	if blue < 100 {
		t.Errorf("%d pixels of the line's color in the PNG", blue)
	}
	var nilFig *Figure
	if _, err := png.Decode(bytes.NewReader(nilFig.PNG())); err != nil {
		t.Errorf("a nil figure's PNG: %v", err)
	}
}

// Show stacks figures, names a nil one by its position, and gives a nil
// figure for nothing.
func TestShow(t *testing.T) {
	a, err := Lines([]Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 3}}}, Options{Width: 6, Height: 4})
	if err != nil {
		t.Fatal(err)
	}
	if Show(a) != a {
		t.Error("Show of one figure is not that figure")
	}
	if Show() != nil {
		t.Error("Show of nothing is not nil")
	}
	s := Show(a, nil, a)
	if !strings.Contains(s.SVG(), `viewBox="0 0 576 612"`) {
		t.Errorf("stacked size: %.300s", s.SVG())
	}
	if !strings.Contains(s.SVG(), "figure 2 of 3: viz: no figure") || strings.Contains(s.SVG(), "figure 1 of 3") {
		t.Error("the nil figure is not named by its position")
	}
	if strings.Count(s.SVG(), ">a<") != 2 {
		t.Errorf("%d legend entries a, want 2", strings.Count(s.SVG(), ">a<"))
	}
	img, err := png.Decode(bytes.NewReader(s.PNG()))
	if err != nil || img.Bounds().Dy() != 612*PNGDPI/72 {
		t.Errorf("stacked PNG: %v, %v", err, err == nil && img != nil)
	}
}

func TestFromFit(t *testing.T) {
	fit := &credlab.Fit{Iter: 2, ValRMSE: 0.5, Timing: credlab.Timing{Solve: 1500 * time.Millisecond},
		Path: []credlab.PathPoint{{Iter: 1, TrainRMSE: 1, ValRMSE: 1.1}, {Iter: 2, TrainRMSE: 0.4, ValRMSE: 0.5}}}
	c := CurveFromFit("gd", fit)
	if len(c.X) != 2 || c.X[1] != 2 || c.Val[1] != 0.5 || c.Chosen != 2 {
		t.Errorf("curve %+v", c)
	}
	fit = &credlab.Fit{Lambda: 0.1, Path: []credlab.PathPoint{{Lambda: 0.01, TrainRMSE: 1, ValRMSE: 2}, {Lambda: 0.1, TrainRMSE: 1, ValRMSE: 1}}}
	if c := CurveFromFit("krls", fit); c.X[1] != 0.1 || c.Chosen != 0.1 {
		t.Errorf("lambda curve %+v", c)
	}
	if c := CurveFromFit("none", nil); c.X != nil {
		t.Errorf("nil fit %+v", c)
	}
	tm := TimedFromFit("gd", &credlab.Fit{ValRMSE: 0.5, Timing: credlab.Timing{Solve: 1500 * time.Millisecond}})
	if tm.Seconds != 1.5 || tm.RMSE != 0.5 {
		t.Errorf("timed %+v", tm)
	}
	sgm := &credlab.SGMFit{Fit: *fit, Passes: 2, PathPasses: []float64{1, 2}}
	if c := CurveFromSGM("sgm", sgm); c.X[1] != 2 || c.Chosen != 2 {
		t.Errorf("sgm curve %+v", c)
	}
	if c := CurveFromSGM("none", nil); c.X != nil {
		t.Errorf("nil sgm %+v", c)
	}
	d := DecompositionFromSGM(&credlab.SGMDecomposition{Passes: []float64{1}, Bias: []float64{2}, SampleVar: []float64{3}, CompVar: []float64{4}, Total: []float64{5}})
	if d.X[0] != 1 || d.Bias[0] != 2 || d.SampleVariance[0] != 3 || d.ComputationalVariance[0] != 4 || d.Total[0] != 5 {
		t.Errorf("decomposition %+v", d)
	}
	if d := DecompositionFromSGM(nil); d.X != nil {
		t.Errorf("nil decomposition %+v", d)
	}
	if tm := TimedFromFit("x", nil); !math.IsNaN(tm.Seconds) {
		t.Errorf("nil fit %+v", tm)
	}
}

func TestErrors(t *testing.T) {
	nan := math.NaN()
	sel := &credlab.Selection{Index: []int{0}, Weight: []float64{1}}
	for _, c := range []struct {
		name  string
		build func() (*Figure, error)
		msg   string
	}{
		{"no curves", func() (*Figure, error) { return LearningCurves(nil, Options{}) }, "no curves"},
		{"empty curve", func() (*Figure, error) { return LearningCurves([]Curve{{Name: "c"}}, Options{}) }, `"c" has no points`},
		{"curve lengths", func() (*Figure, error) {
			return LearningCurves([]Curve{{Name: "c", X: []float64{1, 2}, Val: []float64{1}}}, Options{})
		}, "2 x values but 1 validation errors"},
		{"all NaN", func() (*Figure, error) {
			return LearningCurves([]Curve{{X: []float64{1}, Val: []float64{nan}}}, Options{})
		}, "no finite point"},
		{"log x zero", func() (*Figure, error) {
			return RegularizationPath([]Curve{{Name: "k", X: []float64{0, 1}, Val: []float64{1, 2}}}, Options{})
		}, `x value 0 of "k" is 0`},
		{"log y negative", func() (*Figure, error) {
			return LearningCurves([]Curve{{Name: "k", X: []float64{1, 2}, Train: []float64{1, -2}}}, Options{LogY: true})
		}, "log axis needs positive values"},
		{"size", func() (*Figure, error) {
			return Lines([]Series{{X: []float64{1}, Y: []float64{1}}}, Options{Width: 0.1})
		}, "figure size"},
		{"no series", func() (*Figure, error) { return NoiseCurves(nil, Options{}) }, "no series"},
		{"series lengths", func() (*Figure, error) {
			return Lines([]Series{{Name: "s", X: []float64{1}, Y: []float64{1, 2}}}, Options{})
		}, `"s" has 1 x, 2 y`},
		{"noise zero", func() (*Figure, error) {
			return NoiseCurves([]Series{{Name: "s", X: []float64{0, 1}, Y: []float64{1, 2}}}, Options{})
		}, "log axis"},
		{"series NaN", func() (*Figure, error) {
			return Lines([]Series{{X: []float64{nan}, Y: []float64{1}}}, Options{})
		}, "no finite point"},
		{"empty grid", func() (*Figure, error) { return Heatmap(Grid{}, Options{}) }, "heatmap grid is empty"},
		{"grid rows", func() (*Figure, error) {
			return Heatmap(Grid{X: []float64{1}, Y: []float64{1, 2}, Z: [][]float64{{1}}}, Options{})
		}, "2 y values but 1 rows"},
		{"grid row width", func() (*Figure, error) {
			return Heatmap(Grid{X: []float64{1}, Y: []float64{1}, Z: [][]float64{{1, 2}}}, Options{})
		}, "row 0 of Z has 2 values"},
		{"grid NaN", func() (*Figure, error) {
			return Heatmap(Grid{X: []float64{1}, Y: []float64{1}, Z: [][]float64{{nan}}}, Options{})
		}, "no finite value"},
		{"grid log", func() (*Figure, error) {
			return Heatmap(Grid{X: []float64{1}, Y: []float64{1}, Z: [][]float64{{-1}}, LogZ: true}, Options{})
		}, "LogZ needs positive"},
		{"no selection", func() (*Figure, error) { return SelectionScatter([]float64{1}, []float64{1}, nil, Options{}) }, "no selection"},
		{"pool lengths", func() (*Figure, error) { return SelectionScatter([]float64{1}, nil, sel, Options{}) }, "1 x and 0 y"},
		{"row range", func() (*Figure, error) {
			return SelectionScatterRows([]float64{1}, []float64{1}, []int{1}, nil, Options{})
		}, "outside the pool of 1 rows"},
		{"weights", func() (*Figure, error) {
			return SelectionScatterRows([]float64{1}, []float64{1}, []int{0}, []float64{0}, Options{})
		}, "must be positive"},
		{"no rows", func() (*Figure, error) {
			return SelectionScatterRows([]float64{1}, []float64{1}, nil, nil, Options{})
		}, "no chosen rows"},
		{"no groups", func() (*Figure, error) { return CoefficientSpread(nil, nil, Options{}) }, "no groups"},
		{"truth", func() (*Figure, error) {
			return CoefficientSpread([]Spread{{B1: []float64{1}, B2: []float64{1}}}, []float64{1}, Options{})
		}, "truth has 1 values"},
		{"group lengths", func() (*Figure, error) {
			return CoefficientSpread([]Spread{{Name: "g", B1: []float64{1}}}, nil, Options{})
		}, `"g" has 1 b1 and 0 b2`},
		{"pred lengths", func() (*Figure, error) { return PredictedActual([]float64{1}, nil, Options{}) }, "1 predictions and 0 actual"},
		{"pred NaN", func() (*Figure, error) { return PredictedActual([]float64{nan}, []float64{1}, Options{}) }, "no finite"},
		{"no timed", func() (*Figure, error) { return TimeAccuracy(nil, Options{}) }, "no points"},
		{"timed log", func() (*Figure, error) { return TimeAccuracy([]Timed{{"a", 0, 1}}, Options{LogX: true}) }, "log axis"},
		{"decomposition", func() (*Figure, error) {
			return ErrorDecomposition(Decomposition{X: []float64{1, 2}, Bias: []float64{1}}, Options{})
		}, "2 x values but 1 bias"},
		{"empty decomposition", func() (*Figure, error) { return ErrorDecomposition(Decomposition{}, Options{}) }, "empty decomposition"},
		{"decomposition total", func() (*Figure, error) {
			return ErrorDecomposition(Decomposition{X: []float64{1}, Bias: []float64{1}, SampleVariance: []float64{1}, ComputationalVariance: []float64{1}, Total: []float64{1, 2}}, Options{})
		}, "1 x values but 2 total"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := c.build()
			if f != nil {
				t.Error("figure returned with an error")
			}
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %v, want %q", err, c.msg)
			}
		})
	}
}

func TestLogTicks(t *testing.T) {
	label := func(min, max float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(min, max) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, c := range []struct {
		min, max float64
		want     string
	}{
		{1e-12, 1, "1e-12 1e-10 1e-8 1e-6 1e-4 0.01 1"},
		{1, 1000, "1 10 100 1000"},
		{0.003, 0.07, "0.01 0.005 0.02 0.05"},
		{0.1, 1, "0.1 1 0.2 0.5"},
		{0.15, 0.95, "0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9"},
		{2.5, 7, "3 4 5 6 7"},
		{0.12, 0.18, "0.12 0.14 0.16 0.18"},
		{300, 5000, "1000 500 2000 5000"},
		{2e5, 9e5, "2e5 3e5 4e5 5e5 6e5 7e5 8e5 9e5"},
	} {
		if got := strings.Join(label(c.min, c.max), " "); got != c.want {
			t.Errorf("ticks on [%v, %v]: %q, want %q", c.min, c.max, got, c.want)
		}
	}
	if (logTicks{}).Ticks(0, 1) != nil {
		t.Error("ticks for a non-positive range")
	}
}

// A linear axis gets at least four labels at a round step, inside the range.
func TestLinTicks(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     string
	}{
		{0, 60, "0 20 40 60"},
		{1, 60, "10 20 30 40 50 60"},
		{0, 1, "0.00 0.25 0.50 0.75 1.00"},
		{-0.3, 0.3, "-0.3 -0.2 -0.1 0.0 0.1 0.2 0.3"},
		{0.9, 1.1, "0.90 0.95 1.00 1.05 1.10"},
		{100, 1000, "250 500 750 1000"},
		{2.85e6, 3.45e6, "2,900,000 3,000,000 3,100,000 3,200,000 3,300,000 3,400,000"},
		{-60000, 0, "-60,000 -40,000 -20,000 0"},
		{1000, 9000, "2000 4000 6000 8000"},
		{12345, 12346, "12,345.00 12,345.25 12,345.50 12,345.75 12,346.00"},
	} {
		var got []string
		for _, tk := range (linTicks{}).Ticks(c.min, c.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
			if tk.Value < c.min-1e-12 || tk.Value > c.max+1e-12 {
				t.Errorf("[%v, %v]: tick %v outside", c.min, c.max, tk.Value)
			}
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("ticks on [%v, %v]: %q, want %q", c.min, c.max, g, c.want)
		}
	}
}

// Of several curves' chosen models, only the one with the least validation
// error is ringed and named in the title.
func TestBestMarkedOnce(t *testing.T) {
	curves := []Curve{
		{Name: "a", X: []float64{1, 2, 3}, Val: []float64{0.5, 0.4, 0.45}, Chosen: 2},
		{Name: "b", X: []float64{1, 2, 3}, Val: []float64{0.3, 0.2, 0.25}, Chosen: 3},
	}
	f, err := LearningCurves(curves, Options{Data: "toy data"})
	if err != nil {
		t.Fatal(err)
	}
	svg := f.SVG()
	if !strings.Contains(svg, ">Learning curves on toy data<") || !strings.Contains(svg, ">best: b at iteration 3, validation RMSE 0.25<") {
		t.Error("the title does not name the data and the best model")
	}
	// The ring is drawn once in the plot and once in the legend.
	rings := regexp.MustCompile(`<path d="M[0-9.]+,[0-9.]+A7,7 0 1 1`).FindAllString(svg, -1)
	if len(rings) != 2 {
		t.Errorf("%d rings of radius 7, want 2 (the best point and its legend entry)", len(rings))
	}
}
