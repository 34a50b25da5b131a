package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// sqDistKernel is ||a - b||^2: kernelSym and kernelBlock with it return
// squared distances, computed once for the exact sigma search.
type sqDistKernel struct{}

func (sqDistKernel) Eval(a, b []float64) float64  { return vecmath.SqDist(a, b) }
func (sqDistKernel) Validate() error              { return nil }
func (sqDistKernel) String() string               { return "squared distance" }
func (sqDistKernel) fromSqDist(s float64) float64 { return s }
func (sqDistKernel) columnScales() []float64      { return nil }

// l1DistKernel is ||a - b||_1: with it kernelSym and kernelBlock return
// L1 distances, computed once for the exact sigma search of an l1Kernel
// family.
type l1DistKernel struct{}

func (l1DistKernel) Eval(a, b []float64) float64  { return scaledL1Dist(a, b, nil) }
func (l1DistKernel) Validate() error              { return nil }
func (l1DistKernel) String() string               { return "L1 distance" }
func (l1DistKernel) fromL1Dist(s float64) float64 { return s }
func (l1DistKernel) columnScales() []float64      { return nil }

// distances returns the kernel whose matrix holds the distances the
// kernels of fam are functions of: squared distances, or L1 distances;
// nil for a family of neither.
func distances(fam func(float64) Kernel) Kernel {
	switch fam(1).(type) {
	case distKernel:
		return sqDistKernel{}
	case l1Kernel:
		return l1DistKernel{}
	}
	return nil
}

// exactEvaluator scores exact KRLS at each sigma: the kernel matrix is
// mapped from squared distances computed once, O(n^2) per sigma (or, for a
// single sigma, computed directly without the distance matrix), then
// reduced once, O(4/3 n^3), and scored in O(n) per lambda (O(n^2) for
// LOO, O(n_v n) for hold-out after one O(2 n_v n^2) application of Q).
type exactEvaluator struct {
	t      *tuner
	nt, nv int
	xt, xv *mat.Dense
	sqd    []float64 // (nt+nv) x nt squared distances, training rows first; nil for one sigma
	kb     []float64 // kernel buffer of the same shape
	sq     []float64 // W^1/2 of the training rows; nil without weights
	b      []float64 // W^1/2 y of the training rows
	yv, wv []float64
	// last is the reduction of lastSigma, valid until the next eval.
	last      *ridgePath
	lastSigma float64
}

func (t *tuner) exactEval(sigmas int) (*exactEvaluator, error) {
	nt, nv := len(t.train), len(t.val)
	cache := sigmas > 1 && distances(t.fam) != nil // mapSqDist maps the distances
	mats := map[bool]int{true: 2, false: 1}[cache]
	if err := checkAlloc("kernel and distance matrices", mats*(nt+nv), nt); err != nil {
		return nil, err
	}
	e := &exactEvaluator{t: t, nt: nt, nv: nv, kb: make([]float64, (nt+nv)*nt), xt: gatherRows(t.x, t.train)}
	if nv > 0 {
		e.xv = gatherRows(t.x, t.val)
	}
	if cache {
		e.sqd = make([]float64, (nt+nv)*nt)
		e.fill(e.sqd, distances(t.fam))
	}
	if nv > 0 {
		e.yv = gather(t.y, t.val)
		if t.w != nil {
			e.wv = gather(t.w, t.val)
		}
	}
	if t.w != nil {
		e.sq = sqrtWeights(gather(t.w, t.train))
	}
	e.b = scaled(gather(t.y, t.train), e.sq)
	t.lastExact = e
	return e, nil
}

func (e *exactEvaluator) rows() int { return e.nt }
func (e *exactEvaluator) rank() int { return 0 }

// fill sets dst to [K(Xt, Xt); K(Xv, Xt)].
func (e *exactEvaluator) fill(dst []float64, k Kernel) {
	kernelSym(mat.NewDense(e.nt, e.nt, dst[:e.nt*e.nt]), k, e.xt)
	if e.nv > 0 {
		kernelBlock(mat.NewDense(e.nv, e.nt, dst[e.nt*e.nt:]), k, e.xv, e.xt, nil, nil)
	}
}

