package frames

import (
	"fmt"
	"io"

	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// ReadLIBSVM reads LIBSVM (svmlight) sparse rows "<label> <index>:<value>
// ..." into a dense frame with the label in column "y" and feature j in
// column "x<j>" (1-based, as in the file). d is the number of features; 0
// infers it from the largest index. name labels errors.
func ReadLIBSVM(r io.Reader, name string, d int) (dataframe.DataFrame, error) {
	x, y, err := datasets.ReadLIBSVM(r, name, d)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	return labeledFrame("y", y, x, "x", 1), nil
}

// LoadLIBSVM reads the LIBSVM file at path (".gz" decompressed); see
// ReadLIBSVM.
func LoadLIBSVM(path string, d int) (dataframe.DataFrame, error) {
	x, y, err := datasets.LoadLIBSVM(path, d)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	return labeledFrame("y", y, x, "x", 1), nil
}

// ReadIDX reads MNIST-style IDX images and, when labels is not nil, their
// labels into a frame: a "label" column (if any), then one column per
// pixel, "pixel0" ... "pixel<k-1>", in row-major order, with the raw
// values (0..255 for MNIST). The counts must agree.
func ReadIDX(images, labels io.Reader) (dataframe.DataFrame, error) {
	img, err := datasets.ReadIDX(images, "images")
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	var lab *datasets.IDX
	if labels != nil {
		if lab, err = datasets.ReadIDX(labels, "labels"); err != nil {
			return dataframe.DataFrame{}, err
		}
	}
	return idxFrame(img, lab)
}

// LoadIDX reads an IDX image file and, when labelsPath is not empty, its
// label file (".gz" decompressed); see ReadIDX. The staged Fashion-MNIST
// test set is LoadIDX(dir+"/t10k-images-idx3-ubyte.gz",
// dir+"/t10k-labels-idx1-ubyte.gz").
func LoadIDX(imagesPath, labelsPath string) (dataframe.DataFrame, error) {
	img, err := datasets.LoadIDX(imagesPath)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	var lab *datasets.IDX
	if labelsPath != "" {
		if lab, err = datasets.LoadIDX(labelsPath); err != nil {
			return dataframe.DataFrame{}, err
		}
	}
	return idxFrame(img, lab)
}

func idxFrame(img, lab *datasets.IDX) (dataframe.DataFrame, error) {
	if lab == nil {
		return labeledFrame("", nil, img.Matrix(), "pixel", 0), nil
	}
	if len(lab.Dims) != 1 {
		return dataframe.DataFrame{}, fmt.Errorf("frames: labels have dimensions %v, want one dimension", lab.Dims)
	}
	if lab.Dims[0] != img.Dims[0] {
		return dataframe.DataFrame{}, fmt.Errorf("frames: %d images but %d labels", img.Dims[0], lab.Dims[0])
	}
	return labeledFrame("label", lab.Data, img.Matrix(), "pixel", 0), nil
}

// labeledFrame builds a frame with an optional label column and the
// columns of x named prefix+index (from first).
func labeledFrame(label string, y []float64, x *mat.Dense, prefix string, first int) dataframe.DataFrame {
	n, d := x.Dims()
	cols := make([]series.Series, 0, d+1)
	if label != "" {
		cols = append(cols, series.New(y, series.Float, label))
	}
	raw := x.RawMatrix()
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		for i := range col {
			col[i] = raw.Data[i*raw.Stride+j]
		}
		cols = append(cols, series.New(col, series.Float, fmt.Sprintf("%s%d", prefix, j+first)))
	}
	return dataframe.New(cols...)
}
