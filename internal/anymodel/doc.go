// Package anymodel opens a model file of either kind, text or table, for
// the callers that take both: the command, the server and the facade. It
// reads the file once and decodes it with the kind's own Decode, so the
// errors are those of pipeline.Load and table.Load (ErrKind for a kind
// neither is, such as a multi-label model), naming the file. OpenAny
// also takes a multi-label model, for the server, which serves all three.
package anymodel