func (e *exactEvaluator) eval(ctx context.Context, sigma float64) ([]lambdaScore, error) {
	nt := e.nt
	if e.sqd == nil {
		e.fill(e.kb, e.t.fam(sigma))
		scaleSym(mat.NewDense(nt, nt, e.kb[:nt*nt]), e.sq)
	} else {
		e.mapSqDist(sigma)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	extras := pathEigenvalues
	if e.t.crit == CriterionLOO {
		extras = pathVectors
	}
	rp := reduceRidge(e.kb[:nt*nt], nt, e.b, extras)
	e.last, e.lastSigma = rp, sigma
	// W^1/2 (K alpha - y) = -mu z at the solution.
	pr := ridgeProblem{n: nt, sse: func(zz, _, mu float64) float64 { return mu * mu * zz }}
	if e.nv > 0 {
		pr.w, pr.yv, pr.wv = mat.NewDense(e.nv, nt, e.kb[nt*nt:]), e.yv, e.wv
		if e.sqd == nil {
			scaleCols(pr.w, e.sq)
		}
		rp.rightQ(pr.w)
	}
	return pr.scorePath(rp, e.t.grid, e.t.crit, e.t.extraDF), nil
}

// mapSqDist sets the kernel buffer from the distances (squared, or L1
// for an l1Kernel family): W^1/2 K W^1/2 on the training rows, K W^1/2 on
// the validation rows.
func (e *exactEvaluator) mapSqDist(sigma float64) {
	var fromDist func(row []float64)
	switch k := e.t.fam(sigma).(type) {
	case distKernel:
		fromDist = func(row []float64) { fromSqDistRow(k, row) }
	case l1Kernel:
		fromDist = func(row []float64) { fromL1DistRow(k, row) }
	}
	nt := e.nt
	parallel.Rows(nt+e.nv, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			src, dst := e.sqd[i*nt:(i+1)*nt], e.kb[i*nt:(i+1)*nt]
			si := 1.0
			if e.sq != nil && i < nt {
				si = e.sq[i]
			}
			copy(dst, src)
			fromDist(dst)
			if e.sq != nil {
				for j, v := range dst {
					dst[j] = v * (si * e.sq[j])
				}
			}
		}
	})
}

// nystromEvaluator scores NKRLS with m fixed centers at each sigma (by GCV
// when the criterion is LOO, which the Nyström stages do not compute): the
// factor of K_mm, O(m^2 d + m^3/3), the Gram statistics of the features
// A = K_nm L^-T streamed in blocks, O(n m d + 2 n m^2) (kernel block,
// triangular solve, rank-k update), one reduction of A^T W A,
// O(4/3 m^3), then O(m) per lambda; hold-out adds the rotation of the
// validation statistics, O(4 m^3), and O(m^2) per lambda.
type nystromEvaluator struct {
	t       *tuner
	m, r    int
	sampler CenterSampler // nil: uniform
	idx     []int
	xt, xv  *mat.Dense
	yt, yv  []float64
	wt, wv  []float64
	cv      *kFolds // CriterionCV: the folds, in place of the split
	// first is fold 0's least score of the last evaluation or screen. The
	// folds' statistics of the last sigma are kept, and fold 0's scores of
	// every sigma, so that a screen and a full evaluation at the same sigma
	// map the rows at most twice and reduce fold 0 once.
	first      float64
	statsSigma float64
	stats      []*GramStats
	fold0      map[float64]*foldScores
	// keep, when set, is a sigma whose statistics are kept aside when
	// another sigma's replace them (kept, keptSigma): the best of a
	// screened walk, which is then cross-validated without a second pass.
	keep      float64
	kept      []*GramStats
	keptSigma float64
}

