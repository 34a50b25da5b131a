package fastblas

// UseKernel puts the named micro-kernel ("avx2", "avx512") in use for the
// benchmarks of package fastblas_test and reports whether this CPU runs it.
func UseKernel(name string) bool {
	for _, k := range kernels {
		if k.name == name {
			kern = k
			return true
		}
	}
	return false
}
