package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// DefaultFolds is the number of folds of CriterionCV.
const DefaultFolds = 5

// foldParallelDim is the largest dimension at which cvScores scores its
// folds concurrently, each fold on one goroutine with its own D x D
// buffers.
const foldParallelDim = 1000

// kFolds holds the rows of K-fold cross-validation as indices into the
// caller's rows, in fold order: no copy of x, whose rows each fold's
// statistics gather a block at a time (GramStats.addRows).
type kFolds struct {
	x   *mat.Dense // the caller's rows, read in place
	y   []float64  // y in fold order
	w   []float64  // w in fold order; nil without weights
	end []int      // fold f holds order[end[f-1]:end[f]] (end[-1] = 0)
	// order lists the rows of fold 0, then fold 1, ...; rows from
	// end[k-1] on are in no fold (newKFoldsOf).
	order []int
}

// newKFolds deals the n rows into k folds by a permutation seeded by seed,
// each fold's rows kept in their original order: O(n).
func newKFolds(x *mat.Dense, y, w []float64, k int, seed uint64) (*kFolds, error) {
	return newKFoldsOf(x, y, w, nil, k, seed)
}

// newKFoldsOf is newKFolds over the rows held (all rows when nil): the
// other rows follow the last fold, in every fold's training rows and in
// none of the folds.
func newKFoldsOf(x *mat.Dense, y, w []float64, held []int, k int, seed uint64) (*kFolds, error) {
	n, _ := x.Dims()
	nh := n
	if held != nil {
		nh = len(held)
	}
	perm := rand.New(rand.NewPCG(seed, 0x63726f7373)).Perm(nh)
	folds := make([][]int, k)
	for i, r := range perm {
		if held != nil {
			r = held[r]
		}
		folds[i%k] = append(folds[i%k], r)
	}
	var order []int
	cv := &kFolds{x: x}
	for _, f := range folds {
		slices.Sort(f)
		order = append(order, f...)
		cv.end = append(cv.end, len(order))
	}
	if held != nil {
		in := make([]bool, n)
		for _, r := range held {
			in[r] = true
		}
		for i := 0; i < n; i++ {
			if !in[i] {
				order = append(order, i)
			}
		}
	}
	cv.y = gather(y, order)
	if w != nil {
		cv.w = gather(w, order)
	}
	cv.order = order
	return cv, nil
}

func (cv *kFolds) k() int { return len(cv.end) }

// span returns the positions lo:hi of fold f in order.
func (cv *kFolds) span(f int) (lo, hi int) {
	if f > 0 {
		lo = cv.end[f-1]
	}
	return lo, cv.end[f]
}

// fold returns the indices of fold f's rows and their targets and
// weights.
func (cv *kFolds) fold(f int) (rows []int, y, w []float64) {
	lo, hi := cv.span(f)
	if cv.w != nil {
		w = cv.w[lo:hi]
	}
	return cv.order[lo:hi], cv.y[lo:hi], w
}

// rowsOf copies the rows at positions lo:hi of order: O((hi-lo) d).
func (cv *kFolds) rowsOf(what string, lo, hi int) (*mat.Dense, error) {
	_, d := cv.x.Dims()
	if err := checkAlloc(what, hi-lo, d); err != nil {
		return nil, err
	}
	return gatherRows(cv.x, cv.order[lo:hi]), nil
}

// checkCVAlloc checks the peak memory of K-fold cross-validation on D
// features: the K folds' statistics, their sum, the training matrix each
// fold reduces and the solutions of a grid, (K + 2) D x D and more.
func checkCVAlloc(k, dim, lambdas int) error {
	return checkAllocHint(fmt.Sprintf("cross-validation statistics of %d folds ((K + 2) D x D)", k), (k+2)*dim+2*lambdas, dim,
		fmt.Sprintf("use fewer than D = %d features or centers, or fewer folds", dim))
}

