package fastblas

// Register tile of C computed by one kernel call.
const (
	mr = 6 // rows of C: broadcast values of packed A per step
	nr = 8 // columns of C: two ymm vectors of packed B per step
)

// kern6x8 sets the 6×8 tile at c (row stride ldc) to alpha·Ap·Bp + beta·c,
// where Ap and Bp are packed panels of k steps (mr and nr values per step).
// c is not read when beta == 0. Cost: 96·k flops. Implemented in kernel_amd64.s.
//
//go:noescape
func kern6x8(k int, a, b, c *float64, ldc int, alpha, beta float64)

// Small triangular solves in place on a 6×8 block of B (row stride ldb),
// scaled by alpha, with packed coefficients w: X·U = alpha·B for an 8×8
// upper (RU) or lower (RL) U, L·X = alpha·B for a 6×6 lower (LL) or upper
// (LU) L. See trsm_amd64.s for the layout of w and trsmSmall for packing.
//
//go:noescape
func trsmRU6x8(b *float64, ldb int, w *float64, alpha float64)

//go:noescape
func trsmRL6x8(b *float64, ldb int, w *float64, alpha float64)

//go:noescape
func trsmLL6x8(b *float64, ldb int, w *float64, alpha float64)

//go:noescape
func trsmLU6x8(b *float64, ldb int, w *float64, alpha float64)
