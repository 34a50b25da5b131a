package papers

import (
	"fmt"
	"math"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// checkFrame rejects a frame that carries an error or has no cells.
func checkFrame(df dataframe.DataFrame, what string) error {
	if df.Err != nil {
		return fmt.Errorf("papers: the %s frame carries an error: %w", what, df.Err)
	}
	if n, d := df.Dims(); n == 0 || d == 0 {
		return fmt.Errorf("papers: empty %s frame: %d rows x %d columns", what, n, d)
	}
	return nil
}

// hasColumn returns an error naming the missing column.
func hasColumn(df dataframe.DataFrame, name string) error {
	for _, n := range df.Names() {
		if n == name {
			return nil
		}
	}
	return fmt.Errorf("papers: no column named %q; the columns are %q", name, df.Names())
}

// checkFinite rejects NaN and infinite values, naming the column and the
// first bad row.
func checkFinite(name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("papers: column %q has the value %v in row %d", name, x, i)
		}
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
