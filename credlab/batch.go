package credlab

import (
	"context"
	"fmt"
	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// Batch selection methods of BatchSelector, after Holzmüller et al., "A
// Framework and Benchmark for Deep Batch Active Learning for Regression"
// (JMLR 2023), all in their "train + pool" mode: rows already labeled
// count as chosen.
const (
	// MethodMaxDiag takes the budget rows of largest posterior variance
	// given the labeled rows, without updating it within the batch.
	MethodMaxDiag = "maxdiag"
	// MethodMaxDet greedily takes the row of largest posterior variance
	// given the labeled and chosen rows (greedy determinant maximisation,
	// a pivoted Cholesky of the posterior kernel plus noise).
	MethodMaxDet = "maxdet"
	// MethodBAIT is BAIT's forward-backward greedy: a forward pass takes
	// twice the batch, each time the row whose label most reduces the
	// pool's summed posterior variance, and a backward pass then removes,
	// one at a time, the row whose removal least increases it.
	MethodBAIT = "bait"
	// MethodMaxDist greedily takes the row farthest in feature space from
	// every labeled and chosen row.
	MethodMaxDist = "maxdist"
	// MethodKMeansPP draws each next row with probability proportional to
	// its squared feature distance to the nearest labeled or chosen row
	// (k-means++ seeding).
	MethodKMeansPP = "kmeanspp"
	// MethodLCMD (largest cluster maximum distance) assigns every row to
	// its nearest labeled or chosen row, and takes, in the cluster of
	// largest summed squared distance, the row farthest from its center.
	MethodLCMD = "lcmd"
	// MethodHerding is kernel herding (the Frank-Wolfe method with step
	// 1/(t+1)): each next row maximises phi(x).(mean over the pool of phi
	// - mean over the t labeled and chosen rows of phi), so that the
	// labels' kernel mean follows the pool's, a space-filling sample of
	// the pool's density.
	MethodHerding = "herding"
)

// BatchMethods lists BatchSelector's methods.
var BatchMethods = []string{MethodLCMD, MethodKMeansPP, MethodMaxDist, MethodMaxDet, MethodMaxDiag, MethodBAIT, MethodHerding}

// DefaultBatchM is BatchSelector's default number of Nyström features.
const DefaultBatchM = 256

// DefaultBatchNoise is BatchSelector's default noise variance, relative to
// the kernel's unit prior variance, when no fit gave one.
const DefaultBatchNoise = 1e-2

// BatchSelector chooses a batch of distinct rows to label by one of the
// batch active-learning methods (Method*) in a feature space phi of a
// kernel: f(x) = phi(x).beta with beta ~ N(0, I) and label noise of
// variance Noise, so that the posterior covariance of beta given the
// labeled set S is Sigma = (I + Phi_S^T Phi_S / Noise)^-1 and a row's
// posterior variance is phi(x)^T Sigma phi(x). Rows in Previous are
// labeled: the posterior is conditioned on them and the distance methods
// start with them as centers. Every weight and Prob is 1: these are not
// probability samples.
//
// Cost: the features, O(N m d + N m^2) for m Nyström centers, then
// O(N m B) for a batch of B (and O(N m L) for distance methods with L
// labeled rows, by blocked matrix products); memory O(N m), never N x N.
// The distance methods on a radial kernel need no features: O(N d (B + L)).
type BatchSelector struct {
	// Method is one of BatchMethods; default MethodLCMD.
	Method string
	// Kernel is the kernel whose features are used; default the Gaussian
	// kernel with the median-distance bandwidth (MedianDistance). Ignored
	// when Features is set.
	Kernel Kernel
	// Features, when set, is the feature map (for example RawFeatures{}
	// for the input space, or a *RandomFourier); otherwise the distance
	// methods (MaxDist, KMeansPP, LCMD) measure the feature-space distance
	// of a radial Kernel exactly, 2 (1 - k(a, b)), and the other methods
	// take Nyström features of Kernel on M uniformly drawn pool rows
	// (exact when M is the pool size).
	Features FeatureMap
	// M is the number of Nyström centers, default min(DefaultBatchM, N).
	M int
	// Noise is the label noise variance of the posterior (MaxDiag, MaxDet,
	// BAIT) relative to the kernel's prior variance; default
	// DefaultBatchNoise. A kernel ridge fit with lambda on n rows
	// corresponds to Noise = n lambda.
	Noise float64
	// Previous, when set, holds the rows already labeled; Select returns
	// them first, then the new batch, with Batch numbers.
	Previous *Selection
	// Audit is the share of the batch drawn as an audit sample:
	// round(Audit budget) rows drawn uniformly, without replacement, from
	// the U rows not yet labeled (audit weight U/a for a rows; listed last
	// in the batch, Selection.Audit). The method neither chooses nor sees
	// audit rows, of this batch or of Previous (they are not centers and
	// do not condition the posterior), so that a model's out-of-fold error
	// on them estimates its error on the pool (TuneConfig.Audit), which
	// rows a method placed away from them would not. Default 0: none; at
	// most 1/2.
	Audit float64
}

// ParseBatchMethod returns the canonical name of a batch method, or a
// *ParamError listing them.
func ParseBatchMethod(s string) (string, error) {
	m := strings.ToLower(strings.TrimSpace(s))
	if m == "" {
		return MethodLCMD, nil
	}
	for _, v := range BatchMethods {
		if m == v {
			return v, nil
		}
	}
	return "", &ParamError{Name: "BatchSelector.Method", Value: strconv.Quote(s), Want: strings.Join(BatchMethods, ", ")}
}

// Select implements Selector. The seed draws the Nyström centers and the
// k-means++ draws; the other methods are deterministic given the features
// (ties go to the lowest row).
func (b BatchSelector) Select(ctx context.Context, pool *mat.Dense, budget int, seed uint64) (*Selection, error) {
	n, err := checkPool(pool, budget)
	if err != nil {
		return nil, err
	}
	method, err := ParseBatchMethod(b.Method)
	if err != nil {
		return nil, err
	}
	noise := b.Noise
	if noise == 0 {
		noise = DefaultBatchNoise
	}
	if err := checkPositive("BatchSelector.Noise", noise); err != nil {
		return nil, err
	}
	if !(b.Audit >= 0 && b.Audit <= 0.5) {
		return nil, &ParamError{Name: "BatchSelector.Audit", Value: b.Audit, Want: "a share of the batch from 0 to 0.5"}
	}
	start, startBatch, err := labeledStart(b.Previous, n, budget)
	if err != nil {
		return nil, err
	}
	phi, metric, err := b.features(ctx, pool, seed, method)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	audit, prevAudit := drawAudit(b.Previous, start, n, min(int(math.Round(b.Audit*float64(budget))), budget/2), seed)
	seen, keep := start, []int(nil)
	if len(audit) > 0 || prevAudit != nil {
		// The method runs on the rows that are not audit rows.
		if err := checkAllocHint("batch selection features without the audit rows", n, phi.RawMatrix().Cols, "lower M, or set Audit to 0"); err != nil {
			return nil, err
		}
		hide := make([]bool, n)
		for _, j := range audit {
			hide[j] = true
		}
		for i, j := range start {
			hide[j] = prevAudit != nil && prevAudit[i] > 0
		}
		at := make([]int, n)
		for i := range n {
			if !hide[i] {
				at[i] = len(keep)
				keep = append(keep, i)
			}
		}
		phi = gatherRows(phi, keep)
		seen = nil
		for _, j := range start {
			if !hide[j] {
				seen = append(seen, at[j])
			}
		}
	}
	var idx []int
	budget -= len(audit)
	switch method {
	case MethodMaxDiag, MethodMaxDet, MethodBAIT:
		idx, err = posteriorGreedy(ctx, phi, seen, budget, noise, method)
	case MethodHerding:
		idx, err = herding(ctx, phi, seen, budget)
	default:
		idx, err = distanceGreedy(ctx, phi, metric, seen, budget, method, seed)
	}
	if err != nil {
		return nil, err
	}
	if keep != nil {
		for i, j := range idx {
			idx[i] = keep[j]
		}
	}
	sel := batchSelection(b.Previous, start, startBatch, append(idx, audit...))
	if keep != nil {
		sel.Audit = make([]float64, len(sel.Index))
		copy(sel.Audit, prevAudit)
		for i := range audit {
			sel.Audit[len(sel.Index)-len(audit)+i] = float64(n-len(start)) / float64(len(audit))
		}
	}
	return sel, nil
}

// drawAudit draws a rows uniformly, without replacement, from the n rows
// not in start (the labeled rows of prev), and returns them with the audit
// weights of start's rows (nil when prev has none).
func drawAudit(prev *Selection, start []int, n, a int, seed uint64) (audit []int, prevAudit []float64) {
	if prev != nil && prev.Audit != nil {
		w := make(map[int]float64, len(prev.Index))
		for i, j := range prev.Index {
			w[j] = max(w[j], prev.Audit[i])
		}
		prevAudit = make([]float64, len(start))
		for i, j := range start {
			prevAudit[i] = w[j]
		}
	}
	if a == 0 {
		return nil, prevAudit
	}
	taken := make([]bool, n)
	for _, j := range start {
		taken[j] = true
	}
	free := make([]int, 0, n-len(start))
	for i := range n {
		if !taken[i] {
			free = append(free, i)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x6175646974+uint64(len(start))))
	for i := 0; i < a; i++ {
		k := i + rng.IntN(len(free)-i)
		free[i], free[k] = free[k], free[i]
	}
	audit = free[:a]
	slices.Sort(audit)
	return audit, prevAudit
}

// features returns the pool's features under b, and the kernel whose
// feature-space distances the distance methods measure on them (nil: the
// Euclidean distance between the features). The distance methods measure a
// radial kernel's (Gaussian, Laplacian, Matérn, Manhattan) exactly, from
// the pool's columns multiplied by its column scales (distanceGreedy);
// every other method, and any other kernel, takes Nyström features.
func (b BatchSelector) features(ctx context.Context, pool *mat.Dense, seed uint64, method string) (*mat.Dense, Kernel, error) {
	if b.Features != nil {
		phi, err := mapFeatures(b.Features, pool, 0)
		return phi, nil, err
	}
	n, d := pool.Dims()
	k := b.Kernel
	if k == nil {
		k = GaussianKernel{Sigma: MedianDistance(pool)}
	}
	m := b.M
	if m == 0 {
		m = min(DefaultBatchM, n)
	}
	if m < 0 || m > n {
		return nil, nil, &ParamError{Name: "BatchSelector.M", Value: m, Want: fmt.Sprintf("1 to %d, the pool's rows (Nyström centers)", n)}
	}
	if s, radial := kernelScales(k); radial && (method == MethodMaxDist || method == MethodKMeansPP || method == MethodLCMD) {
		if err := checkKernel(k); err != nil {
			return nil, nil, err
		}
		if err := checkKernelCols(k, d); err != nil {
			return nil, nil, err
		}
		if s == nil {
			return pool, k, nil
		}
		if err := checkAllocHint("batch selection columns times the kernel's scales (N x d)", n, d, "fewer pool rows"); err != nil {
			return nil, nil, err
		}
		return scaleColumns(pool, s), withScales(k, nil), nil
	}
	if err := checkAllocHint("batch selection features (N x m)", n, m, nystromHint(m)); err != nil {
		return nil, nil, err
	}
	idx, err := nystromCenters(ctx, pool, m, UniformCenters{}, seed)
	if err != nil {
		return nil, nil, err
	}
	ny, err := NewNystrom(k, pool, idx, 0)
	if err != nil {
		return nil, nil, err
	}
	phi, err := ny.Features(pool)
	return phi, nil, err
}

// labeledStart returns the distinct labeled rows of prev in order with
// their batch numbers, and checks that budget more distinct rows remain.
func labeledStart(prev *Selection, n, budget int) (start, batch []int, err error) {
	if err := checkPrevious(prev, n, false); err != nil {
		return nil, nil, err
	}
	if prev != nil {
		seen := make([]bool, n)
		pb := prevBatch(prev)
		for i, j := range prev.Index {
			if !seen[j] {
				seen[j] = true
				start = append(start, j)
				batch = append(batch, pb[i])
			}
		}
	}
	if left := n - len(start); budget > left {
		return nil, nil, &ParamError{Name: "budget", Value: budget, Want: fmt.Sprintf("at most the %d rows not yet labeled (the batch is of distinct rows)", left)}
	}
	return start, batch, nil
}

// batchSelection assembles the Selection of the labeled rows start and the
// new rows idx, with weights and probabilities 1.
func batchSelection(prev *Selection, start, startBatch, idx []int) *Selection {
	sel := &Selection{Index: idx}
	if len(start) > 0 {
		sel.Batch = startBatch
		b := prevBatches(prev)
		for range idx {
			sel.Batch = append(sel.Batch, b)
		}
		sel.Index = append(append([]int(nil), start...), idx...)
	}
	sel.Prob = make([]float64, len(sel.Index))
	sel.Weight = make([]float64, len(sel.Index))
	for i := range sel.Index {
		sel.Prob[i], sel.Weight[i] = 1, 1
	}
	return sel
}

// posteriorGreedy runs MaxDiag, MaxDet or BAIT on the features phi (N x m).
// With Sigma = (I + Phi_S^T Phi_S/noise)^-1 = R^-1 R^-T, psi_i = R^-T phi_i
// has identity prior; the batch then updates S (m x m, starting at I) by
// S <- S - u u^T/c with u = S psi_j and c = noise + d_j, and the posterior
// variances d_i = psi_i^T S psi_i by d_i -= (psi_i.u)^2/c. BAIT's score is
// psi_i^T S G S psi_i / (d_i + noise), G = Psi^T Psi over the pool, updated
// by the rank-two change of S G S; its forward pass takes 2 budget rows (at
// most the unlabeled ones) and baitBackward keeps budget of them. Each
// forward step costs O(N m + m^2).
func posteriorGreedy(ctx context.Context, phi *mat.Dense, start []int, budget int, noise float64, method string) ([]int, error) {
	n, m := phi.Dims()
	psi := mat.DenseCopyOf(phi)
	if len(start) > 0 {
		a := mat.NewDense(m, m, nil)
		fl := gatherRows(phi, start)
		blas64.Syrk(blas.Trans, 1/noise, fl.RawMatrix(), 0, blas64.Symmetric{N: m, Stride: m, Data: a.RawMatrix().Data, Uplo: blas.Upper})
		ar := a.RawMatrix()
		for i := 0; i < m; i++ {
			ar.Data[i*m+i]++
		}
		if _, ok := lapack64.Potrf(blas64.Symmetric{N: m, Stride: m, Data: ar.Data, Uplo: blas.Upper}); !ok {
			return nil, &NumericalError{Method: "batch selection", Op: "the posterior precision is not positive definite"}
		}
		// Psi = Phi R^-1, so that psi_i^T psi_i = phi_i^T Sigma phi_i.
		blas64.Trsm(blas.Right, blas.NoTrans, 1, blas64.Triangular{N: m, Stride: m, Data: ar.Data, Uplo: blas.Upper, Diag: blas.NonUnit}, psi.RawMatrix())
	}
	pr := psi.RawMatrix()
	row := func(i int) []float64 { return pr.Data[i*pr.Stride : i*pr.Stride+m] }
	d := make([]float64, n)
	parallel.Chunks(n, 4096, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d[i] = vecmath.Dot(row(i), row(i))
		}
	})
	chosen := make([]bool, n)
	for _, j := range start {
		chosen[j] = true
	}
	argmax := func(score func(i int) float64) int {
		best, bv := -1, math.Inf(-1)
		for i := 0; i < n; i++ {
			if v := score(i); !chosen[i] && v > bv {
				best, bv = i, v
			}
		}
		return best
	}
	var idx []int
	if method == MethodMaxDiag {
		for len(idx) < budget {
			j := argmax(func(i int) float64 { return d[i] })
			chosen[j] = true
			idx = append(idx, j)
		}
		return idx, nil
	}
	s := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		s.Set(i, i, 1)
	}
	var g *mat.Dense
	var q []float64
	if method == MethodBAIT {
		g = mat.NewDense(m, m, nil)
		g.Mul(psi.T(), psi)
		pg := mat.NewDense(n, m, nil)
		pg.Mul(psi, g)
		q = make([]float64, n)
		pgr := pg.RawMatrix()
		parallel.Chunks(n, 4096, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				q[i] = vecmath.Dot(row(i), pgr.Data[i*pgr.Stride:i*pgr.Stride+m])
			}
		})
	}
	u, w, gu := make([]float64, m), make([]float64, m), make([]float64, m)
	t := make([]float64, n)
	sv := blas64.General{Rows: m, Cols: m, Stride: m, Data: s.RawMatrix().Data}
	forward := budget
	if method == MethodBAIT { // BAIT's forward pass takes twice the batch
		forward = min(2*budget, n-len(start))
	}
	for len(idx) < forward {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var j int
		if method == MethodBAIT {
			j = argmax(func(i int) float64 { return q[i] / (d[i] + noise) })
		} else {
			j = argmax(func(i int) float64 { return d[i] })
		}
		chosen[j] = true
		idx = append(idx, j)
		c := noise + max(d[j], 0)
		blas64.Gemv(blas.NoTrans, 1, sv, blas64.Vector{N: m, Inc: 1, Data: row(j)}, 0, blas64.Vector{N: m, Inc: 1, Data: u})
		if method == MethodBAIT {
			// w = S G u, ugu = u^T G u; one pass over the rows for
			// t_i = psi_i.u and psi_i.w.
			blas64.Gemv(blas.NoTrans, 1, g.RawMatrix(), blas64.Vector{N: m, Inc: 1, Data: u}, 0, blas64.Vector{N: m, Inc: 1, Data: gu})
			blas64.Gemv(blas.NoTrans, 1, sv, blas64.Vector{N: m, Inc: 1, Data: gu}, 0, blas64.Vector{N: m, Inc: 1, Data: w})
			ugu := vecmath.Dot(u, gu)
			parallel.Chunks(n, 2048, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					ti, twi := vecmath.Dot(row(i), u), vecmath.Dot(row(i), w)
					q[i] += (ugu*ti/c - 2*twi) * ti / c
					d[i] -= ti * ti / c
				}
			})
		} else {
			parallel.Chunks(n, 2048, func(lo, hi int) {
				blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: hi - lo, Cols: m, Stride: pr.Stride, Data: pr.Data[lo*pr.Stride:]},
					blas64.Vector{N: m, Inc: 1, Data: u}, 0, blas64.Vector{N: hi - lo, Inc: 1, Data: t[lo:hi]})
			})
			for i := range d {
				d[i] -= t[i] * t[i] / c
			}
		}
		blas64.Ger(-1/c, blas64.Vector{N: m, Inc: 1, Data: u}, blas64.Vector{N: m, Inc: 1, Data: u}, sv)
	}
	if method == MethodBAIT {
		return baitBackward(ctx, psi, g, idx, budget, noise)
	}
	return idx, nil
}

