// Package fastblas is a pure-Go BLAS layer for gonum's blas64: the level-3
// Dgemm, Dsyrk, Dsyr2k, Dtrsm and Dtrmm run on AVX-512F or AVX2/FMA
// micro-kernels written in Go assembly, and so do the level-2 Dsymv and
// Dsyr2 that gonum's Dsytrd (the tridiagonal reduction) spends its time
// in; all use every core (runtime.GOMAXPROCS). All other routines, small
// problems and machines without AVX2/FMA go to gonum's implementation.
// It depends on gonum only, so any gonum program can use it on its own:
//
//	import "github.com/credlab/credlab/fastblas"
//
//	func main() {
//		fastblas.Install() // blas64.Use(fastblas.Implementation{}) where the CPU runs it
//		...
//	}
//
// Importing it installs nothing. Package credlab installs it from its init
// unless CREDLAB_BLAS says otherwise (credlab.UseBLAS, credlab.BLASBackend).
//
// Matrices are row-major, as everywhere in gonum. Dgemm is a packed,
// cache-blocked product (Goto/BLIS style): panels of op(A) and op(B) are
// copied into contiguous buffers and one register tile of C is computed
// per kernel call, kc steps at a time. The kernel is chosen once at start-up
// (Kernel names it): with AVX-512F (and the OS saving the ZMM state) a
// 12×16 tile in 24 zmm accumulators, kc = 384; otherwise a 6×8 tile in 12
// ymm accumulators, kc = 256. Dsyrk reuses the same loops and skips or
// masks the tiles outside the referenced triangle; Dsyr2k is the same
// product with inner dimension 2k on [A B] and [B A]. Dtrsm and Dtrmm split
// the triangle recursively so that most of their flops are Dgemm calls; the
// smallest triangles go to AVX2 assembly kernels (Dtrsm) or to gonum
// (Dtrmm).
//
// Dsymv is memory-bound: it reads the stored triangle once, four rows at
// a time, each row giving a dot product for its own element of A·x and
// an update of the elements of the other half (AVX2 kernel symv4).
// Dsyr2 updates the triangle row by row. Both take vectors of any stride.
//
// Work is split over rows or columns of C only, never over the inner
// dimension, so every element of the result is summed in the same order
// whatever the number of goroutines: results do not depend on GOMAXPROCS.
// Dsymv, whose two halves sum across rows, cuts the rows into chunks that
// depend on n only, each with a partial vector of its own, and adds the
// partial vectors in chunk order.
// They do depend on the kernel (its kc sets the order of the partial sums),
// and fused multiply-adds round differently from gonum's kernels, so
// results agree with gonum and between kernels to rounding, not bit for
// bit.
package fastblas
