package credlab

import (
	"runtime"
	"sync"
)

// parallelChunks calls f(lo, hi) on the ranges [0, chunk), [chunk, 2
// chunk), ... covering [0, n), on up to GOMAXPROCS goroutines. Unlike
// parallelRows the ranges do not depend on the number of cores, so BLAS
// calls made on them round identically on any machine.
func parallelChunks(n, chunk int, f func(lo, hi int)) {
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

// parallelRows calls f(lo, hi) on disjoint row ranges covering [0, n),
// using up to GOMAXPROCS goroutines. Each row is handled by exactly one
// call, so results do not depend on the number of cores.
func parallelRows(n int, f func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	if w <= 1 || n < 64 {
		f(0, n)
		return
	}
	parallelChunks(n, (n+4*w-1)/(4*w), f)
}
