package datasets

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/credlab/credlab/internal/errs"
	"gonum.org/v1/gonum/mat"
)

// IDX is an array read from an IDX file, the format of MNIST and
// Fashion-MNIST: Dims[0] items, each a row-major array of the remaining
// dimensions, stored in Data as float64 (the raw values, 0..255 for
// images; no scaling).
type IDX struct {
	Dims []int
	// Type is the element type code from the magic number: 0x08 uint8,
	// 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64.
	Type byte
	Data []float64
}

// maxIDXDims bounds the number of dimensions an IDX header may declare.
const maxIDXDims = 16

// idxChunk is the number of bytes read at a time: memory grows with the
// data actually present, not with the size a corrupt header claims.
const idxChunk = 1 << 16

// idxPrealloc is the most values allocated before they are read (32 MiB):
// enough for the MNIST test images in one allocation, small enough that a
// header claiming more than the file holds costs little.
const idxPrealloc = 1 << 22

// ReadIDX reads an IDX array from r, named name in errors.
//
// The format is a big-endian header: two zero bytes, a type code, the
// number of dimensions k >= 1, then k int32 sizes, followed by the product
// of the sizes in values of that type, big-endian, and nothing else. A
// truncated file, trailing bytes, a negative size, a non-finite float or an
// array over MaxElements values is a *ParseError. The array the header
// declares (8 bytes a value, and Options.NumBytes for the caller) is
// checked against the memory limit (credlab.EffectiveMemoryLimit, internal/memlimit) before
// anything is allocated: a *errs.TooLargeError refuses it. At most one
// opt is used.
func ReadIDX(r io.Reader, name string, opt ...Options) (*IDX, error) {
	o := options(opt)
	var magic [4]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return nil, idxReadError(name, "magic number", err)
	}
	if magic[0] != 0 || magic[1] != 0 {
		return nil, errorf(name, 0, "bad magic number %#02x%02x%02x%02x: an IDX file starts with two zero bytes", magic[0], magic[1], magic[2], magic[3])
	}
	size := idxSize(magic[2])
	if size == 0 {
		return nil, errorf(name, 0, "unknown IDX element type %#02x (want 0x08, 0x09, 0x0b, 0x0c, 0x0d or 0x0e)", magic[2])
	}
	k := int(magic[3])
	if k < 1 || k > maxIDXDims {
		return nil, errorf(name, 0, "%d dimensions: want 1 to %d", k, maxIDXDims)
	}
	hdr := make([]byte, 4*k)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, idxReadError(name, "dimension sizes", err)
	}
	a := &IDX{Type: magic[2], Dims: make([]int, k)}
	total := int64(1)
	for i := range a.Dims {
		v := int32(binary.BigEndian.Uint32(hdr[4*i:]))
		if v < 0 {
			return nil, errorf(name, 0, "dimension %d has size %d: must be >= 0", i, v)
		}
		a.Dims[i] = int(v)
		if v > 0 && total > MaxElements/int64(v) {
			return nil, errorf(name, 0, "dimensions %v exceed the limit of %d values (datasets.MaxElements)", a.Dims[:i+1], MaxElements)
		}
		total *= int64(v)
	}
	if total == 0 {
		return nil, errorf(name, 0, "empty array: dimensions %v", a.Dims)
	}
	// The values, a first block while the data is shorter than declared,
	// and what the caller builds from them.
	first := min(total, idxPrealloc)
	need := float64(total)*(8+o.NumBytes) + float64(first)*8
	if first == total {
		need -= float64(first) * 8
	}
	if limit := memoryLimit(); need > float64(limit) {
		rows := a.Dims[0]
		return nil, &errs.TooLargeError{What: fmt.Sprintf("the IDX file %s as a matrix", name), Rows: rows, Cols: int(total / int64(rows)),
			Bytes: need, Limit: limit, Hint: fmt.Sprintf("its header declares dimensions %v: raise the memory limit, or use fewer items", a.Dims)}
	}
	a.Data = make([]float64, 0, first)
	buf := make([]byte, idxChunk-idxChunk%size)
	for remaining := total * int64(size); remaining > 0; {
		b := buf[:min(int64(len(buf)), remaining)]
		if _, err := io.ReadFull(r, b); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, &ParseError{File: name, Msg: "read error in the data", Err: err}
			}
			return nil, errorf(name, 0, "truncated data: dimensions %v declare %d values but the file ends after about %d", a.Dims, total, len(a.Data))
		}
		remaining -= int64(len(b))
		if len(a.Data)+len(b)/size > cap(a.Data) {
			// The data is longer than the first block: allocate the
			// declared size once (as checked), not by growing steps.
			a.Data = append(make([]float64, 0, total), a.Data...)
		}
		start := len(a.Data)
		a.Data = appendIDX(a.Data, a.Type, size, b)
		if a.Type == 0x0D || a.Type == 0x0E {
			for i, v := range a.Data[start:] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, errorf(name, 0, "value %d is %v: values must be finite", start+i, v)
				}
			}
		}
	}
	var extra [1]byte
	switch n, err := io.ReadFull(r, extra[:]); {
	case n > 0:
		return nil, errorf(name, 0, "trailing bytes after the %d values declared by dimensions %v", total, a.Dims)
	case err != io.EOF:
		return nil, &ParseError{File: name, Msg: "read error", Err: err}
	}
	return a, nil
}

