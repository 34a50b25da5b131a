package credlab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Holdout configures hold-out model selection: a seeded random share of
// the rows is set aside to choose the regularization parameter, and the
// model is trained on the rest, as in the NYTRO paper's protocol.
type Holdout struct {
	// Fraction of rows held out for validation; default 0.2.
	Fraction float64
	// Seed of the random split; the same seed gives the same split.
	Seed uint64
	// None trains on all rows with no validation: iterative methods then run
	// exactly MaxIter steps and Tikhonov methods need a single lambda.
	None bool
}

func (h Holdout) fraction() float64 {
	if h.Fraction == 0 {
		return 0.2
	}
	return h.Fraction
}

// Split returns the training and validation row indices of n rows: all
// rows for training with None; otherwise a seeded random permutation, its
// first round(Fraction n) indices (at least 1, at most n - 1) for
// validation. The same Holdout and n give the same split. An invalid
// Fraction is a *ParamError, n < 2 an error wrapping ErrEmpty. O(n).
func (h Holdout) Split(n int) (train, val []int, err error) {
	if h.None {
		train = make([]int, n)
		for i := range train {
			train[i] = i
		}
		return train, nil, nil
	}
	f := h.fraction()
	if !(f > 0 && f < 1) {
		return nil, nil, &ParamError{Name: "Holdout.Fraction", Value: f, Want: "a hold-out fraction in (0, 1) (or zero for 0.2)"}
	}
	if n < 2 {
		return nil, nil, emptyf("hold-out validation needs at least 2 rows, got %d (set Holdout.None to fit on all rows)", n)
	}
	nv := min(max(int(math.Round(f*float64(n))), 1), n-1)
	perm := rand.New(rand.NewPCG(h.Seed, 0x6372656462)).Perm(n)
	return perm[nv:], perm[:nv], nil
}

// gatherRows returns the rows idx of x as a new matrix.
func gatherRows(x *mat.Dense, idx []int) *mat.Dense {
	raw := x.RawMatrix()
	out := mat.NewDense(len(idx), raw.Cols, nil)
	o := out.RawMatrix()
	for i, r := range idx {
		copy(o.Data[i*o.Stride:i*o.Stride+o.Cols], raw.Data[r*raw.Stride:r*raw.Stride+raw.Cols])
	}
	return out
}

// viewRows is gatherRows for read-only use: x itself when idx lists every
// row in order (a fit without hold-out), so that no copy of the data is
// made; a copy otherwise.
func viewRows(x *mat.Dense, idx []int) *mat.Dense {
	if n, _ := x.Dims(); len(idx) == n {
		for i, r := range idx {
			if r != i {
				return gatherRows(x, idx)
			}
		}
		return x
	}
	return gatherRows(x, idx)
}

func gather(y []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for i, r := range idx {
		out[i] = y[r]
	}
	return out
}

// LogGrid returns n values log-spaced from lo to hi inclusive, in
// increasing order. The NYTRO paper's lambda grid is LogGrid(1e-15, 1, 100).
func LogGrid(lo, hi float64, n int) []float64 {
	if n <= 1 {
		return []float64{lo}[:max(n, 0)] // none for n <= 0
	}
	out := make([]float64, n)
	a, b := math.Log10(lo), math.Log10(hi)
	for i := range out {
		out[i] = math.Pow(10, a+(b-a)*float64(i)/float64(n-1))
	}
	out[0], out[n-1] = lo, hi
	return out
}

// LambdaGrid resolves the lambda settings of a Tikhonov method (method
// names it in errors): a positive lambda is the one-value grid {lambda},
// fitted on all rows (Holdout{None: true}); zero selects from lambdas
// (nil: LogGrid(1e-15, 1, 100)) on the hold-out split h, which must not be
// None. A negative or non-finite lambda, or an empty or non-positive grid,
// is a *ParamError. O(len(lambdas)).
func LambdaGrid(method string, lambda float64, lambdas []float64, h Holdout) (Holdout, []float64, error) {
	if lambda < 0 || math.IsNaN(lambda) || math.IsInf(lambda, 0) {
		return h, nil, checkPositive("lambda", lambda)
	}
	if lambda > 0 {
		return Holdout{None: true}, []float64{lambda}, nil
	}
	if h.None {
		return h, nil, &ParamError{Name: "lambda", Value: lambda, Want: fmt.Sprintf("a positive fixed Lambda: %s without hold-out (Holdout.None) cannot choose one", method)}
	}
	if lambdas == nil {
		lambdas = LogGrid(1e-15, 1, 100)
	}
	return h, lambdas, checkLambdas(lambdas)
}

// gridRange describes a lambda grid by its ends, for an error.
func gridRange(ls []float64) string {
	if len(ls) == 0 {
		return "[]"
	}
	return fmt.Sprintf("[%g ... %g] (%d values)", slices.Min(ls), slices.Max(ls), len(ls))
}

func checkLambdas(ls []float64) error {
	if len(ls) == 0 {
		return &ParamError{Name: "Lambdas", Value: ls, Want: "a lambda grid of at least one value (nil for the default grid)"}
	}
	for i, l := range ls {
		if err := checkPositive(fmt.Sprintf("lambda[%d]", i), l); err != nil {
			return err
		}
	}
	return nil
}

// bestIndex returns the index of the smallest finite value, or -1.
func bestIndex(v []float64) int {
	b := -1
	for i, x := range v {
		if !math.IsNaN(x) && !math.IsInf(x, 0) && (b < 0 || x < v[b]) {
			b = i
		}
	}
	return b
}
