//go:build !amd64

package fastblas

// kernels is empty outside amd64: Implementation is gonum's.
var kernels []*kernel
