package vecmath

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"
)

// cosOf returns ScaledCosAdd with s = 1 and b = 0 on a copy of x.
func cosOf(x []float64) []float64 {
	dst := append([]float64(nil), x...)
	ScaledCosAdd(dst, make([]float64, len(x)), 1)
	return dst
}

// withGo runs f with the portable Go loop in place of the assembly.
func withGo(f func()) {
	if !hasKernel {
		f()
		return
	}
	old := useAVX2
	useAVX2 = false
	defer func() { useAVX2 = old }()
	f()
}

// TestConstants recomputes the reduction constants from pi.
func TestConstants(t *testing.T) {
	initRef()
	rem := newF().Set(refHalfPi)
	for i, c := range []float64{c1, c2, c3, c4} {
		bits := uint(33)
		if i == 3 {
			bits = 53
		}
		want, _ := new(big.Float).SetPrec(bits).Set(rem).Float64()
		if c != want {
			t.Errorf("c%d = %x, want %x", i+1, c, want)
		}
		rem.Sub(rem, newF().SetFloat64(c))
	}
	if r, _ := rem.Float64(); math.Abs(r) > 0x1p-155 {
		t.Errorf("pi/2 - (c1+c2+c3+c4) = %g", r)
	}
	// n*c1, n*c2, n*c3 exact for n < 2^20: at most 33 significant bits.
	for i, c := range []float64{c1, c2, c3} {
		m := math.Float64bits(c) & (1<<52 - 1)
		if tz := 0; m != 0 {
			for m&1 == 0 {
				m >>= 1
				tz++
			}
			if 53-tz > 33 {
				t.Errorf("c%d has %d significant bits", i+1, 53-tz)
			}
		}
	}
	if n := math.Round(Bound * twoOverPi); n >= 1<<20 {
		t.Errorf("n = %g at Bound", n)
	}
	if want, _ := newF().Quo(newF().SetInt64(1), refHalfPi).Float64(); twoOverPi != want {
		t.Errorf("twoOverPi = %x, want %x", twoOverPi, want)
	}
}

// TestSpecial: exact results and the fallback to math.Cos.
func TestSpecial(t *testing.T) {
	for _, tc := range []struct {
		x, want float64
	}{
		{0, 1},
		{math.Copysign(0, -1), 1},
		{0x1p-1074, 1},
		{1e-300, 1},
		{-1e-9, 1},
		{math.NaN(), math.NaN()},
		{math.Inf(1), math.NaN()},
		{math.Inf(-1), math.NaN()},
		{math.MaxFloat64, math.Cos(math.MaxFloat64)},
		{math.Nextafter(Bound, 2*Bound), math.Cos(math.Nextafter(Bound, 2*Bound))},
		{-2e6, math.Cos(-2e6)},
		{1e300, math.Cos(1e300)},
	} {
		for _, s := range []float64{1, -0.5, 0.044721359549995794} {
			var got []float64
			withBoth(t, func(name string) {
				g := cosOfScaled([]float64{tc.x}, s)[0]
				if got == nil {
					got = []float64{g}
				}
				want := s * tc.want
				if !(g == want || math.IsNaN(g) && math.IsNaN(want)) || math.Float64bits(g) != math.Float64bits(got[0]) {
					t.Errorf("%s: s=%g cos(%g) = %v, want %v", name, s, tc.x, g, want)
				}
			})
		}
	}
}

func cosOfScaled(x []float64, s float64) []float64 {
	dst := append([]float64(nil), x...)
	ScaledCosAdd(dst, make([]float64, len(x)), s)
	return dst
}

// withBoth runs f with the assembly kernel (where there is one) and with
// the Go loop.
func withBoth(t *testing.T, f func(name string)) {
	t.Helper()
	if hasKernel {
		f("asm")
	}
	withGo(func() { f("go") })
}

// sample draws the accuracy test's arguments.
type sample struct {
	name   string
	n      int
	draw   func(r *rand.Rand) float64
	maxULP float64 // the largest error accepted, in ulps of the exact value
}

func uniform(lo, hi float64) func(*rand.Rand) float64 {
	return func(r *rand.Rand) float64 { return lo + (hi-lo)*r.Float64() }
}

