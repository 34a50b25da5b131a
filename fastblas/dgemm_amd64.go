package fastblas

import (
	"math"

	"gonum.org/v1/gonum/blas"
)

// gemmMin is the smallest m·n·k handled here; below it packing costs more
// than it saves and gonum runs the product.
const gemmMin = 16 * 16 * 16

// Dgemm computes C = alpha·op(A)·op(B) + beta·C for an m×k op(A) and a k×n
// op(B). Cost: 2·m·n·k flops.
func (impl Implementation) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	transA, okA := isTrans(tA)
	transB, okB := isTrans(tB)
	if kern == nil || !okA || !okB || alpha == 0 || m <= 0 || n <= 0 || k <= 0 || m*n*k < gemmMin ||
		!fits(a, lda, m, k, transA) || !fits(b, ldb, k, n, transB) || !fits(c, ldc, m, n, false) {
		impl.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	g := gemm{kern: kern, transA: transA, transB: transB, m: m, n: n, k: k, alpha: alpha, beta: beta,
		a: a, b: b, c: c, lda: lda, ldb: ldb, ldc: ldc, uplo: blas.All}
	g.run()
}

// isTrans reports whether t transposes and whether t is a valid value.
func isTrans(t blas.Transpose) (trans, ok bool) {
	switch t {
	case blas.NoTrans:
		return false, true
	case blas.Trans, blas.ConjTrans:
		return true, true
	}
	return false, false
}

// fits reports whether the row-major slice x with row stride ld holds an
// r×c matrix (stored c×r when trans), as gonum checks it.
func fits(x []float64, ld, r, c int, trans bool) bool {
	if trans {
		r, c = c, r
	}
	return ld >= max(1, c) && len(x) >= (r-1)*ld+c
}

// gemm is C = alpha·op(A)·op(B) + beta·C, restricted to the uplo triangle
// of C unless uplo is blas.All (Dsyrk).
type gemm struct {
	kern           *kernel
	transA, transB bool
	m, n, k        int
	alpha, beta    float64
	a, b, c        []float64
	lda, ldb, ldc  int
	uplo           blas.Uplo
}

// run splits C into row or column strips of equal work, one per goroutine.
func (g *gemm) run() {
	mr, nr := g.kern.mr, g.kern.nr
	flops := 2 * float64(g.m) * float64(g.n) * float64(g.k)
	switch g.uplo {
	case blas.Lower: // rows [lo, hi) of the lower triangle reach column hi
		p := workers(flops/2, (g.m+mr-1)/mr)
		parallel(p, func(t int) {
			lo, hi := cut(g.m, p, t, mr, lowerRows), cut(g.m, p, t+1, mr, lowerRows)
			g.block(lo, hi, 0, hi)
		})
	case blas.Upper: // rows [lo, hi) of the upper triangle start at column lo
		p := workers(flops/2, (g.m+mr-1)/mr)
		parallel(p, func(t int) {
			lo, hi := cut(g.m, p, t, mr, upperRows), cut(g.m, p, t+1, mr, upperRows)
			g.block(lo, hi, lo, g.n)
		})
	default:
		if (g.m+mr-1)/mr >= (g.n+nr-1)/nr {
			p := workers(flops, (g.m+mr-1)/mr)
			parallel(p, func(t int) {
				g.block(cut(g.m, p, t, mr, uniform), cut(g.m, p, t+1, mr, uniform), 0, g.n)
			})
			return
		}
		p := workers(flops, (g.n+nr-1)/nr)
		parallel(p, func(t int) {
			g.block(0, g.m, cut(g.n, p, t, nr, uniform), cut(g.n, p, t+1, nr, uniform))
		})
	}
}

