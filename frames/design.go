package frames

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// Encoding is the one-hot encoding of a string column: one 0/1 design
// column per level, in this (sorted) order, named "column=level".
type Encoding struct {
	Column string   `json:"column"`
	Levels []string `json:"levels"`
}

// design is the map from a frame's columns to the numeric matrix a solver
// sees: the input columns, their one-hot encodings and the scaling.
type design struct {
	features []string    // input columns, in order
	encoded  []string    // design matrix columns
	oneHot   []Encoding  // for the string features, in feature order
	mean     []float64   // per design column; nil without standardization
	scale    []float64   // per design column; nil without standardization
	isString map[int]int // feature position -> index in oneHot
}

// bookkeeping reports whether name is one of Select's columns.
func bookkeeping(name string) bool {
	return name == RowColumn || name == ProbColumn || name == WeightColumn || name == BatchColumn || name == CountColumn || name == AuditColumn || name == PoolWeightColumn
}

// beamColumns are the columns the Beam module's selections add beside
// Select's row, prob and weight (credbeam.WriteSelected): the shard, the
// line in it and the draw.
var beamColumns = []string{"file", "line", "draw"}

// beamBookkeeping reports whether name is one of beamColumns in a frame
// with Select's columns row, prob and weight: a selection written by the
// Beam module, whose file, line and draw are not features.
func beamBookkeeping(names []string, name string) bool {
	return slices.Contains(beamColumns, name) && slices.Contains(names, RowColumn) && slices.Contains(names, ProbColumn) && slices.Contains(names, WeightColumn)
}

// resolveFeatures returns the feature columns of spec on df.
func resolveFeatures(df dataframe.DataFrame, s *Spec, oneHot bool) ([]string, error) {
	names := df.Names()
	types := df.Types()
	if len(s.Features) > 0 {
		seen := map[string]bool{}
		for _, f := range s.Features {
			j, err := columnIndex(names, f, "feature")
			if err != nil {
				return nil, err
			}
			if seen[f] {
				return nil, problem(f, "feature", "is listed twice among the features")
			}
			seen[f] = true
			switch {
			case s.Target != "" && f == s.Target:
				return nil, problem(f, "feature", "is the target column; remove it from the features")
			case s.Weight != "" && f == s.Weight:
				return nil, problem(f, "feature", "is the weight column; remove it from the features")
			case s.Audit != "" && f == s.Audit:
				return nil, problem(f, "feature", "is the audit column; remove it from the features")
			case !isNumeric(types[j]) && looksLikeDates(df.Col(f).Records()):
				return nil, dateProblem(df, f)
			case !isNumeric(types[j]) && !oneHot:
				return nil, &StringColumnsError{Columns: []string{f}}
			}
		}
		return append([]string(nil), s.Features...), nil
	}
	excl := map[string]bool{}
	for _, e := range s.Exclude {
		if _, err := columnIndex(names, e, "excluded"); err != nil {
			return nil, err
		}
		excl[e] = true
	}
	var out, skipped []string
	for j, n := range names {
		if n == s.Target || n == s.Weight || n == s.Audit || excl[n] || bookkeeping(n) || beamBookkeeping(names, n) || n == PredictionColumn {
			continue
		}
		if !isNumeric(types[j]) && looksLikeDates(df.Col(n).Records()) {
			return nil, dateProblem(df, n)
		}
		if !isNumeric(types[j]) && !oneHot {
			skipped = append(skipped, n)
			continue
		}
		out = append(out, n)
	}
	if len(skipped) > 0 {
		return nil, &StringColumnsError{Columns: skipped}
	}
	if len(out) == 0 {
		return nil, emptyf("no feature columns: the frame has no column besides the target")
	}
	return out, nil
}