// baitBackward is BAIT's backward pass: from the forward pass's k rows
// idx it removes, one at a time, the row whose removal least increases
// the pool's summed posterior variance tr(S G), until budget rows remain.
// It works in the kernel space of the kept rows, where no difference of
// nearly equal numbers arises at small noise: with C = Psi_K Psi_K^T +
// noise I, W = C^-1 and H = Psi_K G Psi_K^T, tr(S G) = tr(G) - tr(W H),
// and removing row j raises it by (W H W)_jj / W_jj. A removal updates
// W <- W - W_.j W_j. / W_jj and Z = W H <- Z - W_.j Z_j. / W_jj on the kept
// rows, O(k^2); setting up costs O(k^2 m + k m^2 + k^3).
func baitBackward(ctx context.Context, psi, g *mat.Dense, idx []int, budget int, noise float64) ([]int, error) {
	k := len(idx)
	if k <= budget {
		return idx, nil
	}
	pk := gatherRows(psi, idx)
	w := mat.NewDense(k, k, nil)
	wr := w.RawMatrix()
	blas64.Syrk(blas.NoTrans, 1, pk.RawMatrix(), 0, blas64.Symmetric{N: k, Stride: k, Data: wr.Data, Uplo: blas.Upper})
	for i := 0; i < k; i++ {
		wr.Data[i*k+i] += noise
	}
	sym := blas64.Symmetric{N: k, Stride: k, Data: wr.Data, Uplo: blas.Upper}
	if t, ok := lapack64.Potrf(sym); !ok {
		return nil, &NumericalError{Method: "batch selection", Op: "BAIT's backward pass: the chosen rows' kernel matrix is not positive definite"}
	} else if _, ok := lapack64.Potri(t); !ok {
		return nil, &NumericalError{Method: "batch selection", Op: "BAIT's backward pass: inverting the chosen rows' kernel matrix"}
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			wr.Data[j*k+i] = wr.Data[i*k+j]
		}
	}
	var pg, h, z mat.Dense
	pg.Mul(pk, g)
	h.Mul(&pg, pk.T())
	z.Mul(w, &h)
	zr := z.RawMatrix()
	alive := make([]bool, k)
	for i := range alive {
		alive[i] = true
	}
	for left := k; left > budget; left-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		best, bv := -1, math.Inf(1)
		for i := 0; i < k; i++ {
			if !alive[i] {
				continue
			}
			mii := 0.0 // (Z W)_ii over the kept rows
			for l := 0; l < k; l++ {
				if alive[l] {
					mii += zr.Data[i*k+l] * wr.Data[l*k+i]
				}
			}
			if v := mii / wr.Data[i*k+i]; v < bv {
				best, bv = i, v
			}
		}
		j := best
		alive[j] = false
		wjj := wr.Data[j*k+j]
		for r := 0; r < k; r++ {
			if !alive[r] {
				continue
			}
			a := wr.Data[r*k+j] / wjj
			wrow, zrow := wr.Data[r*k:r*k+k], zr.Data[r*k:r*k+k]
			wj, zj := wr.Data[j*k:j*k+k], zr.Data[j*k:j*k+k]
			for l := 0; l < k; l++ {
				if alive[l] {
					wrow[l] -= a * wj[l]
					zrow[l] -= a * zj[l]
				}
			}
		}
	}
	kept := make([]int, 0, budget)
	for i, j := range idx {
		if alive[i] {
			kept = append(kept, j)
		}
	}
	return kept, nil
}

