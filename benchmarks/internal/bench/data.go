package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// archives names the shared archive that holds each unpacked folder.
var archives = map[string]string{
	"20news-bydate-train": "20news-bydate.tar.gz",
	"20news-bydate-test":  "20news-bydate.tar.gz",
	"spamassassin":        "spamassassin-2002-2003.tar.gz",
	"enron1":              "enron-spam-1-3.tar.gz",
	"enron2":              "enron-spam-1-3.tar.gz",
	"enron3":              "enron-spam-1-3.tar.gz",
}

var unpacked sync.Map // archive → folder it was unpacked into

// DataDir returns the folder name of a shared archive (see archives):
// $TEXTNB_DATA/name, or ../data/name beside the shared folder, when
// present, else the archive unpacked, once per process, under tmp.
func DataDir(tmp, name string) (string, error) {
	for _, base := range []string{os.Getenv("TEXTNB_DATA"), filepath.Join(Shared(), "..", "data")} {
		if base == "" {
			continue
		}
		p := filepath.Join(base, name)
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, nil
		}
	}
	archive, ok := archives[name]
	if !ok {
		return "", fmt.Errorf("no archive holds %s", name)
	}
	if dir, ok := unpacked.Load(archive); ok {
		return filepath.Join(dir.(string), name), nil
	}
	dir, err := os.MkdirTemp(tmp, "unpacked-")
	if err != nil {
		return "", err
	}
	src := filepath.Join(Shared(), "data", archive)
	if err := Untar(src, dir); err != nil {
		return "", fmt.Errorf("unpack %s: %w", src, err)
	}
	unpacked.Store(archive, dir)
	return filepath.Join(dir, name), nil
}

// MailCorpora are the raw-mail corpora of the mail benchmarks: SpamAssassin
// 2002/03 (class folders ham and spam with subfolders) and Enron1–3.
var MailCorpora = []string{"spamassassin", "enron1", "enron2", "enron3"}

// MailFolds writes the k stratified folds (seed) of a mail corpus under
// tmp and returns them with the sklearn job that scores them, on text
// decoded by mail_text.py or, with !decoded, on the raw bytes. Both mail
// benchmarks call it with the same k and seed, and so share cached results.
func MailFolds(tmp, name string, k int, seed uint64) (Fold, error) {
	dir, err := DataDir(tmp, name)
	if err != nil {
		return Fold{}, err
	}
	items, err := FileItems(dir)
	if err != nil {
		return Fold{}, err
	}
	return WriteFolds(filepath.Join(tmp, "folds-"+name), items, k, seed)
}

// MailJob is the sklearn job of a mail corpus's folds.
func MailJob(name string, f Fold, decoded bool) SklearnJob {
	key := name + " raw"
	if decoded {
		key = name + " decoded"
	}
	return SklearnJob{Key: key, Fold: f, Mail: decoded, Positive: "spam"}
}
