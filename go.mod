module github.com/credlab/credlab

go 1.24.0

require gonum.org/v1/gonum v0.17.0

require gonum.org/v1/netlib v0.0.0-20230729102104-8b8060e7531f
