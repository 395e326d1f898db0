package datasets

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Strings is a string-heavy web-log-like table: sorted event ids, URLs
// that share host prefixes, a few long user agents, two-letter country
// codes, random session ids and nullable short tags.
var Strings = &Dataset{
	Name:          "strings",
	Schema:        stringsSchema,
	RowGroups:     8,
	PrefixStrings: []string{"event_id", "url"},
	fullRows:      2_000_000,
	smallRows:     50_000,
	batch:         stringsBatch,
}

var stringsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "event_id", Type: arrow.BinaryTypes.String},
	{Name: "url", Type: arrow.BinaryTypes.String},
	{Name: "user_agent", Type: arrow.BinaryTypes.String},
	{Name: "country", Type: arrow.BinaryTypes.String},
	{Name: "session_id", Type: arrow.BinaryTypes.String},
	{Name: "tag", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// hosts are the URL hosts; userAgents the user-agent strings.
var hosts, userAgents = func() ([]string, []string) {
	h := make([]string, 40)
	for i := range h {
		h[i] = fmt.Sprintf("https://%s-%s.example.com/", words[i], words[(i*7+3)%len(words)])
	}
	ua := make([]string, 24)
	for i := range ua {
		ua[i] = fmt.Sprintf("Mozilla/5.0 (%s; rv:%d.0) Gecko/20100101 QuiverBench/%d.%d (%s %s)",
			[]string{"X11; Linux x86_64", "Windows NT 10.0; Win64; x64", "Macintosh; Intel Mac OS X 14_4"}[i%3],
			100+i, i/3, i%7, words[i], words[i+24])
	}
	return h, ua
}()

// stringsBatch builds rows [start, start+n).
func stringsBatch(mem memory.Allocator, rng *rand.Rand, start, n, _ int) arrow.RecordBatch {
	ids := array.NewStringBuilder(mem)
	defer ids.Release()
	urls := array.NewStringBuilder(mem)
	defer urls.Release()
	agents := array.NewStringBuilder(mem)
	defer agents.Release()
	countries := array.NewStringBuilder(mem)
	defer countries.Release()
	sessions := array.NewStringBuilder(mem)
	defer sessions.Release()
	tags := array.NewStringBuilder(mem)
	defer tags.Release()

	var b []byte
	for i := range n {
		b = append(b[:0], "evt-"...)
		b = appendHex(b, uint64(start+i)*3+uint64(rng.IntN(3)), 12)
		ids.BinaryBuilder.Append(b)

		b = append(b[:0], hosts[rng.IntN(len(hosts))]...)
		for range 1 + rng.IntN(3) {
			b = append(b, words[rng.IntN(len(words))]...)
			b = append(b, '/')
		}
		b = append(b, "?id="...)
		b = strconv.AppendInt(b, int64(rng.IntN(1_000_000)), 10)
		urls.BinaryBuilder.Append(b)

		agents.Append(userAgents[min(rng.IntN(len(userAgents)), rng.IntN(len(userAgents)))])

		c := min(rng.IntN(200), rng.IntN(200))
		countries.BinaryBuilder.Append([]byte{byte('A' + c/26), byte('A' + c%26)})

		sessions.BinaryBuilder.Append(appendHex(appendHex(b[:0], rng.Uint64(), 16), rng.Uint64(), 16))

		if rng.IntN(5) == 0 {
			tags.AppendNull()
		} else {
			k := rng.IntN(5000)
			w := words[k%len(words)]
			b = append(b[:0], w[:min(len(w), 1+k%5)]...)
			b = strconv.AppendInt(b, int64(k), 10)
			tags.BinaryBuilder.Append(b)
		}
	}
	return record(stringsSchema, int64(n), ids, urls, agents, countries, sessions, tags)
}