// nystromEval returns the evaluator of m centers drawn from the training
// rows by sampler (nil: uniform).
func (t *tuner) nystromEval(ctx context.Context, m int, sampler CenterSampler) (*nystromEvaluator, error) {
	if err := checkNystromAlloc(m); err != nil {
		return nil, err
	}
	if t.cv != nil {
		if err := checkCVAlloc(t.cv.k(), m, len(t.grid)); err != nil {
			return nil, err
		}
		// Centers from all rows in their order, as the final NKRLS draws them.
		idx, err := nystromCenters(ctx, t.x, m, sampler, t.cfg.Seed)
		if err != nil {
			return nil, err
		}
		return &nystromEvaluator{t: t, m: m, sampler: sampler, idx: idx, xt: t.x, yt: t.y, cv: t.cv}, nil
	}
	e := &nystromEvaluator{t: t, m: m, sampler: sampler, xt: viewRows(t.x, t.train), yt: gather(t.y, t.train)} // xt is only read
	idx, err := nystromCenters(ctx, e.xt, m, sampler, t.cfg.Seed)
	if err != nil {
		return nil, err
	}
	e.idx = idx
	if t.w != nil {
		e.wt = gather(t.w, t.train)
	}
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
	if e.cv != nil {
		return e.evalCV(ctx, sigma, false)
	}
	ny, err := NewNystrom(e.t.fam(sigma), e.xt, e.idx, 0)
	if err != nil {
		return nil, err
	}
	e.r = ny.Rank()
	fs := &featureSplit{xt: e.xt, xv: e.xv, yt: e.yt, yv: e.yv, wt: e.wt, wv: e.wv, nt: len(e.yt), dim: e.r,
		fill: func(dst, x *mat.Dense) error { ny.featuresInto(dst, x); return nil }}
	train, val, err := fs.stats(ctx)
	if err != nil {
		return nil, err
	}
	rp := reduceRidge(train.full().RawMatrix().Data, e.r, train.B, pathEigenvalues)
	yy := train.YY
	// ||A z - y||^2 = ||y||^2 - z.b - mu ||z||^2 at the solution.
	pr := ridgeProblem{n: train.Rows, sse: func(zz, zb, mu float64) float64 { return yy - zb - mu*zz }}
	if val != nil {
		pr.vs = rp.rotate(val)
	}
	crit := e.t.crit
	if crit == CriterionLOO { // needs the n x n eigenvectors: GCV stands in
		crit = CriterionGCV
	}
	return pr.scorePath(rp, e.t.grid, crit, e.t.extraDF), nil
}

// release drops the folds' statistics (O(k m^2) memory); the fold-0
// scores stay, and a later evaluation recomputes what it needs.
func (e *nystromEvaluator) release() {
	e.stats, e.kept = nil, nil
}

// keepStats asks that the statistics of sigma be kept aside when
// another sigma's replace them, where the memory limit allows a second
// set of the folds' statistics (K D x D).
func (e *nystromEvaluator) keepStats(sigma float64) {
	if e.keep != 0 || checkAlloc("kept cross-validation statistics", e.cv.k()*e.m, e.m) == nil {
		e.keep = sigma
	}
}

// screen returns fold 0's least score at sigma (cvScores' firstOnly: one
// reduction), the paired screen of tuner.screened and screenWalk.
func (e *nystromEvaluator) screen(ctx context.Context, sigma float64) (float64, error) {
	_, err := e.evalCV(ctx, sigma, true)
	return e.first, err
}

// evalCV streams each fold's rows into its Gram statistics and returns
// the cross-validation curve (cvScores; fold 0's alone with firstOnly).
func (e *nystromEvaluator) evalCV(ctx context.Context, sigma float64, firstOnly bool) ([]lambdaScore, error) {
	if e.kept != nil && e.keptSigma == sigma && e.statsSigma != sigma {
		e.stats, e.kept = e.kept, e.stats
		e.statsSigma, e.keptSigma = sigma, e.statsSigma
	}
	if e.stats == nil || e.statsSigma != sigma {
		if e.stats != nil && e.statsSigma == e.keep {
			e.kept, e.keptSigma = e.stats, e.statsSigma
		}
		e.stats = nil
		ny, err := NewNystrom(e.t.fam(sigma), e.xt, e.idx, 0)
		if err != nil {
			return nil, err
		}
		e.r = ny.Rank()
		fill := func(dst, x *mat.Dense) error { ny.featuresInto(dst, x); return nil }
		folds := make([]*GramStats, e.cv.k())
		for f := range folds {
			s, err := NewGramStats(e.r)
			if err != nil {
				return nil, err
			}
			rows, y, w := e.cv.fold(f)
			if err := s.addRows(ctx, e.cv.x, rows, y, w, fill); err != nil {
				return nil, err
			}
			folds[f] = s
		}
		e.stats, e.statsSigma = folds, sigma
	}
	sc, f0, err := cvScores(ctx, e.stats, e.t.grid, firstOnly, e.fold0[sigma])
	if err != nil {
		return nil, err
	}
	if e.fold0 == nil {
		e.fold0 = map[float64]*foldScores{}
	}
	e.fold0[sigma], e.first = f0, f0.least()
	return sc, nil
}

