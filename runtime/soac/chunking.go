package soac

// This file holds the chunk length of the reference's streams, which a
// test may change (SetChunking) to check a spec's promise that its
// streams' results do not depend on the partition into chunks. It does
// not change generated code, which chooses its own chunks.

// chunking is the chunk length StreamMap and StreamRed use; 0 means
// ChunkSize. A plain variable, not an atomic one: the purity analysis
// (analyzer/purity) takes reading memory as pure, but a call it has no
// table entry for (sync/atomic's) as impure, which would make every
// stream's chunk function that calls a stream impure.
var chunking int

// chunkSize returns the chunk length of StreamMap and StreamRed.
func chunkSize() int {
	if chunking > 0 {
		return chunking
	}
	return ChunkSize
}

// SetChunking makes StreamMap and StreamRed hand their chunk functions
// chunks of n elements (the last may be shorter) and returns the
// previous setting; n = 0 restores ChunkSize, and a negative n is taken
// as 0. It is for tests, called while no stream runs: a spec keeps
// docs/contract.md's promise only if its streams give the same result under
// every chunking (package rewrite/difftest runs specs under two).
func SetChunking(n int) (old int) {
	old, chunking = chunking, max(n, 0)
	return old
}
