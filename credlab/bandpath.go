package credlab

import (
	"github.com/credlab/credlab/internal/parallel"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// bandWidth is the number of subdiagonals of bandPath's B and the width of
// its panels, the inner dimension of the reduction's matrix products.
// Wider bands make the products faster and each lambda's band solve,
// O(p w^2), slower.
const bandWidth = 32

// symmBlock is the block of rows in which symmLower multiplies.
const symmBlock = 256

// bandPath is the regularization path of (G + mu I) z = b through one
// reduction of G to a symmetric band matrix with w = bandWidth
// subdiagonals, G = Q B Q^T: the first stage of a two-stage tridiagonal
// reduction (LAPACK's dsytrd_sy2sb). Panel j (columns j:j+w) is reduced by
// a QR factorization of its part below the band, Q_j = I - V T V^T, and
// the trailing matrix A updated on both sides,
//
//	A <- Q_j^T A Q_j = A - V X^T - X V^T,  X = A V T - 1/2 V (T^T V^T A V T),
//
// in O(4/3 p^3) flops, all of them matrix products (a symmetric product and
// a rank-2k update per panel), where the tridiagonal reduction (ridgePath)
// spends half of the same count in memory-bound matrix-vector products.
// Each mu then costs one band Cholesky factorization and solve, O(p w^2).
// It computes no eigenvalues: the cross-validation folds, which need only
// the solves, use it.
type bandPath struct {
	p, w int
	a    []float64 // p x p (G's storage): panel j's reflectors V in rows j+w:p, columns j:j+w
	t    []float64 // the panels' triangular factors T, w x w each
	band []float64 // B's lower band, row i holding B[i][i-w:i+1] at [i*(w+1):]
	qb   []float64 // Q^T b
}

// reduceBand reduces the symmetric p x p matrix a (stride p; only its
// lower triangle is read), which it overwrites and keeps, to band form,
// and computes Q^T b.
func reduceBand(a []float64, p int, b []float64) *bandPath {
	w := min(bandWidth, max(p-1, 0))
	bp := &bandPath{p: p, w: w, a: a}
	impl := gonum.Implementation{}
	bi := blas64.Implementation()
	var tau, work []float64
	if w > 0 {
		tau = make([]float64, w)
		work = []float64{0}
		impl.Dgelqf(w, p, a, p, tau, work, -1)
		work = make([]float64, int(work[0]))
	}
	// pt holds a panel transposed (ib x k), v its V, x X (k x ib each,
	// stride w), s the ib x ib T^T V^T A V T.
	pt := make([]float64, max(p-w, 0)*w)
	v := make([]float64, len(pt))
	x := make([]float64, len(pt))
	s := make([]float64, w*w)
	// Only the lower triangle of the trailing matrix is updated.
	for j := 0; p-j-w > 1; j += w {
		k := p - j - w
		ib := min(w, k)
		panel := a[(j+w)*p+j:]
		// The QR factorization of the k x w panel is the LQ factorization
		// of its transpose, whose reflectors lie along contiguous rows.
		for r := 0; r < k; r++ {
			for c, e := range panel[r*p : r*p+w] {
				pt[c*k+r] = e
			}
		}
		impl.Dgelqf(w, k, pt, k, tau[:ib], work, len(work))
		tj := make([]float64, w*w)
		impl.Dlarft(lapack.Forward, lapack.RowWise, k, ib, pt, k, tau[:ib], tj, w)
		bp.t = append(bp.t, tj...)
		// Back into the panel: R on and above its diagonal (B's
		// subdiagonal block), the reflectors below, as Dgeqrf leaves them.
		for r := 0; r < k; r++ {
			row, vr := panel[r*p:r*p+w], v[r*w:r*w+ib]
			for c := range row {
				row[c] = pt[c*k+r]
			}
			copy(vr, row[:ib])
			if r < ib {
				clear(vr[r+1:])
				vr[r] = 1
			}
		}
		a22 := a[(j+w)*p+j+w:]
		symmLower(k, ib, a22, p, v, w, x, w)
		bi.Dtrmm(blas.Right, blas.Upper, blas.NoTrans, blas.NonUnit, k, ib, 1, tj, w, x, w)
		bi.Dgemm(blas.Trans, blas.NoTrans, ib, ib, k, 1, v, w, x, w, 0, s, ib)
		bi.Dtrmm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, ib, ib, 1, tj, w, s, ib)
		bi.Dgemm(blas.NoTrans, blas.NoTrans, k, ib, ib, -0.5, v, w, s, ib, 1, x, w)
		bi.Dsyr2k(blas.Lower, blas.NoTrans, k, ib, -1, v, w, x, w, 1, a22, p)
	}
	bp.band = make([]float64, p*(w+1))
	for i := 0; i < p; i++ {
		lo := max(0, i-w)
		copy(bp.band[i*(w+1)+w-(i-lo):(i+1)*(w+1)], a[i*p+lo:i*p+i+1])
	}
	bp.qb = append([]float64(nil), b...)
	bp.applyQ(blas.Trans, blas64.General{Rows: p, Cols: 1, Stride: 1, Data: bp.qb})
	return bp
}

