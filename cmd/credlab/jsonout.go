package main

import (
	"encoding/json"
	"io"
	"math"

	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// writeJSON writes v as indented JSON and a newline: the summary of -json.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jnum is v for JSON: nil (null) when it is NaN or infinite.
func jnum(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// jnums is jnum of each value.
func jnums(v []float64) []*float64 {
	out := make([]*float64, len(v))
	for i, x := range v {
		out[i] = jnum(x)
	}
	return out
}

// frameRecords returns the rows of df as JSON objects, missing and
// non-finite values as null.
func frameRecords(df dataframe.DataFrame) []map[string]any {
	names := df.Names()
	out := make([]map[string]any, df.Nrow())
	for i := range out {
		out[i] = make(map[string]any, len(names))
		for _, n := range names {
			c := df.Col(n)
			e := c.Elem(i)
			switch {
			case e.IsNA():
				out[i][n] = nil
			case c.Type() == series.Float:
				out[i][n] = jnum(e.Float())
			case c.Type() == series.Int:
				v, _ := e.Int()
				out[i][n] = v
			case c.Type() == series.Bool:
				v, _ := e.Bool()
				out[i][n] = v
			default:
				out[i][n] = e.String()
			}
		}
	}
	return out
}

// scoresJSON is a frames.Scores for JSON.
type scoresJSON struct {
	Rows int      `json:"rows"`
	RMSE *float64 `json:"rmse"`
	MAE  *float64 `json:"mae"`
	R2   *float64 `json:"r2"`
}

func jscores(s frames.Scores) *scoresJSON {
	return &scoresJSON{Rows: s.Rows, RMSE: jnum(s.RMSE), MAE: jnum(s.MAE), R2: jnum(s.R2)}
}
