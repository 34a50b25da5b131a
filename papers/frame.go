package papers

import (
	"fmt"

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

// floatsFrame builds a frame from named float columns, in order.
func floatsFrame(names []string, cols [][]float64) dataframe.DataFrame {
	s := make([]series.Series, len(cols))
	for j, c := range cols {
		s[j] = series.New(c, series.Float, names[j])
	}
	return dataframe.New(s...)
}
