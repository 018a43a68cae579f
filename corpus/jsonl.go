package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

var errNotObject = errors.New("not a JSON object")

// parseJSONObject reads the label and text fields of one JSON object. The
// text must be a string; a label may be a string or a number (kept as
// written), since numeric class ids are common in JSONL data sets.
//
// The line is validated by encoding/json, then scanned by hand: unmarshaling
// into a map costs about 20 allocations per line, this costs one or none.
func parseJSONObject(line string, lf, tf string, unlabeled bool) (label, text string, hasLabel bool, err error) {
	rawLabel, rawText, err := jsonFields(line, lf, tf)
	if err != nil {
		return "", "", false, err
	}
	return jsonLabelText(rawLabel, rawText, lf, tf, unlabeled)
}

// jsonFields validates line and returns the raw values of its top-level
// fields lf and tf (see objectFields).
func jsonFields(line, lf, tf string) (rawLabel, rawText string, err error) {
	if !json.Valid(unsafe.Slice(unsafe.StringData(line), len(line))) { // only read: no copy of a long line
		return "", "", invalidJSON(line)
	}
	return objectFields(line, lf, tf)
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
		label = unquote(rawLabel)
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
	return unquote(rawText), nil
}

// invalidJSON explains why line is not valid JSON.
func invalidJSON(line string) error {
	var v any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return errors.New("invalid JSON")
}

// objectFields returns the raw values of the top-level fields lf and tf
// ("" if absent; the last one wins if repeated, as in encoding/json) of s,
// which must be valid JSON.
func objectFields(s, lf, tf string) (rawLabel, rawText string, err error) {
	i := skipSpace(s, 0)
	if s[i] != '{' {
		return "", "", errNotObject
	}
	i = skipSpace(s, i+1)
	for s[i] != '}' {
		end := skipString(s, i)
		key := s[i:end]
		i = skipSpace(s, skipSpace(s, end)+1) // past the colon
		end = skipValue(s, i)
		switch val := s[i:end]; {
		case keyIs(key, tf):
			rawText = val
		case keyIs(key, lf):
			rawLabel = val
		}
		i = skipSpace(s, end)
		if s[i] == ',' {
			i = skipSpace(s, i+1)
		}
	}
	return rawLabel, rawText, nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string literal at s[i].
func skipString(s string, i int) int {
	for i++; s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// skipValue returns the index just past the JSON value at s[i].
func skipValue(s string, i int) int {
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for {
			switch s[i] {
			case '"':
				i = skipString(s, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	for i < len(s) && !strings.ContainsRune(",}] \t\r\n", rune(s[i])) {
		i++
	}
	return i
}

// keyIs reports whether the string literal key spells name.
func keyIs(key, name string) bool {
	if strings.IndexByte(key, '\\') < 0 {
		return key[1:len(key)-1] == name
	}
	return unquote(key) == name
}

// unquote returns the value of a valid JSON string literal.
func unquote(lit string) string {
	if strings.IndexByte(lit, '\\') < 0 {
		return lit[1 : len(lit)-1]
	}
	var s string
	_ = json.Unmarshal([]byte(lit), &s) // valid by construction
	return s
}
