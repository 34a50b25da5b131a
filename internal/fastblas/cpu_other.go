//go:build !amd64

package fastblas

// Available reports whether the accelerated routines run on this machine:
// never outside amd64, where Implementation is gonum's.
func Available() bool { return false }
