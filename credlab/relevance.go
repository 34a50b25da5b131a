package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// RelevanceConfig configures LearnScales. The zero value uses up to
// DefaultRelevanceRows rows, unweighted, seed 0.
type RelevanceConfig struct {
	// Rows is the size of the seeded subsample the scales are learned on;
	// default DefaultRelevanceRows, at most the rows of x.
	Rows int
	// Seed seeds the subsample.
	Seed uint64
	// Weights, if not nil, are per-row importance weights w_i > 0 of the
	// loss and of the criterion.
	Weights []float64
	// MaxIter bounds the quasi-Newton iterations of each start; default 40.
	MaxIter int
}

// DefaultRelevanceRows is the default subsample of LearnScales: its cost per
// gradient, O(n^2 d + 2 n^3), is a few hundredths of a second at 1000 rows.
const DefaultRelevanceRows = 1000

// RelevanceFit is the result of LearnScales.
type RelevanceFit struct {
	// Scales are the learned per-column scales s_j of the Gaussian kernel
	// exp(-sum_j s_j^2 (a_j - b_j)^2 / 2) (Sigma 1): column j's
	// lengthscale is 1 / s_j; a scale below 1e-3 of the largest is set to
	// zero (the column is left out).
	Scales []float64
	// Lambda is the ridge parameter learned with them, and LOO the
	// (weighted) leave-one-out mean squared error there, in units of the
	// subsample target's variance.
	Lambda, LOO float64
	// IsoScale, IsoLambda and IsoLOO are the same for one scale shared by
	// every column (the isotropic kernel with Sigma = 1 / IsoScale).
	IsoScale, IsoLambda, IsoLOO float64
	// Start names the start the scales were learned from: "isotropic"
	// (the isotropic optimum) or "screen" (one-column fits).
	Start string
	// Rows is the subsample's size; Evals the criterion evaluations made.
	Rows, Evals int
}

// Relevance returns each column's scale relative to the largest, in [0, 1].
func (r *RelevanceFit) Relevance() []float64 {
	return relativeScales(r.Scales)
}

func relativeScales(s []float64) []float64 {
	top := 0.0
	for _, v := range s {
		top = math.Max(top, v)
	}
	out := make([]float64, len(s))
	for j, v := range s {
		if top > 0 {
			out[j] = v / top
		}
	}
	return out
}

// Bounds of the learned log-parameters: scales from 1e-4 to 1e3 (of
// standardized columns), lambda from 1e-9 to 10.
const (
	minLogScale  = -9.2 // log 1e-4
	maxLogScale  = 6.9  // log 1e3
	minLogLambda = -20.7
	maxLogLambda = 2.3
	// dropScale is the share of the largest scale below which a column is
	// left out.
	dropScale = 1e-3
)

