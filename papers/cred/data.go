package cred

import (
	"encoding/binary"
	"fmt"
	"io"
	"path/filepath"

	"github.com/credlab/credlab/internal/datasets"
	"github.com/credlab/credlab/papers/internal/staged"
	"gonum.org/v1/gonum/mat"
)

// imageSet is a pool (the training images) and a test set, one image per
// row with pixels in [0, 1].
type imageSet struct {
	Name        string
	Pool, Test  *mat.Dense
	Description string
}

// readIDX reads an IDX3 image file (magic 0x00000803, big-endian
// count, rows, cols, then count*rows*cols bytes) into a count x (rows*cols)
// matrix of pixels divided by 255. name is used in errors.
func readIDX(r io.Reader, name string) (*mat.Dense, error) {
	var hdr [4]uint32
	if err := binary.Read(r, binary.BigEndian, &hdr); err != nil {
		return nil, fmt.Errorf("repro: %s: reading the IDX header: %w", name, err)
	}
	if hdr[0] != 0x00000803 {
		return nil, fmt.Errorf("repro: %s: IDX magic %#08x, want 0x00000803 (unsigned-byte images)", name, hdr[0])
	}
	n, rows, cols := int64(hdr[1]), int64(hdr[2]), int64(hdr[3])
	if n == 0 || rows == 0 || cols == 0 || n*rows*cols > datasets.MaxElements {
		return nil, fmt.Errorf("repro: %s: IDX header claims %d images of %d x %d", name, n, rows, cols)
	}
	d := int(rows * cols)
	buf := make([]byte, d)
	data := make([]float64, int(n)*d)
	for i := 0; i < int(n); i++ {
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, fmt.Errorf("repro: %s: image %d of %d: %w", name, i+1, n, err)
		}
		row := data[i*d : (i+1)*d]
		for j, b := range buf {
			row[j] = float64(b) / 255
		}
	}
	return mat.NewDense(int(n), d, data), nil
}

// loadIDX reads a (possibly gzip-compressed) IDX3 image file.
func loadIDX(path string) (*mat.Dense, error) {
	f, err := datasets.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readIDX(f, path)
}

// loadFashionMNIST returns the 60,000 Fashion-MNIST training images as the
// pool and the 10,000 test images, pixels / 255.
func loadFashionMNIST(dataDir string) (*imageSet, error) {
	dir := filepath.Join(dataDir, "fashion-mnist")
	pool, err := loadIDX(filepath.Join(dir, "train-images-idx3-ubyte.gz"))
	if err != nil {
		return nil, err
	}
	test, err := loadIDX(filepath.Join(dir, "t10k-images-idx3-ubyte.gz"))
	if err != nil {
		return nil, err
	}
	return &imageSet{Name: "fashion-mnist", Pool: pool, Test: test,
		Description: "Fashion-MNIST, 60,000 training images as the pool, 10,000 test images, pixels/255"}, nil
}

// loadUSPS returns the USPS training digits (7,291) as the pool and the
// 2,007 test digits. The files store pixels in [-1, 1] (background -1);
// they are mapped to (v+1)/2 in [0, 1], background 0, the scale of the
// MNIST images divided by 255.
func loadUSPS(dataDir string) (*imageSet, error) {
	pool, _, test, _, err := staged.USPS(dataDir)
	if err != nil {
		return nil, err
	}
	for _, x := range []struct {
		name string
		x    *mat.Dense
	}{{"zip.train.gz", pool}, {"zip.test.gz", test}} {
		if _, d := x.x.Dims(); d != 256 {
			return nil, fmt.Errorf("repro: %s: %d pixel columns, want 256", x.name, d)
		}
	}
	return &imageSet{Name: "usps", Pool: pool, Test: test,
		Description: "USPS, 7,291 training digits as the pool, 2,007 test digits, pixels mapped from [-1, 1] to [0, 1]"}, nil
}
