package credlab_test

import (
	"context"
	"fmt"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// Rows 0 and 1 are labeled; LCMD on the raw column takes the next rows
// in the largest, widest cluster around them.
func ExampleBatchSelector() {
	pool := mat.NewDense(8, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7})
	sel, err := credlab.BatchSelector{
		Method:   credlab.MethodLCMD,
		Features: credlab.RawFeatures{},
		Previous: &credlab.Selection{Index: []int{0, 1}},
	}.Select(context.Background(), pool, 2, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sel.Index, sel.Batch)
	// Output: [0 1 7 4] [0 0 1 1]
}