func idxReadError(name, what string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		if what == "magic number" && errors.Is(err, io.EOF) {
			return errorf(name, 0, "empty file: no IDX magic number")
		}
		return errorf(name, 0, "truncated header: missing the %s", what)
	}
	return &ParseError{File: name, Msg: "read error in the " + what, Err: err}
}

// idxSize returns the byte size of an element type, 0 if unknown.
func idxSize(t byte) int {
	switch t {
	case 0x08, 0x09:
		return 1
	case 0x0B:
		return 2
	case 0x0C, 0x0D:
		return 4
	case 0x0E:
		return 8
	}
	return 0
}

// appendIDX decodes the big-endian values of type t in b onto dst.
func appendIDX(dst []float64, t byte, size int, b []byte) []float64 {
	switch t {
	case 0x08:
		for _, v := range b {
			dst = append(dst, float64(v))
		}
	case 0x09:
		for _, v := range b {
			dst = append(dst, float64(int8(v)))
		}
	case 0x0B:
		for off := 0; off < len(b); off += size {
			dst = append(dst, float64(int16(binary.BigEndian.Uint16(b[off:]))))
		}
	case 0x0C:
		for off := 0; off < len(b); off += size {
			dst = append(dst, float64(int32(binary.BigEndian.Uint32(b[off:]))))
		}
	case 0x0D:
		for off := 0; off < len(b); off += size {
			dst = append(dst, float64(math.Float32frombits(binary.BigEndian.Uint32(b[off:]))))
		}
	default:
		for off := 0; off < len(b); off += size {
			dst = append(dst, math.Float64frombits(binary.BigEndian.Uint64(b[off:])))
		}
	}
	return dst
}

// LoadIDX reads the IDX file at path (gzip-compressed if the name ends in
// ".gz", as the staged MNIST files are); see ReadIDX.
func LoadIDX(path string, opt ...Options) (*IDX, error) {
	return load(path, func(r io.Reader, name string) (*IDX, error) { return ReadIDX(r, name, opt...) })
}

// Matrix returns the array as a Dims[0] x (product of the other
// dimensions) matrix: one row per image, pixels in row-major order. A
// one-dimensional array (labels) is a single column.
func (a *IDX) Matrix() *mat.Dense {
	n := a.Dims[0]
	return mat.NewDense(n, len(a.Data)/n, a.Data)
}

// LoadMNIST reads an IDX image file and its label file (either may be
// gzip-compressed) into an n x (rows*cols) matrix of raw pixel values and
// n labels. It checks that the counts agree.
func LoadMNIST(imagesPath, labelsPath string) (*mat.Dense, []float64, error) {
	img, err := LoadIDX(imagesPath)
	if err != nil {
		return nil, nil, err
	}
	lab, err := LoadIDX(labelsPath)
	if err != nil {
		return nil, nil, err
	}
	if len(lab.Dims) != 1 {
		return nil, nil, errorf(labelsPath, 0, "labels have dimensions %v, want one dimension", lab.Dims)
	}
	if lab.Dims[0] != img.Dims[0] {
		return nil, nil, fmt.Errorf("datasets: %s has %d images but %s has %d labels", imagesPath, img.Dims[0], labelsPath, lab.Dims[0])
	}
	return img.Matrix(), lab.Data, nil
}
