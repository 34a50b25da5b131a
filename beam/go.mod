module github.com/credlab/credlab/beam

go 1.26.0

require github.com/credlab/credlab v0.0.0

require github.com/apache/beam/sdks/v2 v2.77.0 // indirect

replace github.com/credlab/credlab => ../
