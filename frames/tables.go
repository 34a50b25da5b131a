package frames

import (
	"errors"
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Summary column names written by Summarize.
const (
	SummaryColumn = "column"
	SummaryCount  = "count"
	SummaryMean   = "mean"
	SummarySD     = "sd"
	SummaryMin    = "min"
	SummaryQ25    = "q25"
	SummaryMedian = "median"
	SummaryQ75    = "q75"
	SummaryMax    = "max"
)

// Summarize groups the rows of df by the columns by (in order of first
// appearance; no grouping when by is empty) and describes each value column
// in each group: the count of non-missing values ("count"), "mean", "sd" (the
// sample standard deviation, 0 for a single value), "min", "q25", "median",
// "q75" and "max" (quantiles by linear interpolation). The result has one
// row per group and value column: the by columns (with their types), a
// "column" column naming the value column when more than one is given, then
// the statistics. Missing (NaN) values are skipped.
func Summarize(df dataframe.DataFrame, by []string, values ...string) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := checkFrame(df, "input"); err != nil {
		return none, err
	}
	if len(values) == 0 {
		return none, &credlab.ParamError{Name: "values", Value: "none", Want: "at least one value column to summarize"}
	}
	names := df.Names()
	types := df.Types()
	keys := make([][]string, len(by))
	for k, b := range by {
		if _, err := columnIndex(names, b, "grouping"); err != nil {
			return none, err
		}
		for _, st := range []string{SummaryColumn, SummaryCount, SummaryMean, SummarySD, SummaryMin, SummaryQ25, SummaryMedian, SummaryQ75, SummaryMax} {
			if b == st {
				return none, problem(b, "grouping", "has the name of a summary column; rename it")
			}
		}
		keys[k] = df.Col(b).Records()
	}
	vals := make([][]float64, len(values))
	for k, v := range values {
		c, err := Column(df, v)
		if err != nil {
			return none, err
		}
		vals[k] = c
	}
	// Groups in order of first appearance.
	n := df.Nrow()
	index := map[string]int{}
	var first []int     // first row of each group
	var members [][]int // rows of each group
	for i := 0; i < n; i++ {
		key := ""
		for k := range by {
			key += strconv.Quote(keys[k][i]) + "\x00"
		}
		g, ok := index[key]
		if !ok {
			g = len(first)
			index[key] = g
			first = append(first, i)
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	var cols []series.Series
	rowsOut := len(first) * len(values)
	for k, b := range by {
		j, _ := columnIndex(names, b, "grouping")
		col := df.Col(b)
		idx := make([]int, 0, rowsOut)
		for g := range first {
			for range values {
				idx = append(idx, first[g])
			}
		}
		s := col.Subset(idx)
		s.Name = by[k]
		if types[j] == series.Bool {
			s = series.New(s.Records(), series.String, b)
		}
		cols = append(cols, s)
	}
	if len(values) > 1 {
		var c []string
		for range first {
			c = append(c, values...)
		}
		cols = append(cols, series.New(c, series.String, SummaryColumn))
	}
	count := make([]int, 0, rowsOut)
	stats := make([][]float64, 7)
	for g := range first {
		for k := range values {
			var v []float64
			for _, i := range members[g] {
				if x := vals[k][i]; !math.IsNaN(x) {
					v = append(v, x)
				}
			}
			count = append(count, len(v))
			st := describe(v)
			for s := range stats {
				stats[s] = append(stats[s], st[s])
			}
		}
	}
	cols = append(cols, series.New(count, series.Int, SummaryCount))
	for s, name := range []string{SummaryMean, SummarySD, SummaryMin, SummaryQ25, SummaryMedian, SummaryQ75, SummaryMax} {
		cols = append(cols, series.New(stats[s], series.Float, name))
	}
	out := dataframe.New(cols...)
	if out.Err != nil {
		return none, fmt.Errorf("frames: building the summary: %w", out.Err)
	}
	return out, nil
}

// describe returns mean, sd, min, q25, median, q75 and max of v (NaN for
// an empty v).
func describe(v []float64) [7]float64 {
	nan := math.NaN()
	if len(v) == 0 {
		return [7]float64{nan, nan, nan, nan, nan, nan, nan}
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	mean := 0.0
	for _, x := range s {
		mean += x
	}
	mean /= float64(len(s))
	sd := 0.0
	if len(s) > 1 {
		for _, x := range s {
			sd += (x - mean) * (x - mean)
		}
		sd = math.Sqrt(sd / float64(len(s)-1))
	}
	return [7]float64{mean, sd, s[0], quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75), s[len(s)-1]}
}

// quantile returns the p-quantile of the sorted s by linear interpolation.
func quantile(s []float64, p float64) float64 {
	h := p * float64(len(s)-1)
	lo := int(math.Floor(h))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (h-float64(lo))*(s[hi]-s[lo])
}

// SplitRows splits df at random into a training and a test frame, the test
// frame holding round(testShare * rows) rows; both keep the original row
// order. The same seed gives the same split.
func SplitRows(df dataframe.DataFrame, testShare float64, seed uint64) (train, test dataframe.DataFrame, err error) {
	var none dataframe.DataFrame
	if err := checkFrame(df, "input"); err != nil {
		return none, none, err
	}
	if !(testShare > 0 && testShare < 1) {
		return none, none, &credlab.ParamError{Name: "testShare", Value: testShare, Want: "a share in (0, 1)"}
	}
	n := df.Nrow()
	nt := int(math.Round(testShare * float64(n)))
	if nt < 1 || nt >= n {
		return none, none, &credlab.ParamError{Name: "testShare", Value: testShare, Want: fmt.Sprintf("a share that leaves rows in both parts of the %d rows", n)}
	}
	perm := rand.New(rand.NewPCG(seed, 0x73706c6974)).Perm(n)
	te := append([]int(nil), perm[:nt]...)
	tr := append([]int(nil), perm[nt:]...)
	sort.Ints(te)
	sort.Ints(tr)
	train, test = df.Subset(tr), df.Subset(te)
	if train.Err != nil || test.Err != nil {
		return none, none, fmt.Errorf("frames: splitting rows: %w", errors.Join(train.Err, test.Err))
	}
	return train, test, nil
}

// Subsample returns n rows of df drawn at random without replacement, in
// their original order (df itself when n is at least its row count).
func Subsample(df dataframe.DataFrame, n int, seed uint64) (dataframe.DataFrame, error) {
	if err := checkFrame(df, "input"); err != nil {
		return dataframe.DataFrame{}, err
	}
	if n <= 0 {
		return dataframe.DataFrame{}, &credlab.ParamError{Name: "n", Value: n, Want: "a positive number of rows"}
	}
	if n >= df.Nrow() {
		return df, nil
	}
	idx := subsampleIndex(df.Nrow(), n, seed)
	out := df.Subset(idx)
	if out.Err != nil {
		return dataframe.DataFrame{}, out.Err
	}
	return out, nil
}

// subsampleIndex returns n sorted distinct indices below total.
func subsampleIndex(total, n int, seed uint64) []int {
	idx := append([]int(nil), rand.New(rand.NewPCG(seed, 0x737562)).Perm(total)[:n]...)
	sort.Ints(idx)
	return idx
}

// MinMaxScale maps every numeric column of train, except those in exclude,
// linearly onto [lo, hi] using the training column's range, and applies the
// same map to test (which may be an empty frame, returned as is, or have
// values outside the range). A constant column becomes (lo + hi) / 2. This
// is the NYTRO experiments' preprocessing (to [-1, 1], or [0, 1]).
func MinMaxScale(train, test dataframe.DataFrame, lo, hi float64, exclude ...string) (dataframe.DataFrame, dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	if err := checkFrame(train, "training"); err != nil {
		return none, none, err
	}
	if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return none, none, &credlab.ParamError{Name: "lo, hi", Value: fmt.Sprintf("%v, %v", lo, hi), Want: "finite bounds with lo < hi"}
	}
	names := train.Names()
	skip := map[string]bool{}
	for _, e := range exclude {
		if _, err := columnIndex(names, e, "excluded"); err != nil {
			return none, none, err
		}
		skip[e] = true
	}
	hasTest := test.Nrow() > 0
	if test.Err != nil {
		return none, none, fmt.Errorf("frames: the test frame carries an error: %w", test.Err)
	}
	types := train.Types()
	var trCols, teCols []series.Series
	for j, name := range names {
		if skip[name] || !isNumeric(types[j]) {
			trCols = append(trCols, train.Col(name))
			if hasTest {
				c := test.Col(name)
				if c.Err != nil {
					return none, none, &ColumnError{Name: name, Role: "test", Suggestion: closest(test.Names(), name), Columns: test.Names()}
				}
				teCols = append(teCols, c)
			}
			continue
		}
		v, _ := Column(train, name)
		mn, mx := math.Inf(1), math.Inf(-1)
		for _, x := range v {
			if !math.IsNaN(x) {
				mn, mx = math.Min(mn, x), math.Max(mx, x)
			}
		}
		scale := func(x float64) float64 {
			if math.IsNaN(x) {
				return x
			}
			if !(mx > mn) {
				return (lo + hi) / 2
			}
			return lo + (hi-lo)*(x-mn)/(mx-mn)
		}
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = scale(x)
		}
		trCols = append(trCols, series.New(out, series.Float, name))
		if hasTest {
			tv, err := Column(test, name)
			if err != nil {
				return none, none, fmt.Errorf("frames: test frame: %w", err)
			}
			to := make([]float64, len(tv))
			for i, x := range tv {
				to[i] = scale(x)
			}
			teCols = append(teCols, series.New(to, series.Float, name))
		}
	}
	outTrain := dataframe.New(trCols...)
	if !hasTest {
		return outTrain, test, outTrain.Err
	}
	outTest := dataframe.New(teCols...)
	if outTrain.Err != nil || outTest.Err != nil {
		return none, none, fmt.Errorf("frames: scaling: %w", errors.Join(outTrain.Err, outTest.Err))
	}
	return outTrain, outTest, nil
}