// fit returns KRLS at lambda from the last reduction: alpha = W^1/2 Q z^,
// O(n^2).
func (e *exactEvaluator) fit(k Kernel, lambda float64) (*Fit, error) {
	zh := make([]float64, e.nt)
	if !e.last.solve(lambda*float64(e.nt), zh) {
		return nil, &NumericalError{Method: "KRLS", Op: fmt.Sprintf("the tridiagonal solve failed at lambda = %g", lambda)}
	}
	return &Fit{Method: "KRLS", Rank: e.nt, Lambda: lambda,
		Model: &Model{Kernel: k, Centers: gatherRows(e.t.x, e.t.train), Coef: scaled(e.last.toZ(zh), e.sq)}}, nil
}

// exactScreen returns fold 0's least score over the lambda grid of exact
// KRLS at sigma trained on the other folds' rows (n_t of them): the limit
// that Nyström models approach as their centers cover those rows, and so
// the screen of a doubling of m to n_t centers or more. The kernel matrix
// W^1/2 K W^1/2 of the training rows is reduced to band form once,
// O(4/3 n_t^3), each lambda solved in O(n_t w^2), and fold 0 predicted by
// K_0t W^1/2 Z for all lambdas at once, O(2 n_0 n_t L). Memory: n_t^2 +
// n_0 n_t values.
func (t *tuner) exactScreen(ctx context.Context, sigma float64) (float64, error) {
	_, y0, w0 := t.cv.fold(0)
	n := len(t.cv.order)
	n0 := len(y0)
	nt := n - n0
	if err := checkAlloc("kernel matrices of the exact screen", nt+n0, nt); err != nil {
		return 0, err
	}
	x0, err := t.cv.rowsOf("fold 1 of the exact screen", 0, n0)
	if err != nil {
		return 0, err
	}
	xt, err := t.cv.rowsOf("training rows of the exact screen", n0, n)
	if err != nil {
		return 0, err
	}
	var sq []float64
	if t.cv.w != nil {
		sq = sqrtWeights(t.cv.w[n0:])
	}
	k := t.fam(sigma)
	g := mat.NewDense(nt, nt, nil)
	kernelSym(g, k, xt)
	scaleSym(g, sq)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	bp := reduceBand(g.RawMatrix().Data, nt, scaled(t.cv.y[n0:], sq))
	L := len(t.grid)
	mus := make([]float64, L)
	for i, l := range t.grid {
		mus[i] = l * float64(nt)
	}
	z := mat.NewDense(nt, L, nil)
	ok := make([]bool, L)
	bp.solvePath(mus, z.RawMatrix(), ok)
	bp.applyQ(blas.NoTrans, z.RawMatrix())
	// K_0t W^1/2 Z: the weights go on K's columns.
	k0 := mat.NewDense(n0, nt, nil)
	kernelBlock(k0, k, x0, xt, nil, nil)
	scaleCols(k0, sq)
	var pred mat.Dense // L x n0: row j holds fold 0's predictions at lambda j
	pred.Mul(z.T(), k0.T())
	least := math.Inf(1)
	for j := range mus {
		if ok[j] {
			e := wrmse(pred.RawRowView(j), y0, w0)
			least = math.Min(least, e*e)
		}
	}
	return least, nil
}
