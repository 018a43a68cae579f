package serve

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/textnb/textnb/mail"
)

// A "mail" field is decoded with the model's mail features and classified
// as the decoded text would be.
func TestPredictMail(t *testing.T) {
	dir := t.TempDir()
	m := train(t, spamTSV)
	m.MailInput, m.MailFeatures = "auto", "subject,url"
	path := save(t, filepath.Join(dir, "spam.model"), m)
	_, url := start(t, Options{}, Spec{"spam", path})
	raw := "Received: from x\nSubject: WINNER! Claim your prize\nContent-Type: text/html\n\n<p>call <a href='http://prize.example/'>now</a> to claim</p>\n"
	text := mail.Decode([]byte(raw), mail.WithFeatures(mail.Title|mail.URLs)).Text
	proba, best := m.NewPredictor().Proba(nil, text)
	js, _ := json.Marshal(raw)
	r := do(t, "POST", url+"/v1/models/spam/predict", `{"mail":`+string(js)+`}`)
	if r.code != 200 || r.body["label"] != m.Classes[best] {
		t.Fatalf("%d %s, want label %s", r.code, r.raw, m.Classes[best])
	}
	for c, name := range m.Classes {
		if got := r.body["proba"].(map[string]any)[name]; got != proba[c] {
			t.Errorf("P(%s) = %v, want %v", name, got, proba[c])
		}
	}
	if r := do(t, "POST", url+"/v1/models/spam/predict", `{"mail":"x","text":"y"}`); r.code != 400 {
		t.Errorf("mail and text: %d %s", r.code, r.raw)
	}
}
