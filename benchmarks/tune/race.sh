#!/bin/bash
# race.sh compares train --tune's default grid with the same grid unraced
# (race=no): the choice, the model bytes, wall and CPU seconds per corpus.
#
#	go build -o /tmp/textnb ./cmd/textnb
#	go run ./benchmarks/tune -corpora /tmp/corpora
#	B=/tmp/textnb CORPORA=/tmp/corpora TEXTNB_DATA=/work/data benchmarks/tune/race.sh
set -u
B=${B:?the textnb binary} C=${CORPORA:?the directory benchmarks/tune -corpora wrote} D=${TEXTNB_DATA:?the unpacked data}
SHARED=${SHARED:-$(dirname "$0")/../../../shared}
G='alpha=0.03,0.1,0.3,1;ngrams=1,1|1,2;char-ngrams=none|1,1|1,2|1,3|2,3;weighting=tfidf|counts;model=cnb|mnb;reweight=none|3;race=no'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {
	name=$1
	shift
	a=$({ /usr/bin/time -f "%e / %U" "$B" train --tune "$@" -o "$tmp/a.model" --quiet >"$tmp/a.txt"; } 2>&1 | tail -1)
	b=$({ /usr/bin/time -f "%e / %U" "$B" train --tune --grid "$G" "$@" -o "$tmp/b.model" --quiet >"$tmp/b.txt"; } 2>&1 | tail -1)
	same=$(cmp -s "$tmp/a.model" "$tmp/b.model" && echo identical || echo DIFFERENT)
	echo "| $name | $(grep '^best:' "$tmp/a.txt") | $(grep '^best:' "$tmp/b.txt") | $(grep -o '^([0-9]* settings scored on fold 1 only' "$tmp/a.txt" | tr -d '(') | $a | $b | $same |"
}
echo "| corpus | raced | race=no | dropped | raced wall / CPU s | race=no wall / CPU s | models |"
echo "|---|---|---|---|---|---|---|"
run 20ng "$D/20news-bydate-train"
run sms "$C/sms-train.jsonl"
run headlines "$C/subj-train.jsonl"
run enron1 "$D/enron1"
run enron2 "$D/enron2"
run enron3 "$D/enron3"
run spamassassin "$D/spamassassin"
run zh-sentences "$C/zhs-train.jsonl"
run chnsenticorp "$C/zh-train.jsonl"
run waimai "$SHARED/data/waimai_10k.csv" --text-field review
