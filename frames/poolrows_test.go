package frames

import (
	"math"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// TestCheckPoolRows: rows hold their pool rows' values, up to a
// spreadsheet's 15 digits and whatever types the two files were read
// with; another value, one of the columns missing, or a row outside the
// pool is an error naming it.
func TestCheckPoolRows(t *testing.T) {
	pool := dataframe.New(
		series.New([]float64{0.1, 2.5, math.NaN(), 1e6 / 3}, series.Float, "a"),
		series.New([]string{"x", "y", "z", "w"}, series.String, "city"),
		series.New([]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}, series.Float, "y"),
		series.New([]string{"02031", "", "7", ""}, series.String, "zip"),
		series.New([]int{5000000001, 2, 3, 4}, series.Int, "id"))
	rows := func(at []int, a []float64, city []string) dataframe.DataFrame {
		return dataframe.New(series.New(at, series.Int, RowColumn),
			series.New(a, series.Float, "a"), series.New(city, series.String, "city"),
			series.New(make([]float64, len(at)), series.Float, "y"))
	}
	cols := []string{"a", "city"}
	// zip read as numbers from a subset of the rows, and empty as missing.
	zipAsRead := rows([]int{0, 1, 3}, []float64{0.1, 2.5, 1e6 / 3}, []string{"x", "y", "w"}).
		Mutate(series.New([]float64{2031, math.NaN(), math.NaN()}, series.Float, "zip")).
		Mutate(series.New([]int{5000000001, 2, 4}, series.Int, "id"))
	idOff := zipAsRead.Mutate(series.New([]int{5000000002, 2, 4}, series.Int, "id"))
	other := func(names ...string) dataframe.DataFrame { // pool rows 0 and 1 with columns the pool lacks
		df := dataframe.New(series.New([]int{0, 1}, series.Int, RowColumn), series.New([]float64{0.5, 0.5}, series.Float, WeightColumn))
		for _, n := range names {
			df = df.Mutate(series.New([]float64{1, 2}, series.Float, n))
		}
		return df
	}
	for _, c := range []struct {
		name      string
		rows      dataframe.DataFrame
		cols      []string
		wantCol   string // "" for no error
		wantRow   int
		wantMiss  bool
		wantParam bool
		// wantForeign: the rows hold none of cols but columns the pool lacks
		wantForeign bool
	}{
		{name: "same rows", rows: rows([]int{3, 0, 2}, []float64{333333.333333333, 0.1, math.NaN()}, []string{"w", "x", "z"}), cols: cols},
		{name: "same rows, other types", rows: zipAsRead, cols: []string{"a", "city", "zip", "id"}},
		{name: "an integer off by one", rows: idOff, cols: []string{"a", "city", "zip", "id"}, wantCol: "id"},
		{name: "none of the columns", rows: rows([]int{1}, []float64{0}, []string{"q"}).Select([]string{RowColumn, "y"}), cols: cols},
		{name: "another value", rows: rows([]int{1, 3}, []float64{2.5, 333333.3}, []string{"y", "w"}), cols: cols, wantCol: "a", wantRow: 1},
		{name: "a value where the pool misses one", rows: rows([]int{2}, []float64{0}, []string{"z"}), cols: cols, wantCol: "a"},
		{name: "another string", rows: rows([]int{0, 1}, []float64{0.1, 2.5}, []string{"x", "x"}), cols: cols, wantCol: "city", wantRow: 1},
		{name: "one of the columns missing", rows: rows([]int{0}, []float64{0.1}, []string{"x"}).Drop("city"), cols: cols, wantCol: "city", wantMiss: true},
		{name: "a row outside the pool", rows: rows([]int{4}, []float64{0.1}, []string{"x"}), cols: cols, wantParam: true},
		{name: "none of the columns, a label and notes the pool lacks", rows: other("label", "notes"), cols: cols},
		{name: "none of the columns, Select's and the Beam module's", rows: other(ProbColumn, BatchColumn, CountColumn, AuditColumn, PoolWeightColumn, "file", "line", "draw", "label"), cols: cols},
		{name: "another table's columns and a pool column (the label's name)", rows: other("y", "p", "q", "r"), cols: cols, wantCol: "a", wantForeign: true},
		{name: "a pool column, a label and notes", rows: other("id", "label", "notes"), cols: cols},
		{name: "another table's columns", rows: other("p", "q", "r"), cols: cols, wantCol: "a", wantForeign: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckPoolRows(pool, c.rows, "labeled rows", c.cols)
			switch {
			case c.wantParam:
				wantParam("labeled rows row")(t, err)
			case c.wantCol == "":
				if err != nil {
					t.Fatal(err)
				}
			default:
				e, ok := asError[*PoolRowsError](t, err)
				if ok && (e.Column != c.wantCol || e.Missing != c.wantMiss || (e.Foreign != nil) != c.wantForeign || !c.wantMiss && !c.wantForeign && e.Row != c.wantRow) {
					t.Errorf("error for column %q, row %d, missing %v, foreign %q; want %q, %d, %v, %v (%v)", e.Column, e.Row, e.Missing, e.Foreign, c.wantCol, c.wantRow, c.wantMiss, c.wantForeign, err)
				}
			}
		})
	}
}

// TestSelectLabeledOtherPool: labeled rows selected from one pool do not
// continue on the same rows in another order, nor without a feature.
func TestSelectLabeledOtherPool(t *testing.T) {
	pool := regFrame(t, 60, 4)
	first, err := Select(pool, 10, SelectSpec{Method: "uniform", Target: "y"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Select(pool, 5, SelectSpec{Labeled: &first, Target: "y", Method: "uniform"}); err != nil {
		t.Fatalf("the same pool: %v", err)
	}
	order := make([]int, 60)
	for i := range order {
		order[i] = 59 - i
	}
	reversed := pool.Subset(order)
	_, err = Select(reversed, 5, SelectSpec{Labeled: &first, Target: "y", Method: "uniform"})
	if e, ok := asError[*PoolRowsError](t, err); ok && (e.Missing || e.Column != "a") {
		t.Errorf("reversed pool: %v", err)
	}
	// A column left out of the features, filled in since (the label), is
	// not compared.
	withLabel := pool.Mutate(series.New(make([]string, 60), series.String, "label"))
	chosen, err := Select(withLabel, 10, SelectSpec{Method: "uniform", Exclude: []string{"y", "label"}})
	if err != nil {
		t.Fatal(err)
	}
	labeled := chosen.Mutate(series.New(col(t, chosen, "a"), series.Float, "label"))
	if _, err := Select(withLabel, 5, SelectSpec{Labeled: &labeled, Method: "uniform", Exclude: []string{"y", "label"}}); err != nil {
		t.Errorf("a label filled in an excluded column: %v", err)
	}
	noB := first.Drop("b")
	_, err = Select(pool, 5, SelectSpec{Labeled: &noB, Target: "y", Method: "uniform"})
	if e, ok := asError[*PoolRowsError](t, err); ok && (!e.Missing || e.Column != "b") {
		t.Errorf("labeled rows without b: %v", err)
	}
}
