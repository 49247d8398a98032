module github.com/soacgen/soacgen

go 1.26.0

require (
	github.com/crillab/gophersat v1.4.0
	github.com/dave/jennifer v1.7.1
	github.com/ebitengine/purego v0.11.3
	github.com/golangci/plugin-module-register v0.1.2
	github.com/samber/lo v1.53.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.22.0 // indirect
)
