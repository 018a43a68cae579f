// Package reweight is the discriminative reweighting that multi-label and
// single-label text training share, after Su et al.'s discriminative
// multinomial naive Bayes (2008): passes over the training documents that
// score each with the model of the counts so far and move weight toward the
// classes a document is misranked against.
//
// Conventions: K classes, F features, documents by index into the caller's
// rows (already weighted, as the model sums them). A class's "rest" is the
// complement half of its one-vs-rest model (Complement NB's complement);
// gains are compact.Counts whose ClassCount is zero, so adding them to a
// model's counts leaves its class prior alone.
package reweight
