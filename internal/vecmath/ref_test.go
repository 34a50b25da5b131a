package vecmath

import (
	"math"
	"math/big"
	"sync"
)

// A cosine to about 300 bits with math/big, for the accuracy tests.

const refPrec = 512

var (
	refOnce   sync.Once
	refPi     *big.Float // pi to refPrec bits
	refHalfPi *big.Float
)

func newF() *big.Float { return new(big.Float).SetPrec(refPrec) }

// atanInv returns atan(1/k) = sum_i (-1)^i / ((2i+1) k^(2i+1)).
func atanInv(k int64) *big.Float {
	sum := newF()
	kk := newF().SetInt64(k)
	pow := newF().Quo(newF().SetInt64(1), kk)
	k2 := newF().Mul(kk, kk)
	eps := newF().SetMantExp(newF().SetInt64(1), -refPrec-8)
	for i := int64(0); ; i++ {
		t := newF().Quo(pow, newF().SetInt64(2*i+1))
		if i%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		if t.Cmp(eps) < 0 {
			return sum
		}
		pow.Quo(pow, k2)
	}
}

// initRef computes pi by Machin's formula, pi = 16 atan(1/5) - 4 atan(1/239).
func initRef() {
	refOnce.Do(func() {
		refPi = newF().Sub(newF().Mul(newF().SetInt64(16), atanInv(5)), newF().Mul(newF().SetInt64(4), atanInv(239)))
		refHalfPi = newF().Quo(refPi, newF().SetInt64(2))
	})
}

// taylor returns sum_k (-1)^k r^(2k+o) / (2k+o)! for o = 0 (cos r) or
// o = 1 (sin r), |r| <= 1.
func taylor(r *big.Float, o int64) *big.Float {
	r2 := newF().Mul(r, r)
	term := newF().SetInt64(1)
	if o == 1 {
		term.Set(r)
	}
	sum := newF().Set(term)
	eps := newF().SetMantExp(newF().SetInt64(1), -refPrec+16)
	for k := o + 1; ; k += 2 {
		term.Mul(term, r2)
		term.Quo(term, newF().SetInt64(k*(k+1)))
		term.Neg(term)
		sum.Add(sum, term)
		if term.Sign() == 0 || newF().Abs(term).Cmp(eps) < 0 {
			return sum
		}
	}
}

// refCos returns cos x to well over 53 bits for finite x with |x| < 2^100.
func refCos(x float64) *big.Float {
	initRef()
	X := newF().SetFloat64(math.Abs(x))
	q := newF().Quo(X, refHalfPi)
	q.Add(q, newF().SetFloat64(0.5))
	n, _ := q.Int(nil) // floor(|x|/(pi/2) + 1/2)
	r := newF().Sub(X, newF().Mul(newF().SetInt(n), refHalfPi))
	c := taylor(r, int64(n.Bit(0)))
	// cos(r + n pi/2) = cos r, -sin r, -cos r, sin r for n mod 4 = 0..3.
	if m := n.Bit(0) | n.Bit(1)<<1; m == 1 || m == 2 {
		c.Neg(c)
	}
	return c
}

// ulpErr returns |got - ref| in units of the last place of ref as a double
// (2^(e-53) for ref in [2^(e-1), 2^e)), for normal ref != 0.
func ulpErr(got float64, ref *big.Float) float64 {
	d := newF().Sub(newF().SetFloat64(got), ref)
	d.Abs(d)
	e := ref.MantExp(nil)
	d.SetMantExp(d, 53-e)
	f, _ := d.Float64()
	return f
}
