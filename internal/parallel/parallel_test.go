package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
)

// TestRowsCoverEachRowOnce checks that Rows hands every row to exactly one
// call, for several sizes and numbers of cores.
func TestRowsCoverEachRowOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 5} {
		old := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 63, 64, 65, 1000} {
			seen := make([]int32, n)
			Rows(n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&seen[i], 1)
				}
			})
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("GOMAXPROCS %d, n = %d: row %d handled %d times", procs, n, i, c)
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

func TestMirrorLower(t *testing.T) {
	const n, stride = 150, 153
	d := blas64.General{Rows: n, Cols: n, Stride: stride, Data: make([]float64, n*stride)}
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			d.Data[i*stride+j] = float64(i*1000 + j)
		}
	}
	MirrorLower(d)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if d.Data[i*stride+j] != d.Data[j*stride+i] {
				t.Fatalf("(%d, %d) = %g, (%d, %d) = %g", i, j, d.Data[i*stride+j], j, i, d.Data[j*stride+i])
			}
		}
	}
}
