package distreg

import (
	"fmt"
	"math"

	"github.com/credlab/credlab/credlab"

	"gonum.org/v1/gonum/mat"
)

// Bags is the input of distribution regression: n bags, bag j holding
// N_j points x_{j,1..N_j} in R^d (one per row of X[j]) drawn from an
// unobserved distribution, and Y[j] its real label. Bags may differ in size
// but share the dimension d. Y is nil for bags whose labels are to be
// predicted.
//
// No function modifies a Bags value or the matrices it holds.
type Bags struct {
	X []*mat.Dense
	Y []float64
}

// NewBags checks x and y (see Bags.Validate) and returns them as Bags,
// without copying. y may be nil.
func NewBags(x []*mat.Dense, y []float64) (*Bags, error) {
	b := &Bags{X: x, Y: y}
	if err := b.Validate(); err != nil {
		return nil, err
	}
	return b, nil
}

// Len returns the number of bags n.
func (b *Bags) Len() int {
	if b == nil {
		return 0
	}
	return len(b.X)
}

// Dim returns the dimension d of the points (the columns of the first
// bag), or 0 without bags.
func (b *Bags) Dim() int {
	if b.Len() == 0 || b.X[0] == nil || b.X[0].IsEmpty() {
		return 0
	}
	return b.X[0].RawMatrix().Cols
}

// Points returns the total number of points, sum_j N_j.
func (b *Bags) Points() int {
	s := 0
	for j := 0; j < b.Len(); j++ {
		if b.X[j] != nil && !b.X[j].IsEmpty() {
			s += b.X[j].RawMatrix().Rows
		}
	}
	return s
}

// Validate returns an error naming the first problem: no bags or an empty
// bag (credlab.ErrEmpty), bags of different dimensions (credlab.ErrShape),
// a NaN or Inf point (a *credlab.NotFiniteError named "Bags.X[j]" for bag
// j, with its row and column), or, when Y is not nil, a label count other
// than the number of bags (credlab.ErrShape) or a non-finite label (a
// *credlab.NotFiniteError named "Bags.Y").
// It runs in O(sum_j N_j d) time.
func (b *Bags) Validate() error { return checkBags(b, false) }

// checkBags is Validate that also requires labels when labels is set.
func checkBags(b *Bags, labels bool) error {
	if b.Len() == 0 {
		return emptyf("no bags")
	}
	d := 0
	for j, x := range b.X {
		if x == nil || x.IsEmpty() {
			return emptyf("bag %d has no points: every bag needs at least one", j)
		}
		raw := x.RawMatrix()
		if raw.Rows == 0 || raw.Cols == 0 {
			return emptyf("bag %d has %d points x %d columns", j, raw.Rows, raw.Cols)
		}
		if j == 0 {
			d = raw.Cols
		} else if raw.Cols != d {
			return shapef("bag %d has points of dimension %d but bag 0 has dimension %d", j, raw.Cols, d)
		}
		for i := 0; i < raw.Rows; i++ {
			for c, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return &credlab.NotFiniteError{Name: fmt.Sprintf("Bags.X[%d]", j), Row: i, Col: c, Value: v}
				}
			}
		}
	}
	if b.Y == nil {
		if labels {
			return shapef("%d bags but no labels (Bags.Y is nil)", len(b.X))
		}
		return nil
	}
	if len(b.Y) != len(b.X) {
		return shapef("%d bags but %d labels", len(b.X), len(b.Y))
	}
	for j, v := range b.Y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &credlab.NotFiniteError{Name: "Bags.Y", Row: j, Col: -1, Value: v}
		}
	}
	return nil
}

// subset returns the bags idx, sharing the matrices and copying the labels.
func (b *Bags) subset(idx []int) *Bags {
	out := &Bags{X: make([]*mat.Dense, len(idx))}
	for i, j := range idx {
		out.X[i] = b.X[j]
	}
	if b.Y != nil {
		out.Y = make([]float64, len(idx))
		for i, j := range idx {
			out.Y[i] = b.Y[j]
		}
	}
	return out
}

// clone returns a deep copy of the points (labels dropped), for models
// that must not alias the caller's matrices.
func (b *Bags) clone() *Bags {
	out := &Bags{X: make([]*mat.Dense, len(b.X))}
	for j, x := range b.X {
		out.X[j] = mat.DenseCopyOf(x)
	}
	return out
}
