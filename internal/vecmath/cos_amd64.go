package vecmath

import "golang.org/x/sys/cpu"

// useAVX2 selects the assembly kernel; x/sys/cpu reports AVX2 only if the
// OS saves the YMM state. Tests switch it off to run the portable code.
var useAVX2 = cpu.X86.HasAVX2

// Accelerated reports whether ScaledCosAdd runs the AVX2 assembly kernel
// (amd64 with AVX2) rather than the portable Go loop. The results are the
// same bit for bit either way.
func Accelerated() bool { return useAVX2 }

func scaledCosAdd(dst, b []float64, s float64) {
	if !useAVX2 {
		scaledCosAddGo(dst, b, s)
		return
	}
	b = b[:len(dst)]
	for len(dst) >= 4 {
		k := scaledCosAddAVX2(&dst[0], &b[0], len(dst)&^3, s)
		dst, b = dst[k:], b[k:]
		if len(dst) < 4 {
			break
		}
		// The kernel stopped at a block of 4 with an argument outside
		// [-Bound, Bound] or NaN: the Go loop does that block.
		scaledCosAddGo(dst[:4], b[:4], s)
		dst, b = dst[4:], b[4:]
	}
	scaledCosAddGo(dst, b, s)
}

// scaledCosAddAVX2 does scaledCosAddGo on dst[0:n] and b[0:n], n a
// multiple of 4, in blocks of 4 (8 at a time while it can), and returns
// how many elements it did: n, or the start of the first block of 4 that
// holds an argument with !(|x| <= Bound), which it leaves untouched.
//
//go:noescape
func scaledCosAddAVX2(dst, b *float64, n int, s float64) int
