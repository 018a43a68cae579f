package main

import (
	"flag"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/mail"
)

// mailFlags are --input and --mail-features: whether files are read as
// mail, and which feature tokens a message renders.
type mailFlags struct {
	input    inputValue
	features featuresValue
}

func newMailFlags(fs *flag.FlagSet) *mailFlags {
	f := &mailFlags{features: featuresValue(mail.AllFeatures)}
	fs.Var(&f.input, "input", "read files as `auto|text|mail`: auto reads .eml and .mbox files, and files whose headers show a message "+
		"(a Received field, or Message-ID and Date) or that start with an mbox From line, as mail, and the rest as text; "+
		"predict and eval default to how the model's corpus was read")
	fs.Var(&f.features, "mail-features", "feature tokens a message adds (docs/mail.md): all, none, or a list of subject (the Subject counted twice), "+
		"addr (From, Reply-To, Return-Path addresses and domains), url (link hosts), struct (HTML-only, attachments, charsets, missing Date or Message-ID), "+
		"hdr (header field names, the mailer, Received hosts' domains)")
	return f
}

// apply sets opt's input and mail decoding.
func (f *mailFlags) apply(opt *corpus.Options) {
	opt.Input, opt.Mail = corpus.Input(f.input), mail.WithFeatures(mail.Features(f.features))
}

// stored returns what a model trained on a corpus read with opt records,
// given that st.Mail of its documents were messages: nothing for text.
func (f *mailFlags) stored(st corpus.Stats) (input, features string) {
	if st.Mail == 0 {
		return "", ""
	}
	return corpus.Input(f.input).String(), mail.Features(f.features).String()
}

// useStored sets in opt how the model's training corpus was read, for the
// flags not given: a model trained on text reads its inputs as text, one
// trained on mail decodes mail with the same feature tokens.
func (f *mailFlags) useStored(fs *flag.FlagSet, opt *corpus.Options, input, features string) {
	given := givenFlags(fs)
	if !given["input"] {
		opt.Input = corpus.InputText
		if in, err := corpus.ParseInput(input); err == nil && input != "" {
			opt.Input = in
		}
	}
	if !given["mail-features"] && features != "" {
		if feat, err := mail.ParseFeatures(features); err == nil {
			opt.Mail = mail.WithFeatures(feat)
		}
	}
}

type inputValue corpus.Input

func (v *inputValue) String() string { return corpus.Input(*v).String() }
func (v *inputValue) Set(s string) error {
	in, err := corpus.ParseInput(s)
	*v = inputValue(in)
	return err
}

type featuresValue mail.Features

func (v *featuresValue) String() string { return mail.Features(*v).String() }
func (v *featuresValue) Set(s string) error {
	f, err := mail.ParseFeatures(s)
	*v = featuresValue(f)
	return err
}
