// Package parallel splits loops over rows between goroutines so that each
// row, and so each result, does not depend on the number of cores: Rows
// for element-wise and row-wise work, Chunks for work on fixed ranges (BLAS
// calls), and MirrorLower, the mirror of a symmetric matrix's lower
// triangle. Package credlab and its sub-packages share it.
package parallel

import (
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"
)

// Chunks calls f(lo, hi) on the ranges [0, chunk), [chunk, 2 chunk), ...
// covering [0, n), on up to GOMAXPROCS goroutines. Unlike Rows the ranges
// do not depend on the number of cores, so BLAS calls made on them round
// identically on any machine.
func Chunks(n, chunk int, f func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	next := make(chan int, (n+chunk-1)/chunk)
	for lo := 0; lo < n; lo += chunk {
		next <- lo
	}
	close(next)
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := range next {
				f(lo, min(lo+chunk, n))
			}
		}()
	}
	wg.Wait()
}

// Rows calls f(lo, hi) on disjoint row ranges covering [0, n), using up to
// GOMAXPROCS goroutines (one call on [0, n) below 64 rows or with one
// core). Each row is handled by exactly one call, so results do not depend
// on the number of cores.
func Rows(n int, f func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	if w <= 1 || n < 64 {
		f(0, n)
		return
	}
	Chunks(n, (n+4*w-1)/(4*w), f)
}

// MirrorLower copies the strict lower triangle of the square d to the upper
// one, in 64 x 64 tiles so that the transposed reads stay in cache, tile
// rows in parallel (Rows): O(n^2) copies.
func MirrorLower(d blas64.General) {
	const tile = 64
	n := d.Rows
	Rows((n+tile-1)/tile, func(lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			i0, i1 := bi*tile, min(bi*tile+tile, n)
			for j0 := i0; j0 < n; j0 += tile {
				j1 := min(j0+tile, n)
				for i := i0; i < i1; i++ {
					for j := max(j0, i+1); j < j1; j++ {
						d.Data[i*d.Stride+j] = d.Data[j*d.Stride+i]
					}
				}
			}
		}
	})
}
