package fusion

// sourceCase is a test on Go source built by analyzer/build.
type sourceCase struct {
	pkg, fn string
	want    expect
}

var sourceCases []sourceCase
