package fastblas

import "sync"

// pack copies a lanes×kb block into w-wide panels for the kernel: element
// (l, p) = src[l*ls + p*ps] goes to dst[(l/w)*w*kb + p*w + l%w], and lanes
// of the last panel past lanes are zero. Either ls or ps is 1; w ≥ 4 is
// the kernel's mr or nr. Cost: one read and one write per element of the
// padded block.
func pack(dst, src []float64, lanes, kb, w, ls, ps int) {
	for l0 := 0; l0 < lanes; l0 += w {
		d := dst[l0*kb : (l0+w)*kb]
		s := src[l0*ls:]
		nl := min(w, lanes-l0)
		switch {
		case nl < w:
			packEdge(d, s, nl, kb, w, ls, ps)
		case ps == 1:
			gather(d, s, w, ls, kb)
		case w == 6:
			copy6(d, s, ps, kb)
		case w == 8:
			copy8(d, s, ps, kb)
		default:
			for p := range kb {
				copy(d[p*w:p*w+w], s[p*ps:p*ps+w])
			}
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

// gather interleaves w ≥ 4 rows of kb values (row stride ls) into d,
// four rows at a time; when 4 does not divide w the last four rows overlap
// the previous ones (w = 6: rows 2 and 3 are written twice).
func gather(d, s []float64, w, ls, kb int) {
	d = d[:w*kb]
	_ = s[(w-1)*ls+kb-1]
	k4 := kb &^ 3
	for l := 0; l < w; l += 4 {
		l = min(l, w-4)
		if k4 > 0 {
			gather4(&d[l], w, &s[l*ls], ls, k4)
		}
		for p := k4; p < kb; p++ {
			q := d[p*w+l : p*w+l+4 : p*w+l+4]
			q[0], q[1], q[2], q[3] = s[l*ls+p], s[(l+1)*ls+p], s[(l+2)*ls+p], s[(l+3)*ls+p]
		}
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
