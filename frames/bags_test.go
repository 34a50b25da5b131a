package frames

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// bagFrame has n bags of 20 points x ~ N(mu_j, 0.3^2) with label
// sin(2 mu_j), rows of the bags interleaved.
func bagFrame(n int, seed uint64) (dataframe.DataFrame, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	mu := make([]float64, n)
	for j := range mu {
		mu[j] = 3*rng.Float64() - 1.5
	}
	var ids []string
	var x, y []float64
	for i := 0; i < 20; i++ {
		for j := range mu {
			ids = append(ids, "bag"+string(rune('A'+j%26))+string(rune('a'+j/26)))
			x = append(x, mu[j]+0.3*rng.NormFloat64())
			y = append(y, math.Sin(2*mu[j]))
		}
	}
	df := dataframe.New(series.New(ids, series.String, "bag"), series.New(x, series.Float, "x"), series.New(y, series.Float, "label"))
	truth := make([]float64, n)
	for j := range truth {
		truth[j] = math.Sin(2 * mu[j])
	}
	return df, truth
}

func TestBags(t *testing.T) {
	train, _ := bagFrame(60, 1)
	test, truth := bagFrame(20, 2)
	before := snapshot(train)
	for _, spec := range []BagSpec{
		{Sigma: 0.5, Outer: "gaussian", Seed: 1},
		{FeatureMap: "fourier", M: 50, Sigma: 0.5, Outer: "gaussian", OuterSigma: 0.5},
		{Method: "tailsgd", Sigma: 0.5, Outer: "gaussian", Seed: 1},
	} {
		spec.Bag, spec.Target = "bag", "label"
		m, err := FitBags(train, spec)
		if err != nil {
			t.Fatal(err)
		}
		if snapshot(train) != before {
			t.Fatal("FitBags modified its input")
		}
		if m.Bags != 60 || strings.Join(m.Features, ",") != "x" {
			t.Errorf("%d bags, features %v", m.Bags, m.Features)
		}
		out, err := PredictBags(m, test.Select([]string{"x", "bag"}))
		if err != nil {
			t.Fatal(err)
		}
		wantNames(t, out, "bag", "points", "prediction")
		p := col(t, out, "prediction")
		if len(p) != 20 {
			t.Fatalf("%d bags predicted", len(p))
		}
		se := 0.0
		for j, v := range p {
			se += (v - truth[j]) * (v - truth[j])
		}
		if r := math.Sqrt(se / 20); r > 0.35 {
			t.Errorf("%s: bag RMSE %.3f", m.Spec.Method, r)
		}
	}
}

func TestBagErrors(t *testing.T) {
	train, _ := bagFrame(10, 1)
	y := col(t, train, "label")
	y[0] += 1
	mixed := train.Mutate(series.New(y, series.Float, "label"))
	for _, c := range []struct {
		name string
		df   dataframe.DataFrame
		spec BagSpec
		want errCheck
	}{
		{"no columns", train, BagSpec{}, wantParam("BagSpec.Bag")},
		{"no target", train, BagSpec{Bag: "bag"}, wantParam("BagSpec.Target")},
		{"missing bag", train, BagSpec{Bag: "group", Target: "label"}, wantColumn("group", "bag")},
		{"bag feature", train, BagSpec{Bag: "bag", Target: "label", Features: []string{"bag"}}, wantProblem("bag", "feature")},
		{"mixed labels", mixed, BagSpec{Bag: "bag", Target: "label"}, wantProblem("label", "target")},
		{"method", train, BagSpec{Bag: "bag", Target: "label", Method: "mmd"}, wantParam("BagSpec.Method")},
		{"outer", train, BagSpec{Bag: "bag", Target: "label", Outer: "laplace"}, wantParam("BagSpec.Outer")},
		{"feature map", train, BagSpec{Bag: "bag", Target: "label", FeatureMap: "relu"}, wantParam("BagSpec.FeatureMap")},
		{"sigma", train, BagSpec{Bag: "bag", Target: "label", Sigma: -1}, wantParam("BagSpec.Sigma")},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := FitBags(c.df, c.spec)
			c.want(t, err)
		})
	}
	m, err := FitBags(train, BagSpec{Bag: "bag", Target: "label", Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	_, err = PredictBags(m, train.Select([]string{"x"}))
	wantColumn("bag", "bag")(t, err)
	_, err = PredictBags(m, train.Select([]string{"bag", "label"}))
	wantColumn("x", "feature")(t, err)
	_, err = PredictBags(nil, train)
	wantIs(credlab.ErrEmpty)(t, err)
}
