module github.com/soacgen/soacgen

go 1.26

require (
	github.com/ebitengine/purego v0.11.3
	golang.org/x/tools v0.52.0 // indirect
)
