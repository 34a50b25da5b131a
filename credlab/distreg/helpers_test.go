package distreg

import (
	"math"
	"runtime"

	"github.com/credlab/credlab/credlab"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// maxRel returns max_i |a_i - b_i| / max_i |b_i|.
func maxRel(a, b []float64) float64 {
	return floats.Distance(a, b, math.Inf(1)) / math.Max(floats.Norm(b, math.Inf(1)), 1e-300)
}

// matVec returns a v.
func matVec(a *mat.Dense, v []float64) []float64 {
	var out mat.VecDense
	out.MulVec(a, mat.NewVecDense(len(v), v))
	return out.RawVector().Data
}

// evalOnly hides the type of its kernel, so that its values come from
// Eval: the path of any kernel defined outside credlab.
type evalOnly struct{ credlab.Kernel }

func withProcs(p int, f func()) {
	old := runtime.GOMAXPROCS(p)
	defer runtime.GOMAXPROCS(old)
	f()
}