// extracted holds the columns read from a frame, before rows with missing
// values are dropped.
type extracted struct {
	// x holds the design columns row-major, n x p (NaN where missing):
	// the one copy of the features, which matrix turns into the solver's
	// matrix in place.
	x []float64
	p int
	// use lists the design columns kept (dropConstant); nil: all of them.
	use  []int
	y, w []float64 // nil when not asked for
	na   []bool    // rows with a missing value in any used column
	nNA  int
	// missing describes the columns with missing values and their counts.
	missing     string
	missingCols []string
	empty       []string // feature columns missing in every row
}

// extract reads the feature columns of d (learning the one-hot levels when
// learn is set), and the target and weight columns when named.
func (d *design) extract(df dataframe.DataFrame, target, weight string, learn bool) (*extracted, error) {
	names := df.Names()
	types := df.Types()
	n := df.Nrow()
	ex := &extracted{na: make([]bool, n)}
	var missing []string // "name (k rows)"
	markNA := func(name, role string, isNA func(i int) bool) {
		k := 0
		for i := 0; i < n; i++ {
			if isNA(i) {
				ex.na[i] = true
				k++
			}
		}
		if k > 0 {
			missing = append(missing, fmt.Sprintf("%q (%d of %d rows)", name, k, n))
		}
		if k == n && role == "feature" && learn { // a model's own columns cannot be left out
			ex.empty = append(ex.empty, name)
		}
	}
	numeric := func(name, role string) ([]float64, error) {
		j, err := columnIndex(names, name, role)
		if err != nil {
			return nil, err
		}
		if !isNumeric(types[j]) {
			return nil, problem(name, role, "holds strings, not numbers")
		}
		v := df.Col(name).Float() // a column at a time: gota copies it
		for i, x := range v {
			if math.IsInf(x, 0) {
				return nil, &credlab.NotFiniteError{Name: fmt.Sprintf("%s column %q", role, name), Row: i, Col: -1, Value: x}
			}
		}
		markNA(name, role, func(i int) bool { return math.IsNaN(v[i]) })
		return v, nil
	}
	learned, width, err := d.checkSize(df, learn)
	if err != nil {
		return nil, err
	}
	ex.p, ex.x = width, make([]float64, n*width)
	j0 := 0 // the next design column; checkSize counted width of them
	if learn {
		d.isString = map[int]int{}
		d.oneHot = nil
		d.encoded = nil
	}
	for p, f := range d.features {
		j, err := columnIndex(names, f, "feature")
		if err != nil {
			return nil, err
		}
		if isNumeric(types[j]) {
			if !learn {
				if _, str := d.isString[p]; str {
					return nil, problem(f, "feature", "was a string (categorical) column when the model was fitted, but holds %s values now", types[j])
				}
			}
			v, err := numeric(f, "feature")
			if err != nil {
				return nil, err
			}
			for i, x := range v {
				ex.x[i*width+j0] = x
			}
			j0++
			if learn {
				d.encoded = append(d.encoded, f)
			}
			continue
		}
		s := df.Col(f)
		vals, na := s.Records(), s.IsNaN()
		markNA(f, "feature", func(i int) bool { return na[i] })
		var enc Encoding
		if learn {
			enc = Encoding{Column: f, Levels: learned[p]}
			if len(enc.Levels) == 0 {
				return nil, problem(f, "feature", "holds strings and has no value that is not missing")
			}
			d.isString[p] = len(d.oneHot)
			d.oneHot = append(d.oneHot, enc)
			for _, l := range enc.Levels {
				d.encoded = append(d.encoded, f+"="+l)
			}
		} else {
			k, ok := d.isString[p]
			if !ok {
				return nil, problem(f, "feature", "holds strings, but was numeric when the model was fitted")
			}
			enc = d.oneHot[k]
		}
		index := make(map[string]int, len(enc.Levels))
		for l, lv := range enc.Levels {
			index[lv] = l
		}
		for i, v := range vals {
			row := ex.x[i*width+j0 : i*width+j0+len(enc.Levels)]
			if na[i] {
				for l := range row {
					row[l] = math.NaN()
				}
				continue
			}
			l, ok := index[v]
			if !ok {
				return nil, problem(f, "feature", "has the level %q in row %d, unseen when the model was fitted (levels %s)", v, i, listNames(enc.Levels, 10))
			}
			row[l] = 1
		}
		j0 += len(enc.Levels)
	}
	if target != "" {
		if ex.y, err = numeric(target, "target"); err != nil {
			return nil, err
		}
	}
	if weight != "" {
		if ex.w, err = numeric(weight, "weight"); err != nil {
			return nil, err
		}
		for i, v := range ex.w {
			if !math.IsNaN(v) && !(v > 0) {
				return nil, &ColumnProblemError{Name: weight, Role: "weight", Problem: fmt.Sprintf("has the value %v in row %d: weights must be positive", v, i)}
			}
		}
	}
	for _, b := range ex.na {
		if b {
			ex.nNA++
		}
	}
	if len(missing) > 0 {
		ex.missing = "missing (NaN) values in column " + strings.Join(missing, ", column ")
		ex.missingCols = missing
	}
	return ex, nil
}

