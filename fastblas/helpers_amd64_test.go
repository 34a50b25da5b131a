package fastblas

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sentinel fills the padding around every matrix: it must never change.
const sentinel = -12345.678

// mat is a row-major r×c matrix with stride ld > c in data padded by one
// row of sentinels.
type mat struct {
	r, c, ld int
	data     []float64
}

// newMat returns an r×c matrix with uniform entries in [-1, 1), or NaN when
// nan, and sentinels in the padding.
func newMat(rng *rand.Rand, r, c, pad int, nan bool) mat {
	ld := max(1, c) + pad
	m := mat{r: r, c: c, ld: ld, data: make([]float64, (r+1)*ld)}
	for i := range m.data {
		m.data[i] = sentinel
	}
	for i := range r {
		for j := range c {
			v := 2*rng.Float64() - 1
			if nan {
				v = math.NaN()
			}
			m.data[i*ld+j] = v
		}
	}
	return m
}

func (m mat) clone() mat {
	m.data = append([]float64(nil), m.data...)
	return m
}

// checkPad fails unless every element outside the r×c window, or outside
// the allowed triangle (uplo 'L' or 'U', 0 for all), still holds its value
// in orig.
func checkPad(t *testing.T, name string, got, orig mat, uplo byte) {
	t.Helper()
	for idx, v := range got.data {
		i, j := idx/got.ld, idx%got.ld
		in := i < got.r && j < got.c
		if uplo == 'L' && j > i || uplo == 'U' && j < i {
			in = false
		}
		if !in && !same(v, orig.data[idx]) {
			t.Fatalf("%s: element (%d,%d) outside the output changed: %v -> %v", name, i, j, orig.data[idx], v)
		}
	}
}

// large reports whether tests run their large sizes: not with -short nor
// under the race detector.
func large() bool { return !testing.Short() && !raceEnabled }

func same(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }

// maxAbs is the largest |x| over the window of m.
func (m mat) maxAbs() float64 {
	var s float64
	for i := range m.r {
		for j := range m.c {
			s = max(s, math.Abs(m.data[i*m.ld+j]))
		}
	}
	return s
}

// checkClose fails unless got and want agree within tol, or are both NaN,
// on the window (and triangle) of got.
func checkClose(t *testing.T, name string, got, want mat, uplo byte, tol float64) {
	t.Helper()
	for i := range got.r {
		for j := range got.c {
			if uplo == 'L' && j > i || uplo == 'U' && j < i {
				continue
			}
			g, w := got.data[i*got.ld+j], want.data[i*want.ld+j]
			if !same(g, w) && !(math.Abs(g-w) <= tol) {
				t.Fatalf("%s: element (%d,%d) = %v, want %v (tol %.3g)", name, i, j, g, w, tol)
			}
		}
	}
}

// forKernels runs f as a subtest for every micro-kernel this CPU runs,
// with that kernel in use.
func forKernels(t *testing.T, f func(t *testing.T, k *kernel)) {
	defer func(k *kernel) { kern = k }(kern)
	for _, k := range kernels {
		kern = k
		t.Run(k.name, func(t *testing.T) { f(t, k) })
	}
}