// distanceGreedy runs MaxDist, KMeansPP or LCMD on the features phi with
// the labeled rows start as the first centers. The squared distance is
// metric's, sqDist below. With no labeled rows the first center is the row
// nearest the features' mean (MaxDist, LCMD) or a uniformly drawn row
// (KMeansPP).
func distanceGreedy(ctx context.Context, phi *mat.Dense, metric Kernel, start []int, budget int, method string, seed uint64) ([]int, error) {
	n, m := phi.Dims()
	pr := phi.RawMatrix()
	row := func(i int) []float64 { return pr.Data[i*pr.Stride : i*pr.Stride+m] }
	dist := sqDist(metric)
	minD := make([]float64, n)
	owner := make([]int, n) // index of the nearest center, in center order
	chosen := make([]bool, n)
	for i := range minD {
		minD[i] = math.Inf(1)
	}
	centers := 0
	centerRows := append(make([]int, 0, len(start)+budget), start...)
	if len(start) > 0 {
		if metric == nil {
			nearestOf(phi, start, minD, owner)
		} else {
			nearestKernel(phi, gatherRows(phi, start), metric, minD, owner)
		}
		for _, j := range start {
			chosen[j] = true
		}
		centers = len(start)
	}
	// add makes row c a center. By the triangle inequality a row i whose
	// own center o is at ||c - o||^2 > 4 minD_i from c cannot be nearer to
	// c, so only the other rows are measured.
	cd := make([]float64, 0, len(start)+budget)
	add := func(c int) {
		xc := row(c)
		k := centers
		cd = cd[:k]
		for o, r := range centerRows {
			cd[o] = dist(row(r), xc)
		}
		parallel.Chunks(n, 4096, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if k > 0 && cd[owner[i]] > 4.000001*minD[i] {
					continue
				}
				if v := dist(row(i), xc); v < minD[i] {
					minD[i], owner[i] = v, k
				}
			}
		})
		centers++
		centerRows = append(centerRows, c)
		chosen[c] = true
	}
	rng := rand.New(rand.NewPCG(seed, 0x6b6d7070))
	var idx []int
	if centers == 0 {
		var first int
		if method == MethodKMeansPP {
			first = rng.IntN(n)
		} else {
			mean := make([]float64, m)
			for i := 0; i < n; i++ {
				for k, v := range row(i) {
					mean[k] += v
				}
			}
			for k := range mean {
				mean[k] /= float64(n)
			}
			bd := math.Inf(1)
			for i := 0; i < n; i++ {
				if v := dist(row(i), mean); v < bd {
					first, bd = i, v
				}
			}
		}
		idx = append(idx, first)
		add(first)
	}
	for len(idx) < budget {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		best := -1
		switch method {
		case MethodMaxDist:
			bv := -1.0
			for i, v := range minD {
				if !chosen[i] && v > bv {
					best, bv = i, v
				}
			}
		case MethodKMeansPP:
			total := 0.0
			for i, v := range minD {
				if !chosen[i] {
					total += v
				}
			}
			if total > 0 {
				r := rng.Float64() * total
				for i, v := range minD {
					if chosen[i] || v <= 0 {
						continue
					}
					best = i
					if r -= v; r < 0 {
						break
					}
				}
			}
		case MethodLCMD:
			size := make([]float64, centers)
			for i, v := range minD {
				size[owner[i]] += v
			}
			big := 0
			for k, v := range size {
				if v > size[big] {
					big = k
				}
			}
			bv := -1.0
			for i, v := range minD {
				if !chosen[i] && owner[i] == big && v > bv {
					best, bv = i, v
				}
			}
		}
		if best < 0 { // every remaining row coincides with a center
			for i := range chosen {
				if !chosen[i] {
					best = i
					break
				}
			}
		}
		idx = append(idx, best)
		add(best)
	}
	return idx, nil
}