// block computes rows [i0, i1) and columns [j0, j1) of C: for each kc×nc
// block of op(B), packed once, every mc×kc block of op(A) is packed and
// multiplied. The first kc pass applies beta, the later ones add to C.
// Cost: 2·(i1-i0)·(j1-j0)·k flops; op(B)'s part is copied once, op(A)'s
// once per nc columns.
func (g *gemm) block(i0, i1, j0, j1 int) {
	if i0 >= i1 || j0 >= j1 {
		return
	}
	mr, nr, kc, mc, nc := g.kern.mr, g.kern.nr, g.kern.kc, g.kern.mc, g.kern.nc
	kb0 := min(kc, g.k)
	bufA := getBuf(min(mc, roundUp(i1-i0, mr)) * kb0)
	bufB := getBuf(min(nc, roundUp(j1-j0, nr)) * kb0)
	defer bufPool.Put(bufA)
	defer bufPool.Put(bufB)
	pa, pb := *bufA, *bufB
	for jc := j0; jc < j1; jc += nc {
		nb := min(nc, j1-jc)
		for pc := 0; pc < g.k; pc += kc {
			kb := min(kc, g.k-pc)
			beta := g.beta
			if pc > 0 {
				beta = 1
			}
			if g.transB {
				pack(pb, g.b[jc*g.ldb+pc:], nb, kb, nr, g.ldb, 1)
			} else {
				pack(pb, g.b[pc*g.ldb+jc:], nb, kb, nr, 1, g.ldb)
			}
			for ic := i0; ic < i1; ic += mc {
				mb := min(mc, i1-ic)
				if g.outside(ic, mb, jc, nb) {
					continue
				}
				if g.transA {
					pack(pa, g.a[pc*g.lda+ic:], mb, kb, mr, 1, g.lda)
				} else {
					pack(pa, g.a[ic*g.lda+pc:], mb, kb, mr, g.lda, 1)
				}
				g.macro(ic, mb, jc, nb, kb, beta, pa, pb)
			}
		}
	}
}

// macro multiplies the packed mb×kb block of op(A) by the packed kb×nb
// block of op(B) into C at (ic, jc), one mr×nr tile per kernel call. Tiles
// cut by the edge of C or by the diagonal go through a scratch tile.
// Cost: 2·mb·nb·kb flops.
func (g *gemm) macro(ic, mb, jc, nb, kb int, beta float64, pa, pb []float64) {
	kn, mr, nr := g.kern, g.kern.mr, g.kern.nr
	var tile scratch
	for jr := 0; jr < nb; jr += nr {
		j, nn := jc+jr, min(nr, nb-jr)
		for ir := 0; ir < mb; ir += mr {
			i, mm := ic+ir, min(mr, mb-ir)
			if g.outside(i, mm, j, nn) {
				continue
			}
			if mm == mr && nn == nr && g.inside(i, mm, j, nn) {
				kn.call(kb, &pa[ir*kb], &pb[jr*kb], &g.c[i*g.ldc+j], g.ldc, g.alpha, beta)
				continue
			}
			kn.call(kb, &pa[ir*kb], &pb[jr*kb], &tile[0], nr, 1, 0)
			g.store(&tile, i, mm, j, nn, beta)
		}
	}
}

// scratch holds one tile of C of the largest kernel (12×16).
type scratch [12 * 16]float64

// store writes the mm×nn corner of the tile t (row stride nr) to C at
// (i, j) as the kernel would, skipping elements outside the triangle.
func (g *gemm) store(t *scratch, i, mm, j, nn int, beta float64) {
	nr := g.kern.nr
	for r := range mm {
		lo, hi := 0, nn
		switch g.uplo {
		case blas.Lower:
			hi = min(hi, i+r-j+1)
		case blas.Upper:
			lo = max(lo, i+r-j)
		}
		row := g.c[(i+r)*g.ldc+j:]
		for s := lo; s < hi; s++ {
			v := g.alpha * t[r*nr+s]
			if beta != 0 {
				v = math.FMA(beta, row[s], v)
			}
			row[s] = v
		}
	}
}

// outside reports whether the block of rows [i, i+mm) and columns
// [j, j+nn) lies strictly outside the triangle of C.
func (g *gemm) outside(i, mm, j, nn int) bool {
	switch g.uplo {
	case blas.Lower:
		return j > i+mm-1
	case blas.Upper:
		return j+nn-1 < i
	}
	return false
}

// inside reports whether the block lies entirely inside the triangle.
func (g *gemm) inside(i, mm, j, nn int) bool {
	switch g.uplo {
	case blas.Lower:
		return j+nn-1 <= i
	case blas.Upper:
		return j >= i+mm-1
	}
	return true
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }
