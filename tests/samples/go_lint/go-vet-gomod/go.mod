module example.com/modbad

go 1.19

requre github.com/pkg/errors v0.9.1
