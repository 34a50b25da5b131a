package vecmath

import "golang.org/x/sys/cpu"

// hasKernel: this CPU runs the assembly kernel (useAVX2 may be switched off).
var hasKernel = cpu.X86.HasAVX2
