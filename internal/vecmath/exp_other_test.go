//go:build !amd64

package vecmath

// There is no assembly exp outside amd64; useExpAVX2 exists for TestExpNegDiv.
var useExpAVX2 = false
