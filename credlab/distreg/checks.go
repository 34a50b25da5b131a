package distreg

import (
	"fmt"
	"math"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/internal/memlimit"
)

// shapef returns an error wrapping credlab.ErrShape: "credlab: shape
// mismatch: " and the formatted detail.
func shapef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", credlab.ErrShape, fmt.Sprintf(format, args...))
}

// emptyf returns an error wrapping credlab.ErrEmpty: "credlab: empty data:
// " and the formatted detail.
func emptyf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", credlab.ErrEmpty, fmt.Sprintf(format, args...))
}

// checkPositive returns a *credlab.ParamError named name unless v is
// positive and finite.
func checkPositive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 1) {
		return &credlab.ParamError{Name: name, Value: v, Want: "a positive finite number"}
	}
	return nil
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
		return shapef("%s has %d columns, want %d", what, got, want)
	}
	return nil
}