// nearestOf sets minD and owner to each row's squared distance to, and
// position in centers of, its nearest row among centers, by blocked
// products: ||a-b||^2 = ||a||^2 + ||b||^2 - 2 a.b (ties to the first).
func nearestOf(phi *mat.Dense, centers []int, minD []float64, owner []int) {
	nearestRows(phi, gatherRows(phi, centers), minD, owner)
}

// nearestRows is nearestOf with the centers given as the rows of fc: where
// minD[i] is larger, it sets minD[i] and owner[i] to row i's squared
// distance to its nearest row of fc and that row's index.
func nearestRows(phi, fc *mat.Dense, minD []float64, owner []int) {
	n, m := phi.Dims()
	centers, _ := fc.Dims()
	pr, cr := phi.RawMatrix(), fc.RawMatrix()
	cn := make([]float64, centers)
	for k := range cn {
		r := cr.Data[k*cr.Stride : k*cr.Stride+m]
		cn[k] = vecmath.Dot(r, r)
	}
	const blk = 256
	parallel.Chunks(n, blk, func(lo, hi int) {
		g := make([]float64, (hi-lo)*centers)
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, blas64.General{Rows: hi - lo, Cols: m, Stride: pr.Stride, Data: pr.Data[lo*pr.Stride:]},
			cr, 0, blas64.General{Rows: hi - lo, Cols: centers, Stride: centers, Data: g})
		for i := lo; i < hi; i++ {
			r := pr.Data[i*pr.Stride : i*pr.Stride+m]
			ni := vecmath.Dot(r, r)
			gi := g[(i-lo)*centers : (i-lo+1)*centers]
			for k, v := range gi {
				if dv := max(ni+cn[k]-2*v, 0); dv < minD[i] {
					minD[i], owner[i] = dv, k
				}
			}
		}
	})
}

