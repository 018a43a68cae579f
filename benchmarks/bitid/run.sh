#!/bin/sh
# run.sh BIN OUT: the model files and predictions of textnb build BIN, to
# compare with cmp against another build's (issue 38's bit-identity check):
# --fast and the default on 20 Newsgroups (bydate train → test), SMS (first
# 4,000 lines → the rest) and ChnSentiCorp (train → test_labeled), and
# --multi-label on Reuters (first 6,000 stories → the rest).
#
#	D=/work/data sh benchmarks/bitid/run.sh ./textnb-before before
#	D=/work/data sh benchmarks/bitid/run.sh ./textnb-after after
#	for f in before/*; do cmp "$f" "after/${f#before/}"; done
#
# D holds the unpacked 20news-bydate-train and -test folders; S is ../shared/data.
set -e
B=$1 O=$2
D=${D:-/work/data} S=${S:-$(dirname "$0")/../../../shared/data}
I=${TMPDIR:-/tmp}/textnb-bitid-in # one place for both builds: predictions name their files
mkdir -p "$O" "$I"
cp "$S/smsspamcollection/SMSSpamCollection" "$I/sms.tsv"
head -4000 "$I/sms.tsv" > "$I/sms-train.tsv"
tail -n +4001 "$I/sms.tsv" > "$I/sms-test.tsv"
cut -f2,3 "$S/chnsenticorp/test_labeled.tsv" > "$I/chn-test.tsv"
head -6000 "$S/reuters21578-modapte-train.jsonl" > "$I/reut-train.jsonl"
tail -n +6001 "$S/reuters21578-modapte-train.jsonl" > "$I/reut-test.jsonl"
for mode in fast default; do
	f=""
	[ $mode = fast ] && f="--fast"
	"$B" train "$D/20news-bydate-train" $f -o "$O/20ng-$mode.model" >/dev/null 2>&1
	"$B" predict -m "$O/20ng-$mode.model" --json "$D/20news-bydate-test" > "$O/20ng-$mode.pred"
	"$B" train "$I/sms-train.tsv" $f -o "$O/sms-$mode.model" >/dev/null 2>&1
	"$B" predict -m "$O/sms-$mode.model" --json "$I/sms-test.tsv" > "$O/sms-$mode.pred"
	"$B" train "$S/chnsenticorp/train.tsv" --text-field text_a $f -o "$O/chn-$mode.model" >/dev/null 2>&1
	"$B" predict -m "$O/chn-$mode.model" --json "$I/chn-test.tsv" --text-field text_a > "$O/chn-$mode.pred"
done
"$B" train "$I/reut-train.jsonl" --multi-label -o "$O/reut.model" >/dev/null 2>&1
"$B" predict -m "$O/reut.model" --json "$I/reut-test.jsonl" > "$O/reut.pred"
