package frames

import (
	"fmt"
	"math"
	"slices"
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
}

func (e *PoolRowsError) Error() string {
	if e.Missing {
		return fmt.Sprintf("frames: %s: no column %q, which the selector reads from the pool: they do not come from this pool", e.What, e.Column)
	}
	return fmt.Sprintf("frames: %s: row %d (pool row %d) has %s = %s where the pool has %s: the rows do not come from this pool in this order (a file from another pool, or the pool reordered or edited since the selection)",
		e.What, e.Row, e.PoolRow, e.Column, e.Value, e.PoolValue)
}

// CheckPoolRows checks that rows, whose row column (RowColumn) names rows
// of pool, hold the pool's values: every column of need is a column of
// rows, and row i of rows equals pool row row[i] in every column the two
// share but skip and Select's bookkeeping columns. Numbers compare equal
// within a relative 1e-9 (a file saved by a spreadsheet keeps 15 digits),
// missing values equal missing values, strings compare as written. what
// names rows in errors. Cost O(n d) for n rows of d shared columns.
func CheckPoolRows(pool, rows dataframe.DataFrame, what string, need []string, skip ...string) error {
	for _, c := range need {
		if FindColumn(rows, c, "") != nil {
			return &PoolRowsError{What: what, Column: c, Missing: true}
		}
	}
	if err := FindColumn(rows, RowColumn, what); err != nil {
		return err
	}
	at, err := Column(rows, RowColumn)
	if err != nil {
		return fmt.Errorf("frames: %s: %w", what, err)
	}
	n := pool.Nrow()
	for i, v := range at {
		if v != math.Trunc(v) || v < 0 || v >= float64(n) {
			return &credlab.ParamError{Name: what + " row", Value: v, Want: fmt.Sprintf("a row of the pool's %d, 0..%d (row %d of the %s)", n, n-1, i, what)}
		}
	}
	names := rows.Names()
	for _, c := range pool.Names() {
		if bookkeeping(c) || slices.Contains(skip, c) || !slices.Contains(names, c) {
			continue
		}
		ps, rs := pool.Col(c), rows.Col(c)
		numeric := isNumeric(ps.Type()) && isNumeric(rs.Type())
		for i, v := range at {
			pe, re := ps.Elem(int(v)), rs.Elem(i)
			if !sameCell(pe, re, numeric) {
				return &PoolRowsError{What: what, Column: c, Row: i, PoolRow: int(v), Value: cellString(re), PoolValue: cellString(pe)}
			}
		}
	}
	return nil
}

// sameCell reports whether two cells hold the same value (CheckPoolRows).
func sameCell(a, b series.Element, numeric bool) bool {
	if a.IsNA() || b.IsNA() {
		return a.IsNA() && b.IsNA()
	}
	if !numeric {
		return strings.TrimSpace(a.String()) == strings.TrimSpace(b.String())
	}
	x, y := a.Float(), b.Float()
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.IsNaN(x) && math.IsNaN(y)
	}
	return x == y || math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
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