// sqDist returns the squared distance of the distance methods between two
// feature rows: for a radial kernel without column scales (k(a, a) = 1),
// that of its feature space, ||phi(a) - phi(b)||^2 = 2 (1 - k(a, b)): the
// limit of Nyström features as their centers grow to the pool, at O(d) a
// pair instead of O(m); for a nil metric ||a - b||^2. Either is a metric's
// square, so the triangle inequality of distanceGreedy's add holds.
func sqDist(metric Kernel) func(a, b []float64) float64 {
	switch k := metric.(type) {
	case distKernel:
		return func(a, b []float64) float64 { return 2 * (1 - k.fromSqDist(vecmath.SqDist(a, b))) }
	case l1Kernel:
		return func(a, b []float64) float64 { return 2 * (1 - k.fromL1Dist(scaledL1Dist(a, b, nil))) }
	}
	return vecmath.SqDist
}

// nearestKernel is nearestRows in the feature space of the radial kernel
// k (sqDist): where minD[i] is larger, it sets minD[i] and owner[i] to row
// i's squared feature distance 2 (1 - k) to its nearest row of fc and that
// row's index, from blocks of K(phi, fc). Cost O(N L d) for L rows of fc.
func nearestKernel(phi, fc *mat.Dense, k Kernel, minD []float64, owner []int) {
	n, _ := phi.Dims()
	centers, _ := fc.Dims()
	const blk = 256
	g := mat.NewDense(min(blk, n), centers, nil)
	for lo := 0; lo < n; lo += blk {
		hi := min(lo+blk, n)
		gb := g.Slice(0, hi-lo, 0, centers).(*mat.Dense)
		kernelBlock(gb, k, phi.Slice(lo, hi, 0, phi.RawMatrix().Cols).(*mat.Dense), fc, nil, nil)
		for i := lo; i < hi; i++ {
			for c, v := range gb.RawRowView(i - lo) {
				if dv := max(2*(1-v), 0); dv < minD[i] {
					minD[i], owner[i] = dv, c
				}
			}
		}
	}
}

