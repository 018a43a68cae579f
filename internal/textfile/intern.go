package textfile

import "strings"

// Interner keeps one copy of each label. Labels are often substrings of a
// line or record: a caller keeping only labels must not keep every line
// alive. The zero value is ready to use.
type Interner map[string]string

// Intern returns the shared copy of label.
func (in *Interner) Intern(label string) string {
	if label == "" {
		return ""
	}
	if l, ok := (*in)[label]; ok {
		return l
	}
	if *in == nil {
		*in = make(Interner)
	}
	l := strings.Clone(label)
	(*in)[l] = l
	return l
}
