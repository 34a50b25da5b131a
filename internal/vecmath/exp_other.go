//go:build !amd64

package vecmath

func expNegDiv(dst []float64, c float64) { expNegDivGo(dst, c) }
