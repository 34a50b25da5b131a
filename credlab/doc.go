// Package credlab implements kernel least-squares regression on gonum
// matrices, and the choice of which points to label: the estimators and
// samplers of four papers (CRED importance labeling, multi-pass SGM, SGD
// for distribution regression, NYTRO) and hold-out model selection over
// their regularization paths. The CRED paper's baselines and distribution
// regression, on bags of points, are in the sub-packages credlab/baselines
// and credlab/distreg. The frames package wraps it for gota data frames;
// the packages under papers (one per paper) run the papers' experiments.
//
// # Map
//
// The contract (estimator.go): every regression method implements
// Estimator, Fit(ctx, x, y, w) on a mat.Matrix of rows, its targets and
// optional importance weights, with the method's Config as receiver
// (KRLSConfig{}.Fit, ..., TuneConfig{}.Fit); each function of the same
// name (KRLS, ..., Tune) is the same fit with the weights in the config
// and the full result type.
//
// Kernels and kernel matrices (kernel.go, kernel_matrix.go): the Kernel
// interface; GaussianKernel, MaternKernel (smoothness 3/2 or 5/2),
// LaplacianKernel, ManhattanKernel (the Laplacian kernel of the L1
// distance; all with optional per-column Scales, which make them
// incomparable with ==: use reflect.DeepEqual), LinearKernel,
// PolynomialKernel; KernelMatrix;
// Lengthscales; MedianDistance, the median heuristic for sigma.
//
// Exact kernel regression (one file per estimator): KRLS (ridge, lambda
// fixed or chosen on a hold-out path), KOLS (least squares by pivoted
// Cholesky), EarlyStopping (gradient descent, the nu-method by default or
// plain Landweber with IterConfig.Plain, the number of steps chosen on a
// hold-out path; Fit.AtCap flags a best step at the cap).
// Each returns a *Fit: the Model f(x) = sum_i Coef_i k(x, Centers_i), the
// chosen Lambda or Iter, the validation Path, Timing.
//
// Model selection (tune.go the API, tuner.go the stages, tune_sigma.go
// the sigma searches, tune_screen.go candidates screened on one fold,
// tuneeval.go the paths scored per sigma; crossval.go, gcv.go, ridge.go,
// bandpath.go):
// Tune chooses the method (exact or Nyström KRLS), the kernel width,
// lambda and the number of centers from a zero TuneConfig, by 5-fold
// cross-validation (the default: on Nyström paths, from the folds' Gram
// statistics), generalized cross-validation, leave-one-out or a hold-out
// (Criterion), along regularization paths from one reduction per sigma
// (and fold): to tridiagonal form where eigenvalues are needed (GCV, the
// degrees of freedom), to band form by matrix products for the folds of
// cross-validation; with the target centered (Model.Intercept); its
// Choice says what it chose and why. Within a time budget
// (TuneConfig.TimeBudget, default DefaultTimeBudget; Choice.OutOfTime).
//
// Column relevance (relevance.go, tune_relevance.go): the Gaussian and
// Laplacian kernels take one scale per column (Scales; lengthscale
// Sigma/Scales[j]); LearnScales learns them with lambda by the analytic
// gradient of exact leave-one-out on a subsample, and Tune learns them by
// default (TuneConfig.Relevance) and keeps them when they validate better
// than one shared scale (Choice.Scales, Choice.Relevance).
//
// Skewed columns (normalscores.go, tune_transform.go): Tune maps columns
// of |skewness| above 1 to normal scores through their training values'
// distribution (NormalScores) when that validates better
// (TuneConfig.Transform, Choice.Transform, Model.Transform).
//
// Nyström subsampling (nystrom.go, nkrls.go, nytro.go): NystromCenters
// with a CenterSampler (UniformCenters, or LeverageCenters from
// ApproxLeverageScores in bless.go), NewNystrom, and the estimators
// NKRLS (ridge on m centers) and NYTRO (early-stopped gradient descent on m
// centers, the NYTRO paper's algorithm).
//
// Streaming and sharded fits (gramstats.go): GramStats, the sufficient
// statistics Phi^T W Phi, Phi^T W y and y^T W y of least squares in a
// feature space, accumulated over row blocks (Add, AddRows) and combined
// across shards (Merge); RidgeGram and GradientGram fit NKRLS/LinearRLS and
// NYTRO/LinearGD from them. NKRLS and LinearRLS stream their rows through
// GramStats, so their memory is O(m^2 + block m), not O(n m); NYTRO and
// LinearGD do too whenever they run in Gram form (at least m/8 steps, or
// features over the memory limit). LeverageFactor (leverage.go) does the same for CRED's
// random-feature scores. The module github.com/credlab/credlab/beam runs
// both on Apache Beam.
//
// Feature maps (features.go, linear.go): the FeatureMap interface;
// RawFeatures, RandomFourier (NewRandomFourier), ReLUNetwork
// (NewReLUNetwork), Nystrom as a map; LinearRLS (ridge) and LinearGD
// (gradient descent) in the feature space.
//
// Choosing points to label, CRED (selection.go, leverage.go): the Selector
// interface with CREDSelector (probability mixing uniform and ridge
// leverage scores, importance weights 1/(N q)), UniformSelector and
// GreedySelector (GSx); designs (design.go: WithReplacement, DistinctRows,
// WithoutReplacement from a ranking by Tillé's elimination procedure in
// elimination.go; batches through Previous add up to a one-shot draw);
// budget diagnostics (budget.go: EffectiveDimensions, SummarizeScores,
// ProjectLearningCurve);
// Batch active learning (batch.go): BatchSelector with the methods of
// Holzmüller et al. (JMLR 2023) in "train + pool" mode, rows already
// labeled counting as chosen: MaxDiag, MaxDet, BAIT (forward-backward),
// MaxDist, KMeansPP, LCMD and kernel herding, on Nyström or given
// features in O(N m B); GreedySelector is its MaxDist on the raw columns.
// PoolWeights (poolweights.go) weighs the rows such a method chose by
// their nearest-neighbour shares of the pool, for a fit that stands for
// the pool; NearestCounts gives the shares of one shard of it, and
// PoolWeightsFromCounts the weights of their sum.
// EstimatePoolRMSE (audit.go) estimates a model's pool RMSE with a
// confidence interval from audit rows of known inclusion probabilities.
// LeverageScores and FeatureLeverageScores; CREDDistribution turns scores
// into the sampling distribution and DrawSelection draws from it;
// GatherRows picks the chosen rows. Fit the labels with the Selection's
// Weight in any estimator's Weights. The CRED paper's baselines, KTR3 and
// SSSR, are in package credlab/baselines.
//
// Multi-pass SGM (sgm.go, sgm_decomposition.go): SGM with the paper's
// presets (SGMPreset, ParseSGMPreset) returns an *SGMFit;
// NewSGMPopulation and SGMPopulation.Decompose compute the bias, sample and
// computational variance of Lin and Rosasco's error decomposition.
//
// Distribution regression, which learns one label per bag of points
// (two-stage KRR and tail-averaged SGD on kernel mean embeddings), is in
// package credlab/distreg; its TailSGD runs SGM's iteration and its
// TwoStageKRR KRLS's solver.
//
// Utilities: LogGrid (regularization grids), Holdout (the validation
// split), RMSE, SmoothRegression (synthetic data), MemoryLimit. Building
// blocks for methods outside the package, such as credlab/baselines:
// CheckData and CheckMatrix (the input checks), Holdout.Split, LambdaGrid
// (a fixed lambda or a grid), CholeskySolve ((A + shift I) z = b).
//
// # Conventions
//
// Shapes: inputs are an n x d *mat.Dense of points, one per row, and a
// []float64 of n targets; optional Weights are n positive importance
// weights. No function modifies its arguments.
//
// Configuration: every estimator takes a Config struct whose zero value
// means documented defaults (each field says its own; no field is
// required); a nil Kernel is the Gaussian kernel with sigma =
// MedianDistance(x), the median heuristic, and a zero Nystrom.M is
// min(DefaultNystromM, training rows). Long computations take a
// context.Context and stop when it is cancelled.
//
// Errors: inputs are checked at the public entry point and an error is
// typed and names the problem and where: *NotFiniteError (NaN or Inf with
// its row and column), ErrShape, ErrEmpty, *ParamError (a setting out of
// range, with the range), *DivergedError (a step size), *SingularError (a
// lambda too small for the system), *TooLargeError (memory beyond
// MemoryLimit or CREDLAB_MEMORY_LIMIT, checked before allocating),
// *DegenerateError (every kernel value or feature zero), *NumericalError
// (a decomposition that did not converge), *TuneError. Nothing panics on
// bad input.
//
// Costs: each estimator's doc comment gives its time and memory; exact
// methods are O(n^2) memory and O(n^3) time, Nyström methods O(m^2 + n d)
// memory and O(n m^2) time, feature methods O(D^2 + n d) and O(n D^2).
//
// Determinism: randomness comes only from the Seed fields (math/rand/v2
// PCG streams); the same seed gives the same result on any number of cores.
//
// # BLAS backend
//
// Linear algebra runs through gonum's blas64. Importing this package
// installs, from its init and for the whole process (gonum/mat and any
// other gonum user included), the fastest backend this machine runs: the
// pure-Go assembly kernels of package fastblas (fastblas.Install),
// "go-avx512" or "go-avx2", for Dgemm, Dsyrk, Dtrsm, Dtrmm, Dsymv and
// Dsyr2 on amd64 with AVX2 and FMA (several times gonum's speed, every
// core, results independent of the number of cores), else gonum's own,
// "gonum". BLASBackend names the backend in use at run time; BLASBackends
// lists the choices and UseBLAS(name) switches at start-up. The
// environment variable CREDLAB_BLAS=name makes the same choice without
// code. Building with -tags openblas (cgo and libopenblas-dev) routes BLAS
// calls and the Cholesky factorizations to OpenBLAS instead. Backends agree
// to rounding, not bit for bit.
package credlab
