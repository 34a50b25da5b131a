//go:build !amd64

package vecmath

// There is no assembly kernel outside amd64; useAVX2 exists for withGo.
const hasKernel = false

var useAVX2 = false
