package credlab

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// NormalScores maps some columns to normal scores through their training
// values' empirical distribution, much as scikit-learn's
// QuantileTransformer(output_distribution="normal") does: a value v of
// column Columns[c] goes to Phi^-1(F(v)), F the mid-rank empirical CDF of
// the training values (a value taken by k of n rows, c of them below it,
// has F = (c + k/2) / n, so F stays within (0, 1) and needs no clipping),
// less the mean and over the standard deviation of the training rows'
// scores. The knots are the distinct training values, or, beyond
// maxScoreKnots of them, the values at evenly spaced row quantiles (so a
// value many rows share stays a knot); between knots the map is linear,
// below the first and above the last constant, so a row beyond the
// training range gets the score of its end. The map keeps each column's
// order: a skewed column (counts, money, sizes) whose few large values
// would set the kernel's distances gets evenly spread scores instead.
// Other columns pass unchanged.
type NormalScores struct {
	// Columns are the mapped columns, increasing.
	Columns []int
	// Knots[c] are increasing values of column Columns[c] and Scores[c]
	// their scores.
	Knots, Scores [][]float64
}

// SkewThreshold is the |skewness| above which SkewedColumns lists a column.
const SkewThreshold = 1

// maxScoreKnots bounds the knots of a column's map (NormalScores): beyond,
// the knots are the values at evenly spaced row quantiles, the first and
// last kept.
const maxScoreKnots = 1000

// SkewedColumns returns the columns of x with at least 3 distinct values
// whose sample skewness m3 / m2^(3/2) exceeds SkewThreshold in absolute
// value. Cost O(n d).
func SkewedColumns(x *mat.Dense) []int {
	n, d := x.Dims()
	var out []int
	col := make([]float64, n)
	for j := range d {
		mat.Col(col, j, x)
		if math.Abs(skewness(col)) > SkewThreshold && distinctAtLeast(col, 3) {
			out = append(out, j)
		}
	}
	return out
}

// skewness is m3 / m2^(3/2) of v, 0 for constant v; the deviations are
// scaled by their largest, which leaves the ratio unchanged and keeps the
// cubes finite.
func skewness(v []float64) float64 {
	mu := 0.0
	for _, a := range v {
		mu += a / float64(len(v))
	}
	top := 0.0
	for _, a := range v {
		top = math.Max(top, math.Abs(a-mu))
	}
	if !(top > 0) || math.IsInf(top, 0) {
		return 0
	}
	var m2, m3 float64
	for _, a := range v {
		e := (a - mu) / top
		m2 += e * e
		m3 += e * e * e
	}
	m2 /= float64(len(v))
	m3 /= float64(len(v))
	if !(m2 > 0) {
		return 0
	}
	return m3 / math.Pow(m2, 1.5)
}

func distinctAtLeast(v []float64, k int) bool {
	seen := make(map[float64]bool, k)
	for _, a := range v {
		seen[a] = true
		if len(seen) >= k {
			return true
		}
	}
	return false
}

// FitNormalScores fits the map of NormalScores for the columns cols of x's
// rows (each with at least 2 distinct values). Cost O(n log n) per column.
func FitNormalScores(x *mat.Dense, cols []int) (*NormalScores, error) {
	if err := CheckData(x, nil); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	t := &NormalScores{Columns: append([]int(nil), cols...)}
	col := make([]float64, n)
	for c, j := range cols {
		if j < 0 || j >= d || (c > 0 && j <= cols[c-1]) {
			return nil, &ParamError{Name: "columns", Value: fmt.Sprint(cols), Want: fmt.Sprintf("increasing columns of 0..%d", d-1)}
		}
		mat.Col(col, j, x)
		knots, scores := normalScoreMap(col)
		if len(knots) < 2 {
			return nil, &ParamError{Name: "columns", Value: j, Want: "columns with at least 2 distinct values"}
		}
		t.Knots = append(t.Knots, knots)
		t.Scores = append(t.Scores, scores)
	}
	return t, nil
}

