package datasets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIDX(t *testing.T) {
	for _, suffix := range []string{"", ".gz"} {
		x, y, err := LoadMNIST("testdata/idx/tiny-images-idx3-ubyte"+suffix, "testdata/idx/tiny-labels-idx1-ubyte"+suffix)
		if err != nil {
			t.Fatal(err)
		}
		wantMatrix(t, x, [][]float64{{0, 255, 10, 20}, {1, 2, 3, 4}, {200, 100, 50, 0}})
		wantSlice(t, y, []float64{7, 2, 9})
	}
	a, err := LoadIDX("testdata/idx/tiny-images-idx3-ubyte")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Dims) != 3 || a.Dims[0] != 3 || a.Dims[1] != 2 || a.Dims[2] != 2 || a.Type != 0x08 {
		t.Errorf("dims %v type %#x", a.Dims, a.Type)
	}
	a, err = LoadIDX("testdata/idx/float64-idx2")
	if err != nil {
		t.Fatal(err)
	}
	wantMatrix(t, a.Matrix(), [][]float64{{1.5, -2, 0}, {3.25, 1e-3, 7}})
	a, err = LoadIDX("testdata/idx/int16-idx1")
	if err != nil {
		t.Fatal(err)
	}
	wantSlice(t, a.Data, []float64{-300, 0, 300})
	wantMatrix(t, a.Matrix(), [][]float64{{-300}, {0}, {300}})
}

// idxBytes builds an IDX file with element type typ, dims and raw data.
func idxBytes(typ byte, dims []int32, data []byte) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, uint32(d))
	}
	return append(b, data...)
}

func TestIDXErrors(t *testing.T) {
	f32nan := binary.BigEndian.AppendUint32(nil, 0x7fc00000)
	cases := []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, "empty file"},
		{"short magic", []byte{0, 0}, "truncated header"},
		{"bad magic", []byte{1, 0, 8, 1, 0, 0, 0, 1, 5}, "bad magic number"},
		{"bad type", []byte{0, 0, 7, 1, 0, 0, 0, 1, 5}, "unknown IDX element type"},
		{"zero dims", []byte{0, 0, 8, 0}, "0 dimensions"},
		{"too many dims", []byte{0, 0, 8, 17}, "17 dimensions"},
		{"short dims", []byte{0, 0, 8, 2, 0, 0, 0, 1}, "missing the dimension sizes"},
		{"negative", idxBytes(8, []int32{-1}, nil), "size -1"},
		{"zero size", idxBytes(8, []int32{3, 0}, nil), "empty array"},
		{"huge", idxBytes(8, []int32{1 << 30, 1 << 30}, nil), "exceed the limit"},
		{"truncated", idxBytes(8, []int32{2, 2}, []byte{1, 2, 3}), "truncated data"},
		{"truncated wide", idxBytes(0x0E, []int32{1}, []byte{1, 2, 3, 4}), "truncated data"},
		{"trailing", idxBytes(8, []int32{2}, []byte{1, 2, 3}), "trailing bytes"},
		{"nan", idxBytes(0x0D, []int32{1}, f32nan), "must be finite"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := ReadIDX(bytes.NewReader(c.data), "bad.idx")
			if a != nil {
				t.Error("array returned with an error")
			}
			wantErr(t, err, 0, c.msg)
		})
	}
}

func TestIDXLoadErrors(t *testing.T) {
	if _, err := LoadIDX("testdata/idx/does-not-exist"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	_, _, err := LoadMNIST("testdata/idx/tiny-images-idx3-ubyte", "testdata/idx/tiny-images-idx3-ubyte")
	wantErr(t, err, 0, "want one dimension")
	dir := t.TempDir()
	two := filepath.Join(dir, "two-labels")
	if err := os.WriteFile(two, idxBytes(8, []int32{2}, []byte{1, 2}), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = LoadMNIST("testdata/idx/tiny-images-idx3-ubyte", two)
	if err == nil || !strings.Contains(err.Error(), "3 images but") {
		t.Errorf("count mismatch: %v", err)
	}
}

// errReader fails after its data.
type errReader struct{ r io.Reader }

func (e errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		return n, errors.New("disk on fire")
	}
	return n, err
}

func TestIDXReadError(t *testing.T) {
	data := idxBytes(8, []int32{4}, []byte{1, 2})
	_, err := ReadIDX(errReader{bytes.NewReader(data)}, "fire.idx")
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("read error: %v", err)
	}
}

func FuzzIDX(f *testing.F) {
	for _, name := range []string{"tiny-images-idx3-ubyte", "tiny-labels-idx1-ubyte", "float64-idx2", "int16-idx1"} {
		addFile(f, filepath.Join("testdata", "idx", name))
	}
	f.Add(idxBytes(0x0C, []int32{1, 1}, []byte{0, 0, 0, 9}))
	f.Add(idxBytes(0x09, []int32{1 << 20}, []byte{0x80}))
	// A header declaring 2 images of 4000 x 4000.
	f.Add(idxBytes(0x08, []int32{2, 4000, 4000}, []byte{1, 2, 3}))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func(m int64) { MaxElements = m }(MaxElements)
		MaxElements = fuzzLimit
		a, err := ReadIDX(bytes.NewReader(data), "fuzz")
		if err != nil {
			checkErrorType(t, err)
			if a != nil {
				t.Fatalf("error %v, array %v", err, a)
			}
			return
		}
		n := 1
		for _, d := range a.Dims {
			n *= d
		}
		if n != len(a.Data) || n == 0 {
			t.Fatalf("dims %v but %d values", a.Dims, len(a.Data))
		}
		if r, c := a.Matrix().Dims(); r*c != n {
			t.Fatalf("matrix %d x %d for %d values", r, c, n)
		}
	})
}

// TestStagedIDX reads the staged Fashion-MNIST test set when present.
func TestStagedIDX(t *testing.T) {
	dir := filepath.Join(dataDir(t), "fashion-mnist")
	x, y, err := LoadMNIST(filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), filepath.Join(dir, "t10k-labels-idx1-ubyte.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); r != 10000 || c != 784 {
		t.Errorf("fashion-mnist t10k %d x %d", r, c)
	}
	for k := 0.0; k < 10; k++ {
		if c := count(y, k); c != 1000 {
			t.Errorf("class %v has %d test images, want 1000", k, c)
		}
	}
}

// dataDir is the staged data, ../shared/data from the repository root,
// or $CREDLAB_DATA.
func dataDir(t *testing.T) string {
	d := os.Getenv("CREDLAB_DATA")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared", "data")
	}
	if _, err := os.Stat(d); err != nil {
		t.Skipf("staged data not found at %s (set CREDLAB_DATA)", d)
	}
	return d
}

func count(y []float64, v float64) int {
	c := 0
	for _, u := range y {
		if u == v {
			c++
		}
	}
	return c
}