// herding runs kernel herding on the features phi: with mu the pool's mean
// feature and c the sum of the t labeled and chosen rows' features, the
// next row maximises phi_i.(mu - c/(t+1)). Each step costs O(N m).
func herding(ctx context.Context, phi *mat.Dense, start []int, budget int) ([]int, error) {
	n, m := phi.Dims()
	pr := phi.RawMatrix()
	row := func(i int) []float64 { return pr.Data[i*pr.Stride : i*pr.Stride+m] }
	mu, c, v := make([]float64, m), make([]float64, m), make([]float64, m)
	for i := 0; i < n; i++ {
		for k, x := range row(i) {
			mu[k] += x
		}
	}
	for k := range mu {
		mu[k] /= float64(n)
	}
	chosen := make([]bool, n)
	for _, j := range start {
		chosen[j] = true
		for k, x := range row(j) {
			c[k] += x
		}
	}
	t := len(start)
	score := make([]float64, n)
	var idx []int
	for len(idx) < budget {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for k := range v {
			v[k] = mu[k] - c[k]/float64(t+1)
		}
		parallel.Chunks(n, 2048, func(lo, hi int) {
			blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: hi - lo, Cols: m, Stride: pr.Stride, Data: pr.Data[lo*pr.Stride:]},
				blas64.Vector{N: m, Inc: 1, Data: v}, 0, blas64.Vector{N: hi - lo, Inc: 1, Data: score[lo:hi]})
		})
		best, bv := -1, math.Inf(-1)
		for i, s := range score {
			if !chosen[i] && s > bv {
				best, bv = i, s
			}
		}
		chosen[best] = true
		idx = append(idx, best)
		for k, x := range row(best) {
			c[k] += x
		}
		t++
	}
	return idx, nil
}
