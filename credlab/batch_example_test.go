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

// Rows 0, 1 and 7 of a pool of ten were labeled. Row 0 stands for itself,
// row 1 for rows 1 to 4 (4 is as near to 7, and a tie goes to the lower
// index), row 7 for rows 5 to 9: the weights are 3 (c_i + 1) / 13.
func ExamplePoolWeights() {
	pool := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	labeled := mat.NewDense(3, 1, []float64{0, 1, 7})
	w, err := credlab.PoolWeights(context.Background(), pool, labeled, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f\n", w)
	// Output: [0.462 1.154 1.385]
}
