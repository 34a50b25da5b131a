package frames

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

func TestWriteCSVRoundTrip(t *testing.T) {
	vals := []float64{1e-9, 0.1 + 0.2, -123456.789012345, math.NaN(), 5e300}
	df := dataframe.New(
		series.New(vals, series.Float, "x"),
		series.New([]string{"a", "b,c", "d\"e", "f", "g"}, series.String, "label"),
		series.New([]int{1, 2, 3, 4, 5}, series.Int, "k"),
	)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, df); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(strings.NewReader(buf.String()), "back.csv")
	if err != nil {
		t.Fatal(err)
	}
	x, err := Column(back, "x")
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		if math.IsNaN(v) != math.IsNaN(x[i]) || !math.IsNaN(v) && v != x[i] {
			t.Errorf("row %d: wrote %v, read back %v", i, v, x[i])
		}
	}
	if got, want := back.Col("label").Records(), df.Col("label").Records(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("labels read back as %q, want %q", got, want)
	}
	if bad := (dataframe.DataFrame{Err: os.ErrInvalid}); WriteCSV(&buf, bad) == nil {
		t.Error("a frame carrying an error was written")
	}
}

func ExampleWriteCSV() {
	df := dataframe.New(series.New([]float64{1e-9, 0.25, math.NaN()}, series.Float, "lambda"))
	WriteCSV(os.Stdout, df)
	// Output:
	// lambda
	// 1e-09
	// 0.25
	// NaN
}
