package frames

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/credlab/credlab/viz"
	"github.com/go-gota/gota/dataframe"
)

// sweepCols reads the numeric columns of a Sweep frame.
type sweepCols struct {
	method                        []string
	setting, iter, m, passes      []float64
	sigma, lq, lambda, train, val []float64
	byName                        map[string][]float64
}

func readSweep(sw dataframe.DataFrame) (*sweepCols, error) {
	if err := checkFrame(sw, "sweep"); err != nil {
		return nil, err
	}
	s := &sweepCols{byName: map[string][]float64{}}
	for _, c := range []string{SweepSetting, SweepSigma, SweepM, SweepLambdaQ, SweepBatch, SweepLambda, SweepIter, SweepPasses, SweepTrainRMSE, SweepValRMSE} {
		v, err := Column(sw, c)
		if err != nil {
			return nil, fmt.Errorf("%w (is this the frame Sweep returned?)", err)
		}
		s.byName[c] = v
	}
	if _, err := columnIndex(sw.Names(), SweepMethod, "sweep"); err != nil {
		return nil, err
	}
	s.method = sw.Col(SweepMethod).Records()
	s.setting, s.sigma, s.m = s.byName[SweepSetting], s.byName[SweepSigma], s.byName[SweepM]
	s.lq, s.lambda, s.iter = s.byName[SweepLambdaQ], s.byName[SweepLambda], s.byName[SweepIter]
	s.train, s.val, s.passes = s.byName[SweepTrainRMSE], s.byName[SweepValRMSE], s.byName[SweepPasses]
	return s, nil
}

// SweepCurves turns a Sweep frame into one viz.Curve per setting, for
// viz.LearningCurves (iterative methods: X is the iteration, or the passes
// for sgm) or viz.RegularizationPath (lambda paths). Each curve is named by
// its method and the parameters that vary across the sweep, and marks its
// least validation error.
func SweepCurves(sweep dataframe.DataFrame) ([]viz.Curve, error) {
	s, err := readSweep(sweep)
	if err != nil {
		return nil, err
	}
	varies := func(v []float64) bool {
		for _, x := range v {
			if x != v[0] {
				return true
			}
		}
		return false
	}
	type param struct {
		name string
		v    []float64
	}
	var shown []param
	for _, p := range []param{{"σ", s.sigma}, {"m", s.m}, {"λq", s.lq}, {"b", s.byName[SweepBatch]}} {
		if varies(p.v) {
			shown = append(shown, p)
		}
	}
	var curves []viz.Curve
	start := 0
	for i := 1; i <= len(s.setting); i++ {
		if i < len(s.setting) && s.setting[i] == s.setting[start] {
			continue
		}
		c := viz.Curve{}
		parts := []string{s.method[start]}
		for _, p := range shown {
			parts = append(parts, fmt.Sprintf("%s=%.3g", p.name, p.v[start]))
		}
		c.Name = strings.Join(parts, " ")
		best := math.Inf(1)
		for r := start; r < i; r++ {
			x := s.lambda[r]
			switch {
			case s.passes[r] > 0:
				x = s.passes[r]
			case s.iter[r] > 0:
				x = s.iter[r]
			}
			c.X = append(c.X, x)
			c.Train = append(c.Train, s.train[r])
			c.Val = append(c.Val, s.val[r])
			if v := s.val[r]; !math.IsNaN(v) && v < best {
				best, c.Chosen = v, x
			}
		}
		curves = append(curves, c)
		start = i
	}
	return curves, nil
}

// SweepHeatmap turns a Sweep frame into a viz.Grid of the least
// validation RMSE for each pair of values of the columns x and y (each one
// of "sigma", "m", "lambda_q", "batch", "lambda", "iter" and "passes"),
// minimized over the other parameters, for viz.Heatmap. A pair never tried
// is NaN.
func SweepHeatmap(sweep dataframe.DataFrame, x, y string) (viz.Grid, error) {
	s, err := readSweep(sweep)
	if err != nil {
		return viz.Grid{}, err
	}
	allowed := []string{SweepSigma, SweepM, SweepLambdaQ, SweepBatch, SweepLambda, SweepIter, SweepPasses}
	get := func(name string) ([]float64, error) {
		for _, a := range allowed {
			if a == name {
				return s.byName[name], nil
			}
		}
		return nil, fmt.Errorf("frames: %q is not a sweep parameter: choose %s", name, listNames(allowed, 10))
	}
	xv, err := get(x)
	if err != nil {
		return viz.Grid{}, err
	}
	yv, err := get(y)
	if err != nil {
		return viz.Grid{}, err
	}
	if x == y {
		return viz.Grid{}, fmt.Errorf("frames: the heatmap needs two different parameters, got %q twice", x)
	}
	xs, ys := uniqueSorted(xv), uniqueSorted(yv)
	z := make([][]float64, len(ys))
	for i := range z {
		z[i] = make([]float64, len(xs))
		for j := range z[i] {
			z[i][j] = math.NaN()
		}
	}
	for r := range xv {
		v := s.val[r]
		if math.IsNaN(v) || math.IsNaN(xv[r]) || math.IsNaN(yv[r]) {
			continue
		}
		i, j := sort.SearchFloat64s(ys, yv[r]), sort.SearchFloat64s(xs, xv[r])
		if math.IsNaN(z[i][j]) || v < z[i][j] {
			z[i][j] = v
		}
	}
	return viz.Grid{XName: x, YName: y, ZName: "validation RMSE", X: xs, Y: ys, Z: z}, nil
}

// uniqueSorted returns the distinct non-NaN values of v in increasing
// order.
func uniqueSorted(v []float64) []float64 {
	var out []float64
	for _, x := range v {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	sort.Float64s(out)
	k := 0
	for i, x := range out {
		if i == 0 || x != out[k-1] {
			out[k] = x
			k++
		}
	}
	return out[:k]
}
