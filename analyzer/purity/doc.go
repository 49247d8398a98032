package purity

// doc is the Analyzer's documentation.
const doc = `soacpurity: decide which functions and function literals have side effects

The soacpurity analyzer reports nothing. For every function, method and
function literal of the package it decides whether calling it is pure: whether
it has no effect other than computing its results. A pure function may
allocate, read any memory, call pure functions and write memory it allocated
itself (a local slice from make, a fresh composite literal, the result of a
call whose callee made it: slices.Clone, soac.Replicate, a helper returning
a slice it made) that nothing outside can reach. It is impure if it writes
package-level or captured variables, writes memory reachable from its
parameters, captured variables or globals, operates on channels, starts
goroutines, recovers, or calls a function that is impure or cannot be
resolved (a function value, an interface method, a function with no fact
and no entry in the standard-library table).

It also decides whether the function may panic (indexing, slicing, integer
division, type assertions, pointer dereference, calls that may panic; not
the panics of the functions passed to it, which its callers add), and which
of its results are, on every return, memory it allocated itself (a caller
may write them as memory from make).

Verdicts of recursive and mutually recursive functions are computed by a
bounded fixed point over the package's call graph. Every exported function
and method gets a FuncFact (except in the standard library, which the table
describes), so the analysis of an importing package knows the
purity of its callees. The Result answers questions about every function,
function literal and call expression of the package.`
