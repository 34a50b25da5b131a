package frames

import (
	"errors"
	"fmt"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// idFrame has n rows: a string column "id" with levels distinct values, a
// numeric feature "x" and a target "y".
func idFrame(n, levels int) dataframe.DataFrame {
	id := make([]string, n)
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range id {
		id[i] = fmt.Sprintf("id%05d", i%levels)
		x[i] = float64(i%7) / 7
		y[i] = x[i] * 2
	}
	return dataframe.New(series.New(id, series.String, "id"), series.New(x, series.Float, "x"), series.New(y, series.Float, "y"))
}

// TestDesignMemoryLimit covers the one-hot encoding of an
// identifier: the design matrix (its columns and then the matrix, 16 bytes
// a value) is checked against the memory limit before any column is
// built, and refused with a *credlab.TooLargeError of rows x design
// columns; so are ToMatrix and FromMatrix over the limit.
func TestDesignMemoryLimit(t *testing.T) {
	x := mat.NewDense(1000, 3, nil)
	small, err := Fit(idFrame(200, 50), Spec{Target: "y", Method: "linear", OneHot: true})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		limit      int64
		run        func() error
		rows, cols int
	}{
		{"one-hot of 20000 identifiers", 64 << 20, func() error {
			_, err := Fit(idFrame(20000, 20000), Spec{Target: "y", Method: "linear", OneHot: true})
			return err
		}, 20000, 20001},
		{"one-hot of 500 levels", 64 << 10, func() error {
			_, err := Fit(idFrame(1000, 500), Spec{Target: "y", Method: "linear", OneHot: true, DropNA: true})
			return err
		}, 1000, 501},
		{"predicting with the model's levels", 64 << 10, func() error {
			_, err := small.PredictValues(idFrame(1000, 50))
			return err
		}, 1000, 51},
		{"ToMatrix", 16 << 10, func() error {
			_, err := ToMatrix(idFrame(1000, 3), "x", "y")
			return err
		}, 1000, 2},
		{"FromMatrix", 16 << 10, func() error {
			_, err := FromMatrix(x)
			return err
		}, 1000, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func(v int64) { credlab.MemoryLimit = v }(credlab.MemoryLimit)
			credlab.MemoryLimit = c.limit
			err := c.run()
			var tl *credlab.TooLargeError
			if !errors.As(err, &tl) {
				t.Fatalf("got %v (%T), want a *credlab.TooLargeError", err, err)
			}
			if tl.Rows != c.rows || tl.Cols != c.cols || tl.Limit != c.limit || !(tl.Bytes > float64(c.limit)) {
				t.Errorf("got %+v, want %d x %d over %d", *tl, c.rows, c.cols, c.limit)
			}
		})
	}
	// Within the limit the one-hot design is built, one column per level.
	defer func(v int64) { credlab.MemoryLimit = v }(credlab.MemoryLimit)
	credlab.MemoryLimit = 1 << 20
	m, err := Fit(idFrame(200, 50), Spec{Target: "y", Method: "linear", OneHot: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Columns) != 51 {
		t.Errorf("%d design columns, want 51", len(m.Columns))
	}
	if _, err := m.PredictValues(idFrame(100, 50)); err != nil {
		t.Error(err)
	}
}