// Pivot reshapes a long frame into a wide one: one row per distinct value
// of the index columns (in order of first appearance), one column per
// distinct value of the column column (likewise), holding the statistic
// stat of the value column over the rows that fall in the cell: "mean",
// "median", "sd", "min", "max" or "count". An empty cell is NaN.
// Column names are the column's values, as text (floats in the shortest
// form, such as "0.0001").
func Pivot(df dataframe.DataFrame, index []string, column, value, stat string) (dataframe.DataFrame, error) {
	var none dataframe.DataFrame
	statIdx := map[string]int{SummaryMean: 0, SummarySD: 1, SummaryMin: 2, SummaryMedian: 4, SummaryMax: 6, SummaryCount: -1}
	si, ok := statIdx[stat]
	if !ok {
		return none, &credlab.ParamError{Name: "stat", Value: strconv.Quote(stat), Want: "mean, median, sd, min, max or count"}
	}
	if len(index) == 0 {
		return none, &credlab.ParamError{Name: "index", Value: "none", Want: "at least one index column"}
	}
	s, err := Summarize(df, append(append([]string(nil), index...), column), value)
	if err != nil {
		return none, err
	}
	keys := make([][]string, len(index))
	for k, c := range index {
		keys[k] = s.Col(c).Records()
	}
	colVals := s.Col(column).Records()
	if t := s.Col(column).Type(); t == series.Float {
		for i, v := range s.Col(column).Float() {
			colVals[i] = strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	var stats []float64
	if si < 0 {
		for _, c := range s.Col(SummaryCount).Float() {
			stats = append(stats, c)
		}
	} else {
		stats = s.Col([]string{SummaryMean, SummarySD, SummaryMin, SummaryQ25, SummaryMedian, SummaryQ75, SummaryMax}[si]).Float()
	}
	rowIndex := map[string]int{}
	var firstRow []int
	colIndex := map[string]int{}
	var colNames []string
	for i := range colVals {
		key := ""
		for k := range index {
			key += strconv.Quote(keys[k][i]) + "\x00"
		}
		if _, ok := rowIndex[key]; !ok {
			rowIndex[key] = len(firstRow)
			firstRow = append(firstRow, i)
		}
		if _, ok := colIndex[colVals[i]]; !ok {
			colIndex[colVals[i]] = len(colNames)
			colNames = append(colNames, colVals[i])
		}
	}
	for _, c := range colNames {
		for _, x := range index {
			if c == x {
				return none, problem(column, "", "has the value %q, which is also the name of an index column", c)
			}
		}
	}
	cells := make([][]float64, len(colNames))
	for j := range cells {
		cells[j] = make([]float64, len(firstRow))
		for i := range cells[j] {
			cells[j][i] = math.NaN()
		}
	}
	for i := range colVals {
		key := ""
		for k := range index {
			key += strconv.Quote(keys[k][i]) + "\x00"
		}
		cells[colIndex[colVals[i]]][rowIndex[key]] = stats[i]
	}
	var cols []series.Series
	for _, c := range index {
		sc := s.Col(c).Subset(firstRow)
		sc.Name = c
		cols = append(cols, sc)
	}
	for j, c := range colNames {
		cols = append(cols, series.New(cells[j], series.Float, c))
	}
	out := dataframe.New(cols...)
	if out.Err != nil {
		return none, fmt.Errorf("frames: building the pivot table: %w", out.Err)
	}
	return out, nil
}

// Table displays a whole frame: in a notebook (gophernotes shows a value
// with an HTML method as HTML) as an HTML table, and as aligned text by
// String. gota's own printing stops at 10 rows and a few columns.
type Table struct {
	Frame dataframe.DataFrame
	// Digits is the number of significant digits of float cells (default
	// 4).
	Digits int
	// Title, if set, is shown above the table (an HTML caption).
	Title string
}

// ShowTable returns a Table of df with 4 significant digits.
func ShowTable(df dataframe.DataFrame) Table { return Table{Frame: df, Digits: 4} }

// cells returns the header and the formatted cells, row by row.
func (t Table) cells() ([]string, [][]string, []bool) {
	df := t.Frame
	digits := t.Digits
	if digits <= 0 {
		digits = 4
	}
	names := df.Names()
	types := df.Types()
	n := df.Nrow()
	rows := make([][]string, n)
	for i := range rows {
		rows[i] = make([]string, len(names))
	}
	right := make([]bool, len(names))
	for j, name := range names {
		col := df.Col(name)
		switch types[j] {
		case series.Float:
			right[j] = true
			for i, v := range col.Float() {
				if math.IsNaN(v) {
					rows[i][j] = "NaN"
					continue
				}
				rows[i][j] = strconv.FormatFloat(v, 'g', digits, 64)
			}
		case series.Int:
			right[j] = true
			for i, r := range col.Records() {
				rows[i][j] = r
			}
		default:
			for i, r := range col.Records() {
				rows[i][j] = r
			}
		}
	}
	return names, rows, right
}

// String renders the table as aligned text, every row and column.
func (t Table) String() string {
	if t.Frame.Err != nil {
		return "frames: the frame carries an error: " + t.Frame.Err.Error()
	}
	names, rows, right := t.cells()
	width := make([]int, len(names))
	for j, h := range names {
		width[j] = len([]rune(h))
		for _, r := range rows {
			width[j] = max(width[j], len([]rune(r[j])))
		}
	}
	var b []byte
	line := func(cells []string) {
		for j, c := range cells {
			pad := width[j] - len([]rune(c))
			if j > 0 {
				b = append(b, "  "...)
			}
			if right[j] {
				for ; pad > 0; pad-- {
					b = append(b, ' ')
				}
				b = append(b, c...)
			} else {
				b = append(b, c...)
				if j < len(cells)-1 {
					for ; pad > 0; pad-- {
						b = append(b, ' ')
					}
				}
			}
		}
		b = append(b, '\n')
	}
	if t.Title != "" {
		b = append(b, t.Title...)
		b = append(b, '\n')
	}
	line(names)
	for _, r := range rows {
		line(r)
	}
	return string(b)
}

// HTML renders the table as an HTML table, every row and column.
func (t Table) HTML() string {
	if t.Frame.Err != nil {
		return "<p>frames: the frame carries an error: " + html.EscapeString(t.Frame.Err.Error()) + "</p>"
	}
	names, rows, right := t.cells()
	var b strings.Builder
	b.WriteString("<table>\n")
	if t.Title != "" {
		b.WriteString("<caption>" + html.EscapeString(t.Title) + "</caption>\n")
	}
	b.WriteString("<thead><tr>")
	for _, h := range names {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, r := range rows {
		b.WriteString("<tr>")
		for j, c := range r {
			if right[j] {
				b.WriteString(`<td style="text-align:right">` + html.EscapeString(c) + "</td>")
			} else {
				b.WriteString("<td>" + html.EscapeString(c) + "</td>")
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	return b.String()
}
