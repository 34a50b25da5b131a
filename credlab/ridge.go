package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// ridgeProblem is the family of systems (G + mu I) z = b, mu = lambda n,
// shared by KRLS (G = K, b = y) and NKRLS (G = A^T A, b = A^T y).
type ridgeProblem struct {
	g  *mat.Dense // p x p symmetric positive semi-definite; not modified
	b  []float64
	w  *mat.Dense // nv x p: validation predictions are w z; nil without validation
	yv []float64
	wv []float64 // validation weights; nil means 1
	// vs, in place of w, holds the validation rows' Gram statistics, for
	// problems in a feature space (G = A^T W A): the validation error is
	// then vs.rmse(z), O(p^2) per lambda whatever nv.
	vs *GramStats
	// own lets the tridiagonal reduction overwrite g (a p x p matrix of
	// stride p) instead of copying it.
	own bool
	n   int // training rows
	// sse returns the training sum of squared errors from the
	// basis-invariant quantities ||z||^2 and z.b.
	sse func(zz, zb, mu float64) float64
}

// path solves for every lambda in grid, records training and validation
// RMSE in fit.Path, and returns the z of the smallest validation RMSE.
// Grids of fewer than triBreakEven values factor G + mu I by Cholesky each
// time; larger grids share one tridiagonal reduction G = Q T Q^T
// (ridgePath), which overwrites w with w Q.
func (pr ridgeProblem) path(ctx context.Context, grid []float64, fit *Fit, progress func(int, int)) ([]float64, error) {
	p, _ := pr.g.Dims()
	var (
		solve func(mu float64, z []float64) bool
		toZ   func(zh []float64) []float64 // back to the original basis
		v     = pr.validator()
		b     = pr.b
	)
	if len(grid) < triBreakEven {
		work := mat.NewDense(p, p, nil)
		solve = func(mu float64, z []float64) bool {
			work.Copy(pr.g)
			s, ok := CholeskySolve(work, mu, pr.b)
			copy(z, s)
			return ok
		}
		toZ = func(z []float64) []float64 { return z }
	} else {
		t0 := time.Now()
		var rp *ridgePath
		if pr.own {
			rp = reduceRidge(pr.g.RawMatrix().Data, p, pr.b, pathEigenvalues)
		} else {
			rp = newRidgePath(pr.g, pr.b, false)
		}
		b = rp.qb
		fit.Timing.Solve += time.Since(t0)
		t0 = time.Now()
		v.rotate(rp)
		fit.Timing.Select += time.Since(t0)
		solve = rp.solve
		toZ = rp.toZ
	}
	z := make([]float64, p)
	var best []float64
	fit.ValRMSE = math.Inf(1)
	for i, l := range grid {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		mu := l * float64(pr.n)
		ok := solve(mu, z)
		fit.Timing.Solve += time.Since(t0)
		pt := PathPoint{Lambda: l, TrainRMSE: math.NaN(), ValRMSE: math.NaN()}
		if ok {
			t0 = time.Now()
			sse := pr.sse(vecmath.Dot(z, z), vecmath.Dot(z, b), mu)
			pt.TrainRMSE = math.Sqrt(math.Max(sse, 0) / float64(pr.n))
			pt.ValRMSE = v.rmse(z)
			if pt.ValRMSE < fit.ValRMSE || !v.ok() {
				fit.ValRMSE, fit.Lambda = pt.ValRMSE, l
				best = append(best[:0], z...)
			}
			fit.Timing.Select += time.Since(t0)
		}
		fit.Path = append(fit.Path, pt)
		if progress != nil {
			progress(i+1, len(grid))
		}
	}
	if best == nil && len(grid) == 1 {
		return nil, &SingularError{System: fit.Method, Setting: "lambda", Value: fmt.Sprint(grid[0])}
	}
	if best == nil {
		return nil, &SingularError{System: fit.Method, Setting: "lambda", Value: gridRange(grid)}
	}
	return toZ(best), nil
}

// validator computes the validation RMSE of a solution z of a ridgeProblem,
// from the validation block w (O(nv p)) or the statistics vs (O(p^2)).
type validator struct {
	w      *mat.Dense
	vs     *GramStats
	yv, wv []float64
	buf    []float64
}

func (pr ridgeProblem) validator() *validator {
	v := &validator{w: pr.w, vs: pr.vs, yv: pr.yv, wv: pr.wv}
	switch {
	case pr.w != nil:
		v.buf = make([]float64, len(pr.yv))
	case pr.vs != nil:
		v.buf = make([]float64, pr.vs.Dim)
	}
	return v
}

func (v *validator) ok() bool { return v.w != nil || v.vs != nil }

