package fastblas

import (
	"math"
	"runtime"
	"sync"
)

// parFlops is the least work, in flops, worth a goroutine of its own
// (about 10 µs of kernel time).
const parFlops = 1 << 19

// workers is the number of goroutines for flops of work split into at
// most parts pieces: bounded by GOMAXPROCS, at least 1.
func workers(flops float64, parts int) int {
	return max(1, min(runtime.GOMAXPROCS(0), parts, int(flops/parFlops)))
}

// parallel runs f(0), ..., f(p-1) concurrently and waits for all of them.
func parallel(p int, f func(t int)) {
	if p == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	wg.Add(p - 1)
	for t := 1; t < p; t++ {
		go func() {
			defer wg.Done()
			f(t)
		}()
	}
	f(0)
	wg.Wait()
}

// cut returns the start of part t of [0, n) split into p parts of equal
// work, aligned to align: pos(y) is the fraction of n before which a
// fraction y of the work lies. cut(0) = 0 and cut(p) = n.
func cut(n, p, t, align int, pos func(float64) float64) int {
	if t >= p {
		return n
	}
	x := pos(float64(t)/float64(p)) * float64(n)
	return min(n, int(math.Round(x/float64(align)))*align)
}

// Work positions for cut: uniform work, and the rows of a lower or upper
// triangle (work before row x·n is x² or 1-(1-x)² of the total).
func uniform(y float64) float64   { return y }
func lowerRows(y float64) float64 { return math.Sqrt(y) }
func upperRows(y float64) float64 { return 1 - math.Sqrt(1-y) }