// normalScoreMap returns the knots and scores of one column's map: its
// distinct values (beyond maxScoreKnots of them, those at evenly spaced
// row quantiles) and their mid-rank normal scores, standardized over the
// rows.
func normalScoreMap(col []float64) (knots, scores []float64) {
	n := float64(len(col))
	v := append([]float64(nil), col...)
	sort.Float64s(v)
	var z, share []float64 // each distinct value's score and share of the rows
	for lo := 0; lo < len(v); {
		hi := lo
		for hi < len(v) && v[hi] == v[lo] {
			hi++
		}
		knots = append(knots, v[lo])
		z = append(z, distuv.UnitNormal.Quantile((float64(lo)+float64(hi-lo)/2)/n))
		share = append(share, float64(hi-lo)/n)
		lo = hi
	}
	var mu, sq float64
	for k := range z {
		mu += share[k] * z[k]
	}
	for k := range z {
		sq += share[k] * (z[k] - mu) * (z[k] - mu)
	}
	sd := math.Sqrt(sq)
	for k := range z {
		z[k] = (z[k] - mu) / sd
	}
	if len(knots) > maxScoreKnots {
		var kk, zz []float64
		for i := range maxScoreKnots {
			r := v[int(math.Round(float64(i)*(n-1)/float64(maxScoreKnots-1)))]
			if len(kk) == 0 || r > kk[len(kk)-1] {
				k := sort.SearchFloat64s(knots, r)
				kk, zz = append(kk, r), append(zz, z[k])
			}
		}
		knots, z = kk, zz
	}
	return knots, z
}

// Apply returns a copy of x with the mapped columns replaced by their
// scores. Cost O(n log k) per mapped column, k its knots.
func (t *NormalScores) Apply(x *mat.Dense) (*mat.Dense, error) {
	n, d := x.Dims()
	if err := t.Check(d); err != nil {
		return nil, err
	}
	if err := checkAlloc("normal-score copy of the rows", n, d); err != nil {
		return nil, err
	}
	out := mat.DenseCopyOf(x)
	for c, j := range t.Columns {
		for i := range n {
			out.Set(i, j, scoreOf(t.Knots[c], t.Scores[c], x.At(i, j)))
		}
	}
	return out, nil
}

// scoreOf interpolates the map (knots, scores) at v, constant beyond its
// ends.
func scoreOf(knots, scores []float64, v float64) float64 {
	k := sort.SearchFloat64s(knots, v) // knots[k-1] < v <= knots[k]
	switch {
	case k == 0:
		return scores[0]
	case k == len(knots):
		return scores[k-1]
	case knots[k] == v:
		return scores[k]
	}
	a, b := knots[k-1], knots[k]
	f := (v - a) / (b - a)
	return scores[k-1] + f*(scores[k]-scores[k-1])
}

// Check reports a malformed map for rows of d columns (one read from a
// file): columns not increasing or beyond d, knots or scores not finite
// or not increasing.
func (t *NormalScores) Check(d int) error {
	if err := t.check(); err != nil {
		return err
	}
	if c := t.Columns; len(c) > 0 && c[len(c)-1] >= d {
		return shapef("the normal-score map has column %d, the rows have %d columns", c[len(c)-1], d)
	}
	return nil
}

// check is Check without the rows' width.
func (t *NormalScores) check() error {
	if len(t.Knots) != len(t.Columns) || len(t.Scores) != len(t.Columns) {
		return shapef("corrupt normal-score map: %d columns, %d knot lists, %d score lists", len(t.Columns), len(t.Knots), len(t.Scores))
	}
	for c, j := range t.Columns {
		if j < 0 || (c > 0 && j <= t.Columns[c-1]) {
			return shapef("corrupt normal-score map: columns %v are not increasing", t.Columns)
		}
		k, s := t.Knots[c], t.Scores[c]
		if len(k) < 2 || len(s) != len(k) {
			return shapef("corrupt normal-score map of column %d: %d knots, %d scores", j, len(k), len(s))
		}
		for i := range k {
			if math.IsNaN(k[i]) || math.IsInf(k[i], 0) || math.IsNaN(s[i]) || math.IsInf(s[i], 0) ||
				(i > 0 && !(k[i] > k[i-1] && s[i] > s[i-1])) {
				return shapef("corrupt normal-score map of column %d: knots and scores must be finite and increasing (at knot %d)", j, i)
			}
		}
	}
	return nil
}
