package fastblas

import "golang.org/x/sys/cpu"

// hasAVX2FMA enables the assembly kernels; without it every call goes to gonum.
var hasAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// Available reports whether the accelerated routines run on this machine:
// amd64 with AVX2 and FMA.
func Available() bool { return hasAVX2FMA }
