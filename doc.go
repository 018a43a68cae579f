// Package textnb classifies text with naive Bayes: train a model on
// labeled documents, save it to one file, load it and predict labels,
// probabilities and explanations.
//
//	m, err := textnb.Train([]textnb.Document{{Label: "spam", Text: "WIN a prize"}, …}, textnb.Config{})
//	p := m.Predict("claim your free prize") // p.Label, p.Proba
//	err = m.Save("spam.model")
//	m, err = textnb.Load("spam.model")
//
// The zero Config is the default pipeline: word 1–2-grams, sublinear TF-IDF
// and Complement naive Bayes, or Multinomial naive Bayes (which keeps the
// class prior) when there are two classes. Train takes documents in memory; TrainFrom
// takes any sequence of them, such as ReadCorpus of a folder per class or
// a .tsv, .csv or .jsonl file. Chinese text is segmented into words
// automatically.
//
// A Model is safe for concurrent use. Explain tells which terms pushed a
// text towards its label; Inspect describes a model. Open reads a model
// file of any kind as a Classifier: a text Model, a Table model of numeric
// columns (Gaussian or Categorical naive Bayes, trained with TrainTable) or
// a MultiLabel model (textnb train --multi-label). A Classifier predicts,
// explains and inspects every kind alike, from an Input that is a text or
// a row; only text models learn (ErrNotLearnable).
//
// FileKind tells a model file's kind from its header; SaveFile and
// CheckOutput save anything the packages below write (a model, a part of
// one) as Save does, replacing the file only when it is complete.
// ParsePriors reads class priors to correct probabilities for (nb.PriorShift
// from Model.Priors or Table.Priors); Table.PredictRows predicts the rows of a
// .csv or .tsv table. textnb's command stands on these.
//
// EvalOnline replays labeled documents in their time order, classifying
// each batch before learning it, as the TREC spam track and Metsis et al.
// evaluate spam filters (textnb eval --online). Report writes an
// evaluation (package metrics) as one self-contained HTML page, with
// charts, the confusion matrix and the documents it lists (textnb eval
// --report).
//
// Errors are sentinels, wrapped with details: test them with errors.Is.
//
// Below Model is its engine, named here by aliases for programs that need
// more control or speed, as the textnb command does: Pipeline (the trained
// model, whose Predictor scores into buffers the caller reuses), Trainer,
// CrossValidateDocs and Tune, the multi-label engine (MultiLabelPipeline,
// NewMultiLabelTrainer; TrainMultiLabel trains a MultiLabel), and training
// in parts for distributed engines (DocFreqs, ClassSums). Config's option
// values are here too (TFIDF, Complement, …). The packages
// below textnb are the stages, for those who compose their own: metrics
// (accuracy, F1, confusion), corpus (reading corpora), tokenize, vectorize
// and nb (the classifiers on sparse rows).
//
// Handler serves models in memory over HTTP, as textnb serve does, to
// mount in a program's own server; NewServer also serves model files, with
// the options of textnb serve (ServeOptions: a token, limits, watching the
// files, learning, the page and the metrics).
package textnb