// rotate moves the validation data to the basis of rp's reduction: w Q, or
// Q^T H Q and Q^T B for the statistics (O(p^3), copies).
func (v *validator) rotate(rp *ridgePath) {
	if v.w != nil {
		rp.rightQ(v.w)
	}
	if v.vs != nil {
		v.vs = rp.rotate(v.vs)
	}
}

// rmse returns the validation RMSE of z, NaN without validation.
func (v *validator) rmse(z []float64) float64 {
	switch {
	case v.w != nil:
		blas64.Gemv(blas.NoTrans, 1, v.w.RawMatrix(), vec(z), 0, vec(v.buf))
		return wrmse(v.buf, v.yv, v.wv)
	case v.vs != nil:
		blas64.Symv(1, v.vs.sym(), vec(z), 0, vec(v.buf))
		return v.vs.rmse(z, v.buf)
	}
	return math.NaN()
}

// ridgePath is the regularization path of (G + mu I) z = b through one
// tridiagonal reduction G = Q T Q^T. Q is kept as Dsytrd's Householder
// reflectors and applied with Dormqr, never formed. With the eigenvalues
// ev of T (Dsterf), each mu costs O(p):
//
//	z^ = (T + mu I)^-1 Q^T b (tridiagonal solve), z = Q z^,
//	tr(G (G + mu I)^-1) = sum_k ev_k / (ev_k + mu).
type ridgePath struct {
	p          int
	refl       []float64 // p x p: reflectors below the subdiagonal
	tau        []float64
	d, e       []float64 // T
	ev         []float64 // eigenvalues of T (and G), ascending, clipped at 0
	qb         []float64 // Q^T b
	dl, dd, du []float64 // solve buffers
}

// newRidgePath reduces G (not modified) in O(4/3 p^3) time: half of it
// matrix-vector work (Dsymv), half rank-2k updates (Dsyr2k). The
// eigenvalues cost O(p^2) more; with vectors set, Q is also formed (O(4/3
// p^3)) and overwritten by the eigenvectors V of G (Dsteqr, O(p^3)), kept
// in refl, for leave-one-out.
func newRidgePath(g *mat.Dense, b []float64, vectors bool) *ridgePath {
	p, _ := g.Dims()
	a := make([]float64, p*p)
	gr := g.RawMatrix()
	for i := 0; i < p; i++ {
		copy(a[i*p:i*p+p], gr.Data[i*gr.Stride:i*gr.Stride+p])
	}
	extras := pathEigenvalues
	if vectors {
		extras = pathVectors
	}
	return reduceRidge(a, p, b, extras)
}

// pathExtras is what a reduction computes besides T and Q^T b.
type pathExtras int

const (
	pathEigenvalues pathExtras = iota // T's eigenvalues (Dsterf, O(p^2)): degrees of freedom, GCV
	pathVectors                       // and eigenvectors in place of Q (leave-one-out)
)

