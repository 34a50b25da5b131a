package credlab

import (
	"github.com/credlab/credlab/internal/parallel"
	"gonum.org/v1/gonum/blas/blas64"
)

// parallelChunks calls f(lo, hi) on the ranges [0, chunk), [chunk, 2
// chunk), ... covering [0, n), on up to GOMAXPROCS goroutines
// (parallel.Chunks): the ranges do not depend on the number of cores.
func parallelChunks(n, chunk int, f func(lo, hi int)) { parallel.Chunks(n, chunk, f) }

// parallelRows calls f(lo, hi) on disjoint row ranges covering [0, n),
// using up to GOMAXPROCS goroutines (parallel.Rows). Each row is handled
// by exactly one call, so results do not depend on the number of cores.
func parallelRows(n int, f func(lo, hi int)) { parallel.Rows(n, f) }

// mirrorLower copies the strict lower triangle of the square d to the upper
// one (parallel.MirrorLower).
func mirrorLower(d blas64.General) { parallel.MirrorLower(d) }
