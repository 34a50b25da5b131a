//go:build !amd64

package vecmath

func scaledCosAdd(dst, b []float64, s float64) { scaledCosAddGo(dst, b, s) }

// Accelerated reports whether ScaledCosAdd runs vector assembly; it never
// does outside amd64.
func Accelerated() bool { return false }
