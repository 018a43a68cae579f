package zh

import "strings"

// IsStopword reports whether w is a Chinese stopword: a function word,
// particle, pronoun, conjunction or CJK punctuation mark. The list is the
// common Chinese stopword list (about 670 entries) without its ASCII
// punctuation and content words, plus frequent function words it lacks.
// Negations such as 不 and 没 are kept out because they carry sentiment.
func IsStopword(w string) bool {
	_, ok := stopwords[w]
	return ok
}

// stopwords is built once from stopwordList and only read afterwards.
var stopwords = wordSet(stopwordList)

func wordSet(list string) map[string]struct{} {
	words := strings.Fields(list)
	set := make(map[string]struct{}, len(words))
	for _, w := range words {
		set[w] = struct{}{}
	}
	return set
}

// stopwordList holds the stopwords separated by white space.
const stopwordList = `
啊 阿 哎 哎呀 哎哟 唉 俺 俺们 按 按照 吧 吧哒 把 罢了 被 本
本着 比 比方 比如 鄙人 彼 彼此 边 别 别的 别说 并 并且 不比 不成 不单
不但 不独 不管 不光 不过 不仅 不拘 不论 不怕 不然 不如 不特 不惟 不问 不只 朝
朝着 趁 趁着 除 除此之外 除非 除了 此 此间 此外 从 从而 待 但 但是 当
当着 到 得 的 的话 等 等等 地 第 叮咚 对 对于 多 多少 而 而况
而且 而是 而外 而言 而已 尔后 反过来 反过来说 反之 非但 非徒 否则 嘎 嘎登 该 个
各 各个 各位 各种 各自 给 根据 跟 故 故此 固然 关于 归 果然 果真 过
哈 呵 和 何 何处 何况 何时 嘿 哼 哼唷 呼哧 乎 哗 还是 还有 换句话说
换言之 或 或是 或者 极了 及 及其 及至 即 即便 即或 即令 即若 即使 几 几时
己 既 既然 既是 继而 加之 假如 假若 假使 鉴于 将 较 较之 接着 借 紧接着
进而 尽 尽管 经 经过 就 就是 就是说 据 具体地说 具体说来 开外 咳 可 可见 可是
可以 况且 啦 来 来着 离 例如 哩 连 连同 两者 了 临 另 另外 另一方面
论 嘛 吗 慢说 漫说 么 每 每当 们 莫若 某 某个 某些 哪 哪边 哪儿
哪个 哪里 哪年 哪怕 哪天 哪些 哪样 那 那边 那儿 那个 那会儿 那里 那么 那么些 那么样
那时 那些 那样 乃 乃至 呢 能 你 你们 您 宁 宁可 宁肯 宁愿 哦 呕
啪达 旁人 呸 凭 凭借 其 其次 其二 其他 其它 其一 其余 其中 起 起见 岂但
恰恰相反 前者 且 然而 然后 然则 让 人家 任 任何 任凭 如 如此 如果 如何 如其
如若 如上所述 若 若非 若是 啥 尚且 设若 设使 甚而 甚么 甚至 省得 什么 什么样 使得
是 是的 首先 谁 谁知 顺着 似的 虽 虽然 虽说 虽则 随 随着 所 所以 他
他们 他人 它 它们 她 她们 倘 倘或 倘然 倘若 倘使 替 通过 同 同时 哇
万一 往 为 为何 为了 为什么 为着 喂 嗡嗡 我 我们 呜 呜呼 乌乎 无论 无宁
毋宁 嘻 吓 相对而言 像 向 向着 嘘 呀 焉 沿 沿着 要 要不 要不然 要不是
要么 要是 也 也罢 也好 一 一般 一旦 一方面 一来 一切 一样 一则 依 依照 矣
以 以便 以及 以免 以至 以至于 以致 抑或 因 因此 因而 因为 哟 用 由 由此可见
由于 有 有的 有关 有些 又 于 于是 于是乎 与 与此同时 与否 与其 越是 云云 哉
再说 再者 在 在下 咱 咱们 则 怎 怎么 怎么办 怎么样 怎样 咋 照 照着 者
这 这边 这儿 这个 这会儿 这就是说 这里 这么 这么点儿 这么些 这么样 这时 这些 这样 正如 吱
之 之类 之所以 之一 只是 只限 只要 只有 至 至于 诸位 着 着呢 自 自从 自个儿
自各儿 自己 自家 自身 综上所述 总的来看 总的来说 总的说来 总而言之 总之 纵 纵令 纵然 纵使 遵照 作为
， 。 、 ？ ！ ： ； “ ” ‘ ’ （ ） 《 》 〈
〉 … 兮 呃 呗 咚 咦 喏 嗬 嗯 嗳 啊哈 啊呀 啊哟 呐 喽
嘞 噢 喔 诶 欸 唔 咧 耶 呦 本人 本身 别人 大家 自个 这种 那种
这般 那般 此时 此处 此次 彼时 其间 所有 一些 一下 一点 一点儿 有点 有点儿 某种 每个
诸 诸如 诸如此类 一个 一种 一直 一起 一边 一面 一再 一向 毕竟 必须 便 并非 才
此后 从此 从来 当然 倒是 到底 的确 都 而后 而又 反而 方才 刚 刚才 刚刚 更
更加 故而 光是 何必 何尝 后来 互相 还 或许 基于 即将 几乎 加上 加以 简直 将要
仅 仅仅 竟然 究竟 就算 居然 看来 可能 恐怕 快要 马上 每每 莫非 难道 偶尔 其实
起来 岂 恰好 仍 仍然 然 如今 如上 如下 上来 上去 已 已经 曾 曾经 正在
正 在于 总是 总 已然 亦 乃是 就要 将会 会 应 应该 应当 得以 须 需
也许 大概 大约 差不多 以后 以前 之后 之前 之间 之中 之上 之下 以上 以下 以外 以内
以来 为止 当中 同样 如同 好像 似乎 仿佛 譬如 比如说 比起 只 只能 只好 只得 甚
甚或 来说 来讲 来看 看起来 说来 也是 都是 免得 没有 有的是 使 令 还要 还会
`