// LearnScales learns one scale per column of a Gaussian kernel, with the
// ridge parameter, by minimizing the exact leave-one-out error of kernel
// ridge regression on a seeded subsample of Rows rows (automatic relevance
// determination). With A = K + n lambda W^-1 and c = A^-1 y, the
// leave-one-out residuals are r_i = c_i / (A^-1)_ii, and the criterion
// L = sum_i w_i r_i^2 / sum_i w_i has the analytic gradient
// dL = <G, dA>, G = -(u c^T + c u^T)/2 + A^-1 diag(b) A^-1, with
// a_i = 2 w_i r_i / ((A^-1)_ii sum w), b_i = a_i r_i, u = A^-1 a; each
// dA/d log s_j = -s_j^2 (x_kj - x_lj)^2 K_kl costs O(n^2) through one
// product P X, P = G o K. One evaluation costs O(n^2 d + 2 n^3) time and
// O(n^2) memory, and the optimizer (projected L-BFGS on log-parameters
// within bounds)
// takes a few dozen. It runs from two starts and keeps the lower
// criterion: the isotropic optimum (one scale and lambda learned first),
// and a screen of one-column fits, which escapes the isotropic start's
// "predict the mean" optimum where few of many columns carry the signal.
// The target is centered by its (weighted) mean and scaled to unit
// variance; x and y are not modified. Columns should be on comparable
// scales (standardized), as in frames.Fit.
func LearnScales(ctx context.Context, x *mat.Dense, y []float64, cfg RelevanceConfig) (*RelevanceFit, error) {
	if err := checkXY(x, y); err != nil {
		return nil, err
	}
	if err := checkWeights(cfg.Weights, len(y)); err != nil {
		return nil, err
	}
	if cfg.Rows < 0 {
		return nil, &ParamError{Name: "RelevanceConfig.Rows", Value: cfg.Rows, Want: "a positive number of rows, or zero for the default"}
	}
	if cfg.MaxIter < 0 {
		return nil, &ParamError{Name: "RelevanceConfig.MaxIter", Value: cfg.MaxIter, Want: "a positive number of iterations, or zero for the default"}
	}
	n, _ := x.Dims()
	ns := cfg.Rows
	if ns == 0 {
		ns = DefaultRelevanceRows
	}
	ns = min(ns, n)
	if ns < 3 {
		return nil, &TuneError{Problem: fmt.Sprintf("%d rows: learning column scales needs at least 3", ns)}
	}
	if err := checkAlloc("relevance kernel matrices", 4*ns, ns); err != nil {
		return nil, err
	}
	idx := relevanceRows(n, cfg.Seed)[:ns]
	sort.Ints(idx)
	iters := cfg.MaxIter
	if iters == 0 {
		iters = 40
	}
	return learnScales(ctx, gatherRows(x, idx), gather(y, idx), gatherWeights(cfg.Weights, idx), iters, time.Time{})
}

// relevanceRows is the seeded permutation of n rows whose prefix is
// LearnScales's subsample.
func relevanceRows(n int, seed uint64) []int {
	return rand.New(rand.NewPCG(seed, 0x726c76)).Perm(n)
}

// learnScales is LearnScales on all rows of x; the optimizer stops at
// stop when it is not zero, with the best parameters so far.
func learnScales(ctx context.Context, x *mat.Dense, y, w []float64, iters int, stop time.Time) (*RelevanceFit, error) {
	ns, d := x.Dims()
	p := newLOOProblem(x, y, w)
	if p == nil {
		return nil, &TuneError{Problem: "the target is constant on the subsample: nothing to learn", Err: ErrConstantTarget}
	}
	p.stop = stop
	out := &RelevanceFit{Rows: ns}
	iso, isoL, err := p.isotropic(ctx, iters)
	if err != nil {
		return nil, err
	}
	out.IsoScale, out.IsoLambda, out.IsoLOO = math.Exp(iso[0]), math.Exp(iso[1]), isoL
	best, bestL, start := fullParams(iso, d), isoL, "isotropic"
	if d > 1 {
		th, l, err := p.minimize(ctx, fullParams(iso, d), false, iters)
		if err != nil {
			return nil, err
		}
		if l < bestL {
			best, bestL = th, l
		}
		if sc, ok := p.screenRows(screenRows).screenStart(ctx, iso); ok {
			th, l, err := p.minimize(ctx, sc, false, iters)
			if err != nil {
				return nil, err
			}
			if l < bestL {
				best, bestL, start = th, l, "screen"
			}
		}
	}
	out.Scales = make([]float64, d)
	top := 0.0
	for j := range out.Scales {
		out.Scales[j] = math.Exp(best[j])
		top = math.Max(top, out.Scales[j])
	}
	for j, v := range out.Scales {
		if v < dropScale*top {
			out.Scales[j] = 0
		}
	}
	out.Lambda, out.LOO, out.Start, out.Evals = math.Exp(best[d]), bestL, start, p.evals
	return out, nil
}

// isotropic returns the optimum (log-scale, log-lambda) of one scale
// shared by every column and its criterion: found on screenRows rows from
// the median heuristic and lambda 1e-3, then polished on all, at most
// min(iters, 20) iterations each.
func (p *looProblem) isotropic(ctx context.Context, iters int) ([]float64, float64, error) {
	iso := []float64{math.Log(1 / medianSigma(p.x, false)), math.Log(1e-3)}
	var err error
	if q := p.screenRows(screenRows); q != p {
		if iso, _, err = q.minimize(ctx, iso, true, min(iters, 20)); err != nil {
			return nil, 0, err
		}
		p.evals += q.evals
	}
	return p.minimize(ctx, iso, true, min(iters, 20))
}

func gatherWeights(w []float64, idx []int) []float64 {
	if w == nil {
		return nil
	}
	return gather(w, idx)
}

// fullParams expands tied parameters (log-scale, log-lambda) to one
// log-scale per column.
func fullParams(tied []float64, d int) []float64 {
	th := make([]float64, d+1)
	for j := 0; j < d; j++ {
		th[j] = tied[0]
	}
	th[d] = tied[1]
	return th
}

// looProblem is the leave-one-out criterion of Gaussian kernel ridge
// regression on a fixed sample, as a function of log-scales and
// log-lambda.
type looProblem struct {
	x     *mat.Dense // n x d
	y, w  []float64  // y centered and scaled; w nil or normalized to mean 1
	n, d  int
	evals int
	stop  time.Time // the optimizer's deadline; zero: none
	// nu is the Matérn smoothness (1.5 or 2.5) of the kernel, 0 for the
	// Gaussian kernel.
	nu float64
	// buffers, n x n (h only for a Matérn kernel)
	k, a, ai, h *mat.Dense
	xs, px      *mat.Dense // n x d
}

// newLOOProblem centers and scales y (nil when it is constant).
func newLOOProblem(x *mat.Dense, y, w []float64) *looProblem {
	n, d := x.Dims()
	sw, mean := 0.0, 0.0
	for i, v := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		sw += wi
		mean += wi * v
	}
	mean /= sw
	yc := make([]float64, n)
	ss := 0.0
	for i, v := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		yc[i] = v - mean
		ss += wi * yc[i] * yc[i]
	}
	sd := math.Sqrt(ss / sw)
	if !(sd > 0) {
		return nil
	}
	for i := range yc {
		yc[i] /= sd
	}
	var wn []float64
	if w != nil {
		wn = make([]float64, n)
		for i, v := range w {
			wn[i] = v * float64(n) / sw
		}
	}
	return &looProblem{x: x, y: yc, w: wn, n: n, d: d,
		k: mat.NewDense(n, n, nil), a: mat.NewDense(n, n, nil), ai: mat.NewDense(n, n, nil),
		xs: mat.NewDense(n, d, nil), px: mat.NewDense(n, d, nil)}
}

func (p *looProblem) weight(i int) float64 {
	if p.w == nil {
		return 1
	}
	return p.w[i]
}

// eval returns the criterion at th = (log s_1..log s_d, log lambda) and,
// when grad is not nil, its gradient. A failed factorization gives +Inf.
func (p *looProblem) eval(th, grad []float64) float64 {
	p.evals++
	n, d := p.n, p.d
	lam := math.Exp(th[d])
	s := make([]float64, d)
	for j := range s {
		s[j] = math.Exp(th[j])
	}
	for i := 0; i < n; i++ {
		src, dst := p.x.RawRowView(i), p.xs.RawRowView(i)
		for j, v := range src {
			dst[j] = v * s[j]
		}
	}
	hr := p.kernel()
	// A^-1 in p.ai: Potrf and Potri on the upper triangle, then mirrored,
	// with no condition estimate: it cost more than the factorization, and
	// cond(A) <= w_max/lambda + w_max/w_min stays far below the 1e16 at
	// which mat.Cholesky refused the inverse (lambda >= 1e-9, weights of
	// mean 1), unless the weights span 1e15.
	p.ai.Copy(p.k)
	ai := p.ai.RawMatrix()
	for i := 0; i < n; i++ {
		ai.Data[i*ai.Stride+i] += float64(n) * lam / p.weight(i)
	}
	sym := blas64.Symmetric{N: n, Stride: ai.Stride, Data: ai.Data, Uplo: blas.Upper}
	if t, ok := lapack64.Potrf(sym); !ok {
		return math.Inf(1)
	} else if _, ok := lapack64.Potri(t); !ok {
		return math.Inf(1)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			ai.Data[j*ai.Stride+i] = ai.Data[i*ai.Stride+j]
		}
	}
	c := make([]float64, n)
	blas64.Gemv(blas.NoTrans, 1, ai, vec(p.y), 0, vec(c))
	r := make([]float64, n)
	loss := 0.0
	for i := range r {
		sii := ai.Data[i*ai.Stride+i]
		if !(sii > 0) {
			return math.Inf(1)
		}
		r[i] = c[i] / sii
		loss += p.weight(i) * r[i] * r[i]
	}
	loss /= float64(n)
	if grad == nil {
		return loss
	}
	// G = -(u c^T + c u^T)/2 + B B^T, B = A^-1 diag(sqrt(b)).
	a := make([]float64, n)
	sb := make([]float64, n)
	for i := range a {
		sii := ai.Data[i*ai.Stride+i]
		a[i] = 2 * p.weight(i) * r[i] / (sii * float64(n))
		sb[i] = math.Sqrt(a[i] * r[i])
	}
	u := make([]float64, n)
	blas64.Gemv(blas.NoTrans, 1, ai, vec(a), 0, vec(u))
	bm := p.a // B in the spare n x n buffer
	br := bm.RawMatrix()
	for i := 0; i < n; i++ {
		row, src := br.Data[i*br.Stride:i*br.Stride+n], ai.Data[i*ai.Stride:i*ai.Stride+n]
		for j, v := range src {
			row[j] = v * sb[j]
		}
	}
	g := p.ai // A^-1 is no longer needed either: G in its storage
	gr := g.RawMatrix()
	blas64.Syrk(blas.NoTrans, 1, br, 0, blas64.Symmetric{N: n, Stride: gr.Stride, Data: gr.Data, Uplo: blas.Lower})
	// P = G o H on the lower triangle, mirrored; dlambda from the diagonal.
	dlam := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			v := gr.Data[i*gr.Stride+j] - (u[i]*c[j]+c[i]*u[j])/2
			if i == j {
				dlam += v * float64(n) * lam / p.weight(i)
			}
			gr.Data[i*gr.Stride+j] = v * hr.Data[i*hr.Stride+j]
		}
	}
	parallel.MirrorLower(gr)
	grad[d] = dlam
	// sum_kl P_kl (xs_kj - xs_lj)^2 = 2 sum_k rowsum_k xs_kj^2 - 2 (xs^T P xs)_jj.
	rs := make([]float64, n)
	for i := range rs {
		for _, v := range gr.Data[i*gr.Stride : i*gr.Stride+n] {
			rs[i] += v
		}
	}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, gr, p.xs.RawMatrix(), 0, p.px.RawMatrix())
	for j := 0; j < d; j++ {
		t := 0.0
		for i := 0; i < n; i++ {
			v := p.xs.At(i, j)
			t += rs[i]*v*v - v*p.px.At(i, j)
		}
		grad[j] = -2 * t
	}
	return loss
}