// symmLower sets c = A v for the symmetric k x k matrix A of which only
// the lower triangle is read, v and c k x ib: per block of symmBlock rows
// I, c_I = A[I, :I+] v[:I+] + A[below I, I]^T v[below I], two matrix
// products on the lower triangle, after the block's diagonal part is
// mirrored into its upper triangle. O(2 k^2 ib); the blocks run on up to
// GOMAXPROCS goroutines (each block's sums in a fixed order whatever their
// number).
func symmLower(k, ib int, a []float64, lda int, v []float64, ldv int, c []float64, ldc int) {
	bi := blas64.Implementation()
	parallel.Chunks(k, symmBlock, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := lo; j < i; j++ {
				a[j*lda+i] = a[i*lda+j]
			}
		}
		bi.Dgemm(blas.NoTrans, blas.NoTrans, hi-lo, ib, hi, 1, a[lo*lda:], lda, v, ldv, 0, c[lo*ldc:], ldc)
		if hi < k {
			bi.Dgemm(blas.Trans, blas.NoTrans, hi-lo, ib, k-hi, 1, a[hi*lda+lo:], lda, v[hi*ldv:], ldv, 1, c[lo*ldc:], ldc)
		}
	})
}

// panels returns the number of reduced panels.
func (bp *bandPath) panels() int { return len(bp.t) / max(bp.w*bp.w, 1) }

// applyQ sets z = Q z (NoTrans) or Q^T z (Trans) for a p x L matrix z,
// O(2 L p^2) (Dlarfb, one block reflector per panel).
func (bp *bandPath) applyQ(trans blas.Transpose, z blas64.General) {
	np := bp.panels()
	if np == 0 || z.Cols == 0 {
		return
	}
	impl := gonum.Implementation{}
	p, w := bp.p, bp.w
	work := make([]float64, z.Cols*w)
	for i := range np {
		jp := i // Q^T = Q_np^T ... Q_1^T: panel 1 first
		if trans == blas.NoTrans {
			jp = np - 1 - i // Q = Q_1 ... Q_np: the last panel first
		}
		j := jp * w
		k := p - j - w
		ib := min(w, k)
		impl.Dlarfb(blas.Left, trans, lapack.Forward, lapack.ColumnWise, k, z.Cols, ib,
			bp.a[(j+w)*p+j:], p, bp.t[jp*w*w:], w, z.Data[(j+w)*z.Stride:], z.Stride, work, ib)
	}
}

// lanes is the number of shifts one band factorization carries at once.
const lanes = 4

// solvePath sets column i of the p x L matrix zh to (B + mu_i I)^-1 Q^T b
// for every mu_i, by band Cholesky factorizations, O(p w^2) each, and
// ok[i] to whether B + mu_i I was numerically positive definite. The
// shifts go lanes at a time through solveLanes, the groups on up to
// GOMAXPROCS goroutines; each shift's arithmetic is its own, so the
// result depends neither on their number nor on the grouping.
func (bp *bandPath) solvePath(mus []float64, zh blas64.General, ok []bool) {
	parallel.Chunks(len(mus), lanes, func(lo, hi int) {
		fac := make([]float64, len(bp.band)*lanes)
		z := make([]float64, bp.p*lanes)
		var mu [lanes]float64
		for q := range mu {
			mu[q] = mus[min(lo+q, hi-1)] // a short group repeats its last shift
		}
		good := bp.solveLanes(mu, fac, z)
		for i := lo; i < hi; i++ {
			q := i - lo
			if ok[i] = good[q]; ok[i] {
				for j := 0; j < bp.p; j++ {
					zh.Data[j*zh.Stride+i] = z[j*lanes+q]
				}
			}
		}
	})
}

// solveLanes solves (B + mu_q I) z_q = Q^T b for the lanes shifts at once,
// z_q in z[j*lanes+q], each lane's band Cholesky factor in fac (B's band
// layout, lane q of entry e at fac[e*lanes+q]), and reports which lanes
// were positive definite. Row by row,
//
//	L[i][j] = (B[i][j] + mu [i = j] - L[i][:j] . L[j][:j]) / L[j][j],
//
// every dot product over the band, then the two triangular solves: the
// lanes' independent sums keep the short loops off the latency of one
// chain of additions.
func (bp *bandPath) solveLanes(mu [lanes]float64, fac, z []float64) [lanes]bool {
	p, w := bp.p, bp.w
	ld := w + 1
	for e, v := range bp.band {
		for q := range lanes {
			fac[e*lanes+q] = v
		}
	}
	var ok [lanes]bool
	for q := range ok {
		ok[q] = true
	}
	for i := 0; i < p; i++ {
		lo := max(0, i-w)
		ri := fac[i*ld*lanes : (i+1)*ld*lanes] // lane q of L[i][m] at ri[(w-i+m)*lanes+q]
		for j := lo; j <= i; j++ {
			rj := fac[j*ld*lanes : (j+1)*ld*lanes]
			d := dotLanes(ri[(w-i+lo)*lanes:(w-i+j)*lanes], rj[(w-j+lo)*lanes:w*lanes])
			out := ri[(w-i+j)*lanes : (w-i+j+1)*lanes]
			s := [lanes]float64{out[0] - d[0], out[1] - d[1], out[2] - d[2], out[3] - d[3]}
			if j < i {
				l := rj[w*lanes : (w+1)*lanes]
				for q := range lanes {
					out[q] = s[q] / l[q]
				}
				continue
			}
			for q := range lanes {
				s[q] += mu[q]
				if !(s[q] > 0) {
					ok[q], s[q] = false, 1 // the lane is lost; its arithmetic goes on harmlessly
				}
				out[q] = math.Sqrt(s[q])
			}
		}
	}
	for j, v := range bp.qb {
		for q := range lanes {
			z[j*lanes+q] = v
		}
	}
	for i := 0; i < p; i++ { // L y = Q^T b
		lo := max(0, i-w)
		ri := fac[i*ld*lanes : (i+1)*ld*lanes]
		s := dotLanes(ri[(w-i+lo)*lanes:w*lanes], z[lo*lanes:i*lanes])
		zi, d := z[i*lanes:(i+1)*lanes], ri[w*lanes:(w+1)*lanes]
		zi[0], zi[1], zi[2], zi[3] = (zi[0]-s[0])/d[0], (zi[1]-s[1])/d[1], (zi[2]-s[2])/d[2], (zi[3]-s[3])/d[3]
	}
	for i := p - 1; i >= 0; i-- { // L^T z = y
		lo := max(0, i-w)
		ri := fac[i*ld*lanes : (i+1)*ld*lanes]
		zi, d := z[i*lanes:(i+1)*lanes], ri[w*lanes:(w+1)*lanes]
		zi[0], zi[1], zi[2], zi[3] = zi[0]/d[0], zi[1]/d[1], zi[2]/d[2], zi[3]/d[3]
		a := ri[(w-i+lo)*lanes : w*lanes]
		b := z[lo*lanes : i*lanes]
		for len(a) >= lanes && len(b) >= lanes {
			b[0] -= a[0] * zi[0]
			b[1] -= a[1] * zi[1]
			b[2] -= a[2] * zi[2]
			b[3] -= a[3] * zi[3]
			a, b = a[lanes:], b[lanes:]
		}
	}
	for q := range lanes {
		for j := 0; j < p && ok[q]; j++ {
			ok[q] = !math.IsNaN(z[j*lanes+q]) && !math.IsInf(z[j*lanes+q], 0)
		}
	}
	return ok
}

// dotLanes returns the lanes dot products of two interleaved blocks,
// sum_m a[m*lanes+q] b[m*lanes+q] for each lane q.
func dotLanes(a, b []float64) [lanes]float64 {
	var s0, s1, s2, s3 float64 // locals, which stay in registers
	for len(a) >= lanes && len(b) >= lanes {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		a, b = a[lanes:], b[lanes:]
	}
	return [lanes]float64{s0, s1, s2, s3}
}
