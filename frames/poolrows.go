package frames

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// PoolRowsError reports rows said to be rows of a pool (a Select result,
// through its row column) that do not hold the pool's values: a file from
// another pool, or a pool reordered or edited since the selection. Column
// names the column; Missing says the rows lack it, otherwise row Row of
// the rows (0-based, pool row PoolRow) holds Value where the pool holds
// PoolValue.
type PoolRowsError struct {
	What             string // the rows, such as "labeled rows"
	Column           string
	Missing          bool
	Row, PoolRow     int
	Value, PoolValue string
	// Foreign, when set, lists columns of the rows that the pool lacks,
	// while the rows hold none of the features (Column names one).
	Foreign []string
}

func (e *PoolRowsError) Error() string {
	if e.Foreign != nil {
		return fmt.Sprintf("frames: %s: none of the pool's feature columns (such as %q) but columns the pool lacks (%s): they come from another table",
			e.What, e.Column, quoteList(e.Foreign, 5))
	}
	if e.Missing {
		return fmt.Sprintf("frames: %s: no column %q of the pool, though they have its other columns: they do not come from this pool, or a column was renamed", e.What, e.Column)
	}
	return fmt.Sprintf("frames: %s: row %d (pool row %d) has %s = %s where the pool has %s: the rows do not come from this pool in this order (a file from another pool, or the pool reordered or edited since the selection)",
		e.What, e.Row, e.PoolRow, e.Column, e.Value, e.PoolValue)
}

// CheckPoolRows checks that rows, whose row column (RowColumn) names rows
// of pool, hold the pool's values in the columns cols (every column of
// pool but Select's bookkeeping ones when cols is nil): row i of rows must
// equal pool row row[i] in each of them that rows has, and rows must have
// all of cols or none (a file that keeps some of the features but lacks
// one had it renamed, or comes from another table). rows that hold none
// of cols but several columns the pool lacks, more than half as many as
// the pool has, come from another table: an error too, while a label and
// a note or two beside Select's columns are not. Cells compare as
// numbers when both read as numbers (within a relative 1e-12, as a file
// saved by a spreadsheet keeps 15 digits; exactly between integer
// columns), missing values (NaN, or a missing-value token such as "" or
// "NA") equal missing values, and other cells compare as trimmed text, so
// that a column read as numbers from one file and as strings from another
// ("02031" and 2031) still matches. what names rows in errors. Cost O(n d)
// for n rows of d compared columns.
func CheckPoolRows(pool, rows dataframe.DataFrame, what string, cols []string) error {
	if err := FindColumn(rows, RowColumn, what); err != nil {
		return err
	}
	at, err := Column(rows, RowColumn)
	if err != nil {
		return fmt.Errorf("frames: %s: %w", what, err)
	}
	n := pool.Nrow()
	idx := make([]int, len(at))
	for i, v := range at {
		if v != math.Trunc(v) || v < 0 || v >= float64(n) {
			return &credlab.ParamError{Name: what + " row", Value: v, Want: fmt.Sprintf("a row of the pool's %d, 0..%d (row %d of the %s)", n, n-1, i, what)}
		}
		idx[i] = int(v)
	}
	if cols == nil {
		for _, c := range pool.Names() {
			if !bookkeeping(c) {
				cols = append(cols, c)
			}
		}
	}
	names := rows.Names()
	var shared []string
	for _, c := range cols {
		if slices.Contains(names, c) {
			shared = append(shared, c)
		}
	}
	if len(shared) == 0 && len(cols) > 0 {
		if foreign := foreignColumns(pool, names); foreign != nil {
			return &PoolRowsError{What: what, Column: cols[0], Foreign: foreign}
		}
	}
	if len(shared) == 0 || len(at) == 0 {
		return nil // nothing to compare: the features come from the pool by row
	}
	for _, c := range cols {
		if !slices.Contains(names, c) {
			return &PoolRowsError{What: what, Column: c, Missing: true}
		}
	}
	sub := pool.Select(shared).Subset(idx) // the pool's rows, once
	if sub.Err != nil {
		return fmt.Errorf("frames: %s: taking the pool's rows: %w", what, sub.Err)
	}
	for _, c := range shared {
		ps, rs := sub.Col(c), rows.Col(c)
		ints := ps.Type() == series.Int && rs.Type() == series.Int
		for i := range idx {
			pe, re := ps.Elem(i), rs.Elem(i)
			if !sameCell(pe, re, ints) {
				return &PoolRowsError{What: what, Column: c, Row: i, PoolRow: idx[i], Value: cellString(re), PoolValue: cellString(pe)}
			}
		}
	}
	return nil
}

// foreignColumns returns the columns of rows (names, which hold none of
// the pool's features) that carry a table of their own: the columns the
// pool lacks besides Select's, when there are at least minForeign of them
// and more than half as many as the pool has columns. A label, a note or
// two beside the bookkeeping columns are not.
func foreignColumns(pool dataframe.DataFrame, names []string) []string {
	var foreign []string
	for _, c := range names {
		if !slices.Contains(pool.Names(), c) && !bookkeeping(c) && !beamBookkeeping(names, c) {
			foreign = append(foreign, c)
		}
	}
	if len(foreign) < minForeign || 2*len(foreign) <= pool.Ncol() {
		return nil
	}
	return foreign
}

// minForeign is the least number of columns of their own that make rows a
// table of their own (foreignColumns).
const minForeign = 3

// quoteList quotes the first k names, and says how many there are in all
// when there are more.
func quoteList(names []string, k int) string {
	q := make([]string, 0, k)
	for _, n := range names[:min(k, len(names))] {
		q = append(q, strconv.Quote(n))
	}
	if len(names) > k {
		return fmt.Sprintf("%s, ... (%d in all)", strings.Join(q, ", "), len(names))
	}
	return strings.Join(q, ", ")
}

// sameCell reports whether two cells hold the same value (CheckPoolRows);
// ints: both columns hold integers, compared exactly.
func sameCell(a, b series.Element, ints bool) bool {
	x, xs, xna := cellValue(a)
	y, ys, yna := cellValue(b)
	switch {
	case xna || yna:
		return xna && yna
	case xs != "" || ys != "":
		return xs == ys
	case ints:
		return x == y
	}
	return x == y || math.Abs(x-y) <= 1e-12*math.Max(math.Abs(x), math.Abs(y))
}

// cellValue reads a cell as a number (text "" then) or, when it does not
// read as one, as trimmed text; na reports a missing value.
func cellValue(e series.Element) (v float64, text string, na bool) {
	if e.IsNA() {
		return 0, "", true
	}
	if e.Type() != series.String {
		v = e.Float()
		return v, "", math.IsNaN(v)
	}
	t := strings.TrimSpace(e.String())
	if missingTokens[t] {
		return 0, "", true
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) {
		return f, "", math.IsNaN(f)
	}
	return 0, t, false
}

// cellString formats a cell for an error message.
func cellString(e series.Element) string {
	if e.IsNA() {
		return "a missing value"
	}
	if e.Type() == series.Float {
		return FormatFloat(e.Float())
	}
	return fmt.Sprintf("%q", e.String())
}
