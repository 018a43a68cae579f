package tokenize

// Fixtures for tests and benchmarks: ordinary prose, written for this
// package, in the mixed register of newsgroup posts.

const englishProse = `From: jdoe@example.edu (John Doe)
Subject: Re: Which graphics card for a small lab?
Organization: University Computing Services
Lines: 41

In article <1993Apr5.152311.4021@example.edu> someone writes:
>We are setting up a small teaching lab and want to know whether the newer
>accelerated cards are worth the extra money, or whether plain VGA will do.

It depends almost entirely on what your students will be running. If they
spend most of their time in editors, terminals and the occasional plotting
package, a plain card with a decent monitor is more than enough, and you can
put the money you save into memory. Memory made a bigger difference to our
machines than anything else we tried last year: the compilers stopped
thrashing, the window manager stopped stalling, and people stopped
complaining about the network, which had never been the problem anyway.

If, on the other hand, they are going to do anything with images, such as
rendering, simple animation, or looking at scanned documents, the
accelerated cards really do help. We measured redraw times on three of them
with a crude benchmark that scrolled a large bitmap across the screen, and
the fastest card finished in about a quarter of the time of the slowest.
That said, the drivers for two of the cards were unreliable under the
windowing system we run, and one of the vendors took months to answer a
simple question about interlaced modes. Reliability matters more than raw
speed when twenty undergraduates are sharing the same room at two in the
morning before an assignment is due.

A few practical suggestions, for what they are worth. Buy one of each
candidate first and let a handful of students use them for a week; their
opinions were far more useful to us than any magazine review. Check that
the monitors can actually display the resolutions the cards advertise,
because several of the cheaper models could not hold a stable picture at
the higher refresh rates. Keep spare cables; they disappear. And write down
every setting you change, since the person who maintains the lab next year
will not remember why the third machine from the window behaves differently
from all the others.

Finally, do not underestimate the cost of noise and heat. Some of the
accelerated boards ran noticeably hotter, and in a small room with fifteen
machines the temperature climbed by several degrees over an afternoon. We
ended up moving two of the machines into the corridor, which solved the
heat problem and created a new one with the fire marshal. Plan the power
and the ventilation before you plan the graphics, and the rest will follow.

Good luck with the lab; I would be happy to share our benchmark numbers if
you send me mail.

-- 
John Doe, Computing Services          "Nothing is as permanent as a
jdoe@example.edu                        temporary arrangement."
`

const chineseProse = `朴素贝叶斯分类器是一种简单而有效的文本分类方法。它假设在给定类别的条件下，
各个特征之间相互独立。虽然这个假设在现实中很少成立，但是在垃圾邮件过滤、新闻分类和情感分析等任务中，
朴素贝叶斯仍然表现得相当不错。训练过程只需要统计每个类别中各个词语出现的次数，因此速度非常快，
也很容易并行处理。对于中文文本，首先需要进行分词，因为中文句子中的词语之间没有空格。
常见的做法是使用基于词典的分词工具，再结合隐马尔可夫模型识别未登录词。另一种做法是直接使用
字符的二元组作为特征，这样不需要词典，也能取得接近的效果。在实际应用中，我们通常会去掉停用词，
并使用词频与逆文档频率进行加权，然后再训练模型。评估时，应当使用独立的测试集，
并报告准确率、召回率和F1值等指标，以便与其他方法进行比较。`

const mixedProse = `我们在2024年用Go语言实现了一个Naive Bayes文本分类器，支持TF-IDF加权和word bigrams。
The classifier reads CSV和JSONL格式的数据，训练速度 about 100 MB/s。東京タワー와 한국어 텍스트도
Привет, мир! 🎉 ＡＢＣ１２３ café naïve résumé.`