// checkSize counts the design columns of df (learning the levels of the
// string features when learn is set, returned by feature position) and
// returns a *credlab.TooLargeError before any of them is built when the
// design matrix (8 bytes a value) and one column read from the frame
// exceed the memory limit. Its hint names the string column with the most levels
// when it makes most of the design, such as an identifier one-hot encoded.
// Columns missing from df are left to extract to report.
func (d *design) checkSize(df dataframe.DataFrame, learn bool) (map[int][]string, int, error) {
	names := df.Names()
	types := df.Types()
	n := df.Nrow()
	var learned map[int][]string
	if learn {
		learned = map[int][]string{}
	}
	cols, widest, widestLevels := 0, "", 0
	for p, f := range d.features {
		j, err := columnIndex(names, f, "feature")
		if err != nil {
			continue
		}
		if isNumeric(types[j]) {
			cols++
			continue
		}
		var levels int
		if learn {
			s := df.Col(f)
			learned[p] = sortedLevels(s.Records(), s.IsNaN())
			levels = len(learned[p])
		} else if k, ok := d.isString[p]; ok {
			levels = len(d.oneHot[k].Levels)
		}
		cols += levels
		if levels > widestLevels {
			widest, widestLevels = f, levels
		}
	}
	hint := "use fewer feature columns or rows, or raise the memory limit"
	if widestLevels > 1 && 2*widestLevels > cols {
		hint = fmt.Sprintf("too many levels in column %q (%d), one design column each: exclude it, or replace it by a coarser column, or raise the memory limit", widest, widestLevels)
	}
	return learned, cols, checkMemory("the design matrix", n, cols, float64(n)*float64(cols+2)*8, hint)
}

// matrix returns the kept rows (at least one) and design columns of ex as
// a row-major matrix, standardized when the design has a scaling. It is
// built in place in ex.x, moving each value forward (a kept value's new
// index is never past its old one), so ex is spent.
func (d *design) matrix(ex *extracted, keep []int) *mat.Dense {
	use := ex.use
	if use == nil {
		use = make([]int, ex.p)
		for j := range use {
			use[j] = j
		}
	}
	n, p := len(keep), len(use)
	data := ex.x
	for i, r := range keep {
		for k, j := range use {
			m, s := 0.0, 1.0
			if d.mean != nil {
				m, s = d.mean[k], d.scale[k]
			}
			data[i*p+k] = (data[r*ex.p+j] - m) / s
		}
	}
	ex.x = nil
	return mat.NewDense(n, p, data[:n*p:n*p])
}