var samples = []sample{
	{"tiny |x|<1e-5", 2000, uniform(-1e-5, 1e-5), 0.5},
	{"|x|<pi/4", 3000, uniform(-math.Pi/4, math.Pi/4), 1.25},
	{"|x|<10", 4000, uniform(-10, 10), 1.5},
	{"N(0,10^2)", 4000, func(r *rand.Rand) float64 { return 10 * r.NormFloat64() }, 1.5},
	{"|x|<1000", 3000, uniform(-1000, 1000), 1.5},
	{"|x|<Bound", 3000, uniform(-Bound, Bound), 2.25},
	{"log-uniform 1e-20..Bound", 3000, func(r *rand.Rand) float64 {
		return math.Copysign(math.Exp(math.Log(1e-20)+(math.Log(Bound)-math.Log(1e-20))*r.Float64()), r.Float64()-0.5)
	}, 2.25},
	// Near the quadrant boundaries (k + 1/2) pi/2, where n = round(|x| 2/pi)
	// may come out one off and |r| slightly above pi/4.
	{"near (k+1/2)pi/2", 3000, func(r *rand.Rand) float64 {
		k := math.Floor(r.Float64() * Bound * twoOverPi)
		x := (k + 0.5) * (math.Pi / 2)
		return x + (r.Float64()-0.5)*1e-9*max(1, x)
	}, 2.25},
	// Near the zeros k pi/2 of cos (k odd) and its extrema (k even), up to
	// 1e6 ulps of x away.
	{"near k pi/2", 3000, func(r *rand.Rand) float64 {
		k := math.Floor(r.Float64() * Bound * twoOverPi)
		x := k * (math.Pi / 2)
		for i := r.IntN(2000000) - 1000000; i != 0; {
			if i > 0 {
				x, i = math.Nextafter(x, math.Inf(1)), i-1
			} else {
				x, i = math.Nextafter(x, math.Inf(-1)), i+1
			}
			if r.IntN(1000) == 0 {
				break
			}
		}
		return x
	}, 1.05},
}

// The bounds are the largest errors seen with 30 times as many arguments
// (1.5 ulp up to |x| = 1000, 2.15 ulp up to Bound), rounded up: go test
// -v -run 'Accuracy|Zeros' prints the errors, and those of math.Cos on the
// same arguments.

// TestAccuracy compares ScaledCosAdd (s = 1) with cos computed to 500 bits,
// and math.Cos with the same for comparison.
func TestAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for _, sm := range samples {
		n := sm.n
		if testing.Short() {
			n /= 10
		}
		x := make([]float64, n)
		for i := range x {
			x[i] = sm.draw(r)
		}
		got := bothKernels(t, x)
		var e, em float64
		var xe, xm, ge float64
		for i, xi := range x {
			ref := refCos(xi)
			if u := ulpErr(got[i], ref); u > e {
				e, xe, ge = u, xi, got[i]
			}
			if u := ulpErr(math.Cos(xi), ref); u > em {
				em, xm = u, xi
			}
		}
		t.Logf("%-26s max error %.3f ulp (x = %v); math.Cos %.3g ulp (x = %v)", sm.name, e, xe, em, xm)
		worst = max(worst, e)
		if e > sm.maxULP {
			t.Errorf("%s: error %.3f ulp at x = %v (cos x = %v), more than %v", sm.name, e, xe, ge, sm.maxULP)
		}
	}
	t.Logf("largest error: %.3f ulp", worst)
}

