package fastblas

import "golang.org/x/sys/cpu"

// hasAVX2FMA enables the assembly kernels; without it every call goes to
// gonum. hasAVX512 adds the 12×16 Dgemm kernel: x/sys/cpu sets HasAVX512F
// only if the OS also saves the opmask and ZMM state (XCR0 bits 5-7).
var (
	hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	hasAVX512  = hasAVX2FMA && cpu.X86.HasAVX512F
)

// The Dgemm micro-kernels. Blocks: a kc×nr panel of B stays in L1 while
// an mc×kc block of A streams from L2; a kc×nc block of B lives in L3.
// avx2: 16 KiB, 240 KiB, 8 MiB; avx512: 48 KiB, 576 KiB, 12 MiB (on a
// Zen 5, against kc = 256, mc = 120: Dgemm 1024 +45%, 2048 +15%).
var (
	avx2   = &kernel{name: "avx2", mr: 6, nr: 8, kc: 256, mc: 120, nc: 4096}
	avx512 = &kernel{name: "avx512", mr: 12, nr: 16, kc: 384, mc: 192, nc: 4096}
)

// kernels lists the kernels this CPU runs, the default first.
var kernels = pick()

func pick() []*kernel {
	switch {
	case hasAVX512:
		return []*kernel{avx512, avx2}
	case hasAVX2FMA:
		return []*kernel{avx2}
	}
	return nil
}
