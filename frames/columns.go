package frames

import (
	"strings"

	"github.com/go-gota/gota/dataframe"
)

// FeatureColumns returns the input columns Fit would use for spec on df:
// spec.Features when given (checked to exist, to be numeric unless
// spec.OneHot, and to differ from the target and weight columns), else
// every numeric column but the target, the weight, spec.Exclude and the
// bookkeeping columns of Select ("row", "prob", "weight", ...; with them,
// the Beam module's "file", "line" and "draw").
func FeatureColumns(df dataframe.DataFrame, spec Spec) ([]string, error) {
	if err := checkFrame(df, "input"); err != nil {
		return nil, err
	}
	return resolveFeatures(df, &spec, spec.OneHot)
}

// Sigma returns the kernel or random-feature bandwidth the model uses: the
// resolved Spec.Sigma, or 0 when the method has none (a linear kernel, a
// raw or ReLU feature map).
func (m *Model) Sigma() float64 {
	mi, err := lookupMethod(m.Spec.Method)
	if err != nil || !usesSigma(&m.Spec, mi) {
		return 0
	}
	return m.Spec.Sigma
}

// Centers returns the number of Nyström centers or random features the
// model uses (Spec.M), or 0 when the method has none.
func (m *Model) Centers() int {
	mi, err := lookupMethod(m.Spec.Method)
	if err != nil {
		return 0
	}
	fm := strings.ToLower(m.Spec.FeatureMap)
	if !mi.usesM && !(mi.feature && (fm == "fourier" || fm == "nystrom")) {
		return 0
	}
	return m.Spec.M
}
