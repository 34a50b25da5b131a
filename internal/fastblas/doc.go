// Package fastblas is a pure-Go BLAS level-3 layer for gonum's blas64:
// Dgemm, Dsyrk, Dtrsm and Dtrmm run on AVX-512F or AVX2/FMA micro-kernels
// written in Go assembly and use every core (runtime.GOMAXPROCS); all other
// routines, small problems and machines without AVX2/FMA go to gonum's
// implementation. Install it with
//
//	if fastblas.Available() {
//		blas64.Use(fastblas.Implementation{})
//	}
//
// Matrices are row-major, as everywhere in gonum. Dgemm is a packed,
// cache-blocked product (Goto/BLIS style): panels of op(A) and op(B) are
// copied into contiguous buffers and one register tile of C is computed
// per kernel call, kc steps at a time. The kernel is chosen once at start-up
// (Kernel names it): with AVX-512F (and the OS saving the ZMM state) a
// 12×16 tile in 24 zmm accumulators, kc = 384; otherwise a 6×8 tile in 12
// ymm accumulators, kc = 256. Dsyrk reuses the same loops and skips or
// masks the tiles outside the referenced triangle. Dtrsm and Dtrmm split
// the triangle recursively so that most of their flops are Dgemm calls; the
// smallest triangles go to AVX2 assembly kernels (Dtrsm) or to gonum
// (Dtrmm).
//
// Work is split over rows or columns of C only, never over the inner
// dimension, so every element of the result is summed in the same order
// whatever the number of goroutines: results do not depend on GOMAXPROCS.
// They do depend on the kernel (its kc sets the order of the partial sums),
// and fused multiply-adds round differently from gonum's kernels, so
// results agree with gonum and between kernels to rounding, not bit for
// bit.
package fastblas
