package credlab

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// sqDistKernel is ||a - b||^2: kernelSym and kernelBlock with it return
// squared distances, computed once for the exact sigma search.
type sqDistKernel struct{}

func (sqDistKernel) Eval(a, b []float64) float64  { return sqDist(a, b) }
func (sqDistKernel) Validate() error              { return nil }
func (sqDistKernel) String() string               { return "squared distance" }
func (sqDistKernel) fromSqDist(s float64) float64 { return s }

// exactEvaluator scores exact KRLS at each sigma: the kernel matrix is
// mapped from squared distances computed once, O(n^2) per sigma, then
// reduced once, O(4/3 n^3), and scored in O(n) per lambda (O(n^2) for
// LOO, O(n_v n) for hold-out after one O(2 n_v n^2) application of Q).
type exactEvaluator struct {
	t      *tuner
	nt, nv int
	sqd    []float64 // (nt+nv) x nt squared distances, training rows first
	kb     []float64 // kernel buffer of the same shape
	sq     []float64 // W^1/2 of the training rows; nil without weights
	b      []float64 // W^1/2 y of the training rows
	yv, wv []float64
}

func (t *tuner) exactEval() (*exactEvaluator, error) {
	nt, nv := len(t.train), len(t.val)
	if err := checkAlloc("distance and kernel matrices", 2*(nt+nv), nt); err != nil {
		return nil, err
	}
	e := &exactEvaluator{t: t, nt: nt, nv: nv, sqd: make([]float64, (nt+nv)*nt), kb: make([]float64, (nt+nv)*nt)}
	xt := gatherRows(t.x, t.train)
	kernelSym(mat.NewDense(nt, nt, e.sqd[:nt*nt]), sqDistKernel{}, xt)
	if nv > 0 {
		kernelBlock(mat.NewDense(nv, nt, e.sqd[nt*nt:]), sqDistKernel{}, gatherRows(t.x, t.val), xt, nil, nil)
		e.yv = gather(t.y, t.val)
		if t.w != nil {
			e.wv = gather(t.w, t.val)
		}
	}
	if t.w != nil {
		e.sq = sqrtWeights(gather(t.w, t.train))
	}
	e.b = scaled(gather(t.y, t.train), e.sq)
	return e, nil
}

func (e *exactEvaluator) rows() int { return e.nt }
func (e *exactEvaluator) rank() int { return 0 }

func (e *exactEvaluator) eval(ctx context.Context, sigma float64) ([]lambdaScore, error) {
	k := e.t.fam(sigma).(distKernel)
	nt := e.nt
	parallelRows(nt+e.nv, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			src, dst := e.sqd[i*nt:(i+1)*nt], e.kb[i*nt:(i+1)*nt]
			si := 1.0
			if e.sq != nil && i < nt {
				si = e.sq[i]
			}
			for j, s := range src {
				v := k.fromSqDist(s)
				if e.sq != nil {
					v *= si * e.sq[j]
				}
				dst[j] = v
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rp := reduceRidge(e.kb[:nt*nt], nt, e.b, e.t.crit == CriterionLOO)
	// W^1/2 (K alpha - y) = -mu z at the solution.
	pr := ridgeProblem{n: nt, sse: func(zz, _, mu float64) float64 { return mu * mu * zz }}
	if e.nv > 0 {
		pr.w, pr.yv, pr.wv = mat.NewDense(e.nv, nt, e.kb[nt*nt:]), e.yv, e.wv
		rp.rightQ(pr.w)
	}
	return pr.scorePath(rp, e.t.grid, e.t.crit, e.t.extraDF), nil
}

// nystromEvaluator scores NKRLS with m fixed centers at each sigma: the
// factor of K_mm, O(m^2 d + m^3/3), the features A = W^1/2 K_nm L^-T and
// their Gram matrix, O(n m d + 2 n m^2), one reduction of A^T A,
// O(4/3 m^3), then O(m) per lambda (O(n_v m) for hold-out).
type nystromEvaluator struct {
	t      *tuner
	m, r   int
	idx    []int
	xt, xv *mat.Dense
	sq     []float64
	yt, yv []float64 // yt is W^1/2 y
	wv     []float64
	buf    []float64 // nt x m features
}

func (t *tuner) nystromEval(m int) (*nystromEvaluator, error) {
	nt := len(t.train)
	if err := checkAlloc("Nyström feature matrix", nt+len(t.val), m); err != nil {
		return nil, err
	}
	e := &nystromEvaluator{t: t, m: m, xt: gatherRows(t.x, t.train), buf: make([]float64, nt*m)}
	idx, err := NystromCenters(e.xt, m, nil, t.cfg.Seed)
	if err != nil {
		return nil, err
	}
	e.idx = idx
	if t.w != nil {
		e.sq = sqrtWeights(gather(t.w, t.train))
	}
	e.yt = scaled(gather(t.y, t.train), e.sq)
	if len(t.val) > 0 {
		e.xv, e.yv = gatherRows(t.x, t.val), gather(t.y, t.val)
		if t.w != nil {
			e.wv = gather(t.w, t.val)
		}
	}
	return e, nil
}

func (e *nystromEvaluator) rows() int { return len(e.yt) }
func (e *nystromEvaluator) rank() int { return e.r }

func (e *nystromEvaluator) eval(ctx context.Context, sigma float64) ([]lambdaScore, error) {
	ny, err := NewNystrom(e.t.fam(sigma), e.xt, e.idx, 0)
	if err != nil {
		return nil, err
	}
	e.r = ny.Rank()
	nt, r := len(e.yt), e.r
	a := mat.NewDense(nt, r, e.buf[:nt*r])
	ny.featuresInto(a, e.xt)
	scaleRows(a, e.sq)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g := make([]float64, r*r)
	blas64.Syrk(blas.Trans, 1, a.RawMatrix(), 0, blas64.Symmetric{N: r, Stride: r, Data: g, Uplo: blas.Lower})
	mirrorLower(blas64.General{Rows: r, Cols: r, Stride: r, Data: g})
	aty := make([]float64, r)
	blas64.Gemv(blas.Trans, 1, a.RawMatrix(), vec(e.yt), 0, vec(aty))
	yy := dot(e.yt, e.yt)
	rp := reduceRidge(g, r, aty, false)
	// ||A z - y||^2 = ||y||^2 - z.b - mu ||z||^2 at the solution.
	pr := ridgeProblem{n: nt, sse: func(zz, zb, mu float64) float64 { return yy - zb - mu*zz }}
	if e.xv != nil {
		nv, _ := e.xv.Dims()
		pr.w, pr.yv, pr.wv = mat.NewDense(nv, r, nil), e.yv, e.wv
		ny.featuresInto(pr.w, e.xv)
		rp.rightQ(pr.w)
	}
	return pr.scorePath(rp, e.t.grid, e.t.crit, e.t.extraDF), nil
}
