package credlab

import (
	"math"

	"github.com/credlab/credlab/internal/parallel"
	"github.com/credlab/credlab/internal/vecmath"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// KernelMatrix returns the n x m matrix K(X, Y)_ij = k(x_i, y_j). With y nil
// it returns the symmetric K(X, X), with an exactly symmetric result and
// diagonal k(x_i, x_i).
//
// Built-in kernels cost one matrix multiply, O(n m d) time, plus O(n m)
// element-wise work on all cores (the Manhattan kernel O(n m d) of
// element-wise work, without a multiply); memory is the O(n m) result. An error is
// returned if the result would exceed MemoryLimit.
func KernelMatrix(k Kernel, x, y *mat.Dense) (*mat.Dense, error) {
	if err := checkKernel(k); err != nil {
		return nil, err
	}
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	if err := checkKernelCols(k, x.RawMatrix().Cols); err != nil {
		return nil, err
	}
	if y != nil {
		if err := CheckMatrix(y, "y"); err != nil {
			return nil, err
		}
		if _, dy := y.Dims(); dy != x.RawMatrix().Cols {
			return nil, shapef("x has %d columns, y has %d", x.RawMatrix().Cols, dy)
		}
	}
	n, _ := x.Dims()
	m := n
	if y != nil {
		m, _ = y.Dims()
	}
	if err := checkAlloc("kernel matrix", n, m); err != nil {
		return nil, err
	}
	dst := mat.NewDense(n, m, nil)
	if y == nil {
		kernelSym(dst, k, x)
	} else {
		kernelBlock(dst, k, x, y, nil, nil)
	}
	return dst, nil
}

// rowSqNorms returns ||x_i||^2 for each row.
func rowSqNorms(x *mat.Dense) []float64 {
	raw := x.RawMatrix()
	out := make([]float64, raw.Rows)
	for i := range out {
		r := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		out[i] = vecmath.Dot(r, r)
	}
	return out
}

// scaleColumns returns a copy of x with column j multiplied by s[j].
// O(n d).
func scaleColumns(x *mat.Dense, s []float64) *mat.Dense {
	n, d := x.Dims()
	out := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		src, dst := x.RawRowView(i), out.RawRowView(i)
		for j, v := range src {
			dst[j] = v * s[j]
		}
	}
	return out
}

// kernelBlock fills dst (rows of x by rows of y) with K(X, Y). xsq and ysq
// are the rows' squared norms, computed when nil (and ignored for a kernel
// with column scales, which scales copies of x and y first).
func kernelBlock(dst *mat.Dense, k Kernel, x, y *mat.Dense, xsq, ysq []float64) {
	d := dst.RawMatrix()
	switch kk := k.(type) {
	case distKernel:
		if s := kk.columnScales(); s != nil {
			x, y, xsq, ysq = scaleColumns(x, s), scaleColumns(y, s), nil, nil
		}
		if xsq == nil {
			xsq = rowSqNorms(x)
		}
		if ysq == nil {
			ysq = rowSqNorms(y)
		}
		xr, yr := x.RawMatrix(), y.RawMatrix()
		blas64.Gemm(blas.NoTrans, blas.Trans, -2, xr, yr, 0, d)
		parallel.Rows(d.Rows, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				row := d.Data[i*d.Stride : i*d.Stride+d.Cols]
				for j, v := range row {
					row[j] = gramSqDist(v+xsq[i]+ysq[j], xsq[i]+ysq[j], xr, yr, i, j)
				}
				fromSqDistRow(kk, row)
			}
		})
	case l1Kernel:
		if s := kk.columnScales(); s != nil {
			x, y = scaleColumns(x, s), scaleColumns(y, s)
		}
		xr, yr := x.RawMatrix(), y.RawMatrix()
		parallel.Rows(d.Rows, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				l1DistRow(d.Data[i*d.Stride:i*d.Stride+d.Cols], xr.Data[i*xr.Stride:i*xr.Stride+xr.Cols], yr)
				fromL1DistRow(kk, d.Data[i*d.Stride:i*d.Stride+d.Cols])
			}
		})
	case dotKernel:
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, x.RawMatrix(), y.RawMatrix(), 0, d)
		mapRows(d, kk.fromDot)
	default:
		xr, yr := x.RawMatrix(), y.RawMatrix()
		parallel.Rows(d.Rows, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				xi := xr.Data[i*xr.Stride : i*xr.Stride+xr.Cols]
				for j := 0; j < d.Cols; j++ {
					d.Data[i*d.Stride+j] = k.Eval(xi, yr.Data[j*yr.Stride:j*yr.Stride+yr.Cols])
				}
			}
		})
	}
}

