package main

import (
	"flag"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/mail"
)

// mailFlags are --input and --mail-features: whether files are read as
// mail, and which feature tokens a message renders.
type mailFlags struct {
	input    corpus.Input
	features mail.Features
}

func newMailFlags(fs *flag.FlagSet) *mailFlags {
	f := &mailFlags{}
	fs.TextVar(&f.input, "input", corpus.InputAuto, "read files as `auto|text|mail`: auto reads .eml and .mbox files, and files whose headers show a message "+
		"(a Received field, or Message-ID and Date) or that start with an mbox From line, as mail, and the rest as text; "+
		"predict and eval default to how the model's corpus was read")
	fs.TextVar(&f.features, "mail-features", mail.AllFeatures, "feature tokens a message adds (docs/mail.md): all, none, or a list of subject (the Subject counted twice), "+
		"addr (From, Reply-To, Return-Path addresses and domains), url (link hosts), struct (HTML-only, attachments, charsets, missing Date or Message-ID), "+
		"hdr (header field names, the mailer, Received hosts' domains)")
	return f
}

// apply sets opt's input and mail decoding.
func (f *mailFlags) apply(opt *corpus.Options) {
	opt.Input, opt.Mail = f.input, mail.WithFeatures(f.features)
}

// stored returns what a model trained on a corpus read with opt records,
// given that st.Mail of its documents were messages: nothing for text.
func (f *mailFlags) stored(st corpus.Stats) (input, features string) {
	if st.Mail == 0 {
		return "", ""
	}
	return f.input.String(), f.features.String()
}

// useStored sets in opt how the model's training corpus was read, for the
// flags not given: a model trained on text reads its inputs as text, one
// trained on mail decodes mail with the same feature tokens.
func (f *mailFlags) useStored(fs *flag.FlagSet, opt *corpus.Options, input, features string) {
	given := givenFlags(fs)
	if !given["input"] {
		opt.Input = corpus.InputText
		var in corpus.Input
		if err := in.UnmarshalText([]byte(input)); err == nil && input != "" {
			opt.Input = in
		}
	}
	if !given["mail-features"] && features != "" {
		var feat mail.Features
		if err := feat.UnmarshalText([]byte(features)); err == nil {
			opt.Mail = mail.WithFeatures(feat)
		}
	}
}
