package frames

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/series"
)

// TestCheckSpec checks that CheckSpec returns, without data, the error Fit
// returns for a spec that is wrong whatever the data, and nil for a spec
// whose only problem is in the data.
func TestCheckSpec(t *testing.T) {
	df := regFrame(t, 30, 1)
	withW := df.Mutate(series.New(onesN(30), series.Float, "w"))
	for _, c := range []struct {
		name string
		spec Spec
		want string // the ParamError's Name; "" when only the data is wrong
	}{
		{"no target", Spec{Method: "krls"}, "Spec.Target"},
		{"unknown method", Spec{Target: "y", Method: "svm"}, "Spec.Method"},
		{"bad scale", Spec{Target: "y", Method: "krls", Scale: "minmax"}, "Spec.Scale"},
		{"selection of a named method", Spec{Target: "y", Method: "krls", Selection: "gcv"}, "Spec.Selection"},
		{"relevance of a named method", Spec{Target: "y", Method: "krls", Relevance: "off"}, "Spec.Relevance"},
		{"auto kernel", Spec{Target: "y", Kernel: "polynomial"}, "Spec.Kernel"},
		{"auto iters", Spec{Target: "y", Iters: 5}, "Spec.Iters"},
		{"auto sigma", Spec{Target: "y", Sigma: -2}, "Spec.Sigma"},
		{"auto m", Spec{Target: "y", M: -2}, "Spec.M"},
		{"bad sigma", Spec{Target: "y", Method: "krls", Sigma: math.Inf(1)}, "Spec.Sigma"},
		{"bad threshold", Spec{Target: "y", Method: "gd", Threshold: math.NaN()}, "Spec.Threshold"},
		{"negative m", Spec{Target: "y", Method: "nytro", M: -1}, "Spec.M"},
		{"centers of krls", Spec{Target: "y", Method: "krls", Centers: "leverage"}, "Spec.Centers"},
		{"bad centers", Spec{Target: "y", Method: "nkrls", Centers: "kmeans"}, "Spec.Centers"},
		{"bad centers of the nystrom map", Spec{Target: "y", Method: "linear", FeatureMap: "nystrom", Centers: "kmeans"}, "Spec.Centers"},
		{"bad kernel", Spec{Target: "y", Method: "krls", Kernel: "cosine"}, "Spec.Kernel"},
		{"bad polynomial", Spec{Target: "y", Method: "krls", Kernel: "polynomial", Degree: -1}, "polynomial kernel degree"},
		{"bad feature map", Spec{Target: "y", Method: "linear", FeatureMap: "wavelet"}, "Spec.FeatureMap"},
		{"sgm preset", Spec{Target: "y", Method: "sgm", Preset: "fast"}, "Spec.Preset"},
		{"sgm weights", Spec{Target: "y", Method: "sgm", Weight: "w"}, "Spec.Weight"},
		{"kols weights", Spec{Target: "y", Method: "kols", Weight: "w"}, "Spec.Weight"},
		{"good named", Spec{Target: "y", Method: "nkrls", Centers: "leverage", M: 10}, ""},
		{"good auto", Spec{Target: "y", Sigma: 0.5, TimeBudget: time.Second}, ""},
		{"m too large", Spec{Target: "y", Method: "nkrls", M: 1000}, ""},
		{"missing column", Spec{Target: "price", Method: "krls"}, ""},
		{"missing weight", Spec{Target: "y", Method: "krls", Weight: "wt"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckSpec(c.spec)
			if c.want == "" {
				if err != nil {
					t.Fatalf("CheckSpec: %v, want nil (the data decides)", err)
				}
				return
			}
			var pe *credlab.ParamError
			if !errors.As(err, &pe) || pe.Name != c.want {
				t.Fatalf("CheckSpec: %v, want a ParamError on %s", err, c.want)
			}
			// Fit returns the same error, the data never looked at.
			data := df
			if c.spec.Weight != "" {
				data = withW
			}
			_, ferr := Fit(data, c.spec)
			var fe *credlab.ParamError
			if !errors.As(ferr, &fe) || fe.Name != pe.Name || fe.Want != pe.Want || ferr.Error() != err.Error() {
				t.Errorf("Fit: %v, want CheckSpec's %v", ferr, err)
			}
		})
	}
	if spec := (Spec{Target: "y", Method: "NKRLS"}); CheckSpec(spec) != nil || spec.Method != "NKRLS" {
		t.Errorf("CheckSpec changed its argument: %+v", spec)
	}
}

func TestMethodParameter(t *testing.T) {
	for method, want := range map[string][2]string{
		"krls": {"krls", ParamLambda}, "NKRLS": {"nkrls", ParamLambda}, "ridge": {"linear", ParamLambda},
		"gd": {"earlystopping", ParamIters}, "nytro": {"nytro", ParamIters}, "lineargd": {"lineargd", ParamIters},
		"sgd": {"sgm", ParamIters}, "kols": {"kols", ""},
	} {
		name, param, err := MethodParameter(method)
		if err != nil || name != want[0] || param != want[1] {
			t.Errorf("MethodParameter(%q) = %q, %q, %v; want %q, %q", method, name, param, err, want[0], want[1])
		}
	}
	for _, method := range []string{"auto", "", "svm"} {
		var pe *credlab.ParamError
		if _, _, err := MethodParameter(method); !errors.As(err, &pe) || pe.Name != "Spec.Method" {
			t.Errorf("MethodParameter(%q): %v, want a ParamError on Spec.Method", method, err)
		}
	}
}

