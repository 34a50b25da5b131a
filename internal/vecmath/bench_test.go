package vecmath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Benchmarks on arguments like those of random Fourier features: dst
// starts N(0, 10^2) (x.w for a column w of W) and b is uniform on
// [0, 2 pi). Each size runs ScaledCosAdd (the assembly kernel where there
// is one), the portable Go loop, and the loop it replaces,
// dst[j] = s*math.Cos(dst[j]+b[j]); ns/elem is the time per element.
// Each call works on the previous call's output, with s = 10 so that the
// arguments stay in [-10, 17] and keep changing (math.Cos branches on the
// quadrant, and a branch predictor would learn a fixed input of 1000
// elements); the cost of ScaledCosAdd does not depend on s or on the data.
//
//	go test -run '^$' -bench ScaledCosAdd ./internal/vecmath
func BenchmarkScaledCosAdd(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		r := rand.New(rand.NewPCG(1, uint64(n)))
		x := make([]float64, n)
		bb := make([]float64, n)
		for i := range x {
			x[i] = 10 * r.NormFloat64()
			bb[i] = 2 * math.Pi * r.Float64()
		}
		dst := make([]float64, n)
		const s = 10
		run := func(name string, f func()) {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				copy(dst, x)
				b.SetBytes(int64(8 * n))
				for i := 0; i < b.N; i++ {
					f()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
		run("vecmath", func() { ScaledCosAdd(dst, bb, s) })
		run("go", func() { withGo(func() { ScaledCosAdd(dst, bb, s) }) })
		run("math.Cos", func() {
			for j, v := range dst {
				dst[j] = s * math.Cos(v+bb[j])
			}
		})
	}
}

// BenchmarkExpNegDiv times ExpNegDiv on squared distances of a Gaussian
// kernel (x = -s/c spread over [-30, 0]) against the math.Exp loop it
// replaces; each call starts from the same input.
//
//	go test -run '^$' -bench ExpNegDiv ./internal/vecmath
func BenchmarkExpNegDiv(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		r := rand.New(rand.NewPCG(2, uint64(n)))
		x := make([]float64, n)
		for i := range x {
			x[i] = 60 * r.Float64()
		}
		dst := make([]float64, n)
		const c = 2
		run := func(name string, f func()) {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(8 * n))
				for b.Loop() {
					copy(dst, x)
					f()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
		run("vecmath", func() { ExpNegDiv(dst, c) })
		run("math.Exp", func() {
			for j, v := range dst {
				dst[j] = math.Exp(-v / c)
			}
		})
	}
}
