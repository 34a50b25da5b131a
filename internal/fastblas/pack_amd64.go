package fastblas

import "sync"

// pack copies a lanes×kb block into w-wide panels for the kernel: element
// (l, p) = src[l*ls + p*ps] goes to dst[(l/w)*w*kb + p*w + l%w], and lanes
// of the last panel past lanes are zero. Either ls or ps is 1; w is mr or
// nr. Cost: one read and one write per element of the padded block.
func pack(dst, src []float64, lanes, kb, w, ls, ps int) {
	for l0 := 0; l0 < lanes; l0 += w {
		d := dst[l0*kb : (l0+w)*kb]
		s := src[l0*ls:]
		nl := min(w, lanes-l0)
		switch {
		case nl < w:
			packEdge(d, s, nl, kb, w, ls, ps)
		case ps == 1 && w == mr:
			gather6(d, s, ls, kb)
		case ps == 1:
			gather8(d, s, ls, kb)
		case w == mr:
			copy6(d, s, ps, kb)
		default:
			copy8(d, s, ps, kb)
		}
	}
}

// packEdge packs the last, partial panel of nl < w lanes, zero-padded.
func packEdge(d, s []float64, nl, kb, w, ls, ps int) {
	clear(d)
	for l := range nl {
		for p := range kb {
			d[p*w+l] = s[l*ls+p*ps]
		}
	}
}

// gather6 interleaves six rows of kb values (row stride ls) into d.
func gather6(d, s []float64, ls, kb int) {
	r0, r1, r2 := s[:kb], s[ls:][:kb], s[2*ls:][:kb]
	r3, r4, r5 := s[3*ls:][:kb], s[4*ls:][:kb], s[5*ls:][:kb]
	d = d[:6*kb]
	for p := range kb {
		q := d[6*p : 6*p+6 : 6*p+6]
		q[0], q[1], q[2], q[3], q[4], q[5] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p]
	}
}

// gather8 interleaves eight rows of kb values (row stride ls) into d.
func gather8(d, s []float64, ls, kb int) {
	r0, r1, r2, r3 := s[:kb], s[ls:][:kb], s[2*ls:][:kb], s[3*ls:][:kb]
	r4, r5, r6, r7 := s[4*ls:][:kb], s[5*ls:][:kb], s[6*ls:][:kb], s[7*ls:][:kb]
	d = d[:8*kb]
	for p := range kb {
		q := d[8*p : 8*p+8 : 8*p+8]
		q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p], r6[p], r7[p]
	}
}

// copy6 copies kb runs of six contiguous values (run stride ps) into d.
func copy6(d, s []float64, ps, kb int) {
	d = d[:6*kb]
	for p := range kb {
		q, r := d[6*p:6*p+6:6*p+6], s[p*ps:][:6]
		q[0], q[1], q[2], q[3], q[4], q[5] = r[0], r[1], r[2], r[3], r[4], r[5]
	}
}

// copy8 copies kb runs of eight contiguous values (run stride ps) into d.
func copy8(d, s []float64, ps, kb int) {
	d = d[:8*kb]
	for p := range kb {
		q, r := d[8*p:8*p+8:8*p+8], s[p*ps:][:8]
		q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7] = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
	}
}

// bufPool recycles packing buffers between calls and goroutines.
var bufPool sync.Pool

// getBuf returns a buffer of length n from the pool or freshly allocated.
func getBuf(n int) *[]float64 {
	if p, ok := bufPool.Get().(*[]float64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]float64, n)
	return &s
}
