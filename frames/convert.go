package frames

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// checkFrame reports a frame that carries an error or has no rows or no
// columns.
func checkFrame(df dataframe.DataFrame, what string) error { return CheckFrame(df, what) }

// CheckFrame returns an error if df carries one (wrapped) or has no cells
// (wrapping credlab.ErrEmpty), naming the frame by what ("pool",
// "training"). Every function of this package checks its frames with it.
func CheckFrame(df dataframe.DataFrame, what string) error {
	if df.Err != nil {
		return fmt.Errorf("frames: the %s frame carries an error: %w", what, df.Err)
	}
	n, d := df.Dims()
	if n == 0 || d == 0 {
		return emptyf("empty %s frame: %d rows x %d columns", what, n, d)
	}
	return nil
}

// FindColumn returns nil when df has the column name, otherwise a
// *ColumnError with the given role (such as "target"), the nearest column
// name as a suggestion, and the list of columns.
func FindColumn(df dataframe.DataFrame, name, role string) error {
	_, err := columnIndex(df.Names(), name, role)
	return err
}

// columnIndex returns the position of name among names, or an error that
// names it, suggests a close match and lists the columns.
func columnIndex(names []string, name, role string) (int, error) {
	for i, n := range names {
		if n == name {
			return i, nil
		}
	}
	return -1, &ColumnError{Name: name, Role: role, Suggestion: closest(names, name), Columns: append([]string(nil), names...)}
}

