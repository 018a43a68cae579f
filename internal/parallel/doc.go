// Package parallel runs the project's loops and ordered pipelines on
// several goroutines: For and Chunks split an index range among workers,
// and Ordered runs units of work concurrently while handing their results
// on in the order the units were queued, so output never depends on timing.
// Batcher feeds Ordered one item at a time, in batches; FreeList keeps
// large buffers for reuse among goroutines.
package parallel
