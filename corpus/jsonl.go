package corpus

import (
	"fmt"

	"github.com/textnb/textnb/internal/textfile"
)

// parseJSONObject reads the label and text fields of one JSON object. The
// text must be a string; a label may be a string or a number (kept as
// written), since numeric class ids are common in JSONL data sets.
func parseJSONObject(line string, lf, tf string, unlabeled bool) (label, text string, hasLabel bool, err error) {
	rawLabel, rawText, err := textfile.JSONFields(line, lf, tf)
	if err != nil {
		return "", "", false, err
	}
	return jsonLabelText(rawLabel, rawText, lf, tf, unlabeled)
}

// jsonLabelText is parseJSONObject of the raw fields of a valid object.
func jsonLabelText(rawLabel, rawText, lf, tf string, unlabeled bool) (label, text string, hasLabel bool, err error) {
	hasLabel = rawLabel != ""
	if unlabeled && rawText == "null" {
		return "", "", hasLabel, nil
	}
	if text, err = jsonText(rawText, tf); err != nil {
		return "", "", false, err
	}
	switch {
	case unlabeled:
		return "", text, hasLabel, nil
	case !hasLabel:
		return "", "", false, textfile.MissingJSONField("label", lf)
	case rawLabel[0] == '"':
		label = textfile.Unquote(rawLabel)
	case rawLabel[0] == '-' || rawLabel[0] >= '0' && rawLabel[0] <= '9':
		label = rawLabel
	default:
		err = fmt.Errorf("field %q: want a string or number, found %.20s", lf, rawLabel)
	}
	return label, text, true, err
}

// jsonText returns the text of field tf from its raw value, which must be
// a string.
func jsonText(rawText, tf string) (string, error) {
	if rawText == "" {
		return "", textfile.MissingJSONField("text", tf)
	}
	if rawText[0] != '"' {
		return "", fmt.Errorf("field %q: want a string, found %.20s", tf, rawText)
	}
	return textfile.Unquote(rawText), nil
}

// jsonlKept is the JSONL parser of a read that asks for an id or fields:
// one scan of each object for all of them, as JSONFields scans for two.
func jsonlKept(opt Options) lineParser {
	lf, tf, idf, unlabeled := opt.labelField(), opt.textField(), opt.IDField, opt.Unlabeled
	names, all := opt.Fields, opt.keepAll()
	return func(line string) (r row, _ error) {
		line, r.enc = textfile.DecodeString(line)
		if !all && len(names) > 0 {
			r.fields = make([]Field, len(names))
			for i, name := range names {
				r.fields[i] = Field{Name: name, Value: "null"} // unless the object has it
			}
		}
		var rawLabel, rawText, rawID string
		err := textfile.JSONObject(line, func(key, val string) {
			k := textfile.Unquote(key)
			switch k { // as JSONFields: the text first, should the names be one
			case tf:
				rawText = val
			case lf:
				rawLabel = val
			}
			if k == idf && idf != "" {
				rawID = val
			}
			if all {
				r.fields = append(r.fields, Field{Name: k, Value: val})
				return
			}
			for i := range r.fields {
				if r.fields[i].Name == k { // the last one wins
					r.fields[i].Value = val
				}
			}
		})
		if err != nil {
			return r, err
		}
		if r.label, r.text, r.hasLabel, err = jsonLabelText(rawLabel, rawText, lf, tf, unlabeled); err != nil {
			return r, err
		}
		switch {
		case idf == "":
		case rawID == "":
			return r, textfile.MissingJSONField("id", idf)
		case rawID[0] == '"':
			r.id = textfile.Unquote(rawID)
		case rawID == "null":
			r.nullID = true
		default:
			r.id = rawID
		}
		return r, nil
	}
}
