package viz

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// This file turns the frames of the frames package (Select, Sweep, long
// tables) into the inputs of this package's figures.

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
	for _, c := range []string{frames.SweepSetting, frames.SweepSigma, frames.SweepM, frames.SweepLambdaQ, frames.SweepBatch, frames.SweepLambda, frames.SweepIter, frames.SweepPasses, frames.SweepTrainRMSE, frames.SweepValRMSE} {
		v, err := frames.Column(sw, c)
		if err != nil {
			return nil, fmt.Errorf("%w (is this the frame Sweep returned?)", err)
		}
		s.byName[c] = v
	}
	if _, err := columnOf(sw, frames.SweepMethod); err != nil {
		return nil, err
	}
	s.method = sw.Col(frames.SweepMethod).Records()
	s.setting, s.sigma, s.m = s.byName[frames.SweepSetting], s.byName[frames.SweepSigma], s.byName[frames.SweepM]
	s.lq, s.lambda, s.iter = s.byName[frames.SweepLambdaQ], s.byName[frames.SweepLambda], s.byName[frames.SweepIter]
	s.train, s.val, s.passes = s.byName[frames.SweepTrainRMSE], s.byName[frames.SweepValRMSE], s.byName[frames.SweepPasses]
	return s, nil
}

// SweepCurves turns a Sweep frame into one Curve per setting, for
// LearningCurves (iterative methods: X is the iteration, or the passes
// for sgm) or RegularizationPath (lambda paths). Each curve is named by
// its method and the parameters that vary across the sweep, and marks its
// least validation error.
func SweepCurves(sweep dataframe.DataFrame) ([]Curve, error) {
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
	for _, p := range []param{{"σ", s.sigma}, {"m", s.m}, {"λq", s.lq}, {"b", s.byName[frames.SweepBatch]}} {
		if varies(p.v) {
			shown = append(shown, p)
		}
	}
	var curves []Curve
	start := 0
	for i := 1; i <= len(s.setting); i++ {
		if i < len(s.setting) && s.setting[i] == s.setting[start] {
			continue
		}
		c := Curve{}
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

// SweepHeatmap turns a Sweep frame into a Grid of the least
// validation RMSE for each pair of values of the columns x and y (each one
// of "sigma", "m", "lambda_q", "batch", "lambda", "iter" and "passes"),
// minimized over the other parameters, for Heatmap. A pair never tried
// is NaN.
func SweepHeatmap(sweep dataframe.DataFrame, x, y string) (Grid, error) {
	s, err := readSweep(sweep)
	if err != nil {
		return Grid{}, err
	}
	allowed := []string{frames.SweepSigma, frames.SweepM, frames.SweepLambdaQ, frames.SweepBatch, frames.SweepLambda, frames.SweepIter, frames.SweepPasses}
	get := func(name string) ([]float64, error) {
		for _, a := range allowed {
			if a == name {
				return s.byName[name], nil
			}
		}
		return nil, fmt.Errorf("viz: %q is not a sweep parameter: choose %s", name, strings.Join(allowed, ", "))
	}
	xv, err := get(x)
	if err != nil {
		return Grid{}, err
	}
	yv, err := get(y)
	if err != nil {
		return Grid{}, err
	}
	if x == y {
		return Grid{}, fmt.Errorf("viz: the heatmap needs two different parameters, got %q twice", x)
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
	return Grid{XName: x, YName: y, ZName: "validation RMSE", X: xs, Y: ys, Z: z}, nil
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

// SeriesOf turns a long frame into lines for Lines and NoiseCurves:
// one Series per distinct value of the column group (in order of first
// appearance; one series named y when group is empty), with X and Y from
// the columns x and y, sorted by X, and error bars from the column errCol
// when it is not empty. A series is named by its group value, or
// "group = value" when the group column is numeric. Rows with a missing X
// or Y are skipped.
func SeriesOf(df dataframe.DataFrame, group, x, y, errCol string) ([]Series, error) {
	if err := checkFrame(df, "input"); err != nil {
		return nil, err
	}
	xs, err := frames.Column(df, x)
	if err != nil {
		return nil, err
	}
	ys, err := frames.Column(df, y)
	if err != nil {
		return nil, err
	}
	var es []float64
	if errCol != "" {
		if es, err = frames.Column(df, errCol); err != nil {
			return nil, err
		}
	}
	n := df.Nrow()
	labels := make([]string, n)
	if group == "" {
		for i := range labels {
			labels[i] = y
		}
	} else {
		j, err := columnOf(df, group)
		if err != nil {
			return nil, err
		}
		recs := df.Col(group).Records()
		numeric := df.Types()[j] == series.Float || df.Types()[j] == series.Int
		for i, r := range recs {
			if numeric {
				if v, err := strconv.ParseFloat(r, 64); err == nil {
					r = strconv.FormatFloat(v, 'g', -1, 64)
				}
				r = group + " = " + r
			}
			labels[i] = r
		}
	}
	index := map[string]int{}
	var out []Series
	for i := 0; i < n; i++ {
		if math.IsNaN(xs[i]) || math.IsNaN(ys[i]) {
			continue
		}
		g, ok := index[labels[i]]
		if !ok {
			g = len(out)
			index[labels[i]] = g
			out = append(out, Series{Name: labels[i]})
		}
		s := &out[g]
		s.X = append(s.X, xs[i])
		s.Y = append(s.Y, ys[i])
		if es != nil {
			e := es[i]
			if math.IsNaN(e) {
				e = 0
			}
			s.Err = append(s.Err, e)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("viz: no rows with both %q and %q present", x, y)
	}
	for g := range out {
		sortSeries(&out[g])
	}
	return out, nil
}

// sortSeries orders a series' points by X.
func sortSeries(s *Series) {
	idx := make([]int, len(s.X))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.X[idx[a]] < s.X[idx[b]] })
	perm := func(v []float64) []float64 {
		if v == nil {
			return nil
		}
		out := make([]float64, len(v))
		for i, j := range idx {
			out[i] = v[j]
		}
		return out
	}
	s.X, s.Y, s.Err = perm(s.X), perm(s.Y), perm(s.Err)
}

// SelectionFigure draws a Select result over its pool (the CRED paper's
// Figure 1): the first background rows of pool in grey (all rows when
// background <= 0; a few thousand keep the SVG small) and the chosen rows,
// each a disc whose area is proportional to its total importance weight.
// x and y name the two pool columns plotted; chosen must hold Select's
// "row" and "weight" columns.
func SelectionFigure(pool, chosen dataframe.DataFrame, x, y string, background int, opt Options) (*Figure, error) {
	if err := checkFrame(pool, "pool"); err != nil {
		return nil, err
	}
	if err := checkFrame(chosen, "chosen"); err != nil {
		return nil, err
	}
	px, err := frames.Column(pool, x)
	if err != nil {
		return nil, err
	}
	py, err := frames.Column(pool, y)
	if err != nil {
		return nil, err
	}
	rowsF, err := frames.Column(chosen, frames.RowColumn)
	if err != nil {
		return nil, fmt.Errorf("%w (pass the frame Select returned)", err)
	}
	w, err := frames.Column(chosen, frames.WeightColumn)
	if err != nil {
		return nil, fmt.Errorf("%w (pass the frame Select returned)", err)
	}
	n := len(px)
	rows := make([]int, len(rowsF))
	for k, rf := range rowsF {
		r := int(rf)
		if r < 0 || r >= n || float64(r) != rf {
			return nil, fmt.Errorf("papers: chosen row %v is not a row of the pool of %d rows", rf, n)
		}
		rows[k] = r
	}
	if opt.XLabel == "" {
		opt.XLabel = x
	}
	if opt.YLabel == "" {
		opt.YLabel = y
	}
	return SelectionScatterPool(px, py, background, rows, w, opt)
}

// checkFrame rejects a frame that carries an error or has no cells.
func checkFrame(df dataframe.DataFrame, what string) error {
	if df.Err != nil {
		return fmt.Errorf("viz: the %s frame carries an error: %w", what, df.Err)
	}
	if n, d := df.Dims(); n == 0 || d == 0 {
		return fmt.Errorf("viz: empty %s frame: %d rows x %d columns", what, n, d)
	}
	return nil
}

// columnOf returns the position of the named column of df, or an error
// that lists the columns.
func columnOf(df dataframe.DataFrame, name string) (int, error) {
	for j, n := range df.Names() {
		if n == name {
			return j, nil
		}
	}
	return -1, fmt.Errorf("viz: no column named %q; the columns are %q", name, df.Names())
}