// reduceRidge is newRidgePath on the p x p matrix a (stride p), which it
// overwrites and keeps; extras says what it computes besides the solves.
func reduceRidge(a []float64, p int, b []float64, extras pathExtras) *ridgePath {
	rp := &ridgePath{p: p, refl: a[:p*p], tau: make([]float64, max(p-1, 0)),
		d: make([]float64, p), e: make([]float64, max(p-1, 0)),
		dl: make([]float64, max(p-1, 0)), dd: make([]float64, p), du: make([]float64, max(p-1, 0))}
	impl := gonum.Implementation{}
	work := []float64{0}
	impl.Dsytrd(blas.Lower, p, rp.refl, p, rp.d, rp.e, rp.tau, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	impl.Dsytrd(blas.Lower, p, rp.refl, p, rp.d, rp.e, rp.tau, work, len(work))
	rp.ev = append([]float64(nil), rp.d...)
	ee := append([]float64(nil), rp.e...)
	if extras == pathVectors {
		impl.Dorgtr(blas.Lower, p, rp.refl, p, rp.tau, work, -1)
		work = make([]float64, max(int(work[0]), 1))
		impl.Dorgtr(blas.Lower, p, rp.refl, p, rp.tau, work, len(work))
		impl.Dsteqr(lapack.EVOrig, p, rp.ev, ee, rp.refl, p, make([]float64, max(1, 2*p-2)))
		rp.tau = nil // refl now holds V
	} else {
		impl.Dsterf(p, rp.ev, ee)
	}
	rp.qb = append([]float64(nil), b...)
	rp.leftQ(blas.Trans, rp.qb) // Q^T b, or V^T b
	for i, v := range rp.ev {
		rp.ev[i] = max(v, 0)
	}
	return rp
}

// leftQ sets v = Q v (NoTrans) or Q^T v (Trans), O(p^2).
func (rp *ridgePath) leftQ(t blas.Transpose, v []float64) {
	if rp.p < 2 {
		return
	}
	if rp.tau == nil { // refl holds V
		tmp := append([]float64(nil), v...)
		blas64.Gemv(t, 1, blas64.General{Rows: rp.p, Cols: rp.p, Stride: rp.p, Data: rp.refl}, vec(tmp), 0, vec(v))
		return
	}
	impl := gonum.Implementation{}
	work := make([]float64, 1)
	impl.Dormqr(blas.Left, t, rp.p-1, 1, rp.p-1, rp.refl[rp.p:], rp.p, rp.tau, v[1:], 1, work, 1)
}

// rightQ sets w = w Q in place for an nv x p matrix w, O(2 nv p^2).
func (rp *ridgePath) rightQ(w *mat.Dense) {
	r := w.RawMatrix()
	if r.Rows == 0 || rp.p < 2 {
		return
	}
	if rp.tau == nil {
		out := mat.NewDense(r.Rows, rp.p, nil)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, r, blas64.General{Rows: rp.p, Cols: rp.p, Stride: rp.p, Data: rp.refl}, 0, out.RawMatrix())
		w.Copy(out)
		return
	}
	impl := gonum.Implementation{}
	work := []float64{0}
	impl.Dormqr(blas.Right, blas.NoTrans, r.Rows, rp.p-1, rp.p-1, rp.refl[rp.p:], rp.p, rp.tau, r.Data[1:], r.Stride, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	impl.Dormqr(blas.Right, blas.NoTrans, r.Rows, rp.p-1, rp.p-1, rp.refl[rp.p:], rp.p, rp.tau, r.Data[1:], r.Stride, work, len(work))
}

// rotate returns the statistics s in the reduced basis: Q^T H Q (both
// triangles) and Q^T B, in O(4 p^3) by two applications of the reflectors.
func (rp *ridgePath) rotate(s *GramStats) *GramStats {
	h := s.full()
	rp.rightQ(h)            // H Q
	d := h.RawMatrix().Data // transpose in place: Q^T H
	for i := 0; i < s.Dim; i++ {
		for j := 0; j < i; j++ {
			d[i*s.Dim+j], d[j*s.Dim+i] = d[j*s.Dim+i], d[i*s.Dim+j]
		}
	}
	rp.rightQ(h) // Q^T H Q
	out := &GramStats{Dim: s.Dim, Rows: s.Rows, H: h.RawMatrix().Data, B: append([]float64(nil), s.B...), YY: s.YY}
	rp.leftQ(blas.Trans, out.B)
	return out
}

// solve sets zh = (T + mu I)^-1 Q^T b in O(p) and reports success.
func (rp *ridgePath) solve(mu float64, zh []float64) bool {
	copy(zh, rp.qb)
	if rp.tau == nil { // eigenbasis: T is diagonal
		for k, v := range rp.ev {
			zh[k] /= v + mu
		}
		return allFinite(zh)
	}
	copy(rp.dl, rp.e)
	copy(rp.du, rp.e)
	for j := range rp.dd {
		rp.dd[j] = rp.d[j] + mu
	}
	ok := lapack64.Gtsv(blas.NoTrans, lapack64.Tridiagonal{N: rp.p, DL: rp.dl, D: rp.dd, DU: rp.du},
		blas64.General{Rows: rp.p, Cols: 1, Stride: 1, Data: zh})
	return ok && allFinite(zh)
}

// toZ returns Q zh, the solution in the original basis.
func (rp *ridgePath) toZ(zh []float64) []float64 {
	z := append([]float64(nil), zh...)
	rp.leftQ(blas.NoTrans, z)
	return z
}

// df returns tr(G (G + mu I)^-1) = sum_k ev_k / (ev_k + mu), O(p).
func (rp *ridgePath) df(mu float64) float64 {
	s := 0.0
	for _, v := range rp.ev {
		s += v / (v + mu)
	}
	return s
}

// CholeskySolve returns the solution z of (A + shift I) z = b for a
// symmetric A, by the Cholesky factorization A + shift I = L L^T, which
// overwrites the lower triangle of a (the upper one is not read). ok is
// false when A + shift I is not numerically positive definite or z is not
// finite. O(p^3/3) time for p x p A, no memory beyond z.
func CholeskySolve(a *mat.Dense, shift float64, b []float64) ([]float64, bool) {
	raw := a.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		raw.Data[i*raw.Stride+i] += shift
	}
	t, ok := potrfLower(blas64.Symmetric{N: raw.Rows, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Lower})
	if !ok {
		return nil, false
	}
	z := append([]float64(nil), b...)
	lapack64.Potrs(t, blas64.General{Rows: len(z), Cols: 1, Stride: 1, Data: z})
	return z, allFinite(z)
}