// closest returns the name nearest to s: equal ignoring case, or within an
// edit distance of 2 (1 for names of up to 3 letters); "" if none.
func closest(names []string, s string) string {
	best, bestD := "", 3
	if len(s) <= 3 {
		bestD = 2
	}
	for _, n := range names {
		if strings.EqualFold(n, s) {
			return n
		}
		if d := editDistance(strings.ToLower(n), strings.ToLower(s)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// listNames quotes up to max names.
func listNames(names []string, max int) string { return datasets.QuoteNames(names, max) }

// isNumeric reports whether a gota column type converts to numbers: float,
// int and bool (as 0/1) do; string does not.
func isNumeric(t series.Type) bool { return t != series.String }

// Column returns the named column of df as float64 values (missing values
// are NaN; bool columns are 0/1). A column df lacks is a *ColumnError and
// a string column a *ColumnProblemError.
func Column(df dataframe.DataFrame, name string) ([]float64, error) {
	if df.Err != nil {
		return nil, fmt.Errorf("frames: the frame carries an error: %w", df.Err)
	}
	names := df.Names()
	j, err := columnIndex(names, name, "")
	if err != nil {
		return nil, err
	}
	if t := df.Types()[j]; !isNumeric(t) {
		return nil, problem(name, "", "holds strings, not numbers (encode it first, for example with Spec.OneHot)")
	}
	return df.Col(name).Float(), nil
}

// FiniteColumn is Column for a column that must hold numbers only:
// missing (NaN) values are a *MissingError with their count and first row,
// an infinite value a *credlab.NotFiniteError with its row.
func FiniteColumn(df dataframe.DataFrame, name string) ([]float64, error) {
	v, err := Column(df, name)
	if err != nil {
		return nil, err
	}
	return v, checkFinite(name, v)
}

// checkMemory returns a *credlab.TooLargeError when need bytes, for a
// rows x cols object, exceed the memory limit
// (credlab.EffectiveMemoryLimit).
func checkMemory(what string, rows, cols int, need float64, hint string) error {
	if lim, _ := credlab.EffectiveMemoryLimit(); need > float64(lim) {
		return &credlab.TooLargeError{What: what, Rows: rows, Cols: cols, Bytes: need, Limit: lim, Hint: hint}
	}
	return nil
}

// ToMatrix returns the named columns of df (all columns when none are
// named) as an n x len(cols) matrix. Each column is converted once to a
// []float64 and copied into place. An empty frame wraps credlab.ErrEmpty;
// a missing column is a *ColumnError, a string column a
// *ColumnProblemError, missing (NaN) values a *MissingError and an
// infinite value a *credlab.NotFiniteError, each naming the column; a
// matrix over the memory limit is a *credlab.TooLargeError.
func ToMatrix(df dataframe.DataFrame, cols ...string) (*mat.Dense, error) {
	if err := checkFrame(df, "input"); err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		cols = df.Names()
	}
	n := df.Nrow()
	d := len(cols)
	// The matrix, and one column converted at a time.
	if err := checkMemory("the columns as a matrix", n, d, float64(n)*float64(d+1)*8, "use fewer columns or rows, or raise the memory limit"); err != nil {
		return nil, err
	}
	data := make([]float64, n*d)
	for j, c := range cols {
		v, err := Column(df, c)
		if err != nil {
			return nil, err
		}
		if err := checkFinite(c, v); err != nil {
			return nil, err
		}
		for i, x := range v {
			data[i*d+j] = x
		}
	}
	return mat.NewDense(n, d, data), nil
}

// FromMatrix returns a frame with one float column per column of x, named
// by names (x1, x2, ... when names is empty). x is copied column by column.
// An empty x wraps credlab.ErrEmpty and a count of names other than the
// columns credlab.ErrShape; an empty or repeated name is a
// *ColumnProblemError. A frame over the memory limit is a
// *credlab.TooLargeError.
func FromMatrix(x *mat.Dense, names ...string) (dataframe.DataFrame, error) {
	if x == nil || x.IsEmpty() {
		return dataframe.DataFrame{}, emptyf("empty matrix")
	}
	n, d := x.Dims()
	if len(names) == 0 {
		names = make([]string, d)
		for j := range names {
			names[j] = fmt.Sprintf("x%d", j+1)
		}
	}
	if len(names) != d {
		return dataframe.DataFrame{}, shapef("%d names for a matrix of %d columns", len(names), d)
	}
	if err := checkUnique(names); err != nil {
		return dataframe.DataFrame{}, err
	}
	if err := checkMemory("the matrix as frame columns", n, d, float64(n)*float64(d)*floatColumnBytes, "use fewer columns or rows, or raise the memory limit"); err != nil {
		return dataframe.DataFrame{}, err
	}
	raw := x.RawMatrix()
	cols := make([]series.Series, d)
	col := make([]float64, n)
	for j := range cols {
		for i := range col {
			col[i] = raw.Data[i*raw.Stride+j]
		}
		cols[j] = series.New(col, series.Float, names[j])
	}
	return dataframe.New(cols...), nil
}

func checkUnique(names []string) error {
	seen := make(map[string]int, len(names))
	for j, n := range names {
		if n == "" {
			return problem(n, "", "(column %d of %d) has an empty name", j+1, len(names))
		}
		if k, ok := seen[n]; ok {
			return problem(n, "", "is named twice (columns %d and %d)", k+1, j+1)
		}
		seen[n] = j
	}
	return nil
}

// checkFinite reports NaN and infinite values in a column: missing (NaN)
// values are a *MissingError with their count and first row, an infinite
// value a *credlab.NotFiniteError with its row.
func checkFinite(name string, v []float64) error {
	nan, inf, first := 0, 0, -1
	for i, x := range v {
		switch {
		case math.IsNaN(x):
			nan++
		case math.IsInf(x, 0):
			inf++
		default:
			continue
		}
		if first < 0 {
			first = i
		}
	}
	switch {
	case nan > 0:
		return &MissingError{Columns: []string{fmt.Sprintf("%q (%d of %d rows)", name, nan, len(v))}, Rows: nan, First: first}
	case inf > 0:
		return &credlab.NotFiniteError{Name: fmt.Sprintf("column %q", name), Row: first, Col: -1, Value: v[first]}
	}
	return nil
}

// floatsFrame builds a frame from named float columns, in order.
func floatsFrame(names []string, cols [][]float64) dataframe.DataFrame {
	s := make([]series.Series, len(cols))
	for j, c := range cols {
		s[j] = series.New(c, series.Float, names[j])
	}
	return dataframe.New(s...)
}

// sortedLevels returns the distinct non-missing values of a string column.
func sortedLevels(v []string, na []bool) []string {
	set := map[string]bool{}
	for i, s := range v {
		if !na[i] {
			set[s] = true
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