// learnScaling sets the means and standard deviations of the design
// columns kept (ex.use) over the kept rows. Constant columns must have been
// dropped (dropConstant); a scale that is not positive is set to 1.
func (d *design) learnScaling(ex *extracted, keep []int) {
	d.mean = make([]float64, len(ex.use))
	d.scale = make([]float64, len(ex.use))
	n := float64(len(keep))
	for k, j := range ex.use {
		m := 0.0
		for _, r := range keep {
			m += ex.x[r*ex.p+j]
		}
		if math.IsInf(m, 0) { // values near the largest float: divide first
			m = 0
			for _, r := range keep {
				m += ex.x[r*ex.p+j] / n
			}
		} else {
			m /= n
		}
		v, big := 0.0, 0.0
		for _, r := range keep {
			t := ex.x[r*ex.p+j] - m
			v += t * t
			big = math.Max(big, math.Abs(t))
		}
		s := math.Sqrt(v / n)
		if big > 0 && (math.IsInf(v, 0) || v < 1e-280) {
			// Squares overflow beyond about 1e154 and lose digits below
			// 1e-154: scale the deviations by the largest first.
			v = 0
			for _, r := range keep {
				t := (ex.x[r*ex.p+j] - m) / big
				v += t * t
			}
			s = big * math.Sqrt(v/n)
		}
		if !(s > 0) || math.IsInf(s, 0) {
			s = 1
		}
		d.mean[k], d.scale[k] = m, s
	}
}

// dropConstant leaves out of the design the features that are constant on
// the kept rows (a numeric column with one value, a string column with one
// level), and the levels of a string column that occur only in dropped
// rows, and returns a warning for each. It updates the design and ex.use.
// An error is returned when no feature is left.
func (d *design) dropConstant(ex *extracted, keep []int) ([]string, error) {
	var warns []string
	var feats, encoded []string
	var oneHot []Encoding
	var cols []int
	isString := map[int]int{}
	j := 0 // design column of the current feature
	for p, f := range d.features {
		k, str := d.isString[p]
		if !str {
			c := j
			j++
			if v, ok := ex.constantOn(c, keep); ok {
				warns = append(warns, fmt.Sprintf("column %q is constant (%s) on the %d training rows: left out of the features", f, FormatFloat(v), len(keep)))
				continue
			}
			feats, encoded, cols = append(feats, f), append(encoded, f), append(cols, c)
			continue
		}
		enc := d.oneHot[k]
		var levels []string
		var block []int
		for _, l := range enc.Levels {
			c := j
			j++
			seen := false
			for _, r := range keep {
				if ex.x[r*ex.p+c] == 1 {
					seen = true
					break
				}
			}
			if !seen {
				warns = append(warns, fmt.Sprintf("level %q of column %q occurs only in rows dropped for missing values: left out (a row with it cannot be predicted)", l, f))
				continue
			}
			levels, block = append(levels, l), append(block, c)
		}
		if len(levels) < 2 {
			warns = append(warns, fmt.Sprintf("column %q has the single level %q on the %d training rows: left out of the features", f, levels[0], len(keep)))
			continue
		}
		isString[len(feats)] = len(oneHot)
		feats = append(feats, f)
		oneHot = append(oneHot, Encoding{Column: f, Levels: levels})
		for _, l := range levels {
			encoded = append(encoded, f+"="+l)
		}
		cols = append(cols, block...)
	}
	if len(feats) == 0 {
		return warns, emptyf("every feature column is constant on the %d training rows (%s): nothing to learn from", len(keep), listNames(d.features, 10))
	}
	d.features, d.encoded, d.oneHot, d.isString, ex.use = feats, encoded, oneHot, isString, cols
	return warns, nil
}

// constantOn reports whether design column j takes a single value on the
// rows keep, and that value.
func (ex *extracted) constantOn(j int, keep []int) (float64, bool) {
	v := ex.x[keep[0]*ex.p+j]
	for _, r := range keep[1:] {
		if ex.x[r*ex.p+j] != v {
			return 0, false
		}
	}
	return v, true
}

// keptRows returns the rows without missing values.
func keptRows(na []bool) []int {
	out := make([]int, 0, len(na))
	for i, b := range na {
		if !b {
			out = append(out, i)
		}
	}
	return out
}

