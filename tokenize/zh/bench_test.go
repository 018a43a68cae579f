package zh

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// benchText is review- and news-like prose, about 4 KB.
var benchText = strings.Repeat(`这家餐厅的服务态度非常好，菜也很好吃，就是价格有点贵，下次还会再来。
电影的剧情太拖沓了，演员的表演也很一般，看到一半我就想走了，不推荐大家去看。
手机收到了，包装完好，运行速度很快，电池也比较耐用，拍照效果超出预期，五星好评。
快递太慢了，等了一个星期才到，而且盒子都压坏了，客服的态度也很差，非常失望。
国家统计局今天发布数据显示，上半年国内生产总值同比增长百分之五点三，经济运行总体平稳。
北京大学的研究团队在自然语言处理领域取得重要进展，相关论文发表在国际顶级期刊上。
记者从交通运输部获悉，今年暑期全国铁路旅客发送量预计将创历史新高，各地加开列车满足出行需求。
这本书写得很有深度，作者用平实的语言讲述了一个感人的故事，值得反复阅读。
酒店位置很方便，离地铁站只有五分钟的路程，房间干净整洁，早餐种类也很丰富。
`, 3)

func BenchmarkCut(b *testing.B) {
	s := loaded(b)
	lines := strings.Split(benchText, "\n")
	var dst []string
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			dst = s.Cut(dst[:0], l)
		}
	}
}

func BenchmarkCutParallel(b *testing.B) {
	s := loaded(b)
	lines := strings.Split(benchText, "\n")
	b.SetBytes(int64(len(benchText)))
	b.RunParallel(func(pb *testing.PB) {
		var dst []string
		for pb.Next() {
			for _, l := range lines {
				dst = s.Cut(dst[:0], l)
			}
		}
	})
}

// BenchmarkLoad loads a fresh dictionary per iteration and reports the heap
// it keeps.
func BenchmarkLoad(b *testing.B) {
	var before, after runtime.MemStats
	var elapsed time.Duration
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		var s Segmenter
		if err := s.Load(); err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(&s)
	}
	b.ReportMetric(elapsed.Seconds()/float64(b.N), "s/load")
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-heap")
}
