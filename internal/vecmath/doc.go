// Package vecmath evaluates elementary functions over slices, faster than
// calling package math element by element. Its functions are
// ScaledCosAdd(dst, b, s): dst[j] = s*cos(dst[j]+b[j]), the inner loop of
// random Fourier features (credlab's RandomFourier.Features), and
// ExpNegDiv(dst, c): dst[j] = exp(-dst[j]/c), the Gaussian kernel from
// squared distances (credlab's kernel matrices and Nyström features).
// SqDist(a, b) = ||a-b||^2 and Dot(a, b) = a.b are the plain sums in index
// order behind the pairwise kernel values of credlab and credlab/distreg
// (O(len(a)), inlined by the compiler).
//
// # ExpNegDiv
//
// ExpNegDiv returns math.Exp(-dst[j]/c) bit for bit. On amd64 math.Exp is
// assembly (math/exp_amd64.s, after Shibata's SLEEF): k = round(x log2 e),
// r = (x - k ln 2)/16 with ln 2 in two parts, a degree-8 Taylor
// polynomial, four steps y(y + 2) that undo the 1/16, and the product
// with 2^k; it uses fused multiply-adds when the CPU has AVX and FMA. On
// CPUs with AVX2 and FMA an assembly kernel runs those same operations, in
// the same order, on 4 lanes; a block of 4 with an argument outside
// [ExpLow, ExpHigh] = [-708, 709] (where 2^k is not a normal number) or
// NaN goes to math.Exp, as does every element elsewhere. TestExpNegDiv
// checks the bits against math.Exp, also at the range's edges, for
// subnormal, infinite and NaN inputs. Cost (BenchmarkExpNegDiv, 2 vCPUs of
// an AMD EPYC, idle): 1.9 ns per element against 8.2-8.8 ns for the
// math.Exp loop.
//
// # ScaledCosAdd: algorithm
//
// For x = dst[j]+b[j] (rounded, as Go would evaluate it) the cosine is
// computed from |x|:
//
//   - n = round(|x| 2/pi), by adding and subtracting 1.5*2^52, which leaves
//     n mod 4 (the quadrant) in the low bits of the sum;
//   - r = |x| - n pi/2 in [-pi/4, pi/4] (a little more at the quadrant
//     boundaries), by Cody-Waite reduction with pi/2 in four parts:
//     the first three have at most 33 significant bits, so their products
//     with n < 2^20 are exact, and the first subtraction is exact
//     (Sterbenz); the four parts carry 160 bits of pi/2, enough for full
//     relative accuracy even where r nearly cancels (x close to a zero of
//     cos);
//   - sin r and cos r by Cephes's minimax polynomials on [-pi/4, pi/4] (the
//     ones Go's math.Sin and math.Cos use), degree 13 and 14;
//   - cos x = cos r, -sin r, -cos r, sin r for n mod 4 = 0, 1, 2, 3, chosen
//     with bit masks, not branches.
//
// Arguments with !(|x| <= Bound) (Bound = 2^20), that is also NaN and
// ±Inf, go to math.Cos element by element, so every result is right; in
// the assembly a block of 4 that contains one goes to the Go loop.
//
// # ScaledCosAdd: accuracy
//
// Measured against cos computed to 500 bits with math/big (TestAccuracy,
// TestZeros): at most 1.5 ulp for |x| <= 1000 (math.Cos: also 1.5, the same
// polynomials), 2.15 ulp up to Bound (where the reduction rounds twice;
// math.Cos 1.5), and 1.0 ulp at the doubles nearest to every zero
// k pi/2 (k odd) of cos below Bound, where |cos x| goes down to 6e-19
// (math.Cos, with pi/4 in three parts: up to 7e6 ulp there).
// ulp is the spacing of doubles at the exact value. For |x| <= pi/4 the
// result equals math.Cos's on amd64 builds that do not fuse multiply-adds
// (GOAMD64 v1 and v2, the default).
//
// # ScaledCosAdd: reproducibility
//
// The portable Go loop rounds every product explicitly (float64(a*b)), so
// that no compiler fuses a multiply and an add, and the amd64 assembly
// runs the same operations in the same order: for |x| <= Bound,
// ScaledCosAdd gives the same bits on every CPU and GOARCH, with or
// without the assembly, and (being elementwise) for any split of the slice
// between goroutines. Beyond Bound it gives math.Cos's bits, which depend
// on whether the build fuses multiply-adds (arm64, GOAMD64=v3).
//
// # ScaledCosAdd: cost
//
// On amd64 with AVX2 (golang.org/x/sys/cpu; see Accelerated) an assembly
// kernel does 4 elements per ymm register, two registers interleaved;
// elsewhere a branch-free scalar Go loop. About 50 operations per element
// (per 4 elements in the kernel), no division, no table. Measured on 2
// shared vCPUs of an AMD EPYC (load 1.5; BenchmarkScaledCosAdd, arguments
// about N(0, 10^2) plus U[0, 2 pi), n = 1000 and 100000, one run side by
// side): AVX2 kernel 1.6 ns per element, Go loop 9.1 ns, the math.Cos
// loop it replaces 23 ns (9 ns when the same 1000 inputs repeat and the
// branch predictor learns math.Cos's quadrant branches).
package vecmath