func gatherFloats(v []float64, idx []int) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(idx))
	for i, r := range idx {
		out[i] = v[r]
	}
	return out
}

// prepared is a frame turned into a solver's input.
type prepared struct {
	d    *design
	x    *mat.Dense
	y, w []float64
	// audit holds the audit weights of Spec.Audit; nil without.
	audit []float64
	rows  []int // the frame rows behind the rows of x
	// warnings name columns and levels left out of the design.
	warnings []string
}

// prepare resolves the features of s on df, reads the used columns,
// handles missing values and scaling, and returns the design and data.
// target may be empty (Select). s.Scale "standardize" standardizes the
// columns and drops constant ones; any other value ("" included: callers
// resolve Fit's default first) leaves them as they are.
func prepare(df dataframe.DataFrame, s *Spec, what string) (*prepared, error) {
	if err := checkFrame(df, what); err != nil {
		return nil, err
	}
	names := df.Names()
	if s.Target != "" {
		if _, err := columnIndex(names, s.Target, "target"); err != nil {
			return nil, err
		}
	}
	if s.Weight != "" {
		if _, err := columnIndex(names, s.Weight, "weight"); err != nil {
			return nil, err
		}
		if s.Weight == s.Target {
			return nil, problem(s.Weight, "weight", "is also the target column")
		}
	}
	feats, err := resolveFeatures(df, s, s.OneHot)
	if err != nil {
		return nil, err
	}
	d := &design{features: feats}
	ex, err := d.extract(df, s.Target, s.Weight, true)
	if err != nil {
		return nil, err
	}
	if ex.nNA > 0 && (!s.DropNA || len(ex.empty) > 0) { // dropping rows cannot fill an empty column
		return nil, ex.missingError()
	}
	keep := keptRows(ex.na)
	if len(keep) == 0 {
		return nil, emptyf("every row has a missing value (%s)", ex.missing)
	}
	var warns []string
	if s.Scale == ScaleStandardize {
		if warns, err = d.dropConstant(ex, keep); err != nil {
			return nil, err
		}
		d.learnScaling(ex, keep)
	}
	warns = append(warns, manyLevels(d.oneHot, len(keep))...)
	p := &prepared{d: d, x: d.matrix(ex, keep), y: gatherFloats(ex.y, keep), w: gatherFloats(ex.w, keep), rows: keep, warnings: warns}
	if s.Audit != "" {
		if p.audit, err = auditWeights(df, s, keep); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// auditWeights reads the audit weights of Spec.Audit in the rows keep:
// finite, 0 or positive, at least 2 positive.
func auditWeights(df dataframe.DataFrame, s *Spec, keep []int) ([]float64, error) {
	if _, err := columnIndex(df.Names(), s.Audit, "audit"); err != nil {
		return nil, err
	}
	if s.Audit == s.Target || s.Audit == s.Weight {
		return nil, problem(s.Audit, "audit", "is also the target or the weight column")
	}
	v, err := Column(df, s.Audit)
	if err != nil {
		return nil, err
	}
	a := gatherFloats(v, keep)
	rows := 0
	for i, x := range a {
		if !(x >= 0) || math.IsInf(x, 0) {
			return nil, &ColumnProblemError{Name: s.Audit, Role: "audit", Problem: fmt.Sprintf("has the value %v in row %d: audit weights are 1/pi for audit rows and 0 for the others", x, keep[i])}
		}
		if x > 0 {
			rows++
		}
	}
	if rows < 2 {
		return nil, &ColumnProblemError{Name: s.Audit, Role: "audit", Problem: fmt.Sprintf("marks %d audit rows: the pool RMSE estimate needs at least 2", rows)}
	}
	return a, nil
}

// seriesOf returns a float column.
func seriesOf(name string, v []float64) series.Series {
	return series.New(v, series.Float, name)
}
