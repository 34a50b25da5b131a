package frames

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// WriteCSV writes df as CSV with a header line. Floats are written in the
// shortest form that reads back to the same float64 (gota's own WriteCSV
// keeps six decimals, so 1e-9 becomes 0.000000); missing values are NaN,
// which ReadCSV reads back as missing.
func WriteCSV(w io.Writer, df dataframe.DataFrame) error {
	if df.Err != nil {
		return fmt.Errorf("frames: writing CSV: %w", df.Err)
	}
	cw := csv.NewWriter(w)
	names := df.Names()
	if err := cw.Write(names); err != nil {
		return err
	}
	cols := make([]series.Series, len(names))
	for j, n := range names {
		cols[j] = df.Col(n)
	}
	rec := make([]string, len(names))
	for i := 0; i < df.Nrow(); i++ {
		for j, c := range cols {
			e := c.Elem(i)
			switch {
			case e.IsNA():
				rec[j] = "NaN"
			case c.Type() == series.Float:
				rec[j] = FormatFloat(e.Float())
			default:
				rec[j] = e.String()
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// FormatFloat returns v in the shortest decimal form that parses back to v,
// and "NaN" for NaN.
func FormatFloat(v float64) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
