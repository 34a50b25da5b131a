package baselines

import (
	"fmt"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/memlimit"

	"gonum.org/v1/gonum/mat"
)

// checkXY checks training data as credlab's estimators do:
// credlab.CheckData, with a nil y a shape mismatch.
func checkXY(x *mat.Dense, y []float64) error {
	if y == nil {
		y = []float64{}
	}
	return credlab.CheckData(x, y)
}

// checkAlloc returns a *credlab.TooLargeError if a rows x cols float64
// matrix named what would exceed credlab's memory limit.
func checkAlloc(what string, rows, cols int) error {
	return memlimit.Check(what, rows, cols, fmt.Sprintf("use Nyström (NKRLS or NYTRO) with m << %d centers, or raise the memory limit", rows))
}

// checkDims returns an error wrapping credlab.ErrShape unless a matrix
// named what has want columns.
func checkDims(what string, got, want int) error {
	if got != want {
		return fmt.Errorf("%w: %s has %d columns, want %d", credlab.ErrShape, what, got, want)
	}
	return nil
}
