package frames

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

func TestSaveLoad(t *testing.T) {
	train := regFrame(t, 120, 8)
	train = train.Mutate(series.New(strings.Split(strings.Repeat("u,v,w,", 40), ",")[:120], series.String, "c"))
	test := regFrame(t, 30, 9).Mutate(series.New(strings.Split(strings.Repeat("w,v,", 15), ",")[:30], series.String, "c"))
	for _, spec := range []Spec{
		{Method: "krls", Sigma: 0.5, OneHot: true, Scale: "standardize"},
		{Method: "kols", Kernel: "polynomial", Degree: 2},
		{Method: "gd", Kernel: "laplacian", Sigma: 1, Iters: 20},
		{Method: "krls", Kernel: "matern32", Sigma: 1.5},
		{Method: "nkrls", M: 30, Kernel: "matern52", Sigma: 1.5},
		{Method: "nkrls", M: 30, Kernel: "manhattan", Sigma: 4},
		{Method: "krls", Kernel: "manhattan", Sigma: 2},
		{Method: "nkrls", M: 30, Kernel: "linear", Lambda: 1e-3},
		{Method: "nytro", M: 30, Sigma: 0.5, MaxIter: 50},
		{Method: "linear", Scale: "standardize", OneHot: true},
		{Method: "linear", NoBias: true, Lambda: 1e-2},
		{Method: "linear", FeatureMap: "fourier", M: 40, Sigma: 0.5},
		{Method: "lineargd", FeatureMap: "relu", Widths: []int{8, 6}, Iters: 10},
		{Method: "linear", FeatureMap: "nystrom", M: 25, Sigma: 0.5, OneHot: true},
		{Method: "sgm", Sigma: 0.5, Passes: 5},
	} {
		spec.Target = "y"
		if !spec.OneHot {
			spec.Exclude = []string{"c"}
		}
		t.Run(spec.Method+"/"+spec.FeatureMap, func(t *testing.T) {
			m, err := Fit(train, spec)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := m.Save(&b); err != nil {
				t.Fatal(err)
			}
			m2, err := LoadModel(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			p1, err := m.PredictValues(test)
			if err != nil {
				t.Fatal(err)
			}
			p2, err := m2.PredictValues(test)
			if err != nil {
				t.Fatal(err)
			}
			for i := range p1 {
				if p1[i] != p2[i] {
					t.Fatalf("row %d: %v before saving, %v after", i, p1[i], p2[i])
				}
			}
			if m2.Spec.Method != m.Spec.Method || m2.Lambda != m.Lambda || m2.Iter != m.Iter || m2.Passes != m.Passes || m2.Fit != nil ||
				!(m2.ValRMSE == m.ValRMSE || math.IsNaN(m.ValRMSE) && math.IsNaN(m2.ValRMSE)) {
				t.Errorf("record lost: %v vs %v", m2, m)
			}
			var b2 bytes.Buffer
			if err := m2.Save(&b2); err != nil || !bytes.Equal(b.Bytes(), b2.Bytes()) {
				t.Errorf("save after load differs (%v)", err)
			}
		})
	}
}

func TestSaveLoadFile(t *testing.T) {
	m, err := Fit(regFrame(t, 40, 1), Spec{Target: "y", Method: "krls", Lambda: 1e-3, Sigma: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.json")
	if err := m.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadModelFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadModelFile(path + ".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	wantIs(credlab.ErrEmpty)(t, (*Model)(nil).Save(&bytes.Buffer{}))
}

// TestLoadGolden reads hand-written files of versions 1.0 (with a field
// from a later minor version) and 2.0 (with an intercept and an automatic
// choice) and checks their predictions by hand.
func TestLoadGolden(t *testing.T) {
	for _, c := range []struct {
		file      string
		intercept float64
		scale     string
	}{
		{"testdata/model-v1.json", 0, ScaleStandardize},
		{"testdata/model-v2.json", 3.5, ScaleStandardize},
	} {
		m, err := LoadModelFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		df := dataframe.New(series.New([]string{"blue", "red"}, series.String, "color"), series.New([]float64{10, 12}, series.Float, "x"))
		out, err := Predict(m, df)
		if err != nil {
			t.Fatal(err)
		}
		p := col(t, out, "prediction")
		want := 1 - math.Exp(-1.5)
		if math.Abs(p[0]-c.intercept-want) > 1e-15 || math.Abs(p[1]-c.intercept+want) > 1e-15 {
			t.Errorf("%s: predictions %v, want %v ± %v", c.file, p, c.intercept, want)
		}
		if m.Spec.Scale != c.scale || m.Spec.NoIntercept != (c.intercept == 0) {
			t.Errorf("%s: scale %q, no intercept %v", c.file, m.Spec.Scale, m.Spec.NoIntercept)
		}
	}
	m, err := LoadModelFile("testdata/model-v2.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Choice == nil || m.Choice.Criterion != "gcv" || m.Choice.Score != 0.0625 || len(m.Warnings) != 1 || m.ValRMSE != 0.25 {
		t.Errorf("choice %+v, warnings %v, validation RMSE %v", m.Choice, m.Warnings, m.ValRMSE)
	}
	for _, want := range []string{"method krls (automatic: 2 rows: exact)", "criterion gcv = 0.0625", "intercept 3.5", "warning: column \"z\" is constant"} {
		if !strings.Contains(m.Summary(), want) {
			t.Errorf("summary lacks %q:\n%s", want, m.Summary())
		}
	}
}

func TestLoadErrors(t *testing.T) {
	good, err := os.ReadFile("testdata/model-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) string {
		s := string(good)
		if !strings.Contains(s, old) {
			t.Fatalf("golden file lacks %q", old)
		}
		return strings.Replace(s, old, new, 1)
	}
	for _, c := range []struct {
		// what is the problem Load finds, for the reader: the test checks
		// the error's type, not its message.
		name, in, what string
		corrupt        bool
	}{
		{"major version", edit(`"version": "1.0"`, `"version": "5.0"`), "format version 5.0", false},
		{"intercept", edit(`"coef": [1, -1]`, `"coef": [1, -1], "intercept": "x"`), "cannot unmarshal", true},
		{"empty", "", "not valid JSON", true},
		{"truncated", string(good[:len(good)/2]), "not valid JSON", true},
		{"not a model", `{"hello": 1}`, "not a credlab model file", true},
		{"no version", edit(`"version": "1.0",`, ``), "no format version", true},
		{"bad version", edit(`"1.0"`, `"one"`), `format version "one"`, true},
		{"wrong type", edit(`"coef": [1, -1]`, `"coef": "many"`), "cannot unmarshal", true},
		{"unknown method", edit(`"method": "krls",`, `"method": "magic",`), `Spec.Method = "magic"`, true},
		{"settings method", edit(`"method": "krls", "kernel"`, `"method": "nkrls", "kernel"`), `settings for "nkrls"`, true},
		{"coef count", edit(`"coef": [1, -1]`, `"coef": [1, -1, 2]`), "centers has 2 rows, want 3", true},
		{"center width", edit(`[1, 0, 1]]`, `[1, 0]]`), "centers row 1 has 2 values, want 3", true},
		{"columns", edit(`"color=red"]`, `"color=green"]`), `design column 2 is "color=green"`, true},
		{"scale", edit(`"scale": [2, 1, 1]`, `"scale": [2, 0, 1]`), "scale[1] = 0", true},
		{"scale count", edit(`"scale": [2, 1, 1]`, `"scale": [2, 1]`), "2 scales for 3 columns", true},
		{"kernel", edit(`"name": "gaussian", "sigma": 1`, `"name": "gaussian", "sigma": -1`), "sigma = -1", true},
		{"kernel name", edit(`"name": "gaussian"`, `"name": "sinc"`), `unknown kernel "sinc"`, true},
		{"no kernel", edit(`"kernel": {"name": "gaussian", "sigma": 1},`, ``), "neither a kernel nor a feature map", true},
		{"both", edit(`"coef"`, `"feature_map": {"type": "raw"}, "coef"`), "both a kernel and a feature map", true},
		{"no coef", edit(`"coef": [1, -1]`, `"coef": []`), "no coefficients", true},
		{"duplicate feature", edit(`["x", "color"]`, `["x", "x"]`), "named twice", true},
		{"levels", edit(`"levels": ["blue", "red"]`, `"levels": []`), "has no levels", true},
		{"bad number", edit(`"coef": [1, -1]`, `"coef": [1, 1e999]`), "cannot unmarshal number 1e999", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := LoadModel(strings.NewReader(c.in))
			if m != nil {
				t.Error("model returned with an error")
			}
			if err == nil {
				t.Fatalf("no error, want one for %s", c.what)
			}
			if errors.Is(err, ErrCorruptModel) != c.corrupt {
				t.Errorf("error %q: errors.Is(ErrCorruptModel) = %v, want %v", err, !c.corrupt, c.corrupt)
			}
			if !c.corrupt {
				var ve *ModelVersionError
				if !errors.As(err, &ve) || ve.Version != "5.0" || ve.Oldest != 1 || ve.Newest != 4 {
					t.Errorf("error %q (%T): want a *ModelVersionError for 5.0, reading 1.x to 4.x", err, err)
				}
			}
		})
	}
	// Feature-map documents.
	fm := func(method, body string) string {
		return `{"format": "credlab-model", "version": "1.3", "method": "` + method + `", "settings": {"method": "` + method + `"},
 "features": ["a", "b"], "columns": ["a", "b"], "feature_map": ` + body + `, "coef": [1, 2, 3]}`
	}
	// msg is empty for a good document, else the problem Load finds (the
	// test checks the error's type, not its message).
	for _, c := range []struct{ name, in, msg string }{
		{"raw ok", fm("linear", `{"type": "raw", "bias": true}`), ""},
		{"raw width", fm("linear", `{"type": "raw"}`), "raw features give 2 values but there are 3 coefficients"},
		{"fourier ok", fm("linear", `{"type": "fourier", "w": [[1,2,3],[4,5,6]], "b": [0,1,2]}`), ""},
		{"fourier b", fm("linear", `{"type": "fourier", "w": [[1,2,3],[4,5,6]], "b": [0]}`), "fourier b has 1 values, want 3"},
		{"fourier w", fm("linear", `{"type": "fourier", "w": [[1,2,3]], "b": [0,1,2]}`), "fourier w has 1 rows, want 2"},
		{"relu ok", fm("lineargd", `{"type": "relu", "layers": [[[1,2],[3,4]], [[1,2,3],[4,5,6]]]}`), ""},
		{"relu chain", fm("lineargd", `{"type": "relu", "layers": [[[1,2],[3,4]], [[1,2,3]]]}`), "relu layer 1 has 1 rows, want 2"},
		{"relu empty", fm("lineargd", `{"type": "relu"}`), "without layers"},
		{"nystrom ok", fm("linear", `{"type": "nystrom", "kernel": {"name": "linear"}, "centers": [[1,0],[0,1],[1,1]], "index": [0,1,2], "l": [[1,0,0],[0,1,0],[1,1,1]]}`), ""},
		{"nystrom upper", fm("linear", `{"type": "nystrom", "kernel": {"name": "linear"}, "centers": [[1,0],[0,1],[1,1]], "index": [0,1,2], "l": [[1,1,0],[0,1,0],[1,1,1]]}`), "not lower triangular"},
		{"nystrom diag", fm("linear", `{"type": "nystrom", "kernel": {"name": "linear"}, "centers": [[1,0],[0,1],[1,1]], "index": [0,1,2], "l": [[1,0,0],[0,0,0],[1,1,1]]}`), "diagonal must be positive"},
		{"nystrom kernel", fm("linear", `{"type": "nystrom", "centers": [[1,0]]}`), "without a kernel"},
		{"nystrom index", fm("linear", `{"type": "nystrom", "kernel": {"name": "linear"}, "centers": [[1,0],[0,1],[1,1]], "index": [0], "l": [[1,0,0],[0,1,0],[1,1,1]]}`), "index has 1 entries"},
		{"unknown map", fm("linear", `{"type": "wavelet"}`), `unknown feature map "wavelet"`},
		{"map for kernel method", fm("krls", `{"type": "raw", "bias": true}`), "needs a kernel and centers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := LoadModel(strings.NewReader(c.in))
			if c.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				df := dataframe.New(series.New([]float64{1, 2}, series.Float, "a"), series.New([]float64{3, 4}, series.Float, "b"))
				if _, err := m.PredictValues(df); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantIs(ErrCorruptModel)(t, err)
		})
	}
}

func FuzzLoad(f *testing.F) {
	addSeed(f, "testdata/model-v1.json")
	train := regFrame(f, 30, 2)
	for _, spec := range []Spec{
		{Target: "y", Method: "nkrls", M: 5, Sigma: 1, Lambda: 1e-2, Scale: "standardize"},
		{Target: "y", Method: "linear", FeatureMap: "fourier", M: 4, Sigma: 1, Lambda: 1e-2},
		{Target: "y", Method: "lineargd", FeatureMap: "relu", Widths: []int{3}, Iters: 3},
	} {
		m, err := Fit(train, spec)
		if err != nil {
			f.Fatal(err)
		}
		var b bytes.Buffer
		if err := m.Save(&b); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	probe := dataframe.New(series.New([]float64{0.1, -0.3}, series.Float, "a"), series.New([]float64{0.2, 0.5}, series.Float, "b"),
		series.New([]float64{0.7, 0.5}, series.Float, "x"), series.New([]string{"red", "blue"}, series.String, "color"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := LoadModel(bytes.NewReader(data))
		if err != nil {
			if m != nil {
				t.Fatal("model returned with an error")
			}
			return
		}
		// A model that loads predicts or fails with an error, and saves.
		// Load checks that a model is consistent (its design as wide as its
		// centers or feature map, one coefficient per center or feature), so
		// prediction may fail (a column the probe lacks) but never with a
		// shape mismatch or an empty model in credlab, nor as corrupt.
		if _, err := m.PredictValues(probe); errors.Is(err, credlab.ErrShape) || errors.Is(err, credlab.ErrEmpty) || errors.Is(err, ErrCorruptModel) {
			t.Fatalf("a loaded model is corrupt at prediction: %v", err)
		}
		if err := m.Save(&bytes.Buffer{}); err != nil {
			t.Fatalf("a loaded model does not save: %v", err)
		}
	})
}