// TestSigmaWarning checks the warning of a Sigma far from the median
// distance between the rows of the design matrix: in Model.Warnings (and so
// in the Summary and the model file) of a named method and of the automatic
// one, never for a Sigma the kernel does not use, and with the fitted
// numbers those of the same fit without it.
func TestSigmaWarning(t *testing.T) {
	df := regFrame(t, 60, 2)
	for _, c := range []struct {
		name string
		spec Spec
		want []string // nil: no sigma warning
	}{
		{"far below", Spec{Target: "y", Method: "krls", Sigma: 1e-4, Lambda: 1e-3},
			[]string{"sigma 0.0001 (Spec.Sigma, flag -sigma) is far below the median distance", "nearly the identity", "or 0 for the median"}},
		{"far below, unscaled", Spec{Target: "y", Method: "krls", Sigma: 1e-4, Lambda: 1e-3, Scale: ScaleNone},
			[]string{"far below", "standardize the columns (flag -standardize)"}},
		{"far above", Spec{Target: "y", Method: "nkrls", Sigma: 1e4, M: 20},
			[]string{"sigma 10000 (Spec.Sigma, flag -sigma) is far above the median distance", "nearly constant"}},
		{"fourier features", Spec{Target: "y", Method: "linear", FeatureMap: "fourier", Sigma: 1e4, Lambda: 1e-3}, []string{"far above"}},
		{"automatic", Spec{Target: "y", Sigma: 1e4, Relevance: "off", TimeBudget: 20 * time.Second}, []string{"far above", "or 0 to search it"}},
		{"near the median", Spec{Target: "y", Method: "krls", Sigma: 1, Lambda: 1e-3}, nil},
		{"median heuristic", Spec{Target: "y", Method: "krls", Lambda: 1e-3}, nil},
		{"linear kernel", Spec{Target: "y", Method: "krls", Kernel: "linear", Sigma: 1e-4, Lambda: 1e-3}, nil},
		{"raw features", Spec{Target: "y", Method: "linear", Sigma: 1e-4, Lambda: 1e-3}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Fit(df, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range m.Warnings {
				if strings.HasPrefix(w, "sigma ") {
					got = append(got, w)
				}
			}
			if c.want == nil {
				if got != nil {
					t.Errorf("warnings %q, want no sigma warning", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("warnings %q, want one sigma warning", m.Warnings)
			}
			for _, w := range c.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("warning %q lacks %q", got[0], w)
				}
			}
			if !strings.Contains(m.Summary(), "warning: "+got[0]) {
				t.Errorf("the summary lacks the warning:\n%s", m.Summary())
			}
		})
	}
}

// TestSigmaWarningOnFailure checks that a fit that fails after its Sigma
// drew a warning returns the warning with the error, which stays the
// solver's.
func TestSigmaWarningOnFailure(t *testing.T) {
	df := regFrame(t, 30, 1)
	_, err := Fit(df, Spec{Target: "y", Method: "nkrls", M: 1000, Sigma: 1e-4})
	var we *WarnedError
	if !errors.As(err, &we) || len(we.Warnings) != 1 || !strings.Contains(we.Warnings[0], "far below") {
		t.Fatalf("error %v, want a WarnedError with the sigma warning", err)
	}
	wantParam("NystromConfig.M")(t, err)
	if !strings.Contains(err.Error(), "(warning: sigma 0.0001") {
		t.Errorf("error text %q lacks the warning", err)
	}
	if _, err := Fit(df, Spec{Target: "y", Method: "nkrls", M: 1000}); errors.As(err, &we) {
		t.Errorf("a failure without a warning is wrapped: %v", err)
	}
}

// TestSelectSigmaWarning checks that Select reports a Sigma far from the
// median distance through SelectSpec.Report, as a line starting
// "warning: ", for the methods whose kernel uses it.
func TestSelectSigmaWarning(t *testing.T) {
	pool := regFrame(t, 80, 4).Select([]string{"a", "b"})
	for _, c := range []struct {
		name string
		spec SelectSpec
		warn bool
	}{
		{"cred", SelectSpec{Sigma: 1e-4}, true},
		{"cred fourier", SelectSpec{Sigma: 1e4, FeatureMap: "fourier", M: 20}, true},
		{"lcmd", SelectSpec{Method: "lcmd", Sigma: 1e-4, M: 20}, true},
		{"cred near the median", SelectSpec{Sigma: 1}, false},
		{"cred median", SelectSpec{}, false},
		{"cred linear", SelectSpec{Kernel: "linear", Sigma: 1e-4}, false},
		{"uniform", SelectSpec{Method: "uniform", Sigma: 1e-4}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var warns []string
			c.spec.Report = func(l string) {
				if strings.HasPrefix(l, "warning: ") {
					warns = append(warns, l)
				}
			}
			if _, err := Select(pool, 10, c.spec); err != nil {
				t.Fatal(err)
			}
			if !c.warn {
				if warns != nil {
					t.Errorf("reported %q, want no warning", warns)
				}
				return
			}
			if len(warns) != 1 || !strings.Contains(warns[0], "(SelectSpec.Sigma, flag -sigma) is far ") {
				t.Errorf("reported %q, want one sigma warning", warns)
			}
		})
	}
}