// TestZeros tries the doubles nearest to the zeros k pi/2 of cos (k odd)
// for every k up to Bound*2/pi, stride 1 (stride 97 with -short), and their
// neighbours, where the range reduction cancels most bits. There cos x =
// -+sin d with d = x - k pi/2 tiny, so the exact value is d - d^3/6 to far
// more than 53 bits.
func TestZeros(t *testing.T) {
	initRef()
	stride := int64(1)
	if testing.Short() {
		stride = 97
	}
	kmax := int64(math.Floor(Bound * twoOverPi))
	var x []float64
	var d []*big.Float
	for k := int64(1); k <= kmax; k += 2 * stride {
		kp := newF().Mul(newF().SetInt64(k), refHalfPi)
		x0, _ := kp.Float64()
		for _, xi := range []float64{x0, math.Nextafter(x0, 0), math.Nextafter(x0, math.Inf(1))} {
			x = append(x, xi)
			di := newF().Sub(newF().SetFloat64(xi), kp)
			// cos(k pi/2 + d) = -sin d for k = 1 mod 4, sin d for k = 3 mod 4.
			s := newF().Sub(di, newF().Quo(newF().Mul(di, newF().Mul(di, di)), newF().SetInt64(6)))
			if k%4 == 1 {
				s.Neg(s)
			}
			d = append(d, s)
		}
	}
	got := bothKernels(t, x)
	var e, em, xe, xm, smallest float64
	smallest = 1
	for i, xi := range x {
		smallest = min(smallest, math.Abs(got[i]))
		if u := ulpErr(got[i], d[i]); u > e {
			e, xe = u, xi
		}
		if u := ulpErr(math.Cos(xi), d[i]); u > em {
			em, xm = u, xi
		}
	}
	t.Logf("%d arguments near zeros of cos (smallest |cos x| %.3g): max error %.3f ulp (x = %v); math.Cos %.3g ulp (x = %v)",
		len(x), smallest, e, xe, em, xm)
	if e > 1.05 {
		t.Errorf("error %.3f ulp at x = %v, more than 1.05", e, xe)
	}
}

// TestSmallMatchesMathCos: for |x| < pi/4 (n = 0) the reduction is
// exact and the polynomial is math.Cos's, evaluated in the same order, so
// where the compiler fuses nothing in math.Cos (amd64) the results agree
// bit for bit.
func TestSmallMatchesMathCos(t *testing.T) {
	// math.Cos's own multiply-adds are fused off amd64, and on amd64 from
	// GOAMD64=v3 on: then only the accuracy tests apply.
	if runtime.GOARCH != "amd64" || fusedMathCos() {
		t.Skip("math.Cos fuses multiply-adds in this build")
	}
	r := rand.New(rand.NewPCG(11, 12))
	x := make([]float64, 10000)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * math.Pi / 4
	}
	withBoth(t, func(name string) {
		g := cosOf(x)
		for i := range g {
			if g[i] != math.Cos(x[i]) {
				t.Fatalf("%s: cos(%v) = %v, math.Cos %v", name, x[i], g[i], math.Cos(x[i]))
			}
		}
	})
}

// TestBeyondBound: arguments outside [-Bound, Bound] give s*math.Cos(x)
// exactly.
func TestBeyondBound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 1000)
	for i := range x {
		x[i] = math.Copysign(math.Exp(math.Log(Bound)+r.Float64()*(math.Log(1e300)-math.Log(Bound))), r.Float64()-0.5)
		if i%10 == 0 {
			x[i] = math.Nextafter(Bound, math.Inf(1)) * float64(1-2*(i/10%2))
		}
	}
	withBoth(t, func(name string) {
		g := cosOfScaled(x, 0.25)
		for i := range g {
			if want := 0.25 * math.Cos(x[i]); g[i] != want {
				t.Errorf("%s: cos(%v) = %v, want %v", name, x[i], g[i], want)
			}
		}
	})
}

// TestEven: cos(-x) == cos(x) bit for bit.
func TestEven(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, 1000)
	for i := range x {
		x[i] = 100 * r.NormFloat64()
	}
	withBoth(t, func(name string) {
		a := cosOf(x)
		for i := range x {
			x[i] = -x[i]
		}
		b := cosOf(x)
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				t.Errorf("%s: cos(%v) = %v, cos(%v) = %v", name, -x[i], a[i], x[i], b[i])
			}
		}
	})
}

