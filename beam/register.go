package credbeam

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/credlab/credlab/credlab"
)

func init() {
	for _, t := range []any{credlab.GramStats{}, credlab.LeverageFactor{}, ShardScores{}, ShardMass{}, Masses{}, Plan{}, Selected{}, FeatureParams{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn4x1[context.Context, string, func(*FeatureParams) bool, func(credlab.GramStats), error](&gramFn{})
	register.Combiner1[credlab.GramStats](&gramCombine{})
	register.DoFn2x1[credlab.GramStats, func(credlab.LeverageFactor), error](&factorFn{})
	register.DoFn5x1[context.Context, string, func(*credlab.LeverageFactor) bool, func(*FeatureParams) bool, func(ShardScores), error](&scoreFn{})
	register.Function1x1(nystromFeatures)
	register.Emitter1[FeatureParams]()
	register.Function1x1(toMass)
	register.DoFn2x1[ShardScores, func(*Masses) bool, ShardMass](&topFn{})
	register.Iter1[Masses]()
	register.Combiner3[Masses, ShardMass, Masses](&massCombine{})
	register.DoFn2x1[Masses, func(Plan), error](&planFn{})
	register.DoFn4x1[context.Context, ShardScores, func(*Plan) bool, func(Selected), error](&drawFn{})
	register.Iter1[FeatureParams]()
	register.Iter1[credlab.LeverageFactor]()
	register.Iter1[Plan]()
	register.Emitter1[credlab.GramStats]()
	register.Emitter1[credlab.LeverageFactor]()
	register.Emitter1[ShardScores]()
	register.Emitter1[Plan]()
	register.Emitter1[Selected]()
}

func init() {
	register.DoFn3x1[context.Context, int, func(*Selected) bool, error](&selectedWriter{})
	register.DoFn3x1[context.Context, int, func(*ShardScores) bool, error](&scoresWriter{})
	register.DoFn2x1[context.Context, Plan, error](&planWriter{})
	register.DoFn2x1[context.Context, string, error](&textWriter{})
	register.Iter1[Selected]()
	register.Iter1[ShardScores]()
}

func init() {
	for _, t := range []any{Center{}, Centers{}, NystromParams{}, TrainVal{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn3x1[context.Context, string, func(Centers), error](&centerFn{})
	register.Combiner1[Centers](&centerCombine{})
	register.DoFn2x1[Centers, func(NystromParams), error](&nystromParamsFn{})
	register.DoFn4x1[context.Context, string, func(*NystromParams) bool, func(TrainVal), error](&splitStatsFn{})
	register.Combiner1[TrainVal](&trainValCombine{})
	register.DoFn4x1[context.Context, TrainVal, func(*NystromParams) bool, func(string), error](&fitFn{})
	register.Iter1[NystromParams]()
	register.Emitter1[Centers]()
	register.Emitter1[NystromParams]()
	register.Emitter1[TrainVal]()
	register.Emitter1[string]()
}

func init() {
	for _, t := range []any{RowID{}, Candidate{}, Candidates{}, AuditRow{}, AuditRows{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn3x1[context.Context, string, func(AuditRows), error](&auditFn{})
	register.Combiner1[AuditRows](&auditCombine{})
	register.DoFn5x1[context.Context, string, func(*NystromParams) bool, func(*AuditRows) bool, func(Candidates), error](&lcmdShardFn{})
	register.Combiner1[Candidates](&candidateCombine{})
	register.DoFn5x1[context.Context, Candidates, func(*NystromParams) bool, func(*AuditRows) bool, func(Selected), error](&lcmdGlobalFn{})
	register.Emitter1[Candidates]()
	register.Emitter1[AuditRows]()
	register.Iter1[AuditRows]()
}

func init() {
	beam.RegisterType(reflect.TypeOf(Counts{}))
	register.DoFn3x1[context.Context, string, func(Counts), error](&nearestFn{})
	register.Combiner1[Counts](&countsCombine{})
	register.DoFn2x1[context.Context, Counts, error](&poolWeightsWriter{})
	register.Emitter1[Counts]()
}
