//go:build !openblas

package credlab

// BLASBackend names the BLAS implementation in use: pure-Go gonum by
// default, "openblas" when built with -tags openblas.
const BLASBackend = "gonum"