// kernel fills p.k with the kernel matrix of the scaled rows p.xs (sigma
// 1) and returns H, with dK_kl / d log s_j = -H_kl (xs_kj - xs_lj)^2:
// H = K for the Gaussian kernel; for the Matérn kernels, with
// u = sqrt(2 nu) r, H = 3 e^-u (nu 3/2) and 5/3 (1 + u) e^-u (nu 5/2).
func (p *looProblem) kernel() blas64.General {
	if p.nu == 0 {
		kernelSym(p.k, GaussianKernel{Sigma: 1}, p.xs)
		return p.k.RawMatrix()
	}
	if p.h == nil {
		p.h = mat.NewDense(p.n, p.n, nil)
	}
	kernelSym(p.h, sqDistKernel{}, p.xs)
	kr, hr := p.k.RawMatrix(), p.h.RawMatrix()
	c := math.Sqrt(2 * p.nu)
	parallel.Rows(p.n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k, h := kr.Data[i*kr.Stride:i*kr.Stride+p.n], hr.Data[i*hr.Stride:i*hr.Stride+p.n]
			for j, sq := range h {
				u := c * math.Sqrt(sq)
				e := math.Exp(-u)
				if p.nu == 1.5 {
					k[j], h[j] = (1+u)*e, 3*e
				} else {
					k[j], h[j] = (1+u+u*u/3)*e, 5.0/3*(1+u)*e
				}
			}
		}
	})
	return hr
}

// clampParams clamps log-parameters (d log-scales, then log-lambda) to
// their bounds, in place.
func clampParams(th []float64, d int) {
	for j, v := range th {
		lo, hi := minLogScale, maxLogScale
		if j == d {
			lo, hi = minLogLambda, maxLogLambda
		}
		th[j] = math.Min(math.Max(v, lo), hi)
	}
}

// objective returns the criterion and gradient at th, tied (one shared
// log-scale, then log-lambda) or free.
func (p *looProblem) objective(th, grad []float64, tied bool) float64 {
	if !tied {
		return p.eval(th, grad)
	}
	full := fullParams(th, p.d)
	fg := make([]float64, p.d+1)
	f := p.eval(full, fg)
	grad[0], grad[1] = 0, fg[p.d]
	for j := 0; j < p.d; j++ {
		grad[0] += fg[j]
	}
	return f
}