// TestLengths runs every length 0..40 (the vector loops' tails) and every
// position of an argument that needs math.Cos, and checks the assembly
// against the Go loop bit for bit, and that b and the elements beyond the
// slice are left alone.
func TestLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 3 * Bound, -1e20}
	for n := 0; n <= 40; n++ {
		for pos := -1; pos < n; pos++ {
			for _, bv := range bad {
				if pos < 0 && bv != bad[0] {
					continue
				}
				dst := make([]float64, n+3)
				b := make([]float64, n+3)
				for i := range dst {
					dst[i] = 10 * r.NormFloat64()
					b[i] = 2 * math.Pi * r.Float64()
				}
				if pos >= 0 {
					dst[pos] = bv
					if pos+5 < n {
						dst[pos+5] = bv // a second one in a later block
					}
				}
				s := 0.0447
				want := append([]float64(nil), dst...)
				for i := 0; i < n; i++ {
					want[i] = s * math.Cos(dst[i]+b[i])
				}
				bcopy := append([]float64(nil), b...)
				var ref []float64
				withBoth(t, func(name string) {
					got := append([]float64(nil), dst...)
					ScaledCosAdd(got[:n], b[:n], s)
					for i := range got {
						if i < n && !(math.Abs(got[i]-want[i]) <= 2.3e-16*math.Abs(s) || math.IsNaN(got[i]) && math.IsNaN(want[i])) ||
							i >= n && got[i] != dst[i] || b[i] != bcopy[i] {
							t.Fatalf("%s: n=%d pos=%d bad=%v: element %d = %v, want %v", name, n, pos, bv, i, got[i], want[i])
						}
					}
					if ref == nil {
						ref = got
						return
					}
					for i := range got {
						if math.Float64bits(got[i]) != math.Float64bits(ref[i]) {
							t.Fatalf("%s: n=%d pos=%d: element %d = %v, the other kernel gave %v", name, n, pos, i, got[i], ref[i])
						}
					}
				})
			}
		}
	}
}

// TestKernelsAgree: assembly and Go loop bit for bit on long random input.
func TestKernelsAgree(t *testing.T) {
	if !hasKernel {
		t.Skip("no assembly kernel on this machine")
	}
	r := rand.New(rand.NewPCG(9, 10))
	for _, scale := range []float64{1e-3, 1, 10, 1e3, 1e5, Bound} {
		n := 1 << 16
		dst := make([]float64, n)
		b := make([]float64, n)
		for i := range dst {
			dst[i] = scale * r.NormFloat64()
			b[i] = 2 * math.Pi * r.Float64()
		}
		a := append([]float64(nil), dst...)
		g := append([]float64(nil), dst...)
		ScaledCosAdd(a, b, 0.3)
		withGo(func() { ScaledCosAdd(g, b, 0.3) })
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(g[i]) {
				t.Fatalf("scale %g: cos(%v+%v): asm %v, go %v", scale, dst[i], b[i], a[i], g[i])
			}
		}
	}
}

func TestPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for len(b) != len(dst)")
		}
	}()
	ScaledCosAdd(make([]float64, 3), make([]float64, 4), 1)
}

func ExampleScaledCosAdd() {
	v := []float64{0, 1, 2}
	ScaledCosAdd(v, []float64{0, math.Pi / 2, -2}, 2)
	fmt.Printf("%.6f\n", v)
	// Output: [2.000000 -1.682942 2.000000]
}

// bothKernels returns cos of x from the kernels withBoth runs, failing
// unless they agree bit for bit.
func bothKernels(t *testing.T, x []float64) []float64 {
	t.Helper()
	var got []float64
	withBoth(t, func(name string) {
		g := cosOf(x)
		if got == nil {
			got = g
			return
		}
		for i := range g {
			if math.Float64bits(g[i]) != math.Float64bits(got[i]) {
				t.Fatalf("%s: cos(%v) = %v, the other kernel gave %v", name, x[i], g[i], got[i])
			}
		}
	})
	return got
}

// fusedMathCos reports whether this build's math.Cos fuses multiply-adds:
// a product x*y + z rounded once differs from the unfused one here.
func fusedMathCos() bool {
	x, y, z := fmaProbe[0], fmaProbe[1], fmaProbe[2]
	return x*y+z != float64(x*y)+z
}

// fmaProbe is a variable so that the compiler cannot fold the probe.
var fmaProbe = []float64{1 + 0x1p-30, 1 - 0x1p-30, -1}
