package vecmath

import "math"

// Bound is the largest |x| that the polynomial path reduces itself; larger
// arguments, NaN and ±Inf go to math.Cos element by element.
const Bound = 1 << 20

// Range reduction by pi/2 in four parts (Cody and Waite): pi/2 = c1 + c2 +
// c3 + c4 + O(2^-160). c1, c2 and c3 have at most 33 significant bits
// (31, 32 and 28), so n*c1, n*c2 and n*c3 are exact for every integer
// n < 2^20, which covers n = round(|x| 2/pi) for |x| <= Bound; c4 is the
// next 53 bits, rounded.
const (
	c1        = 0x1.921fb544p+00       // 1.5707963267341256
	c2        = 0x1.0b4611a6p-34       // 6.077100506303966e-11
	c3        = 0x1.3198a2ep-69        // 2.0222662487111665e-21
	c4        = 0x1.b839a252049c1p-104 // 8.4784276603689e-32
	twoOverPi = 0x1.45f306dc9c883p-01  // 2/pi rounded
	// magic + y rounds y to an integer (ties to even) for |y| < 2^51 and
	// leaves that integer, mod 2^51, in the low bits of the result.
	magic = 0x1.8p+52
)

// Cephes's minimax polynomials on [-pi/4, pi/4] (as in Go's math.Sin and
// math.Cos): sin r = r + r z S(z) and cos r = 1 - z/2 + z^2 C(z), z = r^2.
const (
	s0 = 0x1.5d8fd1fd19ccdp-33  // 1.58962301576546568060e-10
	s1 = -0x1.ae5e5a9291f5dp-26 // -2.50507477628578072866e-8
	s2 = 0x1.71de3567d48a1p-19  // 2.75573136213857245213e-6
	s3 = -0x1.a01a019bfdf03p-13 // -1.98412698295895385996e-4
	s4 = 0x1.111111110f7dp-07   // 8.33333333332211858878e-3
	s5 = -0x1.5555555555548p-03 // -1.66666666666666307295e-1

	k0 = -0x1.8fa49a0861a9bp-37 // -1.13585365213876817300e-11
	k1 = 0x1.1ee9d7b4e3f05p-29  // 2.08757008419747316778e-9
	k2 = -0x1.27e4f7eac4bc6p-22 // -2.75573141792967388112e-7
	k3 = 0x1.a01a019c844f5p-16  // 2.48015872888517045348e-5
	k4 = -0x1.6c16c16c14f91p-10 // -1.38888888888730564116e-3
	k5 = 0x1.555555555554bp-05  // 4.16666666666665929218e-2
)

// ScaledCosAdd sets dst[j] = s*cos(dst[j]+b[j]) for every j: the argument
// dst[j]+b[j] is rounded to float64 first, as Go would evaluate
// s*math.Cos(dst[j]+b[j]). It panics unless len(b) == len(dst). The result
// is the same bit for bit on every CPU and GOARCH (see the package
// documentation for its accuracy).
func ScaledCosAdd(dst, b []float64, s float64) {
	if len(b) != len(dst) {
		panic("vecmath: ScaledCosAdd: len(b) != len(dst)")
	}
	scaledCosAdd(dst, b, s)
}

// scaledCosAddGo is the portable implementation and the reference that
// the assembly reproduces bit for bit: every product is rounded
// explicitly (float64(a*b)) so that no compiler fuses it into a
// multiply-add, and the additions are done in the same order.
func scaledCosAddGo(dst, b []float64, s float64) {
	b = b[:len(dst)]
	for j, v := range dst {
		x := v + b[j]
		ax := math.Abs(x)
		if !(ax <= Bound) { // also NaN
			dst[j] = s * math.Cos(x)
			continue
		}
		// n = round(|x| 2/pi); the quadrant is n mod 4, the low bits of t.
		t := float64(ax*twoOverPi) + magic
		n := t - magic
		r := ax - float64(n*c1)
		r -= float64(n * c2)
		r -= float64(n * c3)
		r -= float64(n * c4)
		z := float64(r * r)
		ps := float64(s0*z) + s1
		ps = float64(ps*z) + s2
		ps = float64(ps*z) + s3
		ps = float64(ps*z) + s4
		ps = float64(ps*z) + s5
		pc := float64(k0*z) + k1
		pc = float64(pc*z) + k2
		pc = float64(pc*z) + k3
		pc = float64(pc*z) + k4
		pc = float64(pc*z) + k5
		sinr := r + float64(float64(r*z)*ps)
		cosr := (1 - float64(0.5*z)) + float64(float64(z*z)*pc)
		// cos(r + n pi/2) = cos r, -sin r, -cos r, sin r for n mod 4 = 0..3:
		// sin for odd n, negated when bit 1 of n+1 is set.
		q := math.Float64bits(t)
		odd := -(q & 1)
		c := math.Float64bits(sinr)&odd | math.Float64bits(cosr)&^odd
		c ^= (q + 1) >> 1 << 63
		dst[j] = s * math.Float64frombits(c)
	}
}
