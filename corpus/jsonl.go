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
	if text, err = jsonText(rawText, tf); err != nil {
		return "", "", false, err
	}
	hasLabel = rawLabel != ""
	switch {
	case unlabeled:
		return "", text, hasLabel, nil
	case !hasLabel:
		return "", "", false, fmt.Errorf("%w: no %q", ErrMissingField, lf)
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
		return "", fmt.Errorf("%w: no %q", ErrMissingField, tf)
	}
	if rawText[0] != '"' {
		return "", fmt.Errorf("field %q: want a string, found %.20s", tf, rawText)
	}
	return textfile.Unquote(rawText), nil
}