// cvScores returns the K-fold cross-validation curve of ridge regression
// in a feature space over grid: for each fold f, the model trained on the
// other folds' statistics H - H_f, B - B_f with mu = lambda n_-f is scored
// on fold f's statistics (foldScores), and the score of lambda is
// sum_f SSE_f / n, the (weighted) mean squared error of the rows when
// each is predicted by the model that did not see it. train is the mean
// over folds of the training RMSE. Cost per fold: one reduction to band
// form, O(4/3 D^3), then O(4 L D^2) at matrix-multiply speed for the L
// lambdas. With firstOnly only fold 0 is scored (one reduction), and
// the scores are fold 0's: a screen for paired comparisons (see
// tuner.screened). fold0, when not nil, is fold 0's part already
// computed on the same statistics (a screen's), and is not recomputed;
// cvScores returns fold 0's part.
func cvScores(ctx context.Context, folds []*GramStats, grid []float64, firstOnly bool, fold0 *foldScores) (out []lambdaScore, f0 *foldScores, err error) {
	dim := folds[0].Dim
	total, err := NewGramStats(dim)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range folds {
		addStats(total, f)
	}
	L := len(grid)
	sse, trainSSE := make([]float64, L), make([]float64, L)
	bad := make([]bool, L)
	scored := folds
	if firstOnly {
		scored = folds[:1]
	}
	parts := make([]*foldScores, len(scored))
	parts[0] = fold0
	score := func(lo, hi int, ws *foldWork) {
		for fi := lo; fi < hi; fi++ {
			if parts[fi] == nil && ctx.Err() == nil {
				parts[fi] = foldScore(total, scored[fi], grid, ws)
			}
		}
	}
	side := min(len(scored), runtime.GOMAXPROCS(0)) // folds scored at once
	if dim <= foldParallelDim && checkAlloc("cross-validation buffers of the folds scored at once", side*(dim+2*L), dim) == nil {
		// Small reductions spend much of their time outside the matrix
		// products' parallel loops: the folds run side by side instead.
		parallel.Chunks(len(scored), 1, func(lo, hi int) { score(lo, hi, newFoldWork(dim, L)) })
	} else {
		score(0, len(scored), newFoldWork(dim, L))
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	f0 = parts[0]
	for _, fs := range parts {
		for i := range grid {
			sse[i] += fs.sse[i]
			trainSSE[i] += fs.train[i]
			bad[i] = bad[i] || fs.bad[i]
		}
	}
	rows := total.Rows
	if firstOnly {
		rows = folds[0].Rows
	}
	out = make([]lambdaScore, L)
	for i, l := range grid {
		out[i] = lambdaScore{lambda: l, score: math.NaN(), train: math.NaN()}
		if !bad[i] {
			out[i].score = sse[i] / float64(rows)
			out[i].train = math.Sqrt(trainSSE[i] / float64(len(scored)))
			if !firstOnly {
				out[i].folds = make([]float64, len(parts))
				for f, fs := range parts {
					out[i].folds[f] = math.Sqrt(fs.sse[i] / fs.rows)
				}
			}
		}
	}
	return out, f0, nil
}

// foldScores is one fold's part of a cross-validation curve, per lambda:
// the held-out sum of squared errors, the training mean squared error,
// and whether the solve failed.
type foldScores struct {
	rows       float64
	sse, train []float64
	bad        []bool
}

// least returns the least mean squared error over the lambdas solved;
// +Inf when the fold is empty or nothing was solved.
func (fs *foldScores) least() float64 {
	v := math.Inf(1)
	if fs.rows == 0 {
		return v
	}
	for i, e := range fs.sse {
		if !fs.bad[i] {
			v = math.Min(v, e/fs.rows)
		}
	}
	return v
}

// foldWork holds foldScore's D x D and D x L buffers.
type foldWork struct {
	a, b, zh []float64
	z, hz    blas64.General
}

func newFoldWork(dim, L int) *foldWork {
	return &foldWork{a: make([]float64, dim*dim), b: make([]float64, dim), zh: make([]float64, dim),
		z:  blas64.General{Rows: dim, Cols: L, Stride: L, Data: make([]float64, dim*L)},
		hz: blas64.General{Rows: dim, Cols: L, Stride: L, Data: make([]float64, dim*L)}}
}

// foldScore scores fold f of the statistics total: the model trained on
// H - H_f, B - B_f with mu = lambda n_-f for each lambda of grid, on fold
// f's statistics,
//
//	SSE_f(z) = z^T H_f z - 2 z^T B_f + YY_f.
//
// One reduction to band form (bandPath), O(4/3 D^3) in matrix products,
// then for all L lambdas the band solves, O(L D w^2), on every core, Q
// applied to them and H_f to the result, O(4 L D^2) at matrix-multiply
// speed. A fold with no rows, or holding every row, scores zero.
func foldScore(total, f *GramStats, grid []float64, ws *foldWork) *foldScores {
	dim, L := f.Dim, len(grid)
	fs := &foldScores{rows: float64(f.Rows), sse: make([]float64, L), train: make([]float64, L), bad: make([]bool, L)}
	nt := total.Rows - f.Rows
	if nt == 0 || f.Rows == 0 {
		return fs
	}
	a, z := ws.a, ws.z
	for i := 0; i < dim; i++ { // lower triangle of H - H_f
		row := a[i*dim : i*dim+i+1]
		for j := range row {
			row[j] = total.H[i*dim+j] - f.H[i*dim+j]
		}
		ws.b[i] = total.B[i] - f.B[i]
	}
	bp := reduceBand(a, dim, ws.b)
	yy := total.YY - f.YY
	mus := make([]float64, L)
	for i, l := range grid {
		mus[i] = l * float64(nt)
	}
	ok := make([]bool, L)
	bp.solvePath(mus, z, ok)
	for i, mu := range mus {
		if fs.bad[i] = !ok[i]; fs.bad[i] {
			continue
		}
		for j := range ws.zh {
			ws.zh[j] = z.Data[j*L+i]
		}
		fs.train[i] = math.Max(yy-vecmath.Dot(ws.zh, bp.qb)-mu*vecmath.Dot(ws.zh, ws.zh), 0) / float64(nt)
	}
	bp.applyQ(blas.NoTrans, z)
	// H_f Z through a full copy of H_f: the installed BLAS's Dgemm is
	// several times faster than gonum's Dsymm. a is free again.
	copy(a, f.H)
	hf := blas64.General{Rows: dim, Cols: dim, Stride: dim, Data: a}
	parallel.MirrorLower(hf)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, hf, z, 0, ws.hz)
	col, hcol := make([]float64, dim), make([]float64, dim)
	for i := range grid {
		if fs.bad[i] {
			continue
		}
		for j := 0; j < dim; j++ {
			col[j], hcol[j] = z.Data[j*L+i], ws.hz.Data[j*L+i]
		}
		fs.sse[i] = f.sse(col, hcol)
	}
	return fs
}
