package fastblas

import "gonum.org/v1/gonum/blas/blas64"

// kernel is a micro-kernel for an mr×nr register tile of C and the cache
// blocks tuned for it.
type kernel struct {
	name   string
	mr, nr int // tile of C per call: rows of packed A, columns of packed B
	kc     int // inner dimension per pass
	mc, nc int // rows of A (multiple of mr) and columns of B (multiple of nr) per block
}

// kern is the kernel in use, the first of kernels (this CPU's, fastest
// first); nil when there is none and everything goes to gonum.
var kern = first(kernels)

func first(ks []*kernel) *kernel {
	if len(ks) == 0 {
		return nil
	}
	return ks[0]
}

// Available reports whether the accelerated routines run on this machine:
// amd64 with AVX2 and FMA.
func Available() bool { return kern != nil }

// Install makes Implementation gonum's blas64 BLAS for the whole process
// (gonum/mat, gonum/lapack and every other blas64 user) when this machine
// runs it, and reports whether it did. Importing the package installs
// nothing; package credlab calls Install from its init (see its
// BLASBackend and UseBLAS). Call it at start-up, never concurrently with a
// BLAS call.
func Install() bool {
	if !Available() {
		return false
	}
	blas64.Use(Implementation{})
	return true
}

// Kernel names the Dgemm micro-kernel in use: "avx512", "avx2", or ""
// when Available is false.
func Kernel() string {
	if kern == nil {
		return ""
	}
	return kern.name
}

// UseKernel puts the named micro-kernel ("avx2", "avx512") in use and
// reports whether this CPU runs it. Call it before any BLAS call (at
// start-up or in a benchmark's setup), never concurrently with one.
func UseKernel(name string) bool {
	for _, k := range kernels {
		if k.name == name {
			kern = k
			return true
		}
	}
	return false
}
