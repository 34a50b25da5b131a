package fastblas

import (
	"math"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
)

// Dsymv blocking: a chunk of rows holds at least symvChunk elements of the
// triangle, and there are at most symvMaxChunks chunks. Both depend on n
// only, never on the number of goroutines.
const (
	symvChunk     = 1 << 16
	symvMaxChunks = 32
)

// Dsymv computes y = alpha·A·x + beta·y for the n×n symmetric A stored in
// its ul triangle; y is not read when beta == 0. It reads the triangle
// once: four rows at a time, each row gives one element of A·x by a dot
// product with x and, for its off-diagonal part, adds x_i·A[i, ·] to the
// elements of the other half (symv4). The rows are cut into chunks of
// equal work that depend on n only; each chunk accumulates into a vector
// of its own and y sums the chunks' vectors in chunk order, so the result
// does not depend on the number of goroutines. x and y may have any
// stride. Cost: 2·n² flops, n²/2 elements of A read once.
func (impl Implementation) Dsymv(ul blas.Uplo, n int, alpha float64, a []float64, lda int, x []float64, incX int, beta float64, y []float64, incY int) {
	if kern == nil || alpha == 0 || n < 4 || ul != blas.Lower && ul != blas.Upper ||
		!fits(a, lda, n, n, false) || !vecFits(x, n, incX) || !vecFits(y, n, incY) {
		impl.Implementation.Dsymv(ul, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	s := newSymv(ul, n, a, lda)
	buf := getBuf(2*n + s.total)
	defer bufPool.Put(buf)
	xb, acc, parts := (*buf)[:n], (*buf)[n:2*n], (*buf)[2*n:]
	gatherVec(xb, x, n, incX)
	s.x, s.parts = xb, parts

	p := workers(2*float64(n)*float64(n), s.k)
	var next atomic.Int64
	parallel(p, func(int) {
		for c := int(next.Add(1)) - 1; c < s.k; c = int(next.Add(1)) - 1 {
			s.chunk(c)
		}
	})
	ky := 0
	if incY < 0 {
		ky = -(n - 1) * incY
	}
	parallel(p, func(t int) {
		s.sum(cut(n, p, t, 1, uniform), cut(n, p, t+1, 1, uniform), alpha, beta, acc, y, ky, incY)
	})
}

// symv is one Dsymv call split into k chunks of rows [b[c], b[c+1]).
// Chunk c accumulates into parts[off[c]:off[c+1]], its window of columns:
// [0, b[c+1]) for Lower, [b[c], n) for Upper.
type symv struct {
	ul     blas.Uplo
	n, lda int
	a, x   []float64
	k      int
	b, off [symvMaxChunks + 1]int
	total  int
	parts  []float64
}

// newSymv cuts the rows into chunks of about equal work. Row blocks of
// four start at multiples of 4 for Lower and at n-4, n-8, ... for Upper,
// so every symv4 call has a multiple of 4 columns; chunk boundaries keep
// that alignment.
func newSymv(ul blas.Uplo, n int, a []float64, lda int) *symv {
	s := &symv{ul: ul, n: n, lda: lda, a: a}
	s.k = max(1, min(symvMaxChunks, n*n/2/symvChunk, n/4))
	n4 := n &^ 3
	for c := 1; c < s.k; c++ {
		f := float64(c) / float64(s.k)
		if ul == blas.Lower {
			s.b[c] = min(n4, int(math.Round(float64(n)*math.Sqrt(f)/4))*4)
		} else {
			s.b[c] = n - min(n4, int(math.Round(float64(n)*math.Sqrt(1-f)/4))*4)
		}
	}
	s.b[s.k] = n
	for c := range s.k {
		lo, hi := s.window(c)
		s.off[c+1] = s.off[c] + hi - lo
	}
	s.total = s.off[s.k]
	return s
}

// window returns the columns [lo, hi) that chunk c updates.
func (s *symv) window(c int) (lo, hi int) {
	if s.ul == blas.Lower {
		return 0, s.b[c+1]
	}
	return s.b[c], s.n
}

// chunk computes chunk c's contribution to A·x into its window.
func (s *symv) chunk(c int) {
	lo, hi := s.window(c)
	p := s.parts[s.off[c]:s.off[c+1]]
	clear(p)
	r0, r1 := s.b[c], s.b[c+1]
	if s.ul == blas.Lower {
		i := r0
		for ; i+4 <= r1; i += 4 {
			s.lower4(i, p)
		}
		for ; i < r1; i++ {
			s.lowerRow(i, p)
		}
		return
	}
	i := r0
	for ; i < r1 && (s.n-i)%4 != 0; i++ {
		s.upperRow(i, p[i-lo:])
	}
	for ; i < r1; i += 4 {
		s.upper4(i, p[i-lo:hi-lo])
	}
}

// lower4 adds rows i0..i0+3 of the lower triangle: p[j] is column j.
func (s *symv) lower4(i0 int, p []float64) {
	a, x, lda := s.a, s.x, s.lda
	var d [4]float64
	if i0 > 0 {
		symv4(i0, &a[i0*lda], lda, &x[0], &p[0], &x[i0], &d[0])
	}
	for r := range 4 {
		i := i0 + r
		row, xi, t := a[i*lda:i*lda+i+1], x[i], d[r]
		for j := i0; j < i; j++ {
			t += row[j] * x[j]
			p[j] += row[j] * xi
		}
		p[i] += t + row[i]*xi
	}
}

// lowerRow adds row i of the lower triangle: p[j] is column j.
func (s *symv) lowerRow(i int, p []float64) {
	row, x, xi := s.a[i*s.lda:i*s.lda+i+1], s.x, s.x[i]
	var t float64
	for j := range i {
		t += row[j] * x[j]
		p[j] += row[j] * xi
	}
	p[i] += t + row[i]*xi
}

// upper4 adds rows i0..i0+3 of the upper triangle; p[j] is column i0+j
// and n-i0 is a multiple of 4.
func (s *symv) upper4(i0 int, p []float64) {
	a, x, lda := s.a, s.x, s.lda
	var t, d [4]float64
	for r := range 4 {
		i := i0 + r
		row, xi := a[i*lda:i*lda+i0+4], x[i]
		v := row[i] * xi
		for j := i + 1; j < i0+4; j++ {
			v += row[j] * x[j]
			p[j-i0] += row[j] * xi
		}
		t[r] = v
	}
	if m := s.n - i0 - 4; m > 0 {
		symv4(m, &a[i0*lda+i0+4], lda, &x[i0+4], &p[4], &x[i0], &d[0])
	}
	for r := range 4 {
		p[r] += t[r] + d[r]
	}
}

// upperRow adds row i of the upper triangle; p[j] is column i+j.
func (s *symv) upperRow(i int, p []float64) {
	row, x, xi := s.a[i*s.lda+i:i*s.lda+s.n], s.x[i:], s.x[i]
	t := row[0] * xi
	for j := 1; j < len(row); j++ {
		t += row[j] * x[j]
		p[j] += row[j] * xi
	}
	p[0] += t
}

// sum sets y[ky+j·incY] = alpha·Σ_c parts_c[j] + beta·y[ky+j·incY] for j
// in [j0, j1), summing the chunks in order into acc; y is not read when
// beta == 0.
func (s *symv) sum(j0, j1 int, alpha, beta float64, acc, y []float64, ky, incY int) {
	acc = acc[j0:j1]
	clear(acc)
	for c := range s.k {
		wlo, whi := s.window(c)
		lo, hi := max(wlo, j0), min(whi, j1)
		if lo >= hi {
			continue
		}
		part := s.parts[s.off[c]+lo-wlo : s.off[c]+hi-wlo]
		dst := acc[lo-j0 : hi-j0]
		for j, v := range part {
			dst[j] += v
		}
	}
	for j, t := range acc {
		v := alpha * t
		if beta != 0 {
			v += beta * y[ky+(j0+j)*incY]
		}
		y[ky+(j0+j)*incY] = v
	}
}

// vecFits reports whether x holds n elements with stride inc ≠ 0, as
// gonum checks it.
func vecFits(x []float64, n, inc int) bool {
	if inc == 0 {
		return false
	}
	return len(x) > (n-1)*abs(inc)
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// gatherVec copies the n elements of x with stride inc (BLAS order: from
// the end when inc < 0) into the contiguous d.
func gatherVec(d, x []float64, n, inc int) {
	if inc == 1 {
		copy(d, x[:n])
		return
	}
	k := 0
	if inc < 0 {
		k = -(n - 1) * inc
	}
	for i := range d[:n] {
		d[i] = x[k+i*inc]
	}
}