// minimize runs a projected L-BFGS (memory 8, Armijo backtracking by quadratic interpolation, the
// log-parameters clamped to their bounds) from th0 for at most iters
// iterations, and returns the optimum and its criterion; it stops when
// the criterion improves by less than 1e-4 relative over 3 iterations.
func (p *looProblem) minimize(ctx context.Context, th0 []float64, tied bool, iters int) ([]float64, float64, error) {
	nv := len(th0)
	d := p.d
	bound := func(th []float64) {
		if tied {
			th[0] = math.Min(math.Max(th[0], minLogScale), maxLogScale)
			th[1] = math.Min(math.Max(th[1], minLogLambda), maxLogLambda)
			return
		}
		clampParams(th, d)
	}
	x := append([]float64(nil), th0...)
	bound(x)
	g := make([]float64, nv)
	f := p.objective(x, g, tied)
	if math.IsInf(f, 1) {
		return x, f, nil
	}
	const mem = 8
	var ss, ys [][]float64
	var rho []float64
	stall := 0
	for it := 0; it < iters && (p.stop.IsZero() || time.Now().Before(p.stop)); it++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		// Two-loop recursion: dir = -H g.
		q := append([]float64(nil), g...)
		alpha := make([]float64, len(ss))
		for k := len(ss) - 1; k >= 0; k-- {
			alpha[k] = rho[k] * vecmath.Dot(ss[k], q)
			axpyv(-alpha[k], ys[k], q)
		}
		if k := len(ss) - 1; k >= 0 {
			scalev(vecmath.Dot(ss[k], ys[k])/vecmath.Dot(ys[k], ys[k]), q)
		} else {
			scalev(1/math.Max(1, math.Sqrt(vecmath.Dot(g, g))), q) // first step of length about 1
		}
		for k := range ss {
			b := rho[k] * vecmath.Dot(ys[k], q)
			axpyv(alpha[k]-b, ss[k], q)
		}
		scalev(-1, q)
		if vecmath.Dot(q, g) >= 0 { // not a descent direction: steepest descent
			ss, ys, rho = nil, nil, nil
			q = append(q[:0], g...)
			scalev(-1/math.Max(1, math.Sqrt(vecmath.Dot(g, g))), q)
		}
		if -vecmath.Dot(q, g) < 1e-6*math.Abs(f) {
			break // a full step would gain less than the tolerance: converged
		}
		step, accepted := 1.0, false
		xn := make([]float64, nv)
		gn := make([]float64, nv)
		var fn float64
		for ls := 0; ls < 10; ls++ {
			for j := range xn {
				xn[j] = x[j] + step*q[j]
			}
			bound(xn)
			fn = p.objective(xn, gn, tied)
			dec := 0.0
			for j := range xn {
				dec += g[j] * (xn[j] - x[j])
			}
			if fn <= f+1e-4*dec && !math.IsInf(fn, 1) {
				accepted = true
				break
			}
			// The minimum of the quadratic through f, its slope and fn,
			// kept within a tenth and a half of the step.
			next := step / 2
			if curv := fn - f - dec; dec < 0 && curv > 0 && !math.IsInf(fn, 1) {
				next = math.Min(math.Max(-dec*step/(2*curv), step/10), step/2)
			}
			step = next
		}
		if !accepted {
			break
		}
		sv, yv := make([]float64, nv), make([]float64, nv)
		for j := range sv {
			sv[j], yv[j] = xn[j]-x[j], gn[j]-g[j]
		}
		if sy := vecmath.Dot(sv, yv); sy > 1e-12 {
			ss, ys, rho = append(ss, sv), append(ys, yv), append(rho, 1/sy)
			if len(ss) > mem {
				ss, ys, rho = ss[1:], ys[1:], rho[1:]
			}
		}
		if f-fn < 1e-4*math.Abs(f) {
			stall++
		} else {
			stall = 0
		}
		x, f, g = xn, fn, gn
		if stall >= 3 {
			break
		}
	}
	return x, f, nil
}

func axpyv(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}

func scalev(a float64, x []float64) {
	for i := range x {
		x[i] *= a
	}
}

// screenLambdas are the ridge parameters of screenStart's one-column fits,
// and screenRows the rows they use.
var screenLambdas = []float64{1e-3, 1e-1}

const screenRows = 300

// screenRows returns the problem on up to k evenly spaced rows of p's.
func (p *looProblem) screenRows(k int) *looProblem {
	if p.n <= k {
		return p
	}
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i * p.n / k
	}
	q := newLOOProblem(gatherRows(p.x, idx), gather(p.y, idx), gatherWeights(p.w, idx))
	if q == nil {
		return p
	}
	q.stop = p.stop
	return q
}

// screenStart fits kernel ridge regression on each column alone (the
// column's scale 1, the best of screenLambdas) and returns a start
// that keeps the columns whose one-column leave-one-out error is below
// 0.98 (at least 2% of the variance explained) at scale 1, and shrinks
// the others to 1e-2, at the isotropic optimum's lambda; ok is false when
// no column or every column passes (the start would be the isotropic one
// again). Cost 2d evaluations without gradient.
func (p *looProblem) screenStart(ctx context.Context, iso []float64) ([]float64, bool) {
	d := p.d
	keep := 0
	th := make([]float64, d+1)
	th[d] = iso[1]
	one := make([]float64, d+1)
	for j := 0; j < d; j++ {
		if ctx.Err() != nil {
			return nil, false
		}
		for i := range one[:d] {
			one[i] = minLogScale
		}
		one[j] = 0
		best := math.Inf(1)
		for _, l := range screenLambdas {
			one[d] = math.Log(l)
			best = math.Min(best, p.eval(one, nil))
		}
		if best < 0.98 {
			th[j] = 0
			keep++
		} else {
			th[j] = math.Log(1e-2)
		}
	}
	return th, keep > 0 && keep < d
}