// fromSqDistRow sets row[j] = k.fromSqDist(row[j]) for every j; the
// Gaussian kernel's exponentials run four at a time (vecmath.ExpNegDiv,
// math.Exp's bits).
func fromSqDistRow(k distKernel, row []float64) {
	if g, ok := k.(GaussianKernel); ok {
		vecmath.ExpNegDiv(row, 2*g.Sigma*g.Sigma)
		return
	}
	for j, s := range row {
		row[j] = k.fromSqDist(s)
	}
}

// l1DistRow sets row[j] = ||a - y_j||_1 for the rows y_j of y. O(m d).
func l1DistRow(row, a []float64, y blas64.General) {
	for j := range row {
		b := y.Data[j*y.Stride : j*y.Stride+y.Cols]
		t := 0.0
		for c, v := range a {
			t += math.Abs(v - b[c])
		}
		row[j] = t
	}
}

// fromL1DistRow sets row[j] = k.fromL1Dist(row[j]) for every j, the
// Manhattan kernel's exponentials four at a time.
func fromL1DistRow(k l1Kernel, row []float64) {
	if m, ok := k.(ManhattanKernel); ok {
		vecmath.ExpNegDiv(row, m.Sigma)
		return
	}
	for j, s := range row {
		row[j] = k.fromL1Dist(s)
	}
}

// gramSqDist returns ||x_i - y_j||^2 given its Gram-form value s and
// ||x_i||^2 + ||y_j||^2 = norms. The Gram form has absolute error about
// eps * norms, which a square root (Laplacian kernel) would magnify to
// sqrt(eps); pairs closer than 1e-4 * norms are recomputed directly.
func gramSqDist(s, norms float64, x, y blas64.General, i, j int) float64 {
	if s > 1e-4*norms {
		return s
	}
	return vecmath.SqDist(x.Data[i*x.Stride:i*x.Stride+x.Cols], y.Data[j*y.Stride:j*y.Stride+y.Cols])
}

func mapRows(d blas64.General, f func(float64) float64) {
	parallel.Rows(d.Rows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := d.Data[i*d.Stride : i*d.Stride+d.Cols]
			for j, v := range row {
				row[j] = f(v)
			}
		}
	})
}

// kernelSym fills the n x n dst with K(X, X) using a symmetric rank-d
// update (half the flops of a general multiply), then mirrors it.
func kernelSym(dst *mat.Dense, k Kernel, x *mat.Dense) {
	d := dst.RawMatrix()
	n := d.Rows
	xr := x.RawMatrix()
	lower := blas64.Symmetric{N: n, Stride: d.Stride, Data: d.Data, Uplo: blas.Lower}
	var f func(i, j int, g float64) float64
	var dk distKernel // the lower rows are squared distances first
	var lk l1Kernel   // the lower rows are L1 distances first
	switch kk := k.(type) {
	case distKernel:
		if s := kk.columnScales(); s != nil {
			x = scaleColumns(x, s)
			xr = x.RawMatrix()
		}
		sq := rowSqNorms(x)
		blas64.Syrk(blas.NoTrans, 1, xr, 0, lower)
		dk = kk
		f = func(i, j int, g float64) float64 {
			return gramSqDist(sq[i]+sq[j]-2*g, sq[i]+sq[j], xr, xr, i, j)
		}
	case l1Kernel:
		if s := kk.columnScales(); s != nil {
			x = scaleColumns(x, s)
			xr = x.RawMatrix()
		}
		lk = kk
	case dotKernel:
		blas64.Syrk(blas.NoTrans, 1, xr, 0, lower)
		f = func(_, _ int, g float64) float64 { return kk.fromDot(g) }
	default:
		f = func(i, j int, _ float64) float64 {
			return k.Eval(xr.Data[i*xr.Stride:i*xr.Stride+xr.Cols], xr.Data[j*xr.Stride:j*xr.Stride+xr.Cols])
		}
	}
	if lk != nil {
		parallel.Rows(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				row := d.Data[i*d.Stride : i*d.Stride+i+1]
				l1DistRow(row, xr.Data[i*xr.Stride:i*xr.Stride+xr.Cols], blas64.General{Rows: i + 1, Cols: xr.Cols, Stride: xr.Stride, Data: xr.Data})
				row[i] = 0
				fromL1DistRow(lk, row)
			}
		})
		parallel.MirrorLower(d)
		return
	}
	parallel.Rows(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xi := xr.Data[i*xr.Stride : i*xr.Stride+xr.Cols]
			for j := 0; j < i; j++ {
				d.Data[i*d.Stride+j] = f(i, j, d.Data[i*d.Stride+j])
			}
			if dk != nil {
				fromSqDistRow(dk, d.Data[i*d.Stride:i*d.Stride+i])
				d.Data[i*d.Stride+i] = dk.fromSqDist(0)
			} else {
				d.Data[i*d.Stride+i] = k.Eval(xi, xi)
			}
		}
	})
	parallel.MirrorLower(d)
}
