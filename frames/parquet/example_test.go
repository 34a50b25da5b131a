package parquet_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/frames/parquet"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Write a frame as Parquet and read it back, directly and through
// frames.LoadData (importing this package registers the format).
func Example() {
	df := dataframe.New(
		series.New([]float64{1.5, math.NaN(), -2}, series.Float, "x"),
		series.New([]int{3, 4, 5}, series.Int, "n"),
		series.New([]string{"a", "b", "c"}, series.String, "s"),
	)
	var buf bytes.Buffer
	if err := parquet.Write(&buf, df); err != nil {
		fmt.Println(err)
		return
	}
	back, err := parquet.Read(bytes.NewReader(buf.Bytes()), "mem.parquet")
	fmt.Println(back.Col("x").Float(), back.Types(), err)

	dir, err := os.MkdirTemp("", "parquet-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "pool.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	loaded, err := frames.LoadData(path, frames.LoadOptions{})
	fmt.Println(loaded.Nrow(), loaded.Names(), err)
	// Output:
	// [1.5 NaN -2] [float int string] <nil>
	// 3 [x n s] <nil>
}
