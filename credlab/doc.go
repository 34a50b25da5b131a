// Package credlab implements kernel least-squares regression on gonum
// matrices: exact solvers (KOLS, KRLS, Landweber early stopping), Nyström
// subsampling (NKRLS, NYTRO) and hold-out model selection over their
// regularization paths.
//
// Inputs are an n x d *mat.Dense of points (one per row) and a []float64 of
// n targets. No function modifies its arguments. Every estimator returns a
// *Fit holding a *Model (f(x) = sum_i Coef_i k(x, Centers_i)), the chosen
// regularization parameter, the validation path and the time spent.
//
// Configuration structs are usable at their zero value; each field documents
// its default. Errors name the offending input: NaN or Inf with its row and
// column, shape mismatches, non-positive parameters, diverging step sizes and
// kernel matrices too large for memory (see MemoryLimit).
//
// Linear algebra runs through gonum's blas64, in pure Go by default. Building
// with -tags openblas (cgo and libopenblas-dev) routes BLAS calls to OpenBLAS.
package credlab
